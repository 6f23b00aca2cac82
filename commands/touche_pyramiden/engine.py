"""The ``pyramiden`` command group: show, new, play, match, replay, bench.

cli.py registers :data:`pyramiden_group`; everything game-specific stays here.
"""

from __future__ import annotations

import os
import sys
import time

import click
from fechtbuch.commands.options import emit_json, int_range, jobs_option, json_option, log_options
from fechtbuch.commands.players import command_players
from fechtbuch.commands.playoptions import (
    force_option,
    hotseat_option,
    movetime_option,
    plain_option,
    save_option,
    seat_option,
    seed_option,
    strength_option,
)
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import ensure_writable
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.board import field_name
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.players import STRENGTHS
from fechtbuch.engines.touche_pyramiden.record import GameRecord, read_record
from fechtbuch.engines.touche_pyramiden.session import Table
from fechtbuch.engines.touche_pyramiden.shuffle import check_seed
from fechtbuch.engines.touche_pyramiden.state import TEAM_SPLITS, Config, Phase
from fechtbuch.engines.touche_pyramiden.textboard import one_away, playable_fields, render
from fechtbuch.engines.workers import resolve_jobs

PATTERN_CHOICES = [p.value for p in Pattern] + ["wahl"]


def _config(players: int, teams: int | None, rounds: int, pattern: str) -> Config:
    fixed = None if pattern == "wahl" else Pattern(pattern)
    return Config(players, teams if teams is not None else players, rounds, fixed)


@click.group("pyramiden", context_settings={"help_option_names": ["-h", "--help"]})
def pyramiden_group() -> None:
    """Touché with pyramids (ruleset pyramiden-1) for 2-6 players or teams.

    \b
    Examples:
      fechtbuch pyramiden play --players 2                 # you against 'mittel'
      fechtbuch pyramiden play --players 4 --teams 2 --hotseat --plain
      fechtbuch pyramiden new --players 3 --seed abend
      fechtbuch pyramiden show "$(fechtbuch pyramiden new --players 2 --seed x)"
      fechtbuch pyramiden match stark mittel --players 2 --games 200 --seed ladder

    \b
    Fields are column a-n + row 1-8 ('c7'); actions are '7H:c3' (card on field),
    'XX:c3' (joker), 'XX:-c3' / 'XX:=c3' (joker removes a pyramid / and puts an own one
    there), '5S:g4' (any card on a free field, only completing), 'tausch:7H,8C' (dead
    cards), 'pass', 'muster:kvadrat'.  See docs/touche-pyramiden.md.
    """


def _rule_options(func, with_seed: bool = True):
    options = [
        click.option(
            "--players",
            type=int_range(2, 6),
            default=2,
            show_default=True,
            help="Number of players.",
        ),
        click.option(
            "--teams",
            type=int_range(2, 6),
            default=None,
            help="Number of teams: 4 players allow 2, 6 players 2 or 3 "
            "(default: everybody plays alone).",
        ),
        click.option(
            "--rounds",
            type=click.Choice(["3", "4"]),
            default="3",
            show_default=True,
            help="Rounds agreed before the game.",
        ),
        click.option(
            "--pattern",
            type=click.Choice(PATTERN_CHOICES),
            default="wahl",
            show_default=True,
            help="The pattern of every round, or 'wahl': the chooser picks one per round.",
        ),
    ]
    if with_seed:
        options.append(
            click.option(
                "--seed",
                default="fechtbuch",
                show_default=True,
                help="Seed of the dealer draw and every shuffle (letters, digits, ._-).",
            )
        )
    for option in reversed(options):
        func = option(func)
    return func


def _game_options_without_seed(func):
    return _rule_options(func, with_seed=False)


def _game_options(func):
    """Players, teams, rounds, pattern and ``--seed`` (default ``fechtbuch``)."""
    return _rule_options(func)


@pyramiden_group.command("new")
@_game_options
@json_option()
def new_command(players, teams, rounds, pattern, seed, as_json) -> None:
    """Print the start of a new game (full state notation, one line).

    \b
    Example:
      fechtbuch pyramiden new --players 4 --teams 2 --pattern kvadrat --seed abend
    """
    check_seed(seed)
    config = _config(players, teams, int(rounds), pattern)
    state = rules.new_game(config, seed)
    text = notation.format_state(state)
    if as_json:
        dealer, draws = rules.dealer_labels(seed, players)
        emit_json(
            {
                "state": text,
                "dealer": dealer,
                "dealer_draws": draws,
                "shuffles": [rules.round_label(seed, r) for r in range(1, config.rounds + 1)],
            }
        )
        return
    click.echo(text)


def _parse_any(text: str) -> notation.View:
    """A view from view notation, or a full state's view of its player to move."""
    if " sicht=" in text:
        return notation.parse_view(text)
    state = notation.parse_state(text)
    return notation.view_of(state, state.to_move)


