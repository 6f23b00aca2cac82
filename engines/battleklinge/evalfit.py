"""Evaluation weights learned from self-play outcomes (Texel-style logistic fit).

Two steps, both deterministic for their arguments:

``gen-positions``  self-play games (random card sets and deals, the first plies
                   by ``mittel`` for variety, the rest by a fixed node budget on
                   both sides, no randomness); every position of a game is
                   written with the game's result from the side to move's view
                   (1 win, 0 loss, 0.5 repetition or move cap) and the game's
                   index, one JSON object a line.
``fit``            the evaluation is linear in its weights, so each position
                   becomes a feature row (the evaluation with each unit weight);
                   a logistic model ``P(win) = 1 / (1 + exp(-x.w))`` is fitted by
                   Newton's method with a small ridge on the square tables, and
                   the weights are rescaled so that a student is worth 100 again.
                   Games (not positions) are split into train and held-out sets
                   (every fifth game held out), so positions of one game never
                   sit on both sides; the log-loss on both is printed for the
                   old weights (only their scale fitted) and the new ones.

Commands::

    fechtbuch bench eval-fit gen-positions -o pos.jsonl --games 600
    fechtbuch bench eval-fit fit pos.jsonl
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.evaluate import (
    FEATURE_NAMES,
    HAND_SET_WEIGHTS,
    NUM_WEIGHTS,
    W_PST_MASTER,
    W_PST_STUDENT,
    W_STUDENT,
    evaluate,
)
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.compiled import njit

HELD_OUT_EVERY = 5
"""Every fifth game (index % 5 == 4) is held out of the fit."""


@dataclass(frozen=True)
class Sample:
    """A position with the result of its game from the side to move's view."""

    position: str
    result: float
    game: int


def _game_seed(seed: int, index: int) -> int:
    import hashlib

    digest = hashlib.sha256(f"evalfit/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def play_selfplay_game(args: tuple[int, int, int, int, int]) -> list[Sample]:
    """One self-play game; ``args`` = (seed, index, nodes, random_plies, max_plies)."""
    from fechtbuch.engines.battleklinge.players import Budget, Player
    from fechtbuch.engines.battleklinge.sampling import random_cards, random_deal

    seed, index, nodes, random_plies, max_plies = args
    rng = random.Random(_game_seed(seed, index))
    pos = random_deal(rng, random_cards(rng))
    opener = Player("mittel", seed=_game_seed(seed, index) ^ 1)
    strength = Budget("gen", 32, nodes, 0.0, False, False)
    players = {0: Player(strength), 1: Player(strength)}
    seen = Counter([pos.key()])
    history: list[Position] = []
    result_for: dict[int, float] = {0: 0.5, 1: 0.5}
    for ply in range(max_plies):
        mover = pos.turn
        player = opener if ply < random_plies else players[mover]
        move = player.choose(pos, history).move
        history.append(pos)
        pos = fast.play(pos, move)
        won = pos.winner()
        if won is not None:
            result_for = {won: 1.0, 1 - won: 0.0}
            break
        seen[pos.key()] += 1
        if seen[pos.key()] >= 3:
            break
    return [
        Sample(p.to_text(), result_for[p.turn], index)
        for p in history[random_plies:]
        if fast.winning_move(fast.state_from_position(p)) < 0
    ]


def generate(
    games: int, seed: int, nodes: int, random_plies: int, max_plies: int, jobs: int
) -> list[Sample]:
    tasks = [(seed, i, nodes, random_plies, max_plies) for i in range(games)]
    out: list[Sample] = []
    if jobs <= 1:
        for t in tasks:
            out.extend(play_selfplay_game(t))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for samples in pool.map(play_selfplay_game, tasks, chunksize=4):
                out.extend(samples)
    return out


@njit(cache=True)
def _feature_rows(states, out):
    unit = np.zeros(out.shape[1], dtype=np.int64)
    for j in range(out.shape[1]):
        unit[:] = 0
        unit[j] = 1
        for i in range(states.shape[0]):
            out[i, j] = evaluate(states[i], unit)


def feature_matrix(positions: list[str]) -> np.ndarray:
    """One row per position: the evaluation with each unit weight (side to move)."""
    states = np.array(
        [fast.state_from_position(Position.from_text(p)) for p in positions], dtype=np.int64
    )
    out = np.zeros((len(positions), NUM_WEIGHTS), dtype=np.int64)
    _feature_rows(states, out)
    return out.astype(np.float64)


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    z = np.clip(x @ w, -30, 30)
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-12
    return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))


