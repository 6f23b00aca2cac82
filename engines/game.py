"""The game seam: one small interface that every fechtbuch game implements.

In the spirit of OpenSpiel's game/state API.  A game is a stateless object
(:class:`Game`) that knows its notation and rules; states are immutable values of
the game's own type.  Everything that is the same idea for every game (proof
search, packs, mining loops, the match harness, the conformance test) is written
against this interface; what belongs to one game lives in ``engines/<game>/``.

Two views matter to the tools above the engines:

* :class:`Game`: the real game.  States may hold hidden information (hands, the
  order of a draw pile); a *full* state fixes it, so :meth:`Game.apply` is
  deterministic and chance is resolved by the seeded set-up that made the state.
  :meth:`Game.information_state` gives what one player sees, as notation.
* :class:`AndOrProblem`: a perfect-information AND/OR view for proofs of the form
  "the attacker wins within N own turns".  Battleklinge offers its positions as
  they are; a hidden-information game offers a public-state view in which an
  adversary picks the hidden cards lazily (see docs/solver.md).  The proof search
  in ``solver/`` handles any :class:`AndOrProblem`; it refuses a :class:`Game`.

Layers: this module imports nothing above ``engines``; see docs/architecture.md.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from fechtbuch.engines.kernel import CompiledKernel

State = TypeVar("State")
Action = TypeVar("Action")


@dataclass(frozen=True)
class GameInfo:
    """What the tools may assume about a game (OpenSpiel's GameType)."""

    name: str
    """The command-line name (``fechtbuch <name> ...``) and the ``game`` field of packs."""
    title: str
    """The human name, e.g. ``"Battleklinge"``."""
    min_players: int
    max_players: int
    hidden_information: bool
    """Whether a player's view differs from the full state (hands, a draw pile)."""
    chance: bool
    """Whether shuffles or draws are part of the game (fixed by the full state)."""


class Game(ABC, Generic[State, Action]):
    """The rules and notation of one game; implementations are stateless."""

    info: GameInfo

    # ---- notation -----------------------------------------------------------------
    @abstractmethod
    def parse_state(self, text: str) -> State:
        """A full state from its one-line notation; bad text raises an ``InputError``."""

    @abstractmethod
    def format_state(self, state: State) -> str:
        """The canonical notation of ``state``; ``parse_state`` inverts it exactly."""

    @abstractmethod
    def parse_action(self, state: State, text: str) -> Action:
        """An action in notation; an ``InputError`` if malformed (legality is not checked)."""

    @abstractmethod
    def format_action(self, state: State, action: Action) -> str:
        """The canonical notation of ``action``."""

    # ---- rules --------------------------------------------------------------------
    @abstractmethod
    def num_players(self, state: State) -> int:
        """How many players (or teams) take part in this state's game."""

    @abstractmethod
    def current_player(self, state: State) -> int:
        """The player to act, ``0 .. num_players - 1``; undefined when terminal."""

    @abstractmethod
    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the player to act, in a fixed order; empty when terminal."""

    @abstractmethod
    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; an ``InputError`` subclass if it is illegal."""

    @abstractmethod
    def is_terminal(self, state: State) -> bool:
        """Whether the game (or the unit the state describes, e.g. a round) is over."""

    @abstractmethod
    def returns(self, state: State) -> tuple[float, ...]:
        """One value per player at a terminal state: 1 win, 0 loss, 0.5 shared/none."""

    @abstractmethod
    def state_key(self, state: State) -> Hashable:
        """Equal for equal states; the fast kernel's hash where there is one."""

    def information_state(self, state: State, player: int) -> str:
        """What ``player`` sees, as notation (the full state for perfect information)."""
        return self.format_state(state)

    # ---- optional parts (tests/unit/test_conformance.py uses each one a game offers) ------
    def initial_state(self, seed: int) -> State:
        """A start state dealt from ``seed`` (derived with SHA-256, so the same on every
        machine): what the conformance test plays out from (OpenSpiel's
        ``new_initial_state`` with the chance outcomes fixed by the seed)."""
        raise NotImplementedError(f"{type(self).__name__} deals no initial state")

    def start_problem(self, state: State) -> str | None:
        """``None`` when ``state`` is one that the game's deal produces before any action
        (a legal start: the set-up, a shuffled deck of the game's cards, dealt hands),
        else one line saying what is not.  Witness games of exercises start here
        (``puzzles/witness.py``); a game that cannot tell says so, and its witnesses fail."""
        return f"{type(self).__name__} cannot check start states"

    def reference(self) -> Game[State, Action] | None:
        """The same rules as a deliberately simple implementation (the test oracle), or
        ``None`` when this game's rules are written only once."""
        return None

    def kernel(self) -> CompiledKernel | None:
        """The compiled kernel for the compiled proof search (``engines/kernel.py``),
        or ``None``: then the generic solver of ``solver/andor*.py`` is the one."""
        return None


class Outcome(enum.Enum):
    """The value of a decided node of an AND/OR proof, for the attacker."""

    WIN = "win"
    LOSS = "loss"


class Verdict(enum.Enum):
    """An exact judge's answer: does an attacker's action keep the win within the turns
    left (a pruned exercise tree past its cut, every game)?"""

    KEEPS = "keeps"
    LOSES = "loses"
    UNKNOWN = "unknown"
    """A limit (nodes, time, the judge's largest bound) came first: no claim either way."""


class AndOrProblem(ABC, Generic[State, Action]):
    """A perfect-information view for "the attacker wins within N own turns".

    Nodes are states of this view.  At an OR node the attacker acts; at an AND node
    the defender (or an adversary choosing hidden cards) acts.  ``counts_turn`` says
    which attacker actions spend one of the N turns (a Touché parry does not).
    Assumption the solvers rely on: every path spends a turn after a bounded number
    of plies, so with a turn budget the searched graph is finite and acyclic.
    """

    @abstractmethod
    def attacker_to_act(self, state: State) -> bool:
        """True at OR nodes."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The decided result for the attacker, or ``None`` while play goes on."""

    @abstractmethod
    def children(self, state: State) -> Sequence[tuple[Action, State]]:
        """Every action of the side to act with the state it leads to, in a fixed order."""

    def counts_turn(self, state: State, action: Action) -> bool:
        """Whether this attacker action spends one of the attacker's N turns."""
        return True

    def iter_children(self, state: State) -> Iterator[tuple[Action, State]]:
        """The same pairs as :meth:`children`, possibly computed one at a time and in
        another order: for deciders that stop at the first child that settles the
        node (a problem whose children are costly generates them lazily here)."""
        return iter(self.children(state))

    def needs_turn(self, state: State) -> bool:
        """Whether every attacker action at OR node ``state`` spends a turn, so that
        with no turn left the node is lost without generating its actions.

        A hint for provers (``False`` is always safe: the actions are then looked
        at).  The default is exact for problems that keep the default
        :meth:`counts_turn`; a problem with free actions (a Touché parry) says per
        state."""
        return type(self).counts_turn is AndOrProblem.counts_turn

    def wins_at_once(self, state: State) -> bool | None:
        """A cheap, exact leaf test (optional).  ``True``: the attacker's next counting
        action can win at once whatever the defender does before it, so ``state`` is
        won with one turn or more.  ``False`` (only at an attacker node): no action of
        the attacker wins at once, so with one turn left ``state`` is lost.  ``None``:
        no claim (the default)."""
        return None

    @abstractmethod
    def key(self, state: State) -> Hashable:
        """A transposition key: equal for states with equal futures."""

    @abstractmethod
    def format_state(self, state: State) -> str: ...

    @abstractmethod
    def format_action(self, state: State, action: Action) -> str: ...
