"""Battleklinge's motif catalogue: version 1 (the tags of the shipped packs) and
version 2 (those eight and eleven more), one small detector per motif.

Version 1 is :data:`fechtbuch.puzzles.battleklinge.tags.TAGGERS` unchanged: the
shipped packs store its tags and ``pack verify`` recomputes them.  Version 2 keeps
those functions under the same names and adds the motifs below; the puzzle
database tags with it (``MiningKind.motifs``).  Every detector reads the
:class:`~fechtbuch.puzzles.battleklinge.tags.PuzzleFacts` of a proved exercise and
answers from the rules alone (the pure-Python reference); its docstring is its rule.
The known-position table in ``tests/unit/test_battleklinge_motifs.py`` holds a position
with and one without every motif.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import GOLD
from fechtbuch.engines.battleklinge.position import Position, square_file, square_rank
from fechtbuch.puzzles.battleklinge.tags import (
    TAGGERS,
    PuzzleFacts,
    hits_if_to_move_again,
    master_captured,
)
from fechtbuch.puzzles.motifs import MotifCatalogue, catalogue_of

RULES = "battleklinge"
HIT = "hit"


def _is_enemy(pos: Position, square: int | None) -> bool:
    return square is not None and bool(pos.pieces(1 - pos.turn) >> square & 1)


def _forward(colour: int) -> int:
    """+1 when this colour advances towards rank 5 (Gold), -1 otherwise."""
    return 1 if colour == GOLD else -1


def capture_key(f: PuzzleFacts) -> bool:
    """The key takes a student of the defender (Schlagschlüssel)."""
    return _is_enemy(f.position, f.key.to_sq)


def long_key(f: PuzzleFacts) -> bool:
    """The key jumps two or more squares in a file, a rank or both (a far jump is
    easy to overlook)."""
    if f.key.is_pass:
        return False
    df = abs(square_file(f.key.to_sq) - square_file(f.key.from_sq))
    dr = abs(square_rank(f.key.to_sq) - square_rank(f.key.from_sq))
    return max(df, dr) >= 2


def retreat_key(f: PuzzleFacts) -> bool:
    """The key moves a piece backwards, towards the attacker's own side (Rückzug)."""
    if f.key.is_pass:
        return False
    step = square_rank(f.key.to_sq) - square_rank(f.key.from_sq)
    return step * _forward(f.attacker) < 0


def discovered_attack(f: PuzzleFacts) -> bool:
    """After the key, a free move would hit with a piece that did not move, and that
    piece had no hit before the key: moving one piece (freeing a square or taking in
    the side card) uncovers another's hit (Abzugsangriff)."""
    after = reference.play(f.position, f.key)
    if after.winner() is not None or f.key.is_pass:
        return False
    before = {
        m.from_sq
        for m in reference.legal_moves(f.position)
        if reference.play(f.position, m).winner() == f.attacker
    }
    return any(
        origin != f.key.to_sq and origin not in before for origin, _ in hits_if_to_move_again(after)
    )


def only_defence(f: PuzzleFacts) -> bool:
    """After the key the defender has at least two replies and all but one of them
    allow a hit at once: it must find the only move (einzige Verteidigung)."""
    node = f.tree.get(f.key.to_text())
    if not isinstance(node, dict) or len(node) < 2:
        return False
    holding = [r for r, sub in node.items() if isinstance(sub, dict) and HIT not in sub.values()]
    return len(holding) == 1


def master_hunt(f: PuzzleFacts) -> bool:
    """The defender's master moves in the main line and is taken all the same
    (Meisterjagd)."""
    if not master_captured(f):
        return False
    positions = f.line_positions()
    defender = 1 - f.attacker
    return any(
        positions[i].masters[defender] >> move.from_sq & 1
        for i, move in enumerate(f.line)
        if i % 2 == 1 and not move.is_pass
    )


def banner_run(f: PuzzleFacts) -> bool:
    """N >= 2 and every attacker move of the main line is a move of its master, which
    ends on the enemy banner (Bannerlauf)."""
    if f.n < 2 or master_captured(f):
        return False
    positions = f.line_positions()
    return all(
        not move.is_pass and positions[i].masters[f.attacker] >> move.from_sq & 1
        for i, move in enumerate(f.line)
        if i % 2 == 0
    )


def zugzwang(f: PuzzleFacts) -> bool:
    """N = 2 and the key threatens nothing (a free second move would not hit), yet
    every defender reply allows a hit: the defender must move, and every move harms it
    (Zugzwang)."""
    if f.n != 2:
        return False
    after = reference.play(f.position, f.key)
    return after.winner() is None and not hits_if_to_move_again(after)


def received_card(f: PuzzleFacts) -> bool:
    """The hit that ends the main line is played with a card the attacker did not hold
    at the start: a side card taken in during the solution (Seitenkarte)."""
    return f.line[-1].card not in f.position.hands[f.attacker]


def student_hit(f: PuzzleFacts) -> bool:
    """The main line ends with a student taking the defender's master (the master is
    not the only piece that hits)."""
    if not master_captured(f):
        return False
    before = f.line_positions()[-2]
    return bool(before.students[f.attacker] >> f.line[-1].from_sq & 1)


def exchange(f: PuzzleFacts) -> bool:
    """The defender takes a piece of the attacker in the main line, and loses anyway
    (Abtausch)."""
    positions = f.line_positions()
    return any(
        not move.is_pass and _is_enemy(positions[i], move.to_sq)
        for i, move in enumerate(f.line)
        if i % 2 == 1
    )


def facts_of(puzzle: dict) -> PuzzleFacts:
    """The facts of a stored exercise, as mining builds them."""
    return PuzzleFacts.of_record(puzzle)


CATALOGUE_V1: MotifCatalogue = catalogue_of(RULES, 1, facts_of, dict(TAGGERS))
"""The eight tags of the shipped packs."""

CATALOGUE_V2: MotifCatalogue = catalogue_of(
    RULES,
    2,
    facts_of,
    {
        **TAGGERS,
        "capture-key": capture_key,
        "long-key": long_key,
        "retreat-key": retreat_key,
        "discovered-attack": discovered_attack,
        "only-defence": only_defence,
        "master-hunt": master_hunt,
        "banner-run": banner_run,
        "zugzwang": zugzwang,
        "received-card": received_card,
        "student-hit": student_hit,
        "exchange": exchange,
    },
)
"""Version 1 and eleven more motifs: the catalogue new mining tags with."""

CATALOGUE = CATALOGUE_V2
