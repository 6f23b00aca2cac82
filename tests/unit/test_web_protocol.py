"""The WebSocket protocol of `fechtbuch serve` (Starlette's in-process TestClient):
the server is authoritative, and bad messages are errors on the page and in the log,
never a crash; a page that leaves mid-move is survived."""

from __future__ import annotations

import datetime as dt
import json
import logging
import random

import pytest

pytest.importorskip("httpx")
from fechtbuch.web.server import Server, create_app  # noqa: E402
from fechtbuch.web.store import Store  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

TODAY = dt.date(2026, 12, 1)


@pytest.fixture
def client(tmp_path):
    seeds = iter(f"protocol-{n}" for n in range(100))
    server = Server(Store(tmp_path / "web.sqlite3"), today=lambda: TODAY, seed=lambda: next(seeds))
    with TestClient(create_app(server)) as test_client:
        yield test_client, server


def solve_with_hints(ws, exercise: dict) -> dict:
    """Play an exercise to its end by asking for a hint ("Lösung") before each move."""
    while not (exercise["solved"] or exercise["lost"]):
        ws.send_text(json.dumps({"type": "hint", "table": exercise["table"]}))
        key = ws.receive_json()["action"]
        ws.send_text(json.dumps({"type": "act", "table": exercise["table"], "action": key}))
        exercise = ws.receive_json()
    return exercise


def until_person(ws) -> dict:
    """Messages until a person is to act (or the game is over)."""
    while True:
        message = ws.receive_json()
        if message["type"] != "table":
            return message
        if message["finished"] or message["to_act"] in message["people"]:
            return message


def new(ws, game, mode="computer", **options) -> dict:
    ws.send_text(json.dumps({"type": "new", "game": game, "mode": mode, "options": options}))
    return until_person(ws)


def test_catalogue_lists_every_registered_game_and_shipped_pack(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        catalogue = ws.receive_json()
    assert [g["slug"] for g in catalogue["games"]] == [
        "battleklinge",
        "touche-duell",
        "touche-pyramiden",
    ]
    assert {p["game"] for p in catalogue["packs"]} == {g["slug"] for g in catalogue["games"]}
    assert "daily" in catalogue["games"][0]["modes"]


BAD_MESSAGES = [
    ("not json at all", "message: not JSON"),
    ("[1, 2]", "message: expected a JSON object"),
    ('{"type": 3}', "type: expected str"),
    ('{"type": "dance"}', "type: unknown message type"),
    ('{"type": "act", "table": "t99", "action": "x"}', "table: unknown table"),
    ('{"type": "new", "game": "schach", "mode": "computer"}', "game: unknown game"),
    ('{"type": "new", "game": "battleklinge", "mode": "online"}', "mode:"),
    (
        '{"type": "new", "game": "battleklinge", "mode": "computer", "options": {"strength": "gott"}}',
        "strength:",
    ),
    (
        '{"type": "new", "game": "battleklinge", "mode": "computer", "options": {"cards": "alle"}}',
        "cards:",
    ),
    (
        '{"type": "new", "game": "touche-duell", "mode": "computer", "options": {"strength": "gott"}}',
        "strength:",
    ),
    (
        '{"type": "new", "game": "touche-pyramiden", "mode": "computer", "options": {"players": "9"}}',
        "players:",
    ),
    (
        '{"type": "new", "game": "touche-duell", "mode": "hotseat", "options": {"ruleset": 5}}',
        "ruleset:",
    ),
    (
        '{"type": "new", "game": "battleklinge", "mode": "hotseat", "options": {"seed": ""}}',
        "seed:",
    ),
    ('{"type": "new", "game": "battleklinge", "mode": "hotseat", "options": []}', "options:"),
    ('{"type": "exercise", "pack": "nope", "number": 1}', "pack: unknown pack"),
    ('{"type": "exercise", "pack": "fechtuebungen", "number": 49}', "number:"),
    ('{"type": "records", "game": 5}', "game: expected str"),
    ("x" * 5000, "message: longer than"),
]


@pytest.mark.parametrize(("text", "expected"), BAD_MESSAGES)
def test_bad_messages_are_errors_and_the_connection_stays(client, caplog, text, expected):
    test_client, _ = client
    with caplog.at_level(logging.WARNING, logger="fechtbuch.web"):
        with test_client.websocket_connect("/ws") as ws:
            ws.receive_json()
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "error"
            assert answer["message"].startswith(expected), answer
            ws.send_text(json.dumps({"type": "records", "game": "battleklinge"}))
            assert ws.receive_json()["type"] == "records"  # still served
    assert any(expected in record.getMessage() for record in caplog.records)


def test_a_bug_is_an_error_message_and_the_connection_stays(client, caplog, monkeypatch):
    test_client, server = client

    def broken(game):
        raise RuntimeError("a bug in the records")

    monkeypatch.setattr(server, "records_message", broken)
    with caplog.at_level(logging.ERROR, logger="fechtbuch.web"):
        with test_client.websocket_connect("/ws") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "records", "game": "battleklinge"}))
            answer = ws.receive_json()
            assert answer == {"type": "error", "message": "internal: a bug in the records"}
            ws.send_text(json.dumps({"type": "exercise", "pack": "fechtuebungen", "number": 2}))
            assert ws.receive_json()["type"] == "exercise"
    assert any("internal error" in record.getMessage() for record in caplog.records)


