"""The fourth game in the browser: Abzählen (tests/toygame/) played to its end on the
page of a real ``fechtbuch serve`` and at a Wartesaal table between two people.

The server is the command a user starts, a process whose environment names the toy
game's plugin in FECHTBUCH_PLUGINS; nothing else registers it.  Its board script, its
texts and its table set-up come from tests/toygame/ through the plugin alone, and the
pages (the system Chromium through Playwright) are played by tapping the toy board's
own buttons.

Without Chromium the tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.wartesaal_page import Person
from support.webserver import chromium, interrupt
from test_wartesaal_browser import as_guest, mover_ready, open_table, table_of, wait_version

TESTS = Path(__file__).parents[1]  # where toygame/ is


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``fechtbuch serve --port 0 --wartesaal ...`` with the toy game registered; its
    page's address.  Stopped with Ctrl-C (SIGINT) as a person stops it."""
    folder = tmp_path_factory.mktemp("served")
    env = dict(os.environ)
    env["FECHTBUCH_PLUGINS"] = "toygame.plugin"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    env["WARTESAAL_SECRET"] = "abzaehlen-" + "x" * 20
    env["XDG_DATA_HOME"] = str(folder)
    command = [sys.executable, "-m", "fechtbuch", "serve", "--port", "0"]
    command += ["--data", str(folder / "web.sqlite3")]
    command += ["--wartesaal", f"sqlite:///{folder / 'room.db'}"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"playing at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line + process.stderr.read()
        yield match.group(1)
    finally:
        interrupt(process, 15)


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


@pytest.fixture
def page(browser, served):
    context = browser.new_context(viewport={"width": 900, "height": 1000}, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(f"{err}\n{err.stack}"))
    page.goto(served)
    page.wait_for_selector("#start-abzaehlen-hotseat")
    yield page
    context.close()
    assert errors == []


def wait_for_person(page, moves_before: int) -> dict:
    page.wait_for_function(
        """n => App.msg && App.msg.moves.length > n &&
        (App.msg.finished || App.msg.people.includes(App.msg.to_act))""",
        arg=moves_before,
        timeout=60_000,
    )
    return page.evaluate("App.msg")


def tap(page, legal: list[dict], prefer: tuple[str, ...]) -> None:
    """The first of ``prefer`` that is legal, tapped on the toy's own board."""
    texts = [a["text"] for a in legal]
    action = next(a for a in prefer if a in texts)
    page.click(f"#board .az-board button.az-action[data-action='{action}']")


def test_a_game_at_one_device_to_its_end(page):
    page.click("#start-abzaehlen-hotseat")
    state = wait_for_person(page, -1)
    assert page.inner_text("#board .az-number") == f"Zahl: {state['view']['number']}"
    buttons = page.eval_on_selector_all(
        "#board .az-board button.az-action", "els => els.map(e => e.dataset.action)"
    )
    assert buttons == [a["text"] for a in state["legal"]]
    assert "Zwei weg" in page.inner_text("#board .az-board")  # the game's own texts
    start = state["view"]["number"]
    while not state["finished"]:
        # the seat to act feints and pushes while it may, then counts down by two
        tap(page, state["legal"], ("feint", "push", "take2", "take1"))
        state = wait_for_person(page, len(state["moves"]))
    actions = [m["text"] for m in state["moves"]]
    assert actions.count("push") == 4 and actions.count("feint") == 2
    assert len(actions) > start // 2
    assert state["view"]["number"] <= 0 and state["result"] in ([1.0, 0.0], [0.0, 1.0])
    assert page.inner_text("#status")
    # the end screen of every game: who won, and no analysis for a game without one
    page.wait_for_selector("#end:not([hidden])")
    winner = state["names"][state["result"].index(1.0)]
    assert page.inner_text("#end-title") == f"{winner} gewinnt."
    assert page.is_hidden("#analyse") and page.is_visible("#end-rematch")


def test_a_game_against_the_computer_to_its_end(page):
    page.select_option("#abzaehlen-strength", "perfekt")
    page.click("#start-abzaehlen-computer")
    state = wait_for_person(page, -1)
    while not state["finished"]:
        assert state["to_act"] == 0  # the computer answered before the page asks again
        tap(page, state["legal"], ("take1",))
        state = wait_for_person(page, len(state["moves"]))
    seats = [m["seat"] for m in state["moves"]]
    assert 1 in seats and state["result"] in ([1.0, 0.0], [0.0, 1.0])


def test_a_wartesaal_table_between_two_people_to_its_end(browser, served):
    ida, jan = (Person(browser, served + "wartesaal/") for _ in range(2))
    try:
        for person in (ida, jan):
            as_guest(person)
        seats = open_table(ida, [jan], "abzaehlen", "klein")
        first = table_of(seats[0])
        assert first["game"] == "abzaehlen" and first["variant"] == "klein"
        assert 5 <= first["board"]["view"]["number"] <= 9
        for person in (ida, jan):
            title = person.page.inner_text("#table-title")
            assert title == "Abzählen · Klein (5 bis 9)", title  # the game's own texts
            mine = person.page.inner_text("#seats-bottom .seat-name")
            assert f"({'AB'[table_of(person)['you']]})" in mine  # its board's seatLabel
        for _ in range(40):
            ready = mover_ready(seats)
            if ready is None:
                break
            mover, message = ready
            legal = [a["text"] for a in message["legal_views"]]
            action = "take2" if "take2" in legal else legal[0]
            mover.page.click(f"#board .az-board button.az-action[data-action='{action}']")
            wait_version(mover, message["version"])
        for person in (ida, jan):
            person.page.wait_for_function("Saal.table && Saal.table.status !== 'running'")
            person.page.wait_for_selector("#result:not([hidden])")
        final = table_of(ida)
        assert final["status"] == "finished" and final["reason"] == "game over"
        assert sorted(final["result"]) == [0.0, 1.0]
        texts = [ida.page.inner_text("#result-text"), jan.page.inner_text("#result-text")]
        assert sorted(t.split()[0] for t in texts) == ["Du", "Du"]  # won / lost, each
        assert ida.errors == [] and jan.errors == []
    finally:
        ida.close()
        jan.close()
