"""``fechtbuch pyramiden solve``: Touché in N for the seat to move of a two-player view."""

from __future__ import annotations

import click
from fechtbuch.commands.options import emit_json, json_option
from fechtbuch.commands.solveoptions import (
    max_nodes_option,
    max_option,
    time_limit_option,
    verify_option,
)
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, parse_touch_view, with_budget
from fechtbuch.solver.andor_solve import DEFAULT_MAX_NODES, AndOrAnswer, solve_problem

MAX_TURNS = 4


def solve_view(
    text: str,
    max_n: int,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
    verify: bool = False,
    with_tree: bool = True,
) -> AndOrAnswer:
    """The answer for a view (or full state) in notation; bad text raises ``InputError``."""
    node, pattern, _ = parse_touch_view(text)
    return solve_problem(
        TouchInN(pattern),
        with_budget(node, max_n),  # grouped keys: what cannot matter within max_n
        max_n,
        max_nodes=max_nodes,
        time_limit=time_limit,
        verify=verify,
        verify_max_nodes=None if max_nodes is None else 20 * max_nodes,
        with_tree=with_tree,
    )


def summary(answer: AndOrAnswer) -> str:
    if answer.status != "solved":
        return f"unknown within the limits ({answer.note}); {answer.nodes:,} nodes"
    if answer.distance is None:
        return (
            f"No sure Touché within {answer.max_n} own turns. "
            f"{answer.nodes:,} nodes, {answer.seconds:.2f} s"
        )
    keys = ", ".join(answer.keys)
    only = " (the only one)" if len(answer.keys) == 1 else ""
    return (
        f"Touché in {answer.distance}. Keys: {keys}{only}. "
        f"Main line: {' '.join(answer.main_line)}. {answer.nodes:,} nodes, {answer.seconds:.2f} s"
    )


@click.command("solve")
@click.argument("view")
@max_option(MAX_TURNS, 2, "a sure Touché within N own turns")
@json_option("the fields above")
@verify_option()
@click.option("--no-tree", is_flag=True, help="Leave the solution tree out (faster).")
@max_nodes_option(DEFAULT_MAX_NODES)
@time_limit_option()
def solve_command(view, max_n, as_json, verify, no_tree, max_nodes, time_limit):
    """Prove a sure Touché for the seat to move of VIEW within --max own turns.

    VIEW is a two-player view (``sicht=``, the seat to move) or a full state (seen
    by its seat to move).  "Sure" means whatever the opponent holds and draws: the
    opponent may play any card P has not seen, jokers included, and P's draws are
    the worst for P (docs/touche-pyramiden.md, "Touché in N").

    \b
    Example:
      fechtbuch pyramiden solve "$(cat view.txt)" --max 2 --verify
      Touché in 1. Keys: 4S:e8 (the only one). Main line: 4S:e8. 12 nodes, 0.00 s

    JSON fields: status (solved/unknown), max, distance (null: none within max),
    keys, main_line, tree (attacker node: key -> "win" or the node after it;
    defender node: {"replies": [{"actions": [...], "then": node}]}), nodes,
    seconds, verified, note.  Exit status: 0 with an answer, 1 when a limit made it
    unknown or --verify failed or gave up, 2 on bad input.
    """
    answer = solve_view(
        view, max_n, max_nodes, time_limit, verify=verify, with_tree=not no_tree and as_json
    )
    if as_json:
        emit_json(answer.to_json())
    else:
        click.echo(summary(answer))
        if verify and answer.status == "solved":
            if answer.verified is None:
                click.echo(f"Not verified: {answer.note}.")
            else:
                click.echo("Verified." if answer.verified else "VERIFICATION FAILED.")
    if answer.status != "solved" or (verify and not answer.verified):
        return 1
    return 0
