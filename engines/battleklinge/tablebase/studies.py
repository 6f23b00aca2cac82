"""Studies mined from the tables: unique key, forced hit in 4 to 10 own moves.

The puzzle dicts follow the pack format field for field (tags and difficulty are
placeholders: the puzzle layer derives them, puzzles/battleklinge/studies.py, which
also writes the version-2 pack ``data/packs/meisterstudien.json``); :class:`Study`
says beside each whether its solution tree is complete or pruned to the main line
plus every defence at the first two defender moves.  Everything comes from the
tables; ``verify`` (for example df-pn, wired in by the caller, since the engines
layer may not use the solver layer) confirms each study it can reach.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, card_id
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.reference import play
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase.probe import Outcome, Tablebase

FULL_TREE_LIMIT = 4000
"""Largest solution tree (nodes) shipped whole; larger ones are pruned."""


@dataclass
class Study:
    """A puzzle dict in pack format and what the pack schema cannot say yet."""

    puzzle: dict
    distance: int
    tree_complete: bool
    tree_nodes: int
    verified: bool | None


def _puzzle_id(position: str, n: int, key: str) -> str:
    # the content hash of puzzles.battleklinge.mining.puzzle_id (engines may not import puzzles)
    digest = hashlib.sha256(f"battleklinge/{position}/{n}/{key}".encode()).hexdigest()
    return "p-" + digest[:12]


class _TooLarge(Exception):
    pass


class _TreeBuilder:
    """Solution trees and main lines read from the tables (docs/solver.md terms)."""

    def __init__(self, tb: Tablebase):
        self.tb = tb

    def keys(self, pos: Position, budget: int) -> list[tuple[Move, int]]:
        """Moves keeping a hit within ``budget``, with the distance they keep, by text."""
        out = []
        for move, result in self.tb.move_results(pos):
            if result.result is Outcome.WIN and result.distance <= budget:
                out.append((move, result.distance))
        return sorted(out, key=lambda item: item[0].to_text())

    def replies(self, pos: Position) -> list[tuple[Move, Position, int]]:
        """Defender replies with the attacker's distance after each, by text."""
        out = []
        for move, result in self.tb.move_results(pos):
            assert result.result is Outcome.LOSS
            out.append((move, play(pos, move), result.distance))
        return sorted(out, key=lambda item: item[0].to_text())

    def main_line(self, pos: Position, budget: int) -> list[Move]:
        line: list[Move] = []
        while True:
            key, distance = min(self.keys(pos, budget), key=lambda item: item[1])
            line.append(key)
            after = play(pos, key)
            if after.winner() is not None:
                return line
            reply, pos, budget = max(self.replies(after), key=lambda item: item[2])
            line.append(reply)

    def tree(
        self, pos: Position, budget: int, full_depth: int, line: list[Move], limit: list[int]
    ) -> dict:
        """Attacker node; below ``full_depth`` defender moves only the main line (of the
        branch).  ``limit`` holds the nodes still allowed; :class:`_TooLarge` past it."""
        limit[0] -= 1
        if limit[0] < 0:
            raise _TooLarge
        if full_depth <= 0 and not line:
            line = self.main_line(pos, budget)
        node: dict = {}
        for key, _ in self.keys(pos, budget):
            if full_depth <= 0 and (not line or key != line[0]):
                continue
            after = play(pos, key)
            if after.winner() is not None:
                node[key.to_text()] = "hit"
                continue
            defender: dict = {}
            on_line = bool(line) and key == line[0]
            for reply, child, _ in self.replies(after):
                follows = on_line and len(line) > 1 and reply == line[1]
                if full_depth <= 0 and not follows:
                    continue
                rest = line[2:] if follows else []
                defender[reply.to_text()] = self.tree(
                    child, budget - 1, full_depth - 1, rest, limit
                )
            node[key.to_text()] = defender
        return node


class TreeTooLarge(Exception):
    """The full solution tree has more attacker nodes than allowed."""


