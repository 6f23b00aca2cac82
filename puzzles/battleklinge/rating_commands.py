"""``fechtbuch bench rating-ladder``: measure the Elo of the rating panel's members."""

from __future__ import annotations

import click
from fechtbuch.engines.clikit import (
    emit_json,
    games_option,
    jobs_option,
    json_option,
    resolve_jobs,
    seed_option,
)


@click.command("rating-ladder")
@games_option(400)
@seed_option(27, "the match deals")
@jobs_option
@json_option("the ladder as data/rating/battleklinge-ladder.json stores it")
def rating_ladder_command(games: int, seed: int, jobs: int | None, as_json: bool) -> None:
    """Measure the rating panel's ladder by matches between neighbouring members.

    Members, weakest first: leicht, then the engine at 30, 100, 300, 1,000,
    3,000 and 10,000 nodes per move (no forced-play proofs).  Each neighbouring
    pair plays GAMES games (paired deals, each from both sides, as 'fechtbuch
    match' plays them); the Elo differences are chained from nodes-300, rated
    1500.  The same seed gives the same ladder for any -j.  With --json the
    output is the file 'fechtbuch pack rate' reads:

    \b
      fechtbuch bench rating-ladder --games 400 --seed 27 --json \\
          > data/rating/battleklinge-ladder.json
    """
    from fechtbuch.puzzles.battleklinge.rating_panel import measure_ladder

    ladder = measure_ladder(games, seed, resolve_jobs(jobs))
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
