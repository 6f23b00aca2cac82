"""Exact judgements past a pruned tree's cut (``PackKind.judge``), every game.

* the AND/OR judge (the duel, the pyramids) against the independent verifier
  (``ProofCheck``) on the alternatives at the stored decision points of shipped
  pyramid exercises past the cut;
* Battleklinge's judge (tables or df-pn) against the minimax verifier on every
  legal move at the root of shipped exercises;
* the terminal loop (``pyramiden play --pack``, stdin scripted) accepting a winning
  alternative past the cut and refusing a losing one with the exact verdict.
"""

from __future__ import annotations

import orjson
import pytest
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.position import Move
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import KIND as BATTLEKLINGE
from fechtbuch.puzzles.pack import pack_kind
from fechtbuch.puzzles.packkind import Verdict
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.touche_duell.packkind import KIND as DUEL
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.battleklinge.verify import winning_first_moves
from support.clirun import run

PYRAMIDS = orjson.loads(data_path("packs", "pyramiden-uebungen.json").read_bytes())
SHIPPED = orjson.loads(data_path("packs", "fechtuebungen.json").read_bytes())
SPOT = "py-3e5a17a6c52a"
"""A pyramid exercise whose second decision (past the cut) has winning alternatives."""
DEEP = [SPOT, "py-a21ce441e2f5", "py-acad6b4b978b"]


def alternatives_past_the_cut(pack: dict, ids: list[str]):
    """(tree, node, text, action, turns) for every legal action the stored tree does not
    hold at the solver's nodes past the cut on the main line of the puzzles ``ids``."""
    kind = pack_kind(pack)
    for puzzle in (p for p in pack["puzzles"] if p["id"] in ids):
        tree = PuzzleTree(kind, puzzle)
        node, turns = tree.root, puzzle["n"]
        while not node.is_leaf:
            if tree.solver_to_act(node):
                if node.adversary_moves >= kind.full_defences:
                    for text, (action, _) in sorted(tree.legal(node).items()):
                        if tree.step(node, text).tree is None:
                            yield tree, node, text, action, turns
                text = tree.best_action(node)
                if tree.problem.counts_turn(node.state, tree.legal(node)[text][0]):
                    turns -= 1
            else:
                text = tree.longest_defence(node)
            node = tree.step(node, text)


def test_the_andor_judge_agrees_with_the_independent_verifier():
    kind = pack_kind(PYRAMIDS)
    seen = {Verdict.KEEPS: 0, Verdict.LOSES: 0}
    for tree, node, text, action, turns in alternatives_past_the_cut(PYRAMIDS, DEEP):
        problem = tree.problem
        judgement = kind.judge(problem, node.state, action, turns, 200_000)
        child = tree.legal(node)[text][1]
        spent = 1 if problem.counts_turn(node.state, action) else 0
        expected = ProofCheck(problem).wins(child, turns - spent) if turns - spent >= 0 else False
        assert judgement.verdict is (Verdict.KEEPS if expected else Verdict.LOSES), text
        seen[judgement.verdict] += 1
    assert seen[Verdict.KEEPS] >= 8 and seen[Verdict.LOSES] >= 15, seen


def test_battleklinge_judge_agrees_with_the_minimax_verifier():
    """Every legal first move of two N = 2 exercises: keeps exactly the winning ones."""
    chosen = [p for p in SHIPPED["puzzles"] if p["n"] == 2][:2]
    count = 0
    for puzzle in chosen:
        problem, pos = BATTLEKLINGE.problem(puzzle)
        winning = winning_first_moves(fast.state_from_position(pos), 2)
        for move, _ in problem.children(pos):
            judgement = BATTLEKLINGE.judge(problem, pos, move, 2, 1_000_000)
            expected = Verdict.KEEPS if move.to_text() in winning else Verdict.LOSES
            assert judgement.verdict is expected, (puzzle["id"], move.to_text())
            if judgement.line:  # the defence first, then the fastest finish, to the hit
                after = reference.play(pos, move)
                for text in judgement.line:
                    after = reference.play(after, Move.from_text(text))
                assert after.winner() == pos.turn and len(judgement.line) % 2 == 0
            count += 1
    assert count >= 20


def test_a_limit_gives_unknown_never_a_wrong_claim():
    """With one node the judge may say unknown, or what it says without the limit."""
    judge = pack_kind(PYRAMIDS).judge
    unknown = 0
    for tree, node, _, action, turns in alternatives_past_the_cut(PYRAMIDS, [DEEP[-1]]):
        limited = judge(tree.problem, node.state, action, turns, 1)
        if limited.verdict is Verdict.UNKNOWN:
            unknown += 1
            assert limited.note and not limited.line
            continue
        assert limited == judge(tree.problem, node.state, action, turns, 200_000)
    assert unknown >= 3


