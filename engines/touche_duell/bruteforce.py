"""The definition of a sure win, by brute force over every concrete deal.

"P wins the round within N own turns whatever is hidden" means: there is a
strategy of P that depends only on what P observes and wins against every
opponent hand, every order of the pile and every opponent reply.  This module
decides exactly that, for small cases, without the public-state abstraction of
:mod:`~fechtbuch.engines.touche_duell.public`: the root information set is every
full position consistent with P's view (each opponent hand of the right size from
the unseen cards, each distinct order of the rest as the pile); P picks one
action for the whole set; the results are split by what P then sees (P's view),
and P must win in every part; opponent actions are taken in every position of the
set.  Tests compare it with the prover on hundreds of late-round views.
"""

from __future__ import annotations

from itertools import permutations

from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.public import (
    cards_of,
    minus,
    position_of,
    sub_multisets,
    view_actions,
)
from fechtbuch.engines.touche_duell.state import Position, View, view_of

MAX_DEALS = 5000


def concrete_positions(view: View) -> frozenset[Position]:
    """Every full position consistent with ``view`` (opponent hand, pile order)."""
    unseen = view.unseen()
    out = set()
    for other in sub_multisets(unseen, view.other_size):
        for pile in set(permutations(cards_of(minus(unseen, other)))):
            out.add(position_of(view, other, pile))
            if len(out) > MAX_DEALS:
                raise ValueError(f"more than {MAX_DEALS} deals; brute force is for small cases")
    return frozenset(out)


class BruteForce:
    """``wins(view, turns)`` by recursion over P's information sets (see the module doc)."""

    def __init__(self, prover: int):
        self.prover = prover
        self._memo: dict[tuple[frozenset[Position], int], bool] = {}

    def wins(self, view: View, turns: int) -> bool:
        return self._wins(concrete_positions(view), turns)

    def _split(self, positions) -> list[frozenset[Position]]:
        parts: dict[View, set[Position]] = {}
        for p in positions:
            parts.setdefault(view_of(p, self.prover), set()).add(p)
        return [frozenset(part) for part in parts.values()]

    def _wins(self, info: frozenset[Position], turns: int) -> bool:
        sample = next(iter(info))
        if sample.phase.over:
            return all(p.winner == self.prover for p in info)
        key = (info, turns)
        found = self._memo.get(key)
        if found is not None:
            return found
        if sample.mover == self.prover:
            answer = False
            for action in view_actions(view_of(sample, self.prover)):
                spends = rules.spends_turn(
                    sample.phase, action, sample.distance, sample.hands[sample.mover]
                )
                left = turns - 1 if spends else turns
                if left < 0:
                    continue
                after = [rules.apply_legal(p, action) for p in info]
                if all(self._wins(part, left) for part in self._split(after)):
                    answer = True
                    break
        else:
            after = [rules.apply_legal(p, a) for p in info for a in rules.legal_actions(p)]
            answer = all(self._wins(part, turns) for part in self._split(after))
        self._memo[key] = answer
        return answer
