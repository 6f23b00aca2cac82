"""Every visible text from the catalogue of the page's language, in German and in
English (system Chromium through Playwright).

The page of `fechtbuch serve` is driven through the states the other browser tests
reach, for each game: the menu (every pack's overview and the saved games open), a
game against the computer in progress with a hint and a card picked, a server's
refusal, a move of the computer and a round's end moment, the end screen with its
analysis and turning point, the Kartenwahl, at one device the covered hand, an
exercise with its solution, a saved game replayed, and each Touché game's turning
point in the replay of a saved game with a missed sure win.  At each state every text a
person sees (tests/support/page_language.py says what that is) must be worded from
the catalogue the page loaded; the notation of the moves on the page (shown beside
the words) is the only thing allowed besides, and a seat's or a school's bare id
("g", "0" where a name belongs, "tp.seat.0") fails.  The Wartesaal's page is checked
the same way, a German and an English person at one table: the login, the hall, a
Touché duel running and after a move, a refusal of the room, the result, a pyramids
game and Battleklinge's Kartenwahl, each resigned.

The pack pages (``fechtbuch pack html``), German and English with their catalogues
embedded, are checked the same way by test_pack_page_language.py.
"""

from __future__ import annotations

import random

import pytest
from support.page_language import VISIBLE_TEXTS, Catalogue, leaks
from support.touche_duel_page import play_action
from support.webserver import browser_page, running_server
from test_analysis_browser import missed_duel, missed_pyramids, open_replay, save_missed
from test_pyramids_browser import choose, play_by_hand, wait_for_person
from test_touche_duell_browser import choose as duel_choice

LANGUAGES = ("de", "en")
AUTONYMS = ("Deutsch", "English")  # the language menu names each language in itself

NOTATION = """() => {
  const out = [];
  const m = App.msg;
  if (m) {
    for (const a of m.legal || []) out.push(a.text);
    for (const x of m.moves || []) out.push(x.text);
  }
  if (App.hint) out.push(App.hint);
  if (App.analysis) {
    for (const a of App.analysis.moves || []) if (a.better) out.push(a.better);
    const turning = App.analysis.turning;
    if (turning) out.push(turning.move, turning.better || "");
  }
  if (App.replayAnalysis && App.replayAnalysis.turning) {
    out.push(App.replayAnalysis.turning.move, App.replayAnalysis.turning.better || "");
  }
  if (App.replay) for (const p of App.replay.plies) out.push(p.text);
  return out.filter((text) => text);
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as (url, store):
        yield url, store


class Checked:
    """One page in one language: ``check(state)`` collects what is seen and keeps the
    leaks, named by the state; the test fails at its end with all of them."""

    def __init__(self, page, lang: str) -> None:
        self.page, self.lang = page, lang
        self.found: list[str] = []
        self.leaks: set[str] = set()
        self.states = 0

    def check(self, state: str, allowed=()) -> None:
        texts = self.page.evaluate("I18n.texts")
        assert self.page.evaluate("I18n.lang") == self.lang
        assert self.page.evaluate("document.documentElement.lang") == self.lang
        notation = (
            self.page.evaluate(NOTATION) if self.page.evaluate("typeof App") != "undefined" else []
        )
        seen = self.page.evaluate(VISIBLE_TEXTS)
        assert seen, state
        self.states += 1
        for leak in leaks(seen, Catalogue.of(texts), [*notation, *AUTONYMS, *allowed]):
            if leak not in self.leaks:  # each leak once, at the first state that shows it
                self.leaks.add(leak)
                self.found.append(f"[{self.lang}] {state}: {leak}")


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    return wait_for_person(page)


def to_menu(page) -> None:
    page.click("#menu-button")
    page.wait_for_selector("#menu:not([hidden])")


def refusal(page, c: Checked, state: str) -> None:
    """A server's refusal on the page: a move the table does not have."""
    page.evaluate("send({type: 'act', table: App.msg.table, action: 'zz'})")
    page.wait_for_selector("#error:not([hidden])")
    c.check(state)
    page.evaluate("document.getElementById('error').hidden = true")


def resign(page, c: Checked, name: str, analyse: bool = False) -> None:
    """Resign: the end screen, and the analysis when the game has one."""
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden])")
    c.check(f"{name}: the end screen")
    if analyse:
        page.click("#analyse")
        page.wait_for_function("App.analysis && App.analysis.moves", timeout=120_000)
        c.check(f"{name}: the analysis")


def exercise(page, c: Checked, game: str, name: str) -> None:
    """The game's first exercise, and its solution shown."""
    start(page, game, "exercise")
    c.check(f"{name}: an exercise")
    page.click("#solution")
    page.wait_for_function("App.hint")
    c.check(f"{name}: the exercise's solution")
    to_menu(page)