def test_every_game_has_a_judge():
    assert all(kind.judge is not None for kind in (BATTLEKLINGE, DUEL, pack_kind(PYRAMIDS)))


def _spot() -> dict:
    return next(p for p in PYRAMIDS["puzzles"] if p["id"] == SPOT)


@pytest.mark.parametrize("command", [("pyramiden", "play", "--pack"), ("pack", "play")])
def test_terminal_accepts_a_winning_alternative_past_the_cut(command):
    puzzle = _spot()
    key, reply, draw, stored = puzzle["line"]
    tree = PuzzleTree(pack_kind(PYRAMIDS), puzzle)
    node = tree.step(tree.step(tree.step(tree.root, key), reply), draw)
    legal = tree.legal(node)
    winning = [t for t in sorted(legal) if t != stored and t.endswith(stored.split(":")[1])]
    losing = next(
        t for t in sorted(legal) if tree.problem.outcome(legal[t][1]) is None and t != stored
    )
    lines = [key, losing, winning[0]]
    result = run(
        *command, "pyramiden-uebungen", "--puzzle", SPOT, "--plain", input="\n".join(lines)
    )
    out = result.output
    assert f"Exact (the AND/OR prover): the sure path is lost: after {losing}" in out
    assert f"Exact (the rules): {winning[0]} keeps the win within your 1 own turn" in out
    assert "Solved: win (beyond the stored solution)." in out


def test_the_duel_judge_agrees_with_its_full_trees():
    """The duel's packs carry full trees: at the root they hold exactly the actions that
    keep the win within N, so the judge must say keeps for those and loses for the rest."""
    pack = orjson.loads(data_path("packs", "touche-uebungen.json").read_bytes())
    chosen = [p for p in pack["puzzles"] if p["n"] == 1][:2] + [
        p for p in pack["puzzles"] if p["n"] == 2
    ][:1]
    for puzzle in chosen:
        tree = PuzzleTree(DUEL, puzzle)
        root = tree.root
        for text, (action, _) in sorted(tree.legal(root).items()):
            judgement = DUEL.judge(tree.problem, root.state, action, puzzle["n"], 200_000)
            stored = tree.step(root, text).tree is not None
            assert judgement.verdict is (Verdict.KEEPS if stored else Verdict.LOSES), text


@pytest.mark.browser
def test_the_page_of_a_pruned_pyramid_pack_accepts_a_winning_alternative(tmp_path):
    """pack html on the shipped pyramid exercise SPOT: past the cut the page refuses a
    losing alternative as exactly lost and accepts a winning one (headless Chromium;
    each action played by clicking its card and its field)."""
    import re

    from fechtbuch.puzzles.packpage import pack2_html
    from support.browser import self_test
    from support.pack_clicks import at

    pack = dict(PYRAMIDS, puzzles=[_spot()])
    html = pack2_html(pack)
    page = tmp_path / "pyramids.html"
    page.write_text(html, encoding="utf-8")
    raw = re.search(r'<script type="application/json" id="fb-data">(.*?)</script>', html, re.S)
    nodes = orjson.loads(raw.group(1).replace("<\\/", "</"))["puzzles"][0]["nodes"]
    cut = next(n for n in nodes if n.get("stored_only"))
    verdicts = {a["text"]: a.get("verdict") for a in cut["actions"] if a["to"] is None}
    losing = next(t for t, v in verdicts.items() if v == "loses")
    winning = next(t for t, v in verdicts.items() if v == "keeps")
    puzzle = _spot()
    key, stored, kind = puzzle["key"], puzzle["line"][3], pack_kind(PYRAMIDS)
    cut_clicks = [at(kind, puzzle, puzzle["line"][:3], text) for text in (losing, winning, stored)]
    result = self_test(page, tmp_path, 0, [at(kind, puzzle, [], key), *cut_clicks])
    assert all(step["missing"] == [] for step in result["steps"])
    assert result["steps"][1]["state"] == "lost"
    lost = result["steps"][1]["message"]
    assert lost.startswith("Exact: The sure path is lost: after ") and f"({losing})" in lost
    assert result["steps"][2]["state"] == "good"
    also = result["steps"][2]["message"]
    assert also.startswith("Correct: ") and f"({winning}) also keeps the win" in also
    assert result["final"] == "solved"
