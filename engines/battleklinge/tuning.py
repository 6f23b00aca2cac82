"""Self-play tuning of the evaluation weights (see docs/strength.md).

Each candidate weight set plays a match against the current DEFAULT_WEIGHTS
at one strength's budget (both sides the same budget, only the weights
differ); the printed score is the candidate's.  Command:
``fechtbuch bench tune-eval --strength stark --games 100 --seed 11 -j 2``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
from fechtbuch.engines.battleklinge.evaluate import DEFAULT_WEIGHTS, FEATURE_NAMES, WEIGHT_NAMES
from fechtbuch.engines.battleklinge.match import run_match
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.players import PlayerFactory


def parse_candidate(text: str) -> np.ndarray:
    """The weights of ``--candidate 'name=value,...'`` (plain integers, known names),
    or one InputError naming the option."""
    weights = DEFAULT_WEIGHTS.copy()
    for item in text.split(","):
        name, equals, value = item.partition("=")
        if not equals or name.strip() not in WEIGHT_NAMES or not _INTEGER.fullmatch(value.strip()):
            raise InputError(
                f"--candidate: expected 'name=integer' with a weight name such as "
                f"'mobility' (evaluate.WEIGHT_NAMES), got {quote(item)}"
            )
        weights[WEIGHT_NAMES.index(name.strip())] = int(value)
    return weights


_INTEGER = re.compile(r"-?[0-9]+")


def candidates() -> list[tuple[str, np.ndarray]]:
    """Each feature switched off, halved and doubled (the student weight is the unit)."""
    out = []
    for i, name in enumerate(FEATURE_NAMES):
        if name == "student":
            continue
        for label, factor in (("off", 0.0), ("x0.5", 0.5), ("x2", 2.0)):
            w = DEFAULT_WEIGHTS.copy()
            w[i] = int(round(w[i] * factor))
            out.append((f"{name} {label} ({w[i]})", w))
    return out


def run_tuning(
    strength: str,
    games: int,
    seed: int,
    jobs: int,
    only: str | None,
    candidate: str | None,
    echo: Callable[[str], None],
    players: PlayerFactory | None = None,
) -> None:
    tries = [(candidate, parse_candidate(candidate))] if candidate else candidates()
    echo(f"baseline {dict(zip(FEATURE_NAMES, DEFAULT_WEIGHTS[:7].tolist(), strict=True))}")
    for label, weights in tries:
        if only and label.split()[0] not in only.split(","):
            continue
        summary, _ = run_match(
            strength, strength, games, seed, jobs, a_weights=weights, players=players
        )
        echo(
            f"{label:22s} score {100 * summary.score:5.1f}%  "
            f"+{summary.wins} -{summary.losses} ={summary.others}  Elo {summary.elo_text()}"
        )


