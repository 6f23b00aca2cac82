"""The Wartesaal's page in the system Chromium (Playwright): people play people, each
in a browser context of their own, by tapping the board and the page's buttons.

A rated Battleklinge game with a clock and the Kartenwahl played to the end; a
friendly game with a takeback; an abort by consent; a rematch with the schools
swapped; a spectator of a Touché duel who never receives a hidden card (every frame
the spectator's page received is checked); a pyramids game of three; the Notbremse's
last minute shown to both and a clock running out during the Kartenwahl (the room's
clock moved forward).  Screenshots go to docs/img/wartesaal-*.png when
FECHTBUCH_SCREENSHOTS=1.  Against SQLite, and the rated game also against the
PostgreSQL of ``WARTESAAL_POSTGRES_URL`` or of ``.ci/postgres`` (skipped without one,
unless CI=true).

Without Chromium the tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from support.wartesaal_page import MovableClock, Person, room_server
from support.wartesaal_postgres import fresh_database
from support.webserver import chromium

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
RUNNING = "Saal.table && Saal.table.status === 'running'"


@pytest.fixture(scope="module")
def browser():
    with chromium() as shared:
        yield shared


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    with room_server(tmp_path_factory.mktemp("room")) as (url, _app):
        yield url


@pytest.fixture
def people(browser, room):
    """``people(n)``: n persons on the room's page; their pages must raise no error."""
    made: list[Person] = []

    def make(count: int, url: str = room) -> list[Person]:
        fresh = [Person(browser, url) for _ in range(count)]
        made.extend(fresh)
        return fresh

    yield make
    for person in made:
        assert person.errors == []
        person.close()


# ---- what a person does on the page ---------------------------------------------------------


def register(person: Person, name: str) -> None:
    person.page.fill("#login-name", name)
    person.page.fill("#login-password", "passwort-" + name)
    person.page.click("#register-button")
    person.page.wait_for_selector("#room:not([hidden])")
    person.name = name


def as_guest(person: Person) -> None:
    person.page.click("#guest-button")
    person.page.wait_for_selector("#room:not([hidden])")
    person.name = person.page.evaluate("Saal.me.name")


def challenge(person: Person, game: str, variant: str, clock: str = "", rated=False, stake=0):
    page = person.page
    page.select_option("#new-game", game)
    page.select_option("#new-variant", variant)
    page.select_option("#new-clock", clock)
    if rated:
        page.check("#new-rated")
        page.fill("#new-stake", str(stake))
    page.click("#challenge-button")


def accept(person: Person, creator: Person) -> None:
    row = person.page.locator("#challenges tbody tr", has_text=creator.name)
    row.locator("button.accept").click()


def table_of(person: Person) -> dict:
    return person.page.evaluate("Saal.table")


def open_table(creator: Person, others: list[Person], game: str, variant: str, **options):
    """``creator`` challenges, ``others`` accept; every page shows the running table."""
    challenge(creator, game, variant, **options)
    for other in others:
        accept(other, creator)
    for person in (creator, *others):
        person.page.wait_for_function(RUNNING)
        person.page.wait_for_selector("#table:not([hidden])")
    return {table_of(p)["you"]: p for p in (creator, *others)}


def guests_at_table(persons: list[Person], game: str, variant: str, **options):
    """Every person enters as a guest; the first challenges, the others accept."""
    for person in persons:
        as_guest(person)
    return open_table(persons[0], persons[1:], game, variant, **options)


def wait_version(person: Person, above: int) -> dict:
    person.page.wait_for_function("v => Saal.table && Saal.table.version > v", arg=above)
    return table_of(person)


def mover_ready(seats: dict[int, Person]) -> tuple[Person, dict] | None:
    """The person to act, once their page shows it is their turn; ``None`` when the
    game is over."""
    anyone = next(iter(seats.values()))
    message = table_of(anyone)
    if message["status"] != "running":
        return None
    mover = seats[message["to_act"]]
    mover.page.wait_for_function(
        "v => Saal.table.version >= v && (Saal.table.status !== 'running' ||"
        " (Saal.table.to_act === Saal.table.you && Saal.table.legal_views.length))",
        arg=message["version"],
    )
    mine = table_of(mover)
    return (mover, mine) if mine["status"] == "running" else None


