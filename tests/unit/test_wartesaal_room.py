"""The room's rules without a network: accounts, sessions, challenges, seats, turns,
resent actions, points, Elo, Taler, Zurücknehmen, Abbruch, repetition, clocks, the
Notbremse, leaving and the Revanche, for all three games."""

from __future__ import annotations

import random

import pytest
from fechtbuch.engines.registry import game as game_of
from fechtbuch.wartesaal import roomrules
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.sessions import Sessions
from fechtbuch.wartesaal.table import RoomError, Table
from support.wartesaal_helpers import SECRET, FakeClock, make_room, members, open_table, play_random


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def room(tmp_path, clock) -> Room:
    return make_room(tmp_path / "room.db", clock)


def test_accounts_and_sessions(room, clock):
    token = room.register("Anna", "geheim-123")
    assert room.identify(token).name == "Anna"
    assert room.identify(room.login("Anna", "geheim-123")).guest is False
    for name, password, field in [
        ("Anna", "geheim-123", "name"),
        ("x", "geheim-123", "name"),
        ("Gast-abc", "geheim-123", "name"),
        ("Bert", "short", "password"),
    ]:
        with pytest.raises(RoomError, match=f"^{field}:"):
            room.register(name, password)
    with pytest.raises(RoomError, match="^password: wrong name or password"):
        room.login("Anna", "falsch-123")
    with pytest.raises(RoomError, match="^password: wrong name or password"):
        room.login("Niemand", "geheim-123")
    forged = Sessions("another-secret-0123456").issue(room.identify(token))
    with pytest.raises(RoomError, match="^session: not signed"):
        room.identify(forged)
    with pytest.raises(RoomError, match="^session: not signed"):
        room.identify(token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    short = Room(room.store, SECRET, hasher=room.hasher, session_seconds=-1)
    with pytest.raises(RoomError, match="^session: expired"):
        short.identify(token)
    guest, _ = room.guest()
    assert guest.guest and guest.name.startswith("Gast-")
    with pytest.raises(RoomError, match="^rated: guests"):
        room.create_challenge(guest, {"game": "battleklinge", "rated": True})


def test_challenge_fields_are_checked(room):
    (anna,) = members(room, "Anna")
    bad = [
        ({"game": "schach"}, "game"),
        ({"game": "battleklinge", "variant": "nix"}, "variant"),
        ({"game": "battleklinge", "clock_minutes": 0}, "clock_minutes"),
        ({"game": "battleklinge", "clock_minutes": "5"}, "clock_minutes"),
        ({"game": "battleklinge", "rated": "yes"}, "rated"),
        ({"game": "battleklinge", "stake": 5}, "stake"),
        ({"game": "battleklinge", "rated": True, "stake": 101}, "stake"),
        ({"game": 7}, "game"),
    ]
    for request, field in bad:
        with pytest.raises(RoomError, match=f"^{field}:"):
            room.create_challenge(anna, request)
    assert room.challenges() == []


def test_turns_seats_and_resent_actions(room):
    anna, bert, cara = members(room, "Anna", "Bert", "Cara")
    table_id = open_table(room, anna, [bert], game="battleklinge", variant="einsteiger")
    who = {"Anna": anna, "Bert": bert}
    view = room.table_message(anna, table_id)
    mover = who[view["seats"][view["to_act"]]]
    waiter = anna if mover is bert else bert
    legal = room.table_message(mover, table_id)["legal"]
    with pytest.raises(RoomError, match="^seat: it is seat"):
        room.act(waiter, table_id, 0, legal[0])
    with pytest.raises(RoomError, match="^seat: you have no seat"):
        room.act(cara, table_id, 0, legal[0])
    with pytest.raises(RoomError, match="^action:"):
        room.act(mover, table_id, 0, "zz9-zz9")
    with pytest.raises(RoomError, match="^seq:"):
        room.act(mover, table_id, 5, legal[0])
    with pytest.raises(RoomError, match="^seq:"):
        room.act(mover, table_id, "0", legal[0])
    assert room.act(mover, table_id, 0, legal[0]) == {"number": 1, "duplicate": False}
    # the same action resent: harmless, acknowledged again, applied once
    assert room.act(mover, table_id, 0, legal[0]) == {"number": 1, "duplicate": True}
    assert room.table_message(anna, table_id)["version"] == 1
    # another action with an old number is refused
    with pytest.raises(RoomError, match="^seq:"):
        room.act(mover, table_id, 0, legal[1])
    assert len(room.replay(table_id)["actions"]) == 1


def test_rated_game_scores_points_elo_and_taler(room):
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(
        room, anna, [bert], game="battleklinge", rated=True, stake=30, clock_minutes=5
    )
    assert room.account("Anna")["taler"] == roomrules.TALER_START - 30  # escrowed
    end = play_random(room, table_id, {"Anna": anna, "Bert": bert}, random.Random(3))
    assert end["reason"] == "game over"
    won = end["seats"][end["result"].index(1.0)]
    lost = end["seats"][end["result"].index(0.0)]
    if end["actions"] < roomrules.COUNTED_FROM_ACTIONS:
        pytest.skip("the random game was too short to count")  # not with this seed
    assert room.account(won) | {"elo": 0} == {
        "name": won,
        "points": 10,
        "elo": 0,
        "taler": 130,
        "games": 1,
    }
    assert room.account(lost)["points"] == -10 and room.account(lost)["taler"] == 70
    assert room.account(won)["elo"] == pytest.approx(roomrules.ELO_START + roomrules.ELO_K / 2)
    assert room.account(lost)["elo"] == pytest.approx(roomrules.ELO_START - roomrules.ELO_K / 2)


def test_a_short_rated_game_does_not_count(room, clock):
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", rated=True, stake=20)
    room.resign(anna, table_id)
    for name in ("Anna", "Bert"):
        assert room.account(name) | {"elo": 0} == {
            "name": name,
            "points": 0,
            "elo": 0,
            "taler": 100,
            "games": 1,
        }
        assert room.account(name)["elo"] == roomrules.ELO_START
    # two minutes make a game count even with few actions
    table_id = open_table(room, anna, [bert], game="battleklinge", rated=True, stake=20)
    clock.advance(roomrules.COUNTED_FROM_SECONDS)
    room.resign(anna, table_id)
    assert room.account("Anna")["points"] == -10 and room.account("Anna")["taler"] == 80
    assert room.account("Bert")["points"] == 10 and room.account("Bert")["taler"] == 120


def test_abort_needs_every_seat_and_returns_the_stake(room, clock):
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", rated=True, stake=50)
    clock.advance(300)
    assert room.offer(anna, table_id, "abort") == {"agreed": False}
    assert room.table_message(bert, table_id)["offers"] == {
        "abort": [0 if room.table_message(anna, table_id)["you"] == 0 else 1]
    }
    assert room.offer(bert, table_id, "abort") == {"agreed": True}
    end = room.table_message(anna, table_id)
    assert end["status"] == "aborted" and end["result"] is None
    for name in ("Anna", "Bert"):
        account = room.account(name)
        assert (account["points"], account["elo"], account["taler"]) == (0, 1200.0, 100)
    # a declined offer is gone
    table_id = open_table(room, anna, [bert], game="battleklinge")
    room.offer(anna, table_id, "abort")
    room.decline(bert, table_id, "abort")
    assert room.table_message(anna, table_id)["offers"] == {}


def test_takeback_with_consent_in_friendly_games_only(room):
    anna, bert = members(room, "Anna", "Bert")
    who = {"Anna": anna, "Bert": bert}
    table_id = open_table(room, anna, [bert], game="battleklinge", variant="angriff")
    start = room.table_message(anna, table_id)
    mover = who[start["seats"][start["to_act"]]]
    other = anna if mover is bert else bert
    with pytest.raises(RoomError, match="^offer: there is no action"):
        room.offer(mover, table_id, "takeback")
    room.act(mover, table_id, 0, room.table_message(mover, table_id)["legal"][0])
    with pytest.raises(RoomError, match="^offer: only the seat of the last action"):
        room.offer(other, table_id, "takeback")
    assert room.offer(mover, table_id, "takeback") == {"agreed": False}
    assert room.offer(other, table_id, "takeback") == {"agreed": True}
    back = room.table_message(anna, table_id)
    assert back["view"] == start["view"] and back["version"] == 2 and back["actions"] == 0
    assert room.replay(table_id)["actions"] == []
    rated = open_table(room, anna, [bert], game="battleklinge", rated=True)
    message = room.table_message(anna, rated)
    first = who[message["seats"][message["to_act"]]]
    room.act(first, rated, 0, room.table_message(first, rated)["legal"][0])
    with pytest.raises(RoomError, match="^offer: Zurücknehmen only in a friendly game"):
        room.offer(first, rated, "takeback")


def _walk_to_a_repetition(rng: random.Random) -> Table | None:
    """Play a table of Einsteiger cards without captures, preferring positions seen
    before, until some position stands for the third time (the test counts the full
    states itself); ``None`` if the game ends first."""
    battleklinge = game_of("battleklinge")
    table = Table.deal("t", "battleklinge", "einsteiger", "rep", ["A", "B"], False, None, 0, 0.0)
    seen: dict[str, int] = {table.state_text: 1}

    def pieces(text: str) -> int:
        return sum(c.isalpha() for c in text.split()[0])

    for _ in range(400):
        assert not table.repetition_offered
        state = table.state
        options = []
        for action in battleklinge.legal_actions(state):
            after = battleklinge.apply(state, action)
            text = battleklinge.format_state(after)
            quiet = not battleklinge.is_terminal(after) and pieces(text) == pieces(table.state_text)
            safe = quiet and not any(
                battleklinge.is_terminal(battleklinge.apply(after, b))
                for b in battleklinge.legal_actions(after)
            )
            options.append(
                (safe, seen.get(text, 0), battleklinge.format_action(state, action), text)
            )
        best = max(options)[:2]
        _, _, action, text = rng.choice([o for o in options if o[:2] == best])
        table.act(table.to_act(), table.version, action, 1.0)
        if table.status != "running":
            return None
        seen[text] = seen.get(text, 0) + 1
        if seen[text] == 3:
            return table
    return None


def test_third_repetition_offers_the_abort():
    table = next(filter(None, (_walk_to_a_repetition(random.Random(s)) for s in range(20))))
    assert table.repetition_offered and table.offers == {"abort": []}
    assert table.offer(0, "abort", None, 2.0) is False
    assert table.offer(1, "abort", None, 2.0) is True
    assert table.status == "aborted" and table.result is None


def test_clock_runs_out_and_the_notbremse(room, clock):
    anna, bert = members(room, "Anna", "Bert")
    who = {"Anna": anna, "Bert": bert}
    table_id = open_table(room, anna, [bert], game="battleklinge", clock_minutes=1)
    message = room.table_message(anna, table_id)
    mover = who[message["seats"][message["to_act"]]]
    clock.advance(20)
    room.act(mover, table_id, 0, room.table_message(mover, table_id)["legal"][0])
    after = room.table_message(anna, table_id)
    assert after["clocks"][message["to_act"]] == pytest.approx(40)
    clock.advance(59)
    assert room.tick() == []
    clock.advance(2)
    assert room.tick() == [table_id]
    end = room.table_message(anna, table_id)
    assert end["reason"] == "time" and end["result"][after["to_act"]] == 0.0
    # without a clock: one action over ten minutes loses, the deadline is visible
    table_id = open_table(room, anna, [bert], game="touche-duell")
    message = room.table_message(bert, table_id)
    assert message["move_deadline"] == pytest.approx(clock.now + 600)
    assert not message["last_minute"]
    clock.advance(roomrules.NO_CLOCK_MOVE_SECONDS - roomrules.NO_CLOCK_WARNING_SECONDS - 1)
    assert room.tick() == [] and not room.table_message(anna, table_id)["last_minute"]
    clock.advance(2)
    version = room.table_message(anna, table_id)["version"]
    assert room.tick() == []
    for person in (anna, bert):  # the last minute is shown on both sides
        assert room.table_message(person, table_id)["last_minute"]
    assert room.table_message(anna, table_id)["version"] == version
    clock.advance(roomrules.NO_CLOCK_WARNING_SECONDS)
    mover = who[message["seats"][message["to_act"]]]
    with pytest.raises(RoomError, match="^table: the game ended first"):
        room.act(mover, table_id, 0, room.table_message(mover, table_id)["view"])
    end = room.table_message(anna, table_id)
    assert end["reason"] == "move limit" and end["result"][message["to_act"]] == 0.0


def test_leaving_loses_after_the_grace(room, clock):
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", clock_minutes=30)
    room.presence("Anna", connected=False)
    clock.advance(roomrules.RECONNECT_GRACE_SECONDS - 1)
    room.presence("Anna", connected=True)  # back in time
    clock.advance(10)
    assert room.tick() == []
    room.presence("Anna", connected=False)
    clock.advance(roomrules.RECONNECT_GRACE_SECONDS + 1)
    assert room.tick() == [table_id]
    end = room.table_message(bert, table_id)
    assert end["reason"] == "left" and end["result"][end["seats"].index("Anna")] == 0.0


def test_presence_spans_server_processes(room, clock):
    """Two rooms on one database stand for two server processes."""
    other = Room(room.store, SECRET, hasher=room.hasher, clock=clock, presence_fresh=5.0)
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", clock_minutes=30)
    room.presence("Anna", connected=True)
    other.presence("Anna", connected=True)  # a second tab, served by another process
    other.presence("Bert", connected=True)
    assert room.online() == other.online() == ["Anna", "Bert"]
    room.presence("Anna", connected=False)  # one tab closed: still connected elsewhere
    assert room.table_message(anna, table_id)["away"] == []
    # the other process dies: its rows go stale, and the survivor notices
    clock.advance(6)
    room.keep_presence()
    message = room.table_message(anna, table_id)
    assert sorted(message["away"]) == [0, 1] and room.online() == []
    clock.advance(roomrules.RECONNECT_GRACE_SECONDS + 1)
    assert room.tick() == [table_id]
    assert room.table_message(anna, table_id)["reason"] == "left"


def test_rematch_swaps_the_schools(room):
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", rated=True, stake=10)
    with pytest.raises(RoomError, match="^offer: a Revanche is offered after the game"):
        room.offer(anna, table_id, "rematch")
    room.resign(bert, table_id)
    assert room.offer(anna, table_id, "rematch") == {"agreed": False}
    answer = room.offer(bert, table_id, "rematch")
    assert answer["agreed"]
    old, new = room.table_message(anna, table_id), room.table_message(anna, answer["rematch"])
    assert new["seats"] == old["seats"][::-1] and new["rated"] and new["stake"] == 10
    assert old["rematch"] == answer["rematch"]
    # a Revanche that one seat cannot pay for moves no Taler at all
    rich = open_table(room, anna, [bert], game="battleklinge", rated=True, stake=80)
    room.resign(bert, rich)  # too short to count: both get their 80 back
    with room.store.transaction() as tx:
        tx.update_account("Bert", taler=50)
    room.offer(anna, rich, "rematch")
    with pytest.raises(RoomError, match="^stake: Bert has fewer than 80 Taler"):
        room.offer(bert, rich, "rematch")
    assert room.account("Anna")["taler"] == 90 and room.account("Bert")["taler"] == 50


@pytest.mark.parametrize(
    "game, variant, names",
    [
        ("touche-duell", "kinder-kurz", ("Anna", "Bert")),
        ("touche-pyramiden", "3", ("Anna", "Bert", "Cara")),
        ("battleklinge", "verteidigung", ("Anna", "Bert")),
    ],
)
def test_every_game_plays_to_its_end(room, game, variant, names):
    people = members(room, *names)
    challenge = room.create_challenge(people[0], {"game": game, "variant": variant})
    listed = room.challenges()
    assert [(c["id"], c["seats"], c["joined"]) for c in listed] == [
        (challenge, len(names), [names[0]])
    ]
    for person in people[1:]:
        table_id = room.accept(person, challenge)
    assert room.challenges() == []
    with pytest.raises(RoomError, match="^challenge: no open challenge"):
        room.accept(people[0], challenge)
    watcher = room.guest()[0]
    spectator = room.table_message(watcher, table_id)
    assert spectator["you"] is None and "legal" not in spectator
    if game == "touche-pyramiden":  # every hand and pile by its size only
        tokens = dict(t.split("=", 1) for t in spectator["view"].split(" ") if "=" in t)
        assert all(h.startswith("#") for h in tokens["hand"].split("/"))
        assert all(p.startswith("#") for p in tokens["stapel"].split("/"))
        own = room.table_message(people[0], table_id)["view"]
        assert any(
            not h.startswith("#")
            for h in dict(t.split("=", 1) for t in own.split(" ") if "=" in t)["hand"].split("/")
        )
    who = dict(zip(names, people, strict=True))
    end = play_random(room, table_id, who, random.Random(11))
    assert end["status"] == "finished" and end["reason"] == "game over"
    assert len(end["result"]) == len(names)
    replay = room.replay(table_id)
    assert len(replay["actions"]) == end["actions"]
    if game == "touche-duell":
        assert end["unit"] > 1  # several rounds at one table


def test_elo_and_stake_arithmetic():
    assert roomrules.elo_changes([1400.0, 1200.0], [1.0, 0.0])[0] == pytest.approx(
        20 * (1 - 1 / (1 + 10 ** (-0.5))), abs=1e-6
    )
    three = roomrules.elo_changes([1200.0] * 3, [1.0, 0.0, 0.0])
    assert three == pytest.approx([10.0, -5.0, -5.0]) and sum(three) == pytest.approx(0)
    assert roomrules.settle_stake(10, [0.5, 0.5]) == [10, 10]
    assert roomrules.settle_stake(10, [0.5, 0.5, 0.0]) == [15, 15, 0]
    assert roomrules.settle_stake(5, [1.0, 1.0, 0.0]) == [8, 7, 0]
    assert roomrules.points_changes([1.0, 0.0, 0.0]) == [10, -10, -10]
    assert not roomrules.counted(True, 9, 119.0) and roomrules.counted(True, 10, 0.0)
    assert not roomrules.counted(False, 50, 500.0)
