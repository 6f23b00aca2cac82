"""Positions, player's views and actions of the Touché duel as values: the track, the card
counts, the rule levels, the phases of a round, and an action's text (:mod:`.notation`
reads and writes the rest).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from fechtbuch.engines import errors

TRACK = 23
"""Squares 1..23; fencer A starts on 1, fencer B on 23."""


VALUES = (1, 2, 3, 4, 5)


COPIES = 5
"""Five cards of each value: 25 fencing cards."""


HAND_SIZE = 5


PLAYER_CHARS = "AB"


Counts = tuple[int, int, int, int, int]
"""Cards per value 1..5 (index 0 holds the 1s)."""


NO_CARDS: Counts = (0, 0, 0, 0, 0)


class NotationError(errors.NotationError):
    """Malformed position, view or action text; the message names the field."""


class IllegalActionError(errors.IllegalActionError):
    """A well-formed action that is not legal in the given position."""


def _quote(text: str) -> str:
    return repr(text if len(text) <= 200 else text[:200] + "...")


class Level(enum.Enum):
    """The rule levels of the rulebook."""

    KINDER = "kinder"
    """Every attack hits; there is no parry."""
    STANDARD = "standard"
    FORTGESCHRITTEN = "fortgeschritten"
    """With the lunge (Sturmangriff) and the retreat against it."""


@dataclass(frozen=True)
class Ruleset:
    """A rule level and the game length; named in every position and record."""

    level: Level = Level.STANDARD
    short: bool = False

    @property
    def target(self) -> int:
        """Points that win the game."""
        return 3 if self.short else 5

    @property
    def parry(self) -> bool:
        return self.level is not Level.KINDER

    @property
    def lunge(self) -> bool:
        return self.level is Level.FORTGESCHRITTEN

    @property
    def name(self) -> str:
        return self.level.value + ("-kurz" if self.short else "")

    @classmethod
    def from_name(cls, text: str) -> Ruleset:
        """``standard``, ``fortgeschritten-kurz``, ...

        >>> Ruleset.from_name("kinder-kurz").target
        3
        """
        base, dash, rest = text.partition("-")
        if dash and rest != "kurz":
            raise NotationError(
                f"ruleset: expected a level with optional '-kurz', got {_quote(text)}"
            )
        try:
            return cls(Level(base), bool(dash))
        except ValueError:
            raise NotationError(
                f"ruleset: expected kinder, standard or fortgeschritten (optionally with "
                f"'-kurz'), got {_quote(text)}"
            ) from None


RULESETS = tuple(Ruleset(level, short) for level in Level for short in (False, True))


class Phase(enum.Enum):
    """Where the round stands.  The value is the notation (without ``:VxK`` / ``:W``)."""

    TURN = "zug"
    """A normal turn: move, attack (or lunge); then refill."""
    RIPOSTE = "riposte"
    """The turn right after a successful parry, before refilling."""
    PARRY = "parade"
    """Must parry a standing attack of K cards of value V (action ``p``)."""
    RETREAT = "ausweichen"
    """A lunge attacked with K cards of V: parry (``p``) or retreat (``rN``)."""
    PARRY_THEN_LAST = "parade-l"
    """The attack took the last card: parry it, then make the last attack."""
    LAST_ATTACK = "letzter"
    """The pile is empty: one last attack from where you stand, or ``-``."""
    PARRY_THEN_COMPARE = "parade-v"
    """Parry the last attack; then the hands are compared."""
    RETREAT_THEN_COMPARE = "ausweichen-v"
    """A lunge took the last card: parry or retreat; then the hands are compared."""
    HIT = "treffer"
    """Round over: the winner hit (the defender could not parry or retreat)."""
    BLOCKED = "blockiert"
    """Round over: the loser had no legal action at the start of a turn."""
    COMPARE = "vergleich"
    """Round over by the hand comparison at the end of the pile (winner may be nobody)."""

    @property
    def attacked(self) -> bool:
        """Phases that carry an attack ``V`` x ``K`` to answer."""
        return self in ATTACKED_PHASES

    @property
    def over(self) -> bool:
        return self in OVER_PHASES

    @property
    def endgame(self) -> bool:
        """Phases after the last card was drawn (the pile is empty)."""
        return self in ENDGAME_PHASES


ATTACKED_PHASES = frozenset(
    {
        Phase.PARRY,
        Phase.RETREAT,
        Phase.PARRY_THEN_LAST,
        Phase.PARRY_THEN_COMPARE,
        Phase.RETREAT_THEN_COMPARE,
    }
)


OVER_PHASES = frozenset({Phase.HIT, Phase.BLOCKED, Phase.COMPARE})


ENDGAME_PHASES = frozenset(
    {
        Phase.PARRY_THEN_LAST,
        Phase.LAST_ATTACK,
        Phase.PARRY_THEN_COMPARE,
        Phase.RETREAT_THEN_COMPARE,
    }
)


TURN_PHASES = frozenset({Phase.TURN, Phase.RIPOSTE})


RETREAT_PHASES = frozenset({Phase.RETREAT, Phase.RETREAT_THEN_COMPARE})


NOBODY = -1


class Position(NamedTuple):
    """A full Touché position: the state of one round plus the score.

    ``attack`` is ``(V, K)`` in attacked phases and ``(0, 0)`` otherwise;
    ``winner`` is 0/1 (or ``NOBODY``) in finished rounds and ``NOBODY`` otherwise.
    Hands and the discard pile are :data:`Counts`; the pile lists values top first.
    """

    rules: Ruleset
    squares: tuple[int, int]
    score: tuple[int, int]
    mover: int
    phase: Phase
    attack: tuple[int, int]
    winner: int
    hands: tuple[Counts, Counts]
    discard: Counts
    pile: tuple[int, ...]

    @property
    def distance(self) -> int:
        return self.squares[1] - self.squares[0]


class View(NamedTuple):
    """What player ``viewer`` sees: own hand; the other hand and the pile by size.

    The cards the viewer has not seen are ``unseen()``: per value, five minus the own
    hand minus the discard pile; the opponent's hand and the pile are a split of them.
    """

    rules: Ruleset
    squares: tuple[int, int]
    score: tuple[int, int]
    mover: int
    phase: Phase
    attack: tuple[int, int]
    winner: int
    viewer: int
    hand: Counts
    other_size: int
    discard: Counts
    pile_size: int

    @property
    def distance(self) -> int:
        return self.squares[1] - self.squares[0]

    def unseen(self) -> Counts:
        h, d = self.hand, self.discard
        # spelled out: players call this in every roll-out step
        return (
            COPIES - h[0] - d[0],
            COPIES - h[1] - d[1],
            COPIES - h[2] - d[2],
            COPIES - h[3] - d[3],
            COPIES - h[4] - d[4],
        )


def view_of(position: Position, viewer: int) -> View:
    """The view of ``viewer`` (0 = A, 1 = B) of a full position."""
    return View(
        position.rules,
        position.squares,
        position.score,
        position.mover,
        position.phase,
        position.attack,
        position.winner,
        viewer,
        position.hands[viewer],
        sum(position.hands[1 - viewer]),
        position.discard,
        len(position.pile),
    )


class Kind(enum.IntEnum):
    MOVE = 0
    ATTACK = 1
    LUNGE = 2
    PARRY = 3
    RETREAT = 4
    PASS = 5
    """Decline the last attack."""


class Action(NamedTuple):
    """One action.  ``step``: signed move (+ forward), lunge step, retreat card;
    ``value``/``count``: the attack cards (``value`` is the distance)."""

    kind: Kind
    step: int = 0
    value: int = 0
    count: int = 0


PARRY = Action(Kind.PARRY)


PASS = Action(Kind.PASS)


def format_action(action: Action) -> str:
    kind = action.kind
    if kind is Kind.MOVE:
        return f"m{action.step:+d}"
    if kind is Kind.ATTACK:
        return f"a{action.value}x{action.count}"
    if kind is Kind.LUNGE:
        return f"l{action.step}a{action.value}x{action.count}"
    if kind is Kind.RETREAT:
        return f"r{action.step}"
    return "p" if kind is Kind.PARRY else "-"
