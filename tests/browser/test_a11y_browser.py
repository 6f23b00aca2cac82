"""Accessibility of `fechtbuch serve` and the Wartesaal in the system Chromium
(Playwright): axe-core run inside every page reports no serious or critical
violation; at phone size (390 x 844) every game's board and the own hand are on the
screen without scrolling and no visible text is under 12 px; a Battleklinge game and
a Touché duel round are played to their end with the keyboard alone.

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import random

import pytest
from support.axe import assert_accessible
from support.languages import in_one_language
from support.phone import PHONE, assert_on_screen, smallest_text
from support.touche_duel_page import play_action
from support.wartesaal_page import Person, room_server
from support.webserver import chromium, menu_page, running_server
from test_touche_duell_browser import choose, state_of, wait_for_person
from test_wartesaal_browser import as_guest, open_table


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as (url, store):
        yield url, store


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    page.wait_for_function(
        "([game, mode]) => App.msg && App.msg.game === game"
        " && (mode === 'exercise') === (App.msg.type === 'exercise')",
        arg=[game, mode],
    )
    return wait_for_person(page, -1)


def to_menu(page) -> None:
    page.click("#menu-button")
    page.wait_for_selector("#menu:not([hidden])")


# ---- axe-core on every page ------------------------------------------------------------

GAMES = ["battleklinge", "touche-duell", "touche-pyramiden"]


# the dark theme (20 s more) runs with the slow tests
@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_axe_finds_nothing_serious_on_any_page(served, theme):
    """The menu; each game's table, a hint, the end screen, the analysis where the game
    has one, an exercise and a replay; the Kartenwahl; in German, and the menu and a
    covered hotseat duel in English; by daylight and by candlelight."""
    url, _ = served
    with menu_page(url) as page:
        if theme == "dark":
            page.check("#dark")
        assert_accessible(page, "the menu")
        for game in GAMES:
            to_menu(page)
            state = start(page, game, "computer")
            assert_accessible(page, f"{game}: the table")
            page.click("#hint")  # the hint drawn on the board, said in the console
            page.wait_for_function("App.hint !== null")
            page.wait_for_timeout(200)
            assert_accessible(page, f"{game}: a hint")
            if game == "battleklinge":  # a move of the person's: the analysis has one to rate
                play_battleklinge_by_keys(page, state["legal"][0])
                wait_for_person(page, len(state["moves"]))
            elif game == "touche-duell":
                play_action(page, state["view"], state["legal"][0]["text"])
                wait_for_person(page, len(state["moves"]))
            page.click("#resign")
            page.wait_for_selector("#end:not([hidden])")
            assert state_of(page)["finished"]
            assert_accessible(page, f"{game}: the end screen")
            if game != "touche-pyramiden":  # the pyramids have no analysis
                page.click("#analyse")
                page.wait_for_function("App.analysis", timeout=120_000)
                assert_accessible(page, f"{game}: the analysis")
            to_menu(page)
            start(page, game, "exercise")
            assert_accessible(page, f"{game}: an exercise")
            page.click("#solution")
            page.wait_for_function("App.hint !== null")
            assert_accessible(page, f"{game}: an exercise with its solution shown")
        for game in GAMES:  # the game just resigned, replayed one move in
            to_menu(page)
            page.click(f"#saved-{game} summary")
            page.click(f"#saved-{game} button.saved-game")
            page.wait_for_function("App.replay && App.ply === 0")
            page.click("#replay-next")
            assert_accessible(page, f"{game}: a replay")
        to_menu(page)
        start(page, "battleklinge", "computer", cards="kartenwahl")
        page.wait_for_selector(".bk-draft")
        assert_accessible(page, "the Kartenwahl")
        to_menu(page)
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert_accessible(page, "the menu in English")
        start(page, "touche-duell", "hotseat")
        assert page.is_visible("#reveal")
        assert_accessible(page, "the duel at one device, hand covered, in English")


def test_axe_finds_nothing_serious_in_the_wartesaal(tmp_path):
    """The Wartesaal's login, its room, and a running table of each game as its
    players see it.  The same three people play every table (each game resigned and
    left before the next): a person's page costs Chromium a second of CPU to open."""
    with room_server(tmp_path) as (url, _), chromium() as browser:
        people = [Person(browser, url) for _ in range(max(n for _, _, n in WARTESAAL_TABLES))]
        try:
            assert_accessible(people[0].page, "the Wartesaal's login")
            for person in people:
                as_guest(person)
            for game, variant, count in WARTESAAL_TABLES:
                players = people[:count]
                assert_accessible(players[0].page, "the Wartesaal's room")
                seats = open_table(players[0], players[1:], game, variant)
                for seat, person in seats.items():
                    assert_accessible(person.page, f"the Wartesaal: {game}, seat {seat}")
                players[0].page.click("#resign")
                for person in players:
                    person.page.wait_for_selector("#result:not([hidden])")
                    person.page.click("#leave")
                    person.page.wait_for_selector("#room:not([hidden])")
            assert [person.errors for person in people] == [[]] * len(people)
        finally:
            for person in people:
                person.close()


