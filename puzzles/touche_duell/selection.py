"""Choosing the Touché duel pack from the mined pool with OR-Tools CP-SAT.

One boolean per candidate.  Hard: exactly ``per_n`` exercises for each N; at
most one exercise per self-play round and N (neighbouring views of one round are
often the same idea a turn apart).  Soft (each shortfall costs :data:`PENALTY`):

* levels: standard and fortgeschritten each at least a third of every N, or all
  the pool has;
* motifs: every tag of :data:`~fechtbuch.puzzles.touche_duell.mining.TAGS` at least
  ``max(1, per_n // 6)`` times per N (or as often as the pool allows), and no
  single end tag (treffer, blockiert, stapelende) in more than two thirds of an N;
* rounds: an exercise from a round that already gave one of another N costs a
  little, so the pack spreads over as many rounds as the pool offers.

Objective: the summed quality (difficulty, motif count) minus penalties; the id
breaks ties.  The model and the deterministic solve are
:class:`fechtbuch.puzzles.selection.PackModel`.
"""

from __future__ import annotations

from fechtbuch.puzzles.minekit import Candidate
from fechtbuch.puzzles.selection import PackModel, PoolTooSmall
from fechtbuch.puzzles.touche_duell.mining import END_TAGS, TAGS

__all__ = ["Candidate", "PoolTooSmall", "quality", "select"]

PENALTY = 100_000
SHARED_ROUND = 2_000
LEVELS = ("standard", "fortgeschritten")


def quality(puzzle: dict) -> int:
    """Harder exercises and more motifs first (an integer for CP-SAT)."""
    return int(puzzle["difficulty"] * 10) * 100 + 300 * len(puzzle["tags"])


def select(candidates: list[Candidate], per_n: dict[int, int]) -> list[Candidate]:
    """``per_n[n]`` exercises of each N, chosen for variety (see the module doc)."""
    candidates = [c for c in candidates if c.puzzle["n"] in per_n]
    model = PackModel(len(candidates))
    weight = PENALTY * 1000
    for n, count in sorted(per_n.items()):
        group = [i for i, c in enumerate(candidates) if c.puzzle["n"] == n]
        rounds = {candidates[i].round for i in group}
        if len(rounds) < count:
            raise PoolTooSmall(
                f"count: the pool has exercises with N = {n} from only {len(rounds)} "
                f"self-play rounds, {count} are needed; mine more rounds"
            )
        model.exactly(group, count)
        for game in rounds:
            model.at_most([i for i in group if candidates[i].round == game], 1)
        for level in LEVELS:
            members = [i for i in group if candidates[i].puzzle["position"].startswith(level)]
            model.at_least(
                members, min(len(members), count // 3), f"level{n}{level}", weight, upper=count
            )
        for tag in TAGS:
            members = [i for i in group if tag in candidates[i].puzzle["tags"]]
            want = min(len(members), max(1, count // 6))
            model.at_least(members, want, f"tag{n}{tag}", weight, upper=count)
        for tag in END_TAGS.values():
            members = [i for i in group if tag in candidates[i].puzzle["tags"]]
            model.at_most_soft(members, (2 * count) // 3, f"over{n}{tag}", weight, upper=count)
    by_game: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_game.setdefault(c.round, []).append(i)
    for game, members in sorted(by_game.items()):
        extra = model.penalty(len(per_n), f"round{game}", SHARED_ROUND * 1000)
        model.model.add(model.total(members) - 1 <= extra)
    order = sorted(range(len(candidates)), key=lambda i: candidates[i].puzzle["id"])
    rank = {i: r for r, i in enumerate(order)}
    score = [quality(c.puzzle) * 1000 - rank[i] for i, c in enumerate(candidates)]
    return [candidates[i] for i in model.solve(score, seed=1)]
