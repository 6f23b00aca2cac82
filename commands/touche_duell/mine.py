"""``fechtbuch touche mine``: mine a pack of "sicherer Treffer" exercises, resumable
and parallel: the generic loop (:mod:`fechtbuch.puzzles.minekit`) with the duel's
mining kind (:mod:`fechtbuch.puzzles.touche_duell.minekind`).
"""

from __future__ import annotations

import click
from fechtbuch.commands.mineoptions import count_option, lengths_option, mine_options
from fechtbuch.commands.options import int_range
from fechtbuch.puzzles.minekit import MineRun, run_mine
from fechtbuch.puzzles.touche_duell.exercises import EXAMINE_NODES, MAX_N
from fechtbuch.puzzles.touche_duell.minekind import DEFAULT_ROUNDS, KIND


@click.command("mine")
@mine_options(
    output="touche-uebungen.json",
    rounds=DEFAULT_ROUNDS,
    round_what="one self-play round and the views of the player to act",
    seed_what="the self-play rounds (deals, starters, the players' choices)",
)
@lengths_option(1, MAX_N, "turns")
@count_option(12, 200)
@click.option(
    "--max-nodes",
    type=int_range(100),
    default=EXAMINE_NODES,
    show_default=True,
    help="Proof nodes per view before it is skipped (more finds more, slower).",
)
def mine_command(run: MineRun, ns: tuple[int, ...], count: int, max_nodes: int) -> int:
    """Mine "sicherer Treffer" exercises: sure wins in exactly N own turns.

    Seeded self-play rounds (standard and fortgeschritten, the frozen mining
    policy meister-2026 on both sides); every view of the player to act is proved by
    df-pn (a sure win whatever the opponent holds and the pile brings), kept with
    exactly one key and N = 1 not trivial, confirmed by the independent verifier,
    deduplicated up to the mirror, tagged and rated.  CP-SAT picks the pack for
    variety (levels, motifs, rounds).  The pack is format version 2 with whole
    solution trees.

    The same options give a byte-identical pack for any -j.  Ctrl-C keeps the pool
    in OUTPUT.partial; run again with --resume to continue.

    \b
    Examples:
      fechtbuch touche mine -o touche-uebungen.json      # 12 per N = 1, 2, 3
      fechtbuch touche mine --n 1 --count 4 --seed 7 -j 2 -o quick.json
    """
    ns = tuple(sorted(set(ns))) or tuple(range(1, MAX_N + 1))
    # --rounds only bounds the work: a resumed run may raise it
    params = {"ns": list(ns), "count": count, "seed": run.seed, "max_nodes": max_nodes}
    return run_mine(KIND, params, run)
