"""Mining exercises: candidates from self-play, proved, verified, tagged, rated.

Pipeline for each game (a pure function of seed and game index, so any
number of workers gives the same pool):

1. play the game (:mod:`puzzles.battleklinge.sources`);
2. for each position from ply 2 on: df-pn distance within max(N); keep it if
   the distance is one of the wanted N and there is exactly one key;
3. main line and full solution tree from df-pn;
4. independent confirmation with the minimax verifier (exact N, single key);
5. tags and difficulty;
6. the witness: the game's start deal and its moves up to the position, so that
   ``pack verify`` can replay the round that produced the exercise.

The mining loop (:mod:`fechtbuch.puzzles.minekit`) keeps the first candidate of
each mirror class (the board reflected left-right with every card swapped for its
mirror); :mod:`fechtbuch.puzzles.battleklinge.minekind` plugs this module into it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, card_id
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.puzzles.battleklinge.rating import difficulty, features
from fechtbuch.puzzles.battleklinge.sources import play_game_record
from fechtbuch.puzzles.battleklinge.tags import PuzzleFacts, tags_for
from fechtbuch.solver.battleklinge.api import Prover, SolverLimit
from fechtbuch.solver.battleklinge.verify import verify_exact_claim

FIRST_PLY = 2
NODE_LIMIT = 3_000_000


def mirror_class(pos: Position) -> str:
    """The same text for a position and its left-right mirror."""
    return min(pos.to_text(), pos.mirror().to_text())


def puzzle_id(position: str, n: int, key: str) -> str:
    """A stable id from the exercise's content.

    >>> puzzle_id("ssmss/5/5/5/SSMSS g ausfall,volte stoss,bindung riposte", 2, "ausfall:a1a3")
    'p-0742d6afcb17'
    """
    digest = hashlib.sha256(f"battleklinge/{position}/{n}/{key}".encode()).hexdigest()
    return "p-" + digest[:12]


def examine_position(pos: Position, ns: tuple[int, ...]) -> dict | None:
    """The exercise record for ``pos`` if it qualifies, else None."""
    if pos.winner() is not None:
        return None
    st = fast.state_from_position(pos)
    prover = Prover(max_nodes=NODE_LIMIT, table_mb=4)
    try:
        n = prover.distance(st, max(ns))
        if n is None or n not in ns:
            return None
        winning = prover.winning_moves(st, n)
        if len(winning) != 1:
            return None
        line = [fast.decode_move(c) for c in prover.attack_line(st, n)]
        tree = prover.tree(st, n).to_json()
    except SolverLimit:
        return None
    key = line[0]
    problems = verify_exact_claim(pos, n, key)
    if problems:  # df-pn and minimax disagree: never publish; surfaced in the stats
        return {"rejected": "; ".join(problems), "position": pos.to_text()}
    facts = PuzzleFacts.of_puzzle(pos, n, key, line, tree)
    feats = features(pos, n, key)
    text = pos.to_text()
    return {
        "id": puzzle_id(text, n, key.to_text()),
        "n": n,
        "position": text,
        "attacker": COLOR_CHARS[pos.turn],
        "key": key.to_text(),
        "line": [m.to_text() for m in line],
        "solution": tree,
        "tags": tags_for(facts),
        "difficulty": difficulty(feats),
        "cards": [card_id(c) for c in pos.cards],
        "features": feats,
        "mirror_class": mirror_class(pos),
        "pieces": bin(pos.pieces(0)).count("1") + bin(pos.pieces(1)).count("1"),
        "material_gap": bin(pos.pieces(pos.turn)).count("1")
        - bin(pos.pieces(1 - pos.turn)).count("1"),
    }


WARM_UP_POSITION = "5/S4/1M3/5/sssms g prim,terz stoss,bindung moulinet"
"""A hit in 2 (with a forced pass) that runs every compiled path of examine_position."""


def warm_up() -> None:
    """Compile (or load) the numba code once in this process, so that forked workers
    inherit it instead of each compiling its own copy.  Changes no output."""
    from fechtbuch.engines.battleklinge.search import Searcher

    examine_position(Position.from_text(WARM_UP_POSITION), (2, 3))
    Searcher(tt_bits=10).search(Position.from_text(WARM_UP_POSITION), max_depth=2)


@dataclass
class GameYield:
    """What one game contributed."""

    index: int
    source: str
    positions: int
    candidates: list[dict] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)


def examine_game(task: tuple[int, int, tuple[int, ...], tuple[int, ...] | None]) -> GameYield:
    """Worker entry point: play game ``index`` and examine its positions."""
    seed, index, ns, cards = task
    source, positions, moves = play_game_record(seed, index, cards)
    start = positions[0].to_text()
    result = GameYield(index=index, source=source, positions=0)
    for ply, pos in enumerate(positions):
        if ply < FIRST_PLY or pos.winner() is not None:
            continue
        result.positions += 1
        record = examine_position(pos, ns)
        if record is None:
            continue
        if "rejected" in record:
            result.rejected.append(record)
            continue
        record.update(game=index, ply=ply, source=source)
        # the round itself, from its deal, is the exercise's witness game
        record["witness"] = {"start": start, "moves": [m.to_text() for m in moves[:ply]]}
        result.candidates.append(record)
    return result
