"""Touché in N (two players): the public-state AND/OR view against brute force.

* prover (df-pn) and verifier (memoised recursion) agree on views from random
  two-player play (N = 1 on 300 views, N = 2 on 24 within a node limit);
* on small late-round positions (few unseen cards) the view's answer equals a brute
  force over every concrete split of the unseen cards (opponent hand, piles in
  order) with the real rules, where P's strategy may depend only on P's view
  (worlds are grouped by ``format_view`` after each opponent reply).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

import pytest
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.board import JOKER, full_deck
from fechtbuch.engines.touche_pyramiden.sampling import random_states
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Phase, State
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    OPP_TO_ACT,
    P_DRAWS,
    TouchInN,
    node_of_view,
    opponent_action_count,
)
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck


def _play_views(count: int, label: str):
    for state in random_states(2, count, label):
        if state.phase is Phase.PLAY:
            yield state


@pytest.mark.parametrize(("turns", "count", "limit"), [(1, 300, None), (2, 24, 20_000)])
def test_prover_and_verifier_agree(turns, count, limit):
    decided = wins = 0
    for state in _play_views(count, f"touch-agree-{turns}"):
        node, pattern = node_of_view(notation.view_of(state, state.to_move))
        problem = TouchInN(pattern)
        try:
            claim = ProofSearch(problem, max_nodes=limit).wins(node, turns)
            check = ProofCheck(problem, max_nodes=None if limit is None else 10 * limit)
            assert check.wins(node, turns) == claim, notation.format_state(state)
        except ProofLimit:
            continue
        decided += 1
        wins += claim
    assert decided >= count // 3
    assert turns > 1 or wins > 0


def test_lazy_children_count_is_exact():
    for state in _play_views(60, "touch-count"):
        node, pattern = node_of_view(notation.view_of(state, state.to_move))
        problem = TouchInN(pattern)
        for _, child in list(problem.children(node))[:5]:
            if child.phase == OPP_TO_ACT:
                replies = problem.children(child)
                assert len(replies) == len(list(iter(replies))) == opponent_action_count(child)
                for _, grand in list(replies)[:3]:
                    if grand.phase == P_DRAWS:
                        draws = problem.children(grand)
                        assert len(draws) == len(list(iter(draws)))


# ---- brute force over concrete worlds --------------------------------------------------
def _small_position(state: State, rng: HashStream, opp_hand: int, my_pile: int) -> State:
    """``state``'s board and P's hand with only a few unseen cards: the opponent holds
    ``opp_hand`` cards and no pile, P's pile has ``my_pile``; the rest is discarded."""
    p = state.to_move
    rest = full_deck()
    for k in state.hands[p]:
        rest.remove(k)
    picks = []
    for _ in range(opp_hand + my_pile):
        picks.append(rest.pop(rng.below(len(rest))))
    if rng.below(3) == 0 and JOKER in rest:  # a joker among the unseen cards now and then
        rest.remove(JOKER)
        rest.append(picks[0])
        picks[0] = JOKER
    hands = [(), ()]
    piles = [(), ()]
    hands[p] = state.hands[p]
    hands[1 - p] = tuple(sorted(picks[:opp_hand]))
    piles[p] = tuple(picks[opp_hand:])
    return replace(
        state, hands=tuple(hands), piles=tuple(piles), discard=tuple(rest), aside=(), passes=0
    )


def _worlds(state: State) -> list[State]:
    """Every concrete state with P's view of ``state``: each split of the unseen cards
    into the opponent's hand and the piles (in order)."""
    p = state.to_move
    q = 1 - p
    unseen = list(state.hands[q]) + list(state.piles[p]) + list(state.piles[q])
    sizes = (len(state.hands[q]), len(state.piles[p]))
    out = {}
    for order in set(permutations(unseen)):
        hands = [None, None]
        piles = [None, None]
        hands[p] = state.hands[p]
        hands[q] = tuple(sorted(order[: sizes[0]]))
        piles[p] = tuple(order[sizes[0] : sizes[0] + sizes[1]])
        piles[q] = tuple(order[sizes[0] + sizes[1] :])
        world = replace(state, hands=tuple(hands), piles=tuple(piles))
        out[notation.format_state(world)] = world
    return list(out.values())


def _brute(worlds: list[State], turns: int, p: int) -> bool:
    """Does one action of P, the same in every world P cannot tell apart, win?"""
    first = worlds[0]
    for action in rules.legal_actions(first):
        ok = True
        groups: dict[str, list[State]] = {}
        for world in worlds:
            after = rules.apply_unchecked(world, action)
            if after.round != world.round:
                if after.scores[p] == world.scores[p]:  # round ended without P's point
                    ok = False
                    break
                continue  # P completed
            if turns == 1:
                ok = False
                break
            for reply in rules.legal_actions(after):
                then = rules.apply_unchecked(after, reply)
                if then.round != after.round:
                    ok = False  # the opponent completed, or the cards ran out
                    break
                view = notation.format_view(notation.view_of(then, p))
                groups.setdefault(view, []).append(then)
            if not ok:
                break
        if ok and all(_brute(g, turns - 1, p) for g in groups.values()):
            return True
    return False