def battleklinge(page, c: Checked) -> None:
    state = start(page, "battleklinge", "computer", strength="leicht", cards="einsteiger")
    c.check("battleklinge: a game begins")
    page.keyboard.press("r")
    page.wait_for_selector("#hint-arrow", state="attached")
    c.check("battleklinge: a hint")
    move = next(m for m in state["legal"] if m["from"])
    page.click(f".bk-board [data-square={move['from']}]")
    c.check("battleklinge: a piece picked")
    page.click(f".bk-board [data-square={move['to']}]")
    if page.is_visible("#card-dialog[open]"):
        c.check("battleklinge: the card dialog")
        page.click(f"#card-dialog-buttons [data-card={move['card']}]")
    state = wait_for_person(page, len(state["moves"]))
    c.check("battleklinge: the computer moved")
    refusal(page, c, "battleklinge: a refusal")
    resign(page, c, "battleklinge", analyse=True)
    if page.is_visible("#turning"):
        page.click("#turning")
        c.check("battleklinge: the turning point")
    to_menu(page)
    state = start(page, "battleklinge", "computer", cards="kartenwahl")
    c.check("battleklinge: the Kartenwahl")
    to_menu(page)
    start(page, "battleklinge", "hotseat", cards="zufall")
    c.check("battleklinge: at one device")
    to_menu(page)
    exercise(page, c, "battleklinge", "battleklinge")


def to_round_end(page, c: Checked, name: str, state: dict, next_button: str, play) -> None:
    """Play by hand (``play(state)``) to the first round's end moment."""
    for _ in range(400):
        if page.is_visible(next_button):
            c.check(f"{name}: a round's end")
            return
        if state["finished"]:
            return
        play(state)
        state = wait_for_person(page, len(state["moves"]))
    raise AssertionError("no round ended")


def duel(page, c: Checked) -> None:
    state = start(page, "touche-duell", "computer", strength="leicht", ruleset="standard-kurz")
    c.check("duel: a match begins")
    page.click(".td-hand .td-own[data-index='0']")
    c.check("duel: a card picked")
    page.click(".td-hand .td-own[data-index='0']")
    refusal(page, c, "duel: a refusal")
    page.click("#hint")
    page.wait_for_function("App.hint")
    c.check("duel: a hint")
    rng = random.Random(1)
    to_round_end(
        page,
        c,
        "duel",
        state,
        ".td-next",
        lambda state: play_action(page, state["view"], duel_choice(state["legal"], rng)),
    )
    c.check("duel: the match goes on")
    resign(page, c, "duel", analyse=True)
    to_menu(page)
    start(page, "touche-duell", "hotseat", ruleset="kinder-kurz")
    c.check("duel: at one device, the hand covered")
    page.click("#reveal")
    page.wait_for_function("!App.msg.covered")
    c.check("duel: at one device, the hand shown")
    to_menu(page)
    exercise(page, c, "touche-duell", "duel")


def pyramids(page, c: Checked) -> None:
    state = start(page, "touche-pyramiden", "computer", players="4x2", strength="leicht")
    c.check("pyramids: a game begins")
    picked = False

    def play(state: dict) -> None:
        nonlocal picked
        placing = [a for a in state["legal"] if a["act"] == "place"]
        if placing and len(state["moves"]) > 4 and not picked:
            picked = True
            card = f".tp-card[data-card='{placing[0]['card']}']"
            page.click(card)
            c.check("pyramids: a card picked")
            page.click(card)
        play_by_hand(page, choose(state))

    to_round_end(page, c, "pyramids", state, "#tp-next", play)
    refusal(page, c, "pyramids: a refusal")
    resign(page, c, "pyramids")
    to_menu(page)
    start(page, "touche-pyramiden", "hotseat", players="3")
    c.check("pyramids: at one device")
    to_menu(page)
    exercise(page, c, "touche-pyramiden", "pyramids")


def menu(page, c: Checked) -> None:
    for summary in page.query_selector_all("#games details > summary"):
        summary.click()
    page.wait_for_function(
        "document.querySelectorAll('#games button.saved-game').length >= 3", timeout=10_000
    )
    c.check("the menu, every overview and the saved games open")
    page.click("#saved-touche-duell button.saved-game")
    page.wait_for_function("App.replay && App.ply === 0")
    page.click("#replay-next")
    c.check("a saved duel replayed")
    to_menu(page)


