"""The Touché duel's motif catalogue: one small detector per motif.

Version 1 holds the eight tags of the shipped pack (``touche-uebungen.json``), in
the order they are stored (alphabetical); :func:`fechtbuch.puzzles.touche_duell.mining.tags_for`
is version 1, so mining and ``pack verify`` use these very functions.  Version 2
adds four motifs of the key; the puzzle database tags with it (``MiningKind.motifs``).
Every detector reads the :class:`DuelFacts` of an exercise: the view, its main line
and the public states along it (the solver's actions and the adversary's hidden
choices, as the generic solver's tree names them).  The known-position table is
``tests/unit/test_touche_duell_motifs.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from fechtbuch.engines.touche_duell.notation import parse_action, parse_view
from fechtbuch.engines.touche_duell.public import root_problem
from fechtbuch.engines.touche_duell.state import Action, Kind, Phase, View
from fechtbuch.puzzles.motifs import MotifCatalogue, catalogue_of

RULES = "touche-duell"
ATTACKS = (Kind.ATTACK, Kind.LUNGE)


@dataclass(frozen=True)
class DuelFacts:
    """A view with a sure win, its main line and the public states along the line
    (``states[i]`` is where ``line[i]`` is chosen; the last is where the round ends)."""

    view: View
    line: tuple[str, ...]
    states: tuple[object, ...]
    solver_turns: tuple[bool, ...]
    """Whether the solver chooses ``line[i]`` (the rest: the opponent's actions and the
    adversary's hidden choices)."""

    @classmethod
    def of_line(cls, view: View, line: list[str]) -> DuelFacts:
        problem = root_problem(view)
        state: object = view
        states, mine = [state], []
        for text in line:
            mine.append(bool(problem.attacker_to_act(state)))
            for action, child in problem.children(state):
                if problem.format_action(state, action) == text:
                    state = child
                    break
            else:
                raise ValueError(f"line: {text!r} is not a child")
            states.append(state)
        return cls(view, tuple(line), tuple(states), tuple(mine))

    @classmethod
    def of_record(cls, puzzle: dict) -> DuelFacts:
        return cls.of_line(parse_view(puzzle["position"]), puzzle["line"])

    def solver_actions(self) -> Iterator[tuple[View, Action]]:
        """The solver's actions of the main line with the views they are chosen in."""
        for state, text, mine in zip(self.states, self.line, self.solver_turns, strict=False):
            if mine and type(state) is View:
                yield state, parse_action(text)

    def solver_attacks(self) -> Iterator[tuple[View, Action]]:
        return ((v, a) for v, a in self.solver_actions() if a.kind in ATTACKS)

    @property
    def end(self) -> Phase:
        return self.states[-1].phase

    @property
    def key(self) -> Action:
        return parse_action(self.line[0])


def ausweichen(f: DuelFacts) -> bool:
    """The opponent must retreat (``rN``) from a lunge in the main line."""
    return any(
        not mine and type(state) is View and text.startswith("r")
        for state, text, mine in zip(f.states, f.line, f.solver_turns, strict=False)
    )


def blockiert(f: DuelFacts) -> bool:
    """The round ends with the opponent blocked: no legal action at its turn."""
    return f.end is Phase.BLOCKED


def drei_gleiche(f: DuelFacts) -> bool:
    """The solver attacks with three or more equal cards (no parry is possible)."""
    return any(a.count >= 3 for _, a in f.solver_attacks())


def riposte(f: DuelFacts) -> bool:
    """The solver attacks in the turn right after its own successful parry."""
    return any(v.phase is Phase.RIPOSTE for v, _ in f.solver_attacks())


def stapelende(f: DuelFacts) -> bool:
    """The round ends by the hand comparison when the pile is used up."""
    return f.end is Phase.COMPARE


def sturmangriff(f: DuelFacts) -> bool:
    """The solver lunges: a step and an attack in one action."""
    return any(a.kind is Kind.LUNGE for _, a in f.solver_attacks())


def treffer(f: DuelFacts) -> bool:
    """The round ends with a hit: the opponent can neither parry nor retreat."""
    return f.end is Phase.HIT


def zaehlen(f: DuelFacts) -> bool:
    """An attack of one or two cards that cannot be parried because every card that
    could parry it is already seen (in the solver's hand or the discard pile)."""
    return any(a.count < 3 and v.unseen()[a.value - 1] < a.count for v, a in f.solver_attacks())


def ruhiger_zug(f: DuelFacts) -> bool:
    """The key is a move, no attack: the win is prepared, not struck at once."""
    return f.key.kind is Kind.MOVE


def rueckzug(f: DuelFacts) -> bool:
    """The key moves backwards (``m-N``): giving ground wins (Rückzug)."""
    return f.key.kind is Kind.MOVE and f.key.step < 0


def parade(f: DuelFacts) -> bool:
    """The key parries a standing attack (``p``): the defence is the win."""
    return f.key.kind is Kind.PARRY


def letzter_angriff(f: DuelFacts) -> bool:
    """The pile runs out in the main line and the last attack (or its refusal) is
    part of the solution (phase ``letzter`` or ``parade-l`` is reached)."""
    return any(
        type(s) is View and s.phase in (Phase.LAST_ATTACK, Phase.PARRY_THEN_LAST) for s in f.states
    )


V1_DETECTORS = {
    "ausweichen": ausweichen,
    "blockiert": blockiert,
    "drei-gleiche": drei_gleiche,
    "riposte": riposte,
    "stapelende": stapelende,
    "sturmangriff": sturmangriff,
    "treffer": treffer,
    "zaehlen": zaehlen,
}
CATALOGUE_V1: MotifCatalogue = catalogue_of(RULES, 1, DuelFacts.of_record, V1_DETECTORS)
"""The tags of the shipped pack, in their stored (alphabetical) order."""
CATALOGUE_V2: MotifCatalogue = catalogue_of(
    RULES,
    2,
    DuelFacts.of_record,
    {
        **V1_DETECTORS,
        "ruhiger-zug": ruhiger_zug,
        "rueckzug": rueckzug,
        "parade": parade,
        "letzter-angriff": letzter_angriff,
    },
)
CATALOGUE = CATALOGUE_V2
