"""The pack pages (``fechtbuch pack html``) in German and in English: every visible
text from the catalogue of the page's language (system Chromium through Playwright;
tests/support/page_language.py says what counts as seen and what is free).

Each shipped pack gets its page from a few of its exercises (the page is the same for
any number of them; the master studies' page without the verdicts past the cut,
which take minutes to judge): fechtuebungen (Battleklinge's version-1 page),
meisterstudien (Battleklinge, version 2), touche-uebungen and pyramiden-uebungen (the
Touché games, version 2; for these three, exercises whose main line holds every sort
of answer by the defence: a move and a capture, the cards the person draws and the
opponent's actions).  In a browser that speaks German and in one that speaks
English, the page starts in that language, plays one exercise right to its end,
plays a wrong action in another (the sure path lost), takes it back and shows the
solution (Battleklinge's version-1 page steps through the main line too), and is
switched to the other language; at each state every text a person sees (SVG text,
titles, labels and the refusals included) must come from the catalogue the page
holds for its language.  Every action is played by clicking the board as a person
does (a piece and its target, cards and a square or the opponent, a card and a
field: tests/support/pack_clicks.py), and the version-2 pages never show a button
in notation.  Once the exercise is solved, and again in the other language, the
page's list of moves says every action of the main line, the person's and the
defence's, in the words of the catalogue with its notation beside them, as
tests/support/pack_words.py works them out from the games' own actions.  A version-1
pack whose tree claims a hit the rules deny shows
the page's error line, worded too.  Besides the numbers, the free strings are the
notation of the exercises' actions and the pack's command line.  Without JavaScript
of their own the tests also check that both catalogues have the same keys, that the
pages' scripts ask for none they lack, that each game names all of its motifs, and
that ``pack html --lang`` chooses the language the page starts in.
"""

from __future__ import annotations

import copy
import importlib
import json
import re
from pathlib import Path

import orjson
import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.v1page import pack_html
from fechtbuch.puzzles.motifs import MotifCatalogue
from fechtbuch.puzzles.pack import pack_kind
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.pagekit import LANGUAGES, game_package, page_texts, texts_of
from support.clirun import run
from support.pack_clicks import NOTATION_BUTTON, clicks, solution_texts
from support.pack_page import open_pack_page
from support.pack_words import answer_key, moves_said
from support.page_language import VISIBLE_TEXTS, Catalogue, leaks
from support.webserver import chromium

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
LOCALES = {"de": "de-DE", "en": "en-US"}
KEY_SHOWN = re.compile(r"\bpp\.[\w.-]+")
"""A catalogue key shown in place of its text."""
AUTONYMS = ["Deutsch", "English"]


def shipped(name: str) -> dict:
    return orjson.loads(data_path("packs", f"{name}.json").read_bytes())


def smallest(pack: dict, count: int) -> dict:
    """The pack with its ``count`` exercises of the fewest turns (the smallest trees)."""
    chosen = sorted(pack["puzzles"], key=lambda p: (p["n"], len(orjson.dumps(p))))[:count]
    return dict(pack, puzzles=chosen)


def answered(pack: dict, count: int) -> dict:
    """As :func:`smallest`, among the exercises whose main line holds the most sorts of
    answer by the defence, as the page words them (Battleklinge's: a move and a
    student taken; the duel's: the cards drawn and an action of the opponent; the
    pyramids': an action of the opponent and the card drawn)."""
    kind = pack_kind(pack)

    def sorts(puzzle: dict) -> int:
        tree = PuzzleTree(kind, puzzle)
        node, found = tree.root, set()
        for text in puzzle["line"]:
            if not tree.solver_to_act(node):
                found.add(answer_key(tree, node, text))
            node = tree.step(node, text)
        return len(found)

    def key(puzzle: dict) -> tuple:
        return -sorts(puzzle), puzzle["n"], len(orjson.dumps(puzzle))

    return dict(pack, puzzles=sorted(pack["puzzles"], key=key)[:count])


