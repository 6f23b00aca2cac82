"""The pyramid game on the game seam (:class:`fechtbuch.engines.game.Game`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from fechtbuch.engines.game import Game, GameInfo
from fechtbuch.engines.touche_pyramiden import notation, reachable, reference, rules
from fechtbuch.engines.touche_pyramiden.state import TEAM_SPLITS, Action, Config, Phase, State

CONFORMANCE_CONFIGS = tuple(
    Config(players, teams) for players, splits in TEAM_SPLITS.items() for teams in splits
)
"""Every player count and team split the sheet allows, in turn by seed."""


class PyramidenGame(Game[State, Action]):
    """Touché with pyramids, ruleset ``pyramiden-1``; players are seats 0..n-1."""

    info = GameInfo(
        name="touche-pyramiden",
        title="Touché pyramids",
        min_players=2,
        max_players=6,
        hidden_information=True,
        chance=True,
    )

    def parse_state(self, text: str) -> State:
        return notation.parse_state(text)

    def format_state(self, state: State) -> str:
        return notation.format_state(state)

    def parse_action(self, state: State, text: str) -> Action:
        return notation.parse_action(text)

    def format_action(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    def num_players(self, state: State) -> int:
        return state.config.players

    def current_player(self, state: State) -> int:
        return state.to_move

    def legal_actions(self, state: State) -> Sequence[Action]:
        return rules.legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        return rules.apply(state, action)

    def is_terminal(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def returns(self, state: State) -> tuple[float, ...]:
        return rules.returns(state)

    def state_key(self, state: State) -> Hashable:
        return state

    def information_state(self, state: State, player: int) -> str:
        return notation.format_view(notation.view_of(state, player))

    def start_problem(self, state: State) -> str | None:
        """A start is a round just dealt (:func:`~fechtbuch.engines.touche_pyramiden.
        reachable.start_problem` says what that allows for later rounds)."""
        return reachable.start_problem(state)

    def initial_state(self, seed: int) -> State:
        """A new game dealt from ``seed``; the seed also picks the player count and team
        split (every one the sheet allows, in turn)."""
        config = CONFORMANCE_CONFIGS[seed % len(CONFORMANCE_CONFIGS)]
        return rules.new_game(config, f"conformance-{seed}")

    def reference(self) -> Game[State, Action]:
        return ReferencePyramiden()


class ReferencePyramiden(PyramidenGame):
    """The same game with the deliberately simple rules of ``reference.py``."""

    def legal_actions(self, state: State) -> Sequence[Action]:
        return reference.legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        return reference.apply(state, action)

    def reference(self) -> None:
        return None


GAME = PyramidenGame()
