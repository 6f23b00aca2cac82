"""The computer opponent in four strengths: leicht, mittel, stark, meister.

Each strength is a search budget plus, for the two weaker ones, randomness
that makes them beatable and varied (budgets measured in ``docs/strength.md``):

========  ===========================================================  ============
strength  budget                                                       randomness
========  ===========================================================  ============
leicht    every move scored by a 1-ply search + capture quiescence     softmax, T = 1.2 students
mittel    every move scored by a 3-ply search (node cap 30,000)        softmax, T = 0.3 students
stark     iterative deepening, 60,000 nodes; exact forced play         none
meister   iterative deepening, 1,500,000 nodes; exact forced play      none
========  ===========================================================  ============

Search: PVS, late-move reductions and threat extensions (search.py); evaluation: the fitted weights
with square tables (evaluate.py).  ``movetime`` replaces the node budget by a time
per move (forced-play checks included), ``nodes`` by another node budget; the
frozen ``meister-2026`` (FROZEN_STRENGTHS) plays with the 2026 search and weights.

Softmax: a move with score ``s`` (students, the mover's view) is chosen with
weight ``exp((s - best) / T)``; a forced hit counts as +100 students, so a
hit in one is practically always taken, while moves half a student worse
than the best are still played now and then.

Exact forced play (stark, meister; :class:`ForcedPlay`): a hit within 3 own
moves is never missed, and a move after which the opponent forces a hit
within 2 of its moves is never chosen while another move avoids it.  The
checks ask a :class:`HitOracle` given to the player: the solver
(``fechtbuch.solver.battleklinge.hits.SolverHits``, which the game's player factory
``solver/battleklinge/players.py`` gives every player), which falls back to the
exact full-width :class:`~fechtbuch.engines.battleklinge.search.HitSearch` should
it hit its node limit, or HitSearch itself (the default here: the same answers,
slower); the budgeted search only chooses among the moves that pass.

Endgame tables (meister; :class:`TableProbe`): when built tables (``fechtbuch tb
build``, in the default tables folder) cover the position, the root moves are the
table's best moves (every key of the fastest hit; the moves that keep a draw; the
moves that delay a loss longest) and the score is the table's exact result (a
drawn position never shows a forced-result score).  When the position is not
covered but some root moves lead into the tables (a capture down to K students),
a move that wins by the table is played (the fastest such win), and moves the
table proves lost are dropped while others remain.  Exact results stay exact: a
table answer is never replaced by the budgeted search's.

Repetition: when the chosen move scores above +0.5 students and leads to a
position that already stood on the board in this game, the player picks the
best move that does not (if there is one and it still scores above zero: a
repetition costs at most a draw, a fresh move that loses costs more), so a
winning computer does not steer into a threefold repetition.

>>> from fechtbuch.engines.battleklinge.position import Position, START_EINSTEIGER
>>> player = Player("stark")
>>> choice = player.choose(Position.from_text(START_EINSTEIGER))
>>> choice.move.to_text() in {m.to_text() for m in __import__(
...     "fechtbuch.engines.battleklinge.fast", fromlist=["x"]).legal_moves(
...     Position.from_text(START_EINSTEIGER))}
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.evaluate import DEFAULT_WEIGHTS
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.search import (
    FEAT_ALL,
    MATE_BOUND,
    WIN,
    HitSearch,
    Searcher,
    SearchResult,
    score_to_students,
)
from fechtbuch.engines.errors import InputError

AHEAD_FOR_REPETITION = 50
"""Centi-students above which the engine avoids repeating a position (+0.5)."""


@dataclass(frozen=True)
class Budget:
    """What a strength name means in Battleklinge (a strength is its name in every
    game; the player factory lists them): plies, nodes, softmax temperature (students, 0 = best move
    only), whether every root move gets an exact score, and exact forced play."""

    name: str
    max_depth: int
    max_nodes: int
    temperature: float
    all_scores: bool
    forced_play: bool
    engine: str = "live"
    """``live`` (search.py, negamax.py, evaluate.py) or ``2026`` (the frozen copy in
    baseline/, the frozen meister of 2026-11-30, the yardstick for engine changes)."""
    features: int = FEAT_ALL
    """Search features of the live engine (negamax.FEAT_* bits)."""
    tablebase: bool = False
    """Probe endgame tables (docs/tablebase.md) where built ones cover the position or
    a root move's result: exact results replace the search's guesses there."""


STRENGTHS: dict[str, Budget] = {
    s.name: s
    for s in (
        Budget("leicht", 1, 20_000, 1.2, True, False),
        Budget("mittel", 3, 30_000, 0.3, True, False),
        Budget("stark", 32, 60_000, 0.0, False, True),
        Budget("meister", 32, 1_500_000, 0.0, False, True, tablebase=True),
    )
}
STRENGTH_NAMES = tuple(STRENGTHS)


def _ablations() -> dict[str, Budget]:
    from fechtbuch.engines.battleklinge import negamax as nm

    base = STRENGTHS["meister"]
    plain = Budget("meister-plain", 32, base.max_nodes, 0.0, False, True, features=0)
    out = {plain.name: plain}
    for label, bit in (
        ("pvs", nm.FEAT_PVS | nm.FEAT_LMR),  # LMR needs PVS's null windows
        ("lmr", nm.FEAT_LMR),
        ("ext", nm.FEAT_EXT),
    ):
        name = f"meister-no{label}"
        out[name] = Budget(name, 32, base.max_nodes, 0.0, False, True, features=FEAT_ALL & ~bit)
    return out


FROZEN_STRENGTHS: dict[str, Budget] = {
    "meister-2026": Budget("meister-2026", 32, 1_500_000, 0.0, False, True, engine="2026"),
    **_ablations(),
}
"""Engines for measuring only (``fechtbuch match meister meister-2026``), not offered in
``play``: the frozen engine of 2026-11-30, and the live meister with one search
feature switched off (``meister-nolmr`` ...) or all of them (``meister-plain``)."""
MATCH_NAMES = STRENGTH_NAMES + tuple(FROZEN_STRENGTHS)


def strength_from_name(name: str) -> Budget:
    """Parse a strength name (case-insensitive).

    >>> strength_from_name("Meister").max_nodes
    1500000
    """
    key = name.strip().lower()
    known = {**STRENGTHS, **FROZEN_STRENGTHS}
    if key not in known:
        raise InputError(f"strength: expected one of {', '.join(known)}, got {name!r}")
    return known[key]


@dataclass
class Choice:
    """A chosen move with its score (centi-students, the mover's view) and how it
    was found: ``reason`` is ``search``, ``hit`` (a forced hit within 3),
    ``defence`` (only moves that avoid a forced hit within 2 were searched) or
    ``tablebase`` (the endgame tables chose the moves and give the exact score)."""

    move: Move
    score: int
    depth: int
    nodes: int
    seconds: float
    reason: str
    pv: list[Move] = field(default_factory=list)
    """The principal variation of the search, starting with ``move``."""

    @property
    def students(self) -> float:
        return score_to_students(self.score)


class HitOracle(Protocol):
    """Exact answers to the forced-hit questions of :class:`ForcedPlay` and the analysis.

    ``distance(pos, max_n)``: the shortest forced hit of the side to move within
    ``max_n`` own moves, or ``None``; ``keys(pos, distance)``: every move that keeps
    it, in the move generator's order.  :class:`HitSearch` is one (exact, full
    width); the command layer plugs in the faster ``fechtbuch.solver.battleklinge.hits.SolverHits``
    through the game's player factory (``solver/battleklinge/players.py``, named by
    the plugin), because engines/ never imports solver/.
    """

    def distance(self, pos: Position, max_n: int) -> int | None: ...

    def keys(self, pos: Position, distance: int) -> list[Move]: ...


class ForcedPlay:
    """The exact forced-play guarantees as a filter on the root moves.

    ``root_moves(pos)`` returns ``(moves, reason, distance)``: the moves that keep the
    shortest forced hit within 3 own moves (``"hit"``), else the moves after
    which the opponent has no forced hit within 2 of its moves when such
    moves exist and some move does not have that property (``"defence"``),
    else all legal moves (``"search"``).
    """

    def __init__(self, hit_search: HitOracle | None = None, attack_n: int = 3, defend_n: int = 2):
        self.hits = hit_search if hit_search is not None else HitSearch()
        self.attack_n = attack_n
        self.defend_n = defend_n

    def root_moves(self, pos: Position) -> tuple[list[Move], str, int | None]:
        """``(moves, reason, distance)``; ``distance`` is the hit's length for ``"hit"``."""
        legal = fast.legal_moves(pos)
        distance = self.hits.distance(pos, self.attack_n)
        if distance is not None:
            return self.hits.keys(pos, distance), "hit", distance
        safe = [m for m in legal if self.hits.distance(fast.play(pos, m), self.defend_n) is None]
        if safe and len(safe) < len(legal):
            return safe, "defence", None
        return legal, "search", None


