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
from fechtbuch.engines.touche_pyramiden.notation import view_of
from fechtbuch.engines.touche_pyramiden.state import Config, State
from fechtbuch.engines.touche_pyramiden.textboard import render
from fechtbuch.puzzles.touche_pyramiden.svg import board_svg
from fechtbuch.web.webgame import Chooser, Start, seat_chooser, strength_setup

PLAYER_COUNTS = ("2", "3", "4")


class PyramidenWeb:
    """The pyramid game's :class:`~fechtbuch.web.webgame.WebGame`."""

    slug = "touche-pyramiden"
    script = "touche-pyramiden.js"
    modes = ("computer", "hotseat", "exercise")
    hint_strength = "stark"

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
        shown = view_of(state, 0 if seat is None else seat)
        title = f"Runde {min(state.round, state.config.rounds)}"
        out = {
            "svg": board_svg(shown.own, shown.crowned, title),
            "scores": list(state.scores),
            "round": state.round,
            "rounds": state.config.rounds,
            "to_move": state.to_move,
            "phase": state.phase.name.lower(),
            "pattern": None if state.pattern is None else state.pattern.value,
            "hand_sizes": list(shown.hand_sizes),
            "text": render(shown, colour=False, show_hand=seat is not None),
        }
        if seat is not None:
            out["seat"] = seat
            out["hand"] = list(shown.hand)
        return out

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


def _count(options: dict, name: str, choices: Sequence[str], default: str) -> int:
    value = str(options.get(name, default))
    if value not in choices:
        raise InputError(f"{name}: {quote(value)} is not one of {', '.join(choices)}")
    return int(value)


WEB = PyramidenWeb()
"""The object the plugin's ``web`` reference names."""