def pages() -> dict[str, tuple[dict, str]]:
    """name: (the pack shown, its page)."""
    made = {}
    v1 = smallest(shipped("fechtuebungen"), 2)
    made["fechtuebungen"] = (v1, pack_html(v1))
    studies = answered(shipped("meisterstudien"), 1)
    made["meisterstudien"] = (studies, pack2_html(studies, verdicts=False))
    for name in ("touche-uebungen", "pyramiden-uebungen"):
        pack = answered(shipped(name), 2)
        made[name] = (pack, pack2_html(pack))
    return made


@pytest.fixture(scope="module")
def page_files(tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    folder = tmp_path_factory.mktemp("pack-pages")
    files = {}
    for name, (pack, html) in pages().items():
        path = folder / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        files[name] = (pack, path)
    return files


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


def free_strings(pack: dict, page) -> list[str]:
    """The language-free strings of a page: the notation of every action its exercises
    and its page data name (a version-2 page says an action in words with its
    notation beside them), the pack's command line and the program that made it."""
    found = solution_texts(pack)
    for puzzle in pack["puzzles"]:
        found.update(puzzle["line"])
    for puzzle in page_data(page)["puzzles"]:
        for node in puzzle.get("nodes", []):
            found.update(a["text"] for a in node.get("actions", []))
            found.update(a["line"] for a in node.get("actions", []) if a.get("line"))
    generator = pack.get("generator", {})
    found.update([pack["command"], " ".join(str(v) for v in generator.values())])
    return sorted(found)


def page_data(page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('fb-data').textContent)")


class Checked:
    """One page: ``check(state)`` collects what is seen in the page's language and keeps
    every text its catalogue does not give, named by the state."""

    def __init__(self, page, free: list[str]) -> None:
        self.page, self.free = page, [*free, *AUTONYMS]
        self.found: list[str] = []
        self.states = 0

    def check(self, state: str) -> None:
        lang = self.page.evaluate("fbI18n.lang")
        assert self.page.evaluate("document.documentElement.lang") == lang
        texts = self.page.evaluate(
            f"JSON.parse(document.getElementById('fb-texts').textContent).{lang}"
        )
        seen = self.page.evaluate(VISIBLE_TEXTS)
        assert len(seen) > 20, state
        self.states += 1
        for leak in leaks(seen, Catalogue.of(texts), self.free):
            self.found.append(f"[{lang}] {state}: {leak}")


def status(page) -> tuple[str, str]:
    return page.evaluate(
        "[document.getElementById('status').dataset.state, document.getElementById('status').textContent]"
    )


def pick(page, index: int) -> None:
    page.click(f"#list tr.row[data-index='{index}']")


# ---- version 2: played on the board, the nodes precomputed -----------------------------


def settle(page) -> str:
    """Wait until the defence has answered (the board is pickable again, or the
    exercise has ended); the status line's state."""
    page.wait_for_function(
        "document.getElementById('status').dataset.state !== 'good'"
        " || document.querySelector('#diagram .pick') !== null"
    )
    return status(page)[0]


def no_notation_buttons(page, free: list[str]) -> None:
    """The version-2 page offers its actions on the board: no button is labelled with
    an action's notation."""
    assert page.locator(NOTATION_BUTTON).count() == 0
    shown = page.evaluate("Array.from(document.querySelectorAll('button'), b => b.textContent)")
    assert not set(shown) & set(free), shown


def play_on_the_board(page, c: Checked, tree: PuzzleTree, node, text: str, first: bool) -> None:
    """Click the action's cards, squares, fields and worded choices; after the first
    click of the first action, the page is checked with the choice shown."""
    for number, selector in enumerate(clicks(tree, node, text)):
        page.click(selector)
        if first and number == 0:
            c.check("a card or a piece picked: the board lit")
            no_notation_buttons(page, c.free)


def play_v2_right(page, c: Checked, pack: dict, index: int) -> None:
    puzzle = pack["puzzles"][index]
    tree = PuzzleTree(pack_kind(pack), puzzle)
    pick(page, index)
    c.check("an exercise begins")
    no_notation_buttons(page, c.free)
    node = tree.root
    for number, text in enumerate(puzzle["line"]):
        if tree.solver_to_act(node):
            play_on_the_board(page, c, tree, node, text, number == 0)
            settle(page)
        node = tree.step(node, text)
    page.wait_for_function("document.getElementById('status').dataset.state === 'solved'")
    c.check("the exercise solved")
    moves_in_words(page, tree, puzzle["line"])


def moves_in_words(page, tree: PuzzleTree, line: list[str]) -> None:
    """The list of moves says the person's actions and the defence's answers in the
    words of the page's catalogue, each with its notation beside them."""
    lang = page.evaluate("fbI18n.lang")
    texts = page.evaluate(f"JSON.parse(document.getElementById('fb-texts').textContent).{lang}")
    shown = page.eval_on_selector_all("#moves li", "items => items.map(i => i.textContent)")
    assert shown == moves_said(tree, line, texts), lang
    assert not any(KEY_SHOWN.search(item) for item in shown), shown


def play_v2_wrong(page, c: Checked, pack: dict, index: int) -> None:
    pick(page, index)
    puzzle = pack["puzzles"][index]
    tree = PuzzleTree(pack_kind(pack), puzzle)
    root = page_data(page)["puzzles"][index]["nodes"][0]
    wrong = next(a["text"] for a in root["actions"] if a["to"] is None)
    play_on_the_board(page, c, tree, tree.root, wrong, False)
    assert status(page)[0] == "lost"
    c.check("a wrong action: the sure path lost")
    page.click("#hint")
    assert status(page)[0] == "line"
    c.check("the solution shown")
    page.click("#restart")


# ---- version 1: Battleklinge's board, a piece and its target -------------------------


def square(text: str) -> int:
    return "abcde".index(text[0]) + 5 * (int(text[1]) - 1)


def play_v1_move(page, move: str) -> None:
    card, where = move.split(":")
    if where == "pass":
        page.click(f"#choice button[data-move='{move}']")
        return
    page.click(f"#diagram rect.sq[data-sq='{square(where[:2])}']")
    page.click(f"#diagram rect.sq[data-sq='{square(where[2:])}']")
    if page.is_visible(f"#choice button[data-move='{move}']"):
        page.click(f"#choice button[data-move='{move}']")


PLIES = (
    "(document.getElementById('moves').textContent"
    ".match(/[a-z]+:(pass|[a-e][1-5][a-e][1-5])/g) || []).length"
)


def play_v1_right(page, c: Checked, pack: dict, index: int) -> None:
    line = pack["puzzles"][index]["line"]
    pick(page, index)
    c.check("an exercise begins")
    page.click(f"#diagram rect.sq[data-sq='{square(line[0].split(':')[1][:2])}']")
    c.check("a piece picked")
    page.click("#restart")
    for k, move in enumerate(line[0::2]):
        play_v1_move(page, move)
        page.wait_for_function(
            f"{PLIES} >= {2 * k + 2} || document.getElementById('status').dataset.state !== 'good'"
        )
    assert status(page)[0] == "solved"
    c.check("the exercise solved")
    moves_in_words(page, PuzzleTree(pack_kind(pack), pack["puzzles"][index]), line)


def play_v1_wrong(page, c: Checked, pack: dict, index: int) -> None:
    puzzle = pack["puzzles"][index]
    pick(page, index)
    play_v1_move(page, wrong_v1_move(puzzle))
    assert status(page)[0] == "lost"
    c.check("a wrong move: the sure path lost")
    page.click("#takeback")
    page.click("#hint")
    c.check("the solution shown")
    for _ in puzzle["line"]:
        page.click("#step")
    assert status(page)[0] == "line"
    c.check("the main line stepped through")


def wrong_v1_move(puzzle: dict) -> str:
    """A move of a piece that loses the sure path."""
    from fechtbuch.engines.battleklinge import reference
    from fechtbuch.engines.battleklinge.position import Position

    pos = Position.from_text(puzzle["position"])
    return next(
        m.to_text()
        for m in reference.legal_moves(pos)
        if m.to_text() not in puzzle["solution"] and not m.is_pass
    )


# ---- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "name", ["fechtuebungen", "meisterstudien", "touche-uebungen", "pyramiden-uebungen"]
)
def test_every_text_of_a_pack_page_is_from_its_catalogue(browser, page_files, name, lang):
    pack, path = page_files[name]
    with open_pack_page(browser, path, LOCALES[lang]) as page:
        assert page.evaluate("fbI18n.lang") == lang  # the browser's language
        c = Checked(page, free_strings(pack, page))
        c.check("the page opens")
        right, wrong = 0, len(pack["puzzles"]) - 1
        if pack["version"] == 1:
            play_v1_right(page, c, pack, right)
            play_v1_wrong(page, c, pack, wrong)
        else:
            play_v2_wrong(page, c, pack, wrong)
            play_v2_right(page, c, pack, right)
        other = "en" if lang == "de" else "de"
        page.select_option("#lang", other)
        assert page.evaluate("fbI18n.lang") == other
        c.check("the other language chosen")
        # the moves played (version 1: the main line stepped through), worded again
        last = pack["puzzles"][wrong if pack["version"] == 1 else right]
        moves_in_words(page, PuzzleTree(pack_kind(pack), last), last["line"])
        if pack["version"] == 2:  # a board lit in one language, worded again in the other
            pick(page, right)
            tree = PuzzleTree(pack_kind(pack), pack["puzzles"][right])
            page.click(clicks(tree, tree.root, pack["puzzles"][right]["key"])[0])
            page.select_option("#lang", lang)
            page.select_option("#lang", other)
            c.check("the other language chosen on a lit board")
        assert c.states >= 5
        assert not c.found, "\n".join(c.found)
        # the check itself sees a word of the other language and a school's bare id
        foreign = "Lösung" if other == "en" else "Solution"
        page.evaluate(
            """word => {
              document.getElementById('moves').textContent = word;
              const svg = document.querySelector('#diagram svg');
              const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
              text.textContent = 'g';
              svg.append(text);
            }""",
            foreign,
        )
        c.check("a foreign word and a bare id put into the page")
        assert sorted(f.split(": ", 2)[-1] for f in c.found) == sorted(
            [f"{foreign!r} [{foreign!r}]", "'g' ['g']"]
        ), c.found