def solution_tree(tb: Tablebase, pos: Position, max_nodes: int = 200_000) -> dict:
    """The full solution tree (the solver's format) of a won position, read from the tables:
    every key at every attacker node, every defender reply.  :class:`TreeTooLarge` past
    ``max_nodes`` attacker nodes (deep wins have huge trees)."""
    result = tb.probe(pos)
    if result.result is not Outcome.WIN:
        raise ValueError(f"position is not won for the side to move: {result}")
    try:
        return _TreeBuilder(tb).tree(pos, result.distance, result.distance, [], [max_nodes])
    except _TooLarge:
        raise TreeTooLarge(f"the solution tree has more than {max_nodes:,} nodes") from None


def _size(tree) -> int:
    if not isinstance(tree, dict):
        return 1
    return 1 + sum(_size(v) for v in tree.values())


def mine_studies(
    tb: Tablebase,
    count: int = 24,
    distances: range = range(10, 3, -1),
    split: tuple[int, int] = (1, 1),
    verify: Callable[[Position, int], bool | None] | None = None,
    label: str = "meisterstudien",
    full_tree_limit: int = FULL_TREE_LIMIT,
    witness: Callable[[Position], dict | None] | None = None,
) -> list[Study]:
    """Up to ``count`` studies, deepest first: Gold to move, material ``split``, a unique
    key and a forced hit in exactly d own moves, d taken from ``distances`` in turn.
    Candidates are visited in a SHA-256-seeded order; one per mirror class.  Trees up
    to ``full_tree_limit`` attacker nodes are complete, larger ones pruned (0: every
    tree pruned, as a pack with ``"solution": "pruned"`` needs).  With ``witness``
    (a game reaching the position, or None), a candidate without one is passed over,
    as a chess study must be a legal position, and the found game is the puzzle's
    ``witness`` field."""
    values = tb.split_values(split)
    builder = _TreeBuilder(tb)
    per_distance = -(-count // len(distances))
    seen: set[str] = set()
    studies: list[Study] = []
    for d in distances:
        candidates = np.flatnonzero(values == 2 * d - 1)
        if not candidates.size:
            continue
        seed = hashlib.sha256(f"{label}/{split}/{d}".encode()).digest()
        start = int.from_bytes(seed[:8], "little") % candidates.size
        stride = 1 + int.from_bytes(seed[8:16], "little") % max(1, candidates.size - 1)
        while np.gcd(stride, candidates.size) != 1:
            stride += 1
        taken = 0
        for i in range(min(candidates.size, 20000)):
            if taken == per_distance or len(studies) == count:
                break
            offset = int(candidates[(start + i * stride) % candidates.size])
            pos = ix.position_at(tb.cards, split, offset // 30, offset % 30)
            klass = min(pos.to_text(), pos.mirror().to_text())
            if klass in seen:
                continue
            keys = builder.keys(pos, d)
            if len(keys) != 1:
                continue
            game = witness(pos) if witness is not None else None
            if witness is not None and game is None:
                continue  # no game reaches it within the search's budget
            seen.add(klass)
            line = builder.main_line(pos, d)
            try:
                if full_tree_limit <= 0:
                    raise _TooLarge
                tree = builder.tree(pos, d, d, line, [full_tree_limit])
                complete = True
            except _TooLarge:
                tree = builder.tree(pos, d, 2, line, [10**9])
                complete = False
            text = pos.to_text()
            key = keys[0][0].to_text()
            puzzle = {
                "id": _puzzle_id(text, d, key),
                "n": d,
                "position": text,
                "attacker": COLOR_CHARS[pos.turn],
                "key": key,
                "line": [m.to_text() for m in line],
                "solution": tree,
                "tags": ["study", "tablebase"],
                "difficulty": float(min(10, d)),
                "cards": [card_id(c) for c in pos.cards],
            }
            if game is not None:
                puzzle["witness"] = game
            verified = verify(pos, d) if verify is not None else None
            studies.append(Study(puzzle, d, complete, _size(tree), verified))
            taken += 1
    return studies
