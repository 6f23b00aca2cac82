"""Exercise ratings from attempts: a panel of solvers of known strength, Glicko-2.

The model (docs/rating.md): an attempt is a game between the exercise and a
solver.  The solver plays the solver's side from the exercise's position, the
adversary answers from the stored solution tree with its longest defence
(:mod:`fechtbuch.puzzles.packtree`); the attempt succeeds when the solver reaches the
decision inside the tree (within N), and fails at its first action that leaves the
tree.  A success is a win of the solver, a failure a win of the exercise, as
lichess rates its puzzles.  Each exercise starts at 1500 with RD 350 and is rated
by one Glicko-2 period (:mod:`fechtbuch.puzzles.glicko2`) with its games against
the panel members, whose ratings and RDs are fixed: measured by engine matches.

The panel is the game's (``PackKind.rating_panel``): members named by strength,
each with its rating and a way to choose an action at a state.  This module is
generic: it imports no game.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fechtbuch.puzzles.glicko2 import Game, Glicko, rate, win_probability
from fechtbuch.puzzles.packkind import PackKind, Puzzle
from fechtbuch.puzzles.packtree import PuzzleTree

Chooser = Callable[[Any], str]
"""A solver at work on one exercise: the action text it plays at a state."""


@dataclass(frozen=True)
class PanelMember:
    """One solver of known strength: ``rating`` and ``rd`` on the Glicko scale
    (measured by matches), and ``solver(seed)``, a fresh chooser for one attempt."""

    name: str
    rating: float
    rd: float
    solver: Callable[[int], Chooser]

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.rd)


@dataclass(frozen=True)
class Panel:
    """The solvers that attempt a game's exercises, weakest first."""

    kind: PackKind
    members: tuple[PanelMember, ...]
    anchor: str
    """What rating 1500 means for this panel (one sentence, for the docs and output)."""
    start: Rating | None = None
    """Where every exercise's fit starts (``None``: :data:`UNRATED`, 1500/350); a
    game's fitted start (``bench rating-start``) is the typical rating of its mined
    exercises, measured on exercises outside the shipped packs."""

    @property
    def start_rating(self) -> Rating:
        return UNRATED if self.start is None else self.start


@dataclass(frozen=True)
class Attempt:
    """One attempt: who, at which strength, and whether the exercise was solved."""

    member: str
    member_rating: float
    member_rd: float
    solved: bool

    @property
    def opponent(self) -> Glicko:
        return Glicko(self.member_rating, self.member_rd)


@dataclass(frozen=True)
class Rating:
    """An exercise's rating: Glicko-2 rating, deviation and volatility, and the
    attempts it rests on."""

    rating: float
    rd: float
    attempts: int
    solved: int
    volatility: float = 0.06

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.rd, self.volatility)


UNRATED = Rating(1500.0, 350.0, 0, 0)


def attempt(tree: PuzzleTree, choose: Chooser) -> bool:
    """Whether ``choose`` solves the exercise against the tree's longest defence."""
    node = tree.root
    while not node.is_leaf:
        if tree.solver_to_act(node):
            text = choose(node.state)
            if text not in tree.legal(node):
                return False
            node = tree.step(node, text)
            if node.tree is None:
                return False  # a move the tree does not hold: no win within N
        else:
            node = tree.step(node, tree.longest_defence(node))
    return True


def attempt_seed(seed: int, puzzle: Puzzle, member: str) -> int:
    """The seed of one attempt, from SHA-256 of the run's seed, the exercise and the
    member (the same attempt whatever order or worker runs it)."""
    text = f"rating-attempt/{seed}/{puzzle['id']}/{member}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def attempts_of(puzzle: Puzzle, panel: Panel, seed: int) -> list[Attempt]:
    """Every panel member's attempt at one exercise."""
    tree = PuzzleTree(panel.kind, puzzle)
    return [
        Attempt(
            m.name,
            m.rating,
            m.rd,
            attempt(tree, m.solver(attempt_seed(seed, puzzle, m.name))),
        )
        for m in panel.members
    ]


