"""Battleklinge's mining kind: what ``fechtbuch mine`` adds to the generic loop.

A round is one self-play game (:func:`fechtbuch.puzzles.battleklinge.mining.examine_game`);
candidates are deduplicated by mirror class; the pool is full with four times the
pack per N from at least twice as many different games as the pack needs; CP-SAT
balances schools, cards, motifs and difficulty
(:mod:`fechtbuch.puzzles.battleklinge.selection`); the pack is version 1.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from fechtbuch.engines.battleklinge.cards import CARDS, card_id, parse_card_list
from fechtbuch.puzzles.battleklinge import mining
from fechtbuch.puzzles.battleklinge.motifs import CATALOGUE
from fechtbuch.puzzles.battleklinge.packkind import MINED_BY, build_pack
from fechtbuch.puzzles.battleklinge.selection import select
from fechtbuch.puzzles.battleklinge.sources import SOURCES
from fechtbuch.puzzles.minekit import Candidate, DbCandidate, MinePool, MiningKind, RoundYield


def _round_yield(game: mining.GameYield) -> RoundYield:
    counts = {
        f"positions:{game.source}": game.positions,
        f"found:{game.source}": len(game.candidates),
    }
    return RoundYield(game.index, game.candidates, counts | {"rejected": len(game.rejected)})


_CANDIDATE_SCHEMA = {
    "allOf": [{"$ref": "#/$defs/puzzleFields"}],
    "required": [
        "features",
        "mirror_class",
        "pieces",
        "material_gap",
        "game",
        "ply",
        "source",
        "witness",
    ],
    "properties": {
        "features": {"type": "object", "additionalProperties": {"type": "number"}},
        "mirror_class": {"type": "string"},
        "pieces": {"type": "integer", "minimum": 0},
        "material_gap": {"type": "integer"},
        "game": {"type": "integer", "minimum": 0},
        "ply": {"type": "integer", "minimum": 0},
        "source": {"enum": list(SOURCES)},
    },
}
POOL_FACTOR = 4
DEFAULT_ROUNDS = 50_000


ALL_CARD_SETS: tuple[tuple[int, ...], ...] = tuple(combinations(range(len(CARDS)), 5))
"""Every card set of the game (5 of 16: 4,368), in lexicographic order of card numbers."""


class BattleklingeMining(MiningKind):
    """``fechtbuch mine`` (module doc)."""

    rules = "battleklinge"
    command = "fechtbuch mine"
    motifs = CATALOGUE
    batch_rounds = 16
    candidate_schema = _CANDIDATE_SCHEMA
    mined_by = MINED_BY
    db_ns = (2, 3)

    db_cover_sets = len(ALL_CARD_SETS)

    def db_task(
        self, seed: int, round_number: int, ns: tuple[int, ...], card_set: int | None = None
    ) -> tuple:
        # game ``round_number`` of ``seed`` is already a pure function of the two
        # (random card set, deal and players SHA-256 derived); a covering stream fixes
        # the set and leaves the deal and players to the seed
        cards = None if card_set is None else ALL_CARD_SETS[card_set]
        return (seed, round_number, tuple(ns), cards)

    def db_cover_set_name(self, number: int) -> str:
        return ",".join(sorted(card_id(c) for c in ALL_CARD_SETS[number]))

    def db_card_set(self, puzzle: dict) -> str:
        """The five card ids, sorted: the same set whoever holds which card."""
        return ",".join(sorted(puzzle["cards"]))

    def db_card_set_text(self, text: str) -> str:
        """``--cards`` as a card set: five ids or a named set (the game's card list rules)."""
        return ",".join(sorted(card_id(c) for c in parse_card_list(text)))

    def db_export_params(self, ns: tuple[int, ...], count: int, seed: int) -> dict:
        return {"ns": list(ns), "count": count, "seed": seed, "cards": None}

    def db_pack(
        self, rows: list[DbCandidate], ns: tuple[int, ...], count: int, seed: int, command: str
    ) -> dict:
        # the selection takes at most one exercise per self-play game; in the database
        # a game is a (stream seed, round) pair, numbered by round_key
        records = [{**row.puzzle, "game": row.round_key} for row in rows]
        return build_pack(select(records, {n: count for n in ns}, seed), seed, command)

    def task(self, params: dict, round_number: int, pool: MinePool) -> tuple:
        cards = None if params["cards"] is None else parse_card_list(params["cards"])
        return (params["seed"], round_number, tuple(params["ns"]), cards)

    def examine_round(self, task: tuple) -> RoundYield:
        return _round_yield(mining.examine_game(task))

    def duplicate_class(self, puzzle: dict) -> str:
        return puzzle["mirror_class"]

    def pool_full(self, pool: MinePool, params: dict) -> bool:
        """Four times the pack per N, from at least twice as many different games as
        the pack needs (the selection takes at most one exercise per game)."""
        ns, count = params["ns"], params["count"]
        games = {n: {c.round for c in pool.candidates if c.puzzle["n"] == n} for n in ns}
        return all(
            pool.count(n) >= POOL_FACTOR * count and len(games[n]) >= 2 * count for n in ns
        ) and len(set().union(*games.values())) >= 2 * count * len(ns)

    def select(self, pool: MinePool, params: dict) -> list[Candidate]:
        records = [c.puzzle for c in pool.candidates]
        chosen = select(records, {n: params["count"] for n in params["ns"]}, params["seed"])
        keep = {id(record) for record in chosen}
        return [c for c in pool.candidates if id(c.puzzle) in keep]

    def build_pack(self, chosen: list[Candidate], params: dict, command: str) -> dict:
        return build_pack([c.puzzle for c in chosen], params["seed"], command)

    def command_text(self, params: dict, output: Path, max_rounds: int) -> str:
        parts = [self.command] + [f"--n {n}" for n in params["ns"]]
        parts.append(f"--count {params['count']}")
        if params["cards"]:
            parts.append(f"--cards {params['cards']}")
        if max_rounds != DEFAULT_ROUNDS:
            parts.append(f"--rounds {max_rounds}")
        return " ".join(parts + [f"--seed {params['seed']}", f"-o {output}"])

    def warm_up(self) -> None:
        mining.warm_up()

    def progress(self, pool: MinePool, params: dict) -> dict:
        positions = sum(v for k, v in pool.counts.items() if k.startswith("positions:"))
        return {"positions": positions} | super().progress(pool, params)

    def summary(self, pool: MinePool, pack: dict, params: dict) -> dict:
        return {
            "games": pool.rounds,
            "positions": {s: pool.counts.get(f"positions:{s}", 0) for s in SOURCES},
            "found": {s: pool.counts.get(f"found:{s}", 0) for s in SOURCES},
            "rejected_by_verifier": pool.counts.get("rejected", 0),
            "cards_used": len({c for p in pack["puzzles"] for c in p["cards"]}),
            "pool_after_duplicates": len(pool.candidates),
        }

    def report(self, summary: dict, jobs: int) -> list[str]:
        examined = sum(summary["positions"].values())
        mined = summary["seconds_mining"]
        lines = [
            f"Examined {examined:,} positions from {summary['games']} games in {mined:.1f} s "
            f"({examined / max(mined, 1e-9):,.0f} positions/s, {jobs} workers)."
        ]
        for source, seen in summary["positions"].items():
            found = summary["found"][source]
            lines.append(
                f"  {source:7} {seen:7,} positions, {found:5} exercises "
                f"({found / max(seen, 1):.1%})"
            )
        lines.append(
            f"Pool {summary['pool_after_duplicates']} after mirror duplicates; chosen by "
            f"CP-SAT in {summary['seconds'] - mined:.1f} s. Cards used: "
            f"{summary['cards_used']} of {len(CARDS)}."
        )
        rejected = summary["rejected_by_verifier"]
        if rejected:
            lines.append(
                f"WARNING: {rejected} candidates rejected by the verifier (not published)."
            )
        return lines


KIND = BattleklingeMining()
