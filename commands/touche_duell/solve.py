"""``fechtbuch touche solve``: sure wins of the Touché duel under hidden cards.

The command lives in ``solver/`` (engines must not import the solver) and
``cli.py`` adds it to the ``touche`` group.
"""

from __future__ import annotations

import click
from fechtbuch.commands.options import emit_json, json_option
from fechtbuch.commands.solveoptions import (
    max_nodes_option,
    max_option,
    tree_options,
    verify_option,
)
from fechtbuch.engines.files import atomic_write, dump_json, ensure_writable
from fechtbuch.engines.touche_duell.chance import ChanceLimit, WinChance
from fechtbuch.engines.touche_duell.notation import View, format_view, parse_view
from fechtbuch.engines.touche_duell.public import root_problem
from fechtbuch.solver.andor_solve import FOUND, NONE, AndOrSolution, solve_andor

MAX_TURNS = 6
DEFAULT_CHANCE_NODES = 200_000
METHOD = "exact enumeration, hidden cards uniform given the view at each step"


class ViewType(click.ParamType):
    """A player's view in notation (the player to act must be the viewer)."""

    name = "VIEW"

    def convert(self, value, param, ctx):
        if isinstance(value, View):
            return value
        return parse_view(value)


def solve_view(
    view: View,
    max_n: int,
    max_nodes: int | None = None,
    verify: bool = False,
    with_tree: bool = True,
) -> AndOrSolution:
    """The sure-win answer for the player to act in ``view`` (see docs/solver.md)."""
    problem = root_problem(view)
    return solve_andor(
        problem, view, max_n, max_nodes=max_nodes, verify=verify, with_tree=with_tree
    )


def win_chance(view: View, max_n: int, max_nodes: int | None) -> dict:
    """The chance to win within ``max_n`` (engines/touche_duell/chance.py): value,
    exact fraction and method, or ``value: None`` when the node limit was reached."""
    counter = WinChance(view.viewer, max_nodes=max_nodes or DEFAULT_CHANCE_NODES)
    try:
        value = counter.chance(view, max_n)
    except ChanceLimit as limit:
        return {"value": None, "exact": None, "method": METHOD, "note": str(limit)}
    return {
        "value": round(float(value), 6),
        "exact": str(value),
        "method": METHOD,
        "nodes": counter.nodes,
    }


def chance_text(chance: dict) -> str:
    if chance["value"] is None:
        return f"Chance to win: unknown ({chance['note']})."
    return (
        f"Chance to win within the bound: {chance['value']:.4f} ({chance['exact']}), "
        f"{chance['method']}."
    )


def summary(result: AndOrSolution) -> str:
    if result.status == FOUND:
        keys = ", ".join(result.keys)
        return (
            f"Sure win in {result.distance}. Keys: {keys}. "
            f"Main line: {' | '.join(result.main_line)}. "
            f"{result.nodes:,} nodes, {result.seconds:.2f} s."
        )
    if result.status == NONE:
        return f"No sure win within {result.max_n}. {result.nodes:,} nodes, {result.seconds:.2f} s."
    return f"Unknown: {result.note}."


@click.command("solve")
@click.argument("view", type=ViewType())
@max_option(MAX_TURNS, 3, "own turns of the player to act (a parry is no turn, a riposte is)")
@json_option()
@verify_option()
@max_nodes_option(None)
@tree_options()
@click.option(
    "--probability",
    is_flag=True,
    help="When the win is not sure: the chance to win within --max with the hidden cards "
    "at random and the opponent's best replies (exact enumeration; see docs/solver.md).",
)
def touche_solve_command(view, max_n, as_json, verify, max_nodes, tree_file, force, probability):
    """Prove a sure win (sicherer Treffer) for the player to act in VIEW: a win of
    the round within --max own turns whatever the opponent holds, whatever the
    pile brings and whatever the opponent replies.

    \b
    Example:
      fechtbuch touche solve 'fortgeschritten 10-17 0:0 A zug 12355/?5 32313 ?3'
      Sure win in 1. Keys: l2a5x2. Main line: l2a5x2 | zieht 122 | r3. ...

    Wins count by a hit, the opponent blocked or the hand comparison (tree leaves
    say which: win:treffer, win:blockiert, win:vergleich).  JSON fields: root,
    max, status (found/none/unknown), distance, keys, main_line, tree_nodes,
    nodes, seconds, verified (null: the verifier reached the node limit), note.
    Exit status, as `fechtbuch solve`: 0 with an answer (a sure win, or none within
    --max), 1 when a limit made it unknown or --verify failed or gave up, 2 on bad
    input.
    """
    if tree_file:
        ensure_writable(tree_file, force)  # before the search spends its time
    result = solve_view(view, max_n, max_nodes=max_nodes, verify=verify, with_tree=bool(tree_file))
    chance = None
    if probability and result.status != FOUND:
        chance = win_chance(view, max_n, max_nodes)
    if tree_file and result.tree is not None:
        atomic_write(tree_file, dump_json({"root": format_view(view), "tree": result.tree}), force)
    if as_json:
        data = result.to_json()
        if probability:
            data["probability"] = chance
        emit_json(data)
    else:
        click.echo(summary(result))
        if chance is not None:
            click.echo(chance_text(chance))
        if verify and result.status != "unknown":
            if result.verified is None:
                click.echo(f"Not verified: {result.note}.")
            else:
                click.echo("Verified." if result.verified else "VERIFICATION FAILED.")
    if result.status == "unknown" or (verify and not result.verified):
        return 1
    return 0
