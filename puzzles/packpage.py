"""A self-contained HTML page for a version-2 pack of any game.

The page knows no rules: everything is precomputed here through the game's
:class:`~fechtbuch.puzzles.packkind.PackKind` (``problem`` for the legal actions,
``page_action`` for the parts the player picks them by, ``board_svg`` for the
diagrams) and the puzzle's solution tree, and the JavaScript (``packpage.js``) only
walks it.  The player acts on the diagram: the game's click-mapper (``packplay.js``
next to its pack kind, embedded here) makes its cards, squares and fields pickable
and maps the picks to one of a node's legal actions; a game without one gets the
actions as buttons in notation.  Per puzzle, the nodes reachable in play are stored:
at the person's (the solver's) nodes the diagram, the turns left, every legal action
(with the node it leads to when the tree holds it) and the hint; at the adversary's
nodes the diagram and the longest defence (docs/solver.md's tie-breaks) the page
answers with (with ``PackKind.page_reply``'s parts, which the game's ``packplay.js``
words); at a leaf the diagram and the rule that decided.  Only the longest
defence is stored below an adversary node, so the page stays small even for full
trees.  An action the tree does not hold is refused at once where the tree holds every
winning action: the sure path would be lost.

A pruned tree holds only the main line past its cut (``PackKind.full_defences``), and
the page cannot run a solver, so at every stored decision point past the cut the
verdict of every other legal action is computed here with the game's exact judge
(``PackKind.judge``, at most :data:`VIEWER_NODES` nodes each) and embedded:
``keeps`` (the page accepts it as a winning action and shows the judge's line as text:
the longest defence, then the fastest finish; diagrams are stored along the pack's
own solution only, which keeps the page small, so play goes on from the stored
action), ``loses`` (refused: the sure path is lost) or ``unknown`` (the node limit
came first; the page says so, and its subtitle counts the verdicts).

Every word of the page comes from its German and English catalogues, embedded in it
(pagekit.py: the page's own ``packpage.de.json`` and ``packpage.en.json`` next to
this module and the game's next to its pack kind); the language is a choice on the
page.  Nothing is fetched from the network or from other files.  ``pack html`` sends
version-1 packs to :mod:`fechtbuch.puzzles.battleklinge.v1page` (Battleklinge's page with its
rules in JavaScript) and version-2 packs here.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from fechtbuch.puzzles.pack import PackTerms, SolutionMode, pack_kind
from fechtbuch.puzzles.packkind import PackKind, Puzzle, Verdict
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode
from fechtbuch.puzzles.pagekit import (
    asset,
    game_asset,
    game_package,
    message,
    page,
    page_texts,
)

VIEWER_NODES = 200_000
"""The judge's node limit per alternative action when a page is made (``pack html``)."""


class _PuzzlePages:
    """The reachable nodes of one puzzle, numbered in the order they are met."""

    def __init__(self, kind: PackKind, puzzle: Puzzle, pruned: bool, verdicts: Counter):
        self.kind = kind
        self.tree = PuzzleTree(kind, puzzle)
        self.pruned = pruned
        self.nodes: list[dict[str, Any]] = []
        self.verdicts = verdicts
        """How many alternatives past the cut were judged which way (for the subtitle)."""

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
            if self.kind.page_reply is not None:
                action, _ = tree.legal(node)[reply]
                entry["reply_parts"] = self.kind.page_reply(node.state, action)
            entry["to"] = self._add(tree.step(node, reply), turns_left)
            return index
        entry["turns"] = turns_left
        entry["best"] = tree.best_action(node)
        past_cut = self.pruned and node.adversary_moves >= self.kind.full_defences
        entry["stored_only"] = past_cut
        actions = []
        parts = self.kind.page_action
        for text, (action, _) in sorted(tree.legal(node).items()):
            after = tree.step(node, text)
            left = turns_left - self._spent(node, action)
            if after.tree is not None:
                offered = {"text": text, "to": self._add(after, left)}
            elif past_cut and self.kind.judge is not None:
                offered = self._judged(node, text, action, turns_left)
            else:
                offered = {"text": text, "to": None}
            if parts is not None:
                offered["parts"] = parts(node.state, action)
            actions.append(offered)
        entry["actions"] = actions
        return index

    def _spent(self, node: TreeNode, action: Any) -> int:
        return 1 if self.tree.problem.counts_turn(node.state, action) else 0

    def _judged(self, node: TreeNode, text: str, action: Any, turns_left: int) -> dict[str, Any]:
        """An alternative past the cut, with its exact verdict (module docstring)."""
        judge = self.kind.judge
        assert judge is not None
        judgement = judge(self.tree.problem, node.state, action, turns_left, VIEWER_NODES)
        self.verdicts[judgement.verdict.value] += 1
        out: dict[str, Any] = {"text": text, "to": None, "verdict": judgement.verdict.value}
        if judgement.verdict is Verdict.KEEPS:
            out["line"] = " ".join(judgement.line)  # text only: diagrams would double the page
        return out


