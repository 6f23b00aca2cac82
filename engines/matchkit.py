"""Engine matches for every game: the schedule, the score, Elo with a 95% interval, the
run loop.  Game-free (it imports no game); each game's ``match.py`` plays one game and
hands the results here.

The schedule: games come in pairs.  Game ``2k`` and game ``2k+1`` share deal ``k`` (the
game derives every seed of that deal from the pair number), and A takes the first seat
(the even seats) in the even game and the other seat(s) in the odd game, so every deal
is played from both sides and the luck of the deal cancels within a pair.  A game's
outcome, from A's side, is ``win``, ``loss`` or a game-specific name for neither
(``draw``, ``aborted``), which counts half a point.

>>> [(s.index, s.pair, s.a_first) for s in schedule(3)]
[(0, 0, True), (1, 0, False), (2, 1, True)]
>>> tally(["win", "win", "loss", "draw"]).score
0.625
>>> round(elo_difference(0.75))
191

The score's interval comes two ways.  ``tally`` gives the Wilson interval over games,
which treats the games as independent.  The two games of a deal are not (the deal's
luck favours the same seat twice), so ``Tally.deal_*`` also gives the interval over
deals: each complete deal scores 0, 1/4, 1/2, 3/4 or 1, and the interval is the mean
deal score plus or minus 1.96 standard errors (the pentanomial model of engine
testing).  Where the seats matter, it is the narrower and the honest one.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import orjson
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import ensure_writable, read_input_bytes

WIN = "win"
LOSS = "loss"

Result = TypeVar("Result")


@dataclass(frozen=True)
class Slot:
    """Game ``index`` of a match: it plays deal ``pair`` with A in the first seat or not."""

    index: int
    pair: int
    a_first: bool


def slot_of(index: int) -> Slot:
    """Game ``index``: deal ``index // 2``, A in the first seat in even games."""
    return Slot(index, index // 2, index % 2 == 0)


def schedule(games: int) -> list[Slot]:
    """The games of a match: deals played twice with the seats swapped."""
    return [slot_of(index) for index in range(games)]


def points(outcome: str) -> float:
    """A's points for one game: 1 for a win, 0 for a loss, half for anything else."""
    return 1.0 if outcome == WIN else 0.0 if outcome == LOSS else 0.5


def wilson_interval(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a score over n games.

    >>> low, high = wilson_interval(1.0, 100)
    >>> round(low, 3), round(high, 3)
    (0.963, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score: float) -> float:
    """Elo difference for an expected score in (0, 1) under the logistic model."""
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is +0, not -0


def finite_elo(score: float) -> float | None:
    """The Elo difference of a score, or ``None`` within rounding of 0 or 1 (infinite)."""
    return elo_difference(score) if 1e-9 < score < 1.0 - 1e-9 else None


@dataclass(frozen=True)
class Tally:
    """A match's totals from A's side.  ``low``/``high``: the Wilson interval of the
    score; the Elo bounds are that interval through the logistic curve (``None`` where
    infinite), so the interval stays finite when one side wins every game."""

    games: int
    wins: int
    losses: int
    others: int
    score: float
    low: float
    high: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    deals: int = 0
    """Complete deals (games 2k and 2k+1 both played) behind the deal interval."""
    deal_low: float | None = None
    deal_high: float | None = None
    deal_elo_low: float | None = None
    deal_elo_high: float | None = None

    def elo_text(self) -> str:
        return elo_text(self.score, self.elo, self.elo_low, self.elo_high)

    def deal_text(self) -> str:
        """The Elo interval over deals, for a line of its own in a match report."""
        return deal_text(self.deals, self.deal_low, self.deal_high)


def _elo_bound(score: float) -> str:
    elo = finite_elo(score)
    return f"{elo:+.0f}" if elo is not None else "+inf" if score > 0.5 else "-inf"


MIN_DEALS = 20
"""Fewest complete deals for an interval over deals: below, the normal approximation
of the mean deal score is not to be trusted (the interval over games still is)."""


def deal_text(deals: int, low: float | None, high: float | None) -> str:
    """The Elo interval of a score interval over deals, as a line of a match report.

    >>> deal_text(200, 0.75, 0.8)
    'by deal (200 deals, each played from both sides): 95% interval [+191, +241]'
    >>> deal_text(3, None, None)
    'by deal: 3 deals, too few for an interval (20 needed, each played from both sides)'
    """
    if low is None or high is None:
        return (
            f"by deal: {deals} deal{'' if deals == 1 else 's'}, too few for an interval "
            f"({MIN_DEALS} needed, each played from both sides)"
            if deals < MIN_DEALS
            else f"by deal: {deals} deals all scored alike, no interval"
        )
    return (
        f"by deal ({deals} deals, each played from both sides): "
        f"95% interval [{_elo_bound(low)}, {_elo_bound(high)}]"
    )


def deal_interval(
    outcomes: Sequence[str], z: float = 1.96
) -> tuple[int, float | None, float | None]:
    """``(deals, low, high)``: the interval of the mean deal score over the complete
    deals of ``outcomes`` (in game order: games 2k and 2k+1 share deal k).  The bounds
    are None below MIN_DEALS deals, or when every deal scored the same (a standard
    error of 0 says nothing about the next deal).

    >>> deals, low, high = deal_interval(["win", "win", "win", "loss"] * 50)
    >>> deals, round(low, 3), round(high, 3)
    (100, 0.701, 0.799)
    >>> deal_interval(["win", "win"] * 30)
    (30, None, None)
    """
    deals = len(outcomes) // 2
    if deals < MIN_DEALS:
        return deals, None, None
    scores = [(points(outcomes[2 * k]) + points(outcomes[2 * k + 1])) / 2 for k in range(deals)]
    mean, half = mean_interval(scores, z)
    if half == 0:
        return deals, None, None
    return deals, max(0.0, mean - half), min(1.0, mean + half)


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean of ``values`` (two or more) and the half-width of its interval, ``z``
    standard errors (95% for 1.96).

    >>> mean, half = mean_interval([1.0, 2.0, 3.0])
    >>> mean, round(half, 3)
    (2.0, 1.132)
    """
    n = len(values)
    mean = sum(values) / n
    variance = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, z * math.sqrt(variance / n)


def elo_text(score: float, elo: float | None, low: float | None, high: float | None) -> str:
    """``+191 ± 68 (95% interval [+123, +259])``, or the bounds when not finite.

    >>> elo_text(1.0, None, 566.0, None)
    'not finite (score 100%); 95% interval [+566, +inf]'
    """
    low_text = "-inf" if low is None else f"{low:+.0f}"
    high_text = "+inf" if high is None else f"{high:+.0f}"
    if elo is None:
        return f"not finite (score {100 * score:.0f}%); 95% interval [{low_text}, {high_text}]"
    half = f" ± {(high - low) / 2:.0f}" if low is not None and high is not None else ""
    return f"{elo:+.0f}{half} (95% interval [{low_text}, {high_text}])"


def tally(outcomes: Iterable[str]) -> Tally:
    """Count outcomes (``win``, ``loss``, anything else half a point) and estimate Elo;
    the outcomes come in game order, for the interval over deals."""
    outcomes = list(outcomes)
    n = len(outcomes)
    wins = sum(o == WIN for o in outcomes)
    losses = sum(o == LOSS for o in outcomes)
    score = sum(points(o) for o in outcomes) / n if n else 0.5
    low, high = wilson_interval(score, n)
    deals, deal_low, deal_high = deal_interval(outcomes)
    return Tally(
        n,
        wins,
        losses,
        n - wins - losses,
        score,
        low,
        high,
        finite_elo(score),
        finite_elo(low),
        finite_elo(high),
        deals,
        deal_low,
        deal_high,
        None if deal_low is None else finite_elo(deal_low),
        None if deal_high is None else finite_elo(deal_high),
    )


def per_move(seconds: Sequence[float], moves: Sequence[int]) -> float:
    """Mean thinking time per move over games (0 when there were no moves)."""
    return sum(seconds) / max(1, sum(moves))


class MatchGame(Protocol):
    """What the summary reads of one game's result, in every game: the outcome from A's
    side, A's and B's thinking time and number of actions; ``why`` (optional) names
    how an undecided or unusual game ended (``repetition``, ``move cap``, ``time``)."""

    index: int
    outcome: str
    seconds: tuple[float, float]
    move_counts: tuple[int, int]


@dataclass(frozen=True)
class MatchSummary:
    """A match's totals from A's side, one type for every game: the tally (score, Elo
    and both intervals), how many games ended for each ``why``, the points scored where
    the game counts points, and the thinking time per action.  ``undecided`` is what
    the game calls a game neither won nor lost (``draws``, ``aborted``); it counts half.

    >>> s = summarize("battleklinge", "stark", "leicht", 1, [], 0.0, undecided="aborted")
    >>> s.to_dict()["aborted"], s.games
    (0, 0)
    """

    game: str
    a: str
    b: str
    seed: int | str
    total: Tally
    undecided: str = "draws"
    reasons: tuple[tuple[str, int], ...] = ()
    points: tuple[int, int] | None = None
    a_seconds_per_move: float = 0.0
    b_seconds_per_move: float = 0.0
    wall_seconds: float = 0.0

    @property
    def games(self) -> int:
        return self.total.games

    @property
    def wins(self) -> int:
        return self.total.wins

    @property
    def losses(self) -> int:
        return self.total.losses

    @property
    def others(self) -> int:
        return self.total.others

    @property
    def score(self) -> float:
        return self.total.score

    def reason(self, why: str) -> int:
        """How many games ended for ``why`` (0 if none)."""
        return dict(self.reasons).get(why, 0)

    def elo_text(self) -> str:
        return self.total.elo_text()

    def to_dict(self) -> dict:
        """Flat: the tally's fields next to the others (``others`` named by
        ``undecided``)."""
        totals = asdict(self.total)
        totals[self.undecided] = totals.pop("others")
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            **totals,
            "reasons": dict(self.reasons),
            "points": None if self.points is None else list(self.points),
            "a_seconds_per_move": self.a_seconds_per_move,
            "b_seconds_per_move": self.b_seconds_per_move,
            "wall_seconds": self.wall_seconds,
        }

    def to_text(self) -> str:
        t = self.total
        why = ", ".join(f"{name} {count}" for name, count in self.reasons)
        lines = [
            f"{self.a} vs {self.b}: {t.games} games ({self.game}), seed {self.seed}",
            f"  {self.a} wins {t.wins}, losses {t.losses}, {self.undecided} {t.others}"
            + (f" (by how they ended: {why})" if why else ""),
            f"  score {100 * t.score:.1f}% for {self.a} (95% interval "
            f"{100 * t.low:.1f}-{100 * t.high:.1f}%; {self.undecided} count half)",
            "  Elo difference " + t.elo_text(),
            "  " + t.deal_text(),
        ]
        if self.points is not None:
            lines.append(f"  points: {self.a} {self.points[0]}, {self.b} {self.points[1]}")
        lines.append(
            f"  seconds per move: {self.a} {self.a_seconds_per_move:.4f}, "
            f"{self.b} {self.b_seconds_per_move:.4f}; wall {self.wall_seconds:.1f} s"
        )
        return "\n".join(lines)


def summarize(
    game: str,
    a: str,
    b: str,
    seed: int | str,
    results: Sequence[MatchGame],
    wall: float,
    *,
    undecided: str = "draws",
    points: tuple[int, int] | None = None,
) -> MatchSummary:
    """The :class:`MatchSummary` of ``results`` (in game order)."""
    reasons = Counter(getattr(r, "why", "") for r in results)
    reasons.pop("", None)
    return MatchSummary(
        game,
        a,
        b,
        seed,
        tally(r.outcome for r in results),
        undecided,
        tuple(sorted(reasons.items())),
        points,
        per_move([r.seconds[0] for r in results], [r.move_counts[0] for r in results]),
        per_move([r.seconds[1] for r in results], [r.move_counts[1] for r in results]),
        wall,
    )


def play_match(
    play: Callable[..., Result],
    task: Callable[[Slot], tuple],
    games: int,
    jobs: int = 1,
    progress: Callable[[Result], None] | None = None,
    done: Sequence[Result] = (),
) -> tuple[list[Result], float]:
    """Every game's match loop: ``play(*task(slot))`` for the slots of ``games`` games
    not yet in ``done`` (a resumed match), in ``jobs`` workers (:func:`run_games`);
    returns the first ``games`` results and the wall time of this run."""
    done = list(done)[:games]
    started = time.perf_counter()
    tasks = [task(slot) for slot in schedule(games)[len(done) :]]
    results = done + run_games(play, tasks, jobs, progress)
    return results, time.perf_counter() - started


LOG_FORMAT = "fechtbuch-match-log"


@dataclass(frozen=True)
class MatchLog(Generic[Result]):
    """An append-only log of a match, for every game: one JSON line of parameters,
    then one line per finished game in game order, flushed to disk as each game ends.

    A long match killed half-way keeps every game it finished; ``--resume`` plays
    only the games not yet in the log, and a resume with ``--games`` at most the
    logged number only summarizes that many (an honest figure for a partial run).
    The parameters exclude ``games`` so a match can be extended.  ``decode`` turns a
    logged game (a dataclass with ``index``, as ``asdict`` wrote it) back into the
    game's result."""

    path: Path
    params: dict
    decode: Callable[[dict], Result]

    def header(self) -> bytes:
        return orjson.dumps({"format": LOG_FORMAT, "params": self.params}) + b"\n"

    def start(self, force: bool) -> None:
        """Create the log with its header; an existing log needs ``force`` (or a resume)."""
        try:
            ensure_writable(self.path, force)
        except InputError as err:
            if "exists" not in str(err):
                raise
            raise InputError(
                f"log: {quote(str(self.path))} exists; continue it with --resume "
                "or start over with --force"
            ) from None
        with open(self.path, "wb") as handle:
            handle.write(self.header())
            handle.flush()
            os.fsync(handle.fileno())

    def read(self) -> list[Result]:
        """The games logged so far (a torn last line from a kill is dropped); a log of
        other parameters or not a match log is an InputError."""
        lines = read_input_bytes(self.path, "--resume").split(b"\n")
        try:
            head = orjson.loads(lines[0])
        except orjson.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or head.get("format") != LOG_FORMAT:
            raise InputError(f"--resume: {quote(str(self.path))} is not a match log")
        if head.get("params") != self.params:
            where = quote(str(self.path))
            raise InputError(f"--resume: {where} was made with other options {head.get('params')}")
        results: list[Result] = []
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                result = self.decode(orjson.loads(line))
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                if number == len(lines):  # the write a kill cut short
                    break
                where = quote(str(self.path))
                raise InputError(f"--resume: {where} line {number} is damaged") from None
            if result.index != len(results):
                raise InputError(
                    f"--resume: {quote(str(self.path))} line {number} holds game "
                    f"{result.index}, expected {len(results)}"
                )
            results.append(result)
        return results

    def truncate_to(self, results: list[Result]) -> None:
        """Rewrite the log as header + ``results`` (drops a torn last line)."""
        data = self.header() + b"".join(orjson.dumps(asdict(r)) + b"\n" for r in results)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, self.path)

    def append(self, result: Result) -> None:
        with open(self.path, "ab") as handle:
            handle.write(orjson.dumps(asdict(result)) + b"\n")
            handle.flush()
            os.fsync(handle.fileno())


