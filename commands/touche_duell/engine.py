"""``fechtbuch touche ...``: show, new, play and match for the Touché duel.

``touche_group`` is the click group; ``cli.py`` registers it.
"""

from __future__ import annotations

import os
import sys

import click
from fechtbuch.commands.options import emit_json, int_range, jobs_option, json_option, log_options
from fechtbuch.commands.players import command_players
from fechtbuch.commands.playoptions import (
    force_option,
    given,
    hotseat_option,
    no_warnings_option,
    option_flag,
    plain_option,
    save_option,
    seat_option,
    seed_option,
    strength_option,
)
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import ensure_writable
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.board import draw
from fechtbuch.engines.touche_duell.deal import lot, new_round, round_seed
from fechtbuch.engines.touche_duell.notation import (
    PLAYER_CHARS,
    Level,
    NotationError,
    Position,
    Ruleset,
    format_action,
    format_position,
    format_view,
    parse_position,
    parse_view,
)
from fechtbuch.engines.touche_duell.players import SAMPLES, STRENGTHS
from fechtbuch.engines.touche_duell.record import GameRecord
from fechtbuch.engines.workers import resolve_jobs

LEVELS = [level.value for level in Level]

_level_option = click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="standard",
    show_default=True,
    help="Rule level: kinder (every attack hits), standard, fortgeschritten (lunge).",
)
_short_option = click.option("--short", is_flag=True, help="The short game: to 3 points.")


@click.group("touche")
def touche_group() -> None:
    """The Touché duel: a fencing duel with number cards (after En Garde).

    \b
    Positions are one line of eight fields, e.g.
      'standard 1-23 0:0 A zug 23355/11234 00000 341252544251314'
    (ruleset, squares A-B, score, mover, phase, hands A/B, discard counts, pile);
    a player's view hides one hand and the pile: '23355/?5 ... ?15'.
    Actions: m+3, m-2, a3x2, l4a2x1, p, r3, - . See docs/touche-duell.md.
    """


def _parse_any(text: str):
    """A full position, or else a player's view; the error of the closer reading."""
    if "?" in text:
        return parse_view(text)
    return parse_position(text)


@touche_group.command("show")
@click.argument("text", metavar="VIEW_OR_POSITION")
@json_option("the facts")
def show_command(text: str, as_json: bool) -> None:
    """Draw a position or a player's view: track, fencers, distance, hands, discard, pile.

    \b
    Example:
      fechtbuch touche show 'standard 9-12 0:0 A zug 11223/?5 01000 ?14'
    """
    p = _parse_any(text)
    if as_json:
        out = {
            "ruleset": p.rules.name,
            "squares": list(p.squares),
            "distance": p.distance,
            "score": list(p.score),
            "mover": PLAYER_CHARS[p.mover],
            "phase": p.phase.value,
            "over": p.phase.over,
            "discard": list(p.discard),
        }
        if isinstance(p, Position):
            out.update(
                position=format_position(p),
                hands=[list(h) for h in p.hands],
                pile=list(p.pile),
                legal=[format_action(a) for a in rules.legal_actions(p)],
            )
        else:
            out.update(
                view=format_view(p),
                viewer=PLAYER_CHARS[p.viewer],
                hand=list(p.hand),
                other_hand_size=p.other_size,
                pile_size=p.pile_size,
                unseen=list(p.unseen()),
            )
        emit_json(out)
        return
    click.echo(draw(p))


@touche_group.command("new")
@click.option("--seed", required=True, help="Seed string of the deal (and the lot).")
@_level_option
@_short_option
@json_option("position, seed and starter")
def new_command(seed: str, level: str, short: bool, as_json: bool) -> None:
    """Print the full position of the first round of a new game seeded SEED.

    The lot (from the seed) picks the starting fencer; the deal is round 1's
    shuffle seed SEED/1.

    \b
    Example:
      fechtbuch touche new --seed 7 --level fortgeschritten --short
    """
    rules_ = Ruleset(Level(level), short)
    starter = lot(seed)
    pos = new_round(round_seed(seed, 1), starter, rules_)
    if as_json:
        emit_json(
            {
                "position": format_position(pos),
                "seed": seed,
                "shuffle": round_seed(seed, 1),
                "starter": PLAYER_CHARS[starter],
            }
        )
        return
    click.echo(format_position(pos))


