"""The chance to win within N when the win is not sure: hidden cards at random,
the opponent's best replies.

Model (exact by enumeration over public states; said so in every answer): the
public-state game of :mod:`~fechtbuch.engines.touche_duell.public` with its hidden
choices made by chance instead of the adversary, each uniform given what P sees
at that moment:

* P's drawn cards: the first cards of a pile that is a uniform random subset of
  the unseen cards U (multivariate hypergeometric weights);
* whether the opponent can answer right after P's action: the share of its
  possible hands (uniform from what is left of U) that can;
* at the opponent's decision: its hand is uniform among the hands of its size
  from U that allow an action, and it plays the action worst for P.

P maximises.  "Uniform given what P sees" ignores what the opponent's earlier
choices reveal about its hand (a real opponent's hand persists), so this is the
chance under fresh uniform hidden cards at each step, not a posterior; it is 1
exactly when the win is sure.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, prod

from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.public import (
    Pending,
    SureWinProblem,
    cards_of,
    minus,
    position_of,
    sub_multisets,
    view_actions,
)
from fechtbuch.engines.touche_duell.state import Counts, Kind, Phase, View, view_of


class ChanceLimit(Exception):
    """The enumeration reached its node limit."""


def weight(hand: Counts, unseen: Counts) -> Fraction:
    """Chance that ``sum(hand)`` cards drawn at random from ``unseen`` are ``hand``."""
    return Fraction(
        prod(comb(u, h) for u, h in zip(unseen, hand, strict=True)),
        comb(sum(unseen), sum(hand)),
    )


class WinChance:
    """``chance(view, turns)``: P's best chance to win within ``turns`` own turns."""

    def __init__(self, prover: int, max_nodes: int | None = 2_000_000):
        self.problem = SureWinProblem(prover)
        self.prover = prover
        self.max_nodes = max_nodes
        self.nodes = 0
        self._memo: dict[tuple[object, int], Fraction] = {}

    def chance(self, state: View | Pending, turns: int) -> Fraction:
        key = (state, turns)
        found = self._memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise ChanceLimit(f"the chance enumeration gave up after {self.nodes:,} nodes")
        value = self._value(state, turns)
        self._memo[key] = value
        return value

    def _value(self, state: View | Pending, turns: int) -> Fraction:
        if type(state) is Pending:
            return self._after_action(state, turns)
        if state.phase.over:
            return Fraction(int(state.winner == self.prover))
        if state.mover == self.prover:
            best = Fraction(0)
            for action in view_actions(state):
                spends = rules.spends_turn(state.phase, action, state.distance, state.hand)
                left = turns - 1 if spends else turns
                if left < 0:
                    continue
                best = max(best, self.chance(Pending(state, action), left))
                if best == 1:
                    break
            return best
        return self._opponent(state, turns)

    def _after_action(self, pending: Pending, turns: int) -> Fraction:
        view, action = pending
        unseen = view.unseen()
        need = _draw_count(view, action)
        outcomes: dict[View, Fraction] = {}
        for drawn in sub_multisets(unseen, need):
            p_drawn = weight(drawn, unseen)
            rest = minus(unseen, drawn)
            for other in sub_multisets(rest, view.other_size):
                pile = cards_of(drawn) + cards_of(minus(rest, other))
                after = view_of(
                    rules.apply_legal(position_of(view, other, pile), action), self.prover
                )
                outcomes[after] = outcomes.get(after, Fraction(0)) + p_drawn * weight(other, rest)
        return sum((p * self.chance(after, turns) for after, p in outcomes.items()), Fraction(0))

    def _opponent(self, view: View, turns: int) -> Fraction:
        unseen = view.unseen()
        acting = []
        for hand in sub_multisets(unseen, view.other_size):
            pile = cards_of(minus(unseen, hand))
            position = position_of(view, hand, pile)
            actions = rules.legal_actions(position)
            if actions:
                acting.append((weight(hand, unseen), position, actions))
        norm = sum(w for w, _, _ in acting)
        total = Fraction(0)
        for w, position, actions in acting:
            worst = Fraction(1)
            for action in actions:
                after = view_of(rules.apply_legal(position, action), self.prover)
                worst = min(worst, self.chance(after, turns))
                if worst == 0:
                    break
            total += w / norm * worst
        return total


def _draw_count(view: View, action) -> int:
    if action.kind in (Kind.PARRY, Kind.PASS) or view.pile_size == 0:
        return 0
    played = {
        Kind.MOVE: 1,
        Kind.RETREAT: 1,
        Kind.ATTACK: action.count,
        Kind.LUNGE: 1 + action.count,
    }[action.kind]
    return max(0, min(5 - (sum(view.hand) - played), view.pile_size))


__all__ = ["ChanceLimit", "Phase", "WinChance", "weight"]
