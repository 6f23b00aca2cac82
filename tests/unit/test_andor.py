"""The generic AND/OR prover and verifier (solver/andor*.py).

Cross-checks the pure-Python df-pn against the compiled Battleklinge solver on
200 positions from random games (distance, keys and loss at N <= 2), the
memoised verifier against it on 100 of them, and the turn-counting rules on a
small synthetic problem with actions that do not spend a turn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fechtbuch.engines.battleklinge.game import GAME, HitProblem
from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver import andor
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.battleklinge.api import solve


@pytest.fixture(scope="module")
def sample(played_positions):
    live = [p for p in played_positions if p.winner() is None]
    return live[:: max(1, len(live) // 200)][:200]


def generic_answer(decider_class, pos, bound):
    attack = decider_class(HitProblem(pos.turn))
    distance = andor.distance(attack.wins, pos, bound)
    keys = andor.keys(attack.problem, attack.wins, pos, distance) if distance else []
    loss = None
    if distance is None:
        defend = decider_class(HitProblem(1 - pos.turn))
        loss = andor.distance(defend.wins, pos, bound)
    return distance, sorted(m.to_text() for m in keys), loss


def compiled_answer(pos, bound):
    result = solve(pos, max_n=bound)
    assert result.status == "solved"
    return result.distance, sorted(m.to_text() for m in result.keys), result.loss_in


@pytest.mark.slow
def test_generic_prover_agrees_with_the_compiled_solver(sample):
    hits = losses = 0
    for pos in sample:
        expected = compiled_answer(pos, 2)
        assert generic_answer(ProofSearch, pos, 2) == expected, pos.to_text()
        hits += expected[0] is not None
        losses += expected[2] is not None
    assert len(sample) == 200 and hits >= 40 and losses >= 8  # both kinds are covered


def test_generic_verifier_agrees_with_the_compiled_solver(sample):
    for pos in sample[::2]:
        assert generic_answer(ProofCheck, pos, 2) == compiled_answer(pos, 2), pos.to_text()


@pytest.mark.parametrize("decider", [ProofSearch, ProofCheck])
def test_a_game_is_refused(decider):
    with pytest.raises(TypeError, match="not a Game"):
        decider(GAME)
    with pytest.raises(TypeError, match="takes an AndOrProblem"):
        decider("battleklinge")


@dataclass(frozen=True)
class Duel:
    """A synthetic duel: ``gap`` steps apart; the attacker ``lunge``s (a turn: gap
    -1 or -2, a hit at 0), or ``feint``s once (no turn: the defender must ``recover``);
    the defender ``retreat``s (gap + 1, at most ``room`` times) or ``hold``s."""

    gap: int
    attacker: bool
    room: int
    feint: bool = True
    recovering: bool = False


class DuelProblem(AndOrProblem):
    def attacker_to_act(self, s):
        return s.attacker

    def outcome(self, s):
        return Outcome.WIN if s.gap <= 0 else None

    def children(self, s):
        if s.attacker:
            out = [(f"lunge{k}", Duel(s.gap - k, False, s.room, s.feint)) for k in (1, 2)]
            if s.feint:
                out.append(("feint", Duel(s.gap, False, s.room, False, True)))
            return out
        if s.recovering:  # after a feint the defender loses ground instead of retreating
            return [("recover", Duel(s.gap - 1, True, s.room, s.feint))]
        out = [("hold", Duel(s.gap, True, s.room, s.feint))]
        if s.room:
            out.append(("retreat", Duel(s.gap + 1, True, s.room - 1, s.feint)))
        return out

    def counts_turn(self, s, action):
        return action != "feint"

    def key(self, s):
        return s

    def format_state(self, s):
        return repr(s)

    def format_action(self, s, a):
        return a


def test_actions_that_spend_no_turn():
    problem = DuelProblem()
    start = Duel(gap=3, attacker=True, room=0)
    # feint (free) and a lunge of 2 hit; so does a lunge of 2 and then a feint
    for decider in (ProofSearch(problem), ProofCheck(problem)):
        assert andor.distance(decider.wins, start, 4) == 1
        assert andor.keys(problem, decider.wins, start, 1) == ["lunge2", "feint"]
        assert not decider.wins(Duel(3, True, 0, feint=False), 1)
    # every small duel: prover and verifier agree
    for gap in range(1, 7):
        for room in range(3):
            for feint in (True, False):
                state = Duel(gap, True, room, feint)
                for turns in range(4):
                    assert ProofSearch(problem).wins(state, turns) == ProofCheck(problem).wins(
                        state, turns
                    ), (state, turns)


class LoopProblem(DuelProblem):
    def counts_turn(self, s, action):
        return False  # nothing spends a turn: the hold/lunge cycle never ends


@pytest.mark.parametrize("decider", [ProofSearch, ProofCheck])
def test_a_cycle_without_a_counting_action_is_an_error(decider):
    class Stall(LoopProblem):
        def children(self, s):
            return [("wait", Duel(s.gap, not s.attacker, s.room, s.feint))]

    with pytest.raises(andor.CycleError):
        decider(Stall()).wins(Duel(3, True, 0), 1)