def tap_battleklinge(person: Person, move: dict) -> None:
    """A Battleklinge move as a person plays it: the piece, its target, and the card in
    the dialog when both cards lead there; a pass by its button; a pick of the
    Kartenwahl by its open card."""
    page = person.page
    if move["text"].startswith("wahl:"):
        page.locator(".bk-draft .bk-hand").first.locator(f"[data-card='{move['card']}']").click()
    elif move["from"] is None:
        page.click(".bk-pass")
    else:
        page.click(f".bk-board [data-square={move['from']}]")
        page.click(f".bk-board [data-square={move['to']}]")
        if page.is_visible("#card-dialog[open]"):
            page.click(f"#card-dialog-buttons [data-card={move['card']}]")


def battleklinge_choice(message: dict, rng: random.Random) -> dict:
    """Random moves until the rated game counts (10 actions), then the master or the
    banner when in reach, else a capture: a game that ends soon and counts."""
    legal = message["legal_views"]
    view = message["board"].get("view")
    if view is None or message["actions"] < 10:
        return rng.choice(legal)
    enemy = 1 - message["you"]
    master = next(p["square"] for p in view["pieces"] if p["school"] == enemy and p["master"])
    occupied = {p["square"] for p in view["pieces"]}
    winning = [m for m in legal if m.get("to") in (master, view["banners"][enemy])]
    captures = [m for m in legal if m.get("to") in occupied]
    return (winning or captures or [rng.choice(legal)])[0]


def click_action(person: Person, message: dict, rng: random.Random) -> None:
    """One of the legal actions, played by hand on the board as on the game page (the
    Touché games offer no list of notations): the duel's cards and squares, the
    pyramids' cards and fields."""
    from support.touche_duel_page import play_action
    from test_pyramids_browser import play_by_hand

    assert person.page.query_selector("#actions button") is None
    action = rng.choice(message["legal_views"])
    if person.page.is_visible(".td-next"):  # a round's end moment over the table
        person.page.click(".td-next")
    if message["game"] == "touche-duell":
        play_action(person.page, message["board"]["view"], action["text"])
    else:
        play_by_hand(person.page, action)


def play(seats: dict[int, Person], choose, limit: int = 400) -> dict:
    """Every turn by the person to act through ``choose(person, message)`` until the
    game ends or ``limit`` actions were played; the last table message."""
    for _ in range(limit):
        ready = mover_ready(seats)
        if ready is None:
            break
        mover, message = ready
        choose(mover, message)
        wait_version(mover, message["version"])
    return table_of(next(iter(seats.values())))


def wait_finished(person: Person) -> dict:
    person.page.wait_for_function("Saal.table && Saal.table.status !== 'running'")
    person.page.wait_for_selector("#result:not([hidden])")
    return table_of(person)


def shot(person: Person, name: str) -> None:
    if os.environ.get("FECHTBUCH_SCREENSHOTS") == "1":
        person.page.wait_for_function(
            "document.getAnimations().every(a => a.playState !== 'running'"
            " || a.effect.getTiming().iterations === Infinity)"
        )
        person.page.screenshot(path=str(IMAGES / f"wartesaal-{name}.png"))


def header_numbers(person: Person) -> dict:
    text = person.page.inner_text("#me-rating")
    elo, points, taler = re.match(r"Elo (\d+) · (-?\d+) Punkte · (\d+) Taler", text).groups()
    return {"elo": int(elo), "points": int(points), "taler": int(taler)}


# ---- the games --------------------------------------------------------------------------------


