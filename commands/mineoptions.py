"""The options every ``mine`` command shares (one name, default and help per idea), handed
to the command as one :class:`~fechtbuch.puzzles.minekit.MineRun`.
"""

from __future__ import annotations

import functools
from pathlib import Path

import click
from fechtbuch.commands.options import int_range, jobs_option, json_option
from fechtbuch.puzzles.minekit import MineRun


def mine_options(
    *, output: str, rounds: int, seed_what: str, round_what: str, rounds_alias: str | None = None
):
    """The options every ``mine`` command shares, with one name, default style and
    help for each idea: -o/--output, --seed, --rounds (``rounds_alias``: an older
    name kept working), -j/--jobs, --resume, --force, --json.  The command receives
    them as one :class:`MineRun` argument ``run``; its own options come first in
    ``--help``."""

    def decorate(command):
        rounds_names = ["--rounds"] + ([rounds_alias] if rounds_alias else [])
        options = [
            click.option(
                "-o",
                "--output",
                type=click.Path(dir_okay=False, path_type=Path),
                default=Path(output),
                show_default=True,
                help="The pack file to write (atomically; never over a file without --force).",
            ),
            click.option(
                "--seed",
                type=int_range(0),
                default=1,
                show_default=True,
                help=f"Seed of {seed_what} (SHA-256 derived; the same seed, the same bytes).",
            ),
            click.option(
                *rounds_names,
                "max_rounds",
                type=int_range(1),
                default=rounds,
                show_default=True,
                help=f"Stop mining after this many seeded rounds even if the pool is not "
                f"full (a round: {round_what}).",
            ),
            jobs_option,
            click.option(
                "--resume", is_flag=True, help="Continue an interrupted run from OUTPUT.partial."
            ),
            click.option(
                "--force", is_flag=True, help="Overwrite OUTPUT (and start OUTPUT.partial over)."
            ),
            json_option("the summary"),
        ]

        @functools.wraps(command)  # keeps the game's own options (``__click_params__``)
        def wrapped(output, seed, max_rounds, jobs, resume, force, as_json, **game_options):
            run = MineRun(output, seed, max_rounds, jobs, resume, force, as_json)
            return command(run=run, **game_options)

        own = len(getattr(wrapped, "__click_params__", []))
        for option in reversed(options):
            wrapped = option(wrapped)
        params = wrapped.__click_params__  # click lists them in reverse: the game's first
        wrapped.__click_params__ = params[own:] + params[:own]
        return wrapped

    return decorate


def lengths_option(low: int, high: int, unit: str):
    """``--n`` (repeatable): the exercise lengths to mine, all of ``low..high`` by default."""
    default = " ".join(f"--n {n}" for n in range(low, high + 1))
    return click.option(
        "--n",
        "ns",
        type=int_range(low, high),
        multiple=True,
        help=f"Exercise length in own {unit}; repeat for several (default: {default}).",
    )


def count_option(default: int, maximum: int):
    """``--count``: exercises per N in the pack."""
    return click.option(
        "--count",
        type=int_range(1, maximum),
        default=default,
        show_default=True,
        help="Exercises per N in the pack.",
    )