@touche_group.command("play")
@strength_option(STRENGTHS)
@seat_option(click.Choice(["A", "B"]), "A", "A (starts on square 1) or B", aliases=("--fencer",))
@hotseat_option(aliases=("--two-players",))
@_level_option
@_short_option
@seed_option(what="the game: the lot and every shuffle")
@no_warnings_option()
@plain_option()
@save_option()
@force_option()
def play_command(strength, seat, hotseat, level, short, seed, no_warnings, plain, save_file, force):
    """Play the Touché duel in the terminal, against the computer or two at one keyboard.

    \b
    Against the computer:  fechtbuch touche play --strength stark --seat B
    Two players:           fechtbuch touche play --hotseat --level fortgeschritten
    Replayable:            fechtbuch touche play --seed 7 --save duel.txt

    At the prompt type an action (m+3, m-2, a3x2, l4a2x1, p, r3, -) or a command:
    legal, hint, undo, resign, save FILE, help, quit.  (The board has no colours;
    --plain matters for the exercises of --pack.)
    """
    from fechtbuch.engines.touche_duell.session import Session

    ctx = click.get_current_context()
    if hotseat:
        for name in ("strength", "seat"):
            if given(ctx, name):
                raise InputError(f"{option_flag(ctx, name)}: not used with --hotseat")
    if save_file:
        ensure_writable(save_file, force=force)
    if seed is None:
        seed = str(int.from_bytes(os.urandom(4), "big"))
    rules_ = Ruleset(Level(level), short)
    human = PLAYER_CHARS.index(seat)
    computer = {} if hotseat else {1 - human: command_players("touche-duell").make(strength, seed)}
    names = (
        (("A", "person"), ("B", "person"))
        if hotseat
        else (
            (PLAYER_CHARS[human], "person"),
            (PLAYER_CHARS[1 - human], strength),
        )
    )
    record = GameRecord.new(rules_, seed, headers=tuple(sorted(names)))
    click.echo(
        f"Touché, {rules_.name}, seed {seed}: {PLAYER_CHARS[record.starter]} begins (by lot)."
    )
    session = Session(
        record,
        computer,
        sys.stdin,
        lambda text, newline=True: click.echo(text, nl=newline),
        show_warnings=not no_warnings,
        save_to=str(save_file) if save_file else None,
        force=force,
    )
    session.run()


@touche_group.command("match")
@click.argument("a", type=click.Choice(STRENGTHS))
@click.argument("b", type=click.Choice(STRENGTHS))
@click.option(
    "--games",
    type=int_range(1, 100_000),
    default=20,
    show_default=True,
    help="Number of games; each deal is played twice with the sides swapped.",
)
@click.option("--seed", default="1", show_default=True, help="Seed string of the match.")
@_level_option
@_short_option
@click.option(
    "--samples",
    type=int_range(1, 10_000),
    default=SAMPLES,
    show_default=True,
    help="meister: sampled deals per candidate action in each round of its halving search.",
)
@jobs_option
@click.option("--progress", is_flag=True, help="Print one line per game.")
@log_options()
@json_option("the summary")
def match_command(
    a, b, games, seed, level, short, samples, jobs, progress, log, resume, force, as_json
) -> None:
    """Play strength A against strength B over N whole games (to 5 or 3 points).

    Deals come in pairs: games 2k and 2k+1 share every seed, and A fences as A in
    the first and as B in the second.  Prints the score with its 95% interval and
    the Elo difference; the games are the same for any -j.

    \b
    Example:
      fechtbuch touche match stark mittel --games 200 --seed 1 -j 2
      fechtbuch touche match stark mittel --games 400 --log sm.jsonl    # later: --resume
    """
    from fechtbuch.engines.matchkit import open_log
    from fechtbuch.engines.touche_duell.match import decode_result, run_match

    def report(result) -> None:
        if progress:
            click.echo(
                f"game {result.index + 1}: {result.outcome} "
                f"{result.score[0]}:{result.score[1]} (A fences as "
                f"{PLAYER_CHARS[result.a_fencer]})",
                err=as_json,
            )

    ruleset = Ruleset(Level(level), short)
    players = command_players("touche-duell")
    params = {"a": a, "b": b, "seed": seed, "ruleset": ruleset.name, "samples": samples}
    done, logged = open_log(log, resume, force, games, params, decode_result)

    def finished(result) -> None:
        if logged is not None:
            logged(result)
        report(result)

    summary, _ = run_match(
        a, b, games, seed, ruleset, samples, finished, resolve_jobs(jobs), players, done
    )
    if as_json:
        emit_json(summary.to_dict())
        return
    click.echo(summary.to_text())


