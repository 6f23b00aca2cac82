"""``fechtbuch tb``: build, probe and benchmark endgame tablebases (docs/tablebase.md)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import click
from fechtbuch.commands.battleklinge.params import POSITION
from fechtbuch.commands.options import emit_json, int_range, jobs_option, json_option, runs_option
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES, card_id, parse_card_list
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import ensure_writable, make_output_folder


class CardSetType(click.ParamType):
    name = "CARDS"

    def convert(self, value, param, ctx):
        return parse_card_list(value) if isinstance(value, str) else value


@click.group("tb")
def tb_group() -> None:
    """Endgame tablebases: exact results for every position of one card set.

    \b
      fechtbuch tb build --cards einsteiger --students 1
      fechtbuch tb info
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
    if report.kept:
        kept = ", ".join(f"{a},{b}" for a, b in report.kept)
        click.echo(f"Kept from a former run (not built again): {kept}")


class SplitListType(click.ParamType):
    """Material splits ``a,b`` (students of the side to move, of the other side),
    separated by spaces or semicolons: ``'3,0 0,3'``."""

    name = "SPLITS"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        out = []
        for word in value.replace(";", " ").split():
            parts = word.split(",")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                self.fail(f"{word!r} is not a split a,b such as 3,1", param, ctx)
            out.append((int(parts[0]), int(parts[1])))
        if not out:
            self.fail("no split given", param, ctx)
        return out


