"""The engine's click commands: ``hint``, ``analyse`` and ``match`` (registered in cli.py)."""

from __future__ import annotations

import click
from fechtbuch.commands.battleklinge.params import POSITION
from fechtbuch.commands.options import (
    emit_json,
    float_range,
    games_option,
    int_range,
    jobs_option,
    json_option,
    log_options,
    seed_option,
)
from fechtbuch.commands.playoptions import clock_option
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.workers import resolve_jobs

MOVETIME = click.option(
    "--movetime",
    type=float_range(0.01, 600),
    default=None,
    metavar="SECONDS",
    help="Think this long per move instead of the strength's node budget "
    "(iterative deepening stops cleanly; not reproducible between machines).",
)


@click.command()
@click.argument("position", type=POSITION)
@click.option(
    "--strength",
    type=click.Choice(["stark", "meister"], case_sensitive=False),
    default="stark",
    show_default=True,
    help="Search budget of the hint (both play forced hits exactly).",
)
@MOVETIME
@json_option()
def hint(position, strength: str, movetime: float | None, as_json: bool) -> None:
    """A good move in POSITION ("Rat") with its evaluation for the side to move.

    The evaluation is in students (1.0 = one student) from the view of the
    side to move; '#2' means a forced hit in two own moves, '-#1' that the
    opponent hits next move whatever is played.  The second line gives the
    completed search depth and the principal variation.

    Example: fechtbuch hint 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte'
    --strength meister --movetime 1
    """
    from fechtbuch.commands.players import command_players
    from fechtbuch.engines.battleklinge.cards import COLOR_CHARS
    from fechtbuch.engines.battleklinge.search import format_score, score_to_students

    if position.winner() is not None:
        raise InputError(f"position: the game is already decided in {position.to_text()!r}")
    player = command_players("battleklinge").make(strength.lower(), movetime=movetime)
    choice = player.choose(position)
    pv = " ".join(m.to_text() for m in choice.pv)
    if as_json:
        emit_json(
            {
                "position": position.to_text(),
                "turn": COLOR_CHARS[position.turn],
                "strength": strength.lower(),
                "move": choice.move.to_text(),
                "evaluation": score_to_students(choice.score),
                "evaluation_text": format_score(choice.score),
                "reason": choice.reason,
                "depth": choice.depth,
                "pv": [m.to_text() for m in choice.pv],
                "nodes": choice.nodes,
                "seconds": round(choice.seconds, 3),
            }
        )
        return
    note = {"hit": " (forced hit)", "defence": " (avoids a forced hit)"}.get(choice.reason, "")
    click.echo(f"{choice.move.to_text()} {format_score(choice.score)}{note}")
    click.echo(f"depth {choice.depth}, {choice.nodes:,} nodes, {choice.seconds:.2f} s; pv {pv}")


@click.command()
@click.argument("game", type=click.Path(dir_okay=False, path_type=str))
@json_option()
def analyse(game: str, as_json: bool) -> None:
    """Rate every move of the game record GAME and show the turning point.

    Per move: the evaluation before and after from the mover's view (students),
    '?' for an inaccuracy (loses >= 0.5), '??' for an error (loses >= 1.5, or
    misses a forced hit within 3, or allows one within 2 when it was
    avoidable), and the better move.  Game records: see
    engines/battleklinge/gamerecord.py.
    """
    from fechtbuch.commands.players import command_players
    from fechtbuch.engines.battleklinge.analysis import Analyser
    from fechtbuch.engines.battleklinge.gamerecord import read_game

    record = read_game(game)
    result = Analyser(hits=command_players("battleklinge").oracle()).analyse(record)
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo(result.to_text())


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@games_option(100)
@seed_option(1, "the card sets and deals")
@jobs_option
@click.option(
    "--max-plies",
    type=int_range(2, 2000),
    default=200,
    show_default=True,
    help="Half-moves before a game is aborted.",
)
@click.option(
    "--nodes",
    type=int_range(1, 10**10),
    default=None,
    help="Node budget per move for both sides instead of their strengths' (deterministic).",
)
@MOVETIME
@clock_option(
    "A game clock: each side gets MINUTES for the game and plans every move "
    "from the time it has left; who runs out loses (not reproducible between machines)."
)
@click.option("--games-out", type=click.Path(dir_okay=False), help="Write every game as JSON.")
@log_options(with_force=False)
@click.option("--force", is_flag=True, help="Overwrite --games-out and --log.")
@json_option("the summary")
def match(
    a: str,
    b: str,
    games: int,
    seed: int,
    jobs: int | None,
    max_plies: int,
    nodes: int | None,
    movetime: float | None,
    clock: float | None,
    games_out: str | None,
    log: str | None,
    resume: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Play strength A against strength B and print the score and Elo difference.

    A and B: leicht, mittel, stark, meister, or for measuring meister-2026 (the
    frozen engine of 2026-11-30), meister-plain and meister-no{pvs,lmr,ext}
    (one search feature off).  Random card sets, each deal played twice with
    the schools swapped; games are aborted on threefold repetition or after
    --max-plies.  Without --movetime and --clock the results are the same for
    any -j.

    A long match: --log keeps every finished game; after a kill, the same
    command with --resume plays the rest.

    \b
    Examples:
      fechtbuch match meister meister-2026 --games 100 --nodes 20000 -j 2
      fechtbuch match meister stark --games 20 --clock 2               # 2 minutes a side
      fechtbuch match meister stark --games 200 --log ms.jsonl         # later: --resume
      fechtbuch match meister stark --games 57 --log ms.jsonl --resume # the first 57 only
    """
    from dataclasses import asdict

    from fechtbuch.commands.players import command_players
    from fechtbuch.engines.battleklinge.match import decode_result, run_match
    from fechtbuch.engines.files import atomic_write, dump_json, ensure_writable
    from fechtbuch.engines.matchkit import open_log

    if games_out:
        ensure_writable(games_out, force)  # before the games spend their time
    from fechtbuch.engines.battleklinge.players import strength_from_name

    if sum(x is not None for x in (nodes, movetime, clock)) > 1:
        raise InputError("budget: give one of --nodes, --movetime and --clock")
    a, b = strength_from_name(a).name, strength_from_name(b).name
    params = {"a": a, "b": b, "seed": seed, "max_plies": max_plies}
    params |= {"nodes": nodes, "movetime": movetime}
    if clock is not None:  # only then: logs from before the clock still resume
        params["clock"] = clock
    done, progress = open_log(log, resume, force, games, params, decode_result)
    summary, results = run_match(
        a,
        b,
        games,
        seed,
        resolve_jobs(jobs),
        max_plies,
        progress=progress,
        nodes=nodes,
        movetime=movetime,
        done=done,
        clock=clock,
        players=command_players("battleklinge"),
    )
    if games_out:
        atomic_write(games_out, dump_json([asdict(r) for r in results]), force=force)
    if as_json:
        emit_json(summary.to_dict())
    else:
        click.echo(summary.to_text())
        if log:
            reused = min(len(done), games)
            click.echo(f"  {reused} games read from {log}, {games - reused} played in this run")


COMMANDS = (hint, analyse, match)


@click.group("bench")
def bench_group() -> None:
    """Fixed benchmarks that print their figures (medians of several runs).

    The node and leaf counts they print are behaviour signatures: a change that
    alters them changed what the code does, not only how fast.
    """
