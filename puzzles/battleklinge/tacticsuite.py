"""The engine's tactics suite: positions with a forced hit in 3 to 6 own moves.

Drawn from self-play (``engines.battleklinge.evalfit``: random deals, node-budget
play) near the end of decided games, and solved exactly by the solver (df-pn):
the suite stores the shortest distance and every key move.  It lives in
puzzles/ because engines/ may not import solver/; the engine benchmark
(``engines.battleklinge.meisterbench tactics``) only reads the file.

Command (writes data/bench/tactics.jsonl)::

    fechtbuch bench tactics-suite \\
        -o data/bench/tactics.jsonl --per-distance 25
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.evalfit import generate
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.solver.battleklinge.api import solve

TAIL = 14
"""Positions this close to the end of a decided game are tried."""


def build_suite(
    per_distance: int, seed: int, games_per_round: int, max_nodes: int, echo
) -> list[dict]:
    found: dict[int, list[dict]] = {d: [] for d in range(3, 7)}
    seen: set[str] = set()
    round_ = 0
    while any(len(v) < per_distance for v in found.values()) and round_ < 20:
        samples = generate(games_per_round, seed * 1000 + round_, 3000, 8, 160, 1)
        round_ += 1
        by_game: dict[int, list] = {}
        for s in samples:
            by_game.setdefault(s.game, []).append(s)
        for game in by_game.values():
            if game[-1].result == 0.5:
                continue
            for s in game[-TAIL:]:
                if s.result != 1.0 or s.position in seen:
                    continue
                seen.add(s.position)
                pos = Position.from_text(s.position)
                short = solve(pos, max_n=2, max_nodes=max_nodes)
                if short.status != "solved" or short.distance is not None:
                    continue
                result = solve(pos, max_n=6, max_nodes=max_nodes)
                d = result.distance
                if result.status != "solved" or d is None or len(found[d]) >= per_distance:
                    continue
                found[d].append(
                    {
                        "position": s.position,
                        "distance": d,
                        "keys": sorted(m.to_text() for m in result.keys),
                    }
                )
        echo(f"round {round_}: " + ", ".join(f"#{d} {len(v)}" for d, v in found.items()))
    suite = []
    for d in range(3, 7):
        for i, row in enumerate(found[d], 1):
            suite.append({"id": f"t{d}-{i:03d}", **row})
    return suite