def test_illegal_out_of_turn_and_malformed_actions_leave_the_table_unchanged(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat", cards="einsteiger")
        assert table["to_act"] == table["view"]["turn"]
        before = table["view"]["notation"]
        for action, expected in [
            ("ausfall:c1c5", "is not legal here"),
            (17, "expected the action's notation"),
            ("", "is not legal here"),
        ]:
            ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": action}))
            answer = ws.receive_json()
            assert answer["type"] == "error" and expected in answer["message"]
        ws.send_text(json.dumps({"type": "undo", "table": table["table"]}))
        assert "no move of yours" in ws.receive_json()["message"]
        legal = table["legal"][0]["text"]
        ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": legal}))
        after = ws.receive_json()
        assert after["moves"][-1]["text"] == legal and after["view"]["notation"] != before


def test_out_of_turn_actions_are_refused():
    # the socket handles one message at a time, so the computer has always moved by
    # the time a page's action is read: the refusal is the table's, tested here
    from fechtbuch.web.server import web_games
    from fechtbuch.web.table import ActionRefused, Table

    entry = web_games()["battleklinge"]
    for school in ("g", "b"):
        options = {"strength": "leicht", "school": school, "cards": "einsteiger"}
        start = entry.web.start(entry.game, "computer", options, "x")
        if entry.game.current_player(start.state) not in start.people:
            break
    computer = 1 - start.people[0]
    table = Table(entry.game, entry.web, "battleklinge", "computer", start, "x", {computer: None})
    legal = next(iter(table.legal()))
    with pytest.raises(ActionRefused, match="computer's turn"):
        table.act(legal)
    assert table.played == []


def test_actions_after_the_end_are_refused(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat")
        ws.send_text(json.dumps({"type": "analyse", "table": table["table"]}))
        assert "not over yet" in ws.receive_json()["message"]
        ws.send_text(json.dumps({"type": "resign", "table": table["table"]}))
        over = ws.receive_json()
        assert over["finished"] and over["legal"] == []
        ws.send_text(
            json.dumps(
                {"type": "act", "table": table["table"], "action": table["legal"][0]["text"]}
            )
        )
        assert "the game is over" in ws.receive_json()["message"]


def test_undo_and_hint_mark_the_game_as_helped(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", strength="leicht", cards="einsteiger")
        ws.send_text(json.dumps({"type": "hint", "table": table["table"]}))
        hint = ws.receive_json()
        assert hint["type"] == "hint"
        assert hint["action"] in {a["text"] for a in table["legal"]}
        moves_before = len(table["moves"])
        ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": hint["action"]}))
        after = until_person(ws)
        assert len(after["moves"]) > moves_before
        ws.send_text(json.dumps({"type": "undo", "table": table["table"]}))
        undone = ws.receive_json()
        assert len(undone["moves"]) == moves_before and undone["helped"]
        assert undone["view"]["notation"] == table["view"]["notation"]


def test_hidden_hands_never_reach_another_seat(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        for game in ("touche-duell", "touche-pyramiden"):
            table = new(ws, game, mode="hotseat")
            assert table["covered"] and "hand" not in table["view"] and table["legal"] == []
            ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": "p"}))
            assert "covered" in ws.receive_json()["message"]
            ws.send_text(json.dumps({"type": "reveal", "table": table["table"]}))
            shown = ws.receive_json()
            assert shown["view"]["seat"] == shown["to_act"] and "hand" in shown["view"]
            ws.send_text(
                json.dumps(
                    {"type": "act", "table": table["table"], "action": shown["legal"][0]["text"]}
                )
            )
            after = ws.receive_json()
            assert after["covered"] and "hand" not in after["view"] and after["legal"] == []


def test_computer_games_of_the_touche_games_hide_the_computers_hand(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "touche-duell", strength="leicht", seat="A")
        assert table["view"]["seat"] == 0
        assert "pile" not in table["view"] and "hands" not in table["view"]


def test_every_view_of_a_whole_duel_holds_only_the_own_hand(client):
    """A whole match against the computer: every table message's view holds the own
    hand and the sizes of the rest, and a round's end lays the hands open only at the
    hand comparison (as the rules do)."""
    test_client, _ = client
    own = {"ruleset", "lunge", "squares", "score", "target", "mover", "phase", "attack"}
    own |= {"seat", "hand", "hand_sizes", "pile_size", "discard", "unseen"}
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "touche-duell", strength="leicht", seat="B", ruleset="standard-kurz")
        while not table["finished"]:
            action = table["legal"][-1]["text"]
            ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": action}))
            while True:
                table = ws.receive_json()
                view = table["view"]
                assert set(view) == own and view["seat"] == 1
                assert len(view["hand"]) == view["hand_sizes"][1]
                hidden = view["hand_sizes"][0] + view["pile_size"]
                assert sum(view["unseen"]) == hidden  # the unseen cards are the hidden ones
                if table["finished"] or table["to_act"] == 1:
                    break
        ends = [m["explanation"]["round"] for m in table["moves"] if "round" in m["explanation"]]
    assert max(table["view"]["score"]) == 3 and len(ends) >= 3
    assert ends[-1]["score"] == table["view"]["score"]
    for end in ends:
        assert ("hands" in end) == (end["how"] == "vergleich"), end


def test_the_duel_s_analysis_marks_every_missed_sure_hit():
    """After a match each decision is asked whether it held a sure win of the round
    (the prover, one own turn); a miss is "??" with a winning action legal there."""
    from fechtbuch.engines.touche_duell.notation import parse_action
    from fechtbuch.engines.touche_duell.state import view_of
    from fechtbuch.solver.touche_duell.analysis import sure_hits
    from fechtbuch.web.server import web_games
    from fechtbuch.web.table import Table

    entry = web_games()["touche-duell"]
    game, web = entry.game, entry.web
    start = web.start(game, "hotseat", {"ruleset": "standard-kurz"}, "an1")
    table = Table(game, web, "touche-duell", "hotseat", start, "an1")
    rng = random.Random(1)
    while not table.finished:
        table.act(rng.choice(sorted(table.legal())))
    states = [table.states[e.before] for e in table.played] + [table.state]
    report = web.analyse(game, states, [e.text for e in table.played])
    assert web.analysis and len(report["moves"]) == len(table.played)
    missed = [m for m in report["moves"] if m["mark"]]
    assert missed and all(m["sure"] for m in missed)
    for move in missed:
        state = states[move["number"] - 1]
        winning = sure_hits(view_of(state, state.mover))
        played = parse_action(table.played[move["number"] - 1].text)
        assert move["mark"] == "??" and played not in winning
        assert parse_action(move["better"]) in winning
        assert move["better"] in {game.format_action(state, a) for a in game.legal_actions(state)}


def test_a_page_that_leaves_while_the_computer_thinks_is_survived(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", strength="stark", cards="angriff")
        ws.send_text(
            json.dumps(
                {"type": "act", "table": table["table"], "action": table["legal"][0]["text"]}
            )
        )
        ws.receive_json()  # the person's move; the computer is thinking now
    with test_client.websocket_connect("/ws") as ws:  # the server still serves
        assert ws.receive_json()["type"] == "catalogue"


def test_an_exercise_solved_and_one_lost(client):
    test_client, server = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "exercise", "pack": "fechtuebungen", "number": 1}))
        exercise = ws.receive_json()
        exercise = solve_with_hints(ws, exercise)
        assert exercise["solved"] and exercise["helped"]
        ws.send_text(json.dumps({"type": "exercise", "pack": "touche-uebungen", "number": 1}))
        exercise = ws.receive_json()
        from fechtbuch.web.puzzle import open_puzzle

        table = open_puzzle("touche-uebungen", 1)
        stored = set(table.node.tree)
        wrong = next(a["text"] for a in exercise["legal"] if a["text"] not in stored)
        ws.send_text(json.dumps({"type": "act", "table": exercise["table"], "action": wrong}))
        lost = ws.receive_json()
        assert lost["lost"] and not lost["solved"]
    puzzle = table.puzzle["id"]
    assert server.store.attempts("touche-duell") == [(puzzle, False, False)]
    assert list(server.store.exercises("battleklinge").values()) == ["solved-with-help"]


def test_daily_duel_counts_the_first_game_only(client):
    test_client, server = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        first = new(ws, "battleklinge", mode="daily")
        assert first["facts"]["day"] == TODAY.isoformat() and first["daily_counts"]
        ws.send_text(json.dumps({"type": "resign", "table": first["table"]}))
        assert ws.receive_json()["finished"]
        second = new(ws, "battleklinge", mode="daily")
        assert not second["daily_counts"]
    assert server.store.daily("battleklinge") == {TODAY.isoformat(): "lost"}
    assert server.store.streak("battleklinge", TODAY) == 0


def test_store_streak_and_records(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    day = dt.date(2026, 11, 29)
    for offset, outcome in ((0, "won"), (1, "won"), (2, "lost")):
        assert store.book_daily("battleklinge", day + dt.timedelta(days=offset))
        store.finish_daily("battleklinge", day + dt.timedelta(days=offset), outcome)
    assert store.streak("battleklinge", dt.date(2026, 11, 30)) == 2
    assert store.streak("battleklinge", dt.date(2026, 12, 1)) == 0
    assert not store.book_daily("battleklinge", day)
    store.count_game("battleklinge", "leicht", won=True, helped=True)
    store.count_game("battleklinge", "leicht", won=False, helped=False)
    assert store.records("battleklinge") == {
        "leicht": {"wins": 1, "losses": 1, "wins_with_help": 1}
    }
    store.count_attempt("battleklinge", "p1", solved=True, helped=True)
    store.count_attempt("battleklinge", "p1", solved=True, helped=False)
    store.count_attempt("battleklinge", "p1", solved=True, helped=True)
    assert store.exercises("battleklinge") == {"p1": "solved"}  # green stays green


class FakeTime:
    """A monotonic clock the test moves by hand."""

    def __init__(self):
        self.value = 1000.0

    def __call__(self) -> float:
        return self.value


@pytest.fixture
def timed(tmp_path):
    fake = FakeTime()
    seeds = iter(f"timed-{n}" for n in range(100))
    server = Server(
        Store(tmp_path / "web.sqlite3"),
        today=lambda: TODAY,
        seed=lambda: next(seeds),
        now=fake,
    )
    with TestClient(create_app(server)) as test_client:
        yield test_client, fake


def test_a_quiet_page_still_loses_on_time(tmp_path):
    """The clock is the server's: a page that sends nothing after its time ran out is
    told the game is lost (the server checks its games while the page is quiet)."""
    fake = FakeTime()
    server = Server(
        Store(tmp_path / "web.sqlite3"), today=lambda: TODAY, now=fake, watch_seconds=0.05
    )
    with TestClient(create_app(server)) as test_client:
        with test_client.websocket_connect("/ws") as ws:
            ws.receive_json()
            table = new(ws, "battleklinge", mode="hotseat", clock="5")
            seat = table["to_act"]
            fake.value += 301  # and the page says nothing
            over = ws.receive_json()
            assert over["type"] == "table" and over["finished"]
            assert over["ended_by"] == "time" and over["loser"] == seat
            untimed = new(ws, "battleklinge", mode="hotseat")
            fake.value += 601  # no clock: one move over ten minutes loses
            lost = ws.receive_json()
            assert lost["table"] == untimed["table"] and lost["ended_by"] == "time"


def test_a_clock_that_runs_out_loses_the_game(timed):
    test_client, fake = timed
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat", clock="5")
        assert table["time"]["clock"] == [300.0, 300.0]
        seat = table["to_act"]
        fake.value += 120
        ws.send_text(
            json.dumps(
                {"type": "act", "table": table["table"], "action": table["legal"][0]["text"]}
            )
        )
        after = ws.receive_json()
        assert after["time"]["clock"][seat] == 180.0
        fake.value += 301
        ws.send_text(
            json.dumps(
                {"type": "act", "table": table["table"], "action": after["legal"][0]["text"]}
            )
        )
        assert "out of time" in ws.receive_json()["message"]
        ws.send_text(json.dumps({"type": "flag", "table": table["table"]}))
        over = ws.receive_json()
        assert over["finished"] and over["ended_by"] == "time" and over["loser"] == 1 - seat
        assert over["result"][1 - seat] == 0.0


def test_without_a_clock_one_move_over_ten_minutes_loses(timed):
    test_client, fake = timed
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat")
        assert table["time"]["clock"] is None and table["time"]["move_left"] == 600.0
        fake.value += 599
        ws.send_text(json.dumps({"type": "flag", "table": table["table"]}))
        still = ws.receive_json()
        assert not still["finished"] and still["time"]["move_left"] == 1.0
        fake.value += 2
        ws.send_text(json.dumps({"type": "flag", "table": table["table"]}))
        over = ws.receive_json()
        assert over["ended_by"] == "time" and over["loser"] == table["to_act"]
        ws.send_text(
            json.dumps(
                {
                    "type": "new",
                    "game": "battleklinge",
                    "mode": "hotseat",
                    "options": {"clock": "7"},
                }
            )
        )
        assert ws.receive_json()["message"].startswith("clock:")


def test_abort_only_after_a_threefold_repetition(client):
    from fechtbuch.web.server import web_games
    from fechtbuch.web.table import ActionRefused, Table

    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat")
        ws.send_text(json.dumps({"type": "abort", "table": table["table"]}))
        assert "three times" in ws.receive_json()["message"]
    entry = web_games()["battleklinge"]
    start = entry.web.start(entry.game, "hotseat", {}, "rep")
    one = start.state
    two = entry.game.apply(one, entry.game.legal_actions(one)[0])
    table = Table(
        entry.game,
        entry.web,
        "battleklinge",
        "hotseat",
        start,
        "rep",
        states=[one, two, one, two, one],
    )
    assert table.repetitions() == 3
    table.abort()
    assert table.finished and table.result() is None
    with pytest.raises(ActionRefused):
        table.act(entry.game.format_action(one, entry.game.legal_actions(one)[0]))


def test_the_kartenwahl_picks_alternately_and_the_side_card_decides_who_starts(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", mode="hotseat", cards="kartenwahl")
        draft = table["prelude"]
        assert len(draft["open"]) == 8 and table["view"] is None
        closed = next(c for c in draft["cards"] if c not in draft["open"])
        ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": closed}))
        assert "not legal here" in ws.receive_json()["message"]
        picked = [[], []]
        for turn in range(4):
            seat = table["prelude"]["to_choose"]
            assert seat == (draft["first"] + turn) % 2
            assert {a["text"] for a in table["legal"]} == set(table["prelude"]["open"])
            card = table["legal"][turn % len(table["legal"])]["text"]
            ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": card}))
            table = ws.receive_json()
            picked[seat].append(card)
        assert table.get("prelude") is None and table["view"] is not None
        hands = table["view"]["hands"]
        assert sorted(hands[0]) == sorted(picked[0]) and sorted(hands[1]) == sorted(picked[1])
        side = table["view"]["side"]
        assert side in draft["open"] and side not in picked[0] + picked[1]
        assert table["to_act"] == table["view"]["cards"][side]["mark"]


def test_the_computer_picks_in_the_kartenwahl(client):
    test_client, _ = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, "battleklinge", strength="leicht", cards="kartenwahl")
        while table.get("prelude") is not None:
            assert table["to_act"] == table["people"][0]
            ws.send_text(
                json.dumps(
                    {"type": "act", "table": table["table"], "action": table["legal"][0]["text"]}
                )
            )
            table = until_person(ws)
        assert table["view"] is not None and len(table["view"]["cards"]) == 5


@pytest.mark.parametrize("pack", ["pyramiden-uebungen", "touche-uebungen", "meisterstudien"])
def test_every_game_s_exercises_are_solved_along_the_solution(client, pack):
    test_client, server = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "exercise", "pack": pack, "number": 1}))
        exercise = ws.receive_json()
        while not (exercise["solved"] or exercise["lost"]):
            ws.send_text(json.dumps({"type": "hint", "table": exercise["table"]}))
            key = ws.receive_json()["action"]
            assert key in {a["text"] for a in exercise["legal"]}
            ws.send_text(json.dumps({"type": "act", "table": exercise["table"], "action": key}))
            exercise = ws.receive_json()
        assert exercise["solved"] and exercise["helped"]
    assert [solved for _, solved, _ in server.store.attempts(exercise["game"])] == [True]


