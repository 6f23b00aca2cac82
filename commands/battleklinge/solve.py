"""``fechtbuch solve``: prove forced hits for a position from the command line."""

from __future__ import annotations

import os
from pathlib import Path

import click
from fechtbuch.commands.battleklinge.params import POSITION
from fechtbuch.commands.battleklinge.tablebase import TABLES_HELP
from fechtbuch.commands.options import emit_json, int_range, json_option, runs_option
from fechtbuch.commands.solveoptions import (
    max_nodes_option,
    max_option,
    time_limit_option,
    tree_options,
    verify_option,
)
from fechtbuch.engines.errors import quote
from fechtbuch.engines.files import atomic_write, dump_json, ensure_writable
from fechtbuch.solver.battleklinge.api import (
    DEFAULT_TABLE_MB,
    DEFAULT_VERIFY_NODES,
    SolverLimit,
    solve,
)
from fechtbuch.solver.battleklinge.bench import BENCH_TABLE_MB, run_bench
from fechtbuch.solver.dfpn import MAX_BUDGET


def _warn_without_tables(position, root: Path) -> None:
    """A --tables folder without tables of the position's card set is said in one line
    (a mistyped folder would otherwise pass unnoticed); df-pn searches as without it."""
    from fechtbuch.engines.battleklinge.cards import card_id
    from fechtbuch.engines.battleklinge.tablebase import table_folder
    from fechtbuch.engines.battleklinge.tablebase.build import MANIFEST

    if not os.path.lexists(table_folder(position.cards, root) / MANIFEST):
        ids = ",".join(card_id(c) for c in sorted(position.cards))
        click.echo(
            f"fechtbuch: warning: tables: none for the cards {ids!r} under {quote(root)}; "
            "searching instead",
            err=True,
        )


@click.command("solve")
@click.argument("position", type=POSITION)
@max_option(MAX_BUDGET, 3, "look for hits within N own moves of either side")
@json_option("the fields above")
@tree_options("the solution tree (JSON) of the side to move")
@verify_option("the independent minimax verifier")
@max_nodes_option(None, "50M")
@click.option(
    "--verify-nodes",
    type=int_range(1),
    default=DEFAULT_VERIFY_NODES,
    show_default=True,
    help="Node limit of the --verify minimax.",
)
@time_limit_option()
@click.option(
    "--table-mb",
    type=int_range(1, 8192),
    default=DEFAULT_TABLE_MB,
    show_default=True,
    help="Transposition table size in MiB.",
)
@click.option(
    "--tables",
    "tables_dir",
    type=click.Path(path_type=Path),
    default=None,
    help=TABLES_HELP + "  Tables that fail their checks are reported in one line and "
    "not used (df-pn searches instead).",
)
@click.option("--no-tables", is_flag=True, help="Always search with df-pn, even with a table.")
def solve_command(
    position,
    max_n,
    as_json,
    tree_file,
    force,
    verify,
    max_nodes,
    verify_nodes,
    time_limit,
    table_mb,
    tables_dir,
    no_tables,
):
    """Prove or refute a forced hit (Treffer) for POSITION within --max own moves.

    Finds the exact distance (smallest N with a forced hit for the side to
    move), every key (first move that keeps the hit), the main line (fastest
    key, longest defence, fastest finish), or, when the side to move is lost,
    in how many opponent moves and its longest defence.

    \b
    Example:
      fechtbuch solve '2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte'
      Gold hits in 1. Key: ausfall:c3c5 (the only winning move). Main line: ausfall:c3c5

    JSON fields: position, max, distance, keys, loss_in, main_line,
    longest_defence, nodes, seconds, verified, status.  Exit status: 0 with an
    answer, 1 when a limit made it unknown or --verify failed or gave up, 2 on
    bad input.  --max accepts up to 8; df-pn proves the start position to 7 in
    seconds, but the table-less verifier gives up beyond about 6.

    When an endgame table covers POSITION (fechtbuch tb build), the answer comes
    from it, exact at any distance (beyond --max too), and says so; --verify then
    cross-checks it with df-pn where df-pn reaches (8 own moves).  JSON adds
    "source": "tablebase" and "draw".
    """
    if tree_file:
        ensure_writable(tree_file, force)  # before the search spends its time
    if tables_dir is not None and not no_tables:
        _warn_without_tables(position, tables_dir)
    result = solve(
        position,
        max_n=max_n,
        max_nodes=max_nodes,
        time_limit=time_limit,
        table_mb=table_mb,
        verify=verify,
        verify_max_nodes=verify_nodes,
        tables=False if no_tables else (tables_dir or True),
    )
    tree_failed = False
    if tree_file and result.status == "solved":
        try:
            tree = result.tree()
        except SolverLimit:
            tree, tree_failed = None, True
            click.echo("note: no tree written: a limit was reached while building it", err=True)
        if tree is None and not tree_failed:
            click.echo("note: no tree written: the side to move has no forced hit", err=True)
        elif tree is not None:
            atomic_write(tree_file, dump_json(tree.to_json()), force=force)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(result.summary())
        if verify and result.status == "solved":
            if result.from_tables:
                checked = "Cross-checked with df-pn." if result.verified else "NOT CONFIRMED"
                click.echo(f"{checked} {result.verify_note}".strip())
            elif result.verify_note:
                click.echo(
                    f"Not verified: {result.verify_note} (plain minimax has no table; "
                    "a smaller --max or a larger --verify-nodes helps)."
                )
            else:
                click.echo("Verified by minimax." if result.verified else "VERIFICATION FAILED.")
    if result.status != "solved" or (verify and not result.verified) or tree_failed:
        return 1
    return 0


@click.command("solve")
@runs_option(3, 20)
@click.option(
    "--table-mb",
    type=int_range(1, 8192),
    default=BENCH_TABLE_MB,
    show_default=True,
    help="Table size in MiB; the node signature holds only at the default.",
)
@json_option()
def bench_solve_command(runs: int, table_mb: int, as_json: bool) -> int:
    """Solve the 220-position suite in data/bench/solver.jsonl (bound 4), check every
    answer, and print positions/s, nodes/s and the median proof size (median of runs)."""
    reports = [run_bench(table_mb=table_mb) for _ in range(runs)]
    report = sorted(reports, key=lambda r: r.seconds)[len(reports) // 2]
    if as_json:
        emit_json(
            {
                "positions": report.positions,
                "wrong": report.wrong,
                "nodes": report.nodes,
                "median_seconds": round(report.seconds, 4),
                "positions_per_second": round(report.positions / report.seconds, 1),
                "nodes_per_second": round(report.nodes / report.seconds),
                "median_proof_nodes": report.median_nodes,
                "runs": runs,
                "seconds_all_runs": [round(r.seconds, 4) for r in reports],
            }
        )
    else:
        for line in report.lines():
            click.echo(line)
        times = ", ".join(f"{r.seconds:.3f}" for r in reports)
        click.echo(f"runs {runs} (median shown): {times} s")
    return 1 if report.wrong else 0