def fit_logistic(
    x: np.ndarray, y: np.ndarray, ridge: np.ndarray, iterations: int = 30
) -> np.ndarray:
    """Newton's method for ridge-regularised logistic regression without intercept."""
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        z = np.clip(x @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (p - y) / len(y) + ridge * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + np.diag(ridge) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def fit_scale(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    """The logit per centi-student that fits fixed weights best (for the baseline)."""
    e = x @ weights
    k = fit_logistic(e[:, None], y, np.zeros(1))[0]
    return float(k)


@dataclass
class FitReport:
    train_positions: int
    held_out_positions: int
    old_train: float
    old_held_out: float
    new_train: float
    new_held_out: float
    weights: list[int]


def mirror_pairs() -> list[tuple[int, int]]:
    """(weight index, index of its left-right mirror square) for the square tables."""
    out = []
    for base in (W_PST_STUDENT, W_PST_MASTER):
        for r in range(25):
            m = 5 * (r // 5) + 4 - r % 5
            if m > r:
                out.append((base + r, base + m))
    return out


def fit(samples: list[Sample], ridge: float = 1e-4, symmetric: bool = True) -> FitReport:
    """Fit on the training games; ``symmetric`` ties each square to its left-right
    mirror (the card set is closed under mirroring, so the tables should be too)."""
    held = [s.game % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 for s in samples]
    x = feature_matrix([s.position for s in samples])
    if symmetric:
        for a, b in mirror_pairs():
            x[:, a] += x[:, b]
            x[:, b] = 0.0
    y = np.array([s.result for s in samples])
    tr = ~np.array(held)
    ho = np.array(held)
    old = HAND_SET_WEIGHTS.astype(np.float64)
    k_old = fit_scale(x[tr], y[tr], old)
    penalty = np.zeros(NUM_WEIGHTS)
    penalty[W_PST_STUDENT:] = ridge
    w = fit_logistic(x[tr], y[tr], penalty)
    if symmetric:
        for a, b in mirror_pairs():
            w[b] = w[a]
            x[:, a] /= 2.0  # back to one column per square, each with the shared weight
            x[:, b] = x[:, a]
    # a student is worth 100 centi-students: rescale the logit weights
    scale = 100.0 / w[W_STUDENT]
    weights = np.round(w * scale).astype(np.int64)
    # square tables are relative: only differences between squares matter for a
    # fixed piece count, so centre them (the student term carries the level)
    return FitReport(
        train_positions=int(tr.sum()),
        held_out_positions=int(ho.sum()),
        old_train=log_loss(x[tr], y[tr], old * k_old),
        old_held_out=log_loss(x[ho], y[ho], old * k_old),
        new_train=log_loss(x[tr], y[tr], weights / scale),
        new_held_out=log_loss(x[ho], y[ho], weights / scale),
        weights=[int(v) for v in weights],
    )


def read_samples(path: str) -> list[Sample]:
    with open(path, encoding="utf-8") as handle:
        return [Sample(**json.loads(line)) for line in handle if line.strip()]


def describe_weights(weights: list[int], echo: Callable[[str], None]) -> None:
    echo("features: " + ", ".join(f"{n} {weights[i]}" for i, n in enumerate(FEATURE_NAMES)))
    for label, base in (("student squares", W_PST_STUDENT), ("master squares", W_PST_MASTER)):
        echo(f"{label} (own back row first, a1..e1 from the school's side):")
        for row in range(5):
            echo("  " + " ".join(f"{weights[base + 5 * row + c]:4d}" for c in range(5)))








