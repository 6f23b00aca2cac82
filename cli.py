"""fechtbuch: exercise packs, proofs and play for three fencing games.

The click entry point (console script ``fechtbuch``).  Every command turns bad
input into one line on stderr and exit status 2; see :class:`FechtbuchGroup`.
"""

from __future__ import annotations

import os
import sys

from fechtbuch.engines import interrupts

if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "fechtbuch":
    interrupts.install()  # first of all: Ctrl-C during the imports below is one clean line

import time  # noqa: E402

import click  # noqa: E402
from fechtbuch.engines import __version__  # noqa: E402
from fechtbuch.engines.battleklinge.clitypes import POSITION  # noqa: E402
from fechtbuch.engines.battleklinge.commands import COMMANDS as ENGINE_COMMANDS  # noqa: E402
from fechtbuch.engines.battleklinge.players import STRENGTH_NAMES, use_hit_oracle  # noqa: E402
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Position  # noqa: E402
from fechtbuch.engines.battleklinge.tbcommands import tb_group  # noqa: E402
from fechtbuch.engines.clikit import (  # noqa: E402
    dump_json,
    emit_json,
    games_option,
    int_range,
    jobs_option,
    resolve_jobs,
    runs_option,
    seed_option,
)
from fechtbuch.engines.errors import InputError  # noqa: E402
from fechtbuch.engines.touche_duell.commands import touche_group  # noqa: E402
from fechtbuch.engines.touche_duell.players import use_sure_win_oracle  # noqa: E402
from fechtbuch.engines.touche_pyramiden.commands import pyramiden_group  # noqa: E402
from fechtbuch.puzzles import render_commands  # noqa: E402
from fechtbuch.puzzles.daily_commands import daily_group  # noqa: E402
from fechtbuch.puzzles.mine_commands import mine_command  # noqa: E402
from fechtbuch.puzzles.pack_commands import pack  # noqa: E402
from fechtbuch.puzzles.play_commands import play_command  # noqa: E402
from fechtbuch.puzzles.pyramiden.mine_command import (  # noqa: E402
    mine_command as pyramiden_mine_command,
)
from fechtbuch.puzzles.pyramiden.render_command import (  # noqa: E402
    render_command as pyramiden_render_command,
)
from fechtbuch.puzzles.pyramiden.solve_command import (  # noqa: E402
    solve_command as pyramiden_solve_command,
)
from fechtbuch.solver.bench import BENCH_TABLE_MB  # noqa: E402
from fechtbuch.solver.commands import solve_command  # noqa: E402
from fechtbuch.solver.hits import SolverHits  # noqa: E402
from fechtbuch.solver.touche_commands import touche_solve_command  # noqa: E402
from fechtbuch.solver.touche_tactics import ProofTactics  # noqa: E402

# The composition root: the players and the analysis ask the solver for forced hits
# (engines/ cannot import solver/ itself; see engines/battleklinge/players.py).
use_hit_oracle(SolverHits)
# and the Touché duel's meister proves sure wins with the generic prover
use_sure_win_oracle(ProofTactics)


class FechtbuchGroup(click.Group):
    """A click group whose errors are one line: ``fechtbuch: error: ...``.

    Exit status: 0 success, 1 a negative answer (unknown, failed verification),
    2 bad input (usage errors and :class:`InputError`), 130 interrupted.
    """

    def main(self, args=None, prog_name=None, **extra):  # type: ignore[override]
        interrupts.install()
        interrupts.started()
        try:
            result = super().main(args=args, prog_name=prog_name, standalone_mode=False, **extra)
        except click.exceptions.Exit as stop:
            sys.exit(stop.exit_code)
        except (KeyboardInterrupt, _Interrupted):
            interrupts.acknowledge()
            _fail("interrupted", 130)
        except click.Abort:
            interrupts.acknowledge()
            _fail("interrupted" if interrupts.received() else "stopped (end of input)", 130)
        except Exception as err:
            if interrupts.received():  # e.g. a C extension turned Ctrl-C into its own error
                interrupts.acknowledge()
                _fail("interrupted", 130)
            if isinstance(err, click.ClickException):
                status = 2 if isinstance(err, click.UsageError) else err.exit_code
                _fail(err.format_message(), status)
            if isinstance(err, InputError):
                _fail(str(err), 2)
            raise
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context):
        # click would turn Ctrl-C into Abort after printing an empty line on stderr;
        # passing it through as another exception keeps the error to one line
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupts.acknowledge()
            raise _Interrupted() from None


