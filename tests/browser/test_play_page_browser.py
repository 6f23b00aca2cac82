"""The play page of `fechtbuch serve` in the system Chromium (Playwright): what a person
reads and sees at a table, in German and English: whose turn it is, the end screen's
one sentence, the pyramids' end at desktop size, the crowned pyramids, a hotseat
round's end, the header on a phone and an exercise's move list.

A game is brought near its end on the server's own table (the test keeps the tables
it opens and plays them on with the game's computer players), then the page asks for
the table again, as it does when its clock runs out; everything after that is the
page's own drawing.  Each behaviour is checked in one language by default, the other
with the slow tests (support/languages.py).  Without Chromium these tests skip,
except under CI=true where they fail.
"""

from __future__ import annotations

import pytest
from support.languages import in_one_language
from support.table_keeper import keeping_tables
from support.webserver import browser_page

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with keeping_tables(tmp_path_factory.mktemp("web"), "play-page") as served_:
        yield served_


def catalogue(lang: str) -> dict:
    from fechtbuch.engines.registry import plugins
    from fechtbuch.web.webgame import page_texts

    return page_texts(lang, [p for p in plugins() if p.web is not None])


def open_page(browser_page_, url: str, lang: str):
    page, _ = browser_page_
    page.goto(url)
    page.wait_for_selector("#games .game-card button")
    if lang != "de":
        page.select_option("#lang", lang)
        page.wait_for_function(
            "t => document.getElementById('menu-title').textContent === t",
            arg=catalogue(lang)["menu.title"],
        )
    return page


@pytest.fixture
def opened(served):
    """``opened(lang, viewport)``: the page's menu in ``lang``; a script error on the
    page fails the test."""
    url, _ = served
    stack = []

    def make(lang: str = "de", viewport: dict | None = None):
        context = browser_page(viewport)
        page, errors = context.__enter__()
        stack.append((context, errors))
        return open_page((page, errors), url, lang)

    yield make
    for context, errors in stack:
        context.__exit__(None, None, None)
        assert errors == [], errors


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    page.wait_for_function("App.msg && App.msg.type === 'table'")
    return page.evaluate("App.msg")


def person_to_act(page) -> dict:
    page.wait_for_function("App.msg && App.msg.people.includes(App.msg.to_act)")
    return page.evaluate("App.msg")


# ---- whose turn ------------------------------------------------------------------
@pytest.mark.parametrize("lang", in_one_language(default="de"))
def test_the_duel_says_it_is_your_turn(opened, lang):
    """Against the computer the status line says the person's turn in the page's
    language, as the board names the fencer "Du (A)", not "A ist am Zug"."""
    page = opened(lang)
    texts = catalogue(lang)
    start(page, "touche-duell", "computer", strength="leicht", seat="A")
    person_to_act(page)
    assert page.inner_text(".td-name-a") == texts["td.you"].replace("{seat}", "A")
    assert page.inner_text("#status") == texts["play.your_turn"]


# ---- a game brought on by the test ------------------------------------------------
def play_out(server, table, strength: str = "leicht") -> list:
    """Every action from the table's state to the game's end, each seat played by the
    game's computer player of ``strength``: (seat, notation, action)."""
    game = table.game
    factory = server.games[table.slug].players()
    choosers = [table.web.computer(factory, strength, seat) for seat in range(len(table.names))]
    state, states, moves = table.state, list(table.states), []
    while not game.is_terminal(state):
        seat = game.current_player(state)
        action = choosers[seat](state, tuple(states[:-1]))
        moves.append((seat, game.format_action(state, action), action))
        state = game.apply(state, action)
        states.append(state)
    return moves


def play_on(page, server, table, moves) -> dict:
    """``moves`` played on the server's table, then the page asks for the table again
    (as when its countdown reaches zero) and draws what it is sent."""
    from fechtbuch.web.server import NOTHING_HIDDEN

    for seat, text, action in moves:
        table._apply(seat, text, action, by_computer=seat not in table.start.people)
    conn, table_id = server.where[id(table)]
    if moves and conn.revealed.get(table_id, NOTHING_HIDDEN) != NOTHING_HIDDEN:
        conn.revealed[table_id] = None  # at one device the hand is covered after a move
    page.evaluate("tableCommand('flag')")
    page.wait_for_function("n => App.msg.moves.length === n", arg=len(table.played))
    return page.evaluate("App.msg")


