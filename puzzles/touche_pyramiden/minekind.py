"""The pyramid game's mining kind: what ``fechtbuch pyramiden mine`` adds to the
generic loop (:mod:`fechtbuch.puzzles.minekit`).

A round is one pair of seeded states (:func:`~fechtbuch.puzzles.touche_pyramiden.mining.
candidate_rounds`: one of random play, one of threat-building play) and its candidate
views.  Keeping is sequential by nature (:func:`~fechtbuch.puzzles.touche_pyramiden.
exercises.take_round`: which N a view is searched for depends on what was kept
before, and one idea is kept once), so a worker runs the same steps on its round
ahead, from the pool as it was before the batch, and hands back every examination it
did; :meth:`PyramidenMining.add` then takes the views in round order with the pool
as it is, answering each examination from the worker's (it is a pure function of its
arguments) and doing it here only when the pool changed the question.  So any
``-j`` gives the pack of the sequential :func:`~fechtbuch.puzzles.touche_pyramiden.
exercises.mine`.  There is no CP-SAT step: ``--per-n`` caps each N and the pool is
the pack.
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path

from fechtbuch.engines import __version__
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.touche_in_n import node_of_view
from fechtbuch.puzzles.minekit import Candidate, DbCandidate, MinePool, MiningKind, RoundYield
from fechtbuch.puzzles.touche_pyramiden import mining as exercises
from fechtbuch.puzzles.touche_pyramiden.mining import Kept, MinedPuzzle
from fechtbuch.puzzles.touche_pyramiden.motifs import CATALOGUE

PACK_FORMAT = "fechtbuch-pack"
PACK_VERSION = 2
RULES = "touche-pyramiden"
BATCH_ROUNDS = 8
DEFAULT_ROUNDS = 300
DB_MAX_NODES = 30_000
"""The proof budget per view of a database round (``pyramiden mine``'s default)."""
DB_STATE_PAIRS = 50
"""State pairs per database round (``pyramiden mine`` takes 300 by default)."""


def build_pack(found: list[MinedPuzzle], seed: int, max_n: int, command: str) -> dict:
    """The version-2 pack (docs/puzzles.md, "Pack format"): puzzles by N, difficulty, id."""
    puzzles = sorted((e.to_json() for e in found), key=lambda p: (p["n"], p["difficulty"], p["id"]))
    return {
        "format": PACK_FORMAT,
        "version": PACK_VERSION,
        "rules": RULES,
        "generator": {"name": "fechtbuch", "version": __version__},
        "seed": seed,
        "command": command,
        "mined_by": exercises.MINED_BY,
        "max_n": max_n,
        "order": "n,difficulty,id",
        "solution": "pruned",
        "puzzles": puzzles,
    }


def _kept(pool: MinePool) -> Kept:
    """The sequential keep state of a pool (its candidates are the kept exercises)."""
    kept = Kept()
    for candidate in pool.candidates:
        exercise = MinedPuzzle(**candidate.puzzle)
        kept.found[_dedup(candidate.puzzle["position"])] = exercise
        kept.ideas.add(exercise.key)
        kept.counts[exercise.n] = kept.counts.get(exercise.n, 0) + 1
    return kept


def _dedup(position: str) -> str:
    return exercises.dedup_of(node_of_view(notation.parse_view(position))[0])


class _Recorded:
    """:func:`exercises.examine`, remembering (or answering from) earlier calls."""

    def __init__(self, known: dict | None = None) -> None:
        self.calls: dict[tuple, MinedPuzzle | None] = dict(known or {})

    def __call__(self, view: str, max_n: int, max_nodes: int, min_n: int) -> MinedPuzzle | None:
        key = (view, max_n, max_nodes, min_n)
        if key not in self.calls:
            self.calls[key] = exercises.examine(view, max_n, max_nodes, min_n)
        return self.calls[key]


class PyramidenMining(MiningKind):
    """``fechtbuch pyramiden mine`` (module doc)."""

    rules = RULES
    command = "fechtbuch pyramiden mine"
    motifs = CATALOGUE
    batch_rounds = BATCH_ROUNDS
    mined_by = exercises.MINED_BY
    db_ns = (1, 2)

    def db_task(
        self, seed: int, round_number: int, ns: tuple[int, ...], card_set: int | None = None
    ) -> tuple:
        return (seed, round_number, max(ns), DB_MAX_NODES)

    def db_round(self, task: tuple) -> RoundYield:
        """:data:`DB_STATE_PAIRS` state pairs of the round's own seeded stream
        (``pyramiden mine`` draws every pair from one stream, so its round ``i`` needs
        the rounds before it; the states of a stream are those of whole seeded games
        in order), kept as ``pyramiden mine`` keeps; the database dedups across rounds."""
        seed, round_number, max_n, max_nodes = task
        kept = Kept()
        views = 0
        stream = f"db-{seed}-{round_number}"
        for pair in exercises.candidate_rounds(stream, DB_STATE_PAIRS, max_n >= 3):
            exercises.take_round(pair, kept, max_n, max_nodes)
            views += len(pair.views) + len(pair.built)
        found = [e.to_json() for e in kept.found.values()]
        return RoundYield(round_number, found, {"views": views})

    def db_export_params(self, ns: tuple[int, ...], count: int, seed: int) -> dict:
        return {"seed": seed, "max_n": max(ns), "max_nodes": DB_MAX_NODES, "per_n": count}

    def db_pack(
        self, rows: list[DbCandidate], ns: tuple[int, ...], count: int, seed: int, command: str
    ) -> dict:
        # no CP-SAT step in this game (module doc): the first ``count`` rows of each N
        taken: dict[int, int] = {}
        found = []
        for row in rows:
            n = row.puzzle["n"]
            if taken.get(n, 0) < count:
                taken[n] = taken.get(n, 0) + 1
                found.append(MinedPuzzle(**row.puzzle))
        return build_pack(found, seed, max(ns), command)

    def __init__(self) -> None:
        self._rounds: tuple[tuple, object, int] | None = None  # (seed key, iterator, next)

    def ns(self, params: dict) -> tuple[int, ...]:
        return tuple(range(1, params["max_n"] + 1))

    def _views(self, seed: int, round_number: int, deep: bool) -> exercises.RoundViews:
        """The views of round ``round_number`` (the seeded states are a stream: the
        rounds are drawn in order and a resumed run skips to its first); ``deep``:
        with the lifted and built views that seed N = 3."""
        source = (seed, deep)
        if self._rounds is None or self._rounds[0] != source or self._rounds[2] > round_number:
            rounds = exercises.candidate_rounds(str(seed), 1 << 62, deep)
            self._rounds = (source, rounds, 0)
        key, rounds, at = self._rounds
        while at < round_number:
            next(rounds)
            at += 1
        views = next(rounds)
        self._rounds = (key, rounds, at + 1)
        return views

    def task(self, params: dict, round_number: int, pool: MinePool) -> tuple:
        views = self._views(params["seed"], round_number, params["max_n"] >= 3)
        return (round_number, views, params, [c.puzzle for c in pool.candidates])

    def examine_round(self, task: tuple) -> RoundYield:
        round_number, views, params, kept_puzzles = task
        pool = MinePool(candidates=[Candidate(0, p) for p in kept_puzzles])
        recorded = _Recorded()
        exercises.take_round(
            views,
            _kept(pool),
            params["max_n"],
            params["max_nodes"],
            params["per_n"],
            None,
            recorded,
        )
        calls = [
            [list(key), None if e is None else e.to_json()] for key, e in recorded.calls.items()
        ]
        count = len(views.views) + len(views.built)
        return RoundYield(round_number, [], {"views": count}, [views, calls])

    def add(self, pool: MinePool, found: RoundYield, params: dict) -> None:
        views, calls = found.notes
        known = {tuple(k): None if e is None else MinedPuzzle(**e) for k, e in calls}
        recorded, kept = _Recorded(known), _kept(pool)
        before = len(kept.found)
        exercises.take_round(
            views, kept, params["max_n"], params["max_nodes"], params["per_n"], None, recorded
        )
        pool.rounds += 1
        pool.counts["views"] = pool.counts.get("views", 0) + found.counts["views"]
        pool.counts["examined here"] = (
            pool.counts.get("examined here", 0) + len(recorded.calls) - len(known)
        )
        for dedup, exercise in list(kept.found.items())[before:]:
            pool.classes.add(dedup)
            pool.candidates.append(Candidate(found.round, exercise.to_json()))

    def duplicate_class(self, puzzle: dict) -> str:
        return _dedup(puzzle["position"])

    def pool_full(self, pool: MinePool, params: dict) -> bool:
        return _kept(pool).full(params["max_n"], params["per_n"])

    def select(self, pool: MinePool, params: dict) -> list[Candidate]:
        return list(pool.candidates)

    def build_pack(self, chosen: list[Candidate], params: dict, command: str) -> dict:
        found = [MinedPuzzle(**c.puzzle) for c in chosen]
        return build_pack(found, params["seed"], params["max_n"], command)

    def command_text(self, params: dict, output: Path, max_rounds: int) -> str:
        parts = self.command.split() + ["-o", output.name, "--seed", str(params["seed"])]
        parts += ["--candidates", str(max_rounds), "--max", str(params["max_n"])]
        parts += ["--max-nodes", str(params["max_nodes"])]
        if params["per_n"] is not None:
            parts += ["--per-n", str(params["per_n"])]
        return shlex.join(parts)

    def summary(self, pool: MinePool, pack: dict, params: dict) -> dict:
        # examinations the keep step did itself because the pool changed the question
        # after the worker's look ahead (the rest came from the workers)
        return {
            "views": pool.counts.get("views", 0),
            "examined_in_main": pool.counts.get("examined here", 0),
        }

    def report(self, summary: dict, jobs: int) -> list[str]:
        counts = Counter({int(n): k for n, k in summary["by_n"].items() if k})
        found = " ".join(f"N={n}: {counts[n]}" for n in sorted(counts)) or "none found"
        return [
            found,
            f"Examined {summary['views']:,} views from {summary['rounds']} state pairs in "
            f"{summary['seconds_mining']:.1f} s ({jobs} workers).",
        ]


KIND = PyramidenMining()
