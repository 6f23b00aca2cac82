"""The board in the terminal: coordinates, colours (or plain text) and highlights.

Each field is four characters: `` 7H `` an empty card field, `` ** `` an empty free
field, `` ## `` a crowned field, ``[1] `` a pyramid of team 1.  The fourth character
marks highlights: ``+`` the seat's hand can take the field, ``!`` the field is the
missing one of a pattern one field from completion (of any team; the legend says
whose), ``*`` both.  With colours, pyramids get their team's background, crowned
fields black, and highlighted fields are bold (``!`` in the threatening team's colour).
"""

from __future__ import annotations

from dataclasses import replace

from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import (
    COLS,
    COLUMN_NAMES,
    FIELD_CARD,
    JOKER,
    ROWS,
    card_text,
    field_name,
)
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.evaluate import threats
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.state import Kind, Phase

TEAM_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan")
TEAM_NAMES = ("rot", "blau", "grün", "gelb", "lila", "türkis")


def playable_fields(view: View) -> set[int]:
    """Fields the seat's ordinary cards can take now, and completing free fields
    (a joker could take any empty card field; the legend says so instead)."""
    if view.phase is not Phase.PLAY:
        return set()
    state = determinise(view)
    state = replace(state, to_move=view.seat)
    return {a.field for a in rules.legal_actions(state) if a.kind in (Kind.PLACE, Kind.FREE)}


def one_away(view: View) -> dict[int, list[tuple[int, int]]]:
    """Per team, its open placements missing one field, as (missing field, placement)."""
    out: dict[int, list[tuple[int, int]]] = {}
    if view.phase is not Phase.PLAY:
        return out
    for team in range(view.config.teams):
        for mask in threats(view.pattern, view.own, view.crowned, team):
            missing = mask & ~view.own[team]
            out.setdefault(team, []).append((missing.bit_length() - 1, mask))
    return out


ANSI_COLOURS = {
    "black": 30,
    "red": 31,
    "green": 32,
    "yellow": 33,
    "blue": 34,
    "magenta": 35,
    "cyan": 36,
    "white": 37,
}
"""The terminal's eight colours; a background colour is its code plus 10."""


def ansi(
    text: str,
    fg: str | None = None,
    bg: str | None = None,
    bold: bool = False,
    dim: bool = False,
    underline: bool = False,
) -> str:
    """``text`` in ANSI terminal colours and styles, then a reset (the codes and order
    click.style writes, so a terminal shows the same)."""
    codes = [ANSI_COLOURS[fg]] if fg else []
    codes += [ANSI_COLOURS[bg] + 10] if bg else []
    codes += [code for on, code in ((bold, 1), (dim, 2), (underline, 4)) if on]
    return "".join(f"\033[{code}m" for code in codes) + text + "\033[0m"


def render(view: View, colour: bool = True, show_hand: bool = True) -> str:
    """The board, a legend of threats and (if ``show_hand``) the seat's hand."""
    playable = playable_fields(view) if show_hand else set()
    threat = one_away(view)
    missing_team: dict[int, int] = {}
    for team, items in threat.items():
        for f, _ in items:
            missing_team.setdefault(f, team)

    def style(text: str, **kw) -> str:
        return ansi(text, **kw) if colour else text

    lines = ["    " + "".join(f" {c}  " for c in COLUMN_NAMES)]
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for col in range(COLS):
            f = row * COLS + col
            k = FIELD_CARD[f]
            mark = ""
            if f in playable:
                mark += "+"
            if f in missing_team:
                mark += "!"
            marker = {"": " ", "+": "+", "!": "!", "+!": "*"}[mark]
            if view.crowned >> f & 1:
                cell = style(" ##", fg="white", bg="black", bold=True)
            else:
                team = next((t for t, m in enumerate(view.own) if m >> f & 1), None)
                if team is not None:
                    cell = style(f"[{team + 1}]", fg="white", bg=TEAM_COLOURS[team], bold=True)
                else:
                    text = " **" if k < 0 else " " + card_text(k)
                    if f in missing_team and colour:
                        cell = style(
                            text, fg=TEAM_COLOURS[missing_team[f]], bold=True, underline=True
                        )
                    elif f in playable and colour:
                        cell = style(text, bold=True, underline=True)
                    else:
                        cell = style(text, dim=True) if k < 0 and colour else text
            if marker != " " and colour:
                fg = TEAM_COLOURS[missing_team[f]] if f in missing_team else None
                marker = style(marker, fg=fg, bold=True)
            cells.append(cell + marker)
        lines.append(f" {row + 1}  " + "".join(cells) + f" {row + 1}")
    lines.append(lines[0])
    cfg = view.config
    if view.phase is Phase.OVER:
        pattern = "(game over)"
    else:
        pattern = view.pattern.value if view.pattern else "(not chosen yet)"
    lines.append("")
    lines.append(
        f"Round {min(view.round, cfg.rounds)}/{cfg.rounds}  pattern: {pattern}  "
        f"points: " + ", ".join(f"team {t + 1} {s}" for t, s in enumerate(view.scores))
    )
    teams = []
    for t in range(cfg.teams):
        seats = [s for s in range(cfg.players) if cfg.team_of(s) == t]
        label = f"[{t + 1}] {TEAM_NAMES[t]}: seat {','.join(map(str, seats))}"
        teams.append(style(label, fg=TEAM_COLOURS[t]))
    lines.append("Teams: " + "; ".join(teams))
    for team, items in sorted(threat.items()):
        fields = sorted({field_name(f) for f, _ in items})
        text = f"Team {team + 1} ein Feld vor Touché: {', '.join(fields)}"
        lines.append(style(text, fg=TEAM_COLOURS[team], bold=True))
    sizes = ", ".join(
        f"seat {s}: {h} cards/{p} pile"
        for s, (h, p) in enumerate(zip(view.hand_sizes, view.pile_sizes, strict=True))
    )
    lines.append(sizes)
    if show_hand:
        hand = " ".join(card_text(k) for k in view.hand) or "-"
        lines.append(f"Hand of seat {view.seat} (team {cfg.team_of(view.seat) + 1}): {hand}")
        if view.phase is Phase.PLAY:
            lines.append("Legend: + playable, ! a pattern lacks it for Touché, * both")
            if JOKER in view.hand:
                lines.append("XX (joker): any empty card field, or XX:-field / XX:=field")
    return "\n".join(lines)