@pytest.mark.parametrize("game", ["battleklinge", "touche-duell", "touche-pyramiden"])
def test_a_finished_game_is_saved_and_replayed_as_the_person_saw_it(client, game):
    test_client, server = client
    with test_client.websocket_connect("/ws") as ws:
        ws.receive_json()
        table = new(ws, game, strength="leicht")
        for _ in range(3):
            ws.send_text(
                json.dumps(
                    {"type": "act", "table": table["table"], "action": table["legal"][0]["text"]}
                )
            )
            table = until_person(ws)
        ws.send_text(json.dumps({"type": "resign", "table": table["table"]}))
        over = ws.receive_json()
        ws.send_text(json.dumps({"type": "saved", "game": game}))
        saved = ws.receive_json()["games"]
        assert len(saved) == 1 and saved[0]["moves"] == len(over["moves"])
        ws.send_text(json.dumps({"type": "replay", "game": game, "id": saved[0]["id"]}))
        replay = ws.receive_json()
        assert [p["text"] for p in replay["plies"]] == [m["text"] for m in over["moves"]]
        person = over["people"][0]
        for ply in replay["plies"]:
            seat = ply["view"].get("seat", ply["view"].get("aids", {}).get("seat"))
            assert seat == person  # never another seat's hand
        ws.send_text(json.dumps({"type": "replay", "game": game, "id": 999}))
        assert ws.receive_json()["message"].startswith("id: no saved")


