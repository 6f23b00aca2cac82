"""Every visible text from the catalogue of the page's language, in German and in
English (system Chromium through Playwright).

The page of `fechtbuch serve` is driven through the states the other browser tests
reach, for each game: the menu (every pack's overview and the saved games open), a
game against the computer in progress with a hint and a card picked, a move taken
back, a server's refusal, a move of the computer and a round's end moment, the end
screen with its analysis and turning point, a rematch, the Kartenwahl, at one device
the covered hand and the Abbruch offered at the third repetition, an exercise with
its solution, the daily duel with its streak and a practice game of the day, each
game at phone size (390 × 844: begun, a card picked, the end screen), each game's
saved game replayed (its start, a step, the middle, the end), and each Touché game's
turning point in the replay of a saved game with a missed sure win.  At each state
every text a person sees (tests/support/page_language.py says what that is) must be
worded from the catalogue the page loaded; the notation of the moves on the page
(shown beside the words) is the only thing allowed besides, and a seat's or a
school's bare id ("g", "0" where a name belongs, "tp.seat.0") fails.  The Wartesaal's
page is checked the same way, a German and an English person at one table and a
German and an English spectator: the login, the hall, a Touché duel running and
after a move, a take-back, a refusal of the room, the Abbruch offered at a third
repetition, an abort offered and declined, the result, a rematch offered and played,
an abort agreed, a pyramids game and Battleklinge's Kartenwahl, each resigned, and
each of the three finished games replayed.

The default run walks the serve page once, each part of the walk in one language,
alternating (each game is seen in both); the walk in German and the walk in English,
each whole, run with the slow tests.

The pack pages (``fechtbuch pack html``), German and English with their catalogues
embedded, are checked the same way by test_pack_page_language.py.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from fechtbuch.web.server import create_app
from fechtbuch.web.store import Store
from support.page_language import VISIBLE_TEXTS, Catalogue, leaks
from support.phone import PHONE
from support.table_keeper import TableKeeper
from support.touche_duel_page import play_action
from support.webserver import TODAY, browser_page, serve_app
from test_analysis_browser import missed_duel, missed_pyramids, open_replay, save_missed
from test_pyramids_browser import choose, play_by_hand, wait_for_person
from test_touche_duell_browser import choose as duel_choice
from test_web_browser import tap_move

DESKTOP = {"width": 1280, "height": 900}
GAMES = (
    ("battleklinge", "battleklinge"),
    ("touche-duell", "duel"),
    ("touche-pyramiden", "pyramids"),
)
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


@pytest.fixture
def served(tmp_path):
    """The page's server, keeping every table it opens (the repetition is put on a
    table's board), with a store of the test's own: the daily duel's first game of the
    day counts in each language."""
    seeds = (f"test-seed-{n}" for n in range(1000))
    server = TableKeeper(
        Store(tmp_path / "web.sqlite3"), today=lambda: TODAY, seed=lambda: next(seeds)
    )
    with serve_app(create_app(server), start_seconds=20) as port:
        yield f"http://127.0.0.1:{port}/", server


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


def battleklinge(page, c: Checked, server) -> None:
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
    moved = wait_for_person(page, len(state["moves"]))
    c.check("battleklinge: the computer moved")
    page.click("#undo")
    page.wait_for_function("n => App.msg.moves.length < n", arg=len(moved["moves"]))
    c.check("battleklinge: a move taken back")
    tap_move(page, move)
    wait_for_person(page, len(state["moves"]))
    refusal(page, c, "battleklinge: a refusal")
    resign(page, c, "battleklinge", analyse=True)
    if page.is_visible("#turning"):
        page.click("#turning")
        c.check("battleklinge: the turning point")
    table = page.evaluate("App.msg.table")
    page.click("#end-rematch")
    page.wait_for_function("t => App.msg.table !== t && !App.msg.finished", arg=table)
    c.check("battleklinge: a rematch")
    to_menu(page)
    state = start(page, "battleklinge", "computer", cards="kartenwahl")
    c.check("battleklinge: the Kartenwahl")
    to_menu(page)
    start(page, "battleklinge", "hotseat", cards="zufall")
    c.check("battleklinge: at one device")
    repetition(page, c, server)
    to_menu(page)
    exercise(page, c, "battleklinge", "battleklinge")


def repetition(page, c: Checked, server) -> None:
    """The same position a third time on the table just opened (as
    test_end_screen_browser.py puts it there): the page offers "Abbrechen"; the game
    aborted ends on the end screen."""
    table = server.opened[-1]
    one = table.state
    two = table.game.apply(one, table.game.legal_actions(one)[0])
    table.states = [one, two, one, two, one]
    page.evaluate("tableCommand('flag')")  # the page asks for the table again
    page.wait_for_selector("#abort:not([hidden])")
    c.check("battleklinge: the third repetition, an abort offered")
    page.click("#abort")
    page.wait_for_selector("#end:not([hidden])")
    c.check("battleklinge: aborted after the third repetition")


def daily(page, c: Checked, server) -> None:
    """The daily duel: the first game of the day (a streak of one behind it) resigned,
    the streak in the menu, and a second game of the day, practice only."""
    yesterday = TODAY - dt.timedelta(days=1)
    server.store.book_daily("battleklinge", yesterday)
    server.store.finish_daily("battleklinge", yesterday, "won")
    to_menu(page)
    page.wait_for_function("App.records.battleklinge && App.records.battleklinge.streak === 1")
    c.check("the menu with a streak")
    for name in ("the daily duel", "a practice duel of the day"):
        start(page, "battleklinge", "daily")
        c.check(name)
        page.click("#resign")
        page.wait_for_selector("#end:not([hidden])")
        page.wait_for_function("App.records.battleklinge.streak === 0")
        c.check(f"{name}: the end screen with the streak")
        to_menu(page)


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
    to_menu(page)


def replays(page, c: Checked, server) -> None:
    """Each game's longest saved game replayed: its start, a step on, the middle, the
    end and a step back."""
    for slug, name in GAMES:
        saved = server.store.saved_games(slug)
        longest = max(range(len(saved)), key=lambda i: len(saved[i]["record"]["moves"]))
        page.click(f"#saved-{slug} summary")
        page.click(f"#saved-{slug} button.saved-game >> nth={longest}")
        page.wait_for_function("App.replay && App.ply === 0")
        c.check(f"{name}: a saved game replayed, its start")
        page.click("#replay-next")
        c.check(f"{name}: a saved game replayed, a step on")
        plies = page.evaluate("App.replay.plies.length")
        page.evaluate("n => { App.ply = n; showReplay(); }", plies // 2)
        c.check(f"{name}: a saved game replayed, its middle")
        page.evaluate("n => { App.ply = n; showReplay(); }", plies)
        c.check(f"{name}: a saved game replayed, its end")
        page.click("#replay-back")
        c.check(f"{name}: a saved game replayed, a step back from the end")
        to_menu(page)


def phone(page, c: Checked) -> None:
    """Each game at phone size: the menu, the game begun, a card picked (the duel, the
    pyramids) and its end screen."""
    page.set_viewport_size(PHONE)
    c.check("the menu at phone size")
    for slug, name, options, pick in (
        ("battleklinge", "battleklinge", {"strength": "leicht", "cards": "einsteiger"}, None),
        ("touche-duell", "duel", {"strength": "leicht"}, ".td-hand .td-own[data-index='0']"),
        ("touche-pyramiden", "pyramids", {"players": "2", "strength": "leicht"}, None),
    ):
        start(page, slug, "computer", **options)
        c.check(f"{name}: a game at phone size")
        if pick:
            page.click(pick)
            c.check(f"{name}: a card picked at phone size")
            page.click(pick)
        page.click("#resign")
        page.wait_for_selector("#end:not([hidden])")
        c.check(f"{name}: the end screen at phone size")
        to_menu(page)
    page.set_viewport_size(DESKTOP)


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


WALK = ("battleklinge", "daily", "duel", "phone", "menu", "replays", "pyramids", "turning points")
"""The parts of the serve page's walk, in their order; each starts and ends at the menu."""

