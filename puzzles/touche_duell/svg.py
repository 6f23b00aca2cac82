"""A public state of the Touché duel's sure-win problem drawn for people: text and SVG.

A state is a :class:`~fechtbuch.engines.touche_duell.state.View` of the prover
(what the solving player sees) or a
:class:`~fechtbuch.engines.touche_duell.public.Pending` node (the prover has acted;
the adversary now picks the drawn cards), which is drawn as the view before the
action with a line saying so.  Both drawings show the track with both fencers, the
prover's hand, the opponent's hand size, the discard pile per value, the cards
still unseen per value and the pile size: everything the prover may reason with.

The parts a person acts on are marked for the pack page (``packplay.js``): the
track's squares (``rect.sq``, ``data-square``), the fencers (``data-seat``) and the
hand's cards (``g.card.own``, ``data-index``, ``data-value``); the SVG element says
whose view it is (``data-viewer``), where both stand (``data-squares``), the phase
and the attack to answer (``data-phase``, ``data-attack``: value and count).

Each text of the drawing also carries its words for the pack page (``data-i18n``: a
key of this folder's ``packpage.de.json`` and ``packpage.en.json``, ``data-i18n-args``:
its arguments; fechtbuch.puzzles.pagekit), which words it in the page's language; the
SVG alone reads in English.
"""

from __future__ import annotations

from html import escape

from fechtbuch.engines.touche_duell.notation import counts_text
from fechtbuch.engines.touche_duell.public import Pending
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    PLAYER_CHARS,
    TRACK,
    Phase,
    View,
    format_action,
)
from fechtbuch.engines.touche_duell.textboard import draw
from fechtbuch.puzzles.pagekit import words_of

BOLD, RESET = "\x1b[1m", "\x1b[0m"


def _split(state: View | Pending) -> tuple[View, str]:
    """The view to draw and the action waiting for the adversary's draw (or "")."""
    if type(state) is Pending:
        return state.before, format_action(state.action)
    return state, ""


def _note(played: str) -> str:
    return f"You played {played}; the adversary picks your draw." if played else ""


def _seat(seat: int) -> dict[str, str]:
    return {"key": f"pp.td.seat.{seat}"}


def _statuswords_of(view: View) -> str:
    """The status line's words: the distance, both squares and what the phase asks."""
    if view.phase.over:
        who = {"key": "pp.td.nobody"} if view.winner == NOBODY else _seat(view.winner)
        phase = {
            "key": "pp.td.over",
            "args": {"how": {"key": f"pp.td.how.{view.phase.value}"}, "who": who},
        }
    else:
        lunge = ".lunge" if view.phase is Phase.TURN and view.rules.lunge else ""
        attack = {"count": view.attack[1], "value": view.attack[0]}
        asks = {"key": f"pp.td.phase.{view.phase.value}{lunge}", "args": attack}
        phase = {"key": "pp.td.to_move", "args": {"who": _seat(view.mover), "phase": asks}}
    a, b = view.squares
    return words_of("pp.td.status", distance=b - a, a=a, b=b, phase=phase)


def board_text(state: View | Pending, colour: bool = False) -> str:
    """The terminal drawing: the engine's board, the unseen cards and any note."""
    view, played = _split(state)
    note = _note(played)
    text = draw(view)
    unseen = " ".join(f"{v}:{n}" for v, n in zip(range(1, 6), view.unseen(), strict=True))
    text += f"\nunseen (opponent's hand and pile): {unseen}"
    if colour:
        me = PLAYER_CHARS[view.viewer]
        lines = text.split("\n")
        lines[2] = lines[2].replace(me, f"{BOLD}{me}{RESET}")
        text = "\n".join(lines)
    return text + (f"\n{note}" if note else "")


SQUARE = 26
LEFT = 14
WIDTH = LEFT * 2 + SQUARE * TRACK
CARD_W, CARD_H = 34, 46


def _card(x: float, y: float, value: int, index: int) -> str:
    """One card of the hand (``g.card.own``: its place ``data-index`` in the hand and
    its ``data-value``, which the pack page picks)."""
    return (
        f'<g class="card own" data-index="{index}" data-value="{value}">'
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#fff" '
        f'stroke="#333"/><text x="{x + CARD_W / 2}" y="{y + 31}" text-anchor="middle" '
        f'font-size="22" font-weight="bold">{value}</text></g>'
    )


