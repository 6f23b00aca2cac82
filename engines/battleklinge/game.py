"""Battleklinge behind the game seam (``engines/game.py``).

:class:`BattleklingeGame` is the real game: states are :class:`Position` values,
actions :class:`Move` values, in the notation of position.py.  Battleklinge has
perfect information and no chance once the five cards are dealt (the deal is part
of the position), so its AND/OR view, :class:`HitProblem`, is its positions as
they are.  The compiled kernel (fast.py with kernel.py's one-move facts) is
offered through :meth:`BattleklingeGame.kernel` for the compiled proof search.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import ClassVar

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge import reference as reference_rules
from fechtbuch.engines.battleklinge.cards import (
    BLAU,
    CARDS,
    COLOR_NAMES,
    GOLD,
    NUM_CARDS,
    Color,
    card_id,
)
from fechtbuch.engines.battleklinge.position import (
    IllegalMoveError,
    Move,
    NotationError,
    Position,
)
from fechtbuch.engines.game import AndOrProblem, Game, GameInfo, Outcome
from fechtbuch.engines.kernel import CompiledKernel


class BattleklingeGame(Game[Position, Move]):
    """The rules and notation of Battleklinge (two schools, Gold = player 0, Blau = 1)."""

    info = GameInfo(
        name="battleklinge",
        title="Battleklinge",
        min_players=2,
        max_players=2,
        hidden_information=False,
        chance=False,
    )

    def parse_state(self, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"position: expected text, got {text!r:.200}")
        return Position.from_text(text)

    def format_state(self, state: Position) -> str:
        return state.to_text()

    def parse_action(self, state: Position, text: str) -> Move:
        return Move.from_text(text)

    def format_action(self, state: Position, action: Move) -> str:
        return action.to_text()

    def num_players(self, state: Position) -> int:
        return 2

    def current_player(self, state: Position) -> int:
        return state.turn

    rules: ClassVar[ModuleType] = fast
    """The module whose ``legal_moves`` and ``play`` are the rules here: the fast
    generator (card, then from square, then to square)."""

    def legal_actions(self, state: Position) -> Sequence[Move]:
        return self.rules.legal_moves(state)

    def apply(self, state: Position, action: Move) -> Position:
        if action not in self.legal_actions(state):
            raise IllegalMoveError(
                f"move: {action.to_text()!r} is not legal in {state.to_text()!r}"
            )
        return self.rules.play(state, action)

    def is_terminal(self, state: Position) -> bool:
        return state.winner() is not None

    def returns(self, state: Position) -> tuple[float, ...]:
        winner = state.winner()
        if winner is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if winner == GOLD else (0.0, 1.0)

    def state_key(self, state: Position) -> Hashable:
        """The Zobrist hash of the fast kernel (int)."""
        return int(fast.state_from_position(state)[fast.F_HASH])

    def initial_state(self, seed: int) -> Position:
        """A start position: five of the sixteen cards, dealt by SHA-256 of ``seed``."""

        def rank(card: int) -> bytes:
            return hashlib.sha256(f"battleklinge-initial/{seed}/{card}".encode()).digest()

        order = sorted(range(NUM_CARDS), key=rank)
        return Position.start(order[:2], order[2:4], order[4])

    def start_problem(self, state: Position) -> str | None:
        """``None`` for a position the rules' set-up produces (the "Aufbau"): each
        school's master on its banner square in the middle of its base rank (Gold c1,
        Blau c5), its four students on the rest of that rank, nothing else on the board;
        five distinct cards of the sixteen, two in each hand and one on the side slot;
        the school whose colour mark the side card carries to move.  Else one line
        naming the first thing that differs."""
        expected = Position.start((0, 1), (2, 3), 4)  # only the board is compared
        for color in (GOLD, BLAU):
            name = COLOR_NAMES[color]
            if state.masters[color] != expected.masters[color]:
                return f"{name}'s master is not on its banner square (the set-up)"
            if state.students[color] != expected.students[color]:
                return f"{name}'s students are not on their base rank (the set-up)"
        hands = state.hands
        if any(len(hand) != 2 for hand in hands):
            return f"each hand must hold two cards, not {len(hands[0])} and {len(hands[1])}"
        cards = [*hands[0], *hands[1], state.side]
        if not all(isinstance(c, int) and 0 <= c < NUM_CARDS for c in cards):
            return "a card is not one of the sixteen"
        if len(set(cards)) != 5:
            twice = next(c for c in cards if cards.count(c) > 1)
            return f"the deal holds {card_id(twice)!r} twice; five distinct cards are dealt"
        starter = CARDS[state.side].mark
        if state.turn != starter:
            return (
                f"{COLOR_NAMES[state.turn]} to move, but the side card "
                f"{CARDS[state.side].name} carries {COLOR_NAMES[starter]}'s mark, who begins"
            )
        return None

    def reference(self) -> Game[Position, Move] | None:
        """The pure-Python rules of reference.py behind the same interface."""
        return ReferenceBattleklinge()

    def kernel(self) -> CompiledKernel:
        """fast.py's generator for the compiled df-pn and minimax of ``solver/``."""
        from fechtbuch.engines.battleklinge.kernel import KERNEL

        return KERNEL

    def hit_problem(self, attacker: Color) -> HitProblem:
        return HitProblem(attacker)


class ReferenceBattleklinge(BattleklingeGame):
    """Battleklinge with legal moves and their effect from reference.py (the oracle)."""

    rules = reference_rules

    def reference(self) -> Game[Position, Move] | None:
        return None


class HitProblem(AndOrProblem[Position, Move]):
    """ "``attacker`` hits within N own moves", over Battleklinge's positions as they are.

    OR nodes are positions with ``attacker`` to move; a hit (either school's) decides
    the node.  Every attacker move spends a turn (Battleklinge has no free actions).
    Actions come from the pure-Python reference rules, so a proof over this view
    shares no code with the compiled kernel the compiled solver uses.
    """

    def __init__(self, attacker: Color):
        if attacker not in (GOLD, BLAU):
            raise ValueError(f"attacker: must be {GOLD} (Gold) or {BLAU} (Blau), got {attacker!r}")
        self.attacker = attacker

    def attacker_to_act(self, state: Position) -> bool:
        return state.turn == self.attacker

    def outcome(self, state: Position) -> Outcome | None:
        winner = state.winner()
        if winner is None:
            return None
        return Outcome.WIN if winner == self.attacker else Outcome.LOSS

    def children(self, state: Position) -> Sequence[tuple[Move, Position]]:
        return [
            (move, reference_rules.play(state, move)) for move in reference_rules.legal_moves(state)
        ]

    def key(self, state: Position) -> Hashable:
        return state

    def format_state(self, state: Position) -> str:
        return state.to_text()

    def format_action(self, state: Position, action: Move) -> str:
        return action.to_text()


GAME = BattleklingeGame()
"""The instance the registry (``engines/registry.py``) lists."""
