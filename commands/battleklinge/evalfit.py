"""``fechtbuch bench eval-fit``: self-play positions and the logistic fit of the evaluation
weights.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import click
import numpy as np
from fechtbuch.commands.options import INT, float_range, json_option
from fechtbuch.engines.battleklinge.evalfit import describe_weights, fit, generate, read_samples
from fechtbuch.engines.battleklinge.evaluate import (
    HAND_SET_WEIGHTS,
    NUM_WEIGHTS,
)


@click.group()
def main() -> None:
    """Self-play positions and the logistic fit of the evaluation weights."""


@main.command("gen-positions")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--games", type=INT, default=600, show_default=True)
@click.option("--seed", type=INT, default=1, show_default=True)
@click.option("--nodes", type=INT, default=3000, show_default=True, help="Per move.")
@click.option("--random-plies", type=INT, default=8, show_default=True)
@click.option("--max-plies", type=INT, default=160, show_default=True)
@click.option("-j", "--jobs", type=INT, default=1, show_default=True)
@click.option("--force", is_flag=True)
def gen_positions_command(output, games, seed, nodes, random_plies, max_plies, jobs, force):
    """Write self-play positions with their game results (JSON lines)."""
    from fechtbuch.engines.files import atomic_write

    samples = generate(games, seed, nodes, random_plies, max_plies, jobs)
    text = "".join(
        json.dumps({"position": s.position, "result": s.result, "game": s.game}) + "\n"
        for s in samples
    )
    atomic_write(output, text.encode(), force=force)
    results = Counter(s.result for s in samples)
    click.echo(f"{len(samples)} positions from {games} games; results {dict(results)}")


@main.command("fit")
@click.argument("samples", type=click.Path(exists=True, dir_okay=False))
@click.option("--ridge", type=float_range(), default=1e-4, show_default=True)
@click.option("--asymmetric", is_flag=True, help="Do not tie mirror squares.")
@json_option()
def fit_command(samples, ridge, asymmetric, as_json):
    """Fit the weights on SAMPLES and print log-loss train vs held-out."""
    report = fit(read_samples(samples), ridge, symmetric=not asymmetric)
    if as_json:
        click.echo(json.dumps(report.__dict__))
        return
    click.echo(
        f"train {report.train_positions} positions, held-out {report.held_out_positions}\n"
        f"log-loss old weights (scale fitted): train {report.old_train:.4f}, "
        f"held-out {report.old_held_out:.4f}\n"
        f"log-loss fitted weights:             train {report.new_train:.4f}, "
        f"held-out {report.new_held_out:.4f}  (a coin: {math.log(2):.4f})"
    )
    describe_weights(report.weights, click.echo)
    click.echo("weights " + ",".join(str(v) for v in report.weights))


@main.command("match")
@click.option("--weights", required=True, help="Comma-separated weights (57 numbers).")
@click.option("--against", default="hand-set", show_default=True, help="hand-set or weights.")
@click.option("--strength", default="meister", show_default=True)
@click.option("--games", type=INT, default=200, show_default=True)
@click.option("--nodes", type=INT, default=20_000, show_default=True)
@click.option("--seed", type=INT, default=31, show_default=True)
@click.option("-j", "--jobs", type=INT, default=1, show_default=True)
def match_command(weights, against, strength, games, nodes, seed, jobs):
    """Match: the live engine with WEIGHTS against the same engine with the hand-set
    weights (equal node budgets; only the evaluation differs)."""
    from fechtbuch.engines.battleklinge.match import run_match

    a = np.array([int(v) for v in weights.split(",")], dtype=np.int64)
    b = (
        HAND_SET_WEIGHTS
        if against == "hand-set"
        else np.array([int(v) for v in against.split(",")], dtype=np.int64)
    )
    if len(a) != NUM_WEIGHTS or len(b) != NUM_WEIGHTS:
        raise click.UsageError(f"weights: expected {NUM_WEIGHTS} numbers")
    summary, _ = run_match(
        strength, strength, games, seed, jobs, a_weights=a, b_weights=b, nodes=nodes
    )
    click.echo(summary.to_text())


if __name__ == "__main__":
    main()
