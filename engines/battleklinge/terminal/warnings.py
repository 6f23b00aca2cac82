"""The rulebook's helpers at the board, as facts a terminal can print.

* pieces of yours that the opponent can take with its next move;
* whether your master is among them (warning line and bell);
* whether the enemy master can reach your banner with its next move;
* after choosing a card: the squares the opponent reaches with it once it
  is theirs (after their next move), and whether your master or banner is there.

The opponent's next move is made with the hand it holds now (your move
changes only your own hand), so these are read off the current position.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARDS, COLOR_NAMES, Card, Color
from fechtbuch.engines.battleklinge.position import BANNER, Position, iter_squares, square_name


def reach(pos: Position, color: Color, card: Card, pieces: int | None = None) -> int:
    """Bitboard of squares that ``pieces`` (default: all of ``color``'s) reach with
    ``card``, ``color``'s own pieces excluded."""
    sign = 1 if color == 0 else -1
    own = pos.pieces(color)
    out = 0
    for sq in iter_squares(own if pieces is None else pieces):
        file, rank = sq % 5, sq // 5
        for dx, dy in CARDS[card].offsets:
            tf, tr = file + sign * dx, rank + sign * dy
            if 0 <= tf < 5 and 0 <= tr < 5:
                out |= 1 << (tr * 5 + tf)
    return out & ~own


def threatened(pos: Position, color: Color) -> list[int]:
    """Squares of ``color``'s pieces the opponent can take with its current hand."""
    enemy = 1 - color
    attacked = 0
    for card in pos.hands[enemy]:
        attacked |= reach(pos, enemy, card)
    return list(iter_squares(attacked & pos.pieces(color)))


def banner_in_danger(pos: Position, color: Color) -> bool:
    """The enemy master can step onto ``color``'s banner with its next move."""
    enemy = 1 - color
    master = pos.masters[enemy]
    return any(
        reach(pos, enemy, card, pieces=master) >> BANNER[color] & 1 for card in pos.hands[enemy]
    )


def warning_lines(pos: Position, color: Color) -> tuple[list[str], bool]:
    """(lines to print, ring the bell) for the player ``color`` about to move."""
    lines = []
    squares = threatened(pos, color)
    master = pos.masters[color]
    master_hit = any(master >> sq & 1 for sq in squares)
    if master_hit:
        where = square_name(master.bit_length() - 1)
        lines.append(f"WARNING: your master on {where} can be taken next move!")
    students = [square_name(sq) for sq in squares if not master >> sq & 1]
    if students:
        lines.append("Under attack: " + ", ".join(students))
    if banner_in_danger(pos, color):
        enemy = COLOR_NAMES[1 - color]
        lines.append(
            f"{enemy}'s master can reach your banner {square_name(BANNER[color])} next move!"
        )
    return lines, master_hit


def card_gift_lines(pos: Position, card: Card) -> list[str]:
    """What the opponent reaches with ``card`` once you give it away."""
    me, enemy = pos.turn, 1 - pos.turn
    squares = reach(pos, enemy, card)
    names = ", ".join(square_name(sq) for sq in iter_squares(squares)) or "nothing"
    lines = [
        f"If you play {CARDS[card].name}, {COLOR_NAMES[enemy]} gets it after its next move "
        f"and reaches from where it stands now: {names}"
    ]
    if squares & pos.masters[me]:
        lines.append("  careful: that reaches your master")
    if reach(pos, enemy, card, pieces=pos.masters[enemy]) >> BANNER[me] & 1:
        lines.append("  careful: their master would reach your banner")
    return lines
