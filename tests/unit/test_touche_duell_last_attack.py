"""The duel's turn count at the last attack: a last attack that cannot be made is no
turn (the rulebook's "letzte Chance"), declining one that can be made is.

Known positions: the four views whose answers this count changed (an independent
check found them); the prover, the independent verifier and, where the hidden
cards are few enough, the brute force over every deal give the same distance and
keys.
"""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.bruteforce import BruteForce
from fechtbuch.engines.touche_duell.notation import parse_action, parse_view
from fechtbuch.engines.touche_duell.public import SureWinProblem, root_problem
from fechtbuch.engines.touche_duell.state import PASS, Phase
from fechtbuch.solver.andor import keys
from fechtbuch.solver.andor_solve import solve_andor
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.touche_duell.crosscheck import crosscheck, random_views
from support.clirun import run

# view, distance, keys (in the solver's order), whether the brute force is small enough
KNOWN = [
    ("standard 18-23 0:0 A zug 22234/?5 51313 ?2", 1, ["m+4", "m+2"], True),
    ("fortgeschritten 2-11 0:0 B zug ?5/23455 22233 ?3", 1, ["l4a5x2", "l4a5x1"], True),
    ("fortgeschritten 5-10 0:0 B riposte ?5/1144 11125 ?6", 2, ["l1a4x2", "l1a4x1"], False),
    ("fortgeschritten 13-20 0:0 A zug 11345/?5 12133 ?5", 2, ["l3a4x1"], False),
]


@pytest.mark.parametrize(("text", "distance", "expected", "small"), KNOWN)
def test_known_views_under_the_rulebooks_turn_count(text, distance, expected, small):
    view = parse_view(text)
    result = solve_andor(root_problem(view), view, 3, verify=True)
    assert (result.distance, result.keys, result.verified) == (distance, expected, True)
    check = ProofCheck(SureWinProblem(view.viewer))
    assert check.wins(view, distance) and not check.wins(view, distance - 1)
    problem = SureWinProblem(view.viewer)
    found = keys(problem, check.wins, view, distance)
    assert sorted(problem.format_action(view, a) for a in found) == sorted(expected)
    if small:
        brute = BruteForce(view.viewer)
        assert brute.wins(view, distance) and not brute.wins(view, distance - 1)


def test_a_forced_decline_is_no_turn_and_a_chosen_one_is():
    # A holds no 3 at distance 3: its only last action "-" spends no turn
    without = parse_view("standard 9-12 0:0 A letzter 11245/?5 34422 ?0")
    assert list(rules.last_actions(without.distance, without.hand)) == [PASS]
    assert not rules.spends_turn(Phase.LAST_ATTACK, PASS, without.distance, without.hand)
    problem = SureWinProblem(0)
    assert not problem.needs_turn(without)
    assert not problem.counts_turn(without, PASS)
    # with a 3 in hand, declining is a choice and a turn
    holding = parse_view("standard 9-12 0:0 A letzter 11235/?5 34332 ?0")
    assert rules.spends_turn(Phase.LAST_ATTACK, PASS, holding.distance, holding.hand)
    assert problem.needs_turn(holding) and problem.counts_turn(holding, PASS)
    assert problem.counts_turn(holding, parse_action("a3x1"))
    assert not rules.spends_turn(Phase.PARRY, parse_action("p"), 3, holding.hand)


def _meets_a_forced_decline(view):
    """Whether P can reach a last attack it cannot make (a
    decline that now spends no turn): the views where the count matters."""
    problem = SureWinProblem(view.viewer)
    frontier, seen = [view], set()
    while frontier:
        state = frontier.pop()
        if state in seen:
            continue
        seen.add(state)
        if problem.attacker_to_act(state) and state.phase is Phase.LAST_ATTACK:
            if not problem.needs_turn(state):
                return True
        if problem.outcome(state) is None and len(seen) < 4000:
            frontier.extend(child for _, child in problem.children(state))
    return False


def test_prover_verifier_and_brute_force_agree_where_a_decline_is_forced():
    """Late views in which P can meet a last attack it cannot make: the three deciders
    (df-pn, the plain recursion, the definition over every deal) agree at N = 1, 2."""
    views = [
        v for v in random_views("forced-decline", 400, max_pile=2) if _meets_a_forced_decline(v)
    ]
    assert len(views) >= 40
    results = crosscheck(views, (1, 2))
    assert [d for r in results for d in r.disagreements] == []
    assert sum(r.false_claims for r in results) == 0
    assert sum(r.sure_wins for r in results) >= 20


# views whose round P wins with actions that spend no turn: the distance is 0
NO_TURN_NEEDED = [
    # A has no 8 for the last attack: the forced "-" is no turn, the comparison is won
    ("standard 9-17 0:0 A letzter 12234/?5 23424 ?0", ["-"], True),
    # A parries (no turn) and the comparison after the parry is won
    ("standard 12-15 0:0 A parade-v:3x1 33355/?4 55231 ?0", ["p"], True),
    # B may parry (no turn, then the comparison is won) or retreat (a turn)
    ("fortgeschritten 7-10 0:0 B ausweichen-v:3x1 ?5/12335 13344 ?0", ["p"], False),
]


@pytest.mark.parametrize(("text", "expected", "forced"), NO_TURN_NEEDED)
def test_a_round_won_without_an_own_turn_is_a_win_in_0(text, expected, forced):
    """The distance of a node whose win needs no counting action is 0, at the root as
    everywhere (docs/solver.md): not "win in 1" with a key that spends no turn."""
    view = parse_view(text)
    result = solve_andor(root_problem(view), view, 2, verify=True)
    assert (result.distance, result.keys, result.verified) == (0, expected, True)
    assert result.main_line == expected
    assert result.tree == {expected[0]: "win:vergleich"}
    assert ProofCheck(SureWinProblem(view.viewer)).wins(view, 0)
    assert BruteForce(view.viewer).wins(view, 0)
    answer = run("touche", "solve", text, "--max", "2")
    assert answer.exit_code == 0, answer.output
    assert answer.output.startswith("Sure win in 0 own turns"), answer.output
    assert "Sure win in 1" not in answer.output
    assert ("no decision to make" in answer.output) is forced, answer.output
    data = json.loads(run("touche", "solve", text, "--max", "2", "--json").output)
    assert (data["distance"], data["keys"], data["status"]) == (0, expected, "found")


def test_a_view_won_without_a_turn_is_no_exercise():
    """Exercises are sure wins in exactly 1..3: a view won with no own turn is refused
    by the miner, and a pack item claiming one is refused by the verifier."""
    from fechtbuch.puzzles.touche_duell.mining import examine, verify_puzzle

    text = "fortgeschritten 7-10 0:0 B ausweichen-v:3x1 ?5/12335 13344 ?0"
    assert examine(parse_view(text)).reason == "trivial"
    problems = verify_puzzle({"position": text, "n": 1, "key": "p"})
    assert problems == ["n: no sure win in exactly 1 (found 0)"], problems