def test_a_broken_version_1_pack_is_said_so_in_the_pages_language(browser, tmp_path):
    """The tree claims a hit for a move that hits nothing: the page's error line."""
    pack = smallest(shipped("fechtuebungen"), 1)
    broken = copy.deepcopy(pack)
    puzzle = broken["puzzles"][0]
    wrong = wrong_v1_move(puzzle)
    puzzle["solution"] = {wrong: "hit"}
    puzzle["line"] = [wrong]
    path = tmp_path / "broken.html"
    path.write_text(pack_html(broken), encoding="utf-8")
    for lang in LANGUAGES:
        context = browser.new_context(locale=LOCALES[lang])
        try:
            page = context.new_page()
            page.goto(path.as_uri())
            c = Checked(page, free_strings(broken, page))
            play_v1_move(page, wrong)
            assert status(page)[0] == "error"
            c.check("a broken pack")
            assert not c.found, "\n".join(c.found)
            assert page.evaluate("fbErrors") == [
                f"fechtbuch viewer: the pack says {wrong} hits, but the rules disagree"
            ]
        finally:
            context.close()


def test_pack_html_lang_chooses_the_language_the_page_starts_in(browser, tmp_path):
    source = tmp_path / "touche.json"
    source.write_bytes(orjson.dumps(smallest(shipped("touche-uebungen"), 1)))
    for lang in LANGUAGES:
        out = tmp_path / f"touche-{lang}.html"
        result = run("pack", "html", source, "-o", out, "--lang", lang)
        assert result.exit_code == 0, result.output
        other = "en" if lang == "de" else "de"
        with open_pack_page(browser, out, LOCALES[other]) as page:  # a browser of the other
            assert page.evaluate("[fbI18n.lang, document.getElementById('lang').value]") == [
                lang,
                lang,
            ]
    result = run("pack", "html", source, "-o", tmp_path / "x.html", "--lang", "fr")
    assert result.exit_code == 2 and "--lang" in result.output