def turning_points(page, c: Checked, store) -> None:
    """Each Touché game's turning point in the replay of a saved game with a missed
    sure win (a game of one decision: the analysis is quick)."""
    position, miss = missed_duel()
    state, pyramids_miss, _ = missed_pyramids()
    for slug, first, played, name in (
        ("touche-duell", position, miss, "duel"),
        ("touche-pyramiden", state, pyramids_miss, "pyramids"),
    ):
        saved = save_missed(store, slug, first, played)
        open_replay(page, slug, saved)
        page.click("#replay-turning")
        page.wait_for_function("App.replayAnalysis && App.replayAnalysis.turning", timeout=60_000)
        c.check(f"{name}: the turning point of a saved game")
        to_menu(page)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_of_the_serve_page_is_from_its_catalogue(served, lang):
    url, store = served
    with browser_page(viewport={"width": 1280, "height": 900}) as (page, errors):
        page.goto(url)
        page.wait_for_selector("#start-battleklinge-computer")
        if lang != "de":
            page.select_option("#lang", lang)
            page.wait_for_function(f"I18n.lang === '{lang}'")
            page.wait_for_selector("#start-battleklinge-computer")
        c = Checked(page, lang)
        c.check("the menu")
        battleklinge(page, c)
        duel(page, c)
        pyramids(page, c)
        menu(page, c)
        turning_points(page, c, store)
        # the other language chosen in the middle of a game: the page is reworded
        other = "en" if lang == "de" else "de"
        start(page, "touche-duell", "computer", strength="mittel")
        page.select_option("#lang", other)
        page.wait_for_function(f"I18n.lang === '{other}'")
        c.lang = other
        c.check("duel: the language switched during the game")
        assert errors == []
        assert c.states > 20
        assert not c.found, "\n".join(c.found)
        # the check itself sees a word of the other language put into the page: in a
        # line of text, in an SVG drawing and in a label only a screen reader says
        foreign = "Opponent" if c.lang == "de" else "Gegner"
        c.found.clear()
        page.evaluate(
            """word => {
              const line = document.createElement('p');
              line.textContent = word;
              document.getElementById('play').append(line);
              const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
              const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
              text.setAttribute('y', '20');
              text.textContent = word + 's';
              svg.append(text);
              document.getElementById('board').append(svg);
              document.getElementById('menu-button').setAttribute('aria-label', word + 'x');
            }""",
            foreign,
        )
        c.check("a foreign word put into the page")
        assert {f.split(": ")[-1] for f in c.found} == {
            f"{foreign!r} [{foreign!r}]",
            f"{foreign + 's'!r} [{foreign + 's'!r}]",
            f"{foreign + 'x'!r} [{foreign + 'x'!r}]",
        }, c.found


SAAL_FREE = """() => [
  ...(Saal.me ? [Saal.me.name] : []),
  ...(Saal.table ? Saal.table.seats : []),
  ...(Saal.table ? (Saal.table.legal_views || []).map((a) => a.text) : []),
  ...(Saal.moves || []).map((m) => m.action),
]"""
"""The language-free strings of the Wartesaal's page: the people's names and the
notation of the actions (the move list shows it beside the words)."""


def test_every_text_of_the_wartesaal_page_is_from_its_catalogue(tmp_path):
    from support.wartesaal_page import Person, room_server
    from support.webserver import chromium
    from test_wartesaal_browser import as_guest, click_action, open_table

    with room_server(tmp_path) as (url, _room), chromium() as browser:
        ida, jan = Person(browser, url, "de"), Person(browser, url, "en")
        checks = {ida: Checked(ida.page, "de"), jan: Checked(jan.page, "en")}

        def check(state: str) -> None:
            for person, c in checks.items():
                c.check(state, person.page.evaluate(SAAL_FREE))

        check("the login")
        for person in (ida, jan):
            person.page.click("#register-button")  # no name: the form refuses it
            as_guest(person)
        check("the hall")
        seats = open_table(ida, [jan], "touche-duell", "kinder-kurz")
        check("a duel running")
        mover = seats[ida.page.evaluate("Saal.table.to_act")]
        mover.page.wait_for_function("Saal.table.legal_views.length > 0")
        click_action(mover, mover.page.evaluate("Saal.table"), random.Random(1))
        mover.page.wait_for_function("Saal.moves.length > 0")
        check("a duel after a move")
        for person in (ida, jan):  # a refusal of the room: an action out of turn
            person.page.evaluate(
                "ask('act', {table: Saal.table.id, seq: 0, action: 'zz'}).catch(() => {})"
            )
            person.page.wait_for_selector("#error:not([hidden])")
        check("a refusal of the room")
        ida.page.click("#resign")
        for person in (ida, jan):
            person.page.wait_for_selector("#result:not([hidden])")
        check("the game's result")
        for game, variant, state, ended in (
            ("touche-pyramiden", "2", "a pyramids game running", "a pyramids game resigned"),
            ("battleklinge", "kartenwahl", "the Kartenwahl", "resigned in the Kartenwahl"),
        ):
            for person in (ida, jan):
                person.page.click("#leave")
                person.page.wait_for_selector("#room:not([hidden])")
            open_table(ida, [jan], game, variant)
            check(state)
            ida.page.click("#resign")
            for person in (ida, jan):
                person.page.wait_for_selector("#result:not([hidden])")
            check(ended)
        for person, c in checks.items():
            assert person.errors == []
            assert not c.found, "\n".join(c.found)
