"""Replay a Touché game record step by step, checked by both rule books.

Reading a record (:func:`~fechtbuch.engines.touche_duell.record.read_game`) already
replays it with the fast rules: an illegal action, a missing shuffle seed or a
``Result`` that the actions do not give is bad input.  :func:`replay` then walks the
game again and applies every action with the deliberately simple
:mod:`~fechtbuch.engines.touche_duell.reference` rules as well; a step where the two
disagree (on legality or on the position after it) is a failed verification, which
the command reports with exit status 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fechtbuch.engines.touche_duell import reference
from fechtbuch.engines.touche_duell import rules as fast
from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import format_position
from fechtbuch.engines.touche_duell.record import GameRecord, game_over, round_starter
from fechtbuch.engines.touche_duell.state import (
    PLAYER_CHARS,
    IllegalActionError,
    Position,
    format_action,
)


@dataclass(frozen=True)
class Step:
    """One action of the game: the round it belongs to, who played it, the position
    before and after (full notation)."""

    round: int
    ply: int
    mover: str
    action: str
    before: str
    after: str


@dataclass(frozen=True)
class RoundStart:
    """A round's deal: its number, shuffle seed, starter and first position."""

    number: int
    shuffle: str
    starter: str
    position: str


@dataclass
class Replay:
    """The whole game: deals, steps, the final position and result, and every step at
    which the reference rules disagreed with the fast rules (empty when verified)."""

    ruleset: str
    rounds: list[RoundStart] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    final: str = ""
    result: str = "*"
    disagreements: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return not self.disagreements

    def to_json(self) -> dict:
        return {
            "ruleset": self.ruleset,
            "rounds": [vars(r) for r in self.rounds],
            "steps": [vars(s) for s in self.steps],
            "final": self.final,
            "result": self.result,
            "verified": self.verified,
            "disagreements": self.disagreements,
        }


def _reference_apply(position: Position, action) -> Position | str:
    """The reference's position after ``action``, or why it refused the action."""
    if action not in reference.legal_actions(position):
        return "the reference rules do not allow it"
    try:
        return reference.apply(position, action)
    except IllegalActionError as err:
        return str(err)


def replay(record: GameRecord) -> Replay:
    """Walk ``record`` action by action with the fast and the reference rules."""
    out = Replay(record.rules.name)
    number = 1
    pos = new_round(record.shuffles[0], record.starter, record.rules)
    out.rounds.append(
        RoundStart(1, record.shuffles[0], PLAYER_CHARS[record.starter], format_position(pos))
    )
    for ply, action in enumerate(record.actions, start=1):
        after = fast.apply(pos, action)
        checked = _reference_apply(pos, action)
        if isinstance(checked, str) or checked != after:
            why = checked if isinstance(checked, str) else f"it gives {format_position(checked)}"
            out.disagreements.append(
                f"ply {ply} ({format_action(action)} in {format_position(pos)}): {why}"
            )
        out.steps.append(
            Step(
                number,
                ply,
                PLAYER_CHARS[pos.mover],
                format_action(action),
                format_position(pos),
                format_position(after),
            )
        )
        pos = after
        if pos.phase.over and not game_over(pos) and number < len(record.shuffles):
            number += 1
            starter = round_starter(record.starter, number)
            pos = new_round(record.shuffles[number - 1], starter, record.rules, pos.score)
            out.rounds.append(
                RoundStart(
                    number,
                    record.shuffles[number - 1],
                    PLAYER_CHARS[starter],
                    format_position(pos),
                )
            )
    out.final = format_position(pos)
    out.result = record.result()
    return out


__all__ = ["Replay", "RoundStart", "Step", "replay"]
