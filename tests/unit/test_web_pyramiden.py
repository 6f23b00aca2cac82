"""The pyramids' web play (web/touche_pyramiden/webgame.py): what a seat's view holds
and what it never holds (another seat's hand, the order of a pile, an exercise's key),
the parts of the actions the page maps taps to, and the catalogue keys the board
script builds from data (colours, patterns, ranks, explanations, table sizes)."""

from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("httpx")
from fechtbuch.engines.registry import plugin  # noqa: E402
from fechtbuch.engines.touche_pyramiden import GAME  # noqa: E402
from fechtbuch.engines.touche_pyramiden.board import CARD_FIELDS, RANKS, card_text  # noqa: E402
from fechtbuch.engines.touche_pyramiden.notation import format_action, parse_view  # noqa: E402
from fechtbuch.engines.touche_pyramiden.patterns import Pattern  # noqa: E402
from fechtbuch.engines.touche_pyramiden.state import Config, Kind  # noqa: E402
from fechtbuch.web.puzzle import open_puzzle  # noqa: E402
from fechtbuch.web.server import Server, create_app  # noqa: E402
from fechtbuch.web.store import Store  # noqa: E402
from fechtbuch.web.touche_pyramiden.webgame import (  # noqa: E402
    ACTS,
    LAYOUT,
    TABLES,
    WEB,
    action_parts,
    seat_names,
)
from fechtbuch.web.webgame import LANGUAGES, game_texts  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

SEAT_KEYS = {"notation", "seat", "hand", "dead"}
"""What only a seat's own view holds."""


def played(choice: str, steps: int, seed: str = "leak"):
    """A game of the menu's ``choice`` after ``steps`` random actions."""
    state = WEB.start(GAME, "hotseat", {"players": choice}, seed).state
    rng = random.Random(seed + choice)
    for _ in range(steps):
        if GAME.is_terminal(state):
            break
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    return state


@pytest.mark.parametrize("choice", list(TABLES))
def test_a_seat_s_view_holds_its_own_hand_and_only_sizes_of_the_others(choice):
    state = played(choice, 40)
    for seat in range(state.config.players):
        view = WEB.view(GAME, state, seat)
        assert view["hand"] == [card_text(k) for k in parse_view(view["notation"]).hand]
        assert view["hand"] == [card_text(k) for k in state.hands[seat]]
        others = view["notation"].split(" hand=")[1].split(" ")[0].split("/")
        assert all(part.startswith("#") for s, part in enumerate(others) if s != seat)
        assert "stapel=" + "/".join(f"#{len(p)}" for p in state.piles) in view["notation"]
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        assert view["pile_sizes"] == [len(p) for p in state.piles]
    public = WEB.view(GAME, state, None)
    assert not SEAT_KEYS & set(public)
    assert set(public) == set(WEB.view(GAME, state, 0)) - SEAT_KEYS


def test_the_layout_is_the_sheet_s_board():
    assert LAYOUT[0] == "" and LAYOUT[111] == ""  # a1 and n8 are free fields
    assert LAYOUT[1] == "8C" and LAYOUT[110] == "8C"  # b1, m8 (the sheet's drawing)
    for kind, fields in enumerate(CARD_FIELDS):
        assert all(LAYOUT[f] == card_text(kind) for f in fields)
    assert LAYOUT.count("") == 8


def test_every_action_has_parts_the_page_maps_a_tap_to():
    state = played("2", 60, "parts")
    seen = set()
    while not GAME.is_terminal(state):
        for action in GAME.legal_actions(state):
            parts = WEB.action_view(GAME, state, action)
            seen.add(parts["act"])
            assert parts == WEB.room_action(format_action(action))
            if parts["act"] in ("place", "remove", "replace"):
                prefix = {"remove": "-", "replace": "="}.get(parts["act"], "")
                assert format_action(action) == f"{parts['card']}:{prefix}{parts['field']}"
        state = GAME.apply(state, GAME.legal_actions(state)[-1])
    assert {"place", "pattern"} <= seen
    assert set(ACTS.values()) >= seen
    assert WEB.room_action("zieht:7H") == {"act": "other"}


