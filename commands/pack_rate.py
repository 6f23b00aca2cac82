"""``fechtbuch pack rate``: exercise ratings from a panel's attempts, and their validation.

Every member of the game's panel (``PackKind.rating_panel``) attempts every
exercise of the pack against the stored tree's defence; each exercise is rated by
Glicko-2 from those attempts (:mod:`fechtbuch.puzzles.rating_panel`).  The
validation predicts each member's attempts from ratings fitted without that member
and compares the log-loss with a logistic model of the pack's stored difficulty.
"""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.commands.options import emit_json, json_option, seed_option
from fechtbuch.commands.pack import PACK_FILE
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.pack import load_pack, pack_kind
from fechtbuch.puzzles.rating_panel import (
    Panel,
    attempts_of,
    fit_from_attempts,
    validate,
)


@click.command("rate")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@seed_option(1, "the attempts (derived per exercise and member)")
@json_option("the ratings and the validation")
def pack_rate(pack_file: Path, seed: int, as_json: bool) -> None:
    """Rate PACK's exercises from a panel's attempts (Glicko-2) and validate.

    Each panel member (Battleklinge: the engine at a ladder of node budgets,
    rated by matches) plays the solver's side of every exercise against the
    solution tree's longest defence; an action outside the tree fails.  Each
    exercise starts at 1500 (RD 350) and is rated by one Glicko-2 period of
    those games.  Printed: per exercise its rating, RD and solved attempts;
    then the leave-one-member-out validation: predicted against observed solve
    rates by band, and the log-loss of Glicko-2, of a logistic model of the
    stored difficulty, and of a constant rate (docs/rating.md).

    \b
      fechtbuch pack rate fechtuebungen
      fechtbuch pack rate data/packs/fechtuebungen.json --seed 1 --json
    """
    from tqdm import tqdm

    data = load_pack(pack_file)
    kind = pack_kind(data)
    if kind.rating_panel is None:
        raise InputError(f"rules: {kind.rules} has no rating panel yet")
    if data.get("solution") == "pruned":
        raise InputError(
            "solution: a pruned tree holds only the main line below its cut, so an "
            "attempt that leaves it may still win; rating needs full trees"
        )
    panel: Panel = kind.rating_panel(kind)
    puzzles = data["puzzles"]
    attempts = []
    for puzzle in tqdm(puzzles, desc="attempts", unit=" exercises", disable=None):
        attempts.append(attempts_of(puzzle, panel, seed))
    ratings = fit_from_attempts(attempts, panel.start_rating)
    check = validate(puzzles, attempts, panel.start_rating)
    if as_json:
        emit_json(
            {
                "pack": str(pack_file),
                "seed": seed,
                "anchor": panel.anchor,
                "start": {"rating": panel.start_rating.rating, "rd": panel.start_rating.rd},
                "panel": [{"name": m.name, "rating": m.rating, "rd": m.rd} for m in panel.members],
                "ratings": [
                    {
                        "id": p["id"],
                        "n": p["n"],
                        "difficulty": p["difficulty"],
                        "rating": round(r.rating, 1),
                        "rd": round(r.rd, 1),
                        "attempts": r.attempts,
                        "solved": r.solved,
                    }
                    for p, r in zip(puzzles, ratings, strict=True)
                ],
                "validation": check.to_json(),
            }
        )
        return
    click.echo(f"anchor: {panel.anchor}")
    start = panel.start_rating
    click.echo(f"every fit starts at {start.rating:.0f} (RD {start.rd:.0f})")
    click.echo("panel: " + ", ".join(f"{m.name} {m.rating:.0f}±{m.rd:.0f}" for m in panel.members))
    click.echo(f"{'id':<16} {'n':>2} {'diff':>5} {'rating':>7} {'rd':>6} solved")
    for p, r in zip(puzzles, ratings, strict=True):
        click.echo(
            f"{p['id']:<16} {p['n']:>2} {p['difficulty']:>5} {r.rating:>7.0f} {r.rd:>6.0f} "
            f"{r.solved}/{r.attempts}"
        )
    click.echo(f"validation (leave one member out, {check.attempts} held-out attempts):")
    click.echo("  by predicted solve rate:")
    for band in check.by_prediction:
        click.echo(
            f"    {band.low:.1f}-{band.high:.1f}: {band.attempts:>4} attempts, "
            f"predicted {band.predicted:.2f}, observed {band.observed:.2f}"
        )
    click.echo("  by the exercise's rating (fitted without the attempt's member):")
    for band in check.by_rating:
        click.echo(
            f"    {band.low:>6.0f} to {band.high:<6.0f}: {band.attempts:>4} attempts, "
            f"predicted {band.predicted:.2f}, observed {band.observed:.2f}"
        )
    click.echo(
        f"  log-loss: Glicko-2 {check.glicko_log_loss:.4f}, difficulty "
        f"{check.difficulty_log_loss:.4f}, constant {check.constant_log_loss:.4f}"
    )
