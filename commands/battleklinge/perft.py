"""Battleklinge's ``perft`` and ``bench perft`` commands."""

from __future__ import annotations

import statistics
import time

import click
from fechtbuch.commands.battleklinge.params import POSITION
from fechtbuch.commands.options import emit_json, int_range, json_option, runs_option
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.perft import check_suite, count_state, divide, load_suite, perft
from fechtbuch.engines.battleklinge.position import (
    START_EINSTEIGER,
    Position,
)
from tqdm import tqdm


@click.command("perft")
@click.argument("position", type=POSITION, default=START_EINSTEIGER)
@click.argument("depth", type=int_range(0, 10), default=6)
@click.option(
    "--divide", "by_first_move", is_flag=True, help="Print the leaf count under each first move."
)
@click.option("--stats", is_flag=True, help="Add time and leaves/s (start-up excluded).")
@json_option()
@click.option(
    "--suite",
    "suite_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Check every count of a perft suite file instead, up to --max-depth.",
)
@click.option(
    "--max-depth",
    type=int_range(1, 10),
    default=6,
    show_default=True,
    help="With --suite: the deepest counts to check.",
)
def perft_command(
    position: Position,
    depth: int,
    by_first_move: bool,
    stats: bool,
    as_json: bool,
    suite_file,
    max_depth: int,
) -> int:
    """Count the leaves DEPTH plies below POSITION (default: einsteiger start, 6).

    A decided position is one leaf and is not expanded; a position where no
    piece can move has two children, one pass per card.  The counts are the
    behaviour signature of the move generator:

    \b
      fechtbuch perft 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' 6
      9664055

    DEPTH goes up to 10 (minutes from the start position; 11 would take hours).
    Deep counts show a progress bar and stop at once on Ctrl-C.
    """
    if suite_file:
        return _check_perft_suite(suite_file, max_depth)
    perft(position, 1)  # load or compile the generator outside the timing
    started = time.perf_counter()
    with tqdm(desc="perft", unit=" chunks", disable=depth < 9 or None, leave=False) as bar:

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        split = divide(position, depth, progress) if by_first_move else []
        if by_first_move and split:
            leaves = sum(c for _, c in split)
        else:
            leaves = perft(position, depth, progress)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    if as_json:
        out = {"position": position.to_text(), "depth": depth, "leaves": leaves}
        if by_first_move:
            out["divide"] = {m.to_text(): c for m, c in split}
        if stats:
            out.update(seconds=round(seconds, 6), leaves_per_second=round(rate))
        emit_json(out)
        return
    for move, count in split:
        click.echo(f"{move} {count}")
    if by_first_move and split:
        click.echo("")
    click.echo(str(leaves))
    if stats:
        click.echo(f"time {seconds:.4f} s, {rate / 1e6:,.1f} M leaves/s")


def _check_perft_suite(path: str, max_depth: int) -> int:
    """Run a suite file (e.g. data/perft/battleklinge.perft); print the split of any
    wrong count; exit 1 on a failure."""
    cases = load_suite(path, "--suite")
    failures = check_suite(cases, max_depth=max_depth)
    for report in failures:
        click.echo(report)
    checked = sum(1 for c in cases for d in c.counts if d <= max_depth)
    click.echo(
        f"{path}: {len(cases)} positions, {checked} counts up to depth {max_depth}, "
        f"{len(failures)} wrong"
    )
    return 1 if failures else 0


@click.command("perft")
@click.option(
    "--depth",
    type=int_range(3, 10),
    default=8,
    show_default=True,
    help="Perft depth from the einsteiger start.",
)
@runs_option(5, 50)
@json_option()
def bench_perft_command(depth: int, runs: int, as_json: bool) -> None:
    """Leaves/s of perft DEPTH from the einsteiger start, single-threaded.

    Two figures: the search perft (last two plies counted in bulk, the way a
    perft for speed is measured) and the plain perft that makes every move
    (gen_moves + make_move per node, two plies shallower).
    """
    st = fast.state_from_position(Position.from_text(START_EINSTEIGER))
    fast.perft(st, 3)
    fast.perft_plain(st, 3)

    def measure(function, d):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            leaves = count_state(st, d, function)  # in chunks: Ctrl-C works at depth 10
            times.append(time.perf_counter() - started)
        return leaves, statistics.median(times)

    leaves, seconds = measure(fast.perft, depth)
    plain_leaves, plain_seconds = measure(fast.perft_plain, depth - 2)
    result = {
        "position": START_EINSTEIGER,
        "depth": depth,
        "leaves": leaves,
        "median_seconds": round(seconds, 4),
        "leaves_per_second": round(leaves / seconds),
        "plain_depth": depth - 2,
        "plain_leaves": plain_leaves,
        "plain_median_seconds": round(plain_seconds, 4),
        "plain_leaves_per_second": round(plain_leaves / plain_seconds),
        "runs": runs,
    }
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"perft {depth}: {leaves} leaves, median {seconds:.3f} s of {runs}, "
        f"{leaves / seconds / 1e6:,.0f} M leaves/s (bulk last plies)"
    )
    click.echo(
        f"perft {depth - 2} plain: {plain_leaves} leaves, median {plain_seconds:.3f} s, "
        f"{plain_leaves / plain_seconds / 1e6:,.1f} M leaves/s (every move made)"
    )