@dataclass
class TableAnswer:
    """What the tables say at the root.  ``covered``: the position itself is in the
    tables, ``moves`` are its best moves and ``score`` its exact score (None for a
    draw).  Otherwise some root moves lead into the tables: ``moves`` are those that
    win by the table (the fastest such wins; ``score`` that win's score, exact for
    these moves) and ``lost`` those the tables prove lost."""

    covered: bool
    moves: list[Move]
    score: int | None
    lost: list[Move]


class TableProbe:
    """Exact answers from built endgame tables for the Meister's root (docs/tablebase.md).

    ``root(pos, legal)``: a :class:`TableAnswer` when tables cover the position or some
    root move leads into them; else None (search as usual)."""

    def __init__(self, root_folder=None):
        self.root_folder = root_folder

    def _tables(self, pos: Position):
        from fechtbuch.engines.battleklinge.tablebase import find_tables

        return find_tables(pos, self.root_folder)

    def root(self, pos: Position, legal: list[Move]) -> TableAnswer | None:
        from fechtbuch.engines.battleklinge.tablebase import Outcome

        tables = self._tables(pos)
        if tables is not None:
            results = tables.move_results(pos)
            best = max(r.rank() for _, r in results)
            moves = [m for m, r in results if r.rank() == best]
            return TableAnswer(True, moves, exact_score(tables.probe(pos)), [])
        wins, lost = [], []
        for move in legal:
            child = fast.play(pos, move)
            if child.winner() is not None:
                continue  # an immediate hit: forced play finds it first
            child_tables = self._tables(child)
            if child_tables is None:
                continue
            after = child_tables.probe(child).after_move()
            if after.result is Outcome.WIN:
                wins.append((after.distance, move))
            elif after.result is Outcome.LOSS:
                lost.append(move)
        if not wins and not lost:
            return None
        fastest = min((d for d, _ in wins), default=None)
        moves = [m for d, m in wins if d == fastest]
        score = None if fastest is None else WIN - (2 * fastest - 1)
        return TableAnswer(False, moves, score, lost)