# ---- the catalogues, without a browser ---------------------------------------------------


GAMES = ["battleklinge", "touche_duell", "touche_pyramiden"]


@pytest.mark.parametrize(
    "package", ["fechtbuch.puzzles", *(f"fechtbuch.puzzles.{g}" for g in GAMES)]
)
def test_both_catalogues_have_the_same_keys(package):
    texts = texts_of(package)
    assert texts["de"] and texts["de"].keys() == texts["en"].keys()
    for lang in LANGUAGES:
        for key, text in texts[lang].items():
            assert text.strip() and re.fullmatch(r"pp\.[\w.-]+", key), (lang, key)


ASKED = re.compile(r"""["'`](pp\.[a-z0-9_.-]+)["'`]""")


@pytest.mark.parametrize(
    "package, files",
    [
        ("fechtbuch.puzzles", ["packpage.js", "viewer_common.js", "packpage.py", "pagekit.py"]),
        (
            "fechtbuch.puzzles.battleklinge",
            ["v1page.js", "packboard.js", "packplay.js", "v1page.py"],
        ),
        ("fechtbuch.puzzles.touche_duell", ["svg.py", "packplay.js"]),
        ("fechtbuch.puzzles.touche_pyramiden", ["svg.py", "packkind.py", "packplay.js"]),
    ],
)
def test_every_key_the_pages_ask_for_is_in_the_catalogues(package, files):
    """Each key the pages' scripts, sections and drawings write out (a key completed at
    run time, "pp.bk.school." + a school or a count's .one and .other, by its start;
    the generic pages' "pp.game", "pp.tag." and "pp.leaf." in every game)."""
    games = GAMES if package == "fechtbuch.puzzles" else [package.rpartition(".")[2]]
    known = {**texts_of("fechtbuch.puzzles")["en"]}  # the generic pages: what a game gives
    for game in games:
        known.update(texts_of(f"fechtbuch.puzzles.{game}")["en"])
    folder = PUZZLES.joinpath(*package.split(".")[2:])
    for file in files:
        asked = ASKED.findall((folder / file).read_text(encoding="utf-8"))
        assert asked, file
        for key in asked:
            start = key if key.endswith(".") else key + "."
            assert key in known or any(k.startswith(start) for k in known), (file, key)


