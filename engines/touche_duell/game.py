"""The Touché duel on the game seam (:class:`fechtbuch.engines.game.Game`).

The unit of a state is one round: :meth:`ToucheDuellGame.is_terminal` is true when
the round is over, and :meth:`~ToucheDuellGame.returns` gives the round's result.
Games to 5 (short: 3) points are sequences of rounds, each dealt from its own seed
(see :mod:`~fechtbuch.engines.touche_duell.record` and
:func:`~fechtbuch.engines.touche_duell.deal.new_round`).

>>> game = ToucheDuellGame()
>>> state = game.parse_state("standard 9-12 0:0 A zug 13345/12235 00000 123412341245455")
>>> [game.format_action(state, a) for a in game.legal_actions(state)][-3:]
['m+1', 'a3x1', 'a3x2']
>>> game.information_state(state, 1)
'standard 9-12 0:0 A zug ?5/12235 00000 ?15'
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from fechtbuch.engines.game import Game, GameInfo
from fechtbuch.engines.touche_duell import reference, rules
from fechtbuch.engines.touche_duell.deal import lot, new_round
from fechtbuch.engines.touche_duell.notation import (
    format_position,
    format_view,
    parse_action,
    parse_position,
)
from fechtbuch.engines.touche_duell.state import (
    HAND_SIZE,
    NOBODY,
    RULESETS,
    Action,
    Phase,
    Position,
    format_action,
    view_of,
)


class ToucheDuellGame(Game[Position, Action]):
    """Rules and notation of the Touché duel (one round per state)."""

    info = GameInfo(
        name="touche-duell",
        title="Touché duel",
        min_players=2,
        max_players=2,
        hidden_information=True,
        chance=True,
    )

    def parse_state(self, text: str) -> Position:
        return parse_position(text)

    def format_state(self, state: Position) -> str:
        return format_position(state)

    def parse_action(self, state: Position, text: str) -> Action:
        return parse_action(text)

    def format_action(self, state: Position, action: Action) -> str:
        return format_action(action)

    def num_players(self, state: Position) -> int:
        return 2

    def current_player(self, state: Position) -> int:
        return state.mover

    def legal_actions(self, state: Position) -> Sequence[Action]:
        return rules.legal_actions(state)

    def apply(self, state: Position, action: Action) -> Position:
        return rules.apply(state, action)

    def is_terminal(self, state: Position) -> bool:
        return state.phase.over

    def returns(self, state: Position) -> tuple[float, ...]:
        return rules.returns(state)

    def state_key(self, state: Position) -> Hashable:
        return state

    def information_state(self, state: Position, player: int) -> str:
        return format_view(view_of(state, player))

    def start_problem(self, state: Position) -> str | None:
        """A start is the deal of a round (a state is one round): both fencers on
        their end squares (1 and 23), five cards in each hand and fifteen in the pile
        (the parser already checks that the 25 cards are five of each value, in any
        order: the shuffle is chance), nothing played, no attack pending, and a
        normal turn of either fencer.  The score is any that a game can have before
        a round, each side below the game's target: rounds are won by either fencer
        (and the comparison may give nobody the point), and the starter alternates by
        round, so every such score comes with either starter."""
        if state.squares != (1, 23):
            return f"squares: a round starts on 1-23, not {state.squares[0]}-{state.squares[1]}"
        if state.phase is not Phase.TURN or state.attack != (0, 0) or state.winner != NOBODY:
            return f"phase: a round starts with a normal turn, not {state.phase.value!r}"
        if any(state.discard):
            return "discard: nothing is played at the start of a round"
        if [sum(hand) for hand in state.hands] != [HAND_SIZE, HAND_SIZE]:
            return f"hands: each fencer is dealt {HAND_SIZE} cards"
        target = state.rules.target
        if max(state.score) >= target:
            return f"score: the game is over at {target} points, no round starts"
        return None

    def initial_state(self, seed: int) -> Position:
        """A new round dealt from ``seed``; the seed also picks the rule set (every
        level, long and short game, in turn) so that random playouts cover them all."""
        text = f"conformance/{seed}"
        return new_round(text, lot(text), RULESETS[seed % len(RULESETS)])

    def reference(self) -> Game[Position, Action]:
        return ReferenceToucheDuell()


class ReferenceToucheDuell(ToucheDuellGame):
    """The same game with the deliberately simple rules of ``reference.py``."""

    def legal_actions(self, state: Position) -> Sequence[Action]:
        # the reference lists actions in no particular order; the seam's fixed order
        # is the natural order of the Action tuples (kind, step, value, count), which
        # is also the order the fast rules produce (the conformance test checks it)
        return sorted(reference.legal_actions(state))

    def apply(self, state: Position, action: Action) -> Position:
        return reference.apply(state, action)

    def reference(self) -> None:
        return None


GAME = ToucheDuellGame()
