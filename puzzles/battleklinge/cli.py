"""Battleklinge's command-line group: every command of the game, imported on use.

Battleklinge was fechtbuch's first game, so its commands are also reachable without
the game's name (``fechtbuch solve ...`` is ``fechtbuch battleklinge solve ...``);
the plugin says so (``shortcuts``).  The table lives at this layer because the
commands come from every layer below (engines, solver, puzzles).
"""

from __future__ import annotations

import click
from fechtbuch.engines.lazygroup import LazyEntry, LazyGroup

ENTRIES: tuple[LazyEntry, ...] = (
    LazyEntry(
        "analyse",
        "fechtbuch.engines.battleklinge.commands:analyse",
        "Rate every move of a game record and show the turning point.",
    ),
    LazyEntry(
        "bench",
        "fechtbuch.puzzles.battleklinge.cli:bench_group",
        "Fixed benchmarks that print their figures (perft, solve, mine, engine).",
    ),
    LazyEntry(
        "daily",
        "fechtbuch.puzzles.battleklinge.daily_commands:daily_group",
        "The daily duel (Tagesduell): one card set, deal and school per date.",
    ),
    LazyEntry(
        "hint",
        "fechtbuch.engines.battleklinge.commands:hint",
        'A good move in POSITION ("Rat") with its evaluation.',
    ),
    LazyEntry(
        "match",
        "fechtbuch.engines.battleklinge.commands:match",
        "Play strength A against strength B and print the score.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.puzzles.battleklinge.mine_commands:mine_command",
        "Mine exercises (Fechtuebungen): forced hits in exactly N moves.",
    ),
    LazyEntry(
        "perft",
        "fechtbuch.engines.battleklinge.perft:perft_command",
        "Count the leaves DEPTH plies below POSITION.",
    ),
    LazyEntry(
        "play", "fechtbuch.puzzles.battleklinge.play_commands:play_command", "Play in the terminal."
    ),
    LazyEntry(
        "render",
        "fechtbuch.puzzles.render_command:render_command",
        "Draw POSITION as an SVG diagram.",
        args=("battleklinge",),
    ),
    LazyEntry(
        "show",
        "fechtbuch.engines.battleklinge.textboard:show_command",
        "Draw POSITION in the terminal: board, banners, hands, side card.",
    ),
    LazyEntry(
        "solve",
        "fechtbuch.solver.battleklinge.commands:solve_command",
        "Prove or refute a forced hit (Treffer) for POSITION within N moves.",
    ),
    LazyEntry(
        "tb",
        "fechtbuch.puzzles.battleklinge.cli:tb_group",
        "Endgame tablebases: build, probe, studies.",
    ),
)
"""Every Battleklinge command, by name."""

BENCH_ENTRIES: tuple[LazyEntry, ...] = (
    LazyEntry(
        "engine",
        "fechtbuch.engines.battleklinge.enginebench:bench_engine_command",
        "Engine search nodes/s and seconds per move of each strength.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.puzzles.battleklinge.mine_commands:bench_mine_command",
        "Mine the shipped pack from scratch (its recorded command), timed.",
    ),
    LazyEntry(
        "perft",
        "fechtbuch.engines.battleklinge.perft:bench_perft_command",
        "Leaves/s of perft DEPTH from the einsteiger start.",
    ),
    LazyEntry(
        "rating-ladder",
        "fechtbuch.puzzles.battleklinge.rating_panel:rating_ladder_command",
        "Elo of the rating panel's members, by matches between neighbours.",
    ),
    LazyEntry(
        "rating-start",
        "fechtbuch.puzzles.battleklinge.rating_panel:rating_start_command",
        "Where exercise ratings start, fitted on database exercises.",
    ),
    LazyEntry(
        "solve",
        "fechtbuch.solver.battleklinge.bench:bench_solve_command",
        "Solve the 220-position suite; positions/s, nodes/s, the node signature.",
    ),
    LazyEntry(
        "startup",
        "fechtbuch.engines.startupbench:bench_startup_command",
        "Seconds and memory of 'fechtbuch --help' and 'show' as whole processes.",
    ),
    LazyEntry(
        "eval-fit",
        "fechtbuch.engines.lazygroup:passthrough",
        "Self-play positions and the logistic fit of the evaluation weights.",
        args=(
            "eval-fit",
            "fechtbuch.engines.battleklinge.evalfit:main",
            "Self-play positions and the logistic fit of the evaluation weights.",
        ),
    ),
    LazyEntry(
        "meister",
        "fechtbuch.engines.lazygroup:passthrough",
        "The Meister's search: depth, nodes/s, time limits, the tactics suite.",
        args=(
            "meister",
            "fechtbuch.engines.battleklinge.meisterbench:main",
            "The Meister's search: depth, nodes/s, time limits, the tactics suite.",
        ),
    ),
    LazyEntry(
        "tactics-suite",
        "fechtbuch.engines.lazygroup:passthrough",
        "Build the tactics suite (data/bench/tactics.jsonl) from decided games.",
        args=(
            "tactics-suite",
            "fechtbuch.puzzles.battleklinge.tacticsuite:main",
            "Build the tactics suite (data/bench/tactics.jsonl) from decided games.",
        ),
    ),
    LazyEntry(
        "tune-eval",
        "fechtbuch.engines.battleklinge.tuning:bench_tune_eval_command",
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
    from fechtbuch.engines.battleklinge.commands import bench_group as base

    return LazyGroup(base.name, entries=BENCH_ENTRIES, help=base.help)


def tb_group() -> click.Group:
    """``tb``: the tables' commands, and the studies mined from them."""
    from fechtbuch.engines.battleklinge.tbcommands import tb_group as base
    from fechtbuch.puzzles.battleklinge.studies_commands import studies_command

    return click.Group(
        base.name, commands=[*base.commands.values(), studies_command], help=base.help
    )
