"""Touché with pyramids in the system Chromium (Playwright), played by hand: whole
games of 2, 4 and 6 players to their end screens by tapping cards, fields and the
pattern diagrams only (the page has no list of notations); an exercise of the pack
solved and one failed the same way; the exercise never shows its answer before it
is played.

The person's choices come from the engine's ``mittel`` player on the view the page
received (``view.notation``, the seat's own view); each is then played as a person
plays it: the card, then the field (a joker lifting a pyramid: then the choice what
to do), the dead cards and the exchange button, the pattern's diagram.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fechtbuch.engines.touche_pyramiden.notation import parse_view
from fechtbuch.engines.touche_pyramiden.players import computer
from fechtbuch.web.puzzle import open_puzzle
from support.languages import in_one_language
from support.webserver import browser_page, running_server

PERSON = computer("mittel", "browser-test")
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"


def shot(page, name: str) -> None:
    """docs/img/web-<name>.png when FECHTBUCH_SCREENSHOTS=1 (docs/web.md shows them)."""
    if os.environ.get("FECHTBUCH_SCREENSHOTS") == "1":
        page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("web") / "web.sqlite3"
    with running_server(data) as (url, store):
        yield url, store


@pytest.fixture
def page(served):
    url, _ = served
    with browser_page() as (page_, errors):
        page_.goto(url)
        page_.wait_for_selector("#start-touche-pyramiden-computer")
        yield page_
        assert errors == []


def msg(page) -> dict:
    return page.evaluate("App.msg")


def wait_for_person(page, moves_before: int = -1) -> dict:
    page.wait_for_function(
        """n => App.msg && App.msg.moves.length > n &&
        (App.msg.finished || App.msg.solved || App.msg.lost || App.msg.covered ||
         App.msg.type === 'exercise' || App.msg.people.includes(App.msg.to_act))""",
        arg=moves_before,
        timeout=60_000,
    )
    return msg(page)


def start(page, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#touche-pyramiden-{name}", value)
    page.click(f"#start-touche-pyramiden-{mode}")
    return wait_for_person(page)


def no_notation_buttons(page) -> None:
    assert page.query_selector("#actions button") is None
    assert page.query_selector("pre.textboard") is None


def play_by_hand(page, action: dict) -> None:
    """One legal action (its parts as the server sent them) by tapping the page."""
    act = action["act"]
    if act == "pattern":
        page.click(f".tp-pattern-button[data-pattern='{action['pattern']}']")
    elif act == "lead":
        page.click(f".tp-lead-button[data-seat='{action['seat']}']")
    elif act == "pass":
        page.click(".tp-pass")
    elif act == "exchange":
        used: set[str] = set()
        for card in action["cards"]:
            index = page.eval_on_selector_all(
                f".tp-card[data-card='{card}']",
                "(els, used) => els.map(e => e.dataset.index).find(i => !used.includes(i))",
                sorted(used),
            )
            used.add(index)
            page.click(f".tp-card[data-index='{index}']")
        page.click(".tp-exchange")
    else:
        page.click(f".tp-card[data-card='{action['card']}']")
        assert page.is_visible(
            f".tp-cell.{'lift' if act != 'place' else 'target'}[data-field='{action['field']}']"
        )
        page.click(f".tp-cell[data-field='{action['field']}']")
        if act in ("remove", "replace"):
            page.click(f".tp-lift-{act}")


def choose(state: dict) -> dict:
    """The action ``mittel`` takes on the seat's view, among the legal ones sent."""
    from fechtbuch.engines.touche_pyramiden.notation import format_action

    view = parse_view(state["view"]["notation"])
    text = format_action(PERSON.choose(view).action)
    return next(a for a in state["legal"] if a["text"] == text)


