"""``fechtbuch bench meister``: the Meister's depth, thinking time and tactics on fixed
positions.
"""

from __future__ import annotations

import json
import statistics
import time

import click
from fechtbuch.commands.options import INT, float_range
from fechtbuch.engines.battleklinge.meisterbench import (
    budget_line,
    make_middlegames,
    read_positions,
    timed_choice,
)
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Move, Position
from fechtbuch.engines.battleklinge.search import Searcher
from fechtbuch.engines.paths import data_path

POSITIONS = click.option(
    "--positions",
    "path",
    type=click.Path(exists=True, dir_okay=False),
    default=lambda: str(data_path("bench", "middlegame.txt")),
    show_default="data/bench/middlegame.txt",
    help="The middle-game positions, one a line.",
)


@click.group()
def main() -> None:
    """Benchmarks of the Meister's search."""


@main.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--count", type=INT, default=200, show_default=True)
@click.option("--seed", type=INT, default=1, show_default=True)
@click.option("--force", is_flag=True)
def middlegames(output: str, count: int, seed: int, force: bool) -> None:
    """Write the fixed middle-game positions, one a line."""
    from fechtbuch.engines.files import atomic_write

    rows = make_middlegames(count, seed)
    atomic_write(output, ("\n".join(rows) + "\n").encode(), force=force)
    click.echo(f"{len(rows)} positions written to {output}")


@main.command()
@POSITIONS
@click.option("--limit", type=INT, default=None, help="Only the first N positions.")
@click.option("--movetime", "times", type=float_range(), multiple=True, default=(0.1, 1.0))
@click.option("--tt-bits", type=INT, default=20, show_default=True)
def depth(path: str, limit: int | None, times: tuple[float, ...], tt_bits: int) -> None:
    """Depth reached and nodes/s at fixed times (a fresh table per position)."""
    start = Position.from_text(START_EINSTEIGER)
    Searcher().search(start, max_depth=3)  # compile or load outside the timing
    sample = read_positions(path, limit)
    for t in times:
        r = Searcher(tt_bits=tt_bits).search(start, time_limit=t)
        click.echo(
            f"{t:g} s  start: depth {r.depth}, {r.nodes:,} nodes in {r.seconds:.3f} s, "
            f"{r.nodes / r.seconds / 1e6:.2f} M nodes/s"
        )
        depths, rates, secs, cpu_rates = [], [], [], []
        for pos in sample:
            cpu = time.process_time()
            r = Searcher(tt_bits=tt_bits).search(pos, time_limit=t)
            cpu = time.process_time() - cpu
            depths.append(r.depth)
            rates.append(r.nodes / max(r.seconds, 1e-9))
            cpu_rates.append(r.nodes / max(cpu, 1e-3))
            secs.append(r.seconds)
        click.echo(
            f"{t:g} s  {len(sample)} middle games: depth median {statistics.median(depths)}, "
            f"mean {statistics.mean(depths):.1f}, min {min(depths)}, max {max(depths)}; "
            f"{statistics.mean(rates) / 1e6:.2f} M nodes per wall second "
            f"({statistics.median(cpu_rates) / 1e6:.2f} M per CPU second, median); "
            f"mean {statistics.mean(secs):.3f} s used"
        )


@main.command()
@POSITIONS
@click.option("--limit", type=INT, default=40, show_default=True)
@click.option("--movetime", "times", type=float_range(), multiple=True, default=(0.1, 0.5, 1.0))
def movetime(path: str, limit: int, times: tuple[float, ...]) -> None:
    """Actual seconds per move of the Meister against --movetime: wall time (what a
    player waits) and CPU time of the process (what the driver spent; on a loaded
    machine the fraction of a core the process got is CPU / wall)."""
    from fechtbuch.engines.battleklinge.players import Player

    sample = read_positions(path, limit)
    Player("meister", movetime=0.05).choose(sample[0])  # compile or load
    for t in times:
        timed = [timed_choice(Player("meister", movetime=t), pos) for pos in sample]
        wall = [w for w, _ in timed]
        cpu = [c for _, c in timed]
        share = sum(cpu) / sum(wall)
        click.echo(
            f"--movetime {t:g}: " + budget_line("wall", t, wall) + "; " + budget_line("CPU", t, cpu)
        )
        deviation = [(w - t) / t for w in wall]
        click.echo(
            f"    wall deviation from the budget: mean {100 * statistics.mean(deviation):+.1f}%, "
            f"worst {100 * max(deviation):+.1f}%; the process got {100 * share:.0f}% of a core"
        )


@main.command()
@click.option(
    "--suite",
    "path",
    type=click.Path(exists=True, dir_okay=False),
    default=lambda: str(data_path("bench", "tactics.jsonl")),
    show_default="data/bench/tactics.jsonl",
)
@click.option("--movetime", "seconds", type=float_range(), default=None)
@click.option("--nodes", type=INT, default=None)
@click.option("--engine", type=click.Choice(["live", "2026"]), default="live", show_default=True)
def tactics(path: str, seconds: float | None, nodes: int | None, engine: str) -> None:
    """Solve rate and time to the key on the tactics suite."""
    if (seconds is None) == (nodes is None):
        raise click.UsageError("give --movetime or --nodes")
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    if engine == "2026":
        from fechtbuch.engines.battleklinge.meister2026.search import Searcher as Old

        make = lambda: Old(tt_bits=20)  # noqa: E731
    else:
        make = lambda: Searcher(tt_bits=20)  # noqa: E731
    make().search(Position.from_text(START_EINSTEIGER), max_depth=3)
    per: dict[int, list[tuple[bool, float, int]]] = {}
    for row in rows:
        pos = Position.from_text(row["position"])
        keys = {Move.from_text(k) for k in row["keys"]}
        trace: list[tuple[Move, float, int]] = []
        searcher = make()
        began = time.perf_counter()
        if engine == "2026":
            # the frozen driver has no iteration callback: deepen step by step
            result = None
            for d in range(1, 33):
                result = searcher.search(pos, max_depth=d, max_nodes=nodes, time_limit=seconds)
                trace.append((result.move, time.perf_counter() - began, result.nodes))
                if result.depth < d or abs(result.score) > 99_000:
                    break
        else:
            result = searcher.search(
                pos, max_nodes=nodes, time_limit=seconds,
                on_iteration=lambda d, m, s, n, t, trace=trace: trace.append((m, t, n)),
            )  # fmt: skip
        solved = result.move in keys
        found_t, found_n = float("nan"), -1
        if solved:
            for i in range(len(trace)):
                if all(m in keys for m, _, _ in trace[i:]):
                    found_t, found_n = trace[i][1], trace[i][2]
                    break
        per.setdefault(row["distance"], []).append((solved, found_t, found_n))
    total = [x for v in per.values() for x in v]
    for d in sorted(per) + ["all"]:
        items = total if d == "all" else per[d]
        ok = [x for x in items if x[0]]
        mean_t = statistics.mean(x[1] for x in ok) if ok else float("nan")
        mean_n = statistics.mean(x[2] for x in ok) if ok else float("nan")
        label = "all" if d == "all" else f"#{d}"
        click.echo(
            f"{label:4s} solved {len(ok)}/{len(items)} ({100 * len(ok) / len(items):.0f}%), "
            f"mean time to key {mean_t:.3f} s, mean nodes to key {mean_n:,.0f}"
        )


if __name__ == "__main__":
    main()
