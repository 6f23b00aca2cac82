"""Post-game analysis: marks for every move and the turning point ("Wendepunkt").

For every move of a game the position before it is searched with every legal
move scored exactly (full-width alpha-beta, :data:`ANALYSIS_DEPTH` plies plus
capture quiescence, no node limit, so the analysis is deterministic):

* ``before`` is the best score, ``after`` the played move's score, both from
  the mover's view in centi-students (``format_score`` prints students, or
  ``#n``/``-#n`` for a forced hit in n own/opponent moves);
* ``loss = before - after`` with forced results counted as +-100 students;
* marks (documented thresholds, in students):

  - ``??`` (Fehler) when loss >= :data:`ERROR_LOSS` (1.5), when the mover had
    a forced hit within 3 own moves and the move gives it up ("missed hit"),
    or when after the move the opponent forces a hit within 2 of its moves
    while another move would have avoided that ("allows hit"); the two forced
    cases are decided by the solver (exact), not the budgeted search;
  - ``?`` (ungenau) when loss >= :data:`INACCURACY_LOSS` (0.5);

* ``better`` is the best-scored move (for a missed hit: the best move that
  keeps the hit; for an allowed hit: the best move that avoids it).

The turning point ("Wendepunkt") of a won game is where the loser's game
tipped: the loser's evaluation at each of its turns (``before``, and -100
after its last move, since it lost) is followed to the **last** of its moves
made from an evaluation of at least ``-INACCURACY_LOSS`` (-0.5, "not clearly
worse") after which it never got back to that level.  It is shown with the
evaluation before that move and the loser's evaluation at its next turn
("after"), and the better move: the move's own better move when it is
marked, else the best move of a deeper search (:data:`DEEP_DEPTH` plies, all
moves scored) when that differs from the played one.  If the loser was never
at -0.5 or better, or the game was not won, the turning point is the marked
move with the largest loss (ties to the earlier move), if any.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, COLOR_NAMES, Color
from fechtbuch.engines.battleklinge.players import HitOracle
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.record import GameRecord
from fechtbuch.engines.battleklinge.search import (
    HitSearch,
    Searcher,
    format_score,
    hit_moves,
    score_to_students,
)

ANALYSIS_DEPTH = 7
DEEP_DEPTH = 9
"""Plies of the deeper search that looks for the better move at the turning point."""
INACCURACY_LOSS = 0.5
"""Students lost by a move marked '?'."""
ERROR_LOSS = 1.5
"""Students lost by a move marked '??'."""


@dataclass
class MoveAnalysis:
    """One analysed move; scores are centi-students from the mover's view."""

    number: int  # 1-based half-move number
    mover: Color
    move: Move
    before: int
    after: int
    mark: str  # "", "?" or "??"
    reason: str  # why the mark ("" when unmarked)
    better: Move | None
    better_score: int | None
    line: list[Move] = field(default_factory=list)
    """The principal variation after the better move (from the analysis search)."""

    @property
    def loss(self) -> float:
        return max(0.0, score_to_students(self.before) - score_to_students(self.after))

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "mover": COLOR_CHARS[self.mover],
            "move": self.move.to_text(),
            "before": score_to_students(self.before),
            "after": score_to_students(self.after),
            "before_text": format_score(self.before),
            "after_text": format_score(self.after),
            "loss": round(self.loss, 2),
            "mark": self.mark,
            "reason": self.reason,
            "better": self.better.to_text() if self.better else None,
            "better_score": None if self.better_score is None else format_score(self.better_score),
            "line": [m.to_text() for m in self.line],
        }


@dataclass
class TurningPoint:
    """Where the game tipped; scores are centi-students from the mover's view.
    ``after`` is the mover's evaluation at its next turn (or -100 students if the
    opponent hit first); ``how`` is ``curve`` or ``largest loss``."""

    move: MoveAnalysis
    before: int
    after: int
    better: Move | None
    better_score: int | None
    how: str

    def to_dict(self) -> dict:
        return {
            "number": self.move.number,
            "mover": COLOR_CHARS[self.move.mover],
            "move": self.move.move.to_text(),
            "mark": self.move.mark,
            "before": score_to_students(self.before),
            "after": score_to_students(self.after),
            "before_text": format_score(self.before),
            "after_text": format_score(self.after),
            "better": self.better.to_text() if self.better else None,
            "better_score": None if self.better_score is None else format_score(self.better_score),
            "how": self.how,
        }


