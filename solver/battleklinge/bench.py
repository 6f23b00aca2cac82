"""The solver benchmark: a fixed suite of positions with known answers.

``data/bench/solver.jsonl`` holds 220 positions from random play over random
card sets (hits in 1-4, losses in 1-3, and quiet positions), each with the
distance, loss and keys at bound 4, confirmed by the minimax verifier when
the suite was made.  The total node count is the solver's behaviour
signature: a change that alters it changed the search, not only its speed.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import orjson
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.paths import data_file
from fechtbuch.solver.battleklinge.api import solve

SUITE = data_file("bench", "solver.jsonl")
BENCH_TABLE_MB = 16
"""The bench's table size, fixed (smaller than `solve`'s 64 MiB so the table fills and
replacement is exercised): the node count is the bench's signature, comparable only
at the same size."""


@dataclass
class BenchReport:
    positions: int
    wrong: list[str]
    nodes: int
    seconds: float
    median_nodes: float

    def lines(self) -> list[str]:
        return [
            f"positions {self.positions}, wrong {len(self.wrong)}, "
            f"nodes {self.nodes:,} (signature)",
            f"time {self.seconds:.3f} s: {self.positions / self.seconds:,.1f} positions/s, "
            f"{self.nodes / self.seconds / 1e6:,.2f} M nodes/s, median proof size "
            f"{self.median_nodes:,.0f} nodes",
        ]


def load_suite(path=SUITE) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def run_bench(path=SUITE, table_mb: int = BENCH_TABLE_MB) -> BenchReport:
    rows = load_suite(path)
    solve(Position.from_text(rows[0]["position"]), max_n=2)  # compile/load outside the timing
    wrong = []
    sizes = []
    nodes = 0
    started = time.perf_counter()
    for row in rows:
        result = solve(Position.from_text(row["position"]), max_n=row["max"], table_mb=table_mb)
        got = (result.distance, result.loss_in, [k.to_text() for k in result.keys])
        if result.status != "solved" or got != (row["distance"], row["loss_in"], row["keys"]):
            wrong.append(row["id"])
        sizes.append(result.nodes)
        nodes += result.nodes
    seconds = time.perf_counter() - started
    return BenchReport(len(rows), wrong, nodes, seconds, statistics.median(sizes))