# ---- the end screen --------------------------------------------------------------
@pytest.mark.parametrize("lang", in_one_language(default="en"))
def test_the_end_screen_says_the_result_once(opened, served, lang):
    """ "Du hast gewonnen!" (or lost) is the one sentence of the result: neither the end
    screen nor the status line adds "Blau gewinnt." beside it."""
    _, server = served
    page = opened(lang)
    texts = catalogue(lang)
    start(page, "touche-pyramiden", "computer", players="2", strength="leicht")
    table = server.opened[-1]
    state = play_on(page, server, table, play_out(server, table))
    assert state["finished"]
    scores = state["view"]["scores"]
    assert scores[0] != scores[1]  # the test's deal has a winner
    page.wait_for_selector("#end:not([hidden])")
    title = page.inner_text("#end-title")
    assert title in (texts["play.you_won"], texts["play.you_lost"])
    won = title == texts["play.you_won"]
    assert won == (scores[0] > scores[1])
    for where in ("#end", "#status"):
        shown = page.inner_text(where)
        assert shown.count(title) == 1, (where, shown)
        for team in (0, 1):
            winner = texts["play.won"].replace("{name}", texts[f"tp.seat.{team}"])
            assert winner not in shown, (where, shown)
    # the points say who won, in the game's own words
    assert texts[f"tp.colour.{0 if won else 1}"] in page.inner_text("#end-detail")


# ---- the pyramids' hand ----------------------------------------------------------
@pytest.mark.parametrize("lang", in_one_language(default="de"))
def test_the_hand_heading_goes_with_the_last_card(opened, served, lang):
    """The heading "Deine Karten:" stands over the own cards while the game goes on;
    at the game's end, the hand empty, neither stays on the screen."""
    _, server = served
    page = opened(lang)
    heading = catalogue(lang)["tp.hand"] + ":"
    start(page, "touche-pyramiden", "computer", players="2", strength="leicht")
    person_to_act(page)
    assert page.inner_text(".tp-hand-title") == heading
    assert page.locator(".tp-hand .tp-card").count() == 5
    table = server.opened[-1]
    state = play_on(page, server, table, play_out(server, table))
    assert state["finished"] and state["view"]["hand"] == []
    page.wait_for_selector("#end:not([hidden])")
    assert page.locator(".tp-hand, .tp-hand-title").count() == 0
    assert heading not in page.inner_text("#play")


# ---- the header on a phone -------------------------------------------------------
SETTINGS = ("#dark", "#aids", "#coords", "#sound", "#hall", "#music", "#rotate", "#speed")
"""The view settings of the header (the language stays beside the button)."""