# the two-turn comparison (18 s) runs with the slow tests; one turn stays in the default run
@pytest.mark.parametrize("turns", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_view_equals_brute_force_over_worlds(turns):
    rng = HashStream(f"touch-brute-{turns}")
    compared = wins = 0
    for state in _play_views(160 if turns == 1 else 100, f"touch-brute-{turns}"):
        if turns == 2 and rng.below(3):
            continue
        small = _small_position(state, rng, opp_hand=2, my_pile=1)
        p = small.to_move
        node, pattern = node_of_view(notation.view_of(small, p))
        claim = ProofSearch(TouchInN(pattern)).wins(node, turns)
        assert _brute(_worlds(small), turns, p) == claim, notation.format_state(small)
        compared += 1
        wins += claim
    assert compared >= 20
    assert wins >= 1


# ---- the fast path: leaf tests and grouped keys against the plain definitions ----------------
def _views(count: int, label: str):
    from fechtbuch.puzzles.touche_pyramiden.mining import candidate_views

    for view in candidate_views(label, count):
        yield node_of_view(notation.parse_view(view))


@pytest.mark.parametrize(
    ("turns", "count"), [(1, 120), pytest.param(2, 24, marks=pytest.mark.slow)]
)
def test_grouped_keys_and_leaf_tests_agree_with_the_plain_search(turns, count):
    """The prover with grouped keys (a budget on the root) and the problem's leaf tests
    gives the same distance and keys as the verifier with exact keys and no leaf test."""
    from fechtbuch.engines.touche_pyramiden.touche_in_n import with_budget
    from fechtbuch.solver.andor import distance, keys

    compared = wins = 0
    for node, pattern in _views(count, f"grouped-{turns}"):
        problem = TouchInN(pattern)
        plain = ProofCheck(problem, max_nodes=400_000, leaf_tests=False)
        try:
            expected = distance(plain.wins, node, turns)
            expected_keys = keys(problem, plain.wins, node, expected) if expected else []
        except ProofLimit:
            continue
        fast = ProofSearch(problem)
        root = with_budget(node, turns)
        found = distance(fast.wins, root, turns)
        assert found == expected, problem.format_state(node)
        if found:
            texts = [problem.format_action(root, a) for a in keys(problem, fast.wins, root, found)]
            assert texts == [problem.format_action(node, a) for a in expected_keys]
        compared += 1
        wins += found is not None
    assert compared >= count // 2 and wins > 0


def test_leaf_test_claims_hold():
    """``wins_at_once`` True means won with one turn, False (at P's turn) means lost with
    one, checked by plain recursion on nodes one and two plies into random views."""
    claims = 0
    for node, pattern in _views(40, "leaf"):
        problem = TouchInN(pattern)
        plain = ProofCheck(problem, leaf_tests=False)
        for _, child in list(problem.children(node))[:6]:
            for state in [child, *(g for _, g in list(problem.children(child))[:4])]:
                if problem.outcome(state) is not None:
                    continue
                claim = problem.wins_at_once(state)
                if claim is True:
                    assert plain.wins(state, 1)
                    claims += 1
                elif claim is False:
                    assert problem.attacker_to_act(state) and not plain.wins(state, 1)
    assert claims > 0


def test_grouped_keys_agree_with_exact_keys_at_n3():
    """At N = 3 the prover with grouped keys gives the distance and keys of the
    verifier with exact keys (leaf tests on both sides: they are checked on their own
    above, and without them one N = 3 question costs the verifier tens of seconds), on
    the shipped pack's Touché-in-3 exercises and on lifted views (the views mined for
    N = 3).  More views: tests/support/touche_pyramiden_groupbench.py (docs/performance.md)."""
    from fechtbuch.engines.files import read_json_file
    from fechtbuch.engines.paths import data_path
    from fechtbuch.engines.touche_pyramiden.touche_in_n import with_budget
    from fechtbuch.puzzles.touche_pyramiden.mining import candidate_rounds, lifted_views
    from fechtbuch.solver.andor import distance, keys

    pack = read_json_file(data_path("packs", "pyramiden-uebungen.json"), "pack")
    views = [p["position"] for p in pack["puzzles"] if p["n"] == 3][:2]
    for round_views in candidate_rounds("grouped-3", 16):
        for view in round_views.views:
            views += [text for text, _ in lifted_views(view, round_views.trails[view])][:1]
    found = []
    for view in views[:6]:
        node, pattern = node_of_view(notation.parse_view(view))
        problem = TouchInN(pattern)
        answers = []
        for wins, root in (
            (ProofSearch(problem).wins, with_budget(node, 3)),
            (ProofCheck(problem, max_nodes=400_000).wins, node),
        ):
            n = distance(wins, root, 3)
            texts = (
                [problem.format_action(root, a) for a in keys(problem, wins, root, n)] if n else []
            )
            answers.append((n, texts))
        assert answers[0] == answers[1], view
        found.append(answers[0][0])
    assert len(found) == 6 and 3 in found and None in found


def _node_of(view: str):
    return node_of_view(notation.parse_view(view))


def test_completions_are_the_children_that_complete():
    """``TouchInN.completions`` (made from the near fields, for main lines) lists
    exactly the actions whose child is ``WON``, at roots and at P's nodes two plies in
    (views of play, and the shipped Touché-in-1 exercises, which complete at once)."""
    from fechtbuch.engines.files import read_json_file
    from fechtbuch.engines.paths import data_path
    from fechtbuch.engines.touche_pyramiden.touche_in_n import P_TO_ACT, WON

    pack = read_json_file(data_path("packs", "pyramiden-uebungen.json"), "pack")
    exercises = [p["position"] for p in pack["puzzles"] if p["n"] == 1][:4]
    checked = with_completion = 0
    for node, pattern in [*_views(20, "completions"), *map(_node_of, exercises)]:
        problem = TouchInN(pattern)
        nodes = [node]
        for _, child in list(problem.children(node))[:4]:
            nodes += [g for _, g in list(problem.children(child))[:3] if g.phase == P_TO_ACT]
        for state in nodes:
            made = sorted(map(repr, problem.completions(state)))
            won = sorted(repr(a) for a, c in problem.children(state) if c.phase == WON)
            assert made == won, problem.format_state(state)
            checked += 1
            with_completion += bool(won)
    assert checked > 50 and with_completion > 0
