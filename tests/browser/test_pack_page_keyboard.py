"""The version-2 pack pages (``fechtbuch pack html``) played with the keyboard alone, and
checked by axe-core (system Chromium through Playwright).

For one exercise of two own turns or more of each shipped version-2 pack (the Touché
duel, the pyramids, Battleklinge's master studies), the person Tabs to the board and plays the main
line's own actions with the arrow keys and Enter: the arrows walk from pick to pick
(cards, squares, fields) towards the one the action needs (tests/support/
pack_clicks.py names them), Tab reaches a worded choice.  After the defence has
answered, the keyboard is still on the board.  A wrong action by keyboard is refused
as lost.  axe-core finds no serious or critical violation on the page as it opens,
with a card or piece picked, and once the exercise is solved.
"""

from __future__ import annotations

import orjson
import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.pack import pack_kind
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from support.axe import assert_accessible
from support.pack_clicks import clicks
from support.pack_page import open_pack_page
from support.webserver import chromium

PACKS = ["touche-uebungen", "pyramiden-uebungen", "meisterstudien"]

ON_THE_BOARD = (
    "document.activeElement.closest && document.activeElement.closest('#diagram .pick') !== null"
)


def smallest(name: str) -> dict:
    """The pack with its smallest exercise of at least two own turns (the keyboard has
    to stay on the board across the defence's answer)."""
    pack = orjson.loads(data_path("packs", f"{name}.json").read_bytes())
    deep = [p for p in pack["puzzles"] if p["n"] >= 2]
    chosen = sorted(deep, key=lambda p: (p["n"], len(orjson.dumps(p))))[:1]
    return dict(pack, puzzles=chosen)


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


def focused(page) -> dict:
    return page.evaluate(
        """() => { const a = document.activeElement; const r = a.getBoundingClientRect();
        return {x: r.left + r.width / 2, y: r.top + r.height / 2, pick: a.dataset ? a.dataset.pick || null : null}; }"""
    )


def walk_to(page, selector: str) -> None:
    """Arrow keys from the focused pick to the one ``selector`` names."""
    target = page.locator(selector)
    assert target.count() == 1, selector
    want = target.get_attribute("data-pick")
    assert want, f"{selector} is not a pick"
    box = target.bounding_box()
    tx, ty = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tried: set[tuple[str | None, str]] = set()
    for _ in range(120):
        now = focused(page)
        if now["pick"] == want:
            return
        dx, dy = tx - now["x"], ty - now["y"]
        keys = ["ArrowRight" if dx > 0 else "ArrowLeft", "ArrowDown" if dy > 0 else "ArrowUp"]
        if abs(dy) > abs(dx):
            keys.reverse()
        # the arrow towards the target that moves the focus, the main direction first
        for key in keys + [
            k for k in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight") if k not in keys
        ]:
            if (now["pick"], key) in tried:
                continue
            tried.add((now["pick"], key))
            page.keyboard.press(key)
            if focused(page)["pick"] != now["pick"]:
                break
    raise AssertionError(f"the arrow keys did not reach {selector}")


def tab_to(page, selector: str) -> None:
    """Tab (forward) until the element ``selector`` names has the focus."""
    for _ in range(40):
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab did not reach {selector}")


def press_action(page, selectors: list[str]) -> None:
    for selector in selectors:
        if selector.startswith("#diagram"):
            if not page.evaluate(ON_THE_BOARD):
                page.keyboard.press("Shift+Tab")
            walk_to(page, selector)
        else:
            tab_to(page, selector)
        page.keyboard.press("Enter")


def tab_to_the_board(page) -> None:
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate(ON_THE_BOARD):
            return
    raise AssertionError("Tab did not reach the board")


def settle(page) -> str:
    page.wait_for_function(
        "document.getElementById('status').dataset.state !== 'good'"
        " || document.querySelector('#diagram .pick') !== null"
    )
    return page.evaluate("document.getElementById('status').dataset.state")


@pytest.mark.parametrize("name", PACKS)
def test_an_exercise_is_played_with_the_keyboard_alone(browser, tmp_path, name):
    pack = smallest(name)
    path = tmp_path / f"{name}.html"
    path.write_text(pack2_html(pack, verdicts=False, lang="en"), encoding="utf-8")
    puzzle = pack["puzzles"][0]
    tree = PuzzleTree(pack_kind(pack), puzzle)
    with open_pack_page(browser, path, "en-US") as page:
        assert_accessible(page, f"{name}: the page opens")
        # a wrong action first: refused, and the board keeps the keyboard
        wrong = next(
            t for t in sorted(tree.legal(tree.root)) if tree.step(tree.root, t).tree is None
        )
        tab_to_the_board(page)
        press_action(page, clicks(tree, tree.root, wrong))
        assert page.evaluate("document.getElementById('status').dataset.state") == "lost"
        assert page.evaluate(ON_THE_BOARD), f"{name}: the refusal took the keyboard off the board"
        node, first = tree.root, True
        for text in puzzle["line"]:
            if tree.solver_to_act(node):
                assert page.evaluate(ON_THE_BOARD), (
                    f"{name}: the keyboard left the board before {text}"
                )
                selectors = clicks(tree, node, text)
                press_action(page, selectors[:1])
                if first:
                    assert_accessible(page, f"{name}: a card or piece picked")
                    first = False
                press_action(page, selectors[1:])
                settle(page)
            node = tree.step(node, text)
        page.wait_for_function("document.getElementById('status').dataset.state === 'solved'")
        assert page.evaluate("document.activeElement.id") == "restart"  # the keyboard goes on
        assert_accessible(page, f"{name}: the exercise solved")