def no_sideways_scrolling(page) -> None:
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
            ...[...document.querySelectorAll('header, header nav')].map(e => e.scrollWidth - e.clientWidth)]"""
    )
    assert widths[0] <= widths[1] and max(widths[2:]) <= 0, widths


@pytest.mark.parametrize("lang", in_one_language(default="en"))
def test_a_phone_reaches_every_view_setting(opened, lang):
    """At 390 x 844 the header scrolls nowhere sideways: the language stands in it, and
    the button ⚙ ("Einstellungen") opens every other view setting on the screen; one is
    set there, Escape closes them again.  In the menu and at a table alike."""
    from support.phone import PHONE, assert_on_screen

    page = opened(lang, PHONE)
    texts = catalogue(lang)
    for where in ("menu", "table"):
        if where == "table":
            start(page, "touche-duell", "computer", strength="leicht")
        no_sideways_scrolling(page)
        assert_on_screen(page, ["#menu-button", "#settings-button", "#lang"])
        assert page.get_attribute("#settings-button", "aria-label") == texts["view.settings"]
        assert all(page.is_hidden(setting) for setting in SETTINGS)
        page.click("#settings-button")
        assert page.get_attribute("#settings-button", "aria-expanded") == "true"
        assert_on_screen(page, list(SETTINGS))
        no_sideways_scrolling(page)
        dark = page.get_attribute("body", "data-theme") == "dark"
        page.click("label:has(#dark)")
        assert (page.get_attribute("body", "data-theme") == "dark") != dark
        page.focus("#speed")
        page.keyboard.press("Escape")
        assert all(page.is_hidden(setting) for setting in SETTINGS)
        assert page.evaluate("document.activeElement.id") == "settings-button"


# ---- the pyramids' end at desktop size ---------------------------------------------
@pytest.mark.parametrize("lang", in_one_language(default="de"))
def test_the_pyramids_end_shows_board_and_pattern_on_a_desktop(opened, served, lang):
    """At 1280 x 800 the last round's Touché, the whole board with the completed
    pattern lit and the end screen are all on the screen at once, as the page stands;
    during the game the board and the own cards are too."""
    from support.phone import assert_on_screen

    _, server = served
    page = opened(lang, DESKTOP)
    start(page, "touche-pyramiden", "computer", players="2", strength="leicht")
    person_to_act(page)
    assert_on_screen(page, [".tp-board", ".tp-hand", "#play-title"])
    table = server.opened[-1]
    moves = play_out(server, table)
    play_on(page, server, table, moves[:-1])  # the page sees the last round, then its end
    state = play_on(page, server, table, moves[-1:])
    assert state["finished"]
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_selector(".tp-moment")
    complete = page.locator(".tp-cell.complete")
    assert complete.count() >= 4  # the smallest pattern (Quadrat) has four fields
    parts = [".tp-board", ".tp-moment", "#end-title", "#end-rematch", "#end-new"]
    fields = [
        f".tp-cell.complete[data-field='{f}']"
        for f in complete.evaluate_all("els => els.map(e => e.dataset.field)")
    ]
    assert_on_screen(page, parts + fields)


# ---- a round's end at one device ---------------------------------------------------
def round_end_index(table, moves) -> int:
    """The index in ``moves`` of the action that ends the table's current round."""
    state = table.state
    for index, (_, _, action) in enumerate(moves):
        after = table.game.apply(state, action)
        if after.round > state.round:
            return index
        state = after
    raise AssertionError("the round does not end")


def shown_parts(page) -> list[str]:
    """Which of the hand-over, the round's moment and the pattern choice are shown."""
    parts = {"cover": "#cover", "moment": ".tp-moment", "choice": ".tp-choose"}
    return [name for name, selector in parts.items() if page.is_visible(selector)]


@pytest.mark.parametrize("lang", in_one_language(default="en"))
def test_a_hotseat_round_end_shows_one_thing_at_a_time(opened, served, lang):
    """Two people at one device, the first round won: first the round's moment with
    "Weiter zu Runde 2" alone, then the hand-over to the seat that chooses the next
    pattern alone, and only after its "Bereit" the pattern choice."""
    _, server = served
    page = opened(lang)
    texts = catalogue(lang)
    start(page, "touche-pyramiden", "hotseat", players="2")
    table = server.opened[-1]
    moves = play_out(server, table)
    end = round_end_index(table, moves)
    play_on(page, server, table, moves[:end])
    state = play_on(page, server, table, moves[end : end + 1])
    assert state["covered"] and state["view"]["round"] == 2
    page.wait_for_selector(".tp-moment")
    assert shown_parts(page) == ["moment"]
    assert page.inner_text("#tp-next") == texts["tp.round.next"].replace("{round}", "2")
    assert not page.is_visible(".tp-waiting")
    page.click("#tp-next")
    assert shown_parts(page) == ["cover"]
    chooser = texts[state["seat_keys"][state["to_act"]]]
    assert page.inner_text("#cover-text") == texts["hotseat.pass"].replace("{name}", chooser)
    page.click("#reveal")
    page.wait_for_function("!App.msg.covered")
    page.wait_for_selector(".tp-choose .tp-pattern-button")
    assert shown_parts(page) == ["choice"]