@pyramiden_group.command("show")
@click.argument("position")
@click.option(
    "--seat",
    type=int_range(0, 5),
    default=None,
    help="Show a full state from this seat (default: the seat to move).",
)
@click.option("--plain", is_flag=True, help="No colours (the markers + ! * stay).")
@json_option()
def show_command(position: str, seat, plain: bool, as_json: bool) -> None:
    """Draw POSITION (a full state or a view) with coordinates and highlights.

    '+' marks fields the hand's cards can take, '!' the missing field of a pattern one
    field from completion (the legend names the team), '*' both.

    \b
    Example:
      fechtbuch pyramiden show "$(fechtbuch pyramiden new --players 2 --seed x)" --plain
    """
    view = _parse_any(position)
    if seat is not None:
        if " sicht=" in position:
            raise InputError("seat: a view shows one seat only; --seat needs a full state")
        if seat >= view.config.players:
            raise InputError(f"seat: expected 0-{view.config.players - 1}, got {seat}")
        view = notation.view_of(notation.parse_state(position), seat)
    if as_json:
        emit_json(
            {
                "view": notation.format_view(view),
                "seat": view.seat,
                "playable": sorted(field_name(f) for f in playable_fields(view)),
                "one_away": {
                    str(t + 1): sorted({field_name(f) for f, _ in items})
                    for t, items in one_away(view).items()
                },
            }
        )
        return
    click.echo(render(view, colour=not plain))


# ---- play ---------------------------------------------------------------------------
@pyramiden_group.command("play")
@_game_options_without_seed
@seed_option(what="the dealer draw, every shuffle and the computer (letters, digits, ._-)")
@seat_option(int_range(0, 5), 0, "0-5, numbered clockwise")
@strength_option(STRENGTHS, "the computer seats")
@movetime_option()
@hotseat_option()
@plain_option()
@save_option(aliases=("--record",))
@force_option()
def play_command(
    players,
    teams,
    rounds,
    pattern,
    seed,
    seat,
    strength,
    movetime,
    hotseat,
    plain,
    save_file,
    force,
) -> None:
    """Play in the terminal: you take one seat and the computer the others.

    Type an action ('7H:c3', 'XX:-c3', 'tausch:7H', 'muster:kvadrat'), a number from
    the list that '?' prints, or 'q' to give up.  With --hotseat several people share
    the keyboard: before each turn the screen is cleared and the next seat presses
    Enter, so nobody sees another hand.

    \b
    Examples:
      fechtbuch pyramiden play --players 3 --strength stark
      fechtbuch pyramiden play --players 2 --strength meister --movetime 1
      fechtbuch pyramiden play --players 4 --teams 2 --pattern kors --rounds 4
      fechtbuch pyramiden play --players 2 --hotseat --save abend.txt
    """
    if seed is None:
        seed = str(int.from_bytes(os.urandom(4), "big"))
    check_seed(seed)
    config = _config(players, teams, int(rounds), pattern)
    if seat >= players:
        raise InputError(f"seat: expected 0-{players - 1}, got {seat}")
    if save_file:
        ensure_writable(save_file, force)
    humans = set(range(players)) if hotseat else {seat}
    factory = command_players("touche-pyramiden")
    computers = {
        s: factory.make(strength, f"{seed}/sitz{s}", movetime=movetime)
        for s in range(players)
        if s not in humans
    }
    table = Table(
        rules.new_game(config, seed),
        humans,
        computers,
        sys.stdin,
        lambda text="", newline=True: click.echo(text, nl=newline),
        strength=strength,
        plain=plain,
        hotseat=hotseat,
    )
    cfg = table.state.config
    click.echo(
        f"Touché (pyramiden-1): {players} players, {cfg.teams} teams, {cfg.rounds} rounds, "
        f"pattern {pattern}, seed {seed}."
    )
    table.run()
    if save_file:
        names = tuple((f"Seat-{s}", "mensch" if s in humans else strength) for s in range(players))
        GameRecord(config, seed, tuple(table.actions), headers=names).write(str(save_file), force)
        click.echo(f"Game saved: {save_file}")


