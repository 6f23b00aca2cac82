"""``fechtbuch pyramiden mine``: a version-2 pack of Touché-in-N exercises (written atomically)."""

from __future__ import annotations

import shlex
from collections import Counter

import click
from fechtbuch.engines import __version__
from fechtbuch.engines.clikit import atomic_write, dump_json, int_range
from fechtbuch.puzzles.pyramiden.exercises import Exercise, mine

PACK_FORMAT = "fechtbuch-pack"
PACK_VERSION = 2
RULES = "touche-pyramiden"


def build_pack(exercises: list[Exercise], seed: int, max_n: int, command: str) -> dict:
    """The version-2 pack (docs/puzzles.md, "Pack format"): puzzles by N, difficulty, id."""
    puzzles = sorted(
        (e.to_json() for e in exercises), key=lambda p: (p["n"], p["difficulty"], p["id"])
    )
    return {
        "format": PACK_FORMAT,
        "version": PACK_VERSION,
        "rules": RULES,
        "generator": {"name": "fechtbuch", "version": __version__},
        "seed": seed,
        "command": command,
        "max_n": max_n,
        "order": "n,difficulty,id",
        "solution": "pruned",
        "puzzles": puzzles,
    }


@click.command("mine")
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), help="Pack file (JSON)."
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="Seed of the candidate games (any integer).",
)
@click.option(
    "--candidates",
    type=int_range(1),
    default=300,
    show_default=True,
    help="States of seeded two-player games to examine (random and threat-building play).",
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
@click.option(
    "--per-n",
    type=int_range(1),
    default=None,
    help="At most this many per N; stop when every N has them.",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
def mine_command(output, seed, candidates, max_n, max_nodes, per_n, force, quiet):
    """Mine "Touché in N" exercises (exactly one key, verified) into a version-2 pack.

    \b
    Example:
      fechtbuch pyramiden mine -o uebungen.json --seed 7 --candidates 300 --max 2
      N=1: 9 N=2: 1

    Each puzzle: id, n, position (view of the seat to move), key, line, solution
    (pruned tree), tags, difficulty, pattern.  The pack records the command; the same
    seed and options give the same file byte for byte.
    """
    progress = None if quiet else (lambda text: click.echo(text, err=True))
    exercises = mine(str(seed), candidates, max_n, max_nodes, per_n, progress)
    parts = ["fechtbuch", "pyramiden", "mine", "-o", click.format_filename(output).split("/")[-1]]
    parts += ["--seed", str(seed), "--candidates", str(candidates), "--max", str(max_n)]
    parts += ["--max-nodes", str(max_nodes)]
    if per_n is not None:
        parts += ["--per-n", str(per_n)]
    pack = build_pack(exercises, seed, max_n, shlex.join(parts))
    atomic_write(output, dump_json(pack), force=force)
    counts = Counter(e.n for e in exercises)
    click.echo(" ".join(f"N={n}: {counts[n]}" for n in sorted(counts)) or "none found")
    return 0