@tb_group.command("build")
@click.option("--cards", "cards", type=CardSetType(), required=True, help="Five card ids or a set.")
@click.option(
    "--students",
    type=int_range(0, 3),
    default=1,
    show_default=True,
    help="K: up to K students per side.",
)
@click.option(
    "--splits",
    "only",
    type=SplitListType(),
    multiple=True,
    help="Build only these splits a,b (and the smaller ones their captures reach), e.g. "
    "--splits '3,0 0,3 3,1 1,3'; repeatable.  Default: every split of K.",
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
@click.option(
    "--ray",
    "use_ray",
    is_flag=True,
    help="Solve each split group on Ray, its rows partitioned over -j workers (default: "
    "the cluster's CPUs); a local Ray unless --ray-address names a cluster.  Needs pip "
    "install 'fechtbuch[ray]'.  The bytes do not depend on it.",
)
@click.option(
    "--ray-address",
    default=None,
    help="Build on the Ray cluster at this address (implies --ray), e.g. 10.0.0.5:6379.",
)
@jobs_option
@json_option()
def build_command(
    cards,
    students: int,
    only,
    out_dir: Path | None,
    force: bool,
    use_ray: bool,
    ray_address: str | None,
    jobs: int | None,
    as_json: bool,
) -> None:
    """Retrograde analysis of every position of one card set with both masters and up
    to K students per side, storing win/loss distances for the side to move.

    \b
      fechtbuch tb build --cards ausfall,volte,bindung,stoss,riposte --students 1
      fechtbuch tb build --cards terz,stoss,quart,bindung,traverse --students 3 \\
          --splits '3,0 0,3 3,1 1,3' --ray -j 2

    Prints per material split (students of the side to move, of the other side) the
    positions with Gold to move, how many are won, lost and drawn for the side to
    move, the longest win and loss, the steps of the analysis and positions/s.  A
    folder that holds some splits already is extended: the splits its manifest lists
    are kept (a build stopped midway resumes after the last finished split group).
    """
    from fechtbuch.engines.battleklinge.tablebase import build, table_folder
    from fechtbuch.engines.battleklinge.tablebase import index as ix
    from fechtbuch.engines.battleklinge.tablebase.build import plan_groups
    from tqdm import tqdm

    folder = out_dir or table_folder(cards)
    _check_output_folder(folder)
    wanted = [split for group in only for split in group] or None
    cards = tuple(sorted(cards))
    groups = plan_groups(cards, students, folder, force, wanted)
    lay = ix.layout(cards)
    sizes = {group[0]: sum(lay.positions(*split) for split in group) for group in groups}
    bar = tqdm(total=sum(sizes.values()), desc="retrograde", unit=" pos", disable=as_json)
    state = {"group": None, "seen": 0}

    def progress(split, step, resolved):
        # resolved counts the positions of the split group decided so far; a group's
        # draws are credited when the next group starts
        if state["group"] != split:
            if state["group"] is not None:
                bar.update(sizes[state["group"]] - state["seen"])
            state["group"], state["seen"] = split, 0
        bar.set_postfix_str(f"split {split[0]},{split[1]} step {step}")
        bar.update(resolved - state["seen"])
        state["seen"] = resolved

    solver = None
    if use_ray or ray_address is not None:
        from fechtbuch.engines.battleklinge.tablebase.distributed import RaySolver

        solver = RaySolver(ray_address, jobs)
    try:
        report = build(
            cards, students, folder, progress=progress, force=force, only=wanted, solver=solver
        )
    finally:  # clears the bar, so that an error (Ctrl-C) starts its own line
        bar.close()
        if solver is not None:
            solver.close()
    if as_json:
        emit_json(report.to_json() | ({"ray_workers": solver.workers} if solver else {}))
    else:
        _print_report(report)


def _check_output_folder(folder: Path) -> None:
    """Before the build spends its time: ``folder`` is (or becomes) a folder this user
    can write; else one InputError line (tables already there are checked by the build:
    it extends them, or refuses them without --force when nothing is missing)."""
    make_output_folder(folder)
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


def tables_inventory(root: Path) -> list[dict]:
    """Every card set's tables under a tables root (or the one card set's folder given):
    folder, cards, K, the splits its sealed manifest lists (each with its file's size
    on disk) and the splits still under way (part files, phase checkpoints).  Reads
    the manifests (schema, seal, layout), not the table bytes: ``tb probe`` and the
    Meister hash every file before the first probe."""
    from fechtbuch.engines.battleklinge.tablebase.build import MANIFEST
    from fechtbuch.engines.battleklinge.tablebase.probe import read_manifest

    folders = [root] if (root / MANIFEST).exists() else sorted(root.glob(f"*/{MANIFEST}"))
    out = []
    for folder in [f if f.is_dir() else f.parent for f in folders]:
        manifest = read_manifest(folder)
        splits = []
        for entry in manifest["splits"]:
            path = folder / entry["file"]
            size = path.stat().st_size if path.is_file() else None
            keep = ("split", "positions", "bytes", "sha256", "won", "lost", "drawn")
            splits.append({k: entry[k] for k in keep} | {"file_bytes": size})
        under_way = sorted(p.name for p in folder.glob("split-*-*.bin.part"))
        under_way += sorted(p.name for p in folder.glob(".steps-*-*"))
        out.append(
            {
                "folder": str(folder),
                "cards": manifest["cards"],
                "max_students": manifest["max_students"],
                "mirror": manifest["mirror"],
                "splits": splits,
                "bytes": sum(s["bytes"] for s in splits),
                "under_way": under_way,
            }
        )
    return out


@tb_group.command("info")
@tables_option
@json_option()
def info_command(tables: Path | None, as_json: bool) -> None:
    """List the tables built under the tables root: per card set its folder, K, and
    every split with its positions, bytes, SHA-256 and won/lost/drawn counts.

    \b
      fechtbuch tb info
      fechtbuch tb info --tables /work/tables-k3 --json

    Splits still under way (a build stopped midway: part files, phase checkpoints of a
    Ray build) are named; a build run again resumes them.
    """
    from fechtbuch.engines.battleklinge.tablebase import default_root

    root = tables if tables is not None else default_root()
    if not root.is_dir():
        raise InputError(f"tables: {quote(root)} is not a folder")
    inventory = tables_inventory(root)
    if as_json:
        emit_json({"root": str(root), "tables": inventory})
        return
    if not inventory:
        click.echo(f"No tables under {root} (build them with 'fechtbuch tb build').")
    for entry in inventory:
        click.echo(
            f"{','.join(entry['cards'])}: K = {entry['max_students']}, "
            f"{len(entry['splits'])} splits, {entry['bytes']:,} bytes in {entry['folder']}"
        )
        for s in entry["splits"]:
            missing = "" if s["file_bytes"] == s["bytes"] else "  (file missing or resized)"
            click.echo(
                f"  {s['split'][0]},{s['split'][1]}  {s['positions']:>14,} positions "
                f"{s['bytes']:>14,} bytes  won {s['won']:,} lost {s['lost']:,} "
                f"drawn {s['drawn']:,}  sha256 {s['sha256']}{missing}"
            )
        if entry["under_way"]:
            click.echo(f"  under way: {', '.join(entry['under_way'])}")


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
@runs_option(1, 9)
@json_option()
def bench_command(cards, students: int, against: Path | None, runs: int, as_json: bool) -> None:
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

    With --runs N each build runs N times (with --against: the bitbase, then
    fechtbuch, N times in turn, so that a slow spell of a shared machine falls on
    both); the medians are shown, and the ratio is that of the median wall times.
    """
    import resource
    import tempfile

    from fechtbuch.engines.battleklinge.tablebase import build

    if against is not None:
        _bench_against(cards, students, against, runs, as_json)
        return
    with tempfile.TemporaryDirectory(prefix="fechtbuch-tb-") as folder:
        warm = time.perf_counter()
        _warm_up(cards, Path(folder) / "warm")
        warm = time.perf_counter() - warm
        measured = []
        for run in range(runs):
            cpu = time.process_time()
            report = build(cards, students, Path(folder) / f"tables-{run}")
            measured.append((report.seconds, time.process_time() - cpu, report))
            shutil.rmtree(Path(folder) / f"tables-{run}")
        _, cpu, report = sorted(measured, key=lambda m: m[0])[runs // 2]  # the median run
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = report.to_json() | {
        "peak_rss_mb": round(peak_mb),
        "warm_up_seconds": round(warm, 3),
        "cpu_seconds": round(cpu, 3),
        "runs_seconds": [round(m[0], 3) for m in measured],
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
    one: a K = 1 build (captures, value counts) and both sweeps."""
    from fechtbuch.engines.battleklinge.tablebase import build, kernel
    from fechtbuch.engines.battleklinge.tablebase.build import sweep_tables

    build(cards, 1, folder)
    kernel.compile_sweeps(*sweep_tables(tuple(sorted(cards))))


def _bench_against(cards, students: int, binary: Path, runs: int, as_json: bool) -> None:
    """``tb bench --against``: fechtbuch's build and the bitbase's, side by side."""
    import json
    import statistics
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
    pairs = []
    with tempfile.TemporaryDirectory(prefix="fechtbuch-tb-") as folder:
        _warm_up(cards, Path(folder) / "warm")  # the child loads them from the disk cache
        load_before = os.getloadavg()[0]
        try:
            for run in range(runs):
                bitbase = sbs.run_measured("bitbase", bitbase_command)
                tables = Path(folder) / f"tables-{run}"
                ours = sbs.run_measured(
                    "fechtbuch", sbs.fechtbuch_build_command(ids, students, tables)
                )
                shutil.rmtree(tables)
                pairs.append((ours, json.loads(ours.stdout), bitbase))
            bitbase_won = [sbs.bitbase_wins(b.stdout) for _, _, b in pairs]
        except RuntimeError as err:
            failed = click.ClickException(f"against: {err}")
            failed.exit_code = 1
            raise failed from None
        load_after = os.getloadavg()[0]
    won = [sum(split["won"] for split in report["splits"]) for _, report, _ in pairs]
    ours = sbs.median_of([o for o, _, _ in pairs])
    bitbase = sbs.median_of([b for _, _, b in pairs])
    ratio = sbs.ratio(ours, bitbase)
    figures = {
        "cards": ids,
        "students": students,
        "fechtbuch": ours.to_json()
        | {"won": won[0], "build_seconds": statistics.median(r["seconds"] for _, r, _ in pairs)},
        "bitbase": bitbase.to_json() | {"won": bitbase_won[0]},
        "wall_ratio": round(ratio, 3),
        "runs": [
            {
                "fechtbuch": o.to_json(),
                "bitbase": b.to_json(),
                "wall_ratio": round(sbs.ratio(o, b), 3),
            }
            for o, _, b in pairs
        ],
        "load_average": [load_before, load_after],
    }
    if as_json:
        emit_json(figures)
    else:
        median = "median of " + str(runs) + " runs" if runs > 1 else ""
        click.echo(
            f"{'K = ' + str(students):<10} {'wall s':>8} {'CPU s':>8} {'cores busy':>10} "
            f"{'peak RSS MB':>12} {'won (Gold to move)':>20}  {median}".rstrip()
        )
        for label, run, count in (
            ("fechtbuch", ours, won[0]),
            ("bitbase", bitbase, bitbase_won[0]),
        ):
            click.echo(
                f"{label:<10} {run.wall_seconds:>8.2f} {run.cpu_seconds:>8.2f} "
                f"{run.cores_busy:>10.2f} {run.peak_rss_mb:>12,.0f} {count:>20,}"
            )
        if runs > 1:
            each = ", ".join(f"{sbs.ratio(o, b):.3f}" for o, _, b in pairs)
            click.echo(f"wall ratio of each run, in order: {each}")
        click.echo(
            f"wall ratio fechtbuch / bitbase: {ratio:.3f} (fechtbuch stores exact distances, "
            f"the bitbase one bit); 1-minute load average {load_before:.2f} before, "
            f"{load_after:.2f} after"
        )
    disagree = [(w, b) for w, b in zip(won, bitbase_won, strict=True) if w != b]
    if disagree:
        w, b = disagree[0]
        failed = click.ClickException(
            f"verification: fechtbuch counts {w:,} won positions, the bitbase {b:,}"
        )
        failed.exit_code = 1
        raise failed