# ---- the crowned pyramids ----------------------------------------------------------
@pytest.mark.parametrize("lang", in_one_language(default="de"))
def test_a_crowned_pyramid_shows_who_crowned_it(opened, served, lang):
    """Each crowned field is drawn in the colour and shape of the team that completed
    the pattern there, under a crown (a plain pyramid has none), and its label names
    that team in the page's language; the fields each team crowned add up to its
    points' patterns (four or five fields per point)."""
    _, server = served
    page = opened(lang)
    texts = catalogue(lang)
    start(page, "touche-pyramiden", "computer", players="2", strength="leicht")
    table = server.opened[-1]
    state = play_on(page, server, table, play_out(server, table))
    scores = state["view"]["scores"]
    cells = page.eval_on_selector_all(
        ".tp-cell.crowned",
        """els => els.map(e => ({field: e.dataset.field, team: e.dataset.crownedBy,
            label: e.getAttribute('aria-label'),
            crown: !!e.querySelector('svg.tp-crowned'),
            fills: [...e.querySelectorAll('svg *')].map(s => s.getAttribute('fill'))}))""",
    )
    assert len(cells) >= 4 * sum(scores)
    plain_blue = page.eval_on_selector(
        ".tp-seat[data-seat='0'] svg.tp-marker *", "e => e.getAttribute('fill')"
    )
    for team, score in enumerate(scores):
        own = [c for c in cells if c["team"] == str(team)]
        assert 4 * score <= len(own) <= 5 * score, (team, score, own)
        for cell in own:
            name = texts[f"tp.colour.{team}"]
            assert cell["label"].endswith(texts["tp.field.crowned.team"].replace("{team}", name))
            assert cell["crown"]
            if team == 0:
                assert plain_blue in cell["fills"]  # the team's own colour under the crown
    assert all(cell["team"] in ("0", "1") for cell in cells)


# ---- an exercise's move list -------------------------------------------------------
def worded(texts: dict, message: dict) -> str:
    """A message (key and arguments, an argument itself a message) in words, as the
    page's t() words it."""
    text = texts[message["key"]]
    for name, value in message.get("args", {}).items():
        shown = worded(texts, value) if isinstance(value, dict) else str(value)
        text = text.replace("{" + name + "}", shown)
    return text


@pytest.mark.parametrize(
    ("game", "pack", "number", "lang"),
    [
        *in_one_language("battleklinge", "fechtuebungen", 1, default="en"),
        # the defence's draw ends the round
        *in_one_language("touche-duell", "touche-uebungen", 1, default="de"),
        # a reply and a draw
        *in_one_language("touche-pyramiden", "pyramiden-uebungen", 20, default="en"),
    ],
)
def test_an_exercise_s_moves_are_in_words_with_the_notation_beside(
    opened, lang, game, pack, number
):
    """An exercise solved: every move of the list, the person's and the defence's (its
    draws too), says in the page's language who did what, the notation beside, as a
    game's move list and a replay do."""
    from fechtbuch.engines.plugin import load
    from fechtbuch.engines.registry import plugin
    from fechtbuch.web.puzzle import open_puzzle

    page = opened(lang)
    texts = catalogue(lang)
    web = load(plugin(game).web)
    table = open_puzzle(pack, number)
    page.fill(f"#{game}-number", str(number))
    page.click(f"#start-{game}-exercise")
    page.wait_for_function("App.msg && App.msg.type === 'exercise'")
    while not table.finished:
        key = table.tree.best_action(table.node)
        table.act(key)
        page.evaluate("key => send({type: 'act', table: App.msg.table, action: key})", key)
        page.wait_for_function("n => App.msg.moves.length === n", arg=len(table.played))
    assert page.evaluate("App.msg.solved")
    shown = page.eval_on_selector_all("#moves li", "items => items.map(i => i.textContent)")
    expected = []
    for (text, defence), state in zip(table.played, table.played_in, strict=True):
        words = worded(texts, web.problem_explain(table.kind, state, text))
        expected.append((texts["ex.defence"] + " " if defence else "") + f"{words} ({text})")
    assert shown == expected
    assert any(defence for _, defence in table.played)
