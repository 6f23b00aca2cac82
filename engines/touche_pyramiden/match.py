"""Games between computer players: one game, and a match with seats rotated.

Each computer seat is given only ``view_of(state, seat)``.  The schedule, score and
Elo are :mod:`fechtbuch.engines.matchkit`'s: games ``2k`` and ``2k+1`` play the same
deal (game seed ``<seed>-<k>``), A on the even seats in the even game and on the odd
seats in the odd game (with alternate seating the even seats are one team in team
games), so both sides get both seatings of every deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from fechtbuch.engines.matchkit import LOSS, WIN, run_games, schedule, tally
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


@dataclass
class MatchResult:
    a: str
    b: str
    games: int = 0
    a_wins: float = 0.0
    b_wins: float = 0.0
    draws: int = 0
    a_points: int = 0
    b_points: int = 0
    seconds: float = 0.0
    per_move: dict[str, float] = field(default_factory=dict)
    low: float = 0.0
    high: float = 1.0
    elo: float | None = None
    elo_low: float | None = None
    elo_high: float | None = None
    deals: int = 0
    deal_low: float | None = None
    deal_high: float | None = None

    @property
    def a_score(self) -> float:
        """A's share: wins plus half the draws, per game."""
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def as_dict(self) -> dict:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "a_score": round(self.a_score, 4),
            "a_score_low": round(self.low, 4),
            "a_score_high": round(self.high, 4),
            "elo": self.elo,
            "elo_low": self.elo_low,
            "elo_high": self.elo_high,
            "deals": self.deals,
            "deal_low": None if self.deal_low is None else round(self.deal_low, 4),
            "deal_high": None if self.deal_high is None else round(self.deal_high, 4),
            "seconds": round(self.seconds, 2),
            "seconds_per_move": {k: round(v, 5) for k, v in self.per_move.items()},
        }


@dataclass(frozen=True)
class SlotResult:
    """One match game from A's side (what a worker process hands back)."""

    index: int
    outcome: str
    a_points: int
    b_points: int
    seconds_by_name: dict[str, float]
    moves_by_name: dict[str, int]


def play_slot(
    a: str,
    b: str,
    config: Config,
    seed: str,
    index: int,
    a_parity: int,
    factory: PlayerFactory | None = None,
) -> SlotResult:
    """Game ``index`` of a match (a module-level function: it runs in workers);
    ``factory``: the game's player factory (``None``: the engine's own players)."""
    make = ComputerPlayer if factory is None else factory.make
    players = config.players
    names = [f"A:{a}" if s % 2 == a_parity else f"B:{b}" for s in range(players)]
    seats = [make(a if s % 2 == a_parity else b, f"{seed}/{index}/{s}") for s in range(players)]
    outcome = play_game(config, f"{seed}-{index // 2}", seats, names)
    a_teams = {config.team_of(s) for s in range(players) if s % 2 == a_parity}
    b_teams = {config.team_of(s) for s in range(players) if s % 2 != a_parity}
    a_best = max(outcome.scores[t] for t in a_teams)
    b_best = max(outcome.scores[t] for t in b_teams)
    won = WIN if a_best > b_best else LOSS if b_best > a_best else "draw"
    return SlotResult(
        index,
        won,
        sum(outcome.scores[t] for t in a_teams),
        sum(outcome.scores[t] for t in b_teams),
        outcome.seconds_by_name,
        outcome.moves_by_name,
    )


def match(
    a: str,
    b: str,
    players: int,
    games: int,
    seed: str,
    teams: int | None = None,
    rounds: int = 3,
    progress=None,
    jobs: int = 1,
    done: list[SlotResult] | None = None,
    logged: Callable[[SlotResult], None] | None = None,
    factory: PlayerFactory | None = None,
) -> MatchResult:
    """A against B; with more than two seats, A and B each take alternate seats.
    ``jobs`` worker processes play the same games as one.  ``done``: the first games,
    already played (a resumed match); ``logged`` is called with each new game."""
    teams = teams or (2 if players in (4, 6) else players)
    config = Config(players, teams, rounds, None)
    result = MatchResult(a, b)
    start = time.perf_counter()
    total_seconds: dict[str, float] = {}
    total_moves: dict[str, int] = {}
    outcomes = []

    def report(game: SlotResult) -> None:
        outcomes.append(game.outcome)
        result.games += 1
        result.a_points += game.a_points
        result.b_points += game.b_points
        result.a_wins += game.outcome == WIN
        result.b_wins += game.outcome == LOSS
        result.draws += game.outcome not in (WIN, LOSS)
        for key, value in game.seconds_by_name.items():
            total_seconds[key] = total_seconds.get(key, 0.0) + value
            total_moves[key] = total_moves.get(key, 0) + game.moves_by_name[key]
        if progress is not None:
            progress(len(outcomes), result)

    done = list(done or [])[:games]
    for game in done:
        report(game)

    def finished(game: SlotResult) -> None:
        if logged is not None:
            logged(game)
        report(game)

    tasks = [
        (a, b, config, seed, slot.index, 0 if slot.a_first else 1, factory)
        for slot in schedule(games)[len(done) :]
    ]
    run_games(play_slot, tasks, jobs, finished)
    total = tally(outcomes)
    result.low, result.high = total.low, total.high
    result.elo, result.elo_low, result.elo_high = total.elo, total.elo_low, total.elo_high
    result.deals, result.deal_low, result.deal_high = total.deals, total.deal_low, total.deal_high
    result.seconds = time.perf_counter() - start
    result.per_move = {k: total_seconds[k] / total_moves[k] for k in total_seconds}
    return result


def decode_result(game: dict) -> SlotResult:
    """A game of the match log back as a :class:`SlotResult`."""
    return SlotResult(**game)
