"""``fechtbuch pyramiden mine``: a version-2 pack of Touché-in-N exercises, resumable
and parallel: the generic loop (:mod:`fechtbuch.puzzles.minekit`) with the pyramid
game's mining kind (:mod:`fechtbuch.puzzles.touche_pyramiden.minekind`)."""

from __future__ import annotations

import dataclasses

import click
from fechtbuch.commands.mineoptions import mine_options
from fechtbuch.commands.options import int_range
from fechtbuch.puzzles.minekit import MineRun, run_mine
from fechtbuch.puzzles.touche_pyramiden.minekind import DEFAULT_ROUNDS, KIND, build_pack

__all__ = ["build_pack", "mine_command"]


@click.command("mine")
@mine_options(
    output="pyramiden-uebungen.json",
    rounds=DEFAULT_ROUNDS,
    round_what="a pair of seeded two-player states, one of random and one of "
    "threat-building play, and their views",
    rounds_alias="--candidates",
    seed_what="the candidate games",
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
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
def mine_command(run: MineRun, max_n: int, max_nodes: int, per_n: int | None, quiet: bool) -> int:
    """Mine "Touché in N" exercises (exactly one key, verified) into a version-2 pack.

    \b
    Example:
      fechtbuch pyramiden mine -o uebungen.json --seed 7 --rounds 300 --max 2
      N=1: 9 N=2: 1          (after "Wrote uebungen.json: ...")

    Each puzzle: id, n, position (view of the seat to move), key, line, solution
    (pruned tree), tags, difficulty, pattern.  The pack records the command; the same
    seed and options give the same file byte for byte, for any -j.  Ctrl-C keeps
    what was found in OUTPUT.partial; run again with --resume to continue.
    """
    params = {"seed": run.seed, "max_n": max_n, "max_nodes": max_nodes, "per_n": per_n}
    return run_mine(KIND, params, dataclasses.replace(run, progress=not quiet))
