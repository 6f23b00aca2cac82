"""The pyramid board as SVG, legible at phone size (about 400 px wide).

Every field is a ``rect`` with its card (red suits in dark red); free fields are
shaded and marked ``*``; a pyramid is drawn in its team's Okabe-Ito colour *and* a
shape of its own (triangle, diamond, circle, square, pentagon, star), so teams stay
apart without colour; crowned fields carry a black triangle with a white ring.
Columns a-n and rows 1-8 are written around the board.  Classes (``field``,
``free``, ``pyramid team-1`` ..., ``crowned``, ``coord``) make the parts findable;
a field's ``data-field`` is its name, ``data-card`` its card.  The pack page's board
has the player's hand under it (:class:`Hand`: ``g.hand-card`` with ``data-index``
and ``data-card``, dead cards marked) and the player's pyramid shape beside it; the
pack page picks those cards and fields (``packplay.js``).  The board's name and
every card carry their words for the pack page (``words``, and ``data-i18n`` keys
of this folder's ``packpage.de.json`` and ``packpage.en.json``;
fechtbuch.puzzles.pagekit), which words them in the page's language (a queen is "D"
in German); the SVG alone reads in English.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import (
    COLS,
    COLUMN_NAMES,
    FIELD_CARD,
    FREE_MASK,
    ROWS,
    card_text,
)
from fechtbuch.engines.touche_pyramiden.state import RULESET
from fechtbuch.puzzles.pagekit import Message, words_of

CELL = 27
MARGIN = 18
TEAM_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
TEAM_SHAPES = ("triangle", "diamond", "circle", "square", "pentagon", "star")


def _polygon(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _shape(kind: str, cx: float, cy: float, r: float) -> str:
    """The SVG element of one marker shape centred at (cx, cy)."""
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.8:.1f}"'
    if kind == "square":
        s = r * 0.75
        return f'<rect x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}"'
    if kind == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)]
    elif kind == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    elif kind == "pentagon":
        pts = [
            (cx + r * math.sin(2 * math.pi * i / 5), cy - r * math.cos(2 * math.pi * i / 5))
            for i in range(5)
        ]
    else:  # star
        pts = [
            (
                cx + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                cy - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5),
            )
            for i in range(10)
        ]
    return f'<polygon points="{_polygon(pts)}"'


def board_svg(
    own: tuple[int, ...],
    crowned: int,
    title: str = "",
    words: Message | None = None,
    hand: Hand | None = None,
) -> str:
    """The SVG document of a board: pyramids per team (``own``) and crowned fields;
    ``words``: the board's name for the pack page (default: "Touché board");
    ``hand``: the player's cards drawn under the board (:func:`hand_row`)."""
    width = 2 * MARGIN + COLS * CELL
    board_height = 2 * MARGIN + ROWS * CELL
    height = board_height + (HAND_HEIGHT if hand is not None else 0)
    words = words or {"key": "pp.tp.board.plain", "args": {}}
    name = words_of(words["key"], **words["args"])
    label = words_of(words["key"], label=True, **words["args"])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{2 * width}px" font-family="sans-serif" '
        f'role="img" aria-label="{escape(title or "Touché board")}"{label}>',
        f"<title{name}>{escape(title or 'Touché board')}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for col in range(COLS):
        x = MARGIN + col * CELL + CELL / 2
        for y in (MARGIN - 5, board_height - 5):
            out.append(
                f'<text class="coord" x="{x:.1f}" y="{y}" font-size="10" '
                f'text-anchor="middle">{COLUMN_NAMES[col]}</text>'
            )
    for row in range(ROWS):
        y = MARGIN + (ROWS - 1 - row) * CELL + CELL / 2 + 3.5
        for x in (MARGIN / 2, width - MARGIN / 2):
            out.append(
                f'<text class="coord" x="{x:.1f}" y="{y:.1f}" font-size="10" '
                f'text-anchor="middle">{row + 1}</text>'
            )
    for field in range(ROWS * COLS):
        row, col = divmod(field, COLS)
        x = MARGIN + col * CELL
        y = MARGIN + (ROWS - 1 - row) * CELL
        name = COLUMN_NAMES[col] + str(row + 1)
        free = bool(FREE_MASK >> field & 1)
        kind = FIELD_CARD[field]
        label = "*" if kind < 0 else card_text(kind)
        on = "" if kind < 0 else f' data-card="{label}"'
        out.append(
            f'<rect class="{"field free" if free else "field"}" data-field="{name}"{on} '
            f'x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{"#d9d9d9" if free else "#f7f3e8"}" stroke="#888888" stroke-width="0.6"/>'
        )
        colour = "#a40000" if kind >= 0 and label[1] in "HD" else "#222222"
        card = "" if kind < 0 else words_of(f"pp.tp.card.{label}")
        out.append(
            f'<text x="{x + 3}" y="{y + 9}" font-size="8" fill="{colour}"{card}>'
            f"{escape(label)}</text>"
        )
        cx, cy, r = x + CELL / 2 + 2, y + CELL / 2 + 3, CELL * 0.32
        if crowned >> field & 1:
            out.append(
                f'<g class="crowned" data-field="{name}">'
                + _shape("triangle", cx, cy, r)
                + ' fill="#000000" stroke="#ffffff" stroke-width="1.2"/></g>'
            )
            continue
        for team, mask in enumerate(own):
            if mask >> field & 1:
                out.append(
                    f'<g class="pyramid team-{team + 1}" data-field="{name}">'
                    + _shape(TEAM_SHAPES[team], cx, cy, r)
                    + f' fill="{TEAM_COLOURS[team]}" stroke="#000000" stroke-width="0.8"/></g>'
                )
    if hand is not None:
        out.extend(hand_row(hand, board_height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Hand:
    """The player's cards as the pack page shows them under the board: the cards
    (``"6S"``, ``"XX"`` a joker), the dead ones among them (both fields taken) and
    the player's team (its pyramids' colour and shape, shown beside the hand)."""

    cards: tuple[str, ...]
    dead: frozenset[str]
    team: int


HAND_HEIGHT = 58
CARD_W, CARD_H = 30, 40


def hand_row(hand: Hand, top: float) -> list[str]:
    """The hand under the board: a label, the player's pyramid, and one ``g.hand-card``
    per card (``data-index``, ``data-card``; ``dead`` marked "dead")."""
    y = top + 6
    label = words_of("pp.tp.hand")
    out = [
        f'<text class="hand-label" x="{MARGIN}" y="{y + 16}" font-size="12"{label}>'
        "Your cards:</text>",
        f'<g class="mine" data-team="{hand.team}">'
        f"{_shape(TEAM_SHAPES[hand.team], MARGIN + 8, y + 32, 7)} "
        f'fill="{TEAM_COLOURS[hand.team]}" stroke="#000000" stroke-width="0.8"/></g>',
        f'<text x="{MARGIN + 20}" y="{y + 36}" font-size="11"{words_of("pp.tp.yours")}>'
        "your pyramids</text>",
    ]
    for index, card in enumerate(hand.cards):
        x = MARGIN + 110 + index * (CARD_W + 6)
        dead = card in hand.dead
        red = card != "XX" and card[1] in "HD"
        out.append(
            f'<g class="hand-card{" dead" if dead else ""}" data-index="{index}" '
            f'data-card="{card}"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" '
            f'rx="4" fill="{"#e4e0d6" if dead else "#ffffff"}" stroke="#555555"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + 18}" font-size="{10 if card == "XX" else 12}" '
            f'text-anchor="middle" font-weight="bold" fill="{"#a40000" if red else "#222222"}"'
            f"{words_of(f'pp.tp.card.{card}')}>{escape(_face(card))}</text>"
        )
        if dead:
            out.append(
                f'<text x="{x + CARD_W / 2}" y="{y + 33}" font-size="9" text-anchor="middle"'
                f"{words_of('pp.tp.dead')}>dead</text>"
            )
        out.append("</g>")
    return out


def _face(card: str) -> str:
    """A card as the SVG alone writes it (English: "10♠", "Q♥", "Joker")."""
    if card == "XX":
        return "Joker"
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def is_pyramid_position(text: str) -> bool:
    """Whether ``text`` is in the pyramid game's notation (it starts with the ruleset)."""
    return text.strip().startswith(RULESET + " ")


def svg_if_pyramid(text: str, move: str | None = None, flip: bool = False) -> str | None:
    """The plugin's drawing: :func:`position_svg` for text in the pyramid game's
    notation, ``None`` for any other text.  The board has no moves to draw and one
    side only."""
    if not is_pyramid_position(text):
        return None
    if move is not None or flip:
        raise InputError("--move/--flip: a Touché pyramids board is drawn without them")
    return position_svg(text)


def position_svg(text: str) -> str:
    """The SVG of a full state or a view (``sicht=``) of the pyramid game."""
    if " sicht=" in text:
        view = notation.parse_view(text)
        own, crowned, pattern = view.own, view.crowned, view.pattern
    else:
        state = notation.parse_state(text)
        own, crowned, pattern = state.own, state.crowned, state.pattern
    title = f"Touché, {pattern.value if pattern else 'pattern to choose'}"
    return board_svg(own, crowned, title)
