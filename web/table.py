"""One game being played in the browser, for every game: the server's authority.

A :class:`Table` holds the states of one game, who sits where (a person, or a
computer of some strength) and the move list.  Every action a page sends is one
of the legal actions' notations that the plugin's rules engine gave; anything
else is refused with an :class:`ActionRefused` naming what was wrong, and the
table is unchanged.  Computer seats move through the same engine.

Undo ("Zug zurück") goes back to the last state where a person was to act, before
that person's last action, and marks the game as played with help; so does a hint
("Rat").  The rotation of a hotseat board and the hiding of hands between turns
are the page's and the server's business (``reveal``); the table only says whose
turn it is.

Time, as the rulebook's "Notbremse" and the optional clock want it, is kept here too
(``now`` is injectable): with a clock every person's move is charged to its seat and
a seat whose time runs out loses; without one a single move of a person that takes
longer than :data:`MOVE_LIMIT` loses the game.  The page only shows the countdown;
it asks the server (``flag``) when its display reaches zero.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from fechtbuch.engines.clock import GameClock
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.seeding import sha256_text
from fechtbuch.web.webgame import Chooser, Start, WebGame

MOVE_LIMIT = 600.0
"""Seconds a person may take for one move in a game without a clock (ten minutes)."""


class ActionRefused(InputError):
    """An action the table does not take now (illegal, out of turn, game over).

    The message stays English, like the command line's (the log reads it); ``key``
    and ``args`` word it for the page in its language (a message key of the generic
    catalogue; an argument ``{"key": name}`` is a seat's name, worded if it is a key)."""

    def __init__(self, message: str, key: str | None = None, **args: object) -> None:
        super().__init__(message)
        self.key = key
        self.text_args = args


@dataclass
class Played:
    """One action in the move list."""

    seat: int
    text: str
    """The action in the game's notation (the move list's short form)."""
    explanation: dict
    """A message key and its arguments (the page's catalogue words it)."""
    by_computer: bool
    before: int
    """The index in ``Table.states`` of the state the action was played in."""


@dataclass
class Table:
    """One game in progress (see the module docstring)."""

    game: Game
    web: WebGame
    slug: str
    mode: str
    start: Start
    seed: str
    computers: dict[int, Chooser] = field(default_factory=dict)
    strengths: dict[int, str] = field(default_factory=dict)
    hinter: Callable[[Any], Any] | None = None
    states: list[Any] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    helped: bool = False
    clock: GameClock | None = None
    now: Callable[[], float] = time.monotonic
    loser: int | None = None
    """The seat that lost by resigning or by time, if one did."""
    ended_by: str | None = None
    """``resigned``, ``time`` or ``aborted`` when the rules did not end the game."""
    finished: bool = False
    turn_started: float = 0.0

    prelude: Any = None

    def __post_init__(self) -> None:
        if self.start.prelude is not None:
            self.prelude = self.start.prelude
        elif not self.states:
            self.states = [self.start.state]
        self.turn_started = self.now()

    def _after_prelude(self) -> None:
        """Once the prelude is done its result is the game's first state."""
        if self.prelude.to_choose() is not None:
            return
        first = self.prelude.result()
        self.start = replace(self.start, state=first, prelude=None)
        self.prelude, self.states = None, [first]
        self.turn_started = self.now()

    # ---- facts ---------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def names(self) -> tuple[str, ...]:
        return self.web.seat_names(self.states[-1] if self.states else None)

    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        if self.finished:
            return None
        if self.prelude is not None:
            return self.prelude.to_choose()
        return self.game.current_player(self.state)

    def person_to_act(self) -> bool:
        seat = self.to_act()
        return seat is not None and seat in self.start.people

    def legal(self) -> dict[str, Any]:
        """Every legal action now, by its notation (none once the game is over)."""
        if self.to_act() is None:
            return {}
        if self.prelude is not None:
            return self.prelude.choices()
        state = self.state
        return {self.game.format_action(state, a): a for a in self.game.legal_actions(state)}

    def repetitions(self) -> int:
        """How often the current state has stood on the board in this game."""
        if not self.states:
            return 0
        keys: Counter[Hashable] = Counter(self.game.state_key(s) for s in self.states)
        return keys[self.game.state_key(self.state)]

    def result(self) -> tuple[float, ...] | None:
        """Per seat 1 win, 0 loss (``None`` while the game goes on)."""
        if not self.finished:
            return None
        if self.ended_by == "aborted":
            return None
        if self.loser is not None:
            seats = len(self.names)
            return tuple(0.0 if seat == self.loser else 1.0 for seat in range(seats))
        return self.web.result(self.game, self.state)

    def time_left(self) -> dict:
        """What the page counts down: per seat the clock's seconds, and for the seat
        to act the seconds of its move (the move limit without a clock)."""
        seat = self.to_act()
        spent = self.now() - self.turn_started
        out: dict = {"clock": None, "seat": seat, "move_left": None}
        if self.clock is not None:
            left = list(self.clock.left)
            if seat is not None and seat in self.start.people:
                left[seat] -= spent
            out["clock"] = [max(0.0, round(x, 1)) for x in left]
        elif seat is not None and seat in self.start.people:
            out["move_left"] = max(0.0, round(MOVE_LIMIT - spent, 1))
        return out

    def check_time(self) -> bool:
        """End the game if the person to act is out of time; True if it ended."""
        seat = self.to_act()
        if seat is None or seat not in self.start.people:
            return False
        spent = self.now() - self.turn_started
        out = self.clock.left[seat] - spent <= 0 if self.clock is not None else spent > MOVE_LIMIT
        if out:
            if self.clock is not None:
                self.clock.spend(seat, spent)
            self.loser, self.ended_by, self.finished = seat, "time", True
        return out

    # ---- actions -------------------------------------------------------
    def act(self, text: object) -> Played | None:
        """A person's action, by its notation."""
        if not isinstance(text, str):
            raise ActionRefused(f"action: expected the action's notation as text, got {text!r:.80}")
        seat = self.to_act()
        if seat is None:
            raise ActionRefused("action: the game is over", "error.over")
        if seat not in self.start.people:
            raise ActionRefused(
                f"action: it is the computer's turn ({self.names[seat]}), not yours",
                "error.computer_turn",
                name={"key": self.names[seat]},
            )
        legal = self.legal()
        if text not in legal:
            raise ActionRefused(f"action: {quote(text)} is not legal here", "error.illegal")
        if self.check_time():
            raise ActionRefused(
                f"action: too late, {self.names[seat]} is out of time",
                "error.too_late",
                name={"key": self.names[seat]},
            )
        if self.clock is not None:
            self.clock.spend(seat, self.now() - self.turn_started)
        if self.prelude is not None:
            self.prelude.choose(text)
            self.turn_started = self.now()
            self._after_prelude()
            return None
        return self._apply(seat, text, legal[text], by_computer=False)

    def computer_move(self) -> Played | None:
        """The computer's action if a computer seat is to act (else ``None``)."""
        seat = self.to_act()
        if seat is None or seat not in self.computers:
            return None
        thinking = self.now()
        if self.prelude is not None:
            self.prelude.choose(self.prelude.computer_choice())
            self.turn_started = self.now()
            self._after_prelude()
            return None
        action = self.computers[seat](self.state, tuple(self.states[:-1]))
        if self.clock is not None:
            self.clock.spend(seat, self.now() - thinking)
        text = self.game.format_action(self.state, action)
        if text not in self.legal():  # the engine's own player: a bug, not bad input
            raise RuntimeError(f"the computer chose an illegal action {text!r}")
        return self._apply(seat, text, action, by_computer=True)

    def _apply(self, seat: int, text: str, action: Any, by_computer: bool) -> Played:
        state = self.state
        explanation = self.web.explain(self.game, state, action, self.names)
        after = self.game.apply(state, action)
        entry = Played(seat, text, explanation, by_computer, len(self.states) - 1)
        self.played.append(entry)
        self.states.append(after)
        if self.game.is_terminal(after):
            following = self.web.next_round(self.game, self.states, self.seed)
            if following is None:
                self.finished = True
            else:
                self.states.append(following)
        self.turn_started = self.now()
        return entry

    def resign(self) -> None:
        seat = self.to_act()
        if seat is None:
            raise ActionRefused("resign: the game is over", "error.over")
        people = self.start.people
        self.loser = seat if seat in people else people[0]
        self.ended_by, self.finished = "resigned", True

    def abort(self) -> None:
        """End the game without a result (offered after a threefold repetition)."""
        if self.to_act() is None:
            raise ActionRefused("abort: the game is over", "error.over")
        if self.repetitions() < 3:
            raise ActionRefused(
                "abort: only after the same position stood three times", "error.abort"
            )
        self.ended_by, self.finished = "aborted", True

    def undo(self) -> None:
        """Take back the last action of a person (and the computer's replies to it)."""
        people = self.start.people
        for index in range(len(self.played) - 1, -1, -1):
            if self.played[index].seat in people and not self.played[index].by_computer:
                self._cut(index)
                self.helped = True
                return
        raise ActionRefused("undo: there is no move of yours to take back", "error.undo")

    def _cut(self, played_index: int) -> None:
        """Back to the state before ``played[played_index]``."""
        kept = self.played[:played_index]
        states = [self.start.state]
        replay = Table(
            self.game, self.web, self.slug, self.mode, self.start, self.seed, states=states
        )
        for entry in kept:
            legal = replay.legal()
            replay._apply(entry.seat, entry.text, legal[entry.text], entry.by_computer)
        self.states, self.played = replay.states, replay.played
        self.finished, self.loser, self.ended_by = False, None, None
        self.turn_started = self.now()

    def hint(self) -> str:
        """A good action for the person to act (the game counts as played with help)."""
        if not self.person_to_act():
            raise ActionRefused("hint: it is not your turn", "error.hint_turn")
        if self.hinter is None or self.prelude is not None:
            raise ActionRefused("hint: this game has no hint here", "error.no_hint")
        action = self.hinter(self.state)
        self.helped = True
        return self.game.format_action(self.state, action)


def derived_seed(*parts: object) -> str:
    """A seed text derived by SHA-256 from ``parts`` (hex, 16 digits)."""
    return sha256_text("/".join(str(p) for p in parts)).hex()[:16]