ALTERNATING = ("de", "de", "en", "en", "en", "en", "de", "de")
"""The language of each part of the default run's one walk: every game is seen in
both languages, and every state in one of them (the walk in each language whole runs
with the slow tests).  The language changes only before a part that starts a game:
the table last played stays rendered beside the menu, and the console keeps its last
line, in the words they were written in (the page does not reword them), which a
check at the menu or in a replay would report."""


def choose_language(page, c: Checked, lang: str) -> None:
    """The language chosen in the menu, as a person does; the checks expect it."""
    if page.evaluate("I18n.lang") != lang:
        page.select_option("#lang", lang)
        page.wait_for_function("l => I18n.lang === l", arg=lang)
        page.wait_for_selector("#start-battleklinge-computer")
    c.lang = lang


@pytest.mark.parametrize(
    "langs",
    [
        pytest.param(ALTERNATING, id="alternating"),
        pytest.param(("de",) * len(WALK), id="de", marks=pytest.mark.slow),
        pytest.param(("en",) * len(WALK), id="en", marks=pytest.mark.slow),
    ],
)
def test_every_text_of_the_serve_page_is_from_its_catalogue(served, langs):
    url, server = served
    with browser_page(viewport=DESKTOP) as (page, errors):
        page.goto(url)
        page.wait_for_selector("#start-battleklinge-computer")
        c = Checked(page, "de")
        choose_language(page, c, langs[0])
        c.check("the menu")
        parts = {
            "battleklinge": lambda: battleklinge(page, c, server),
            "daily": lambda: daily(page, c, server),
            "duel": lambda: duel(page, c),
            "phone": lambda: phone(page, c),
            "menu": lambda: menu(page, c),
            "replays": lambda: replays(page, c, server),
            "pyramids": lambda: pyramids(page, c),
            "turning points": lambda: turning_points(page, c, server.store),
        }
        assert tuple(parts) == WALK
        for part, lang in zip(WALK, langs, strict=True):
            choose_language(page, c, lang)
            parts[part]()
        # the other language chosen in the middle of a game: the page is reworded
        lang = c.lang
        other = "en" if lang == "de" else "de"
        start(page, "touche-duell", "computer", strength="mittel")
        page.select_option("#lang", other)
        page.wait_for_function(f"I18n.lang === '{other}'")
        c.lang = other
        c.check("duel: the language switched during the game")
        assert errors == []
        assert c.states > 50
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
  ...(Saal.replay ? Saal.replay.actions.map((a) => a.action) : []),
]"""
"""The language-free strings of the Wartesaal's page: the people's names and the
notation of the actions (the move list shows it beside the words)."""


def test_every_text_of_the_wartesaal_page_is_from_its_catalogue(tmp_path):
    """Two players (German, English) and two spectators (German, English) at a duel:
    running, after a move, a take-back, a refusal, the Abbruch the room offers at a
    third repetition, an abort offered and declined, the result, a rematch offered and
    played, an abort agreed; a pyramids game and Battleklinge's Kartenwahl, each
    resigned; each finished game replayed from the room's list."""
    from support.wartesaal_page import Person, room_server
    from support.webserver import chromium
    from test_wartesaal_browser import (
        as_guest,
        click_action,
        open_table,
        play,
        tap_battleklinge,
    )

    rng = random.Random(3)

    def by_hand(person, message: dict) -> None:
        if message["game"] == "battleklinge":
            tap_battleklinge(person, rng.choice(message["legal_views"]))
        else:
            click_action(person, message, rng)

    with room_server(tmp_path) as (url, _room), chromium() as browser:
        ida, jan = Person(browser, url, "de"), Person(browser, url, "en")
        kim, lea = Person(browser, url, "de"), Person(browser, url, "en")
        checks = {
            p: Checked(p.page, lang)
            for p, lang in ((ida, "de"), (jan, "en"), (kim, "de"), (lea, "en"))
        }

        def check(state: str) -> None:
            for person, c in checks.items():
                c.check(state, person.page.evaluate(SAAL_FREE))

        def everyone(condition: str, arg=None, people=(ida, jan)) -> None:
            for person in people:
                person.page.wait_for_function(condition, arg=arg)

        check("the login")
        for person in checks:
            person.page.click("#register-button")  # no name: the form refuses it
            as_guest(person)
        check("the hall")
        seats = open_table(ida, [jan], "touche-duell", "kinder-kurz")
        duel = ida.page.evaluate("Saal.table.id")
        finished = {"touche-duell": duel}
        for spectator in (kim, lea):
            spectator.page.click(f"#running li[data-table='{duel}'] button")
            spectator.page.wait_for_function("id => Saal.table && Saal.table.id === id", arg=duel)
        check("a duel running, two watching")
        mover = seats[ida.page.evaluate("Saal.table.to_act")]
        other = ida if mover is jan else jan
        mover.page.wait_for_function("Saal.table.legal_views.length > 0")
        click_action(mover, mover.page.evaluate("Saal.table"), random.Random(1))
        everyone("Saal.moves.length > 0", people=checks)
        check("a duel after a move")
        mover.page.click("#takeback")
        other.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
        kim.page.wait_for_selector("#offer:not([hidden])")
        lea.page.wait_for_selector("#offer:not([hidden])")
        check("a take-back offered")
        other.page.click("#offer-yes")
        everyone("Saal.table.actions === 0 && !Saal.table.offers.takeback", people=checks)
        check("a move taken back")
        for person in (ida, jan):  # a refusal of the room: an action out of turn
            person.page.evaluate(
                "ask('act', {table: Saal.table.id, seq: 0, action: 'zz'}).catch(() => {})"
            )
            person.page.wait_for_selector("#error:not([hidden])")
        check("a refusal of the room")
        # the Abbruch the room opens at a third repetition (a table message as the room
        # sends it then: repetition true, an abort offer nobody made; an offer changes
        # no version, so the room's next message is taken)
        for person in checks:
            person.page.evaluate(
                "() => onTable({...Saal.table, repetition: true, offers: {abort: []}})"
            )
            person.page.wait_for_selector("#offer:not([hidden])")
        check("the third repetition: an abort offered")
        ida.page.click("#abort")
        jan.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
        check("an abort offered")
        jan.page.click("#offer-no")
        everyone(
            "!(Saal.table.offers.abort || []).length && Saal.table.status === 'running'",
            people=checks,
        )
        check("the abort declined")
        play(seats, by_hand, limit=2)  # the replay below has moves to step through
        ida.page.click("#resign")
        everyone("Saal.table.status !== 'running'", people=checks)
        check("the game's result")
        ida.page.click("#rematch")
        jan.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
        check("a rematch offered")
        jan.page.click("#offer-yes")
        everyone("id => Saal.table.id !== id && Saal.table.status === 'running'", duel)
        check("the rematch running")
        ida.page.click("#abort")
        jan.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
        jan.page.click("#offer-yes")
        everyone("Saal.table.status === 'aborted'")
        check("the rematch aborted by consent")
        for game, variant, state, ended in (
            ("touche-pyramiden", "2", "a pyramids game running", "a pyramids game resigned"),
            ("battleklinge", "kartenwahl", "the Kartenwahl", "resigned in the Kartenwahl"),
        ):
            for person in (ida, jan):
                person.page.click("#leave")
                person.page.wait_for_selector("#room:not([hidden])")
            seats = open_table(ida, [jan], game, variant)
            finished[game] = ida.page.evaluate("Saal.table.id")
            check(state)
            play(seats, by_hand, limit=2)
            ida.page.click("#resign")
            for person in (ida, jan):
                person.page.wait_for_selector("#result:not([hidden])")
            check(ended)
        for person in (ida, jan):
            person.page.click("#leave")
            person.page.wait_for_selector("#room:not([hidden])")
        for game, table in finished.items():
            for person in (ida, jan):
                person.page.click(f"#finished li[data-table='{table}'] button")
                person.page.wait_for_function(
                    "id => Saal.replay && Saal.replay.id === id", arg=table
                )
            check(f"{game}: a finished game replayed, its end")
            for person in (ida, jan):
                person.page.click("#replay-first")
            check(f"{game}: a finished game replayed, its start")
            for person in (ida, jan):
                person.page.click("#replay-next")
            check(f"{game}: a finished game replayed, a step on")
            for person in (ida, jan):
                person.page.click("#leave")
                person.page.wait_for_selector("#room:not([hidden])")
        for person, c in checks.items():
            assert person.errors == []
            assert not c.found, "\n".join(c.found)