def play_game(page, state: dict, limit: int = 600, name: str = "") -> tuple[dict, dict]:
    """Play to the end by hand; the final state and what was seen on the way (with
    ``name``, screenshots of the middle of the game and of the first Touché)."""
    seen = {"touche": 0, "patterns": 0, "leads": 0, "covered": 0, "shot": 0}
    for _ in range(limit):
        no_notation_buttons(page)
        placing = [a for a in state["legal"] if a["act"] == "place" and a["card"] != "XX"]
        if name and not seen["shot"] and len(state["moves"]) >= 8 and placing:
            seen["shot"] = 1
            card = f".tp-card[data-card='{placing[0]['card']}']"
            page.click(card)  # a card chosen, its fields lit
            shot(page, name)
            page.click(card)
        if page.is_visible("#tp-next"):
            assert page.inner_text(".tp-moment")
            if name and not seen["touche"] and page.is_visible(".tp-moment.touche"):
                shot(page, name + "-touche")
            seen["touche"] += page.is_visible(".tp-moment.touche")
            assert page.query_selector(".tp-cell.complete") or not page.is_visible(
                ".tp-moment.touche"
            )
            page.click("#tp-next")
            continue
        if state["finished"]:
            return state, seen
        if state.get("covered"):
            seen["covered"] += 1
            assert page.query_selector(".tp-card") is None  # the hand stays hidden
            page.click("#reveal")
            page.wait_for_function("!App.msg.covered")
            state = msg(page)
            continue
        action = choose(state)
        seen["patterns"] += action["act"] == "pattern"
        seen["leads"] += action["act"] == "lead"
        before = len(state["moves"])
        play_by_hand(page, action)
        state = wait_for_person(page, before)
    raise AssertionError("the game did not end")


def assert_end_screen(page, state: dict) -> None:
    """The page's end screen with the pyramids' words: who won, every team's points."""
    page.wait_for_selector("#end:not([hidden])")
    scores = state["view"]["scores"]
    assert sum(scores) <= state["view"]["rounds"] and max(scores) >= 1
    assert state["result"] is not None
    texts = catalogue("de")
    best = [t for t, s in enumerate(scores) if s == max(scores)]
    shown = page.inner_text("#end-title") + " " + page.inner_text("#end-reason")
    if len(best) == len(scores):  # every team with the same points
        assert texts["play.draw"] in shown
        assert texts["play.you_lost"] not in shown and texts["play.you_won"] not in shown
    elif state["mode"] == "hotseat":
        # who won: the page names the winning seats (in teams, every member)
        assert all(texts[f"tp.colour.{t}"] in shown for t in best), (shown, scores)
    else:  # against the computer the person's result is the one sentence (teams too)
        won = 0 in best and len(best) < len(scores)
        assert shown.startswith(texts["play.you_won" if won else "play.you_lost"])
    rounds = str(state["view"]["rounds"])
    assert texts["tp.final.after"].replace("{rounds}", rounds) in shown
    detail = page.inner_text("#end-detail")
    for team, score in enumerate(scores):
        assert f"{texts[f'tp.colour.{team}']} {score}" in detail
    assert page.is_visible("#end-rematch") and page.is_visible("#end-new")
    # the pyramids' analysis is offered after a game (tests/browser/test_analysis_browser.py)
    assert page.is_visible("#analyse")


def test_two_players_against_the_computer(page):
    state = start(page, "computer", players="2", strength="leicht")
    assert page.query_selector(".tp-board") is not None
    assert len(page.query_selector_all(".tp-board [role=row]")) == 8
    state, seen = play_game(page, state)
    assert_end_screen(page, state)
    # "Revanche": the same game again, a new deal
    page.click("#end-rematch")
    page.wait_for_function("t => App.msg && App.msg.table !== t", arg=state["table"])
    again = wait_for_person(page)
    assert again["view"]["players"] == 2 and again["view"]["round"] == 1
    assert seen["touche"] >= 1


@pytest.mark.slow  # 45 s; the six players in three teams cover several seats at one device
def test_four_players_at_one_device(page):
    state = start(page, "hotseat", players="4")
    state, seen = play_game(page, state, name="pyramiden-hotseat")
    assert_end_screen(page, state)
    assert seen["covered"] > 4


def seen_hands(frames: list[str]) -> set[int]:
    """The seats whose hand a page received (in a view's ``hand`` or notation)."""
    seats = set()
    for frame in frames:
        message = json.loads(frame)
        view = message.get("view") if isinstance(message, dict) else None
        if not isinstance(view, dict) or "notation" not in view:
            continue
        hands = view["notation"].split(" hand=")[1].split(" ")[0].split("/")
        seats |= {seat for seat, hand in enumerate(hands) if not hand.startswith("#")}
        assert "hand" not in view or f"sicht={view['seat']}" in view["notation"]
    return seats


