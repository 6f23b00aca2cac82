"""The Touché duel's mining kind: what ``fechtbuch touche mine`` adds to the generic loop.

A round is one seeded self-play round
(:func:`~fechtbuch.puzzles.touche_duell.mining.examine_game`: every view of the player
to act, proved, verified, tagged and rated); candidates are deduplicated up to the
mirror; the pool is full when every N has exercises from :data:`POOL_ROUNDS` times
as many rounds as the pack needs; CP-SAT balances levels, motifs and rounds
(:mod:`fechtbuch.puzzles.touche_duell.selection`); the pack is version 2 with whole
solution trees, each exercise naming its round.
"""

from __future__ import annotations

import math
from pathlib import Path

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_duell.notation import parse_view
from fechtbuch.puzzles.minekit import Candidate, DbCandidate, MinePool, MiningKind, RoundYield
from fechtbuch.puzzles.pack import build_pack_v2
from fechtbuch.puzzles.touche_duell import mining as exercises
from fechtbuch.puzzles.touche_duell.motifs import CATALOGUE
from fechtbuch.puzzles.touche_duell.packkind import KIND as PACK_KIND
from fechtbuch.puzzles.touche_duell.selection import select

BATCH_ROUNDS = 8
DEFAULT_ROUNDS = 2_000
POOL_ROUNDS = 1.25
"""Mine until each N has exercises from this many times as many rounds as it needs."""


def per_n(params: dict) -> dict[int, int]:
    return {n: params["count"] for n in params["ns"]}


def full(pool: MinePool, wanted: dict[int, int]) -> bool:
    return all(pool.rounds_with(n) >= math.ceil(POOL_ROUNDS * k) for n, k in wanted.items())


def reachable(pool: MinePool, wanted: dict[int, int]) -> dict[int, int]:
    """What the pack can hold: ``wanted`` when the pool is full; after ``--rounds``
    stopped a thin pool, each N at most one exercise per round that has one (an N
    without any is left out) -- the summary and the command say so."""
    if full(pool, wanted):
        return wanted
    short = {n: min(k, pool.rounds_with(n)) for n, k in wanted.items()}
    return {n: k for n, k in short.items() if k}


class ToucheMining(MiningKind):
    """``fechtbuch touche mine`` (module doc)."""

    rules = exercises.RULES
    command = "fechtbuch touche mine"
    motifs = CATALOGUE
    batch_rounds = BATCH_ROUNDS
    mined_by = exercises.MINED_BY
    db_ns = tuple(range(1, exercises.MAX_N + 1))

    def db_task(
        self, seed: int, round_number: int, ns: tuple[int, ...], card_set: int | None = None
    ) -> tuple:
        # self-play round ``round_number`` of ``seed`` is its own SHA-256 derived deal
        return (seed, round_number, exercises.EXAMINE_NODES)

    def db_export_params(self, ns: tuple[int, ...], count: int, seed: int) -> dict:
        return {"ns": list(ns), "count": count, "seed": seed, "max_nodes": exercises.EXAMINE_NODES}

    def db_pack(
        self, rows: list[DbCandidate], ns: tuple[int, ...], count: int, seed: int, command: str
    ) -> dict:
        # each exercise names its self-play round, and pack verify replays that round
        # from the pack's seed: one pack holds the rounds of one seed
        seeds = sorted({row.seed for row in rows})
        if len(seeds) > 1:
            raise InputError(
                f"--mined-seed: the rows come from the seeds {', '.join(map(str, seeds))}; a "
                "Touché duel pack replays its rounds from one seed: choose one with --mined-seed"
            )
        params = self.db_export_params(ns, count, seeds[0] if seeds else seed)
        pool = MinePool(candidates=[Candidate(row.round, row.puzzle) for row in rows])
        pool.rounds = len({row.round for row in rows})
        return self.build_pack(self.select(pool, params), params, command)

    def task(self, params: dict, round_number: int, pool: MinePool) -> tuple:
        return (params["seed"], round_number, params["max_nodes"])

    def examine_round(self, task: tuple) -> RoundYield:
        result = exercises.examine_game(task)
        return RoundYield(result.game, result.puzzles, result.reasons)

    def duplicate_class(self, puzzle: dict) -> str:
        return exercises.duplicate_class(parse_view(puzzle["position"]))

    def pool_full(self, pool: MinePool, params: dict) -> bool:
        return full(pool, per_n(params))

    def select(self, pool: MinePool, params: dict) -> list[Candidate]:
        wanted = reachable(pool, per_n(params))
        if not wanted:
            raise InputError(f"--rounds: no exercise in {pool.rounds} rounds; mine more rounds")
        return select(pool.candidates, wanted)

    def build_pack(self, chosen: list[Candidate], params: dict, command: str) -> dict:
        # each exercise names its self-play round, so one can be re-mined on its own
        puzzles = [{**c.puzzle, "round": c.round} for c in chosen]
        return build_pack_v2(
            PACK_KIND,
            puzzles,
            seed=params["seed"],
            command=command,
            max_n=exercises.MAX_N,
            generator=self.command,
            mined_by=exercises.MINED_BY,
        )

    def command_text(self, params: dict, output: Path, max_rounds: int) -> str:
        parts = [self.command]
        if tuple(params["ns"]) != tuple(range(1, exercises.MAX_N + 1)):
            parts += [f"--n {n}" for n in params["ns"]]
        parts += [f"--count {params['count']}", f"--seed {params['seed']}"]
        if params["max_nodes"] != exercises.EXAMINE_NODES:
            parts.append(f"--max-nodes {params['max_nodes']}")
        if max_rounds != DEFAULT_ROUNDS:
            parts.append(f"--rounds {max_rounds}")
        return " ".join(parts + [f"-o {output.name}"])

    def progress(self, pool: MinePool, params: dict) -> dict:
        return {f"n{n}_rounds": pool.rounds_with(n) for n in params["ns"]}

    def summary(self, pool: MinePool, pack: dict, params: dict) -> dict:
        wanted = reachable(pool, per_n(params))
        return {
            "views": sum(pool.counts.values()),
            "reasons": dict(sorted(pool.counts.items())),
            "pool_after_duplicates": len(pool.candidates),
            "short": {
                str(n): k - wanted.get(n, 0)
                for n, k in per_n(params).items()
                if wanted.get(n, 0) < k
            },
            "player": exercises.PLAYER,
        }

    def report(self, summary: dict, jobs: int) -> list[str]:
        lines = [
            f"Examined {summary['views']:,} views from {summary['rounds']} rounds in "
            f"{summary['seconds_mining']:.1f} s ({jobs} workers); pool "
            f"{summary['pool_after_duplicates']} after mirror duplicates.",
            "Views by outcome: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()),
        ]
        for n, missing in summary["short"].items():
            lines.append(
                f"WARNING: {missing} fewer exercises with N={n} than --count: the pool is thin."
            )
        return lines


KIND = ToucheMining()
