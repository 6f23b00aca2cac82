"""The Touché duel's command-line group: the engine's commands with the solver's
``solve``, the miner's ``mine`` and ``play --pack``, built anew on each call (no
module-level group is changed)."""

from __future__ import annotations

import click


def group() -> click.Group:
    """The ``fechtbuch touche-duell`` group (alias ``touche``)."""
    from fechtbuch.engines.touche_duell.commands import touche_group as base
    from fechtbuch.puzzles.touche_duell.mine_command import mine_command
    from fechtbuch.puzzles.touche_duell.play_command import with_pack_option
    from fechtbuch.solver.touche_duell.commands import touche_solve_command

    commands = dict(base.commands)
    commands["play"] = with_pack_option(commands["play"])
    commands["bench"] = bench_group(commands["bench"])
    return click.Group(
        "touche-duell",
        commands=[*commands.values(), touche_solve_command, mine_command],
        help=base.help,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


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
    from fechtbuch.engines.lazygroup import LazyEntry, LazyGroup

    def callback(**options):
        if click.get_current_context().invoked_subcommand is None:
            return rules_bench.callback(**options)
        return None

    entries = [
        LazyEntry(name, "fechtbuch.engines.lazygroup:passthrough", text, args=(name, ref, text))
        for name, ref, text in BENCH_TOOLS
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
