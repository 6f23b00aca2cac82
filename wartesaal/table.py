"""One game table of the Wartesaal: seats, the state, clocks, offers and the result.

A :class:`Table` is a plain value that the room loads from storage, changes with one
of the methods below and stores again in the same transaction; it never reads a clock
of its own (every method takes ``now``, seconds since the epoch) and never talks to
the network.  Every action is checked by the game's rules through the seam
(``Game.parse_action``, ``legal_actions``, ``apply``): the game is named by its slug
and resolved through the registry, so a table plays every registered game.

Numbers: ``version`` counts every accepted change of the game (an action, a take-back)
and never goes back.  A client acts by sending the version it last saw; the action is
accepted only if that is still the table's version, and then gets number
``version + 1``.  A resent action (the same seat, the same action, an older version)
is recognised by the room from the action log and answered without a second effect.

Clocks: ``clocks`` holds each seat's seconds as of ``turn_started``, the moment the
seat to act began its turn; the mover's time left at ``now`` is
``clocks[mover] - (now - turn_started)``.  Only the mover's clock runs.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from fechtbuch.engines.errors import InputError
from fechtbuch.wartesaal import roomrules
from fechtbuch.wartesaal.games import setup_of

RUNNING, FINISHED, ABORTED = "running", "finished", "aborted"
OFFER_KINDS = ("takeback", "abort", "rematch")
LEGAL_KEPT = 4096
"""Positions whose legal actions are kept (:meth:`Table.legal_texts`)."""
_legal: OrderedDict[tuple[str, str, str], tuple[str, ...]] = OrderedDict()
_legal_lock = threading.Lock()


class RoomError(InputError):
    """An action or request the room refuses; the message names the field."""


@dataclass
class Entry:
    """One accepted action: its number (the table's version after it), the seat, the
    action in the game's notation, the full states before and after (stored, never
    sent), the unit (a Touché duel's round) and when it was accepted."""

    number: int
    seat: int
    text: str
    before: str
    after: str
    unit: int
    at: float


@dataclass
class Table:
    id: str
    game: str
    variant: str
    seed: str
    seats: list[str]
    rated: bool
    clock_seconds: float | None
    stake: int
    state_text: str
    started_at: float
    turn_started: float
    clocks: list[float] | None = None
    mover: int | None = None
    """The seat to act in ``state_text`` (kept with it, so that clocks and time checks
    need not parse the state)."""
    status: str = RUNNING
    version: int = 0
    unit: int = 1
    actions: int = 0
    repetitions: dict[str, int] = field(default_factory=dict)
    offers: dict[str, list[int]] = field(default_factory=dict)
    away: dict[int, float] = field(default_factory=dict)
    result: list[float] | None = None
    reason: str | None = None
    finished_at: float | None = None
    rematch: str | None = None
    repetition_offered: bool = False
    last_minute: bool = False
    """Without a clock: the mover has entered the last minute of the Notbremse (the
    room then tells everyone at the table)."""
    settlement: dict[str, dict[str, float]] | None = None
    """Once the game is settled: per member (guests have no account) the change of
    ``points``, ``elo`` and ``taler`` it brought, so the table can show it."""

    # ---- creation ---------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        table_id: str,
        game: str,
        variant: str,
        seed: str,
        seats: list[str],
        rated: bool,
        clock_seconds: float | None,
        stake: int,
        now: float,
    ) -> Table:
        setup = setup_of(game)
        state = setup.deal(variant, seed)
        text = setup.game_for(variant).format_state(state)
        table = cls(
            id=table_id,
            game=setup.game.info.name,
            variant=variant,
            seed=seed,
            seats=list(seats),
            rated=rated,
            clock_seconds=clock_seconds,
            stake=stake,
            state_text=text,
            started_at=now,
            turn_started=now,
            clocks=None if clock_seconds is None else [float(clock_seconds)] * len(seats),
            mover=setup.game_for(variant).current_player(state),
        )
        table.repetitions[position_key(text)] = 1
        return table

    # ---- reading ----------------------------------------------------------------------
    # The set-up, the rules and the parsed state are kept on the object (not fields: not
    # stored): an action and the views after it asked the registry and parsed the
    # state several times each.  States are immutable values (engines/game.py).
    @property
    def setup(self):
        found = self.__dict__.get("_setup")
        if found is None:
            found = self.__dict__["_setup"] = setup_of(self.game)
        return found

    @property
    def rules(self):
        """The :class:`~fechtbuch.engines.game.Game` this table plays."""
        found = self.__dict__.get("_rules")
        if found is None:
            found = self.__dict__["_rules"] = self.setup.game_for(self.variant)
        return found

    @property
    def state(self) -> Any:
        parsed = self.__dict__.get("_parsed")
        if parsed is not None and parsed[0] == self.state_text:
            return parsed[1]
        state = self.rules.parse_state(self.state_text)
        self.__dict__["_parsed"] = (self.state_text, state)
        return state

    def legal_texts(self) -> tuple[str, ...]:
        """The legal actions in the state, in the game's notation.  Kept for the
        latest :data:`LEGAL_KEPT` positions of the process: the mover's view lists them
        and the action that follows is checked against them (they depend on nothing
        but the state)."""
        key = (self.game, self.variant, self.state_text)
        with _legal_lock:
            found = _legal.get(key)
        if found is not None:
            return found
        game, state = self.rules, self.state
        found = tuple(game.format_action(state, a) for a in game.legal_actions(state))
        with _legal_lock:
            _legal[key] = found
            while len(_legal) > LEGAL_KEPT:
                _legal.popitem(last=False)
        return found

    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is not running."""
        if self.status != RUNNING:
            return None
        return self.mover

    def seat_of(self, name: str) -> int | None:
        return self.seats.index(name) if name in self.seats else None

    def clocks_at(self, now: float) -> list[float] | None:
        """Every seat's seconds left at ``now`` (never below zero)."""
        if self.clocks is None:
            return None
        left = list(self.clocks)
        mover = self.to_act()
        if mover is not None:
            left[mover] -= now - self.turn_started
        return [max(0.0, x) for x in left]

    def enter_last_minute(self, now: float) -> bool:
        """True once, when the mover's last minute without a clock begins (the room
        pushes the table so that both sides see it count down)."""
        deadline = self.move_deadline()
        if deadline is None or self.last_minute:
            return False
        if now < deadline - roomrules.NO_CLOCK_WARNING_SECONDS:
            return False
        self.last_minute = True
        return True

    def move_deadline(self) -> float | None:
        """Without a clock: when the mover's action loses ("Notbremse")."""
        if self.clocks is not None or self.status != RUNNING:
            return None
        return self.turn_started + roomrules.NO_CLOCK_MOVE_SECONDS

    # ---- time ------------------------------------------------------------------------
    def next_check(self) -> float | None:
        """The first moment at which :meth:`check_time` or :meth:`enter_last_minute`
        can change this table (``None``: time never will, the game is over), so that
        the room's tick looks only at the tables whose moment has come."""
        if self.status != RUNNING:
            return None
        moments = [since + roomrules.RECONNECT_GRACE_SECONDS for since in self.away.values()]
        if self.clocks is not None and self.mover is not None:
            moments.append(self.turn_started + self.clocks[self.mover])
        deadline = self.move_deadline()
        if deadline is not None:
            warning = deadline - roomrules.NO_CLOCK_WARNING_SECONDS
            moments.append(deadline if self.last_minute else warning)
        return min(moments, default=None)

    def check_time(self, now: float) -> bool:
        """End the game if the mover's time ran out, the mover overstepped the ten
        minutes without a clock, or a seat stayed away past the reconnect grace.
        True when the game ended here."""
        if self.status != RUNNING:
            return False
        mover = self.to_act()
        if self.clocks is not None and self.clocks_at(now)[mover] <= 0:
            self._lose([mover], "time", now)
            return True
        deadline = self.move_deadline()
        if deadline is not None and now > deadline:
            self._lose([mover], "move limit", now)
            return True
        gone = sorted(
            seat
            for seat, since in self.away.items()
            if now - since > roomrules.RECONNECT_GRACE_SECONDS
        )
        if gone:
            self._lose(gone, "left", now)
            return True
        return False

    def set_away(self, seat: int, since: float | None) -> None:
        """Mark ``seat`` away since ``since`` (its last connection closed) or back."""
        if since is None:
            self.away.pop(seat, None)
        elif self.status == RUNNING:
            self.away.setdefault(seat, since)

    # ---- acting ----------------------------------------------------------------------
    def act(self, seat: int, seq: int, text: str, now: float) -> Entry:
        """Apply ``text`` for ``seat`` if it is that seat's turn and ``seq`` is the
        current version; the new log entry.  A :class:`RoomError` otherwise (the
        room first answers resent actions from the log)."""
        self._running("act")
        if self.check_time(now):
            raise RoomError(f"action: the game ended first ({self.reason})")
        if seq != self.version:
            raise RoomError(f"seq: the table is at {self.version}, not {seq}")
        mover = self.to_act()
        if seat != mover:
            raise RoomError(f"seat: it is seat {mover}'s turn, not seat {seat}'s")
        game = self.rules
        state = self.state
        try:
            action = game.parse_action(state, text[:200])
        except InputError as err:
            raise RoomError(f"action: {err}") from None
        canonical = game.format_action(state, action)
        if canonical not in self.legal_texts():
            raise RoomError(f"action: {canonical!r} is not legal here")
        after = game.apply(state, action)
        before_text = self.state_text
        after_text = game.format_state(after)
        entry = Entry(self.version + 1, seat, canonical, before_text, after_text, self.unit, now)
        self.version += 1
        self.actions += 1
        if self.clocks is not None:
            self.clocks[seat] -= now - self.turn_started
        self.turn_started = now
        self.last_minute = False
        self.offers.pop("takeback", None)
        self.offers.pop("abort", None)
        self.repetition_offered = False
        if game.is_terminal(after):
            following = self.setup.next_unit(after, self.seed, self.unit + 1)
            if following is None:
                self.state_text = after_text
                self._finish(list(game.returns(after)), "game over", now)
                return entry
            self.unit += 1
            self.repetitions = {}
            after = following
            after_text = game.format_state(following)
        self.state_text = after_text
        self.__dict__["_parsed"] = (after_text, after)
        self.mover = game.current_player(after)
        key = position_key(after_text)
        self.repetitions[key] = self.repetitions.get(key, 0) + 1
        if self.repetitions[key] >= roomrules.REPETITION_OFFER:
            # the room offers the Abbruch on everyone's behalf; playing on declines it
            self.offers["abort"] = []
            self.repetition_offered = True
        return entry

    def resign(self, seat: int, now: float) -> None:
        """``seat`` leaves the running game and loses it."""
        self._running("resign")
        self._lose([seat], "resigned", now)

    # ---- offers ----------------------------------------------------------------------
    def offer(self, seat: int, kind: str, last: Entry | None, now: float) -> bool:
        """``seat`` offers or accepts ``kind``; True when everyone agrees (the room
        then carries it out: :meth:`take_back`, the Abbruch here, a rematch table)."""
        if kind not in OFFER_KINDS:
            raise RoomError(f"offer: expected one of {', '.join(OFFER_KINDS)}, got {kind[:40]!r}")
        if kind == "rematch":
            if self.status == RUNNING:
                raise RoomError("offer: a Revanche is offered after the game")
            if self.rematch is not None:
                raise RoomError(f"offer: the Revanche is already table {self.rematch}")
        else:
            self._running("offer")
            if self.check_time(now):
                raise RoomError(f"offer: the game ended first ({self.reason})")
        if kind == "takeback":
            if self.rated:
                raise RoomError("offer: Zurücknehmen only in a friendly game")
            if last is None or last.unit != self.unit:
                raise RoomError("offer: there is no action of this round to take back")
            if "takeback" not in self.offers and last.seat != seat:
                raise RoomError("offer: only the seat of the last action asks to take it back")
        agreed = self.offers.setdefault(kind, [])
        if seat not in agreed:
            agreed.append(seat)
        if len(agreed) < len(self.seats):
            return False
        del self.offers[kind]
        if kind == "abort":
            self._finish(None, "abort by consent", now, status=ABORTED)
        return True

    def decline(self, seat: int, kind: str) -> None:
        if self.offers.pop(kind, None) is None:
            raise RoomError(f"answer: no {kind[:40]!r} offer is open")
        self.repetition_offered = self.repetition_offered and kind != "abort"

    def take_back(self, last: Entry, now: float) -> None:
        """Undo ``last`` (every seat agreed); the version still goes up."""
        key = position_key(self.state_text)
        if self.repetitions.get(key, 0) > 0:
            self.repetitions[key] -= 1
        self.state_text = last.before
        self.mover = self.rules.current_player(self.rules.parse_state(last.before))
        self.version += 1
        self.actions -= 1
        self.turn_started = now
        self.last_minute = False

    # ---- endings ---------------------------------------------------------------------
    def _lose(self, losers: list[int], reason: str, now: float) -> None:
        returns = [0.0 if seat in losers else 1.0 for seat in range(len(self.seats))]
        self._finish(returns, reason, now)

    def _finish(
        self, returns: list[float] | None, reason: str, now: float, status: str = FINISHED
    ) -> None:
        if self.clocks is not None:
            self.clocks = self.clocks_at(now)
        self.status, self.result, self.reason, self.finished_at = status, returns, reason, now
        self.offers = {}
        self.away = {}

    def counted(self) -> bool:
        """Whether the finished game changes points, Elo and Taler."""
        if self.status != FINISHED or self.result is None or self.finished_at is None:
            return False
        return roomrules.counted(self.rated, self.actions, self.finished_at - self.started_at)

    def _running(self, what: str) -> None:
        if self.status != RUNNING:
            raise RoomError(f"{what}: the game is over ({self.reason})")


def position_key(state_text: str) -> str:
    """The identity of a position for the repetition rule: the full state's notation
    (pieces, cards, the player to act), hashed to keep stored counts short."""
    return hashlib.sha256(state_text.encode()).hexdigest()[:16]