@dataclass
class GameAnalysis:
    record: GameRecord
    moves: list[MoveAnalysis]
    turning_point: TurningPoint | None

    def to_dict(self) -> dict:
        return {
            "start": self.record.start.to_text(),
            "result": self.record.result,
            "depth": ANALYSIS_DEPTH,
            "thresholds": {"?": INACCURACY_LOSS, "??": ERROR_LOSS},
            "moves": [m.to_dict() for m in self.moves],
            "turning_point": self.turning_point.to_dict() if self.turning_point else None,
        }

    def to_text(self) -> str:
        lines = [
            f"Start: {self.record.start.to_text()}",
            f"Result: {self.record.result}",
            f"Depth: {ANALYSIS_DEPTH} plies + quiescence",
            "",
        ]
        for m in self.moves:
            head = (
                f"{m.number:3d}. {COLOR_NAMES[m.mover]:4s} {m.move.to_text():18s} "
                f"{m.mark:2s} {format_score(m.before):>6s} -> {format_score(m.after):>6s}"
            )
            lines.append(head.rstrip())
            if m.mark:
                better = (
                    f"better {m.better.to_text()} ({format_score(m.better_score)})"
                    if m.better is not None and m.better_score is not None
                    else ""
                )
                if m.line:
                    better += "; line " + " ".join(x.to_text() for x in m.line[:8])
                lines.append(f"          {m.reason}; {better}".rstrip("; "))
        lines.append("")
        tp = self.turning_point
        if tp is None:
            lines.append("Wendepunkt: none (no move lost half a student or more)")
        else:
            m = tp.move
            better = (
                f", better {tp.better.to_text()} ({format_score(tp.better_score)})"
                if tp.better is not None and tp.better_score is not None
                else ""
            )
            mark = f" {m.mark}" if m.mark else ""
            lines.append(
                f"Wendepunkt: move {m.number} ({COLOR_NAMES[m.mover]} {m.move.to_text()}{mark}): "
                f"{format_score(tp.before)} before, {format_score(tp.after)} after{better}"
            )
        return "\n".join(lines)


def loss_reason(before: int, after: int, loss: float) -> str:
    """Why a move is marked: a forced result found by the search is named as such, never
    shown through its +-100-student stand-in.

    >>> from fechtbuch.engines.battleklinge.negamax import WIN
    >>> loss_reason(20, -(WIN - 4), 100.2), loss_reason(WIN - 3, 50, 99.5)
    ('allows a forced hit in 2', 'misses a forced hit in 2')
    >>> loss_reason(150, 10, 1.4)
    'loses 1.40 students'
    """
    allowed = hit_moves(after)
    if allowed is not None and allowed < 0:
        return f"allows a forced hit in {-allowed}"
    missed = hit_moves(before)
    if missed is not None and missed > 0:
        return f"misses a forced hit in {missed}"
    return f"loses {loss:.2f} students"


