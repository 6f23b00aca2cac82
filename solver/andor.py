"""Questions about any :class:`~fechtbuch.engines.game.AndOrProblem`, asked of a decider.

The generic proof search in pure Python: :class:`~fechtbuch.solver.andor_prover.ProofSearch`
(df-pn) and :class:`~fechtbuch.solver.andor_verifier.ProofCheck` (plain memoised
recursion) both answer ``wins(state, turns)``; the functions here turn that into
distances and keys, the same way for both.  Games without a compiled kernel (the
Touché games) are solved only this way; Battleklinge also has the compiled
solver (solver/battleklinge/api.py), and tests/unit/test_andor.py checks that the two agree.

The terms (binding for both deciders):

* ``turns`` is the number of attacker actions that spend a turn
  (``problem.counts_turn``) still allowed; actions that do not spend one (a
  Touché parry) are always allowed.  ``wins(state, turns)``: the attacker forces
  an :attr:`~fechtbuch.engines.game.Outcome.WIN` outcome without a further
  counting action beyond ``turns``, whatever the defender does.  At an OR node
  (``problem.attacker_to_act``) with ``turns == 0`` only non-counting actions are
  open; an OR node with no open action is lost, an AND node with no action is won
  (the problem should report such a state's outcome instead).
* distance: the smallest ``n <= bound`` with ``wins(state, n)``, 0 included: a node,
  the root too, whose win needs no counting action (a Touché parry or forced decline
  after which the round is won) has distance 0;
* keys at ``n``: the actions of an OR node after which ``wins`` still holds with
  ``n`` (``n - 1`` if the action spends a turn), in the problem's order.

Assumption (stated by :class:`AndOrProblem` and relied on by both deciders):
every cycle of the problem's graph contains a counting attacker action, so with
a turn budget the searched graph is finite and acyclic.  Both deciders detect a
cycle on the current path and raise :class:`CycleError` rather than loop.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Game

Decide = Callable[[Any, int], bool]
"""``wins(state, turns)`` of a decider."""


class CycleError(ValueError):
    """The problem has a cycle without a counting attacker action (see the module doc)."""


class ProofLimit(Exception):
    """A decider reached its node limit before an answer."""


def require_problem(problem: object) -> AndOrProblem:
    """``problem`` if it is an :class:`AndOrProblem`; a clear ``TypeError`` if not.

    A :class:`Game` is refused on purpose: proofs need the perfect-information view
    (the game's own AND/OR problem), not the game with its hidden information.
    """
    if isinstance(problem, AndOrProblem):
        return problem
    if isinstance(problem, Game):
        raise TypeError(
            f"the proof search takes an AndOrProblem, not a Game ({type(problem).__name__}); "
            "ask the game for its AND/OR view (e.g. BattleklingeGame.hit_problem(attacker))"
        )
    raise TypeError(f"the proof search takes an AndOrProblem, got {type(problem).__name__}")


def require_turns(turns: int) -> int:
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
        raise ValueError(f"turns: must be an int >= 0, got {turns!r}")
    return turns


def every_action_counts(problem: AndOrProblem) -> bool:
    """Whether ``problem`` keeps the default ``counts_turn`` (every attacker action
    spends a turn), so an OR node with no turn left is lost without a look at its
    actions."""
    return type(problem).counts_turn is AndOrProblem.counts_turn


def distance(wins: Decide, state: Any, bound: int) -> int | None:
    """The smallest ``n`` in ``0..bound`` with ``wins(state, n)``, or ``None``."""
    if not wins(state, bound):
        return None
    return next(n for n in range(bound + 1) if wins(state, n))


def keys(problem: AndOrProblem, wins: Decide, state: Any, turns: int) -> list[Any]:
    """The attacker's actions at OR node ``state`` that keep the win within ``turns``."""
    if not problem.attacker_to_act(state):
        raise ValueError("keys: the attacker is not to act in this state")
    result = []
    for action, child in problem.children(state):
        spends = problem.counts_turn(state, action)
        if spends and turns == 0:
            continue
        if wins(child, turns - 1 if spends else turns):
            result.append(action)
    return result


def path_key(problem: AndOrProblem, state: Any, turns: int) -> tuple[Hashable, int]:
    return (problem.key(state), turns)
