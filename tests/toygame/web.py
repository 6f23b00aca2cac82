"""Abzählen in the browser: its :class:`~fechtbuch.web.webgame.WebGame`.

The board script (``static/abzaehlen.js``) and the texts (``static/i18n/``) sit in
this folder; ``fechtbuch serve`` finds both through the plugin's ``web`` reference,
and the Wartesaal's page draws a table with the same script.  Nothing is hidden in
Abzählen, so every seat's view and the public one are the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.seeding import sha256_text, u64
from fechtbuch.web.webgame import Chooser, Start, seat_chooser, strength_setup

from toygame.game import GAME, PLAYERS, State


class AbzaehlenWeb:
    """Abzählen's web play: against the computer and at one device."""

    slug = "abzaehlen"
    script = "abzaehlen.js"
    style = None  # the page's buttons and paragraphs suffice
    modes = ("computer", "hotseat")
    hint_strength = "perfekt"
    analysis = False

    def setup(self, factory: PlayerFactory | None) -> dict:
        return {"strength": strength_setup(factory, default="zufall")}

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        state = game.initial_state(u64(sha256_text(f"abzaehlen-web/{seed}")))
        if mode == "hotseat":
            return Start(state, (0, 1), "hotseat", {})
        strength = options.get("strength", "zufall")
        if strength not in PLAYERS.strengths:
            known = ", ".join(PLAYERS.strengths)
            raise InputError(f"strength: {quote(strength)} is not one of {known}")
        return Start(state, (0,), "computer", {"strength": strength})

    def view(self, game: Game, state: State, seat: int | None) -> dict:
        return board_of(state)

    def action_view(self, game: Game, state: State, action: str) -> dict:
        return action_of(action)

    def explain(self, game: Game, state: State, action: str, names: Sequence[str]) -> dict:
        after = game.apply(state, action)
        return {
            "key": "az.explain",
            "args": {"who": names[state.mover], "action": action, "number": after.number},
        }

    def seat_names(self, state: State) -> tuple[str, ...]:
        return ("A", "B")

    def next_round(self, game: Game, states: Sequence[State], seed: str) -> None:
        return None  # one count-down is the whole game

    def result(self, game: Game, state: State) -> tuple[float, ...]:
        return game.returns(state)

    def computer(self, factory: PlayerFactory, strength: str, seed: object) -> Chooser:
        return seat_chooser(factory, strength, seed)

    def analyse(self, game: Game, states, actions: Sequence[str]) -> None:
        return None

    def problem_view(self, kind, state: State, texts: Sequence[str]):
        return board_of(state), [{"text": text, **action_of(text)} for text in texts]

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        return {"view": board_of(GAME.parse_state(view))}

    def room_action(self, action: str) -> dict:
        return action_of(GAME.parse_action(None, action))


def board_of(state: State) -> dict:
    """The count as the board script draws it."""
    return {
        "number": state.number,
        "mover": state.mover,
        "pushes": list(state.pushes),
        "feinted": list(state.feinted),
    }


def action_of(action: str) -> dict:
    return {"label_key": f"az.action.{action}", "args": {}}


WEB = AbzaehlenWeb()
