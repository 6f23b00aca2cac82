"""The command group any game gets from its plugin alone.

A game whose plugin names no group of its own is served by :func:`group`: ``show``,
``solve`` (the generic df-pn with the independent verifier, over the plugin's proof
view), ``play`` (the one terminal loop, against the plugin's players), ``match``
(the one match harness) and ``mine`` (the one mining loop with the plugin's mining
kind); ``fechtbuch pack`` verifies and plays its packs through its pack kind.  Each
command is there only when the plugin offers the part it needs.  Nothing here
names a game.
"""

from __future__ import annotations

import secrets
import sys

import click
from fechtbuch.commands.options import emit_json, int_range, jobs_option, json_option, log_options
from fechtbuch.commands.playoptions import (
    DEFAULT_STRENGTH,
    seat_option,
    seed_option,
    strength_option,
)
from fechtbuch.commands.solveoptions import max_nodes_option, max_option, verify_option
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.plugin import GamePlugin, load
from fechtbuch.engines.registry import game as game_of
from fechtbuch.engines.workers import resolve_jobs


def _position(plugin: GamePlugin, text: str):
    return game_of(plugin.slug).parse_state(text)


def _show(plugin: GamePlugin) -> click.Command:
    @click.command("show")
    @click.argument("position")
    @json_option()
    def show(position: str, as_json: bool) -> None:
        """Print POSITION in the game's notation with its legal actions.

        Example: fechtbuch GAME show 'POSITION'
        """
        game = game_of(plugin.slug)
        state = _position(plugin, position)
        actions = [game.format_action(state, a) for a in game.legal_actions(state)]
        if as_json:
            emit_json({"position": game.format_state(state), "actions": actions})
            return
        click.echo(game.format_state(state))
        click.echo("Legal: " + (" ".join(actions) or "(game over)"))

    return show


def _solve(plugin: GamePlugin) -> click.Command:
    @click.command("solve")
    @click.argument("position")
    @max_option(20, 3, "own turns of the side to act")
    @max_nodes_option(1_000_000)
    @verify_option()
    @json_option()
    def solve(position: str, max_n: int, max_nodes: int, verify: bool, as_json: bool) -> int:
        """Prove a win for the side to act of POSITION within --max own turns:
        distance, every key, the main line (df-pn; --verify re-derives them).

        Example: fechtbuch GAME solve 'POSITION' --max 3 --verify
        """
        from fechtbuch.solver.andor_solve import FOUND, UNKNOWN, solve_andor

        problem, root = load(plugin.problem)(_position(plugin, position))
        found = solve_andor(problem, root, max_n, max_nodes=max_nodes, verify=verify)
        if as_json:
            emit_json(found.to_json())
        elif found.status is FOUND:
            click.echo(f"win in {found.distance}: keys {', '.join(found.keys)}")
            click.echo("main line: " + " ".join(found.main_line))
        elif found.status is UNKNOWN:
            click.echo(f"unknown: {found.note}")
        else:
            click.echo(f"no win within {max_n}")
        if verify and found.verified is not None:
            click.echo(f"verified: {'yes' if found.verified else 'NO'}", err=as_json)
        return 1 if found.status is UNKNOWN or found.verified is False else 0

    return solve


def _play(plugin: GamePlugin) -> click.Command:
    factory = load(plugin.players)

    default = DEFAULT_STRENGTH if DEFAULT_STRENGTH in factory.strengths else factory.strengths[0]

    @click.command("play")
    @strength_option(factory.strengths, default=default)
    @seat_option(int_range(1, 2), 1, "1 acts first, 2 second")
    @seed_option(int_range(0), "the deal and the computer")
    def play(strength: str, seat: int, seed: int) -> None:
        """Play against the computer in the terminal: type actions in notation,
        '?' lists the legal ones, 'q' quits.

        Example: fechtbuch GAME play --strength STRENGTH --seat 2
        """
        from fechtbuch.engines.gameloop import play as loop

        if seed is None:
            seed = secrets.randbelow(10**6)
        click.echo(f"Seed {seed} (--seed {seed} plays this game again).")
        game = game_of(plugin.slug)
        lines = (line.rstrip("\n") for line in sys.stdin)
        computer = {2 - seat: factory.seat(strength, seed)}
        loop(game, game.initial_state(seed), computer, lines, click.echo)

    return play


def _match(plugin: GamePlugin) -> click.Command:
    factory = load(plugin.players)

    @click.command("match")
    @click.argument("a", type=click.Choice(factory.strengths))
    @click.argument("b", type=click.Choice(factory.strengths))
    @click.option(
        "--games", type=int_range(1), default=100, show_default=True,
        help="Games (deals played twice, seats swapped).",
    )  # fmt: skip
    @click.option(
        "--seed", type=int_range(0), default=1, show_default=True, help="Seed of the deals."
    )
    @jobs_option
    @log_options()
    @json_option("the summary and every game (results)")
    def match(a, b, games, seed, jobs, log, resume, force, as_json) -> None:
        """Computer A against computer B: score, Elo with 95% intervals over games
        and over deals; the same games for any -j.

        Example: fechtbuch GAME match A B --games 100 -j 2
        """
        from dataclasses import asdict

        from fechtbuch.engines.gamematch import decode_result, run_match
        from fechtbuch.engines.matchkit import open_log

        params = {"game": plugin.slug, "a": a, "b": b, "seed": seed}
        done, logged = open_log(log, resume, force, games, params, decode_result)
        report, results = run_match(
            plugin.slug, factory, a, b, games, seed, resolve_jobs(jobs), progress=logged, done=done
        )
        if as_json:
            emit_json(report.to_dict() | {"results": [asdict(r) for r in results]})
        else:
            click.echo(report.to_text())

    return match


def _mine(plugin: GamePlugin) -> click.Command:
    from fechtbuch.commands.mineoptions import count_option, lengths_option, mine_options
    from fechtbuch.puzzles.minekit import run_mine

    kind = load(plugin.mining_kind)
    pack_kind = load(plugin.pack_kind)

    @click.command("mine")
    @mine_options(
        output=f"{plugin.slug}-uebungen.json",
        rounds=1000,
        round_what="one seeded game and the positions on the way",
        seed_what="the rounds",
    )
    @lengths_option(1, pack_kind.max_n, "turns")
    @count_option(4, 200)
    def mine(run, ns: tuple[int, ...], count: int) -> int:
        """Mine exercises (wins in exactly N with one key) into a pack, resumable
        and parallel, byte-identical for any -j.

        Example: fechtbuch GAME mine --n 1 --n 2 --count 4 -o pack.json
        """
        chosen = tuple(sorted(set(ns))) or tuple(range(1, pack_kind.max_n + 1))
        return run_mine(kind, {"ns": list(chosen), "count": count, "seed": run.seed}, run)

    return mine


def group(plugin: GamePlugin) -> click.Group:
    """The generic group of ``plugin``: one command per part the plugin offers."""
    if game_of(plugin.slug).info.max_players != 2 and plugin.players is not None:
        raise InputError(f"game: {plugin.title}: the generic play and match need 2 players")
    commands = [_show(plugin)]
    if plugin.problem is not None:
        commands.append(_solve(plugin))
    if plugin.players is not None:
        commands += [_play(plugin), _match(plugin)]
    if plugin.mining_kind is not None and plugin.pack_kind is not None:
        commands.append(_mine(plugin))
    return click.Group(
        plugin.slug,
        commands=commands,
        help=f"{plugin.title}: {plugin.summary}",
        context_settings={"help_option_names": ["-h", "--help"]},
    )
