"""The values of the pyramid game: set-up, full state, action.

States are immutable.  Boards are bitmasks (one int per team for its pyramids,
one for the crowned fields); hands are sorted tuples of card kinds; piles are
tuples with the top card first; the discard pile lists cards in the order played.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fechtbuch.engines import errors
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden.patterns import Pattern

RULESET = "pyramiden-1"

TEAM_SPLITS: dict[int, tuple[int, ...]] = {2: (2,), 3: (3,), 4: (4, 2), 5: (5,), 6: (6, 3, 2)}
"""For each number of players, the allowed numbers of teams (players = teams: no teams)."""


class IllegalActionError(errors.IllegalActionError):
    """An action that the rules do not allow in the state; names the action."""


@dataclass(frozen=True)
class Config:
    """What is agreed before the game: players, teams, rounds, how the pattern is set."""

    players: int
    teams: int
    rounds: int = 3
    fixed_pattern: Pattern | None = None
    """The pattern of every round, or ``None``: the chooser picks one before each round."""

    def __post_init__(self) -> None:
        if self.players not in TEAM_SPLITS:
            raise InputError(f"players: expected 2 to 6, got {self.players!r}")
        if self.teams not in TEAM_SPLITS[self.players]:
            allowed = ", ".join(str(t) for t in TEAM_SPLITS[self.players])
            raise InputError(
                f"teams: {self.players} players allow {allowed} teams, got {self.teams!r}"
            )
        if self.rounds not in (3, 4):
            raise InputError(f"rounds: expected 3 or 4, got {self.rounds!r}")

    def team_of(self, seat: int) -> int:
        """Team members sit alternately: seat s belongs to team s mod teams."""
        return seat % self.teams

    @property
    def member_choice(self) -> bool:
        """Whether a team has several members, so each team chooses which starts."""
        return self.teams < self.players

    def members(self, team: int) -> tuple[int, ...]:
        """The seats of ``team`` in their fixed rotation (clockwise)."""
        return tuple(range(team, self.players, self.teams))

    @property
    def pile_size(self) -> int:
        """Cards per pile (108 // players; the rest is set aside)."""
        return 108 // self.players


class Phase(enum.Enum):
    CHOOSE = "wahl"
    """The chooser picks the round's pattern."""
    LEAD = "beginn"
    """Teams of several members choose, one after the other from the starting team,
    which member takes their first turn (the rulebook: the team chooses)."""
    PLAY = "spiel"
    OVER = "ende"


@dataclass(frozen=True)
class State:
    """A full state of the game (every hand and pile known)."""

    config: Config
    round: int
    """1-based; ``rounds + 1`` once the game is over."""
    phase: Phase
    pattern: Pattern | None
    to_move: int
    """The seat to act (the chooser in the CHOOSE phase)."""
    starter: int
    """The seat that starts (started) this round's play."""
    scores: tuple[int, ...]
    """Points per team."""
    own: tuple[int, ...]
    """Pyramids per team, as field masks."""
    crowned: int
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    aside: tuple[int, ...]
    passes: int
    """Consecutive passes; a full circle of passes ends the round without a point (ours)."""
    seed: str
    """The game's seed; the shuffle of round r uses ``{seed}/runde{r}``."""
    leads: tuple[int, ...] = ()
    """Per team, the seat that takes the team's first turn of the round (members then
    take turns in their fixed rotation); ``()`` when no team has several members, and
    play simply goes clockwise."""

    @property
    def occupied(self) -> int:
        occ = self.crowned
        for m in self.own:
            occ |= m
        return occ


class Kind(enum.Enum):
    """What an action does (the sheet's five kinds of turn, plus choosing the pattern)."""

    PLACE = "place"
    JOKER_PLACE = "joker-place"
    JOKER_REMOVE = "joker-remove"
    JOKER_REPLACE = "joker-replace"
    FREE = "free"
    EXCHANGE = "exchange"
    PASS = "pass"
    CHOOSE = "choose"
    LEAD = "lead"
    """A team names the member (``field``: the seat) who starts for it this round."""


@dataclass(frozen=True)
class Action:
    """One action.  ``card`` is the card played (FREE may use any card, jokers
    included); ``cards`` the dead cards exchanged; ``crown`` an explicit choice of
    the placement to crown when one move completes several (0: canonical first)."""

    kind: Kind
    card: int = -1
    field: int = -1
    cards: tuple[int, ...] = ()
    pattern: Pattern | None = None
    crown: int = 0

    def sort_key(self) -> tuple:
        order = list(Kind).index(self.kind)
        pat = list(Pattern).index(self.pattern) if self.pattern else -1
        return (order, self.card, self.field, self.cards, pat, self.crown)
