"""The AND/OR solve layer (solver/andor_solve.py): its two front doors pinned, and
flat and grouped trees describing the same strategy.

The pinned figures were recorded with the two modules the layer replaced
(andor_solve.py for the duel, andor_grouped.py for the pyramids, main at f72a6a3):
distance, keys, node count and tree size must stay exactly these, since the
commands report them (docs/solver.md, "The AND/OR solve layer").  The pyramids' node
counts fell once on purpose (session 5: the grouped door no longer hides the
problem's hints behind the time-limit wrapper), from 113 and 526 to 18 and 219.
The duel's node counts changed once (session 6: a last attack that cannot be made
spends no turn, so those nodes are opened with a turn left): 51, 1113, 2535 and 23
became 54, 1111, 2960 and 70; distances, keys, main lines and trees stayed.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from fechtbuch.commands.touche_duell.solve import solve_view as touche_solve_view
from fechtbuch.commands.touche_pyramiden import solve as pyramiden_solve
from fechtbuch.engines.touche_duell.notation import parse_view
from fechtbuch.engines.touche_duell.public import root_problem
from fechtbuch.solver.andor_solve import (
    FLAT,
    FOUND,
    GROUPED,
    NONE,
    UNKNOWN,
    solve,
)

# view, N -> distance, keys (the problem's order), main line, nodes, tree nodes, tree digest
DUEL = {
    ("standard 9-12 0:0 B zug ?5/12333 11042 ?7", 2): (
        1,
        ["a3x3"],
        ["a3x3", "zieht 111, treffer"],
        46,
        2,
        "81c81f563a58c46f",
    ),
    ("fortgeschritten 4-9 0:0 B zug ?5/22344 32412 ?3", 2): (
        1,
        ["l3a2x2"],
        ["l3a2x2", "zieht 112, treffer"],
        54,
        15,
        "091cc342d654bb1d",
    ),
    ("standard 9-15 0:0 B zug ?5/13334 31035 ?3", 3): (
        2,
        ["m+3"],
        ["m+3", "zieht 1", "a3x1", "p", "a3x1", "zieht 2", "p", "-"],
        1111,
        536,
        "d8f6886bdd7ab75f",
    ),
    ("standard 18-22 0:0 A zug 11224/?5 12413 ?4", 3): (
        3,
        ["m+2"],
        ["m+2", "zieht 2", "m-1", "m+1", "zieht 3", "m+1", "-"],
        2960,
        224,
        "24ea0396a0d9e2e5",
    ),
    ("standard 13-15 0:0 A zug 12345/?5 43321 ?2", 1): (None, [], [], 70, 0, None),
}

# view, N -> distance, keys (by text), main line, nodes, tree digest (None: asked without a tree)
PYRAMIDS = {
    (
        "pyramiden-1 sicht=0 spieler=2 teams=2 runden=3 vorgabe=- runde=1 muster=kombination zug=0 "
        "start=0 punkte=0,0 pass=0 brett=............../11.....1....../1......2....../.....2..1...2./"
        "..211........./..11......2.../...2........../..2.....2..... hand=3S,9S,2H,AD,3C/#5 "
        "stapel=#40/#40 ablage=7C,KH,9D,KD,TD,4D,5D,4C,XX,2D,AH,3D,8S,5S,7S,9C,6D,4H beiseite=#0 seed=?",
        1,
    ): (1, ["2H:b6"], ["2H:b6"], 18, "95b3f23b9f8c6795"),
    (
        "pyramiden-1 sicht=1 spieler=2 teams=2 runden=3 vorgabe=kvadrat runde=2 muster=kvadrat zug=1 "
        "start=1 punkte=0,1 pass=0 brett=.2xx.12.2..21./.1xx1.1......./..1..2......../12.2....22...2/"
        "..2......1..12/..1..2.22.1.1./.1.2.2.121.21./....1.2.11.1.. hand=#5/7S,KH,KH,2C,QC "
        "stapel=#28/#28 ablage=4C,4S,9S,JS,6H,KS,6S,QH,6C,3D,QS,JS,XX,9D,8H,9H,7H,5S,9C,8H,6D,4H,AS,"
        "KS,3D,8S,6H,5S,QC,2C,JH,2H,QD,3H,5D,8S,9H,8C,KC,XX,XX,XX beiseite=#0 seed=?",
        2,
    ): (2, ["KH:i4"], ["KH:i4", "2D:b4", "zieht:2D", "2C:h4"], 219, None),
}


def _digest(tree) -> str | None:
    if tree is None:
        return None
    return hashlib.sha256(json.dumps(tree, sort_keys=True).encode()).hexdigest()[:16]


def _flat(tree):
    """A grouped tree written flat: each reply of a group gets the group's subtree."""
    if isinstance(tree, str):
        return tree
    if isinstance(tree.get("replies"), list):
        return {
            action: _flat(group["then"]) for group in tree["replies"] for action in group["actions"]
        }
    return {key: _flat(sub) for key, sub in tree.items()}


