"""The options every game's ``solve`` shares: one name and one help text per idea.

``--max`` (the bound N), ``--verify`` (the independent verifier), ``--max-nodes``,
``--time-limit``, ``--tree FILE`` with ``--force``, and ``--json`` (``commands/options.py``).  A
game's solve command adds only what is its own (Battleklinge's ``--tables``, the
duel's ``--probability``).

>>> option = max_option(6, 2, "a sure Touché within N own turns")
>>> option(lambda max_n: None).__click_params__[0].help
'Bound N: a sure Touché within N own turns.'
"""

from __future__ import annotations

import click
from fechtbuch.commands.options import float_range, int_range


def max_option(limit: int, default: int, bound: str):
    """``--max N``: the bound; ``bound`` says what N counts for this game."""
    return click.option(
        "--max",
        "max_n",
        type=int_range(1, limit),
        default=default,
        show_default=True,
        help=f"Bound N: {bound}.",
    )


def verify_option(verifier: str = "the independent verifier"):
    """``--verify``: re-derive distance and keys with a search that shares nothing with
    the prover (``verifier`` names it)."""
    return click.option(
        "--verify", is_flag=True, help=f"Re-derive distance and keys with {verifier}."
    )


def max_nodes_option(default: int | None, when_none: str = "none"):
    """``--max-nodes``: the prover's node limit (then the answer is 'unknown')."""
    shown = {"show_default": True} if default is not None else {}
    extra = "" if default is not None else f" (default {when_none})"
    return click.option(
        "--max-nodes",
        type=int_range(1),
        default=default,
        help=f"Node limit of the proof search{extra}.",
        **shown,
    )


def time_limit_option():
    """``--time-limit``: seconds for the whole answer (then it is 'unknown')."""
    return click.option(
        "--time-limit", type=float_range(0), default=None, help="Time limit in seconds."
    )


def tree_options(what: str = "the solution tree (JSON)"):
    """``--tree FILE`` (write ``what`` there, atomically) and ``--force``."""

    def decorate(command):
        command = click.option("--force", is_flag=True, help="Overwrite an existing --tree file.")(
            command
        )
        return click.option(
            "--tree",
            "tree_file",
            type=click.Path(dir_okay=False),
            default=None,
            help=f"Write {what} to this file.",
        )(command)

    return decorate