def test_a_pack_exported_from_a_database_query_is_offered_and_plays(tmp_path):
    """``serve --pack FILE``: a pack from ``db export`` (a query of the puzzle
    database) appears in the menu and plays like a shipped one; a bad file or a
    shipped pack's name is one line before the server starts."""
    from fechtbuch.web.puzzle import available_packs, extra_pack
    from support.clirun import assert_one_line_error, run

    db, pack_file = tmp_path / "p.sqlite", tmp_path / "query.json"
    assert run("db", "mine", "--game", "battleklinge", "--rounds", "16", "--db", db).exit_code == 0
    export = run("db", "export", "--game", "battleklinge", "--n", "2", "--count", "2",
                 "--db", db, "-o", pack_file)  # fmt: skip
    assert export.exit_code == 0, export.output
    packs = available_packs((extra_pack(pack_file),))
    server = Server(Store(tmp_path / "web.sqlite3"), today=lambda: TODAY, packs=packs)
    with TestClient(create_app(server)) as test_client:
        with test_client.websocket_connect("/ws") as ws:
            menu = ws.receive_json()
            assert {"name": "query", "game": "battleklinge"}.items() <= next(
                p for p in menu["packs"] if p["name"] == "query"
            ).items()
            ws.send_text(json.dumps({"type": "exercise", "pack": "query", "number": 1}))
            exercise = ws.receive_json()
            exercise = solve_with_hints(ws, exercise)
            assert exercise["solved"]
    shipped = tmp_path / "fechtuebungen.json"
    shipped.write_bytes(pack_file.read_bytes())
    clash = run("serve", "--pack", shipped, "--port", "0", "--data", tmp_path / "w.sqlite3")
    assert "is the name of a shipped pack" in assert_one_line_error(clash)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert "broken.json" in assert_one_line_error(run("serve", "--pack", broken, "--port", "0"))
