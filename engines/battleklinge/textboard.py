"""Terminal drawing of a position: board, banners, hands and card grids.

Drawn for the player to move (their school at the bottom) unless ``flip``.
Cards are drawn as 5x5 grids as in the rulebook: ``o`` the piece, ``x`` a
square it may jump to; each grid is oriented for its holder as seen from the
bottom of the drawing (the opponent's cards point down the board).
``fechtbuch show`` (at the end) prints it.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import (
    BLAU,
    CARDS,
    COLOR_NAMES,
    GOLD,
    Card,
)
from fechtbuch.engines.battleklinge.position import (
    BANNER,
    FILE_NAMES,
    Position,
    square,
)

LEGEND = "M/S Gold master/student, m/s Blau master/student, * empty banner square"


def card_grid(card: Card, pointing_up: bool) -> list[str]:
    """Five rows of the card's move grid; forward is up when ``pointing_up``.

    >>> print("\\n".join(card_grid(0, True)))
    . . x . .
    . . . . .
    . . o . .
    . . x . .
    . . . . .
    """
    sign = 1 if pointing_up else -1
    targets = {(sign * dx, sign * dy) for dx, dy in CARDS[card].offsets}
    rows = []
    for dy in range(2, -3, -1):
        cells = []
        for dx in range(-2, 3):
            if (dx, dy) == (0, 0):
                cells.append("o")
            else:
                cells.append("x" if (dx, dy) in targets else ".")
        rows.append(" ".join(cells))
    return rows


def _cards_block(title: str, cards: list[Card], pointing_up: bool) -> list[str]:
    width = 11
    header = f"{title}:"
    names = "   ".join(CARDS[c].name.ljust(width) for c in cards)
    grids = [card_grid(c, pointing_up) for c in cards]
    rows = ["   ".join(g[i].ljust(width) for g in grids) for i in range(5)]
    return [header, "  " + names.rstrip(), *("  " + r.rstrip() for r in rows)]


def draw_board(pos: Position, flip: bool = False) -> list[str]:
    """The board alone, with coordinates; Gold at the bottom unless flipped."""
    bottom = GOLD if not flip else BLAU
    ranks = range(4, -1, -1) if bottom == GOLD else range(5)
    files = list(range(5)) if bottom == GOLD else list(range(4, -1, -1))
    file_row = "    " + " ".join(FILE_NAMES[f] for f in files)
    lines = [file_row]
    for rank in ranks:
        cells = []
        for file in files:
            bit = 1 << square(file, rank)
            if pos.masters[GOLD] & bit:
                cells.append("M")
            elif pos.students[GOLD] & bit:
                cells.append("S")
            elif pos.masters[BLAU] & bit:
                cells.append("m")
            elif pos.students[BLAU] & bit:
                cells.append("s")
            elif square(file, rank) in BANNER:
                cells.append("*")
            else:
                cells.append(".")
        lines.append(f"  {rank + 1} {' '.join(cells)} {rank + 1}")
    lines.append(file_row)
    return lines


def draw_position(pos: Position, flip: bool | None = None) -> str:
    """Board plus both hands and the side card, for the player to move."""
    viewer = pos.turn
    if flip is not None and flip:
        viewer = 1 - viewer
    opponent = 1 - viewer
    lines = _cards_block(f"{COLOR_NAMES[opponent]} hand", list(pos.hands[opponent]), False)
    lines.append("")
    lines += draw_board(pos, flip=viewer == BLAU)
    lines.append("")
    lines += _cards_block(f"{COLOR_NAMES[viewer]} hand", list(pos.hands[viewer]), True)
    lines.append("")
    lines += _cards_block("Side card", [pos.side], True)
    lines.append("")
    winner = pos.winner()
    if winner is None:
        lines.append(f"{COLOR_NAMES[pos.turn]} to move.")
    else:
        lines.append(f"Decided: {COLOR_NAMES[winner]} has hit (Treffer).")
    lines.append(LEGEND)
    return "\n".join(lines)