@pytest.mark.parametrize("name", ["fechtuebungen", "touche-uebungen", "pyramiden-uebungen"])
def test_each_game_words_its_name_its_motifs_and_how_an_exercise_ends(name):
    """Every motif of every version of the game's catalogue (a pack of the database may
    carry any of them) and every end its shipped exercises reach."""
    pack = shipped(name)
    package = game_package(pack["rules"])
    motifs = importlib.import_module(f"{package}.motifs")
    names = {
        n
        for value in vars(motifs).values()
        if isinstance(value, MotifCatalogue)
        for n in value.names
    }
    leaves = set()

    def walk(tree) -> None:
        for child in tree.values():
            if isinstance(child, dict):
                walk(child)
            else:
                leaves.add(child)

    for puzzle in pack["puzzles"]:
        walk(puzzle["solution"])
    assert names and leaves
    for lang in LANGUAGES:
        own = texts_of(package)[lang]
        assert "pp.game" in own
        assert {f"pp.tag.{n}" for n in names} <= own.keys(), lang
        assert {"pp.leaf." + leaf.replace(":", ".") for leaf in leaves} <= own.keys(), lang


def test_a_game_without_texts_is_named_by_its_kind():
    texts, script = page_texts(None, "Abzählen")
    assert texts["de"]["pp.game"] == texts["en"]["pp.game"] == "Abzählen" and script == ""
    assert json.dumps(texts)  # embeddable as it is
