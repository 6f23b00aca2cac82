"""Choosing the Touché duel pack from the mined pool with OR-Tools CP-SAT.

One boolean per candidate.  Hard: exactly ``per_n`` exercises for each N; at
most one exercise per self-play round and N (neighbouring views of one round are
often the same idea a turn apart).  Soft (each shortfall costs :data:`PENALTY`):

* levels: standard and fortgeschritten each at least a third of every N, or all
  the pool has;
* motifs: every tag of :data:`~fechtbuch.puzzles.touche.exercises.TAGS` at least
  ``max(1, per_n // 6)`` times per N (or as often as the pool allows), and no
  single end tag (treffer, blockiert, stapelende) in more than two thirds of an N;
* rounds: an exercise from a round that already gave one of another N costs a
  little, so the pack spreads over as many rounds as the pool offers.

Objective: the summed quality (difficulty, motif count) minus penalties; the id
breaks ties.  One worker, a fixed random seed and a deterministic time limit, so
the same pool gives the same pack on every run and machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.touche.exercises import END_TAGS, TAGS

PENALTY = 100_000
SHARED_ROUND = 2_000
LEVELS = ("standard", "fortgeschritten")


class PoolTooSmall(InputError):
    """The pool cannot fill the requested pack."""


@dataclass(frozen=True)
class Candidate:
    """One mined exercise and the self-play round it came from."""

    puzzle: dict
    game: int

    def to_json(self) -> dict:
        return {"game": self.game, "puzzle": self.puzzle}

    @classmethod
    def from_json(cls, data: dict) -> Candidate:
        return cls(data["puzzle"], data["game"])


def quality(puzzle: dict) -> int:
    """Harder exercises and more motifs first (an integer for CP-SAT)."""
    return int(puzzle["difficulty"] * 10) * 100 + 300 * len(puzzle["tags"])


def select(candidates: list[Candidate], per_n: dict[int, int]) -> list[Candidate]:
    """``per_n[n]`` exercises of each N, chosen for variety (see the module doc)."""
    from ortools.sat.python import cp_model

    candidates = [c for c in candidates if c.puzzle["n"] in per_n]
    model = cp_model.CpModel()
    pick = [model.new_bool_var(f"x{i}") for i in range(len(candidates))]
    penalties = []
    for n, count in sorted(per_n.items()):
        group = [i for i, c in enumerate(candidates) if c.puzzle["n"] == n]
        rounds = {candidates[i].game for i in group}
        if len(rounds) < count:
            raise PoolTooSmall(
                f"count: the pool has exercises with N = {n} from only {len(rounds)} "
                f"self-play rounds, {count} are needed; mine more rounds"
            )
        model.add(sum(pick[i] for i in group) == count)
        for game in rounds:
            model.add(sum(pick[i] for i in group if candidates[i].game == game) <= 1)

        def at_least(members: list[int], want: int, name: str, count: int = count) -> None:
            short = model.new_int_var(0, count, name)
            model.add(sum(pick[i] for i in members) + short >= want)
            penalties.append(short)

        for level in LEVELS:
            members = [i for i in group if candidates[i].puzzle["position"].startswith(level)]
            at_least(members, min(len(members), count // 3), f"level{n}{level}")
        for tag in TAGS:
            members = [i for i in group if tag in candidates[i].puzzle["tags"]]
            at_least(members, min(len(members), max(1, count // 6)), f"tag{n}{tag}")
        for tag in END_TAGS.values():
            members = [i for i in group if tag in candidates[i].puzzle["tags"]]
            over = model.new_int_var(0, count, f"over{n}{tag}")
            model.add(sum(pick[i] for i in members) - over <= (2 * count) // 3)
            penalties.append(over)
    by_game: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_game.setdefault(c.game, []).append(i)
    shared = []
    for game, members in sorted(by_game.items()):
        extra = model.new_int_var(0, len(per_n), f"round{game}")
        model.add(sum(pick[i] for i in members) - 1 <= extra)
        shared.append(extra)
    order = sorted(range(len(candidates)), key=lambda i: candidates[i].puzzle["id"])
    rank = {i: r for r, i in enumerate(order)}
    score = [quality(c.puzzle) * 1000 - rank[i] for i, c in enumerate(candidates)]
    model.maximize(
        sum(s * p for s, p in zip(score, pick, strict=True))
        - PENALTY * 1000 * sum(penalties)
        - SHARED_ROUND * 1000 * sum(shared)
    )
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 1
    solver.parameters.max_deterministic_time = 20.0
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise PoolTooSmall("count: the selection found no pack in this pool; mine more rounds")
    return [c for i, c in enumerate(candidates) if solver.value(pick[i])]
