"""Self-play tuning of the evaluation weights (see docs/strength.md).

Each candidate weight set plays a match against the current DEFAULT_WEIGHTS
at one strength's budget (both sides the same budget, only the weights
differ); the printed score is the candidate's.  Run:

    .venv/bin/python benchmarks/tune_eval.py --strength stark --games 100 --seed 11 -j 2
"""

from __future__ import annotations

import argparse

import numpy as np

from engines.battleklinge.evaluate import DEFAULT_WEIGHTS, WEIGHT_NAMES
from engines.battleklinge.match import run_match


def candidates() -> list[tuple[str, np.ndarray]]:
    """Each feature switched off, halved and doubled (the student weight is the unit)."""
    out = []
    for i, name in enumerate(WEIGHT_NAMES):
        if name == "student":
            continue
        for label, factor in (("off", 0.0), ("x0.5", 0.5), ("x2", 2.0)):
            w = DEFAULT_WEIGHTS.copy()
            w[i] = int(round(w[i] * factor))
            out.append((f"{name} {label} ({w[i]})", w))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--strength", default="stark")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--only", help="comma-separated feature names to try")
    args = parser.parse_args()
    print("baseline", dict(zip(WEIGHT_NAMES, DEFAULT_WEIGHTS.tolist(), strict=True)))
    for label, weights in candidates():
        if args.only and label.split()[0] not in args.only.split(","):
            continue
        summary, _ = run_match(
            args.strength, args.strength, args.games, args.seed, args.jobs,
            a_weights=weights,
        )  # fmt: skip
        print(
            f"{label:22s} score {100 * summary.score:5.1f}%  "
            f"+{summary.wins} -{summary.losses} ={summary.aborted}  Elo {summary.elo_text()}",
            flush=True,
        )


if __name__ == "__main__":
    main()
