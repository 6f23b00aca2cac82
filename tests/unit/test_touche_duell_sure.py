"""Sure wins of the Touché duel: prover (df-pn), verifier (memoised recursion) and
the brute force over every concrete deal (the definition) agree.

Views come from seeded random play (SHA-256 picks) of standard and fortgeschritten
rounds: every view of the player to move.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.touche_duell.bruteforce import BruteForce, concrete_positions
from fechtbuch.engines.touche_duell.notation import format_view, parse_view
from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.engines.touche_duell.state import view_of
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.touche_duell import bench as touche_bench
from fechtbuch.solver.touche_duell import crosscheck as touche_crosscheck
from fechtbuch.solver.touche_duell.crosscheck import crosscheck, random_views

BRUTE_VIEWS = random_views("brute", 250, max_pile=2) + random_views("brute3", 40, max_pile=3)


def test_brute_force_prover_and_verifier_agree_on_small_views():
    """290 late-round views, N = 1 and 2 (and 3 for pile <= 2): never a sure win that
    the brute force refutes, never a miss (the benchmark command's cross-check)."""
    results = crosscheck([v for v in BRUTE_VIEWS if v.pile_size <= 2], (1, 2, 3))
    results += crosscheck([v for v in BRUTE_VIEWS if v.pile_size > 2], (1, 2))
    assert [d for r in results for d in r.disagreements] == []
    assert sum(r.false_claims for r in results) == 0
    wins = sum(r.sure_wins for r in results)
    decisions = sum(r.decisions for r in results)
    assert wins >= 100 and decisions - wins >= 100


def test_the_crosscheck_command_prints_counts_and_fails_on_a_disagreement(monkeypatch, capsys):
    assert touche_bench.main(["crosscheck", "--set", "tiny:12:2", "--n", "1", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r.get("n") for r in rows[:2]] == [1, 2] and rows[2]["decisions"] == 24
    assert rows[2]["disagreements"] == 0 and rows[2]["views"] == 12

    def prover_always_claims(view, n, brute):
        return True, True, brute.wins(view, n)

    monkeypatch.setattr(touche_crosscheck, "decide", prover_always_claims)
    assert touche_bench.main(["crosscheck", "--set", "tiny:12:2", "--n", "1"]) == 1
    out = capsys.readouterr().out
    summary = json.loads(out.splitlines()[-1])
    assert summary["false_claims"] == summary["disagreements"] > 0
    assert out.count("DISAGREE ") == summary["disagreements"]


PROVER_VIEWS = random_views("prover", 1000, max_pile=15)


def test_prover_and_verifier_agree_on_views_from_random_play():
    """1000 views at N = 1; the first 200 with at most 4 pile cards also at N = 2."""
    late = 0
    for view in PROVER_VIEWS:
        problem = SureWinProblem(view.viewer)
        ns = (1, 2) if view.pile_size <= 4 and late < 200 else (1,)
        late += len(ns) == 2
        for n in ns:
            assert ProofSearch(problem).wins(view, n) == ProofCheck(problem).wins(view, n), (
                format_view(view),
                n,
            )


def test_concrete_positions_are_every_deal():
    view = parse_view("standard 8-16 0:0 B zug ?5/12444 23513 ?1")
    deals = concrete_positions(view)
    # unseen 1,2,4,5 x1 and 5... : five hidden cards in hand, one in the pile
    assert all(view_of(p, 1) == view for p in deals)
    assert len(deals) == len({p.pile for p in deals})


def test_solve_command_reports_a_verified_sure_win_with_tree(tmp_path):
    tree = tmp_path / "tree.json"
    result = CliRunner().invoke(
        cli.main,
        [
            "touche",
            "solve",
            "fortgeschritten 10-17 0:0 A zug 12355/?5 32313 ?3",
            "--max",
            "3",
            "--verify",
            "--json",
            "--tree",
            str(tree),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "found" and data["distance"] == 1 and data["verified"]
    # l2a5x1 wins too since a last attack that cannot be made spends no turn
    # (tests/unit/test_touche_duell_last_attack.py)
    assert data["keys"] == ["l2a5x2", "l2a5x1"]
    written = json.loads(tree.read_text())
    assert set(written["tree"]) == {"l2a5x2", "l2a5x1"}


def test_solve_command_exit_codes():
    runner = CliRunner()
    none = runner.invoke(
        cli.main, ["touche", "solve", "standard 1-23 0:0 B zug ?5/23444 00000 ?15", "--max", "1"]
    )
    assert none.exit_code == 0 and "No sure win within 1" in none.output  # an answer
    limit = runner.invoke(
        cli.main,
        ["touche", "solve", "standard 1-23 0:0 B zug ?5/23444 00000 ?15", "--max-nodes", "5"],
    )
    assert limit.exit_code == 1 and "Unknown" in limit.output
    bad = runner.invoke(cli.main, ["touche", "solve", "standard 1-23 0:0 B zug ?5/2344 00000 ?15"])
    assert bad.exit_code == 2


@pytest.mark.parametrize("n", [1, 2])
def test_a_sure_win_is_not_claimed_when_a_deal_refutes_it(n):
    """Every view where the prover says no has a concrete refutation in the brute force."""
    for view in BRUTE_VIEWS[:60]:
        if not ProofSearch(SureWinProblem(view.viewer)).wins(view, n):
            assert not BruteForce(view.viewer).wins(view, n)


def test_win_chance_is_one_exactly_for_sure_wins():
    from fechtbuch.engines.touche_duell.chance import WinChance

    for view in BRUTE_VIEWS[:120]:
        for n in (1, 2):
            sure = ProofSearch(SureWinProblem(view.viewer)).wins(view, n)
            chance = WinChance(view.viewer).chance(view, n)
            assert 0 <= chance <= 1 and (chance == 1) == sure, (format_view(view), n, chance)


def test_solve_probability_option():
    result = CliRunner().invoke(
        cli.main,
        [
            "touche",
            "solve",
            "fortgeschritten 5-13 0:0 A zug 14555/?5 23311 ?5",
            "--max",
            "2",
            "--probability",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output  # no sure win is an answer
    chance = json.loads(result.output)["probability"]
    assert chance["exact"] == "1/5880" and chance["method"].startswith("exact")


def test_parry_status_closed_form_matches_enumeration():
    """The closed form for parry-only phases gives a valid hand exactly when some hand
    of the size can (cannot) parry."""
    from itertools import product

    from fechtbuch.engines.touche_duell.public import _status_cached, sub_multisets
    from fechtbuch.engines.touche_duell.state import Phase

    checked = 0
    for unseen in product(range(4), repeat=5):
        total = sum(unseen)
        for size in {0, min(5, total), min(3, total)}:
            for value, count in ((1, 1), (3, 2), (5, 3)):
                can, cannot = _status_cached(
                    False, Phase.PARRY, (value, count), 3, value, unseen, size
                )
                hands = sub_multisets(unseen, size)
                assert (can is not None) == any(h[value - 1] >= count for h in hands)
                assert (cannot is not None) == any(h[value - 1] < count for h in hands)
                for hand in (can, cannot):
                    assert hand is None or hand in hands
                checked += 1
    assert checked > 5000


def test_the_adversary_parries_with_a_hand_that_can_riposte():
    """Found by the brute force on pile-3 views: B attacks with its 2; the one unseen
    2 parries, and whether A is then blocked depends on the rest of A's hand (the 1
    lets it step forward).  The adversary must pick the hand that keeps A moving, so
    a2x1 is no sure win; an earlier model took the first hand that parries."""
    view = parse_view("fortgeschritten 3-5 0:0 B zug ?5/12344 33114 ?3")
    for n in (1, 2):
        truth = BruteForce(1).wins(view, n)
        assert ProofSearch(SureWinProblem(1)).wins(view, n) == truth
        assert ProofCheck(SureWinProblem(1)).wins(view, n) == truth
    assert not BruteForce(1).wins(view, 1)