class _Interrupted(Exception):
    """Ctrl-C on its way out of click (see :meth:`FechtbuchGroup.invoke`)."""


ERROR_LINE_LIMIT = 400
"""An error line is cut to this length: messages quote at most ~200 characters of bad
input (:func:`fechtbuch.engines.clikit.quote`); this is the backstop for any that
does not (click's own messages, text from other libraries)."""


def _fail(message: str, status: int) -> None:
    one_line = " ".join(message.split())
    if len(one_line) > ERROR_LINE_LIMIT:
        one_line = one_line[: ERROR_LINE_LIMIT - 100] + " ... " + one_line[-95:]
    click.echo(f"fechtbuch: error: {one_line}", err=True)
    sys.exit(status)


@click.group(cls=FechtbuchGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fechtbuch")
def main() -> None:
    """Exercise packs, proofs and play for three fencing games.

    \b
    Battleklinge   the commands below without a game name (solve, mine, play, ...)
    Touché duel    fechtbuch touche ...      (fechtbuch touche --help)
    Pyramids       fechtbuch pyramiden ...   (fechtbuch pyramiden --help)
    Each game's commands use the same option names: --seed, -j/--jobs, -o/--output,
    --force, --json, --games, --strength, --max.

    \b
    Battleklinge positions are written '<board> <turn> <gold-hand> <blau-hand> <side>', e.g.
      'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte'
    (ranks 5 to 1, M/S Gold master/student, m/s Blau, digits for empty runs).
    Moves are '<card>:<from><to>' such as 'ausfall:c1c3', or '<card>:pass'.
    Quote positions on the command line: they contain spaces.

    \b
    Input rules, the same for every command: numbers are plain ASCII digits
    (blanks around them are ignored; '２', '1_000', '+2', 'nan', 'inf', '1e3' are
    errors); card lists are five ids joined by ',' (blanks around ids and letter
    case are ignored; '' and empty items are errors).  Bad input is one line
    'fechtbuch: error: ...' and exit 2; Ctrl-C is one line and exit 130.
    """


@main.command()
@click.argument("position", type=POSITION, default=START_EINSTEIGER)
@click.argument("depth", type=int_range(0, 10), default=6)
@click.option("--divide", is_flag=True, help="Print the leaf count under each first move.")
@click.option("--stats", is_flag=True, help="Add time and leaves/s (start-up excluded).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--suite",
    "suite_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Check every count of a perft suite file instead, up to --max-depth.",
)
@click.option(
    "--max-depth",
    type=int_range(1, 10),
    default=6,
    show_default=True,
    help="With --suite: the deepest counts to check.",
)
def perft(
    position: Position,
    depth: int,
    divide: bool,
    stats: bool,
    as_json: bool,
    suite_file,
    max_depth: int,
) -> int:
    """Count the leaves DEPTH plies below POSITION (default: einsteiger start, 6).

    A decided position is one leaf and is not expanded; a position where no
    piece can move has two children, one pass per card.  The counts are the
    behaviour signature of the move generator:

    \b
      fechtbuch perft 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' 6
      9664055

    DEPTH goes up to 10 (minutes from the start position; 11 would take hours).
    Deep counts show a progress bar and stop at once on Ctrl-C.
    """
    from fechtbuch.engines.battleklinge import perft as perft_mod
    from tqdm import tqdm

    if suite_file:
        return _check_perft_suite(suite_file, max_depth)
    perft_mod.perft(position, 1)  # load or compile the generator outside the timing
    started = time.perf_counter()
    with tqdm(desc="perft", unit=" chunks", disable=depth < 9 or None, leave=False) as bar:

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        split = perft_mod.divide(position, depth, progress) if divide else []
        if divide and split:
            leaves = sum(c for _, c in split)
        else:
            leaves = perft_mod.perft(position, depth, progress)
    seconds = time.perf_counter() - started
    rate = leaves / seconds if seconds > 0 else float("inf")
    if as_json:
        out = {"position": position.to_text(), "depth": depth, "leaves": leaves}
        if divide:
            out["divide"] = {m.to_text(): c for m, c in split}
        if stats:
            out.update(seconds=round(seconds, 6), leaves_per_second=round(rate))
        emit_json(out)
        return
    for move, count in split:
        click.echo(f"{move} {count}")
    if divide and split:
        click.echo("")
    click.echo(str(leaves))
    if stats:
        click.echo(f"time {seconds:.4f} s, {rate / 1e6:,.1f} M leaves/s")


def _check_perft_suite(path: str, max_depth: int) -> int:
    """Run a suite file (e.g. data/perft/battleklinge.perft); print the split of any
    wrong count; exit 1 on a failure."""
    from fechtbuch.engines.battleklinge.perft import check_suite, load_suite

    cases = load_suite(path, "--suite")
    failures = check_suite(cases, max_depth=max_depth)
    for report in failures:
        click.echo(report)
    checked = sum(1 for c in cases for d in c.counts if d <= max_depth)
    click.echo(
        f"{path}: {len(cases)} positions, {checked} counts up to depth {max_depth}, "
        f"{len(failures)} wrong"
    )
    return 1 if failures else 0


@main.command()
@click.argument("position", type=POSITION, default=START_EINSTEIGER)
@click.option("--flip", is_flag=True, help="Draw from the other school's side.")
@click.option("--json", "as_json", is_flag=True, help="Print the position's facts as JSON.")
def show(position: Position, flip: bool, as_json: bool) -> None:
    """Draw POSITION: board with coordinates and banners, both hands, the side card.

    Drawn for the player to move (their school at the bottom); each card shows
    its 5x5 move grid with the piece 'o' in the middle and targets 'x'.
    """
    from fechtbuch.engines.battleklinge import fast
    from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, card_id
    from fechtbuch.engines.battleklinge.textboard import draw_position

    if as_json:
        winner = position.winner()
        emit_json(
            {
                "position": position.to_text(),
                "turn": COLOR_CHARS[position.turn],
                "cards": [card_id(c) for c in position.cards],
                "decided": winner is not None,
                "winner": None if winner is None else COLOR_CHARS[winner],
                "moves": [m.to_text() for m in fast.legal_moves(position)],
            }
        )
        return
    click.echo(draw_position(position, flip=flip))


@main.group()
def bench() -> None:
    """Fixed benchmarks that print their figures (medians of several runs).

    The node and leaf counts they print are behaviour signatures: a change that
    alters them changed what the code does, not only how fast.
    """


@bench.command("perft")
@click.option(
    "--depth",
    type=int_range(3, 10),
    default=8,
    show_default=True,
    help="Perft depth from the einsteiger start.",
)
@runs_option(5, 50)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def bench_perft(depth: int, runs: int, as_json: bool) -> None:
    """Leaves/s of perft DEPTH from the einsteiger start, single-threaded.

    Two figures: the search perft (last two plies counted in bulk, the way a
    perft for speed is measured) and the plain perft that makes every move
    (gen_moves + make_move per node, two plies shallower).
    """
    import statistics

    from fechtbuch.engines.battleklinge import fast
    from fechtbuch.engines.battleklinge.perft import count_state

    st = fast.state_from_position(Position.from_text(START_EINSTEIGER))
    fast.perft(st, 3)
    fast.perft_plain(st, 3)

    def measure(function, d):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            leaves = count_state(st, d, function)  # in chunks: Ctrl-C works at depth 10
            times.append(time.perf_counter() - started)
        return leaves, statistics.median(times)

    leaves, seconds = measure(fast.perft, depth)
    plain_leaves, plain_seconds = measure(fast.perft_plain, depth - 2)
    result = {
        "position": START_EINSTEIGER,
        "depth": depth,
        "leaves": leaves,
        "median_seconds": round(seconds, 4),
        "leaves_per_second": round(leaves / seconds),
        "plain_depth": depth - 2,
        "plain_leaves": plain_leaves,
        "plain_median_seconds": round(plain_seconds, 4),
        "plain_leaves_per_second": round(plain_leaves / plain_seconds),
        "runs": runs,
    }
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"perft {depth}: {leaves} leaves, median {seconds:.3f} s of {runs}, "
        f"{leaves / seconds / 1e6:,.0f} M leaves/s (bulk last plies)"
    )
    click.echo(
        f"perft {depth - 2} plain: {plain_leaves} leaves, median {plain_seconds:.3f} s, "
        f"{plain_leaves / plain_seconds / 1e6:,.1f} M leaves/s (every move made)"
    )


