"""axe-core, Deque's accessibility rules, run inside a page of the browser tests.

The script comes from the test dependency axe-playwright-python, which bundles
axe-core's axe.min.js; nothing is downloaded at test time.  A page fails on every
violation axe-core rates serious or critical (missing names, broken ARIA structure,
contrast below WCAG AA); moderate and minor findings are reported by axe-core's own
tools and left out here.
"""

from __future__ import annotations

FAILING = ("serious", "critical")


SETTLED = """() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => null)))"""


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it stands."""
    # a screen fading in is checked once it stands (mid-fade its colours are pale)
    page.evaluate(SETTLED)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in FAILING]


def report(found: list[dict]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node['html'][:160]}")
    return "\n".join(lines)


def assert_accessible(page, where: str) -> None:
    """Fail with axe-core's words when the page has a serious or critical violation."""
    found = violations(page)
    assert not found, f"axe-core on {where}:\n{report(found)}"