@pyramiden_group.command("match")
@click.argument("a", type=click.Choice(STRENGTHS))
@click.argument("b", type=click.Choice(STRENGTHS))
@click.option(
    "--players",
    type=click.Choice(["2", "4", "6"]),
    default="2",
    show_default=True,
    help="2 players, or 4 or 6 players as two teams (A and B sit alternately).",
)
@click.option(
    "--games",
    type=int_range(1, 100000),
    default=20,
    show_default=True,
    help="Number of games; the seats rotate from game to game.",
)
@click.option("--seed", default="match", show_default=True, help="Seed of the match.")
@click.option(
    "--rounds",
    type=click.Choice(["3", "4"]),
    default="3",
    show_default=True,
    help="Rounds per game.",
)
@click.option(
    "--rollouts",
    type=int_range(1, 10**7),
    default=None,
    help="meister's play-outs per decision instead of its default (reproducible).",
)
@movetime_option()
@jobs_option
@log_options()
@json_option()
def match_command(
    a, b, players, games, seed, rounds, rollouts, movetime, jobs, log, resume, force, as_json
) -> None:
    """Computer A against computer B over GAMES games, seats rotated every game.

    Games 2k and 2k+1 play the same deal; A takes the even seats in the even game and
    the odd seats in the odd game.  A game is won by the side with more points (equal:
    a draw).  Prints the score with its 95% interval and the Elo difference.
    --rollouts and --movetime set meister's budget (the other strengths have none);
    with --movetime the games depend on the machine and its load.

    \b
    Examples:
      fechtbuch pyramiden match stark mittel --players 4 --games 200 --seed ladder -j 2
      fechtbuch pyramiden match meister stark --players 2 --games 200 --rollouts 200
    """
    from fechtbuch.engines.matchkit import open_log
    from fechtbuch.engines.touche_pyramiden.match import (
        decode_result,
        points_per_game,
        run_match,
    )

    check_seed(seed)
    # "results": 2 since each game logs A's and B's time as pairs (older logs differ)
    params = {"a": a, "b": b, "players": int(players), "seed": seed, "rounds": int(rounds)}
    params["results"] = 2
    budget = {k: v for k, v in (("rollouts", rollouts), ("movetime", movetime)) if v is not None}
    if len(budget) > 1:
        raise InputError("budget: give one of --rollouts and --movetime")
    params |= budget  # only when given: logs of matches without them still resume
    done, logged = open_log(log, resume, force, games, params, decode_result)
    summary, results = run_match(
        a,
        b,
        int(players),
        games,
        seed,
        rounds=int(rounds),
        progress=logged,
        jobs=resolve_jobs(jobs),
        done=done,
        factory=command_players("touche-pyramiden"),
        budget=budget,
    )
    per_game = points_per_game(results)
    if as_json:
        emit_json(summary.to_dict() | {"points_per_game": per_game})
        return
    click.echo(summary.to_text())
    if per_game is not None:
        (a_mean, a_half), (b_mean, b_half) = per_game["a"], per_game["b"]
        click.echo(
            f"  points per game (95% intervals by deal): {a} {a_mean:.2f} ± {a_half:.2f}, "
            f"{b} {b_mean:.2f} ± {b_half:.2f}"
        )


@pyramiden_group.command("replay")
@click.argument("record", type=click.Path(dir_okay=False))
@json_option()
def replay_command(record: str, as_json: bool) -> None:
    """Replay a game record, check every action and print the final state.

    \b
    Example:
      fechtbuch pyramiden replay abend.txt --json
    """
    game = read_record(record)
    final = game.states()[-1]
    if as_json:
        emit_json(
            {
                "actions": len(game.actions),
                "result": game.result(),
                "final": notation.format_state(final),
            }
        )
        return
    click.echo(f"{len(game.actions)} actions, result {game.result()}")
    click.echo(notation.format_state(final))


@pyramiden_group.command("bench")
@click.option(
    "--players",
    type=int_range(2, 6),
    default=2,
    show_default=True,
    help="Number of players of the random games measured.",
)
@click.option(
    "--states",
    "count",
    type=int_range(100, 10**7),
    default=20000,
    show_default=True,
    help="How many states to generate and expand.",
)
@json_option()
def bench_command(players: int, count: int, as_json: bool) -> None:
    """Speed of the rules: random playouts, states per second (legal actions + apply).

    \b
    Example:
      fechtbuch pyramiden bench --players 4 --states 50000
    """
    from fechtbuch.engines.touche_pyramiden.shuffle import HashStream

    rng = HashStream(f"bench/{players}")
    teams = TEAM_SPLITS[players][0]
    done = 0
    actions_seen = 0
    start = time.perf_counter()
    game = 0
    while done < count:
        state = rules.new_game(Config(players, teams, 3, None), f"bench-{game}")
        game += 1
        while state.phase is not Phase.OVER and done < count:
            legal = rules.legal_actions(state)
            actions_seen += len(legal)
            state = rules.apply_unchecked(state, legal[rng.below(len(legal))])
            done += 1
    seconds = time.perf_counter() - start
    figures = {
        "players": players,
        "states": done,
        "games": game,
        "seconds": round(seconds, 3),
        "states_per_second": round(done / seconds),
        "actions_per_state": round(actions_seen / done, 1),
    }
    if as_json:
        emit_json(figures)
        return
    click.echo(
        f"{done} states in {seconds:.2f} s: {done / seconds:,.0f} states/s "
        f"({actions_seen / done:.1f} legal actions per state, {players} players)"
    )
