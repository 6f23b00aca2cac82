"""The pack pages (``fechtbuch pack html``) on a phone: 390 x 844 CSS pixels, in German
and in English (system Chromium through Playwright).

The page of each shipped pack, every exercise of it (fechtuebungen: Battleklinge's
version-1 page; meisterstudien, touche-uebungen, pyramiden-uebungen: the version-2
page, without the verdicts past a pruned tree's cut, which take minutes to judge and
add no text to the page as it opens), must fit the phone's width: the document is no
wider than the window, so nothing scrolls sideways.  As it opens, the first exercise's
drawing, its status line and its controls are wholly on the screen, without
scrolling; after the first action of its main line is played by clicking the board
(and the defence has answered), and once the solution is shown, the page is still no
wider than the phone.
"""

from __future__ import annotations

import orjson
import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.v1page import pack_html
from fechtbuch.puzzles.pack import pack_kind
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from support.languages import in_one_language
from support.pack_clicks import clicks
from support.pack_page import open_pack_page
from support.phone import PHONE, assert_on_screen
from support.webserver import chromium

PACKS = ["fechtuebungen", "meisterstudien", "touche-uebungen", "pyramiden-uebungen"]
LOCALES = {"de": "de-DE", "en": "en-US"}
ON_SCREEN = ["#diagram svg", "#status", "#controls"]

WIDTHS = "[document.documentElement.scrollWidth, window.innerWidth]"


@pytest.fixture(scope="module")
def page_files(tmp_path_factory):
    """name: (the shipped pack, its page's file), in the browser's language."""
    folder = tmp_path_factory.mktemp("phone-pages")
    files = {}
    for name in PACKS:
        pack = orjson.loads(data_path("packs", f"{name}.json").read_bytes())
        html = pack_html(pack) if pack["version"] == 1 else pack2_html(pack, verdicts=False)
        path = folder / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        files[name] = (pack, path)
    return files


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


def no_sideways_scrolling(page, when: str) -> None:
    scroll, window = page.evaluate(WIDTHS)
    assert window == PHONE["width"], when
    assert scroll <= window, f"{when}: the page is {scroll} px wide on a {window} px phone"


def square(text: str) -> str:
    """A Battleklinge square of the version-1 page's drawing ("c2")."""
    return f"#diagram rect.sq[data-sq='{'abcde'.index(text[0]) + 5 * (int(text[1]) - 1)}']"


def play_the_key(page, pack: dict) -> None:
    """The first exercise's first action, clicked on the board as a person does; then
    wait until the defence has answered (or the exercise is solved)."""
    puzzle = pack["puzzles"][0]
    if pack["version"] == 1:
        card, where = puzzle["key"].split(":")
        page.click(square(where[:2]))
        page.click(square(where[2:]))
        choice = f"#choice button[data-move='{puzzle['key']}']"
        if page.is_visible(choice):
            page.click(choice)
        page.wait_for_function(
            "document.getElementById('status').dataset.state !== 'play'"
            " && document.getElementById('moves').textContent !== ''"
        )
    else:
        tree = PuzzleTree(pack_kind(pack), puzzle)
        for selector in clicks(tree, tree.root, puzzle["line"][0]):
            page.click(selector)
        page.wait_for_function(
            "document.getElementById('status').dataset.state !== 'good'"
            " || document.querySelector('#diagram .pick') !== null"
        )
    assert page.evaluate("document.getElementById('status').dataset.state") != "lost"


# each pack in one language by default, the other with the slow tests; the defaults
# alternate, so that the default run sees each language's texts at a phone's width
@pytest.mark.parametrize(
    ("name", "lang"),
    [
        *in_one_language("fechtuebungen", default="de"),
        *in_one_language("meisterstudien", default="en"),
        *in_one_language("touche-uebungen", default="de"),
        *in_one_language("pyramiden-uebungen", default="en"),
    ],
)
def test_a_pack_page_fits_a_phone(browser, page_files, name, lang):
    pack, path = page_files[name]
    with open_pack_page(browser, path, LOCALES[lang], PHONE) as page:
        assert page.evaluate("fbI18n.lang") == lang
        no_sideways_scrolling(page, "the page opens")
        assert_on_screen(page, ON_SCREEN)
        # the first exercise's own actions are on the screen too: a button of the
        # controls, and every pick of the drawing
        picks = page.eval_on_selector_all(
            "#controls button, #diagram .pick, #diagram rect.sq",
            "els => els.map(e => e.getBoundingClientRect().right)",
        )
        assert picks and max(picks) <= PHONE["width"], picks
        play_the_key(page, pack)
        no_sideways_scrolling(page, "the first action played")
        page.click("#hint")
        no_sideways_scrolling(page, "the solution shown")
