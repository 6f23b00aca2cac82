"""Games between computer players: one game, and a match with seats rotated.

Each computer seat is given only ``view_of(state, seat)``.  The schedule, score and
Elo are :mod:`fechtbuch.engines.matchkit`'s: games ``2k`` and ``2k+1`` play the same
deal (game seed ``<seed>-<k>``), A on the even seats in the even game and on the odd
seats in the odd game (with alternate seating the even seats are one team in team
games), so both sides get both seatings of every deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fechtbuch.engines.matchkit import (
    LOSS,
    MIN_DEALS,
    WIN,
    MatchSummary,
    mean_interval,
    play_match,
    summarize,
)
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.notation import view_of
from fechtbuch.engines.touche_pyramiden.players import ComputerPlayer
from fechtbuch.engines.touche_pyramiden.record import GameRecord
from fechtbuch.engines.touche_pyramiden.state import Config, Phase


@dataclass
class GameResult:
    seed: str
    scores: tuple[int, ...]
    a_seats: tuple[int, ...]
    record: GameRecord
    moves: int
    seconds_by_name: dict[str, float] = field(default_factory=dict)
    moves_by_name: dict[str, int] = field(default_factory=dict)


def play_game(
    config: Config, seed: str, seats: list[ComputerPlayer], names: list[str]
) -> GameResult:
    """Play one game to the end; ``seats[s]`` plays seat ``s``."""
    state = rules.new_game(config, seed)
    actions = []
    seconds: dict[str, float] = {}
    counts: dict[str, int] = {}
    while state.phase is not Phase.OVER:
        seat = state.to_move
        choice = seats[seat].choose(view_of(state, seat))
        seconds[names[seat]] = seconds.get(names[seat], 0.0) + choice.seconds
        counts[names[seat]] = counts.get(names[seat], 0) + 1
        actions.append(choice.action)
        state = rules.apply(state, choice.action)
    headers = tuple((f"Seat-{s}", names[s]) for s in range(config.players))
    record = GameRecord(config, seed, tuple(actions), headers=headers)
    return GameResult(seed, state.scores, (), record, len(actions), seconds, counts)


@dataclass(frozen=True)
class SlotResult:
    """One match game from A's side (what a worker process hands back)."""

    index: int
    outcome: str
    a_points: int
    b_points: int
    seconds: tuple[float, float]
    """A's and B's thinking time, over all their seats."""
    move_counts: tuple[int, int]


def play_slot(
    a: str,
    b: str,
    config: Config,
    seed: str,
    index: int,
    a_parity: int,
    factory: PlayerFactory | None = None,
    budget: dict | None = None,
) -> SlotResult:
    """Game ``index`` of a match (a module-level function: it runs in workers);
    ``factory``: the game's player factory (``None``: the engine's own players);
    ``budget``: ``movetime`` or ``rollouts`` for every player (meister's budget)."""
    make = ComputerPlayer if factory is None else factory.make
    players = config.players
    names = [f"A:{a}" if s % 2 == a_parity else f"B:{b}" for s in range(players)]
    seats = [
        make(a if s % 2 == a_parity else b, f"{seed}/{index}/{s}", **(budget or {}))
        for s in range(players)
    ]
    outcome = play_game(config, f"{seed}-{index // 2}", seats, names)
    a_teams = {config.team_of(s) for s in range(players) if s % 2 == a_parity}
    b_teams = {config.team_of(s) for s in range(players) if s % 2 != a_parity}
    a_best = max(outcome.scores[t] for t in a_teams)
    b_best = max(outcome.scores[t] for t in b_teams)
    won = WIN if a_best > b_best else LOSS if b_best > a_best else "draw"
    a_name, b_name = f"A:{a}", f"B:{b}"
    return SlotResult(
        index,
        won,
        sum(outcome.scores[t] for t in a_teams),
        sum(outcome.scores[t] for t in b_teams),
        (outcome.seconds_by_name.get(a_name, 0.0), outcome.seconds_by_name.get(b_name, 0.0)),
        (outcome.moves_by_name.get(a_name, 0), outcome.moves_by_name.get(b_name, 0)),
    )


def run_match(
    a: str,
    b: str,
    players: int,
    games: int,
    seed: str,
    teams: int | None = None,
    rounds: int = 3,
    progress: Callable[[SlotResult], None] | None = None,
    jobs: int = 1,
    done: list[SlotResult] | None = None,
    factory: PlayerFactory | None = None,
    budget: dict | None = None,
) -> tuple[MatchSummary, list[SlotResult]]:
    """A against B; with more than two seats, A and B each take alternate seats.
    ``jobs`` worker processes play the same games as one.  ``done``: the first games,
    already played (a resumed match); ``progress`` is called with each new game;
    ``budget``: meister's ``movetime`` or ``rollouts`` (:func:`play_slot`)."""
    teams = teams or (2 if players in (4, 6) else players)
    config = Config(players, teams, rounds, None)
    results, wall = play_match(
        play_slot,
        lambda slot: (a, b, config, seed, slot.index, 0 if slot.a_first else 1, factory, budget),
        games,
        jobs,
        progress,
        done or (),
    )
    label = f"touche-pyramiden, {players} players, {teams} teams, {rounds} rounds"
    points = (sum(r.a_points for r in results), sum(r.b_points for r in results))
    summary = summarize(label, a, b, seed, results, wall, points=points)
    return summary, results


def points_per_game(results: list[SlotResult]) -> dict[str, list[float]] | None:
    """A's and B's points per game, each as ``[mean, half-width of its 95% interval]``
    over the complete deals (the two games of a deal share its luck, so the deal is
    the unit); ``None`` below ``MIN_DEALS`` deals."""
    games = {r.index: r for r in results}
    deals = [
        (games[2 * k], games[2 * k + 1])
        for k in range(max(games, default=0) // 2 + 1)
        if 2 * k in games and 2 * k + 1 in games
    ]
    if len(deals) < MIN_DEALS:
        return None
    out = {}
    for side, points in (("a", lambda r: r.a_points), ("b", lambda r: r.b_points)):
        mean, half = mean_interval([(points(g) + points(h)) / 2 for g, h in deals])
        out[side] = [round(mean, 3), round(half, 3)]
    return out


def decode_result(game: dict) -> SlotResult:
    """A game of the match log back as a :class:`SlotResult`."""
    tuples = ("seconds", "move_counts")
    return SlotResult(**(game | {k: tuple(game[k]) for k in tuples}))