def test_six_players_in_three_teams(page):
    # every frame the page receives is read: no hand but the person's ever arrives
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.reload()
    page.wait_for_selector("#start-touche-pyramiden-computer")
    state = start(page, "computer", players="6x3", strength="mittel")
    assert len(state["view"]["scores"]) == 3
    # the person's team is marked, its colour named as drawn
    assert page.inner_text(".tp-seat.mine[data-seat='0']").count("Blau") == 1
    state, seen = play_game(page, state)
    assert_end_screen(page, state)
    assert seen_hands(frames) == {0} and len(frames) > 20


def test_the_menu_offers_two_to_six_players_and_teams(page):
    choices = page.eval_on_selector_all(
        "#touche-pyramiden-players option", "els => els.map(e => [e.value, e.textContent])"
    )
    assert [v for v, _ in choices] == ["2", "3", "4", "4x2", "5", "6", "6x3", "6x2"]
    assert dict(choices)["6x2"] == "6 Spieler in 2 Teams"


def test_an_exercise_solved_by_hand_and_one_failed(page, served):
    _, store = served
    table = open_puzzle("pyramiden-uebungen", 1)
    page.fill("#touche-pyramiden-number", "1")
    page.click("#start-touche-pyramiden-exercise")
    state = wait_for_person(page)
    no_notation_buttons(page)
    while not (state["solved"] or state["lost"]):
        key = table.tree.best_action(table.node)
        play_by_hand(page, next(a for a in state["legal"] if a["text"] == key))
        table.act(key)
        state = wait_for_person(page, len(state["moves"]))
    assert state["solved"] and not state["helped"]
    page.wait_for_selector(".tp-cell.complete")
    shot(page, "pyramiden-exercise")
    assert store.exercises("touche-pyramiden")[table.puzzle["id"]] == "solved"
    # the same exercise again, a field off the solution: lost at once
    page.click("#menu-button")
    page.click("#start-touche-pyramiden-exercise")
    state = wait_for_person(page)
    stored = set(open_puzzle("pyramiden-uebungen", 1).node.tree)
    wrong = next(a for a in state["legal"] if a["text"] not in stored and a["act"] == "place")
    play_by_hand(page, wrong)
    state = wait_for_person(page, len(state["moves"]))
    assert state["lost"] and "mark-bad" in page.get_attribute("#status", "class")


@pytest.mark.parametrize("number", [1, 13, 25])
def test_an_exercise_shows_no_part_of_its_solution(page, number):
    puzzle = open_puzzle("pyramiden-uebungen", number).puzzle
    page.fill("#touche-pyramiden-number", str(number))
    page.click("#start-touche-pyramiden-exercise")
    state = wait_for_person(page)
    key = puzzle["key"]
    field = key.split(":")[1].lstrip("-=")
    text = page.inner_text("#play")
    assert key not in text and puzzle["line"][-1] not in text
    assert f" {field}" not in text and f"{field}:" not in text  # no field named anywhere
    assert page.query_selector(".tp-cell.complete, .tp-cell.hinted, .tp-card.hinted") is None
    # nothing lit before a card is chosen, and the order of the actions tells nothing
    assert page.query_selector(".tp-cell.target, .tp-cell.lift") is None
    texts = [a["text"] for a in state["legal"]]
    assert texts == sorted(texts)
    html = page.inner_html("#play")
    assert key not in html


def catalogue(lang: str) -> dict:
    from fechtbuch.engines.registry import plugins
    from fechtbuch.web.webgame import page_texts

    return page_texts(lang, [p for p in plugins() if p.web is not None])


WORDED = ("tp.", "game.", "pack.", "choice.", "error.", "mode.", "facts.")
"""The keys whose texts the pyramids page shows."""