class Analyser:
    """Analyses positions and games; holds the exact hit search and the depth."""

    def __init__(self, depth: int = ANALYSIS_DEPTH, hits: HitOracle | None = None):
        self.depth = depth
        self.hits = hits if hits is not None else HitSearch()

    def analyse_move(self, pos: Position, move: Move, number: int) -> MoveAnalysis:
        searcher = Searcher()
        result = searcher.search(pos, max_depth=self.depth, all_scores=True)
        scores = result.scores
        before = max(scores.values())
        after = scores[move]
        best = max(scores, key=lambda m: (scores[m], _neg_key(m)))
        mark, reason, better = "", "", best
        distance = self.hits.distance(pos, 3)
        child = fast.play(pos, move)
        if distance is not None:
            keys = self.hits.keys(pos, distance)
            if move not in keys:
                mark, reason = "??", f"missed a forced hit in {distance}"
                better = max(keys, key=lambda m: (scores[m], _neg_key(m)))
        elif (allowed := self.hits.distance(child, 2)) is not None:
            safe = [m for m in scores if self.hits.distance(fast.play(pos, m), 2) is None]
            if safe:
                mark, reason = "??", f"allows a forced hit in {allowed}"
                better = max(safe, key=lambda m: (scores[m], _neg_key(m)))
        loss = max(0.0, score_to_students(before) - score_to_students(after))
        if not mark and mark_for_loss(loss):
            mark, reason = mark_for_loss(loss), loss_reason(before, after, loss)
        if better == move:
            better = None
        return MoveAnalysis(
            number=number,
            mover=pos.turn,
            move=move,
            before=before,
            after=after,
            mark=mark,
            reason=reason,
            better=better if mark else None,
            better_score=scores[better] if (mark and better is not None) else None,
            line=(
                searcher.principal_variation(
                    fast.state_from_position(pos), fast.encode_move(better)
                )
                if (mark and better is not None)
                else []
            ),
        )

    def analyse(self, record: GameRecord) -> GameAnalysis:
        positions = record.positions()
        moves = [
            self.analyse_move(pos, move, i + 1)
            for i, (pos, move) in enumerate(zip(positions, record.moves, strict=False))
        ]
        tp = turning_point(moves, record.played_result(), positions, self.deep_better)
        return GameAnalysis(record, moves, tp)

    def deep_better(self, pos: Position, played: Move) -> tuple[Move | None, int | None]:
        """The best move of a deeper all-moves search, if it is not ``played``."""
        result = Searcher(tt_bits=20).search(pos, max_depth=DEEP_DEPTH, all_scores=True)
        scores = result.scores
        best = max(scores, key=lambda m: (scores[m], _neg_key(m)))
        if best == played or scores[best] <= scores[played]:
            return None, None
        return best, scores[best]


def mark_for_loss(loss: float) -> str:
    """The mark for a loss in students by the documented thresholds.

    >>> [mark_for_loss(x) for x in (0.49, 0.5, 1.49, 1.5, 7.0)]
    ['', '?', '?', '??', '??']
    """
    if loss >= ERROR_LOSS:
        return "??"
    if loss >= INACCURACY_LOSS:
        return "?"
    return ""


def _line(searcher: Searcher, pos: Position, first: Move) -> list[Move]:
    """The principal variation from ``first`` in the table of the analysis search."""
    return searcher.principal_variation(fast.state_from_position(pos), fast.encode_move(first))


def _neg_key(move: Move) -> tuple:
    """Tie-break among equal scores: the move that sorts first wins."""
    return tuple(-x for x in (move.card, move.from_sq or 0, move.to_sq or 0))


def turning_point(
    moves: list[MoveAnalysis],
    result: str,
    positions: list[Position] | None = None,
    deep_better=None,
) -> TurningPoint | None:
    """The move where the game tipped (see the module docstring).

    ``positions[i]`` is the position before ``moves[i]``; ``deep_better(pos,
    move)`` returns ``(better move, its score)`` or ``(None, None)``.  Without
    them no deeper search is made.
    """
    if result in ("g", "b"):
        loser = 1 - COLOR_CHARS.index(result)
        own = [m for m in moves if m.mover == loser]
        curve = [score_to_students(m.before) for m in own] + [-100.0]
        tipping = None
        for k in range(len(own)):
            if curve[k] >= -INACCURACY_LOSS and all(e < -INACCURACY_LOSS for e in curve[k + 1 :]):
                tipping = k
        if tipping is not None:
            m = own[tipping]
            # the loser's evaluation at its next turn; after its last move, the
            # move's own score (the opponent's hit follows)
            after = own[tipping + 1].before if tipping + 1 < len(own) else m.after
            better, better_score = m.better, m.better_score
            if better is None and deep_better is not None and positions is not None:
                better, better_score = deep_better(positions[m.number - 1], m.move)
            return TurningPoint(m, m.before, after, better, better_score, "curve")
    marked = [m for m in moves if m.mark]
    if result in ("g", "b"):
        marked = [m for m in marked if m.mover == 1 - COLOR_CHARS.index(result)]
    if not marked:
        return None
    top = max(marked, key=lambda m: (m.loss, -m.number))
    return TurningPoint(top, top.before, top.after, top.better, top.better_score, "largest loss")
