"""Touché with pyramids in the browser: the board as the sheet draws it, one hand.

A seat sees the board (every team's pyramids and the crowned fields, drawn by the
game's SVG, the sheet's layout), the scores, its own hand and the sizes of the
other hands and piles (:func:`~fechtbuch.engines.touche_pyramiden.notation.view_of`).
The public view of a hotseat game between turns leaves the hand out.
"""

from __future__ import annotations

from collections.abc import Sequence

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.notation import View, parse_board, parse_view, view_of
from fechtbuch.engines.touche_pyramiden.state import Config, State
from fechtbuch.engines.touche_pyramiden.textboard import render
from fechtbuch.puzzles.touche_pyramiden.svg import board_svg
from fechtbuch.web.webgame import Chooser, Start, seat_chooser, strength_setup

PLAYER_COUNTS = ("2", "3", "4")


class PyramidenWeb:
    """The pyramid game's :class:`~fechtbuch.web.webgame.WebGame`."""

    slug = "touche-pyramiden"
    script = "touche-pyramiden.js"
    style = None
    modes = ("computer", "hotseat", "exercise")
    hint_strength = "stark"
    analysis = False

    def setup(self, factory: PlayerFactory | None) -> dict:
        return {
            "strength": strength_setup(factory),
            "players": {"choices": list(PLAYER_COUNTS), "default": "2"},
            "rounds": {"choices": ["3", "4"], "default": "3"},
        }

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        players = _count(options, "players", PLAYER_COUNTS, "2")
        rounds = _count(options, "rounds", ("3", "4"), "3")
        config = Config(players, players, rounds)  # every player a team of one
        state = rules.new_game(config, seed)
        facts = {"players": players, "rounds": rounds}
        if mode == "hotseat":
            return Start(state, tuple(range(players)), "hotseat", facts)
        strength = options.get("strength", "mittel")
        return Start(state, (0,), "computer", {**facts, "strength": strength})

    def view(self, game: Game, state: State, seat: int | None) -> dict:
        return board_of(view_of(state, 0 if seat is None else seat), seat is not None)

    def action_view(self, game: Game, state: State, action) -> dict:
        return {"label": game.format_action(state, action)}

    def explain(self, game: Game, state: State, action, names: Sequence[str]) -> dict:
        return {
            "key": "tp.explain",
            "args": {"who": names[state.to_move], "action": game.format_action(state, action)},
        }

    def seat_names(self, state: State) -> tuple[str, ...]:
        return tuple(str(seat + 1) for seat in range(state.config.players))

    def next_round(self, game: Game, states: Sequence[State], seed: str) -> None:
        return None  # the seam's terminal state is the end of the whole game

    def result(self, game: Game, state: State) -> tuple[float, ...]:
        return game.returns(state)

    def computer(self, factory: PlayerFactory, strength: str, seed: int) -> Chooser:
        return seat_chooser(factory, strength, str(seed))

    def analyse(self, game: Game, states, actions: Sequence[str]) -> None:
        return None  # no analysis after a game yet

    def problem_view(self, kind, state, texts: Sequence[str]):
        return {"svg": kind.board_svg(state), "text": kind.board_text(state, False)}, [
            {"text": text, "label": text} for text in texts
        ]

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        if seat is None:
            return {"view": public_board(view)}
        return {"view": board_of(parse_view(view), True)}

    def room_action(self, action: str) -> dict:
        return {"label": action}


def board_of(shown: View, own_hand: bool) -> dict:
    """A seat's view as the board draws it; without ``own_hand`` (between the turns of
    a hotseat game) its hand is left out."""
    out = {
        "svg": board_svg(shown.own, shown.crowned, _title(shown.round, shown.config.rounds)),
        "scores": list(shown.scores),
        "round": shown.round,
        "rounds": shown.config.rounds,
        "to_move": shown.to_move,
        "phase": shown.phase.name.lower(),
        "pattern": None if shown.pattern is None else shown.pattern.value,
        "hand_sizes": list(shown.hand_sizes),
        "text": render(shown, colour=False, show_hand=own_hand),
    }
    if own_hand:
        out["seat"] = shown.seat
        out["hand"] = list(shown.hand)
    return out


def public_board(text: str) -> dict:
    """The public view of a table (``TableSetup.public_view``: every hand and pile by
    its size) as the board draws it: the board, the scores, the round and pattern."""
    fields = dict(token.partition("=")[::2] for token in text.split(" ")[1:])
    rounds = int(fields["runden"])
    own, crowned = parse_board(fields["brett"], int(fields["teams"]))
    return {
        "svg": board_svg(own, crowned, _title(int(fields["runde"]), rounds)),
        "scores": [int(n) for n in fields["punkte"].split(",")],
        "round": int(fields["runde"]),
        "rounds": rounds,
        "pattern": None if fields["muster"] == "-" else fields["muster"],
        "hand_sizes": [int(size.lstrip("#")) for size in fields["hand"].split("/")],
        "text": "",
    }


def _title(round_number: int, rounds: int) -> str:
    return f"Runde {min(round_number, rounds)}"


def _count(options: dict, name: str, choices: Sequence[str], default: str) -> int:
    value = str(options.get(name, default))
    if value not in choices:
        raise InputError(f"{name}: {quote(value)} is not one of {', '.join(choices)}")
    return int(value)


WEB = PyramidenWeb()
"""The object the plugin's ``web`` reference names."""