WARTESAAL_TABLES = [
    ("battleklinge", "einsteiger", 2),
    ("touche-duell", "kinder-kurz", 2),
    ("touche-pyramiden", "3", 3),
]


# ---- the phone ---------------------------------------------------------------------------

PARTS = {
    "battleklinge": (".bk-hand-other", ".bk-hand-side", ".bk-board", ".bk-hand-own"),
    "touche-duell": (".td-head", ".td-piste", ".td-middle", ".td-hand"),
    "touche-pyramiden": (".tp-board", ".tp-hand"),
}


# each game and mode in one language by default, the other with the slow tests; the
# defaults alternate so that each game and each mode is seen in both
@pytest.mark.parametrize(
    ("game", "mode", "lang"),
    [
        *in_one_language("battleklinge", "computer", default="de"),
        *in_one_language("battleklinge", "exercise", default="en"),
        *in_one_language("touche-duell", "computer", default="en"),
        *in_one_language("touche-duell", "exercise", default="de"),
        *in_one_language("touche-pyramiden", "computer", default="de"),
        *in_one_language("touche-pyramiden", "exercise", default="en"),
    ],
)
def test_phone_board_and_hand_on_the_screen_no_text_under_12px(served, game, mode, lang):
    url, _ = served
    with menu_page(url, viewport=PHONE) as page:
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        start(page, game, mode)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("window.scrollY") == 0
        assert_on_screen(page, PARTS[game])
        assert smallest_text(page) >= 12
        if mode == "computer":  # a piece, card or field chosen: the lit board still fits
            page.click(
                {
                    "battleklinge": ".bk-hand-own .bk-card",
                    "touche-duell": ".td-own",
                    "touche-pyramiden": ".tp-hand .tp-card",
                }[game]
            )
            page.evaluate("window.scrollTo(0, 0)")
            assert_on_screen(page, PARTS[game])
            assert smallest_text(page) >= 12


# ---- the keyboard alone ---------------------------------------------------------------------

ON = "s => document.activeElement && document.activeElement.matches(s)"
BEFORE = """s => { const target = document.querySelector(s), now = document.activeElement;
  return Boolean(target && now && now !== document.body
    && (target.compareDocumentPosition(now) & Node.DOCUMENT_POSITION_FOLLOWING)); }"""


def tab_to(page, selector: str, limit: int = 200) -> None:
    """Tab (Shift+Tab when the target lies before the focus) until the focus is on an
    element matching ``selector``."""
    key = "Shift+Tab" if page.evaluate(BEFORE, selector) else "Tab"
    for _ in range(limit):
        if page.evaluate(ON, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector}")


def arrows(page, dx: int, dy: int = 0) -> None:
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")


def focused(page, data: str):
    return page.evaluate(f"document.activeElement.dataset.{data}")


def square_on_board(page, square: str) -> None:
    """Walk the Battleklinge board with the arrow keys to ``square``."""
    if not page.evaluate(ON, ".bk-board [role=gridcell]"):
        tab_to(page, ".bk-board [role=gridcell]")
    where = "e => [Number(e.dataset.col), Number(e.dataset.row)]"
    col, row = page.evaluate(f"({where})(document.activeElement)")
    to_col, to_row = page.eval_on_selector(f".bk-board [data-square='{square}']", where)
    arrows(page, to_col - col, to_row - row)
    assert focused(page, "square") == square


def play_battleklinge_by_keys(page, move: dict) -> None:
    if move["from"] is None:
        tab_to(page, f".bk-pass[data-card='{move['card']}']")
        page.keyboard.press("Enter")
        return
    square_on_board(page, move["from"])
    page.keyboard.press("Enter")
    page.wait_for_selector(".bk-board .bk-dot")
    assert focused(page, "square") == move["from"]  # the redraw kept the focus
    square_on_board(page, move["to"])
    page.keyboard.press("Enter")
    if page.is_visible("#card-dialog[open]"):
        tab_to(page, f"#card-dialog-buttons [data-card='{move['card']}']")
        page.keyboard.press("Enter")


