"""Battleklinge's command-line group: every command of the game, imported on use.

Battleklinge was fechtbuch's first game, so its commands are also reachable without
the game's name (``fechtbuch solve ...`` is ``fechtbuch battleklinge solve ...``);
the plugin says so (``shortcuts``).  The table lives at this layer because the
commands come from every layer below (engines, solver, puzzles).
"""

from __future__ import annotations

import click
from fechtbuch.commands.lazygroup import LazyEntry, LazyGroup

ENTRIES: tuple[LazyEntry, ...] = (
    LazyEntry(
        "analyse",
        "fechtbuch.commands.battleklinge.engine:analyse",
        "Rate every move of a game record and show the turning point.",
    ),
    LazyEntry(
        "bench",
        "fechtbuch.commands.battleklinge.group:bench_group",
        "Fixed benchmarks that print their figures (perft, solve, mine, engine).",
    ),
    LazyEntry(
        "daily",
        "fechtbuch.commands.battleklinge.daily:daily_group",
        "The daily duel (Tagesduell): one card set, deal and school per date.",
    ),
    LazyEntry(
        "hint",
        "fechtbuch.commands.battleklinge.engine:hint",
        'A good move in POSITION ("Rat") with its evaluation.',
    ),
    LazyEntry(
        "match",
        "fechtbuch.commands.battleklinge.engine:match",
        "Play strength A against strength B and print the score.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.commands.battleklinge.mine:mine_command",
        "Mine exercises (Fechtuebungen): forced hits in exactly N moves.",
    ),
    LazyEntry(
        "perft",
        "fechtbuch.commands.battleklinge.perft:perft_command",
        "Count the leaves DEPTH plies below POSITION.",
    ),
    LazyEntry("play", "fechtbuch.commands.battleklinge.play:play_command", "Play in the terminal."),
    LazyEntry(
        "render",
        "fechtbuch.commands.render:render_command",
        "Draw POSITION as an SVG diagram.",
        args=("battleklinge",),
    ),
    LazyEntry(
        "show",
        "fechtbuch.commands.battleklinge.show:show_command",
        "Draw POSITION in the terminal: board, banners, hands, side card.",
    ),
    LazyEntry(
        "solve",
        "fechtbuch.commands.battleklinge.solve:solve_command",
        "Prove or refute a forced hit (Treffer) for POSITION within N moves.",
    ),
    LazyEntry(
        "tb",
        "fechtbuch.commands.battleklinge.group:tb_group",
        "Endgame tablebases: build, probe, studies.",
    ),
)
"""Every Battleklinge command, by name."""

BENCH_ENTRIES: tuple[LazyEntry, ...] = (
    LazyEntry(
        "engine",
        "fechtbuch.commands.battleklinge.enginebench:bench_engine_command",
        "Engine search nodes/s and seconds per move of each strength.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.commands.battleklinge.mine:bench_mine_command",
        "Mine the shipped pack from scratch (its recorded command), timed.",
    ),
    LazyEntry(
        "perft",
        "fechtbuch.commands.battleklinge.perft:bench_perft_command",
        "Leaves/s of perft DEPTH from the einsteiger start.",
    ),
    LazyEntry(
        "rating-ladder",
        "fechtbuch.commands.battleklinge.rating:rating_ladder_command",
        "Elo of the rating panel's members, by matches between neighbours.",
    ),
    LazyEntry(
        "rating-start",
        "fechtbuch.commands.battleklinge.rating:rating_start_command",
        "Where exercise ratings start, fitted on database exercises.",
    ),
    LazyEntry(
        "solve",
        "fechtbuch.commands.battleklinge.solve:bench_solve_command",
        "Solve the 220-position suite; positions/s, nodes/s, the node signature.",
    ),
    LazyEntry(
        "startup",
        "fechtbuch.commands.startupbench:bench_startup_command",
        "Seconds and memory of 'fechtbuch --help' and 'show' as whole processes.",
    ),
    LazyEntry(
        "eval-fit",
        "fechtbuch.commands.lazygroup:passthrough",
        "Self-play positions and the logistic fit of the evaluation weights.",
        args=(
            "eval-fit",
            "fechtbuch.commands.battleklinge.evalfit:main",
            "Self-play positions and the logistic fit of the evaluation weights.",
        ),
    ),
    LazyEntry(
        "meister",
        "fechtbuch.commands.lazygroup:passthrough",
        "The Meister's search: depth, nodes/s, time limits, the tactics suite.",
        args=(
            "meister",
            "fechtbuch.commands.battleklinge.meisterbench:main",
            "The Meister's search: depth, nodes/s, time limits, the tactics suite.",
        ),
    ),
    LazyEntry(
        "tactics-suite",
        "fechtbuch.commands.lazygroup:passthrough",
        "Build the tactics suite (data/bench/tactics.jsonl) from decided games.",
        args=(
            "tactics-suite",
            "fechtbuch.commands.battleklinge.tacticsuite:main",
            "Build the tactics suite (data/bench/tactics.jsonl) from decided games.",
        ),
    ),
    LazyEntry(
        "tune-eval",
        "fechtbuch.commands.battleklinge.tuning:bench_tune_eval_command",
        "Self-play tuning: each evaluation feature off, halved and doubled.",
    ),
)


def group() -> LazyGroup:
    """The ``fechtbuch battleklinge`` group (a new object on every call)."""
    return LazyGroup(
        "battleklinge",
        entries=ENTRIES,
        help="Battleklinge: a 5x5 board, a master and four students per school, "
        "five of sixteen movement cards.  Every command here also runs without the "
        "game's name (fechtbuch solve ... is fechtbuch battleklinge solve ...).",
        context_settings={"help_option_names": ["-h", "--help"]},
    )


def bench_group() -> LazyGroup:
    """``bench``: one group of Battleklinge's benchmarks."""
    from fechtbuch.commands.battleklinge.engine import bench_group as base

    return LazyGroup(base.name, entries=BENCH_ENTRIES, help=base.help)


def tb_group() -> click.Group:
    """``tb``: the tables' commands, and the studies mined from them."""
    from fechtbuch.commands.battleklinge.studies import studies_command
    from fechtbuch.commands.battleklinge.tablebase import tb_group as base

    return click.Group(
        base.name, commands=[*base.commands.values(), studies_command], help=base.help
    )
