"""Difficulty of an exercise from measurable properties.

Features (all computed by :func:`features`):

* ``n``: the length (own moves to the hit);
* ``effort``: the bit length of the number of df-pn nodes needed to prove
  the hit within N from scratch (a fresh table): an integer log2, the
  solver's own measure of how much there is to calculate (integer so that
  no floating-point library can round it differently);
* ``tempting``: first moves that fail although they look forcing: they
  capture, or they threaten a hit for the next move;
* ``defender_options``: legal defender replies after the key (more to check);
* ``quiet``: 1 when the key captures nothing (quiet keys are harder to find).

Score = 2.5 (n - 2) + 0.45 effort + 0.6 min(tempting, 6) + 0.08 defender_options
+ 1.2 quiet, mapped linearly to a difficulty from 1.0 to 10.0 (score 2 -> 1, score
14 -> 10, clamped) and rounded to one decimal.  The weights were set by solving
sample exercises by hand and ordering them (docs/puzzles.md); they are a
documented judgement, not a fit.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.puzzles.battleklinge.tags import hits_if_to_move_again
from fechtbuch.solver.battleklinge.api import Prover

WEIGHTS = {"n": 2.5, "effort": 0.45, "tempting": 0.6, "defender_options": 0.08, "quiet": 1.2}
SCORE_LOW, SCORE_HIGH = 2.0, 14.0


def features(pos: Position, n: int, key: Move) -> dict[str, float]:
    prover = Prover(table_mb=8)
    prover.won(fast.state_from_position(pos), n)
    enemy = pos.pieces(1 - pos.turn)
    tempting = 0
    for move in reference.legal_moves(pos):
        if move == key:
            continue
        captures = move.to_sq is not None and bool(enemy >> move.to_sq & 1)
        if captures or hits_if_to_move_again(reference.play(pos, move)):
            tempting += 1
    after = reference.play(pos, key)
    return {
        "n": n,
        "effort": max(prover.nodes, 1).bit_length() - 1,
        "tempting": tempting,
        "defender_options": len(reference.legal_moves(after)) if after.winner() is None else 0,
        "quiet": 0 if (key.to_sq is not None and enemy >> key.to_sq & 1) else 1,
    }


def puzzle_difficulty(pos: Position, n: int, key: Move) -> float:
    """``difficulty(features(pos, n, key))``, without the prover where the length alone
    decides it: every other term is >= 0, so from ``2.5 (n - 2) >= 14`` (n >= 8) on the
    score is at the top of the scale whatever the search would count (a deep study's
    proof from scratch takes the prover seconds to tens of seconds for a 10.0 it
    cannot change; docs/performance.md)."""
    least = {"n": n, "effort": 0, "tempting": 0, "defender_options": 0, "quiet": 0}
    if _score(least) >= SCORE_HIGH:
        return 10.0
    return difficulty(features(pos, n, key))


def _score(feats: dict[str, float]) -> float:
    return (
        WEIGHTS["n"] * (feats["n"] - 2)
        + WEIGHTS["effort"] * feats["effort"]
        + WEIGHTS["tempting"] * min(feats["tempting"], 6)
        + WEIGHTS["defender_options"] * feats["defender_options"]
        + WEIGHTS["quiet"] * feats["quiet"]
    )


def difficulty(feats: dict[str, float]) -> float:
    """Difficulty 1.0-10.0 from :func:`features`.

    >>> difficulty({"n": 2, "effort": 8, "tempting": 2, "defender_options": 12, "quiet": 1})
    4.7
    """
    score = _score(feats)
    scaled = 1 + 9 * (score - SCORE_LOW) / (SCORE_HIGH - SCORE_LOW)
    return round(min(10.0, max(1.0, scaled)), 1)
