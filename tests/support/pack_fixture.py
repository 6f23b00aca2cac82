"""A small real puzzle pack for the viewer tests, built with the pure-Python reference.

Run as a script to write it: ``python tests/support/pack_fixture.py PACK.json``.

The positions were found by a seeded search over random games
(:func:`find_positions` with ``random.Random(8)``, and ``random.Random(9)`` for
a hit in 2 whose line needs the card choice: both hand cards reach the square);
their solution trees, lines and keys are computed here from the reference
rules at test time, so nothing in the pack is typed in by hand except the
starting positions.
"""

from __future__ import annotations

import hashlib
import random

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import CARDS
from fechtbuch.engines.battleklinge.position import BANNER, Move, Position
from fechtbuch.engines.battleklinge.sampling import random_game

# (position, N), each with exactly one key: Gold and Blau attacking, N = 1, 2, 3,
# a line that needs the card choice (4th), a hit by reaching the banner (5th).
FIXTURE_POSITIONS = (
    ("ss1ss/2m2/5/2S2/S1M1S g traverse,stoss moulinet,riposte ausfall", 2),
    ("s3S/3s1/1m1s1/M4/S4 b riposte,terz moulinet,battuta ausfall", 2),
    ("ss1s1/2ms1/2M2/S1S2/4S b traverse,riposte moulinet,stoss ausfall", 1),
    ("2s1s/S4/5/1M2S/1m3 g bindung,sixt ausfall,traverse riposte", 2),
    ("s3s/5/s1SmS/4s/S3M b ausfall,bindung riposte,volte stoss", 3),
)


def attacker_tree(pos: Position, n: int) -> dict:
    """Solution tree (the solver's tree format, docs/solver.md) of every move that forces a hit within n."""
    me = pos.turn
    node = {}
    for move in reference.legal_moves(pos):
        child = reference.play(pos, move)
        if child.winner() == me:
            node[move.to_text()] = "hit"
            continue
        if n <= 1 or child.winner() is not None:
            continue
        replies = {}
        for reply in reference.legal_moves(child):
            grand = reference.play(child, reply)
            sub = attacker_tree(grand, n - 1) if grand.winner() is None else {}
            if not sub:
                break
            replies[reply.to_text()] = sub
        else:
            node[move.to_text()] = dict(sorted(replies.items()))
    return dict(sorted(node.items()))


def distance(node: dict) -> int:
    """Own moves to the hit from an attacker node when both sides play best."""
    return min(
        1 if result == "hit" else 1 + max(distance(sub) for sub in result.values())
        for result in node.values()
    )


def main_line(tree: dict) -> list[str]:
    """Key, longest defence, shortest finish, ...; ties broken by sorted move text."""
    line, node = [], tree
    while True:
        move = min(
            sorted(node),
            key=lambda m: 1 if node[m] == "hit" else 1 + max(map(distance, node[m].values())),
        )
        line.append(move)
        if node[move] == "hit":
            return line
        replies = node[move]
        reply = max(sorted(replies), key=lambda r: distance(replies[r]))
        line.append(reply)
        node = replies[reply]


def hit_kind(pos: Position, line: list[str]) -> str:
    for text in line:
        pos = reference.play(pos, Move.from_text(text))
    winner = pos.winner()
    return "banner" if pos.masters[winner] == 1 << BANNER[1 - winner] else "master-captured"


def make_puzzle(text: str, n: int) -> dict:
    pos = Position.from_text(text)
    tree = attacker_tree(pos, n)
    line = main_line(tree)
    return {
        "id": "p-" + hashlib.sha256(f"{pos.to_text()}|{n}".encode()).hexdigest()[:12],
        "n": n,
        "position": pos.to_text(),
        "attacker": "gb"[pos.turn],
        "key": line[0],
        "line": line,
        "solution": tree,
        "tags": [hit_kind(pos, line)],
        # a measured stand-in within the schema's 1-10: the tree's size
        "difficulty": min(10.0, round(1 + len(str(tree)) / 1000, 1)),
        "cards": [CARDS[c].id for c in pos.cards],
    }


def make_pack() -> dict:
    return {
        "format": "fechtbuch-pack",
        "version": 1,
        "rules": "battleklinge",
        "generator": {"name": "tests/support/pack_fixture.py", "version": "0"},
        "seed": 8,
        "command": "tests/support/pack_fixture.py (reference solution trees)",
        "puzzles": [make_puzzle(text, n) for text, n in FIXTURE_POSITIONS],
    }


def find_positions(rng: random.Random, n: int, count: int) -> list[str]:
    """Positions from random play with a hit in exactly n and exactly one key."""
    found = []
    while len(found) < count:
        for pos in random_game(rng, max_plies=40)[4:]:
            if pos.winner() is not None or (n > 1 and attacker_tree(pos, n - 1)):
                continue
            tree = attacker_tree(pos, n)
            if len(tree) == 1 and pos.to_text() not in found:
                found.append(pos.to_text())
    return found


def cut_third_attacker_move(puzzle: dict) -> tuple[str, str]:
    """Prune an N = 3 puzzle's tree below its first two defences on the main line, as
    a pruned pack stores it: only the main line's last move stays there.  Returns
    (that move, another legal move there that the tree no longer holds)."""
    node, pos = puzzle["solution"], Position.from_text(puzzle["position"])
    for text in puzzle["line"][:4]:
        node = node[text]
        pos = reference.play(pos, Move.from_text(text))
    keep = puzzle["line"][4]
    node.clear()
    node[keep] = "hit"
    other = next(m.to_text() for m in reference.legal_moves(pos) if m.to_text() != keep)
    return keep, other


if __name__ == "__main__":
    import sys

    from fechtbuch.engines.files import atomic_write, dump_json

    atomic_write(sys.argv[1], dump_json(make_pack()), force="--force" in sys.argv)