def update_rating(rating: Rating, attempts: Sequence[Attempt]) -> Rating:
    """The rating after one period of attempts (real players' or the panel's): a
    solved attempt is a loss of the exercise."""
    games = [Game(a.opponent, 0.0 if a.solved else 1.0) for a in attempts]
    new = rate(rating.glicko, games)
    return Rating(
        new.rating,
        new.rd,
        rating.attempts + len(attempts),
        rating.solved + sum(a.solved for a in attempts),
        new.volatility,
    )


def fit_from_attempts(
    attempts: Sequence[Sequence[Attempt]], start: Rating = UNRATED
) -> list[Rating]:
    """Each exercise's rating from its attempts, starting at ``start``."""
    return [update_rating(start, one) for one in attempts]


def fit_ratings(exercises: Sequence[Puzzle], panel: Panel, seed: int) -> list[Rating]:
    """Every exercise attempted by every panel member and rated (module docstring)."""
    return fit_from_attempts([attempts_of(p, panel, seed) for p in exercises], panel.start_rating)


def held_out_log_loss(attempts: Sequence[Sequence[Attempt]], start: Rating) -> float:
    """Leave-one-member-out log-loss of Glicko-2's predictions with fits from
    ``start`` (the measure :func:`fit_start` minimises)."""
    members = sorted({a.member for one in attempts for a in one})
    pairs = []
    for held in members:
        fit = [[a for a in one if a.member != held] for one in attempts]
        for one, rating in zip(attempts, fit_from_attempts(fit, start), strict=True):
            pairs += [(solve_probability(a, rating), a.solved) for a in one if a.member == held]
    return log_loss(pairs)


START_GRID = tuple(float(r) for r in range(500, 2501, 50))
"""The start ratings :func:`fit_start` tries (RD stays 350)."""


def fit_start(
    attempts: Sequence[Sequence[Attempt]], grid: Sequence[float] = START_GRID
) -> tuple[Rating, list[tuple[float, float]]]:
    """The start rating (RD 350) whose fits predict held-out members best, and the
    log-loss of every start tried: the typical rating of these exercises, an
    empirical prior.  Fit it on exercises that are not the ones validated."""
    scan = [(r, held_out_log_loss(attempts, Rating(r, UNRATED.rd, 0, 0))) for r in grid]
    best, _ = min(scan, key=lambda pair: (pair[1], pair[0]))
    return Rating(best, UNRATED.rd, 0, 0), scan


def solve_probability(member: Attempt, rating: Rating) -> float:
    """The model's probability that the member solves an exercise of this rating."""
    return 1.0 - win_probability(rating.glicko, member.opponent)


# ---- validation ------------------------------------------------------------------------


def log_loss(pairs: Sequence[tuple[float, bool]]) -> float:
    """Mean negative log-likelihood (natural log) of outcomes under probabilities."""
    total = 0.0
    for p, solved in pairs:
        p = min(1.0 - 1e-9, max(1e-9, p))
        total -= math.log(p if solved else 1.0 - p)
    return total / len(pairs)


