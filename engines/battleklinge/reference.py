"""A deliberately simple pure-Python statement of the rules: the test oracle.

It shares no code with the fast generator beyond the card table and the
:class:`Position`/:class:`Move` types.  Speed does not matter here; every
rule is written out as plainly as the rulebook states it.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import BLAU, CARDS, GOLD
from fechtbuch.engines.battleklinge.position import BANNER, Move, Position, square


def _board(pos: Position) -> dict[tuple[int, int], tuple[int, str]]:
    """(file, rank) -> (color, 'M' or 'S') for every occupied square."""
    board = {}
    for color in (GOLD, BLAU):
        for sq in range(25):
            if pos.masters[color] >> sq & 1:
                board[(sq % 5, sq // 5)] = (color, "M")
            if pos.students[color] >> sq & 1:
                board[(sq % 5, sq // 5)] = (color, "S")
    return board


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, sorted; empty for a decided position."""
    if pos.winner() is not None:
        return []
    board = _board(pos)
    me = pos.turn
    sign = 1 if me == GOLD else -1
    moves = []
    for card in pos.hands[me]:
        for (file, rank), (color, _) in board.items():
            if color != me:
                continue
            for dx, dy in CARDS[card].offsets:
                tf, tr = file + sign * dx, rank + sign * dy
                if not (0 <= tf < 5 and 0 <= tr < 5):
                    continue
                occupant = board.get((tf, tr))
                if occupant is not None and occupant[0] == me:
                    continue
                moves.append(Move(card, square(file, rank), square(tf, tr)))
    if not moves:
        moves = [Move(card) for card in pos.hands[me]]
    return sorted(moves, key=lambda m: (m.card, m.from_sq or 0, m.to_sq or 0))


def play(pos: Position, move: Move) -> Position:
    """The position after a move (not checked for legality; see :func:`legal_moves`)."""
    me, enemy = pos.turn, 1 - pos.turn
    students = list(pos.students)
    masters = list(pos.masters)
    if move.from_sq is not None and move.to_sq is not None:
        src, dst = 1 << move.from_sq, 1 << move.to_sq
        students[enemy] &= ~dst
        masters[enemy] &= ~dst
        if masters[me] & src:
            masters[me] = dst
        else:
            students[me] = students[me] & ~src | dst
    hand = [c for c in pos.hands[me] if c != move.card] + [pos.side]
    hands = list(pos.hands)
    hands[me] = tuple(sorted(hand))
    return Position(
        students=(students[0], students[1]),
        masters=(masters[0], masters[1]),
        turn=enemy,
        hands=(hands[0], hands[1]),
        side=move.card,
    )


def perft(pos: Position, depth: int) -> int:
    """Leaf count: a decided position is one leaf and is not expanded."""
    if depth == 0 or pos.winner() is not None:
        return 1
    return sum(perft(play(pos, m), depth - 1) for m in legal_moves(pos))


def hit_within(pos: Position, n: int) -> bool:
    """True if the side to move wins with its n-th own move at the latest (plain minimax)."""
    me = pos.turn
    if n <= 0:
        return False
    for move in legal_moves(pos):
        child = play(pos, move)
        if child.winner() == me:
            return True
        if n > 1 and all(
            (grand := play(child, reply)).winner() != 1 - me and hit_within(grand, n - 1)
            for reply in legal_moves(child)
        ):
            return True
    return False


__all__ = ["legal_moves", "play", "perft", "hit_within", "MemoSolver", "BANNER"]


class MemoSolver:
    """Plain memoised minimax over the reference rules: the third, slow opinion.

    ``won(pos, n)``: the side to move hits within n own moves.
    ``lost(pos, n)``: every move of the side to move is answered by a hit
    within n opponent moves.
    """

    def __init__(self) -> None:
        self._won: dict[tuple[Position, int], bool] = {}

    def won(self, pos: Position, n: int) -> bool:
        if n <= 0:
            return False
        key = (pos, n)
        if key not in self._won:
            self._won[key] = any(self.move_keeps_hit(pos, move, n) for move in legal_moves(pos))
        return self._won[key]

    def move_keeps_hit(self, pos: Position, move: Move, n: int) -> bool:
        """The move hits at once, or leaves the defender lost within n - 1."""
        child = play(pos, move)
        if child.winner() == pos.turn:
            return True
        return n > 1 and self.lost(child, n - 1)

    def lost(self, pos: Position, n: int) -> bool:
        me = pos.turn
        for reply in legal_moves(pos):
            child = play(pos, reply)
            if child.winner() == me or not self.won(child, n):
                return False
        return n >= 1

    def distance(self, pos: Position, bound: int) -> int | None:
        return next((n for n in range(1, bound + 1) if self.won(pos, n)), None)

    def loss_distance(self, pos: Position, bound: int) -> int | None:
        return next((n for n in range(1, bound + 1) if self.lost(pos, n)), None)

    def keys(self, pos: Position, n: int) -> list[Move]:
        return [m for m in legal_moves(pos) if self.move_keeps_hit(pos, m, n)]