@pytest.mark.parametrize(("view", "n"), list(DUEL))
def test_duel_front_door_is_pinned(view, n):
    distance, keys, line, nodes, tree_nodes, digest = DUEL[(view, n)]
    result = touche_solve_view(parse_view(view), n, verify=True)
    assert result.status is (NONE if distance is None else FOUND) and result.verified is True
    assert (result.distance, result.keys, result.main_line) == (distance, keys, line)
    assert (result.nodes, result.tree_nodes, _digest(result.tree)) == (nodes, tree_nodes, digest)


@pytest.mark.parametrize("time_limit", [None, 1e9])
@pytest.mark.parametrize(("view", "n"), list(PYRAMIDS))
def test_pyramids_front_door_is_pinned(view, n, time_limit):
    """A time limit that is not reached changes nothing, node counts included (the
    wrapper passes every hint of the problem's on)."""
    distance, keys, line, nodes, digest = PYRAMIDS[(view, n)]
    with_tree = digest is not None
    answer = pyramiden_solve.solve_view(
        view, n, time_limit=time_limit, verify=with_tree, with_tree=with_tree
    )
    assert answer.status == "solved" and answer.verified is (True if with_tree else None)
    assert (answer.distance, answer.keys, answer.main_line) == (distance, keys, line)
    assert (answer.nodes, _digest(answer.tree)) == (nodes, digest)


@pytest.mark.parametrize(("view", "n"), [key for key, pin in DUEL.items() if pin[0] is not None])
def test_flat_and_grouped_trees_are_the_same_strategy(view, n):
    """Both styles on one problem: the same distance and keys (up to order), and the
    grouped tree written flat is the flat tree."""
    problem, root = root_problem(parse_view(view)), parse_view(view)
    flat = solve(problem, root, n, FLAT)
    grouped = solve(problem, root, n, GROUPED)
    assert flat.status is grouped.status is FOUND
    assert (flat.distance, sorted(flat.keys)) == (grouped.distance, grouped.keys)
    assert flat.main_line == grouped.main_line
    assert _flat(grouped.tree) == flat.tree
    assert any(isinstance(sub, dict) and "replies" in sub for sub in grouped.tree.values())


def test_a_verifier_at_its_limit_gives_no_verdict():
    view = parse_view("standard 9-15 0:0 B zug ?5/13334 31035 ?3")
    result = solve(root_problem(view), view, 3, FLAT, verify=True, verify_max_nodes=20)
    assert result.status is FOUND and result.distance == 2
    assert result.verified is None and result.note.startswith("not verified: ")


def test_limits_give_unknown_and_no_claim():
    view = parse_view("standard 9-15 0:0 B zug ?5/13334 31035 ?3")
    for kwargs in ({"max_nodes": 50}, {"tree_nodes": 10}, {"time_limit": 0.0}):
        result = solve(root_problem(view), view, 3, FLAT, verify=True, **kwargs)
        assert result.status is UNKNOWN, kwargs
        assert (result.distance, result.keys, result.main_line, result.tree) == (None, [], [], None)
        assert result.verified is None and result.note