def other_language_words(lang: str) -> set[str]:
    """Texts of the other catalogue that this one does not share (whole entries of
    one word or more, without placeholders)."""
    mine, other = catalogue(lang), catalogue("en" if lang == "de" else "de")
    own = set(mine.values())
    return {
        text
        for key, text in other.items()
        if key.startswith(WORDED)
        and "{" not in text
        and len(text) > 3
        # the English texts keep German game terms with a gloss: "Leicht (easy)"
        and not any(text in mine_text for mine_text in own)
    }


# one language by default, the other with the slow tests: every text of the page in
# both is test_page_language.py's task, the pyramids at phone size among them
@pytest.mark.parametrize("lang", in_one_language(default="de"))
def test_phone_size_every_board_text_in_the_page_s_language(served, lang):
    """At 390 x 844 the whole board and the hand are on the screen, no text of the
    pyramids is under 12 px, and every text of the board is of the page's language."""
    url, _ = served
    with browser_page(viewport={"width": 390, "height": 844}) as (page, errors):
        page.goto(url)
        page.wait_for_selector("#start-touche-pyramiden-computer")
        page.select_option("#lang", lang)
        page.wait_for_function(
            "t => document.getElementById('start-touche-pyramiden-computer').textContent === t",
            arg=catalogue(lang)["mode.computer"],
        )
        state = start(page, "computer", players="4x2", strength="leicht")
        # the person's first turn: nothing to take back, refused in the page's language
        assert all(m["seat"] != 0 for m in state["moves"])
        page.click("#undo")
        texts = catalogue(lang)
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error") == f"{texts['error.prefix']} {texts['error.undo']}"
        for _ in range(6):  # a few turns in: pyramids on the board, the hand changed
            if state["finished"]:
                break
            if page.is_visible("#tp-next"):
                page.click("#tp-next")
            play_by_hand(page, choose(state))
            state = wait_for_person(page, len(state["moves"]))
        page.click(".tp-card")  # a card chosen: its fields lit, its words in the console
        page.locator(".tp-board").scroll_into_view_if_needed()
        for part in (".tp-board", ".tp-hand"):
            box = page.locator(part).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, part
            assert box["height"] <= 844, part
        smallest = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('.tp-wrap *')]
                .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
                .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
        )
        assert smallest >= 12
        shown = page.inner_text(".tp-wrap") + page.inner_text("#explanation")
        shown += page.inner_text("#console") + page.inner_text("#status")
        shown += page.inner_text("#play-title") + page.inner_text("#facts")
        assert catalogue(lang)["game.touche-pyramiden"] in page.inner_text("#play-title")
        labels = page.eval_on_selector_all(
            ".tp-wrap [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
        )
        for text in [shown, *labels]:
            assert "tp." not in text and "error." not in text, text
            foreign = [w for w in other_language_words(lang) if w in text]
            assert foreign == [], foreign
        assert errors == []


def test_a_turn_by_keyboard_alone(page):
    """Tab to a card, Enter picks it; the arrow keys walk the board from the first lit
    field (one tab stop), Enter plays there; focus stays on the board or the hand."""
    state = start(page, "computer", players="2", strength="leicht")
    while not any(a["act"] == "place" for a in state["legal"]):
        play_by_hand(page, choose(state))
        state = wait_for_person(page, len(state["moves"]))
    action = next(a for a in state["legal"] if a["act"] == "place" and a["card"] != "XX")
    page.focus(f".tp-card[data-card='{action['card']}']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".tp-cell.target")
    assert page.evaluate("document.activeElement.dataset.card") == action["card"]
    stops = page.eval_on_selector_all(".tp-cell", "els => els.filter(e => e.tabIndex === 0).length")
    assert stops == 1
    start_field = page.get_attribute(".tp-cell[tabindex='0']", "data-field")
    page.focus(".tp-cell[tabindex='0']")
    cols = "abcdefghijklmn"
    dx = cols.index(action["field"][0]) - cols.index(start_field[0])
    dy = int(action["field"][1]) - int(start_field[1])
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    assert page.evaluate("document.activeElement.dataset.field") == action["field"]
    page.keyboard.press("Enter")
    after = wait_for_person(page, len(state["moves"]))
    mine = [m for m in after["moves"][len(state["moves"]) :] if m["seat"] == 0]
    assert mine[0]["text"] == action["text"]