def rated_battleklinge_game(people, url=None) -> None:
    anna, bert = people(2) if url is None else people(2, url)
    register(anna, "Anna")
    register(bert, "Bert")
    challenge(anna, "battleklinge", "kartenwahl", clock="5", rated=True, stake=5)
    anna.page.wait_for_selector("#challenges button.withdraw")
    shot(anna, "room")
    accept(bert, anna)
    seats = {}
    for person in (anna, bert):
        person.page.wait_for_function(RUNNING)
        seats[table_of(person)["you"]] = person
    # the Kartenwahl: eight open cards; each pick is an action, the clock already runs
    first = table_of(anna)
    assert first["board"]["prelude"]["open"] and len(first["board"]["prelude"]["open"]) == 8
    assert first["clocks"] == [300.0, 300.0] or max(first["clocks"]) <= 300.0
    picker = seats[first["to_act"]]
    picker.page.wait_for_timeout(1200)
    clock = picker.page.inner_text(f"#clock-{first['to_act']}")
    assert clock < "5:00", clock  # the mover's clock ticks on the page
    rng = random.Random(29)
    moves = 0

    def choose(person: Person, message: dict) -> None:
        nonlocal moves
        moves += 1
        if moves == 14:
            shot(person, "battleklinge")
        tap_battleklinge(person, battleklinge_choice(message, rng))

    end = play(seats, choose)
    assert end["status"] == "finished" and end["reason"] == "game over"
    assert end["actions"] >= 10  # the game counts
    winner = end["result"].index(1.0)
    for seat, person in seats.items():
        message = wait_finished(person)
        person.page.wait_for_selector(".settlement")
        won = seat == winner
        assert person.page.inner_text("#result-text").startswith(
            "Du hast gewonnen!" if won else "Du hast verloren."
        )
        sign = 1 if won else -1
        assert message["settlement"][person.name] == {
            "points": 10 * sign,
            "elo": 10.0 * sign,
            "taler": 5 * sign,
        }
        person.page.wait_for_function(
            "elo => document.getElementById('me-rating').textContent.includes('Elo ' + elo)",
            arg=1200 + 10 * sign,
        )
        assert header_numbers(person) == {
            "elo": 1200 + 10 * sign,
            "points": 10 * sign,
            "taler": 100 + 5 * sign,
        }
    shot(seats[winner], "result")
    # the finished game is in the room's list and replays step by step
    anna.page.click("#leave")
    row = anna.page.locator("#finished li", has_text="Bert")
    row.locator("button").click()
    anna.page.wait_for_selector("#replay-back:not([hidden])")
    plies = end["actions"]
    assert anna.page.inner_text("#table-facts") == f"Nachspielen: Zug {plies} von {plies}"
    anna.page.click("#replay-first")
    assert anna.page.is_visible(".bk-draft")  # the Kartenwahl's open cards
    for _ in range(5):
        anna.page.click("#replay-next")
    assert anna.page.inner_text("#table-facts") == f"Nachspielen: Zug 5 von {plies}"
    assert anna.page.locator(".bk-board").count() == 1
    assert anna.page.locator("#moves li.current").count() == 1


def test_a_rated_battleklinge_game_with_a_clock_and_the_kartenwahl(people):
    rated_battleklinge_game(people)


def test_the_rated_game_on_postgresql(browser, tmp_path, postgres_url):
    fresh_database(postgres_url)
    made: list[Person] = []

    def make(count: int, url: str) -> list[Person]:
        fresh = [Person(browser, url) for _ in range(count)]
        made.extend(fresh)
        return fresh

    with room_server(tmp_path, postgres_url) as (url, _app):
        rated_battleklinge_game(make, url)
    for person in made:
        assert person.errors == []


