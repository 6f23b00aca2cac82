"""``fechtbuch tb``: build, probe and benchmark endgame tablebases (docs/tablebase.md)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES, card_id, parse_card_list
from fechtbuch.engines.battleklinge.clitypes import POSITION
from fechtbuch.engines.clikit import (
    emit_json,
    ensure_writable,
    int_range,
    json_option,
    make_output_folder,
)
from fechtbuch.engines.errors import InputError, quote


class CardSetType(click.ParamType):
    name = "CARDS"

    def convert(self, value, param, ctx):
        return parse_card_list(value) if isinstance(value, str) else value


@click.group("tb")
def tb_group() -> None:
    """Endgame tablebases: exact results for every position of one card set.

    \b
      fechtbuch tb build --cards einsteiger --students 1
      fechtbuch tb probe '2m2/5/1s3/1S3/2M2 g ausfall,volte bindung,stoss riposte'
    """


def _print_report(report) -> None:
    click.echo(
        f"{'split':>6} {'positions':>12} {'won':>12} {'lost':>12} {'drawn':>10} "
        f"{'win':>4} {'loss':>4} {'iter':>4} {'pos/s':>12}"
    )
    for s in report.splits:
        click.echo(
            f"{s.split[0]:>3},{s.split[1]:<2} {s.positions:>12,} {s.won:>12,} {s.lost:>12,} "
            f"{s.drawn:>10,} {s.longest_win:>4} {s.longest_loss:>4} {s.iterations:>4} "
            f"{s.positions_per_second:>12,.0f}"
        )
    longest = max(max(s.longest_win, s.longest_loss) for s in report.splits)
    click.echo(
        f"{report.positions:,} positions with Gold to move (split = students of the side to "
        f"move, of the other side; won/lost/drawn for the side to move; win/loss = longest "
        f"distance). Longest distance {longest}. Retrograde {report.retro_seconds:.2f} s, "
        f"{report.positions_per_second:,.0f} positions/s; total {report.seconds:.2f} s; "
        f"{report.bytes:,} bytes in {report.out_dir}"
    )


@tb_group.command("build")
@click.option("--cards", "cards", type=CardSetType(), required=True, help="Five card ids or a set.")
@click.option(
    "--students",
    type=int_range(0, 2),
    default=1,
    show_default=True,
    help="K: up to K students per side.",
)
@click.option(
    "-o",
    "--output",
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="The card set's folder to write (default: its folder under the tables root, "
    "see --tables of probe).",
)
@click.option("--force", is_flag=True, help="Replace tables already in the folder.")
@json_option()
def build_command(cards, students: int, out_dir: Path | None, force: bool, as_json: bool) -> None:
    """Retrograde analysis of every position of one card set with both masters and up
    to K students per side, storing win/loss distances for the side to move.

    \b
      fechtbuch tb build --cards ausfall,volte,bindung,stoss,riposte --students 1

    Prints per material split (students of the side to move, of the other side) the
    positions with Gold to move, how many are won, lost and drawn for the side to
    move, the longest win and loss, the steps of the analysis and positions/s.
    """
    from fechtbuch.engines.battleklinge.tablebase import build, table_folder
    from tqdm import tqdm

    folder = out_dir or table_folder(cards)
    _check_output_folder(folder, force)
    from fechtbuch.engines.battleklinge.tablebase import index as ix

    lay = ix.layout(tuple(sorted(cards)))
    total = sum(lay.positions(*split) for split in ix.splits(students))
    bar = tqdm(total=total, desc="retrograde", unit=" pos", disable=as_json, leave=False)
    state = {"group": None, "seen": 0}

    def progress(split, step, resolved):
        # resolved counts the positions of the split group decided so far; a group's
        # draws are credited when the next group starts
        if state["group"] != split:
            if state["group"] is not None:
                a, b = state["group"]
                size = lay.positions(a, b) * (1 if a == b else 2)
                bar.update(size - state["seen"])
            state["group"], state["seen"] = split, 0
        bar.set_postfix_str(f"split {split[0]},{split[1]} step {step}")
        bar.update(resolved - state["seen"])
        state["seen"] = resolved

    try:
        report = build(cards, students, folder, progress=progress, force=force)
    finally:  # clears the bar, so that an error (Ctrl-C) starts its own line
        bar.close()
    if as_json:
        emit_json(report.to_json())
    else:
        _print_report(report)


def _check_output_folder(folder: Path, force: bool) -> None:
    """Before the build spends its time: ``folder`` is (or becomes) a folder this user
    can write, holding no tables unless ``force``; else one InputError line."""
    from fechtbuch.engines.battleklinge.tablebase.build import MANIFEST

    make_output_folder(folder)
    try:
        held = os.path.lexists(folder / MANIFEST)
    except ValueError:
        raise InputError(f"output: cannot write {quote(folder)} (bad file name)") from None
    if held and not force:
        raise InputError(f"output: {quote(folder)} already holds tables (use --force to replace)")
    ensure_writable(folder / ".fechtbuch-write-test", force=True)


def open_tables(position, tables: Path | None):
    """The checked tables of the position's card set under the tables root ``tables``
    (or a card set's folder; default :func:`default_root`), or one InputError line."""
    from fechtbuch.engines.battleklinge.tablebase import Tablebase, table_folder
    from fechtbuch.engines.battleklinge.tablebase.build import MANIFEST

    folder = table_folder(position.cards, tables)
    ids = ",".join(card_id(c) for c in sorted(position.cards))
    if not os.path.lexists(folder / MANIFEST) and os.path.isdir(folder.parent):
        raise InputError(
            f"tables: none for the cards {ids!r} in {quote(folder.parent)}; "
            f"build them with 'fechtbuch tb build --cards {ids} --students 1'"
        )
    base = Tablebase.open(folder)
    if base.cards != tuple(sorted(position.cards)):
        held = ",".join(card_id(c) for c in base.cards)
        raise InputError(f"tables: {quote(folder)} holds the cards {held!r}, not {ids!r}")
    return base


TABLES_HELP = (
    "Tables root: the folder with one sub-folder per card set, as 'tb build' writes it "
    "(default: $FECHTBUCH_TABLES or ~/.local/share/fechtbuch/tables).  A card set's own "
    "folder (the one holding manifest.json) is accepted too."
)
"""The one meaning of ``--tables`` in every command (docs/tablebase.md)."""


def tables_option(command):
    """``--tables ROOT`` with :data:`TABLES_HELP` (probe, solve, studies)."""
    return click.option(
        "--tables",
        type=click.Path(path_type=Path),
        default=None,
        help=TABLES_HELP,
    )(command)


@tb_group.command("probe")
@click.argument("position", type=POSITION)
@tables_option
@json_option()
def probe_command(position, tables: Path | None, as_json: bool) -> None:
    """The exact result of POSITION for the side to move and every move that keeps it.

    \b
      fechtbuch tb probe '2m2/5/1s3/1S3/2M2 g ausfall,volte bindung,stoss riposte'
      Gold to move: loss in 8.
      Best moves: volte:b2a1
        volte:b2a1         loss in 8
        ...

    Every legal move follows with the mover's result after it (best first).
    """
    base = open_tables(position, tables)
    result = base.probe(position)
    moves = base.move_results(position)
    best = base.best_moves(position)
    if as_json:
        emit_json(
            {
                "position": position.to_text(),
                "result": result.result.value,
                "distance": result.distance,
                "best_moves": [m.to_text() for m in best],
                "moves": {m.to_text(): str(r) for m, r in moves},
            }
        )
        return
    click.echo(f"{COLOR_NAMES[position.turn]} to move: {result}.")
    click.echo("Best moves: " + ", ".join(m.to_text() for m in best))
    for move, after in sorted(
        moves, key=lambda item: (tuple(-x for x in item[1].rank()), item[0].to_text())
    ):
        click.echo(f"  {move.to_text():<18} {after}")


CARDS_OPTION = click.option(
    "--cards",
    "cards",
    type=CardSetType(),
    default="einsteiger",
    show_default=True,
    help="Five card ids or a set.",
)
"""``--cards`` with the einsteiger set by default (bench, studies)."""


@tb_group.command("bench")
@CARDS_OPTION
@click.option(
    "--students",
    type=int_range(0, 2),
    default=1,
    show_default=True,
    help="K: up to K students per side.",
)
@click.option(
    "--against",
    type=click.Path(path_type=Path),
    default=None,
    help="The bitbase generator's table_base binary (LHolten/onitama-solver, built by "
    "you): build with it too, in the same run, and print both side by side.",
)
@json_option()
def bench_command(cards, students: int, against: Path | None, as_json: bool) -> None:
    """Build the tables into a temporary folder and print time, positions/s and peak memory.

    \b
      fechtbuch tb bench --cards einsteiger --students 2

    With --against (and the bitbase's card set, terz, stoss, quart, bindung,
    traverse, unless --cards names it), both fechtbuch's build and the bitbase's run
    as child processes, one after the other, and the table gives for each the wall
    and CPU seconds (all threads), the cores busy (CPU / wall), the peak resident
    memory and the won positions with Gold to move (they must agree: exit 1 if
    not), then the ratio of the wall times:

    \b
      fechtbuch tb bench --students 2 --against ~/onitama-solver/target/release/table_base
    """
    import resource
    import tempfile

    from fechtbuch.engines.battleklinge.tablebase import build

    if against is not None:
        _bench_against(cards, students, against, as_json)
        return
    with tempfile.TemporaryDirectory(prefix="fechtbuch-tb-") as folder:
        warm = time.perf_counter()
        _warm_up(cards, Path(folder) / "warm")
        warm = time.perf_counter() - warm
        cpu = time.process_time()
        report = build(cards, students, Path(folder) / "tables")
        cpu = time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = report.to_json() | {
        "peak_rss_mb": round(peak_mb),
        "warm_up_seconds": round(warm, 3),
        "cpu_seconds": round(cpu, 3),
    }
    if as_json:
        emit_json(figures)
        return
    _print_report(report)
    click.echo(
        f"peak memory {peak_mb:,.0f} MB (resident); CPU time of the build {cpu:.2f} s "
        f"(all threads); kernel warm-up {warm:.2f} s"
    )


def _warm_up(cards, folder: Path) -> None:
    """Compile every kernel of a build (or load it from the disk cache) before the timed
    one: a K = 1 build (captures, one-core sweeps) and the two-core sweeps."""
    from fechtbuch.engines.battleklinge.tablebase import build, kernel
    from fechtbuch.engines.battleklinge.tablebase.build import sweep_tables

    build(cards, 1, folder)
    kernel.compile_parallel(*sweep_tables(tuple(sorted(cards))))


def _bench_against(cards, students: int, binary: Path, as_json: bool) -> None:
    """``tb bench --against``: fechtbuch's build and the bitbase's, side by side."""
    import json
    import tempfile

    from fechtbuch.engines.battleklinge.tablebase import sidebyside as sbs

    bitbase_cards = tuple(sorted(parse_card_list(sbs.BITBASE_CARD_IDS)))
    source = click.get_current_context().get_parameter_source("cards")
    if source == click.core.ParameterSource.DEFAULT:
        cards = bitbase_cards
    elif tuple(sorted(cards)) != bitbase_cards:
        raise InputError(
            f"cards: the bitbase builds only {sbs.BITBASE_CARD_IDS}; leave --cards out"
        )
    bitbase_command = sbs.bitbase_command(binary, students)
    ids = ",".join(card_id(c) for c in sorted(cards))
    with tempfile.TemporaryDirectory(prefix="fechtbuch-tb-") as folder:
        _warm_up(cards, Path(folder) / "warm")  # the child loads them from the disk cache
        load_before = os.getloadavg()[0]
        try:
            bitbase = sbs.run_measured("bitbase", bitbase_command)
            ours = sbs.run_measured(
                "fechtbuch",
                sbs.fechtbuch_build_command(ids, students, Path(folder) / "tables"),
            )
            bitbase_won = sbs.bitbase_wins(bitbase.stdout)
        except RuntimeError as err:
            failed = click.ClickException(f"against: {err}")
            failed.exit_code = 1
            raise failed from None
        load_after = os.getloadavg()[0]
    report = json.loads(ours.stdout)
    won = sum(split["won"] for split in report["splits"])
    ratio = ours.wall_seconds / bitbase.wall_seconds if bitbase.wall_seconds > 0 else 0.0
    figures = {
        "cards": ids,
        "students": students,
        "fechtbuch": ours.to_json() | {"won": won, "build_seconds": report["seconds"]},
        "bitbase": bitbase.to_json() | {"won": bitbase_won},
        "wall_ratio": round(ratio, 3),
        "load_average": [load_before, load_after],
    }
    if as_json:
        emit_json(figures)
    else:
        click.echo(
            f"{'K = ' + str(students):<10} {'wall s':>8} {'CPU s':>8} {'cores busy':>10} "
            f"{'peak RSS MB':>12} {'won (Gold to move)':>20}"
        )
        for label, run, count in (("fechtbuch", ours, won), ("bitbase", bitbase, bitbase_won)):
            click.echo(
                f"{label:<10} {run.wall_seconds:>8.2f} {run.cpu_seconds:>8.2f} "
                f"{run.cores_busy:>10.2f} {run.peak_rss_mb:>12,.0f} {count:>20,}"
            )
        click.echo(
            f"wall ratio fechtbuch / bitbase: {ratio:.3f} (fechtbuch stores exact distances, "
            f"the bitbase one bit); 1-minute load average {load_before:.2f} before, "
            f"{load_after:.2f} after"
        )
    if won != bitbase_won:
        failed = click.ClickException(
            f"verification: fechtbuch counts {won:,} won positions, the bitbase {bitbase_won:,}"
        )
        failed.exit_code = 1
        raise failed