def fit_logistic(rows: Sequence[tuple[Sequence[float], bool]], steps: int = 50) -> list[float]:
    """Logistic regression by Newton's method (with a small ridge so that a separable
    sample stays finite): the weights of P(solved) = 1 / (1 + exp(-w . x))."""
    import numpy as np

    x = np.array([list(features) for features, _ in rows], dtype=float)
    y = np.array([1.0 if solved else 0.0 for _, solved in rows])
    w = np.zeros(x.shape[1])
    ridge = 1e-3 * np.eye(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + ridge @ w
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge
        w = w - np.linalg.solve(hessian, gradient)
    return [float(v) for v in w]


def logistic(weights: Sequence[float], features: Sequence[float]) -> float:
    z = sum(w * f for w, f in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


@dataclass(frozen=True)
class Band:
    """Held-out attempts in one band (of the predicted solve rate, or of the
    exercise's rating fitted without the attempt's member)."""

    low: float
    high: float
    attempts: int
    predicted: float
    observed: float

    def to_json(self) -> dict:
        return {
            "range": [self.low, self.high],
            "attempts": self.attempts,
            "predicted": round(self.predicted, 3),
            "observed": round(self.observed, 3),
        }


@dataclass(frozen=True)
class HeldOut:
    """One held-out attempt: the predictions for it and the outcome."""

    glicko: float
    difficulty: float
    constant: float
    rating: float
    solved: bool


@dataclass(frozen=True)
class Validation:
    """Leave-one-member-out: each member's attempts predicted by ratings fitted
    without that member; against a logistic model of the stored difficulty."""

    attempts: int
    glicko_log_loss: float
    difficulty_log_loss: float
    constant_log_loss: float
    by_prediction: tuple[Band, ...]
    by_rating: tuple[Band, ...]

    def to_json(self) -> dict:
        return {
            "attempts": self.attempts,
            "log_loss": {
                "glicko2": round(self.glicko_log_loss, 4),
                "difficulty": round(self.difficulty_log_loss, 4),
                "constant": round(self.constant_log_loss, 4),
            },
            "by_prediction": [b.to_json() for b in self.by_prediction],
            "by_rating": [b.to_json() for b in self.by_rating],
        }


PREDICTION_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0 + 1e-9)
RATING_EDGES = (-math.inf, 1200.0, 1300.0, 1400.0, 1500.0, 1600.0, math.inf)


def _bands(held: Sequence[HeldOut], edges: Sequence[float], value) -> tuple[Band, ...]:
    out = []
    for low, high in zip(edges, edges[1:], strict=False):
        inside = [h for h in held if low <= value(h) < high]
        if inside:
            predicted = sum(h.glicko for h in inside) / len(inside)
            observed = sum(h.solved for h in inside) / len(inside)
            out.append(Band(low, min(high, 1.0) if edges is PREDICTION_EDGES else high,
                            len(inside), predicted, observed))  # fmt: skip
    return tuple(out)


def _member_features(attempt_: Attempt, difficulty: float) -> list[float]:
    return [1.0, (attempt_.member_rating - 1500.0) / 400.0, difficulty]


def validate(
    exercises: Sequence[Puzzle], attempts: Sequence[Sequence[Attempt]], start: Rating = UNRATED
) -> Validation:
    """Leave-one-member-out validation of the fitted ratings.

    For each member, the exercises are rated from the other members' attempts
    only, and the held-out member's attempts are predicted by Glicko-2's expected
    score.  The baseline is the exercises' stored ``difficulty``: a logistic model
    P(solved) = f(1, (member rating - 1500) / 400, difficulty), fitted on the same
    other members' attempts.  ``constant`` predicts the other members' mean solve
    rate.  Lower log-loss is better."""
    members = sorted({a.member for one in attempts for a in one})
    held_out: list[HeldOut] = []
    for held in members:
        fit = [[a for a in one if a.member != held] for one in attempts]
        ratings = fit_from_attempts(fit, start)
        rows = [
            (_member_features(a, p["difficulty"]), a.solved)
            for p, one in zip(exercises, fit, strict=True)
            for a in one
        ]
        weights = fit_logistic(rows)
        mean = sum(solved for _, solved in rows) / len(rows)
        for p, one, rating in zip(exercises, attempts, ratings, strict=True):
            for a in one:
                if a.member == held:
                    features = _member_features(a, p["difficulty"])
                    held_out.append(
                        HeldOut(
                            solve_probability(a, rating),
                            logistic(weights, features),
                            mean,
                            rating.rating,
                            a.solved,
                        )
                    )
    return Validation(
        len(held_out),
        log_loss([(h.glicko, h.solved) for h in held_out]),
        log_loss([(h.difficulty, h.solved) for h in held_out]),
        log_loss([(h.constant, h.solved) for h in held_out]),
        _bands(held_out, PREDICTION_EDGES, lambda h: h.glicko),
        _bands(held_out, RATING_EDGES, lambda h: h.rating),
    )
