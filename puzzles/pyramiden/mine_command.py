"""``fechtbuch pyramiden mine``: Touché-in-N exercises as a JSON list (written atomically)."""

from __future__ import annotations

from collections import Counter

import click
from fechtbuch.engines.clikit import atomic_write, dump_json, int_range
from fechtbuch.puzzles.pyramiden.exercises import mine


@click.command("mine")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="JSON file.")
@click.option("--seed", default="1", show_default=True, help="Seed of the candidate games.")
@click.option(
    "--candidates",
    type=int_range(1),
    default=300,
    show_default=True,
    help="States of seeded two-player games to examine.",
)
@click.option(
    "--max",
    "max_n",
    type=int_range(1, 3),
    default=2,
    show_default=True,
    help="Keep Touché in exactly N own turns for N up to this bound.",
)
@click.option(
    "--max-nodes",
    type=int_range(1),
    default=30_000,
    show_default=True,
    help="Node limit per candidate (larger finds more N = 2, 3, slower).",
)
@click.option("--per-n", type=int_range(1), default=None, help="At most this many per N.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
def mine_command(output, seed, candidates, max_n, max_nodes, per_n, force, quiet):
    """Mine "Touché in N" exercises (exactly one key, verified) from seeded play.

    \b
    Example:
      fechtbuch pyramiden mine -o uebungen.json --seed 7 --candidates 300 --max 2
      N=1: 9

    Each exercise: position (view of the seat to move), n, key, line, solution
    (tree), tags, difficulty, pattern.  The same seed and options give the same file
    byte for byte.
    """
    progress = None if quiet else (lambda text: click.echo(text, err=True))
    exercises = mine(seed, candidates, max_n, max_nodes, per_n, progress)
    atomic_write(output, dump_json([e.to_json() for e in exercises]), force=force)
    counts = Counter(e.n for e in exercises)
    click.echo(" ".join(f"N={n}: {counts[n]}" for n in sorted(counts)) or "none found")
    return 0
