"""``fechtbuch bench tune-eval``: try evaluation candidates in matches."""

from __future__ import annotations

import click
from fechtbuch.commands.options import games_option, jobs_option, seed_option
from fechtbuch.commands.players import command_players
from fechtbuch.engines.battleklinge.players import STRENGTH_NAMES
from fechtbuch.engines.battleklinge.tuning import run_tuning
from fechtbuch.engines.workers import resolve_jobs


@click.command("tune-eval")
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
def bench_tune_eval_command(strength, games, seed, jobs, only, candidate) -> None:
    """Self-play tuning: each evaluation feature off, halved and doubled, as a match
    against the current weights (how docs/strength.md's table was made)."""
    players = command_players("battleklinge")
    run_tuning(strength, games, seed, resolve_jobs(jobs), only, candidate, click.echo, players)
