"""The Touché duel's command-line group: the engine's commands with the solver's
``solve``, the miner's ``mine``, ``play --pack`` and the benchmarks, built anew on each
call (no module-level group is changed); the commands of the higher layers are
imported only when they run, so ``touche show`` loads no solver and no pack code."""

from __future__ import annotations

import click
from fechtbuch.commands.lazygroup import LazyEntry, LazyGroup, extended

ENTRIES = (
    LazyEntry(
        "solve",
        "fechtbuch.commands.touche_duell.solve:touche_solve_command",
        "Prove a sure win (sicherer Treffer) for the player to act in VIEW.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.commands.touche_duell.mine:mine_command",
        'Mine "sicherer Treffer" exercises into a pack.',
    ),
    LazyEntry(
        "play",
        "fechtbuch.commands.touche_duell.group:play_command",
        "Play in the terminal (or an exercise of a pack with --pack).",
    ),
    LazyEntry(
        "bench",
        "fechtbuch.commands.touche_duell.group:bench_command",
        "Speed of the rules and the players; the prover's and the miner's benchmarks.",
    ),
)


def group() -> click.Group:
    """The ``fechtbuch touche-duell`` group (alias ``touche``)."""
    from fechtbuch.commands.touche_duell.engine import touche_group as base

    return extended("touche-duell", base, ENTRIES)


def play_command() -> click.Command:
    """The engine's ``play`` with ``--pack`` and ``--puzzle``."""
    from fechtbuch.commands.touche_duell.engine import touche_group as base
    from fechtbuch.commands.touche_duell.play import with_pack_option

    return with_pack_option(base.commands["play"])


def bench_command() -> click.Group:
    """The engine's ``bench`` with the other benchmarks as subcommands."""
    from fechtbuch.commands.touche_duell.engine import touche_group as base

    return bench_group(base.commands["bench"])


BENCH_TOOLS = (
    ("proof", "fechtbuch.solver.touche_duell.bench:main", "The sure-win prover on a fixed set."),
    (
        "crosscheck",
        "fechtbuch.solver.touche_duell.crosscheck:main",
        "Prover, verifier and brute force agree on every view of a set.",
    ),
    ("mine", "fechtbuch.puzzles.touche_duell.minebench:main", "Where a mining round's CPU goes."),
)


def bench_group(rules_bench: click.Command) -> click.Group:
    """``bench``: the rules' speed as before (no subcommand), and the duel's other
    benchmarks as subcommands, so every benchmark is ``fechtbuch GAME bench ...``."""

    def callback(**options):
        if click.get_current_context().invoked_subcommand is None:
            return rules_bench.callback(**options)
        return None

    entries = [
        LazyEntry(name, "fechtbuch.commands.lazygroup:passthrough", text, args=(name, ref, text))
        for name, ref, text in BENCH_TOOLS
    ] + [
        LazyEntry(
            "rating-ladder",
            "fechtbuch.commands.touche_duell.rating:rating_ladder_command",
            "Elo of the rating panel's members, by matches between neighbours.",
        ),
        LazyEntry(
            "rating-start",
            "fechtbuch.commands.touche_duell.rating:rating_start_command",
            "Where exercise ratings start, fitted on database exercises.",
        ),
    ]
    return LazyGroup(
        "bench",
        entries=entries,
        callback=callback,
        params=rules_bench.params,
        help=rules_bench.help,
        short_help=rules_bench.short_help,
        invoke_without_command=True,
    )