def open_log(
    log: str | None,
    resume: bool,
    force: bool,
    games: int,
    params: dict,
    decode: Callable[[dict], Result],
) -> tuple[list[Result], Callable[[Result], None] | None]:
    """The ``--log``/``--resume`` of any game's ``match``: the games already played
    and the function that logs each new one (``None`` without ``--log``)."""
    if resume and not log:
        raise InputError("--resume: give the --log of the match to continue")
    if not log:
        return [], None
    match_log = MatchLog(Path(log), params, decode)
    done: list[Result] = []
    if resume:
        done = match_log.read()
        if games > len(done):  # games to play: drop a torn last line first
            match_log.truncate_to(done)
    else:
        match_log.start(force)
    return done, match_log.append


def _call(task: tuple[Callable[..., Any], tuple]) -> Any:
    play, args = task
    return play(*args)


def run_games(
    play: Callable[..., Result],
    tasks: Sequence[tuple],
    jobs: int = 1,
    progress: Callable[[Result], None] | None = None,
) -> list[Result]:
    """``play(*task)`` for every task, in ``jobs`` worker processes; the results and the
    ``progress`` calls come in task order, so a match is the same for any ``jobs``
    (each game must derive everything from its task).  ``play`` must be a module-level
    function for ``jobs > 1``.  Ctrl-C stops the workers at once (they ignore it; the
    parent terminates them) and is raised here, so nothing is left running."""
    results: list[Result] = []
    if jobs <= 1:
        for task in tasks:
            results.append(play(*task))
            if progress:
                progress(results[-1])
        return results
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
    try:
        for result in pool.imap(_call, [(play, task) for task in tasks], chunksize=1):
            results.append(result)
            if progress:
                progress(result)
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()
    return results


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to its parent, which stops it (a worker interrupted on its
    own would print a traceback and leave the parent waiting for its result)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = [
    "LOSS",
    "MatchGame",
    "MatchLog",
    "MatchSummary",
    "WIN",
    "Slot",
    "MIN_DEALS",
    "Tally",
    "deal_interval",
    "deal_text",
    "elo_difference",
    "elo_text",
    "finite_elo",
    "open_log",
    "per_move",
    "play_match",
    "points",
    "run_games",
    "schedule",
    "slot_of",
    "summarize",
    "tally",
    "wilson_interval",
]
