"""``fechtbuch GAME bench rating-ladder`` and ``rating-start``: measure a game's rating
panel and its start rating, made from the game's ladder spec.
"""

from __future__ import annotations

import click
from fechtbuch.commands.options import (
    emit_json,
    games_option,
    int_range,
    jobs_option,
    json_option,
    seed_option,
)
from fechtbuch.engines.workers import resolve_jobs
from fechtbuch.puzzles.rating_ladder import LadderSpec, measure_ladder, measure_start


def ladder_command(spec: LadderSpec) -> click.Command:
    """``fechtbuch GAME bench rating-ladder`` for the game of ``spec``."""

    @click.command("rating-ladder")
    @games_option(spec.games)
    @seed_option(spec.seed, "the match deals")
    @jobs_option
    @json_option(f"the ladder as data/rating/{spec.game}-ladder.json stores it")
    def command(games: int, seed: int, jobs: int | None, as_json: bool) -> None:
        ladder = measure_ladder(spec, games, seed, resolve_jobs(jobs))
        if as_json:
            emit_json(ladder)
            return
        for step in ladder["steps"]:
            click.echo(
                f"{step['stronger']:>12} vs {step['weaker']:<12} {step['games']} games, "
                f"score {step['score']:.3f}, Elo {step['elo']:+.0f} ± {step['half_width']:.0f}"
            )
        for member in ladder["members"]:
            click.echo(f"{member['name']:>12}: {member['rating']:.0f} ± {member['rd']:.0f} (RD)")

    command.help = (
        "Measure the rating panel's ladder by matches between neighbouring members.\n\n"
        f"Members, weakest first: {spec.description}  Each neighbouring pair plays "
        "GAMES games (paired deals, each from both sides, as 'fechtbuch match' plays "
        f"them); the Elo differences are chained from {spec.anchor}, rated 1500.  The "
        "same seed gives the same ladder for any -j.  With --json the output is the "
        "file 'fechtbuch pack rate' reads:\n\n"
        f"\b\n  {spec.command}"
    )
    command.short_help = "Elo of the rating panel's members, by matches between neighbours."
    return command


def start_command(spec: LadderSpec) -> click.Command:
    """``fechtbuch GAME bench rating-start`` for the game of ``spec``."""
    from fechtbuch.commands.db import db_option

    @click.command("rating-start")
    @click.option(
        "--limit",
        type=int_range(1),
        default=400,
        show_default=True,
        help="Exercises of the database to attempt (row order).",
    )
    @seed_option(1, "the attempts")
    @db_option
    @json_option(f"the fit as data/rating/{spec.game}-start.json stores it")
    def command(limit: int, seed: int, db_path, as_json: bool) -> None:
        from fechtbuch.puzzles.db.schema import default_path

        path = db_path if db_path is not None else default_path()
        from fechtbuch.puzzles.packkinds import kind_for

        fitted = measure_start(spec, kind_for(spec.game), path, limit, seed)
        if as_json:
            emit_json(fitted)
            return
        click.echo(
            f"{fitted['exercises']} exercises, {fitted['attempts']} attempts, "
            f"{fitted['solved']} solved"
        )
        for rating, loss in fitted["scan"]:
            mark = "  <- start" if rating == fitted["start"] else ""
            click.echo(f"  start {rating:6.0f}: held-out log-loss {loss:.4f}{mark}")

    command.help = (
        "Fit where every exercise's rating starts: the start rating (RD 350) whose "
        "fits predict each panel member's attempts best from the other members' "
        "(leave one member out), on exercises of the puzzle database that are not "
        "in the shipped packs, so the packs' validation stays held out.  With "
        f"--json the output is the file 'fechtbuch pack rate' reads:\n\n"
        f"\b\n  fechtbuch db mine --game {spec.game} --rounds 400 --seed 2 --db start.sqlite\n"
        f"  fechtbuch {spec.game} bench rating-start --db start.sqlite --json "
        f"> data/rating/{spec.game}-start.json"
    )
    command.short_help = "Where exercise ratings start, fitted on database exercises."
    return command
