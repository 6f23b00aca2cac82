"""The page at phone size for the browser tests: the parts of a table that must be on
the screen without scrolling, and the smallest text a person has to read."""

from __future__ import annotations

PHONE = {"width": 390, "height": 844}

SMALLEST_TEXT = """(root) => {
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  const own = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const sizes = [...document.querySelectorAll(root + ' *')].filter((e) => own(e) && seen(e))
    .map((e) => {
      const size = parseFloat(getComputedStyle(e).fontSize);
      // SVG text as drawn: its font size in user units times the drawing's scale
      if (!(e instanceof SVGElement) || !e.getScreenCTM()) return size;
      const m = e.getScreenCTM();
      return size * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    });
  return Math.min(...sizes, Infinity);
}"""


def smallest_text(page, root: str = "body") -> float:
    """The smallest font size, in CSS pixels as drawn, of any visible text under
    ``root`` (SVG text scaled by its drawing's transform)."""
    return page.evaluate(SMALLEST_TEXT, root)


def assert_on_screen(page, parts) -> None:
    """Every element of ``parts`` (selectors) is drawn and wholly inside the viewport
    as the page stands (no scrolling)."""
    size = page.viewport_size
    for part in parts:
        box = page.eval_on_selector(part, "e => e.getBoundingClientRect().toJSON()")
        assert box["width"] > 0 and box["height"] > 0, (part, box)
        inside = (
            box["left"] >= 0
            and box["top"] >= 0
            and box["right"] <= size["width"]
            and box["bottom"] <= size["height"]
        )
        assert inside, (part, box, size)
