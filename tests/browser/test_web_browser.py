"""`fechtbuch serve` in the system Chromium (Playwright): every mode played as a
person plays it, by tapping the board or the page's buttons.  Screenshots of each
mode go to docs/img/web-*.png when FECHTBUCH_SCREENSHOTS=1 (docs/web.md shows them).

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from pathlib import Path

import pytest
from fechtbuch.web.puzzle import open_puzzle
from support.webserver import TODAY, browser_page, menu_page, running_server

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("web") / "web.sqlite3"
    with running_server(data) as (url, store):
        yield url, store


@pytest.fixture
def page(served):
    url, _ = served
    with menu_page(url) as opened:
        yield opened


def shot(page, name: str) -> None:
    if os.environ.get("FECHTBUCH_SCREENSHOTS") == "1":
        # the move display settles (the pulsing ring around a threatened master never does)
        page.wait_for_function(
            "document.getAnimations().every(a => a.playState !== 'running'"
            " || a.effect.getTiming().iterations === Infinity)"
        )
        page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=True)


def msg(page) -> dict:
    return page.evaluate("App.msg")


def wait_for_person(page, moves_before: int = -1) -> dict:
    page.wait_for_function(
        """n => App.msg && App.msg.moves.length > n &&
        (App.msg.finished || App.msg.solved || App.msg.lost ||
         App.msg.type === 'exercise' || App.msg.people.includes(App.msg.to_act))""",
        arg=moves_before,
        timeout=60_000,
    )
    return msg(page)


def tap_move(page, move: dict) -> None:
    """Play a Battleklinge move as a person does: the piece, then its target (and the
    card in the dialog when both cards lead there), or the pass button."""
    if move["from"] is None:
        page.click(".bk-pass")
        return
    page.click(f".bk-board [data-square={move['from']}]")
    page.click(f".bk-board [data-square={move['to']}]")
    if page.is_visible("#card-dialog[open]"):
        page.click(f"#card-dialog-buttons [data-card={move['card']}]")


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    return wait_for_person(page)


def test_whole_battleklinge_game_against_leicht(page, served):
    _, store = served
    page.check("#rotate")
    state = start(page, "battleklinge", "computer", strength="leicht", cards="angriff")
    rng = random.Random(1)
    while not state["finished"]:
        view, legal = state["view"], state["legal"]
        enemy = 1 - state["seat"]
        master = next(p["square"] for p in view["pieces"] if p["school"] == enemy and p["master"])
        winning = [m for m in legal if m["to"] in (master, view["banners"][enemy])]
        captures = [m for m in legal if m["to"] in {p["square"] for p in view["pieces"]}]
        move = (winning or captures or [rng.choice(legal)])[0]
        tap_move(page, move)
        state = wait_for_person(page, len(state["moves"]))
    assert page.inner_text("#status")
    assert sum(sum(r.values()) for r in store.records("battleklinge").values()) >= 1
    # the analysis: marks in the move list and the turning point with its green arrow
    page.click("#analyse")
    page.wait_for_function("App.analysis !== null && App.analysis !== undefined", timeout=120_000)
    analysis = page.evaluate("App.analysis")
    assert len(analysis["moves"]) == len(state["moves"])
    marks = [m["mark"] for m in analysis["moves"]]
    shown = page.eval_on_selector_all(
        "#moves li strong", "els => els.map(e => e.textContent.trim())"
    )
    assert shown == [m for m in marks if m]
    if analysis["turning"] is not None:
        page.click("#turning")
        assert "Wendepunkt" in page.inner_text("#explanation")
        if analysis["turning"]["better"]:
            page.wait_for_selector("#hint-arrow", state="attached")
    # the game is saved: replay it move by move
    page.click("#menu-button")
    page.click("#saved-battleklinge summary")
    page.click("#saved-battleklinge button.saved-game")
    page.wait_for_function("App.replay && App.ply === 0")
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.evaluate("App.ply") == 2
    assert page.query_selector(".bk-board .bk-last") is not None
    shot(page, "replay")


def test_undo_and_hint(page):
    state = start(page, "battleklinge", "computer", strength="leicht", cards="einsteiger")
    page.keyboard.press("r")
    page.wait_for_selector("#hint-arrow", state="attached")
    hint = page.inner_text("#console").split(": ", 1)[1]
    assert hint in {m["text"] for m in state["legal"]}
    shot(page, "hint")
    move = next(m for m in state["legal"] if m["text"] == hint)
    tap_move(page, move)
    after = wait_for_person(page, len(state["moves"]))
    assert after["moves"][len(state["moves"])]["text"] == hint
    page.click("#undo")
    page.wait_for_function(f"App.msg.moves.length === {len(state['moves'])}")
    assert msg(page)["view"]["notation"] == state["view"]["notation"] and msg(page)["helped"]


def test_a_move_by_keyboard_alone(page):
    """Keyboard play: the board's squares are buttons, so focusing the piece and then
    its target and pressing Enter plays the move, as Tab and Enter do."""
    state = start(page, "battleklinge", "computer", strength="leicht", cards="einsteiger")
    move = next(m for m in state["legal"] if m["from"] and m["card"])
    for square in (move["from"], move["to"]):
        page.focus(f".bk-board [data-square={square}]")
        page.keyboard.press("Enter")
    if page.is_visible("#card-dialog[open]"):
        page.focus(f"#card-dialog-buttons [data-card={move['card']}]")
        page.keyboard.press("Enter")
    after = wait_for_person(page, len(state["moves"]))
    played = after["moves"][len(state["moves"])]["text"]
    assert played in {
        m["text"] for m in state["legal"] if (m["from"], m["to"]) == (move["from"], move["to"])
    }
    labels = page.eval_on_selector_all(
        ".bk-board [data-square]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == 25 and all(labels)  # every field is named for a screen reader


def test_card_first_rings_pieces_and_shows_the_template(page):
    state = start(page, "battleklinge", "computer", strength="leicht", cards="einsteiger")
    card = next(m["card"] for m in state["legal"] if m["from"])
    page.click(f".bk-hand [data-card={card}]")
    ringed = set(
        page.eval_on_selector_all(
            ".bk-piece.ring", "els => els.map(e => e.parentElement.dataset.square)"
        )
    )
    assert ringed == {m["from"] for m in state["legal"] if m["card"] == card and m["from"]}
    dots = set(
        page.eval_on_selector_all(
            ".bk-dot.template", "els => els.map(e => e.parentElement.dataset.square)"
        )
    )
    assert dots == {m["to"] for m in state["legal"] if m["card"] == card and m["from"]}
    assert card in page.inner_text("#console").lower() or page.inner_text("#console")


def test_hotseat_rotates_the_board(page):
    page.check("#rotate")
    state = start(page, "battleklinge", "hotseat", cards="einsteiger")
    first = page.get_attribute(".bk-board .bk-sq", "data-square")
    assert first == ("a5" if state["to_act"] == 0 else "e1")
    page.select_option("#speed", "1400")
    tap_move(page, next(m for m in state["legal"] if m["from"]))
    wait_for_person(page, len(state["moves"]))
    # the move is shown: the piece jumps (and the played card slides)
    page.wait_for_function("document.getAnimations().length > 0", timeout=5_000)
    assert page.get_attribute(".bk-board .bk-sq", "data-square") == (
        "e1" if state["to_act"] == 0 else "a5"
    )
    shot(page, "hotseat")


def test_exercise_solved_green_and_one_failed(page, served):
    _, store = served
    page.click("#start-battleklinge-exercise")
    state = wait_for_person(page)
    table = open_puzzle("fechtuebungen", 1)
    while not (state["solved"] or state["lost"]):
        key = table.tree.best_action(table.node)
        move = next(m for m in state["legal"] if m["text"] == key)
        tap_move(page, move)
        table.act(key)
        state = wait_for_person(page, len(state["moves"]))
    assert state["solved"] and not state["helped"]
    assert "solved" in page.get_attribute("#status", "class")
    shot(page, "exercise")
    assert store.exercises("battleklinge")[table.puzzle["id"]] == "solved"
    page.click("#menu-button")
    # the overview shows it green
    page.click("#game-battleklinge details[data-pack=fechtuebungen] summary")
    page.wait_for_selector(f"button.exercise.solved[data-puzzle='{table.puzzle['id']}']")
    shot(page, "overview")


def test_daily_duel_and_streak(page, served):
    _, store = served
    yesterday = TODAY - dt.timedelta(days=1)
    store.book_daily("battleklinge", yesterday)
    store.finish_daily("battleklinge", yesterday, "won")
    page.reload()
    # the menu is built after the catalogue arrives: the element may not exist yet
    page.wait_for_function(
        "(document.getElementById('record-battleklinge') || {textContent: ''})"
        ".textContent.includes('Serie: 1')"
    )
    state = start(page, "battleklinge", "daily")
    assert state["daily_counts"] and state["facts"]["strength"] == "stark"
    shot(page, "daily")
    page.click("#resign")
    page.wait_for_function(
        "App.msg.finished && document.getElementById('status').textContent.includes('Serie: 0')"
    )
    page.click("#menu-button")
    state = start(page, "battleklinge", "daily")
    assert not state["daily_counts"]


def play_through(page, state: dict, limit: int = 400) -> dict:
    rng = random.Random(2)
    for _ in range(limit):
        if state["finished"]:
            return state
        if state.get("covered"):
            page.click("#reveal")
            page.wait_for_function("!App.msg.covered")
            state = msg(page)
            continue
        action = rng.choice(state["legal"])["text"]
        page.click(f"#actions [data-action='{action}']")
        state = wait_for_person(page, len(state["moves"]))
    raise AssertionError("the game did not end")


def test_touche_duel_hotseat_hides_the_hand_between_turns(page):
    state = start(page, "touche-duell", "hotseat", ruleset="kinder-kurz")
    assert state["covered"] and page.is_visible("#reveal")
    assert not page.query_selector(".td-hand")
    shot(page, "touche-covered")
    page.click("#reveal")
    page.wait_for_selector(".td-hand")
    shot(page, "touche-hotseat")


def test_phone_viewport_dark_theme_and_english(served):
    url, _ = served
    with browser_page(viewport={"width": 390, "height": 844}) as (page, errors):
        page.goto(url)
        page.wait_for_selector("#start-battleklinge-computer")
        page.select_option("#lang", "en")
        page.wait_for_function(
            "document.getElementById('start-battleklinge-computer').textContent === 'Against the computer'"
        )
        page.click("#settings-button")  # a phone's view settings fold behind ⚙
        page.check("#dark")
        page.click("#settings-button")
        start(page, "battleklinge", "computer", strength="leicht")
        width = page.evaluate("document.querySelector('.bk-board').getBoundingClientRect().right")
        assert width <= 390
        assert page.get_attribute(".bk-board [data-square=c1]", "aria-label").startswith("c1:")
        shot(page, "phone")
        assert errors == []


def test_kartenwahl_by_tapping_the_open_cards(page):
    state = start(page, "battleklinge", "computer", strength="leicht", cards="kartenwahl")
    shot(page, "draft")
    while state.get("prelude"):
        card = state["legal"][0]["card"]
        page.click(f".bk-draft [data-card={card}]")
        page.wait_for_function(
            "n => !App.msg.prelude || App.msg.prelude.open.length < n",
            arg=len(state["prelude"]["open"]),
        )
        state = wait_for_person(page)
    assert page.query_selector(".bk-board") is not None
    assert len(state["view"]["cards"]) == 5