def test_a_friendly_game_with_a_takeback(people):
    carla, dora = people(2)
    seats = guests_at_table([carla, dora], "battleklinge", "einsteiger")
    start = table_of(carla)
    assert start["rated"] is False
    mover, message = mover_ready(seats)
    before = message["board"]["view"]["notation"]
    tap_battleklinge(mover, random.Random(1).choice(message["legal_views"]))
    moved = wait_version(mover, message["version"])
    assert moved["board"]["view"]["notation"] != before
    other = seats[1 - moved["last_action"]["seat"]]
    assert other.page.is_hidden("#takeback")  # only the seat that made the last move asks
    mover.page.click("#takeback")
    other.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
    assert "zurücknehmen" in other.page.inner_text("#offer-text")
    other.page.click("#offer-yes")
    for person in seats.values():
        person.page.wait_for_function(
            "n => Saal.table.board.view.notation === n && Saal.table.actions === 0", arg=before
        )
        assert person.page.is_hidden("#offer")
        assert person.page.locator("#moves li").count() == 0
    # the same seat is to move again, and its page offers the moves again
    again = mover_ready(seats)
    assert again[0] is mover
    # how the page shows the Abbruch the room opens at a third repetition (a table
    # message as the room sends it then: repetition true, an abort offer nobody made)
    other.page.evaluate(
        "() => onTable({...Saal.table, version: Saal.table.version + 1,"
        " repetition: true, offers: {abort: []}})"
    )
    assert "zum dritten Mal" in other.page.inner_text("#offer-text")
    assert other.page.is_visible("#offer-yes") and other.page.is_visible("#offer-no")


def test_an_abort_by_consent_returns_the_stakes(people):
    emil, frida = people(2)
    register(emil, "Emil")
    register(frida, "Frida")
    seats = open_table(emil, [frida], "touche-duell", "standard-kurz", rated=True, stake=10)
    assert header_numbers(emil)["taler"] in (90, 100)  # the stake is escrowed at the deal
    emil.page.click("#abort")
    frida.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
    assert "Abbruch" in frida.page.inner_text("#offer-text")
    emil.page.wait_for_selector("#offer:not([hidden])")
    assert emil.page.is_hidden("#offer-yes")  # Emil waits for Frida
    frida.page.click("#offer-yes")
    for person in seats.values():
        message = wait_finished(person)
        assert message["status"] == "aborted"
        assert "Abgebrochen" in person.page.inner_text("#result")
        assert message["settlement"][person.name] == {"points": 0, "elo": 0.0, "taler": 0}
        assert person.page.is_hidden("#rematch")
        person.page.wait_for_function(
            "() => document.getElementById('me-rating').textContent.includes('100 Taler')"
        )
        assert header_numbers(person) == {"elo": 1200, "points": 0, "taler": 100}
    # the same page in English, from the same catalogue mechanism as the rest of serve
    frida.page.select_option("#lang", "en")
    frida.page.wait_for_function(
        "() => document.getElementById('result').textContent.includes('Aborted – unrated')"
    )
    assert frida.page.inner_text("#leave") == "Back to the room"


def test_a_rematch_swaps_the_schools(people):
    gerd, hanna = people(2)
    seats = guests_at_table([gerd, hanna], "battleklinge", "angriff")
    first = table_of(gerd)
    assert sorted(first["seats"]) == sorted([gerd.name, hanna.name])
    hanna.page.click("#resign")
    for person in seats.values():
        wait_finished(person)
    assert "Aufgabe" in gerd.page.inner_text("#result-text")
    assert gerd.page.inner_text("#result-text").startswith("Du hast gewonnen!")
    gerd.page.click("#rematch")
    hanna.page.wait_for_selector("#offer:not([hidden]) #offer-yes:not([hidden])")
    assert "Revanche" in hanna.page.inner_text("#offer-text")
    hanna.page.click("#offer-yes")
    for person in seats.values():
        person.page.wait_for_function(
            "old => Saal.table.id !== old && Saal.table.status === 'running'", arg=first["id"]
        )
    second = table_of(gerd)
    assert second["seats"] == first["seats"][::-1]
    schools = ["(Gold) (du)", "(Blau) (du)"]
    for person in (gerd, hanna):
        before = first["seats"].index(person.name)
        assert table_of(person)["you"] == 1 - before
        assert schools[1 - before] in person.page.inner_text("#seats-bottom")


