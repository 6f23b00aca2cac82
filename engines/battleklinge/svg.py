"""SVG diagrams of Battleklinge positions: board, pieces, hands, side card, move arrow.

Pure string building; the output is a standalone SVG document.  The drawing is
for the player to move (their school at the bottom) unless ``flip``, like
``fechtbuch show``.  The two schools differ in shape and lightness as well as
hue, so they read the same to colour-blind eyes and in greyscale: Gold pieces
are light gold discs, Blau pieces dark blue diamonds; masters are larger and
carry a crown.

Every card is drawn with its name and its 5x5 move grid (the piece the dark
centre square, allowed jumps red squares with a white dot), oriented for the
card's holder as seen on the drawing: the bottom school's cards point up, the
top school's down.  The side card is oriented for the player to move, who takes
it after moving.

The markup is also the skeleton the HTML viewer (``puzzles/battleklinge/v1page.py``) animates,
so elements carry classes and data attributes: ``rect.sq[data-sq]`` for the
squares, ``rect.slot[data-slot]`` for the five card places
(``top-0 top-1 side bottom-0 bottom-1``), ``g.card[data-card]`` with an inner
``g.grid`` (rotated 180 degrees for a card pointing down), ``use.piece[data-sq]``
in ``g.pieces``, and empty ``g.marks``/``g.arrows`` layers.

>>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Move, Position
>>> svg = render_svg(Position.from_text(START_EINSTEIGER), Move.from_text("ausfall:c1c3"))
>>> svg.count('class="piece"'), svg.count('class="card"'), 'class="arrow"' in svg
(10, 5, True)
"""

from __future__ import annotations

from html import escape

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import (
    BLAU,
    CARDS,
    COLOR_CHARS,
    COLOR_NAMES,
    GOLD,
    Card,
    Color,
)
from fechtbuch.engines.battleklinge.position import (
    BANNER,
    FILE_NAMES,
    RANK_NAMES,
    IllegalMoveError,
    Move,
    Position,
    iter_squares,
)

# ---- geometry (px) ---------------------------------------------------------
SQUARE_SIZE = 64
BOARD_X = 30  # room for the rank numbers on the left
BOARD_Y = 30
BOARD_SIZE = 5 * SQUARE_SIZE
CELL = 12  # one cell of a card's 5x5 grid
CARD_W = 92
CARD_H = 96
CARD_GAP = 10
COLUMN_X = BOARD_X + BOARD_SIZE + 24
ROW_Y = {"top": BOARD_Y, "side": BOARD_Y + CARD_H + 16, "bottom": BOARD_Y + 2 * (CARD_H + 16)}
WIDTH = COLUMN_X + 2 * CARD_W + CARD_GAP + 12
HEIGHT = BOARD_Y + BOARD_SIZE + 62

# ---- colours: Gold light/warm, Blau dark/cool, red targets, teal move --------
GOLD_FILL, GOLD_LINE = "#f2c230", "#5c4300"
BLAU_FILL, BLAU_LINE = "#1d3a8a", "#07132e"
LIGHT_SQUARE, DARK_SQUARE = "#efe9dc", "#d8cfbd"
BANNER_TINT = ("#f6e3a3", "#c4d0ee")
TARGET = "#c8283c"
MOVE_COLOUR = "#138a72"
INK = "#222"

_PIECE_DEFS = f"""<symbol id="piece-g-s" viewBox="-32 -32 64 64" overflow="visible">\
<circle r="19" fill="{GOLD_FILL}" stroke="{GOLD_LINE}" stroke-width="3"/>\
<circle r="11" fill="none" stroke="{GOLD_LINE}" stroke-width="1.5"/></symbol>\
<symbol id="piece-g-m" viewBox="-32 -32 64 64" overflow="visible">\
<circle r="25" fill="{GOLD_FILL}" stroke="{GOLD_LINE}" stroke-width="3.5"/>\
<path d="M-13 8 L-15 -9 L-7 -1 L0 -13 L7 -1 L15 -9 L13 8 Z" fill="{GOLD_LINE}"/></symbol>\
<symbol id="piece-b-s" viewBox="-32 -32 64 64" overflow="visible">\
<path d="M0 -23 L23 0 L0 23 L-23 0 Z" fill="{BLAU_FILL}" stroke="{BLAU_LINE}" stroke-width="3"/>\
<path d="M0 -15 L15 0 L0 15 L-15 0 Z" fill="none" stroke="#fff" stroke-width="1.5"/></symbol>\
<symbol id="piece-b-m" viewBox="-32 -32 64 64" overflow="visible">\
<path d="M0 -29 L29 0 L0 29 L-29 0 Z" fill="{BLAU_FILL}" stroke="{BLAU_LINE}" stroke-width="3.5"/>\
<path d="M-13 8 L-15 -9 L-7 -1 L0 -13 L7 -1 L15 -9 L13 8 Z" fill="#fff"/></symbol>\
<marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" \
markerHeight="3.2" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" \
fill="{MOVE_COLOUR}"/></marker>"""

_STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:" + INK + "}"
    ".coord{font-size:13px;text-anchor:middle}"
    ".card-name{font-size:13px;font-weight:bold;text-anchor:middle}"
    ".hand-label{font-size:12px}.caption{font-size:14px}"
)


def _fmt(value: float) -> str:
    """Numbers without a trailing '.0' keep the markup short and byte-stable."""
    return f"{value:g}"


def square_origin(sq: int, bottom: Color) -> tuple[int, int]:
    """Top-left corner of a square on the drawing with ``bottom`` at the bottom.

    >>> square_origin(0, GOLD), square_origin(0, BLAU)
    ((30, 286), (286, 30))
    """
    file, rank = sq % 5, sq // 5
    column = file if bottom == GOLD else 4 - file
    row = 4 - rank if bottom == GOLD else rank
    return BOARD_X + column * SQUARE_SIZE, BOARD_Y + row * SQUARE_SIZE


def square_centre(sq: int, bottom: Color) -> tuple[float, float]:
    x, y = square_origin(sq, bottom)
    return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2


def card_slots() -> dict[str, tuple[int, int]]:
    """Top-left corners of the five card places."""
    side_x = COLUMN_X + (CARD_W + CARD_GAP) // 2
    slots = {"side": (side_x, ROW_Y["side"])}
    for row in ("top", "bottom"):
        for i in range(2):
            slots[f"{row}-{i}"] = (COLUMN_X + i * (CARD_W + CARD_GAP), ROW_Y[row])
    return slots


def _board(bottom: Color) -> list[str]:
    parts = ['<g class="board">']
    for sq in range(25):
        x, y = square_origin(sq, bottom)
        file, rank = sq % 5, sq // 5
        fill = LIGHT_SQUARE if (file + rank) % 2 else DARK_SQUARE
        for owner in (GOLD, BLAU):
            if sq == BANNER[owner]:
                fill = BANNER_TINT[owner]
        parts.append(
            f'<rect class="sq" data-sq="{sq}" x="{x}" y="{y}" width="{SQUARE_SIZE}" '
            f'height="{SQUARE_SIZE}" fill="{fill}"/>'
        )
    parts.append(
        f'<rect x="{BOARD_X}" y="{BOARD_Y}" width="{BOARD_SIZE}" height="{BOARD_SIZE}" '
        f'fill="none" stroke="{INK}" stroke-width="2"/>'
    )
    for owner in (GOLD, BLAU):
        parts.append(_banner(BANNER[owner], owner, bottom))
    files = range(5) if bottom == GOLD else range(4, -1, -1)
    for column, file in enumerate(files):
        x = BOARD_X + column * SQUARE_SIZE + SQUARE_SIZE / 2
        parts.append(
            f'<text class="coord" x="{_fmt(x)}" y="{BOARD_Y + BOARD_SIZE + 17}">'
            f"{FILE_NAMES[file]}</text>"
        )
    ranks = range(4, -1, -1) if bottom == GOLD else range(5)
    for row, rank in enumerate(ranks):
        y = BOARD_Y + row * SQUARE_SIZE + SQUARE_SIZE / 2 + 5
        parts.append(
            f'<text class="coord" x="{BOARD_X - 14}" y="{_fmt(y)}">{RANK_NAMES[rank]}</text>'
        )
    parts.append("</g>")
    return parts


def _banner(sq: int, owner: Color, bottom: Color) -> str:
    """A pennant in the square's corner: the owner's colour and shape (disc or diamond)."""
    x, y = square_origin(sq, bottom)
    fill, line = (GOLD_FILL, GOLD_LINE) if owner == GOLD else (BLAU_FILL, BLAU_LINE)
    px, py = x + 5, y + 4  # in the corner, clear of a piece standing on the square
    emblem = (
        f'<circle cx="{px + 6}" cy="{py + 5}" r="2" fill="{line}"/>'
        if owner == GOLD
        else f'<path d="M{px + 6} {py + 2.5} l2.5 2.5 l-2.5 2.5 l-2.5 -2.5 Z" fill="#fff"/>'
    )
    return (
        f'<g class="banner" data-owner="{COLOR_CHARS[owner]}">'
        f"<title>{COLOR_NAMES[owner]} banner</title>"
        f'<line x1="{px}" y1="{py}" x2="{px}" y2="{py + 18}" stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M{px} {py} L{px + 15} {py + 5} L{px} {py + 10} Z" fill="{fill}" '
        f'stroke="{line}" stroke-width="1"/>{emblem}</g>'
    )


