"""The Touché duel drawn as text, and the warnings a player sees at the board.

>>> from fechtbuch.engines.touche_duell.notation import parse_view
>>> print(draw(parse_view("standard 9-12 0:0 A zug 11223/?5 01000 ?14")))
Touché (standard, to 5 points)   score A 0 : 0 B
  1   5    10   15   20 23
  ........A..B...........
distance 3   A on 9, B on 12   A to move: turn (move, attack)
hand A: 1 1 2 2 3   hand B: 5 cards (hidden)
discard: 1:0 2:1 3:0 4:0 5:0   pile: 14 cards
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.notation import counts_text
from fechtbuch.engines.touche_duell.players import p_at_least
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    PLAYER_CHARS,
    TRACK,
    TURN_PHASES,
    Phase,
    Position,
    View,
)

PHASE_WORDS = {
    Phase.TURN: "turn (move, attack{lunge})",
    Phase.RIPOSTE: "riposte: your turn right after the parry (refill after it)",
    Phase.PARRY: "must parry {k} x {v} (p)",
    Phase.RETREAT: "parry {k} x {v} (p) or retreat (rN)",
    Phase.PARRY_THEN_LAST: "last card drawn: parry {k} x {v} (p), then your last attack",
    Phase.LAST_ATTACK: "pile empty: last attack from where you stand, or '-'",
    Phase.PARRY_THEN_COMPARE: "parry the last attack {k} x {v} (p); then the hands decide",
    Phase.RETREAT_THEN_COMPARE: "lunge took the last card: parry {k} x {v} or retreat; "
    "then the hands decide",
}


def _phase_line(p: Position | View) -> str:
    if p.phase.over:
        how = {Phase.HIT: "hit", Phase.BLOCKED: "no legal move", Phase.COMPARE: "hand comparison"}
        who = "nobody" if p.winner == NOBODY else PLAYER_CHARS[p.winner]
        return f"round over ({how[p.phase]}): {who} wins the round"
    words = PHASE_WORDS[p.phase].format(
        v=p.attack[0], k=p.attack[1], lunge=", lunge" if p.rules.lunge else ""
    )
    return f"{PLAYER_CHARS[p.mover]} to move: {words}"


def draw(p: Position | View) -> str:
    """The track, both fencers, distance, hands (hidden ones by size), discard, pile."""
    a, b = p.squares
    track = "".join("A" if s == a else "B" if s == b else "." for s in range(1, TRACK + 1))
    lines = [
        f"Touché ({p.rules.level.value}, to {p.rules.target} points)   "
        f"score A {p.score[0]} : {p.score[1]} B",
        "  1   5    10   15   20 23",
        "  " + track,
        f"distance {b - a}   A on {a}, B on {b}   {_phase_line(p)}",
    ]
    if isinstance(p, View):
        shown = {p.viewer: " ".join(counts_text(p.hand).replace("-", "")) or "-"}
        shown[1 - p.viewer] = f"{p.other_size} cards (hidden)"
        pile = p.pile_size
    else:
        shown = {i: " ".join(counts_text(p.hands[i]).replace("-", "")) or "-" for i in (0, 1)}
        pile = len(p.pile)
    lines.append(f"hand A: {shown[0]}   hand B: {shown[1]}")
    discard = " ".join(f"{v}:{n}" for v, n in zip(range(1, 6), p.discard, strict=True))
    lines.append(f"discard: {discard}   pile: {pile} cards")
    return "\n".join(lines)


def warnings(view: View) -> list[str]:
    """Dangers for the viewer, from what the viewer sees.

    * at the current distance the opponent can attack and the viewer holds no card
      of it (only at the start of the viewer's turn: the opponent attacks next if we
      stay);
    * moves that leave a distance the opponent may attack while we hold no parry.
    """
    out: list[str] = []
    if view.phase.over or view.mover != view.viewer or view.phase not in TURN_PHASES:
        return out
    unseen = view.unseen()
    total = sum(unseen)
    d = view.distance
    if not view.rules.parry:
        if d <= 5 and unseen[d - 1]:
            p = p_at_least(1, unseen[d - 1], total, view.other_size)
            out.append(f"Every attack hits: the opponent holds a {d} with {p:.0%} chance.")
        return out
    if d <= 5 and not view.hand[d - 1] and unseen[d - 1]:
        p = p_at_least(1, unseen[d - 1], total, view.other_size)
        out.append(
            f"The opponent can attack you at this distance ({d}) and you hold no parry "
            f"(they hold a {d} with {p:.0%} chance)."
        )
    risky = []
    for step in range(-5, 6):
        if not step or not view.hand[abs(step) - 1]:
            continue
        new_d = d - step
        if not 1 <= new_d <= 5 or (step < 0 and abs(step) > _back(view)):
            continue
        left = view.hand[new_d - 1] - (1 if abs(step) == new_d else 0)
        if unseen[new_d - 1] > left:
            p = p_at_least(left + 1, unseen[new_d - 1], total, view.other_size)
            if p >= 0.25:
                risky.append(f"m{step:+d} ({p:.0%})")
    if risky:
        out.append("Moves after which the opponent may hit you: " + ", ".join(risky))
    return out


def _back(view: View) -> int:
    return view.squares[0] - 1 if view.viewer == 0 else TRACK - view.squares[1]