HIDDEN_HANDS = re.compile(r"^\?\d+/\?\d+$")
HIDDEN_PILE = re.compile(r"^\?\d+$")


def spectator_saw_no_hidden_card(frames: list[str]) -> int:
    """Check every frame a spectator's page received; the number of duel views in them.

    A duel view is ``rules squares score mover phase hands discard pile``: a spectator's
    must show both hands and the pile by their sizes only; no frame may hold a hand
    (``"hand":``, the key of a seat's drawn hand) or a legal action."""
    views = 0
    for frame in frames:
        assert '"hand":' not in frame, frame
        message = json.loads(frame)
        found = []
        if message.get("type") == "table":
            found.append(message)
        for key in ("table", "replay"):
            if isinstance(message.get(key), dict):
                found.append(message[key])
        for item in found:
            texts = [item["view"]] if "view" in item else [item["start"]]
            if isinstance(item.get("actions"), list):  # a replay: the view after each
                texts += [a["view"] for a in item["actions"]]
            for text in texts:
                tokens = text.split(" ")
                assert HIDDEN_HANDS.match(tokens[5]), text
                assert HIDDEN_PILE.match(tokens[7]), text
                views += 1
            assert item.get("you") is None
            assert not item.get("legal") and not item.get("legal_views")
    return views


def test_a_spectator_of_a_touche_duel_never_receives_a_hidden_card(people):
    ida, jan, kim = people(3)
    seats = guests_at_table([ida, jan], "touche-duell", "kinder-kurz")
    as_guest(kim)
    table_id = table_of(ida)["id"]
    kim.page.wait_for_selector(f"#running li[data-table='{table_id}'] button", timeout=10_000)
    kim.page.click(f"#running li[data-table='{table_id}'] button")
    kim.page.wait_for_function("id => Saal.table && Saal.table.id === id", arg=table_id)
    assert "du schaust zu" in kim.page.inner_text("#table-facts")
    rng = random.Random(7)
    end = play(seats, lambda person, message: click_action(person, message, rng), limit=24)
    if end["status"] == "running":
        jan.page.click("#resign")
    final = wait_finished(ida)
    kim.page.wait_for_function("v => Saal.table.version >= v", arg=final["version"])
    kim.page.wait_for_selector("#result:not([hidden])")
    shot(kim, "spectator")
    assert kim.page.locator("#moves li").count() == final["actions"]
    views = spectator_saw_no_hidden_card(kim.frames)
    assert views > final["actions"]  # a view per change at least: the check saw the game
    # the players did receive their own hands, so the check above can tell
    assert any('"hand": [' in f or '"hand":[' in f for f in ida.frames)
    with pytest.raises(AssertionError):
        spectator_saw_no_hidden_card(ida.frames)


def test_a_pyramids_game_of_three(people):
    seats = guests_at_table(people(3), "touche-pyramiden", "3")
    assert sorted(seats) == [0, 1, 2]
    rng = random.Random(3)
    acted: set[int] = set()

    def choose(person: Person, message: dict) -> None:
        acted.add(message["you"])
        click_action(person, message, rng)

    # everyone acts at least once through the page, then a seat resigns: with more than
    # two seats it loses alone and the two others share the win
    for _ in range(60):
        if len(acted) == 3:
            break
        play(seats, choose, limit=1)
    assert acted == {0, 1, 2}
    seats[2].page.click("#resign")
    for seat, person in seats.items():
        message = wait_finished(person)
        assert message["result"] == [1.0, 1.0, 0.0]
        expected = "Du hast verloren." if seat == 2 else "Du hast gewonnen!"
        assert person.page.inner_text("#result-text").startswith(expected)