def exact_score(result) -> int | None:
    """A table result as a search score (the mover's view): a win in d is a hit at ply
    2d - 1, a loss in d the opponent's hit at ply 2d; None for a draw."""
    from fechtbuch.engines.battleklinge.tablebase import Outcome

    if result.result is Outcome.WIN:
        return WIN - (2 * result.distance - 1)
    if result.result is Outcome.LOSS:
        return -(WIN - 2 * result.distance)
    return None


class Player:
    """A computer player of one strength for one game (its tables persist between
    moves of the game).  ``seed`` drives the randomness of leicht and mittel."""

    def __init__(
        self,
        strength: str | Budget,
        seed: int = 0,
        weights=None,
        movetime: float | None = None,
        nodes: int | None = None,
        hits: HitOracle | None = None,
    ):
        self.strength = strength if isinstance(strength, Budget) else strength_from_name(strength)
        self.movetime = movetime
        """Seconds per move instead of the strength's node budget (not deterministic)."""
        self.nodes = nodes
        """A node budget per move instead of the strength's (deterministic)."""
        self.rng = random.Random(seed)
        self.forced = ForcedPlay(hits) if self.strength.forced_play else None
        self.tables = TableProbe() if self.strength.tablebase else None
        # the table lives for the whole game: later moves reuse earlier work
        tt_bits = 20 if self.strength.max_nodes > 200_000 else 18
        if self.strength.engine == "2026":
            from fechtbuch.engines.battleklinge.baseline import evaluate as frozen_eval
            from fechtbuch.engines.battleklinge.baseline import search as frozen_search

            self.weights = np.asarray(
                frozen_eval.DEFAULT_WEIGHTS if weights is None else weights, dtype=np.int64
            )
            self.searcher = frozen_search.Searcher(self.weights, tt_bits=tt_bits)
        else:
            self.weights = np.asarray(
                DEFAULT_WEIGHTS if weights is None else weights, dtype=np.int64
            )
            self.searcher = Searcher(self.weights, tt_bits=tt_bits, features=self.strength.features)

    def choose(self, pos: Position, earlier: list[Position] | tuple = ()) -> Choice:
        """Pick a move in ``pos``; ``earlier`` are the positions that stood on the
        board earlier in this game (for repetition avoidance)."""
        if pos.winner() is not None:
            raise InputError(f"position: the game is already decided in {pos.to_text()!r}")
        started = time.perf_counter()
        strength = self.strength
        table = self.tables.root(pos, fast.legal_moves(pos)) if self.tables else None
        if table is not None and table.covered:
            moves, reason, distance = table.moves, "tablebase", None
        else:
            moves, reason, distance = (
                self.forced.root_moves(pos)
                if self.forced
                else (fast.legal_moves(pos), "search", None)
            )
            if table is not None and reason != "hit":
                if table.moves:  # a sure win into the tables
                    moves, reason = table.moves, "tablebase"
                else:  # drop the moves the tables prove lost
                    moves = [m for m in moves if m not in table.lost] or moves
        budget = self._budget(started)
        result = self.searcher.search(
            pos, max_depth=strength.max_depth, root_moves=moves,
            all_scores=strength.all_scores, **budget,
        )  # fmt: skip
        move, score = self._pick(result)
        seen = {p.key() for p in earlier}
        if score > AHEAD_FOR_REPETITION and seen and fast.play(pos, move).key() in seen:
            fresh = [m for m in moves if fast.play(pos, m).key() not in seen]
            if fresh:
                if result.scores:
                    fresh_move = max(fresh, key=lambda m: result.scores[m])
                    fresh_score = result.scores[fresh_move]
                else:
                    again = self.searcher.search(
                        pos, strength.max_depth, root_moves=fresh, **self._budget(started)
                    )
                    fresh_move, fresh_score = again.move, again.score
                    result.nodes += again.nodes
                # a repetition costs at most a draw: leave it only for a move still
                # better than that, never for a forced loss
                if fresh_score > 0:
                    move, score = fresh_move, fresh_score
        if distance is not None:
            # every key keeps the hit, so the exact value is known whatever the budget saw
            score = WIN - (2 * distance - 1)
        if reason == "tablebase":
            # the table's result, exact; a draw is no forced result whatever the search saw
            assert table is not None
            if table.score is not None:
                score = table.score
            else:
                score = max(-MATE_BOUND, min(MATE_BOUND, score))
        return Choice(
            move=move,
            score=score,
            depth=result.depth,
            nodes=result.nodes,
            seconds=time.perf_counter() - started,
            reason=reason,
            pv=_pv_of(result, move),
        )

    def _budget(self, started: float) -> dict:
        """The search limits of one move: the time left of ``movetime`` (the forced-play
        checks already used some), else the node budget."""
        if self.movetime is not None:
            left = self.movetime - (time.perf_counter() - started)
            return {"time_limit": max(0.001, left), "max_nodes": None}
        return {"max_nodes": self.nodes if self.nodes is not None else self.strength.max_nodes}

    def _pick(self, result: SearchResult) -> tuple[Move, int]:
        temperature = self.strength.temperature
        if temperature <= 0 or not result.scores:
            assert result.move is not None
            return result.move, result.score
        moves = sorted(result.scores)  # a fixed order, so the seed alone decides
        values = [score_to_students(result.scores[m]) for m in moves]
        top = max(values)
        weights = [math.exp((v - top) / temperature) for v in values]
        move = self.rng.choices(moves, weights=weights)[0]
        return move, result.scores[move]


def _pv_of(result, move: Move) -> list[Move]:
    """The search's principal variation when it starts with the played move (the
    frozen 2026 engine has none)."""
    pv = getattr(result, "pv", None) or []
    return list(pv) if pv and pv[0] == move else [move]