def test_a_battleklinge_game_by_keyboard_alone_in_english(served):
    """Tab to the start button and to the board's one tab stop; the arrow keys walk the
    squares, Enter picks the piece and its target (and the card in the dialog when both
    cards lead there); the focus stays on the board after every redraw, and at the end
    on the end screen's title.  The board is a grid of five rows of five cells, each
    labelled in English."""
    url, _ = served
    with menu_page(url) as page:
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.select_option("#battleklinge-strength", "leicht")
        page.select_option("#battleklinge-cards", "angriff")
        tab_to(page, "#start-battleklinge-computer")
        page.keyboard.press("Enter")
        state = wait_for_person(page, -1)
        assert page.get_attribute(".bk-board", "role") == "grid"
        assert page.get_attribute(".bk-board", "aria-label") == "Board"
        rows = page.eval_on_selector_all(
            ".bk-board > [role=row]",
            "rows => rows.map(r => [...r.children].filter(c => c.getAttribute('role') === 'gridcell').length)",
        )
        assert rows == [5, 5, 5, 5, 5]
        ranks = page.eval_on_selector_all(
            ".bk-board > [role=row]", "rows => rows.map(r => r.getAttribute('aria-label'))"
        )
        assert sorted(ranks) == [f"Rank {n}" for n in range(1, 6)]
        labels = page.eval_on_selector_all(
            ".bk-board [role=gridcell]", "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert {label.split(": ")[1] for label in labels} >= {
            "empty",
            "Gold master",
            "Blau student",
        }
        assert page.eval_on_selector_all(".bk-board [tabindex='0']", "els => els.length") == 1
        rng = random.Random(3)
        redrawn = 0  # turns after which the game went on (the focus kept on the board)
        for _ in range(4):  # a game that ends within a turn: "Rematch" by keyboard
            while not state["finished"]:
                view, legal = state["view"], state["legal"]
                enemy = 1 - state["seat"]
                master = next(
                    p["square"] for p in view["pieces"] if p["school"] == enemy and p["master"]
                )
                winning = [m for m in legal if m["to"] in (master, view["banners"][enemy])]
                captures = [m for m in legal if m["to"] in {p["square"] for p in view["pieces"]}]
                play_battleklinge_by_keys(page, (winning or captures or [rng.choice(legal)])[0])
                state = wait_for_person(page, len(state["moves"]))
                if not state["finished"]:
                    assert page.evaluate(ON, ".bk-board [role=gridcell]"), (
                        "the focus left the board"
                    )
                    redrawn += 1
            page.wait_for_selector("#end:not([hidden])")
            assert page.evaluate("document.activeElement.id") == "end-title"
            if redrawn >= 2:
                break
            table = state["table"]
            tab_to(page, "#end-rematch")
            page.keyboard.press("Enter")
            page.wait_for_function("t => App.msg.table !== t", arg=table)
            state = wait_for_person(page, -1)
        assert redrawn >= 2
        assert_accessible(page, "Battleklinge's end screen in English")


class Keys:
    """The duel's presses as keys: Tab into the hand or the piste, the arrow keys along
    it, Enter."""

    def __init__(self, page) -> None:
        self.page = page

    def _along(self, row: str, item: str, data: str, value: int) -> None:
        if not self.page.evaluate(ON, f"{row} {item}"):
            tab_to(self.page, f"{row} {item}")
        values = self.page.eval_on_selector_all(
            f"{row} {item}:not(:disabled)", f"els => els.map(e => Number(e.dataset.{data}))"
        )
        arrows(self.page, values.index(value) - values.index(int(focused(self.page, data))))
        assert int(focused(self.page, data)) == value
        self.page.keyboard.press("Enter")

    def card(self, index: int) -> None:
        self._along(".td-hand", ".td-own", "index", index)

    def square(self, square: int) -> None:
        self._along(".td-piste", ".td-sq", "square", square)

    def button(self, selector: str) -> None:
        tab_to(self.page, selector)
        self.page.keyboard.press("Enter")


def test_a_touche_duel_round_by_keyboard_alone(served):
    """Cards picked with Enter in the hand, the lit square or the opponent reached with
    the arrow keys along the piste, the word buttons by Tab; after each move the focus is
    back on the table; the round's end is a moment whose "next round" takes Enter and
    hands the focus to the new hand."""
    url, _ = served
    with menu_page(url) as page:
        page.select_option("#touche-duell-ruleset", "fortgeschritten")
        tab_to(page, "#start-touche-duell-computer")
        page.keyboard.press("Enter")
        state = wait_for_person(page, -1)
        rng = random.Random(5)
        keys = Keys(page)
        played: list[str] = []
        for _ in range(200):
            if page.is_visible(".td-next") or state["finished"]:
                break
            played.append(choose(state["legal"], rng))
            play_action(page, state["view"], played[-1], keys)
            state = wait_for_person(page, len(state["moves"]))
            page.wait_for_timeout(50)  # the moment's button takes the focus after the redraw
            if not page.is_visible(".td-next") and not state["finished"]:
                assert page.evaluate(ON, ".td-table button"), "the focus left the table"
        else:
            raise AssertionError("the round did not end")
        assert len(played) >= 2
        assert_accessible(page, "the duel's round end")
        page.wait_for_function(ON, arg=".td-next")
        page.keyboard.press("Enter")
        page.wait_for_selector(".td-next", state="detached")
        assert page.evaluate(ON, ".td-hand .td-own")


@pytest.mark.parametrize("players", ["6", "6x2"])
def test_phone_six_pyramids_players_still_fit(served, players):
    """Six seats make the list above the board longest; board and hand still fit."""
    url, _ = served
    with menu_page(url, viewport=PHONE) as page:
        start(page, "touche-pyramiden", "computer", players=players)
        page.evaluate("window.scrollTo(0, 0)")
        assert_on_screen(page, PARTS["touche-pyramiden"])
        assert smallest_text(page) >= 12