def _card(card: Card, slot: str, pointing_up: bool, highlight: bool) -> str:
    """One card in its slot; the grid is drawn pointing up and rotated when it points down."""
    spec = CARDS[card]
    x, y = card_slots()[slot]
    grid_x = (CARD_W - 5 * CELL) // 2
    grid_y = 26
    centre_x = grid_x + 2.5 * CELL - 0.5
    centre_y = grid_y + 2.5 * CELL - 0.5
    # A light 5x5 field ruled by white lines, then only the centre and the targets
    # as cells: a few elements per card instead of twenty-five.
    size = 5 * CELL - 1
    rules = "".join(
        f"M{grid_x} {grid_y + k * CELL - 0.5}h{size}M{grid_x + k * CELL - 0.5} {grid_y}v{size}"
        for k in range(1, 5)
    )
    cells = [
        f'<rect x="{grid_x}" y="{grid_y}" width="{size}" height="{size}" fill="#ece7dd"/>',
        f'<path d="{rules}" stroke="#fffdf6" stroke-width="1"/>',
        f'<rect x="{grid_x + 2 * CELL}" y="{grid_y + 2 * CELL}" width="{CELL - 1}" '
        f'height="{CELL - 1}" fill="{INK}"/>',
    ]
    for dx, dy in spec.offsets:
        cx, cy = grid_x + (dx + 2) * CELL, grid_y + (2 - dy) * CELL
        cells.append(
            f'<rect class="target" x="{cx}" y="{cy}" width="{CELL - 1}" height="{CELL - 1}" '
            f'fill="{TARGET}"/><circle cx="{_fmt(cx + (CELL - 1) / 2)}" '
            f'cy="{_fmt(cy + (CELL - 1) / 2)}" r="1.8" fill="#fff"/>'
        )
    rotate = "" if pointing_up else f' transform="rotate(180 {_fmt(centre_x)} {_fmt(centre_y)})"'
    mark_fill = GOLD_FILL if spec.mark == GOLD else BLAU_FILL
    # The colour mark (who starts when this is the side card) in the free bottom corner.
    mark = (
        f'<circle cx="{CARD_W - 9}" cy="{CARD_H - 9}" r="4" fill="{mark_fill}" '
        f'stroke="{GOLD_LINE}"/>'
        if spec.mark == GOLD
        else f'<path d="M{CARD_W - 9} {CARD_H - 14} l5 5 l-5 5 l-5 -5 Z" fill="{mark_fill}"/>'
    )
    stroke, width = (MOVE_COLOUR, 3.5) if highlight else ("#6d6456", 1.2)
    return (
        f'<g class="card" data-card="{spec.id}" data-slot="{slot}" '
        f'transform="translate({x} {y})"><title>{escape(spec.name)} '
        f"(mark {COLOR_NAMES[spec.mark]})</title>"
        f'<rect class="card-face" width="{CARD_W}" height="{CARD_H}" rx="6" fill="#fffdf6" '
        f'stroke="{stroke}" stroke-width="{width}"/>{mark}'
        f'<text class="card-name" x="{CARD_W // 2}" y="17">{escape(spec.name)}</text>'
        f'<g class="grid" data-cx="{_fmt(centre_x)}" data-cy="{_fmt(centre_y)}"{rotate}>'
        f"{''.join(cells)}</g></g>"
    )


def hand_label(row: str, position: Position, bottom: Color) -> str:
    """The text above a row of cards: whose hand, or who takes the side card."""
    if row == "side":
        return f"Side card (to {COLOR_NAMES[position.turn]})"
    holder = bottom if row == "bottom" else 1 - bottom
    return f"{COLOR_NAMES[holder]}'s hand"


def _piece(kind: str, sq: int, bottom: Color) -> str:
    cx, cy = square_centre(sq, bottom)
    return (
        f'<use class="piece" data-sq="{sq}" href="#piece-{kind}" x="{_fmt(cx - 32)}" '
        f'y="{_fmt(cy - 32)}" width="64" height="64"/>'
    )


def arrow(move: Move, bottom: Color) -> str:
    """A teal arrow from the move's square to its target, stopping short of the centre."""
    assert move.from_sq is not None and move.to_sq is not None
    x1, y1 = square_centre(move.from_sq, bottom)
    x2, y2 = square_centre(move.to_sq, bottom)
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    shorten = 16 / length
    return (
        f'<line class="arrow" x1="{_fmt(x1)}" y1="{_fmt(y1)}" '
        f'x2="{_fmt(round(x2 - dx * shorten, 2))}" y2="{_fmt(round(y2 - dy * shorten, 2))}" '
        f'stroke="{MOVE_COLOUR}" stroke-width="8" stroke-linecap="round" opacity="0.85" '
        f'marker-end="url(#arrowhead)"/>'
    )