@touche_group.command("replay")
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--board", is_flag=True, help="Draw the track and hands after every action.")
@json_option(
    "rounds (deals), steps (position before and after each action), final position, "
    "result and verified"
)
def replay_command(record_file: str, board: bool, as_json: bool) -> int:
    """Replay a game record step by step and verify that it replays exactly.

    Every round's deal comes from its Shuffle seed; every action is applied with the
    fast rules and again with the plain reference rules, and the positions must
    agree.  Prints each round's deal and, per action, who played it and the full
    position after it.  Exit status: 0 verified, 1 the two rule books disagree,
    2 a bad record (an illegal action, a wrong Result, a missing Shuffle seed).

    \b
    Example:
      fechtbuch touche play --seed 7 --save duel.txt
      fechtbuch touche replay duel.txt --board
    """
    from fechtbuch.engines.touche_duell.record import read_game
    from fechtbuch.engines.touche_duell.replay import replay

    game = replay(read_game(record_file))
    if as_json:
        emit_json(game.to_json())
        return 0 if game.verified else 1
    starts = {r.number: r for r in game.rounds}
    shown = 0
    for step in game.steps:
        if step.round > shown:
            shown = step.round
            start = starts[shown]
            click.echo(f"round {shown} (shuffle {start.shuffle}, {start.starter} begins)")
            click.echo(f"      {start.position}")
        click.echo(f"{step.ply:4d}. {step.mover} {step.action:<7} {step.after}")
        if board:
            click.echo(draw(parse_position(step.after)))
    click.echo(f"result {game.result}; final position {game.final}")
    if game.verified:
        click.echo(f"verified: {len(game.steps)} actions replay exactly (fast and reference rules)")
        return 0
    for problem in game.disagreements:
        click.echo(f"disagreement: {problem}")
    return 1


@touche_group.command("bench")
@click.option(
    "--rounds",
    type=int_range(1, 10_000),
    default=200,
    show_default=True,
    help="Random rounds played for the states/s of the rules.",
)
@click.option(
    "--positions",
    type=int_range(1, 10_000),
    default=100,
    show_default=True,
    help="Positions on which each strength's seconds per move are measured.",
)
@json_option("the figures")
def bench_command(rounds: int, positions: int, as_json: bool) -> None:
    """States/s of the fast rules and of the reference (random play of ROUNDS rounds
    per rule set), and seconds per move of each strength on POSITIONS positions.

    \b
    Example:
      fechtbuch touche bench --rounds 200 --positions 100
    """
    from fechtbuch.engines.touche_duell.bench import run_bench

    write = (lambda text: None) if as_json else click.echo
    result = run_bench(rounds, positions, write, command_players("touche-duell").make)
    if as_json:
        emit_json(result)


__all__ = ["touche_group", "NotationError"]