def _counts_row(y: float, label: str, key: str, counts: tuple[int, ...]) -> str:
    cells = [f'<text x="{LEFT}" y="{y + 16}" font-size="15"{words_of(key)}>{escape(label)}</text>']
    for i, n in enumerate(counts):
        x = LEFT + 150 + i * 70
        cells.append(
            f'<text x="{x}" y="{y + 16}" font-size="15"><tspan font-weight="bold">{i + 1}</tspan>'
            f"\u00d7{n}</text>"
        )
    return "".join(cells)


def _track(squares: tuple[int, int], me: int | None) -> list[str]:
    """The track's squares and both fencers (the viewer's blue; with no viewer both
    in their own colours)."""
    a, b = squares
    parts = []
    for square in range(1, TRACK + 1):
        x = LEFT + (square - 1) * SQUARE
        fill = "#f4efe1" if square % 2 else "#e8e0c8"
        parts.append(
            f'<rect class="sq" data-square="{square}" x="{x}" y="40" width="{SQUARE}" '
            f'height="{SQUARE}" fill="{fill}" stroke="#999"/>'
        )
        if square in (1, 5, 10, 15, 20, 23):
            parts.append(
                f'<text x="{x + SQUARE / 2}" y="34" text-anchor="middle" font-size="11" '
                f'fill="#666">{square}</text>'
            )
    for player, square in ((0, a), (1, b)):
        x = LEFT + (square - 0.5) * SQUARE
        if me is None:
            colour = ("#1f5fbf", "#b8322a")[player]
        else:
            colour = "#1f5fbf" if player == me else "#b8322a"
        parts.append(
            f'<circle class="fencer" data-seat="{player}" cx="{x}" cy="53" r="11" fill="{colour}"/>'
        )
        parts.append(
            f'<text x="{x}" y="58" text-anchor="middle" font-size="13" fill="#fff" '
            f'font-weight="bold"{words_of(f"pp.td.seat.{player}")}>{PLAYER_CHARS[player]}</text>'
        )
    return parts


def track_svg(squares: tuple[int, int]) -> str:
    """The track with both fencers and nothing hidden: what everybody sees (a
    spectator's board)."""
    height = 76
    body = "".join(_track(squares, None))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" role="img" font-family="sans-serif">'
        f'<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>{body}</svg>'
    )


def board_svg(state: View | Pending) -> str:
    """A self-contained SVG of the state (legible at phone width: scales to the page)."""
    view, played = _split(state)
    me = view.viewer
    parts = _track(view.squares, me)
    status, words = draw(view).split("\n")[3], _statuswords_of(view)
    parts.append(f'<text x="{LEFT}" y="90" font-size="15"{words}>{escape(status)}</text>')
    y = 104
    hand = words_of("pp.td.hand", seat=_seat(me))
    parts.append(
        f'<text x="{LEFT}" y="{y + 28}" font-size="15"{hand}>Your hand ({PLAYER_CHARS[me]}):</text>'
    )
    for i, value in enumerate(int(c) for c in counts_text(view.hand).replace("-", "")):
        parts.append(_card(LEFT + 150 + i * (CARD_W + 6), y, value, i))
    y += CARD_H + 12
    other = words_of("pp.td.opponent", seat=_seat(1 - me), n=view.other_size, pile=view.pile_size)
    parts.append(
        f'<text x="{LEFT}" y="{y + 16}" font-size="15"{other}>Opponent ({PLAYER_CHARS[1 - me]}): '
        f"{view.other_size} cards hidden   pile: {view.pile_size} cards</text>"
    )
    y += 26
    parts.append(_counts_row(y, "Discard:", "pp.td.discard", view.discard))
    y += 26
    parts.append(_counts_row(y, "Unseen:", "pp.td.unseen", view.unseen()))
    y += 26
    if played:
        parts.append(
            f'<text x="{LEFT}" y="{y + 16}" font-size="15" font-style="italic"'
            f"{words_of('pp.td.pending', action=played)}>{escape(_note(played))}</text>"
        )
        y += 26
    height = y + 8
    body = "".join(parts)
    a, b = view.squares
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" role="img" font-family="sans-serif" data-viewer="{me}" '
        f'data-squares="{a} {b}" data-phase="{view.phase.value}" '
        f'data-attack="{view.attack[0]} {view.attack[1]}">'
        f"<title{words}>{escape(status)}</title>"
        f'<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>{body}</svg>'
    )
