"""A self-contained HTML page for a version-2 pack of any game.

The page knows no rules: everything is precomputed here through the game's
:class:`~fechtbuch.puzzles.packkind.PackKind` (``problem`` for the legal actions,
``board_svg`` for the diagrams) and the puzzle's solution tree, and the JavaScript
(``viewer2.js``) only walks it.  Per puzzle, the nodes reachable in play are stored:
at the person's (the solver's) nodes the diagram, the turns left, every legal action
(with the node it leads to when the tree holds it) and the hint; at the adversary's
nodes the diagram and the longest defence (docs/solver.md's tie-breaks) the page
answers with; at a leaf the diagram and the rule that decided.  Only the longest
defence is stored below an adversary node, so the page stays small even for full
trees.  An action the tree does not hold is refused at once: the sure path would
be lost (in a pruned pack, past the first two defences, it leaves the stored part).

Nothing is fetched from the network or from other files.  ``pack html`` sends
version-1 packs to :mod:`fechtbuch.puzzles.viewer` (Battleklinge's page with its
rules in JavaScript) and version-2 packs here.
"""

from __future__ import annotations

from typing import Any

from fechtbuch.puzzles.pack import FULL_DEFENCES, PackTerms, SolutionMode, pack_kind
from fechtbuch.puzzles.packkind import PackKind, Puzzle
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode
from fechtbuch.puzzles.pagekit import page


class _PuzzlePages:
    """The reachable nodes of one puzzle, numbered in the order they are met."""

    def __init__(self, kind: PackKind, puzzle: Puzzle, pruned: bool):
        self.kind = kind
        self.tree = PuzzleTree(kind, puzzle)
        self.pruned = pruned
        self.nodes: list[dict[str, Any]] = []

    def build(self) -> list[dict[str, Any]]:
        self._add(self.tree.root, self.tree.puzzle["n"])
        return self.nodes

    def _add(self, node: TreeNode, turns_left: int) -> int:
        index = len(self.nodes)
        entry: dict[str, Any] = {"svg": self.kind.board_svg(node.state)}
        self.nodes.append(entry)
        tree = self.tree
        if node.is_leaf:
            entry["leaf"] = node.tree
            return index
        if not tree.solver_to_act(node):
            reply = tree.longest_defence(node)
            entry["reply"] = reply
            entry["to"] = self._add(tree.step(node, reply), turns_left)
            return index
        entry["turns"] = turns_left
        entry["best"] = tree.best_action(node)
        entry["stored_only"] = self.pruned and node.adversary_moves >= FULL_DEFENCES
        actions = []
        for text, (action, _) in sorted(tree.legal(node).items()):
            after = tree.step(node, text)
            target = None
            if after.tree is not None:
                spent = 1 if tree.problem.counts_turn(node.state, action) else 0
                target = self._add(after, turns_left - spent)
            actions.append({"text": text, "to": target})
        entry["actions"] = actions
        return index


def pack2_html(pack: dict) -> str:
    """One self-contained HTML page that plays a loaded version-2 ``pack``."""
    kind = pack_kind(pack)
    terms = PackTerms.of(pack)
    pruned = terms.solution is SolutionMode.PRUNED
    puzzles = []
    for puzzle in pack["puzzles"]:
        puzzles.append(
            {
                "id": puzzle["id"],
                "n": puzzle["n"],
                "tags": puzzle["tags"],
                "difficulty": puzzle["difficulty"],
                "line": puzzle["line"],
                "nodes": _PuzzlePages(kind, puzzle, pruned).build(),
            }
        )
    data = {"title": kind.title, "pruned": pruned, "puzzles": puzzles}
    generator = pack["generator"]
    facts = [f"{len(puzzles)} puzzles", f"made by {generator['name']} {generator['version']}"]
    facts.append(f"seed {pack['seed']}")
    if pruned:
        facts.append("solution trees pruned to the main line below the first two defences")
    facts.append(f"command: {pack['command']}")
    subtitle = " \u00b7 ".join(facts)
    title = f"fechtbuch: {kind.title} puzzles ({len(puzzles)})"
    section = """<section id="view">
<h2 id="title"></h2>
<div id="diagram"></div>
<div id="status" data-state="play" role="status" aria-live="polite"></div>
<div id="actions"></div>
<div id="controls">
<button id="restart" type="button">Restart</button>
<button id="takeback" type="button">Take back</button>
<button id="hint" type="button">Solution</button>
</div>
<div id="moves"></div>
</section>"""
    css = ["viewer.css", "viewer2.css"]
    return page(title, title, subtitle, section, data, css, "viewer2.js")