def caption(position: Position, move: Move | None) -> str:
    """One line under the board: who moves (or who has won) and the move shown."""
    winner = position.winner()
    if winner is not None:
        return f"{COLOR_NAMES[winner]} has hit (Treffer)."
    text = f"{COLOR_NAMES[position.turn]} to move"
    if move is not None:
        if move.is_pass:
            text += f": passes with {CARDS[move.card].name} ({move.to_text()})"
        else:
            text += f": {move.to_text()}"
    return text + "."


def render_svg(
    position: Position, move: Move | None = None, flip: bool = False, note: str | None = None
) -> str:
    """A standalone SVG document of ``position``, with an arrow for ``move`` if given.

    ``note`` replaces the caption under the board (who is to move, the move).
    Raises :class:`IllegalMoveError` for a move that is not legal in the position.

    >>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER
    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(render_svg(Position.from_text(START_EINSTEIGER), flip=True))
    >>> root.get("data-bottom")
    'b'
    """
    if move is not None and move not in reference.legal_moves(position):
        raise IllegalMoveError(f"move: {move.to_text()!r} is not legal in {position.to_text()!r}")
    bottom = position.turn if not flip else 1 - position.turn
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fb-board" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" data-bottom="{COLOR_CHARS[bottom]}" '
        f'data-position="{escape(position.to_text())}">',
        f"<title>Battleklinge: {escape(position.to_text())}</title>",
        f"<style>{_STYLE}</style>",
        f"<defs>{_PIECE_DEFS}</defs>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f1"/>',
    ]
    parts += _board(bottom)
    parts.append('<g class="slots">')
    for slot, (x, y) in card_slots().items():
        parts.append(
            f'<rect class="slot" data-slot="{slot}" x="{x}" y="{y}" width="{CARD_W}" '
            f'height="{CARD_H}" rx="6" fill="none" stroke="#b9ad97" stroke-dasharray="4 3"/>'
        )
    for row in ("top", "side", "bottom"):
        x = card_slots()["side" if row == "side" else f"{row}-0"][0]
        parts.append(
            f'<text class="hand-label" data-row="{row}" x="{x}" y="{ROW_Y[row] - 5}">'
            f"{escape(hand_label(row, position, bottom))}</text>"
        )
    parts.append("</g>")
    parts.append('<g class="cards">')
    used = move.card if move is not None else None
    for row, holder in (("top", 1 - bottom), ("bottom", bottom)):
        for i, card in enumerate(position.hands[holder]):
            parts.append(_card(card, f"{row}-{i}", holder == bottom, card == used))
    parts.append(_card(position.side, "side", position.turn == bottom, False))
    parts.append("</g>")
    parts.append('<g class="pieces">')
    for color in (GOLD, BLAU):
        char = COLOR_CHARS[color]
        for sq in iter_squares(position.masters[color]):
            parts.append(_piece(f"{char}-m", sq, bottom))
        for sq in iter_squares(position.students[color]):
            parts.append(_piece(f"{char}-s", sq, bottom))
    parts.append("</g>")
    parts.append('<g class="arrows">')
    if move is not None and not move.is_pass:
        parts.append(arrow(move, bottom))
    parts.append("</g>")
    parts.append('<g class="marks"></g>')  # the viewer's selection and targets, over the arrow
    parts.append(
        f'<text class="caption" x="{BOARD_X}" y="{BOARD_Y + BOARD_SIZE + 44}">'
        f"{escape(note if note is not None else caption(position, move))}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = ["render_svg", "square_origin", "square_centre", "card_slots", "arrow", "caption"]


def draw(text: str, move: str | None = None, flip: bool = False) -> str | None:
    """The plugin's drawing (``fechtbuch render``): ``text`` as a Battleklinge position
    with an arrow for ``move``, or ``None`` when ``text`` is written in another game's
    notation (a Battleklinge board is five rows joined by ``/``).  A position or move
    that looks like Battleklinge's but is wrong is a :class:`NotationError` naming it.

    >>> draw("pyramiden-1 ...") is None
    True
    >>> draw("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte").startswith("<svg")
    True
    """
    board = text.strip().split(" ", 1)[0]
    if board.count("/") != 4:
        return None
    position = Position.from_text(text)
    return render_svg(position, None if move is None else Move.from_text(move), flip)
