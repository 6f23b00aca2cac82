"""What Battleklinge's pack balances when CP-SAT picks it from the pool
(the model and the solve are :mod:`fechtbuch.puzzles.selection`).

Model: one boolean per candidate.

Hard constraints
  * exactly ``count`` exercises for each N;
  * at most one exercise per self-play game (neighbouring positions of one
    game are often the same idea one move apart).

Soft constraints (each shortfall costs PENALTY points of quality, so a thin
pool still gives a pack, and a rich one meets them all):
  * schools: Gold and Blau attack equally often, within 1 per N;
  * cards: each of the 16 cards appears in at least ``card_min`` exercises
    (half the average, or what the pool has);
  * tags: each motif appears at least ``max(1, total // 8)`` times (or as often
    as the pool allows), and none but the two landing tags in more than 60%
    (each exercise over the cap costs like a shortfall);
  * difficulty bands (easy < 4, medium < 7, hard >= 7): for each N every band
    that the pool offers for that N gets at least a quarter of that N's exercises,
    or all its candidates if it has fewer.

Objective: maximise the summed quality (:func:`quality`) minus penalties.
CP-SAT runs with one worker, a fixed random seed and a deterministic time
limit, so the choice is the same on every run and machine.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARDS
from fechtbuch.puzzles.battleklinge.tags import LANDING_TAGS, TAGGERS
from fechtbuch.puzzles.selection import PackModel, PoolTooSmall

__all__ = ["PoolTooSmall", "band", "quality", "select"]

PENALTY = 1000
SOURCE_BONUS = {"engine": 6, "greedy": 4}
BANDS = (("easy", 1.0, 4.0), ("medium", 4.0, 7.0), ("hard", 7.0, 10.01))
MOTIFS = [t for t in TAGGERS if t not in LANDING_TAGS]


def band(difficulty: float) -> str:
    return next(name for name, low, high in BANDS if low <= difficulty < high)


def quality(candidate: dict) -> int:
    """Documented quality score (integer): natural, rich and varied exercises first.

    10 + 3 per motif tag + pieces on the board (up to 10) - 2 per piece of
    material the attacker is ahead + 6 for positions from engine self-play
    and + 4 from the cautious (greedy) player, whose games look like people's.
    """
    motifs = sum(1 for t in candidate["tags"] if t in MOTIFS)
    return (
        10
        + 3 * motifs
        + min(candidate["pieces"], 10)
        - 2 * max(candidate["material_gap"], 0)
        + SOURCE_BONUS.get(candidate["source"], 0)
    )


def select(pool: list[dict], counts: dict[int, int], seed: int) -> list[dict]:
    """The chosen candidates (in pool order); raises PoolTooSmall."""
    for n, count in counts.items():
        have = sum(1 for c in pool if c["n"] == n)
        if have < count:
            raise PoolTooSmall(f"pool: {have} candidates with n={n}, need {count}")
    model = PackModel(len(pool))
    total = sum(counts.values())
    for n, count in counts.items():
        ids = [i for i, c in enumerate(pool) if c["n"] == n]
        model.exactly(ids, count)
        gold = [i for i in ids if pool[i]["attacker"] == "g"]
        blau = [i for i in ids if pool[i]["attacker"] == "b"]
        imbalance = model.penalty(count, f"imbalance_{n}", PENALTY)
        model.model.add(model.total(gold) - model.total(blau) <= imbalance + 1)
        model.model.add(model.total(blau) - model.total(gold) <= imbalance + 1)
        for name, low, high in BANDS:
            members = [i for i in ids if low <= pool[i]["difficulty"] < high]
            model.at_least(
                members, min(max(1, count // 4), len(members)), f"band_{n}_{name}", PENALTY
            )
    for n in [c for c in counts if c not in {p["n"] for p in pool}]:
        raise PoolTooSmall(f"pool: no candidates with n={n}")
    games: dict[int, list[int]] = {}
    for i, c in enumerate(pool):
        games.setdefault(c["game"], []).append(i)
    for members in games.values():
        if len(members) > 1:
            model.at_most(members, 1)
    card_min = max(1, total * 5 // len(CARDS) // 2)
    for card in CARDS:
        members = [i for i, c in enumerate(pool) if card.id in c["cards"]]
        model.at_least(members, min(card_min, len(members)), f"card_{card.id}", PENALTY)
    for tag in MOTIFS:
        members = [i for i, c in enumerate(pool) if tag in c["tags"]]
        model.at_least(members, min(max(1, total // 8), len(members)), f"tag_{tag}", PENALTY)
        if members:
            excess = model.penalty(total, f"excess_{tag}", PENALTY)
            model.model.add(model.total(members) <= max(1, total * 6 // 10) + excess)
    chosen = model.solve([quality(c) for c in pool], seed)
    return [pool[i] for i in chosen]
