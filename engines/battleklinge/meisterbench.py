"""Benchmarks of the Meister's search (figures in docs/strength.md).

``middlegames``  write the fixed set of middle-game positions
                 (data/bench/middlegame.txt): one position from each of many
                 ``mittel`` self-play games, 12 to 30 plies in, with no
                 immediate hit and no forced hit within 2 for the side to move.
``depth``        depth reached and nodes/s at fixed times per move (plain search,
                 no forced-play checks), from the start position and on the set.
``movetime``     how far the Meister's actual move times (forced-play checks
                 included) deviate from ``--movetime`` (a benchmark, not a test:
                 the figures depend on the machine's load).
``tactics``      the tactics suite (data/bench/tactics.jsonl, made by
                 ``fechtbuch.puzzles.battleklinge.tacticsuite``): solve rate and mean time or
                 nodes until the search's best move becomes a key for good.

Run as ``fechtbuch bench meister COMMAND --help``.
"""

from __future__ import annotations

import random
import statistics
import time

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.search import HitSearch


def make_middlegames(count: int, seed: int) -> list[str]:
    from fechtbuch.engines.battleklinge.players import Player
    from fechtbuch.engines.battleklinge.sampling import random_cards, random_deal

    rng = random.Random(seed)
    hits = HitSearch()
    out: list[str] = []
    game = 0
    while len(out) < count:
        game += 1
        pos = random_deal(rng, random_cards(rng))
        players = [Player("mittel", seed=seed * 100_000 + 2 * game + c) for c in (0, 1)]
        target = rng.randrange(12, 31)
        for _ in range(target):
            pos = fast.play(pos, players[pos.turn].choose(pos).move)
            if pos.winner() is not None:
                break
        if pos.winner() is not None:
            continue
        if fast.winning_move(fast.state_from_position(pos)) >= 0:
            continue
        if hits.distance(pos, 2) is not None:
            continue
        out.append(pos.to_text())
    return out




def read_positions(path: str, limit: int | None) -> list[Position]:
    with open(path, encoding="utf-8") as handle:
        rows = [Position.from_text(line.strip()) for line in handle if line.strip()]
    return rows[:limit] if limit else rows








def timed_choice(player, pos: Position) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one ``player.choose(pos)``.

    The driver's clock is wall time.  On a loaded machine the process gets a part of a
    core, so the wall time includes waiting for it while the CPU time is the work the
    driver did: a wall overrun with the CPU time well below the budget is the load
    (the process was not running when the time was up), a CPU time over the budget
    is the driver itself (work it cannot cut, such as the exact forced-play checks)."""
    cpu = time.process_time()
    wall = time.perf_counter()
    player.choose(pos)
    return time.perf_counter() - wall, time.process_time() - cpu


def budget_line(label: str, budget: float, used: list[float]) -> str:
    """Mean, median, max of the seconds used and how many moves overran by >10%."""
    over = [(u - budget) / budget for u in used]
    return (
        f"{label} mean {statistics.mean(used):.3f} s, median {statistics.median(used):.3f}, "
        f"max {max(used):.3f}; {sum(d > 0.10 for d in over)}/{len(over)} more than 10% over"
    )