@bench.command("solve")
@runs_option(3, 20)
@click.option(
    "--table-mb",
    type=int_range(1, 8192),
    default=BENCH_TABLE_MB,
    show_default=True,
    help="Table size in MiB; the node signature holds only at the default.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def bench_solve(runs: int, table_mb: int, as_json: bool) -> int:
    """Solve the 220-position suite in data/bench/solver.jsonl (bound 4), check every
    answer, and print positions/s, nodes/s and the median proof size (median of runs)."""
    from fechtbuch.solver.bench import run_bench

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


@bench.command("mine")
@runs_option(3, 10)
@jobs_option
def bench_mine(runs: int, jobs: int | None) -> int:
    """Mine the shipped pack from scratch (its recorded command, into a temporary
    folder) and print candidates/s, the yield per source and the wall time; the
    result must equal data/packs/fechtuebungen.json byte for byte."""
    import json
    import os
    import statistics
    import subprocess
    import tempfile

    from fechtbuch.engines.paths import data_file

    shipped = data_file("packs", "fechtuebungen.json")
    command = json.loads(shipped.read_bytes())["command"].split()[1:]
    walls, summaries, identical = [], [], True
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "fechtuebungen.json")
            args = list(command)
            args[args.index("-o") + 1] = target
            jobs_args = ["-j", str(jobs)] if jobs else []
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "fechtbuch.cli", *args, *jobs_args, "--json"],
                capture_output=True,
                text=True,
                check=True,
            )
            walls.append(time.perf_counter() - started)
            summaries.append(json.loads(done.stdout))
            made = json.loads(open(target, "rb").read())
            made["command"] = json.loads(shipped.read_bytes())["command"]
            identical &= dump_json(made) == shipped.read_bytes()
    summary = summaries[0]
    examined = sum(summary["positions"].values())
    mining = statistics.median(s["seconds_mining"] for s in summaries)
    click.echo(
        f"shipped pack from scratch: median wall {statistics.median(walls):.1f} s "
        f"(process start included) over {runs} runs: " + ", ".join(f"{w:.1f}" for w in walls)
    )
    click.echo(
        f"candidates examined {examined:,} in {mining:.1f} s of mining: "
        f"{examined / mining:,.0f} positions/s"
    )
    for source, seen in summary["positions"].items():
        found = summary["found"][source]
        click.echo(f"  {source:7} {seen:6,} positions -> {found} exercises ({found / seen:.1%})")
    click.echo("identical to data/packs/fechtuebungen.json: " + ("yes" if identical else "NO"))
    return 0 if identical else 1


