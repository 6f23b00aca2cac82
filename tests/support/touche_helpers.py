"""Shared helpers of the Touché duel tests: positions built from the parts that matter."""

from __future__ import annotations

from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import parse_position
from fechtbuch.engines.touche_duell.rules import apply, legal_actions
from fechtbuch.engines.touche_duell.state import RULESETS, Position


def build(
    level: str,
    squares: str,
    mover: str,
    phase: str,
    hand_a: str,
    hand_b: str,
    pile: str | int,
    score: str = "0:0",
) -> Position:
    """A position whose discard pile holds every card not in the hands or the pile.

    ``pile`` is the pile top first, or a size: then the pile is the lowest cards left.
    """
    if isinstance(pile, int):
        held = hand_a.replace("-", "") + hand_b.replace("-", "")
        left = "".join(str(v) * (5 - held.count(str(v))) for v in range(1, 6))
        pile = left[:pile] or "-"
    cards = hand_a.replace("-", "") + hand_b.replace("-", "") + pile.replace("-", "")
    discard = "".join(str(5 - cards.count(str(v))) for v in range(1, 6))
    return parse_position(
        f"{level} {squares} {score} {mover} {phase} {hand_a}/{hand_b} {discard} {pile}"
    )


def random_positions(count_per_ruleset: int, label: str, choose) -> dict:
    """Positions reached by random play from seeded deals, per ruleset.

    ``choose(actions, index)`` picks an action (a deterministic function of the index).
    """
    out = {}
    for rules in RULESETS:
        states: list[Position] = []
        game = 0
        while len(states) < count_per_ruleset:
            pos = new_round(f"{label}/{rules.name}/{game}", game % 2, rules)
            while not pos.phase.over:
                states.append(pos)
                actions = legal_actions(pos)
                pos = apply(pos, actions[choose(len(actions), len(states))])
            states.append(pos)
            game += 1
        out[rules.name] = states
    return out