def test_a_joker_s_three_actions_are_told_apart():
    from fechtbuch.engines.touche_pyramiden.state import Action

    assert action_parts(Action(Kind.JOKER_PLACE, 52, 3)) == {
        "act": "place",
        "card": "XX",
        "field": "d1",
    }
    assert action_parts(Action(Kind.JOKER_REMOVE, 52, 3))["act"] == "remove"
    assert action_parts(Action(Kind.JOKER_REPLACE, 52, 3))["act"] == "replace"
    assert action_parts(Action(Kind.EXCHANGE, cards=(0, 0)))["cards"] == ["AS", "AS"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_board_builds_from_data_is_in_the_catalogue(lang):
    texts = game_texts(plugin("touche-pyramiden"), lang)
    wanted = {f"tp.colour.{team}" for team in range(6)}
    wanted |= {f"tp.pattern.{p.value}" for p in Pattern} | {
        f"tp.pattern.help.{p.value}" for p in Pattern
    }
    wanted |= {"tp.rank." + ("10" if r == "T" else r) for r in RANKS}
    wanted |= {f"tp.explain.{act}" for act in ACTS.values()} | {
        "tp.explain.joker",
        "tp.explain.free",
    }
    wanted |= {f"tp.do.{act}" for act in ("place", "remove", "replace", "exchange", "pass")}
    wanted |= {f"tp.lift.{act}" for act in ("remove", "replace")}
    wanted |= {f"choice.players.{choice}" for choice in TABLES}
    for players, teams in TABLES.values():
        wanted |= set(seat_names(Config(players, teams)))
    assert sorted(wanted - set(texts)) == []


def test_seats_are_named_by_their_team_s_colour():
    assert seat_names(Config(2, 2)) == ("tp.seat.0", "tp.seat.1")
    assert seat_names(Config(6, 3)) == (
        "tp.seat.0.1",
        "tp.seat.1.1",
        "tp.seat.2.1",
        "tp.seat.0.2",
        "tp.seat.1.2",
        "tp.seat.2.2",
    )
    texts = game_texts(plugin("touche-pyramiden"), "de")
    assert texts["tp.seat.0"] == texts["tp.colour.0"] == "Blau"
    assert texts["tp.seat.2.2"] == "Grün 2"


def test_the_menu_offers_two_to_six_players_and_the_sheet_s_teams():
    setup = WEB.setup(None)
    assert setup["players"]["choices"] == ["2", "3", "4", "4x2", "5", "6", "6x3", "6x2"]
    for choice, (players, teams) in TABLES.items():
        state = WEB.start(GAME, "computer", {"players": choice}, "menu").state
        assert (state.config.players, state.config.teams) == (players, teams)


@pytest.mark.parametrize("number", [1, 13, 25])
def test_an_exercise_s_view_and_actions_do_not_give_the_key_away(number):
    table = open_puzzle("pyramiden-uebungen", number)
    view, actions = WEB.problem_view(table.kind, table.state, list(table.legal()))
    texts = [a["text"] for a in actions]
    assert texts == sorted(texts) and set(texts) == set(table.legal())
    assert view["complete"] == []
    assert "text" not in view and "svg" not in view  # no text dump of the board
    assert table.puzzle["key"] not in json.dumps(view)


def test_the_completed_pattern_of_a_solved_exercise_is_named():
    table = open_puzzle("pyramiden-uebungen", 1)
    table.act(table.tree.best_action(table.node))
    assert table.solved
    view, _ = WEB.problem_view(table.kind, table.state, [])
    assert "h1" in view["complete"] and len(view["complete"]) == 4  # a kvadrat


def test_six_seats_at_one_device_see_only_their_own_hand(tmp_path):
    seeds = iter(f"six-{n}" for n in range(10))
    server = Server(Store(tmp_path / "web.sqlite3"), seed=lambda: next(seeds))
    with TestClient(create_app(server)) as http, http.websocket_connect("/ws") as ws:
        ws.receive_json()
        options = {"players": "6x3"}
        ws.send_text(
            json.dumps(
                {"type": "new", "game": "touche-pyramiden", "mode": "hotseat", "options": options}
            )
        )
        table = ws.receive_json()
        for _ in range(12):
            assert table["covered"] and not SEAT_KEYS & set(table["view"])
            ws.send_text(json.dumps({"type": "reveal", "table": table["table"]}))
            shown = ws.receive_json()
            seat = shown["to_act"]
            assert shown["view"]["seat"] == seat and f"sicht={seat}" in shown["view"]["notation"]
            hands = shown["view"]["notation"].split(" hand=")[1].split(" ")[0].split("/")
            assert [h.startswith("#") for h in hands] == [s != seat for s in range(6)]
            action = shown["legal"][0]
            assert action["act"] in ACTS.values()
            ws.send_text(
                json.dumps({"type": "act", "table": table["table"], "action": action["text"]})
            )
            table = ws.receive_json()


def test_a_refusal_in_play_is_worded_by_the_page_s_catalogue(tmp_path):
    seeds = iter(f"err-{n}" for n in range(10))
    server = Server(Store(tmp_path / "web.sqlite3"), seed=lambda: next(seeds))
    with TestClient(create_app(server)) as http, http.websocket_connect("/ws") as ws:
        ws.receive_json()
        options = {"players": "2", "strength": "leicht"}
        ws.send_text(
            json.dumps(
                {"type": "new", "game": "touche-pyramiden", "mode": "computer", "options": options}
            )
        )
        table = ws.receive_json()
        while table["to_act"] != 0:
            table = ws.receive_json()
        ws.send_text(json.dumps({"type": "undo", "table": table["table"]}))
        refused = ws.receive_json()
        assert refused["key"] == "error.undo" and refused["message"].startswith("undo: ")
        ws.send_text(json.dumps({"type": "act", "table": table["table"], "action": "pass"}))
        refused = ws.receive_json()
        assert refused["key"] == "error.illegal" and "'pass'" in refused["message"]
        ws.send_text(json.dumps({"type": "act", "table": "t99", "action": "pass"}))
        assert "key" not in ws.receive_json()  # a bad message the page never sends


def test_every_refusal_key_is_in_both_generic_catalogues():
    from pathlib import Path

    import fechtbuch.web
    from fechtbuch.web.webgame import generic_texts

    folder = Path(fechtbuch.web.__file__).parent
    source = "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py"))
    keys = set(re.findall(r'"(error\.[a-z_]+)"', source))
    assert len(keys) >= 10
    for lang in LANGUAGES:
        assert sorted(keys - set(generic_texts(lang))) == [], lang