def pack2_html(pack: dict, verdicts: bool = True, lang: str | None = None) -> str:
    """One self-contained HTML page that plays a loaded version-2 ``pack``; without
    ``verdicts`` the actions past a pruned tree's cut are not judged (``--no-verdicts``);
    ``lang`` is the language it starts in (``None``: the browser's; pagekit.py)."""
    kind = pack_kind(pack)
    if not verdicts:
        kind = dataclasses.replace(kind, judge=None)
    terms = PackTerms.of(pack)
    pruned = terms.solution is SolutionMode.PRUNED
    puzzles = []
    counted: Counter = Counter()
    for puzzle in pack["puzzles"]:
        puzzles.append(
            {
                "id": puzzle["id"],
                "n": puzzle["n"],
                "tags": puzzle["tags"],
                "difficulty": puzzle["difficulty"],
                "line": puzzle["line"],
                "nodes": _PuzzlePages(kind, puzzle, pruned, counted).build(),
            }
        )
    data = {"pruned": pruned, "puzzles": puzzles}
    generator = pack["generator"]
    count = len(puzzles)
    facts = [
        message("pp.fact.count.one" if count == 1 else "pp.fact.count.other", count=count),
        message("pp.fact.made", generator=f"{generator['name']} {generator['version']}"),
        message("pp.fact.seed", seed=pack["seed"]),
    ]
    if pruned:
        facts.append(message("pp.fact.pruned"))
        if kind.judge is not None:
            facts.append(
                message(
                    "pp.fact.verdicts",
                    keeps=counted["keeps"],
                    loses=counted["loses"],
                    unknown=counted["unknown"],
                    limit=VIEWER_NODES,
                )
            )
    facts.append(message("pp.fact.command", command=pack["command"]))
    package = game_package(pack["rules"])
    texts, board_script = page_texts(package, kind.title)
    play_script = game_asset(package, "packplay.js") if kind.page_action else ""
    section = """<section id="view">
<h2 id="title"></h2>
<div id="diagram"></div>
<div id="status" data-state="play" role="status" aria-live="polite"></div>
<p id="prompt" aria-live="polite"></p>
<div id="actions" role="group" data-i18n-label="pp.actions"></div>
<div id="controls">
<button id="restart" type="button" data-i18n="pp.restart"></button>
<button id="takeback" type="button" data-i18n="pp.takeback"></button>
<button id="hint" type="button" data-i18n="pp.solution"></button>
</div>
<div id="moves"></div>
</section>"""
    return page(
        heading=message("pp.title", game=message("pp.game"), count=count),
        facts=facts,
        section=section,
        data=data,
        css=[asset("packpage.css")],
        scripts=[board_script, play_script, asset("packpage.js")],
        texts=texts,
        lang=lang,
    )