@bench.command("engine")
@click.option(
    "--positions",
    type=int_range(1, 1000),
    default=40,
    show_default=True,
    help="Middle-game positions to search.",
)
@seed_option(2026, "the positions")
def bench_engine(positions: int, seed: int) -> None:
    """Engine search nodes/s and seconds per move of each strength (docs/strength.md)."""
    from fechtbuch.engines.battleklinge.enginebench import run_engine_bench

    run_engine_bench(positions, seed, click.echo)


@bench.command("tune-eval")
@click.option(
    "--strength",
    type=click.Choice(STRENGTH_NAMES),
    default="stark",
    show_default=True,
    help="The strength whose evaluation is tuned.",
)
@games_option(100)
@seed_option(11, "the card sets and deals of the tuning matches")
@jobs_option
@click.option("--only", default=None, help="Comma-separated feature names to try.")
@click.option(
    "--candidate", default=None, help="One weight set to confirm, e.g. 'mobility=2,race=6'."
)
def bench_tune_eval(strength, games, seed, jobs, only, candidate) -> None:
    """Self-play tuning: each evaluation feature off, halved and doubled, as a match
    against the current weights (how docs/strength.md's table was made)."""
    from fechtbuch.engines.battleklinge.tuning import run_tuning

    run_tuning(strength, games, seed, resolve_jobs(jobs), only, candidate, click.echo)


main.add_command(solve_command)
main.add_command(render_commands.render)
pack.add_command(render_commands.pack_html)
pack.add_command(render_commands.pack_svg)
main.add_command(mine_command)
main.add_command(pack)
for _command in ENGINE_COMMANDS:
    main.add_command(_command)
main.add_command(play_command)
main.add_command(daily_group)
touche_group.add_command(touche_solve_command)
main.add_command(touche_group)
main.add_command(pyramiden_group)
pyramiden_group.add_command(pyramiden_solve_command)
pyramiden_group.add_command(pyramiden_mine_command)
pyramiden_group.add_command(pyramiden_render_command)
main.add_command(tb_group)

if __name__ == "__main__":
    main()