def test_the_last_minute_and_a_clock_running_out_in_the_kartenwahl(browser, tmp_path):
    clock = MovableClock()
    made: list[Person] = []
    with room_server(tmp_path, clock=clock) as (url, _app):
        lena, max_ = (Person(browser, url) for _ in range(2))
        made += [lena, max_]
        seats = guests_at_table(made, "battleklinge", "einsteiger")
        for person in made:
            assert person.page.is_hidden("#last-minute")
        # without a clock one action may take ten minutes; the last is shown to both
        clock.offset += 545
        for person in made:
            person.page.wait_for_selector("#last-minute:not([hidden])")
            assert re.search(
                r"noch 0:[0-5]\d für diesen Zug", person.page.inner_text("#last-minute")
            )
        clock.offset += 60
        for person in seats.values():
            message = wait_finished(person)
            assert message["reason"] == "move limit"
        # with a clock, time running out loses, during the Kartenwahl too
        for person in made:
            person.page.click("#leave")
        seats = open_table(lena, [max_], "battleklinge", "kartenwahl", clock="1")
        assert "prelude" in table_of(lena)["board"]
        mover = table_of(lena)["to_act"]
        clock.offset += 61
        for person in seats.values():
            message = wait_finished(person)
            assert message["reason"] == "time"
            assert message["result"][mover] == 0.0
            assert "Zeit überschritten" in person.page.inner_text("#result-text")
    for person in made:
        assert person.errors == []
        person.close()


def test_logging_out_ends_the_session(people):
    [paula] = people(1)
    register(paula, "Paula")
    token = paula.page.evaluate("sessionStorage.getItem('wartesaal-session')")
    with paula.page.expect_navigation():  # the page starts afresh, logged out
        paula.page.click("#logout")
    paula.page.wait_for_selector("body[data-ready='1'] #login:not([hidden])")
    assert paula.page.is_hidden("#me")
    refused = paula.page.evaluate(
        "t => ask('hello', {session: t}).then(() => 'accepted', (err) => err.message)", token
    )
    assert refused == "session: ended by logging out, log in again"
    paula.page.wait_for_selector("#error:not([hidden])")  # the page says so
    paula.errors.clear()  # (the refused promise is handled; nothing else may fail)


def test_a_dropped_connection_comes_back_to_its_seat(people):
    olga, paul = people(2)
    seats = guests_at_table([olga, paul], "battleklinge", "verteidigung")
    olga_seat = table_of(olga)["you"]
    table_id = table_of(olga)["id"]
    olga.page.evaluate("Saal.ws.close()")  # the network drops
    # Olga's page takes up its seat again by itself and shows the table as it stands
    olga.page.wait_for_function(
        "id => Saal.reconnects === 1 && Saal.table && Saal.table.id === id", arg=table_id
    )
    paul.page.wait_for_function("Saal.table.away.length === 0")
    assert olga.page.is_hidden("#error")
    # Paul saw her away in between
    pushed = [json.loads(frame) for frame in paul.frames]
    assert any(m.get("type") == "table" and m["away"] == [olga_seat] for m in pushed)
    mover, message = mover_ready(seats)
    tap_battleklinge(mover, message["legal_views"][0])
    wait_version(paul if mover is olga else olga, message["version"])


def test_an_accept_button_survives_another_persons_accept(people):
    """The challenge list is updated in place: a button someone is about to click is the
    same element after another person joins the challenge (a list rebuilt on every
    update dropped a click that landed during the rebuild)."""
    creator, first, second = people(3)
    for person in (creator, first, second):
        as_guest(person)
    challenge(creator, "touche-pyramiden", "3")
    button = "#challenges tbody tr button.accept"
    second.page.wait_for_selector(button)
    second.page.evaluate(f"window.heldButton = document.querySelector({button!r})")
    accept(first, creator)
    second.page.wait_for_function(
        "() => document.querySelector('#challenges tbody tr').textContent.includes('2/3')"
    )
    assert second.page.evaluate(f"window.heldButton === document.querySelector({button!r})")
    assert second.page.evaluate("window.heldButton.isConnected")
    accept(second, creator)
    for person in (creator, first, second):
        person.page.wait_for_function(RUNNING)
