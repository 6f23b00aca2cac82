"""Engine speed figures: search nodes/s and seconds per move of each strength.

Prints medians over a fixed, seeded set of positions from random games (so
the node counts are a behaviour signature: a change that alters them changed
what the search does).  Command: ``fechtbuch bench engine --positions 40``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from fechtbuch.engines.battleklinge.players import STRENGTHS
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Position
from fechtbuch.engines.battleklinge.sampling import live_positions
from fechtbuch.engines.battleklinge.search import Searcher
from fechtbuch.engines.players import PlayerFactory


def sample_positions(count: int, seed: int) -> list[Position]:
    """The bench's middle-game positions: from ply 4 of random games of up to 30 plies."""
    return live_positions(count, seed, max_plies=30, skip=4)


def run_engine_bench(
    positions: int, seed: int, echo: Callable[[str], None], players: PlayerFactory
) -> None:
    start = Position.from_text(START_EINSTEIGER)
    Searcher().search(start, max_depth=3)  # compile or load the cache outside the timing
    rates = []
    for _ in range(3):
        began = time.perf_counter()
        result = Searcher().search(start, max_depth=10)
        rates.append(result.nodes / (time.perf_counter() - began))
    echo(
        f"search depth 10 from the einsteiger start: {result.nodes} nodes, "
        f"median {statistics.median(rates) / 1e6:.1f} M nodes/s"
    )
    sample = sample_positions(positions, seed)
    for name in STRENGTHS:
        seconds, nodes = [], 0
        for pos in sample:
            choice = players.make(name, seed=1).choose(pos)
            seconds.append(choice.seconds)
            nodes += choice.nodes
        echo(
            f"{name:8s} mean {statistics.mean(seconds):.3f} s/move, "
            f"median {statistics.median(seconds):.3f}, max {max(seconds):.3f}, "
            f"{nodes} nodes over {len(sample)} positions"
        )


