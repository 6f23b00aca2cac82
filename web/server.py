"""The browser front end's server: Starlette, one WebSocket per page.

Why Starlette with uvicorn: a small ASGI toolkit with WebSockets, static files and
an in-process test client (``starlette.testclient``), no template engine or ORM we
would not use; uvicorn is its usual server.  The page (``web/static``) is plain
HTML, CSS and JavaScript, shipped in the wheel as package data.

The server is authoritative (docs/web.md, "Protocol"): each page's socket owns
its tables, every action is checked against the rules engine by
:class:`~fechtbuch.web.table.Table`, and a bad message (malformed JSON, an unknown
type or id, an illegal or out-of-turn action) is answered with an ``error``
message and logged; the connection stays open.  A page that goes away while the
computer thinks is let go quietly.  Games come from the registry: every plugin
with a ``web`` reference is offered, and nothing here names a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from fechtbuch.engines.clock import GameClock
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.jsontext import NotJSON, loads_checked
from fechtbuch.engines.plugin import GamePlugin, load
from fechtbuch.engines.registry import plugins
from fechtbuch.web.puzzle import PuzzleTable, ShippedPack, available_packs, open_puzzle
from fechtbuch.web.store import Store
from fechtbuch.web.table import ActionRefused, Table, derived_seed
from fechtbuch.web.webgame import WebGame, check_language, game_static, page_texts, seat_chooser
from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

LOG = logging.getLogger("fechtbuch.web")

MAX_MESSAGE = 4096
"""A longer message is refused unread: no message of the protocol needs more."""
MAX_NESTING = 16
"""Levels of brackets a message may nest (the outer object is one); ``options`` needs two."""
MAX_NUMBER = 2**53 - 1
"""The largest size of a number in a message (what the page's JavaScript holds exactly)."""
BINARY_REFUSED = {"type": "error", "message": "message: expected a text frame, got a binary one"}

MODES = ("computer", "hotseat", "daily")

NOTHING_HIDDEN = -1
"""``Connection.revealed`` of a table that hides nothing between turns."""

CLOCK_MINUTES = ("0", "5", "10", "20")
"""The clock choices of every game (0: no clock, a single move over ten minutes loses)."""


@dataclass(frozen=True)
class WebEntry:
    """A game the server offers: its plugin and its web play."""

    plugin: GamePlugin
    web: WebGame

    @property
    def game(self):
        return load(self.plugin.game)

    def players(self):
        return None if self.plugin.players is None else load(self.plugin.players)


def web_games() -> dict[str, WebEntry]:
    """Every registered game with web play, by slug."""
    return {p.slug: WebEntry(p, load(p.web)) for p in plugins() if p.web is not None}


@dataclass
class Connection:
    """One page's socket: its tables by id."""

    socket: WebSocket
    tables: dict[str, Table | PuzzleTable] = field(default_factory=dict)
    revealed: dict[str, int | None] = field(default_factory=dict)
    """Hotseat games with hidden hands: the seat whose hand the page may show
    (``None``: covered); :data:`NOTHING_HIDDEN` for every other table."""
    daily_days: dict[str, dt.date] = field(default_factory=dict)
    """Tables that count for the daily streak, with their day."""
    counted: set[str] = field(default_factory=set)
    """Tables whose result is in the store already."""
    next_id: int = 1


class Server:
    """The message handlers; ``today`` and ``seed`` are injectable for tests."""

    def __init__(
        self,
        store: Store,
        today: Callable[[], dt.date] | None = None,
        seed: Callable[[], str] | None = None,
        now: Callable[[], float] | None = None,
        packs: tuple[ShippedPack, ...] | None = None,
        watch_seconds: float = 1.0,
    ):
        self.store = store
        self.packs = available_packs() if packs is None else packs
        """The packs the menu offers: the shipped ones and those given to ``--pack``."""
        self.now = now or time.monotonic
        self.today = today or (lambda: dt.datetime.now(dt.timezone.utc).date())
        self.seed = seed or (lambda: os.urandom(8).hex())
        self.games = web_games()
        self.watch_seconds = watch_seconds
        """How often a quiet page's games are checked for a person out of time."""

    # ---- the socket loop ----------------------------------------------------
    async def serve_socket(self, socket: WebSocket) -> None:
        await socket.accept()
        conn = Connection(socket)
        receiving: asyncio.Future | None = None
        try:
            await self._send(conn, self.catalogue())
            receiving = asyncio.ensure_future(socket.receive())
            while True:
                # the clock is the server's: a page that sends nothing still loses on
                # time, so the time is checked whenever the page stays quiet a while
                done, _ = await asyncio.wait({receiving}, timeout=self.watch_seconds)
                if not done:
                    await self._watch_clocks(conn)
                    continue
                frame = receiving.result()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                receiving = asyncio.ensure_future(socket.receive())
                if frame.get("text") is None:
                    # a binary frame: the protocol is text, and the page stays served
                    LOG.warning("refused: a binary frame")
                    await self._send(conn, BINARY_REFUSED)
                    continue
                await self._handle(conn, frame["text"])
        except WebSocketDisconnect:
            LOG.info("page left (%d tables)", len(conn.tables))
        finally:
            if receiving is not None and not receiving.done():
                receiving.cancel()

    async def _watch_clocks(self, conn: Connection) -> None:
        """End every game of the page whose person to act is out of time, and say so."""
        for table_id, table in list(conn.tables.items()):
            if isinstance(table, Table) and not table.finished and table.check_time():
                LOG.info("table %s: out of time", table_id)
                await self._send(conn, self.table_message(conn, table_id))
                self._count_game(conn, table_id, table)

    async def _handle(self, conn: Connection, text: str) -> None:
        try:
            message = parse_message(text)
            await self._dispatch(conn, message)
        except InputError as err:
            LOG.warning("refused: %s", err)
            await self._send(conn, error_message(err))
        except WebSocketDisconnect:
            raise
        except Exception as err:  # a bug must not end the page's game: say it, log it
            LOG.exception("internal error on %s", quote(text, 200))
            await self._send(conn, {"type": "error", "message": f"internal: {err}"[:300]})

    async def _send(self, conn: Connection, message: dict) -> None:
        await conn.socket.send_text(json.dumps(message, ensure_ascii=False))

    async def _dispatch(self, conn: Connection, message: dict) -> None:
        kind = message["type"]
        if kind == "new":
            # a new game may take seconds (the daily duel is derived and proved fair):
            # in a worker thread, so other pages are served meanwhile
            table_id = await asyncio.to_thread(self._new_table, conn, message)
            await self._after_change(conn, table_id)
        elif kind == "exercise":
            table = open_puzzle(message.get("pack"), message.get("number"), self.packs)
            table_id = self._register(conn, table)
            await self._send(conn, self.puzzle_message(table_id, table))
        elif kind == "saved":
            await self._send(conn, self.saved_message(_field(message, "game", str)))
        elif kind == "replay":
            await self._send(conn, self.replay_message(message))
        elif kind == "analyse-replay":  # seconds of search: in a worker thread
            report = await asyncio.to_thread(self.replay_analysis_message, message)
            await self._send(conn, report)
        elif kind == "records":
            await self._send(conn, self.records_message(_field(message, "game", str)))
        elif kind in TABLE_MESSAGES:
            table_id = _field(message, "table", str)
            if table_id not in conn.tables:
                raise InputError(f"table: unknown table {quote(table_id)}")
            await TABLE_MESSAGES[kind](self, conn, table_id, message)
        else:
            raise InputError(f"type: unknown message type {quote(kind)}")

    # ---- new games ----------------------------------------------------------
    def _register(self, conn: Connection, table: Table | PuzzleTable) -> str:
        table_id = f"t{conn.next_id}"
        conn.next_id += 1
        conn.tables[table_id] = table
        return table_id

    def _entry(self, slug: object) -> WebEntry:
        if not isinstance(slug, str) or slug not in self.games:
            known = ", ".join(self.games)
            raise InputError(f"game: unknown game {quote(slug)}; known: {known}")
        return self.games[slug]

    def _new_table(self, conn: Connection, message: dict) -> str:
        entry = self._entry(message.get("game"))
        mode = message.get("mode")
        if mode not in entry.web.modes or mode not in MODES:
            offered = ", ".join(m for m in entry.web.modes if m in MODES)
            raise InputError(f"mode: {quote(mode)} is not one of {offered}")
        options = message.get("options", {})
        if not isinstance(options, dict):
            raise InputError("options: expected an object")
        seed = options.get("seed")
        if seed is None:
            seed = self.seed()
        elif not isinstance(seed, str) or not 0 < len(seed) <= 64:
            raise InputError(f"seed: expected text of 1 to 64 characters, got {seed!r:.80}")
        day = None
        if mode == "daily":
            day = self.today()
            options = {**options, "day": day.isoformat()}
        game = entry.game
        start = entry.web.start(game, mode, options, seed)
        factory = entry.players()
        computers, strengths = {}, {}
        if mode in ("computer", "daily"):
            if factory is None:
                raise InputError(f"mode: {entry.plugin.title} has no computer players")
            strength = start.facts.get("strength") or options.get("strength")
            if strength not in factory.strengths:
                known = ", ".join(factory.strengths)
                raise InputError(f"strength: {quote(strength)} is not one of {known}")
            for seat in range(len(entry.web.seat_names(start.state))):
                if seat not in start.people:
                    seat_seed = int(derived_seed(seed, seat), 16)
                    computers[seat] = entry.web.computer(factory, strength, seat_seed)
                    strengths[seat] = strength
        hinter = None
        if factory is not None and entry.web.hint_strength is not None and mode != "hotseat":
            hint_seed = int(derived_seed(seed, "hint"), 16)
            chooser = seat_chooser(factory, entry.web.hint_strength, hint_seed)
            hinter = lambda state: chooser(state, ())  # noqa: E731 (the table's hinter)
        minutes = options.get("clock", "0") if mode != "daily" else "0"
        if minutes not in CLOCK_MINUTES:
            raise InputError(f"clock: {quote(minutes)} is not one of {', '.join(CLOCK_MINUTES)}")
        clock = None
        if minutes != "0":
            clock = GameClock.minutes(int(minutes), len(entry.web.seat_names(start.state)))
        table = Table(
            game,
            entry.web,
            entry.plugin.slug,
            mode,
            start,
            seed,
            computers,
            strengths,
            hinter,
            clock=clock,
            now=self.now,
        )
        table_id = self._register(conn, table)
        if day is not None and self.store.book_daily(entry.plugin.slug, day):
            conn.daily_days[table_id] = day
        hidden = game.info.hidden_information and mode == "hotseat"
        conn.revealed[table_id] = None if hidden else NOTHING_HIDDEN
        LOG.info("new %s %s table %s seed %s", entry.plugin.slug, mode, table_id, seed)
        return table_id

    # ---- table messages -----------------------------------------------------
    async def _act(self, conn: Connection, table_id: str, message: dict) -> None:
        table = conn.tables[table_id]
        if isinstance(table, PuzzleTable):
            table.act(message.get("action"))
            self._count_puzzle(conn, table_id, table)
            await self._send(conn, self.puzzle_message(table_id, table))
            return
        if conn.revealed.get(table_id, NOTHING_HIDDEN) is None:
            raise ActionRefused("action: the hand is covered; reveal it first", "error.covered")
        table.act(message.get("action"))
        if conn.revealed.get(table_id, NOTHING_HIDDEN) != NOTHING_HIDDEN:
            conn.revealed[table_id] = None  # cover the hand: the device changes hands
        await self._after_change(conn, table_id)

    async def _after_change(self, conn: Connection, table_id: str) -> None:
        """Send the table, then let computer seats move (in a worker thread, so the
        server goes on serving other pages while one thinks)."""
        table = conn.tables[table_id]
        assert isinstance(table, Table)
        await self._send(conn, self.table_message(conn, table_id))
        while table.to_act() is not None and table.to_act() in table.computers:
            await asyncio.to_thread(table.computer_move)
            await self._send(conn, self.table_message(conn, table_id))
        self._count_game(conn, table_id, table)

    async def _undo(self, conn: Connection, table_id: str, message: dict) -> None:
        table = conn.tables[table_id]
        table.undo()
        if isinstance(table, PuzzleTable):
            await self._send(conn, self.puzzle_message(table_id, table))
        else:
            await self._send(conn, self.table_message(conn, table_id))

    async def _hint(self, conn: Connection, table_id: str, message: dict) -> None:
        table = conn.tables[table_id]
        if isinstance(table, PuzzleTable):
            text = table.solution()
        else:
            if conn.revealed.get(table_id, NOTHING_HIDDEN) is None:
                raise ActionRefused("hint: the hand is covered; reveal it first", "error.covered")
            text = await asyncio.to_thread(table.hint)
        await self._send(conn, {"type": "hint", "table": table_id, "action": text})

    async def _resign(self, conn: Connection, table_id: str, message: dict) -> None:
        table = self._game_table(conn, table_id, "resign")
        table.resign()
        self._count_game(conn, table_id, table)
        await self._send(conn, self.table_message(conn, table_id))

    async def _analyse(self, conn: Connection, table_id: str, message: dict) -> None:
        table = self._game_table(conn, table_id, "analyse")
        if not table.finished:
            raise ActionRefused("analyse: the game is not over yet")
        # the state each action was played in (a game of rounds deals between them)
        states = [table.states[e.before] for e in table.played] + [table.state]
        texts = [entry.text for entry in table.played]
        report = await asyncio.to_thread(table.web.analyse, table.game, states, texts)
        if report is None:
            raise InputError(f"analyse: {table.slug} has no analysis after a game")
        await self._send(conn, {"type": "analysis", "table": table_id, **report})

    async def _abort(self, conn: Connection, table_id: str, message: dict) -> None:
        table = self._game_table(conn, table_id, "abort")
        table.abort()
        await self._send(conn, self.table_message(conn, table_id))

    async def _flag(self, conn: Connection, table_id: str, message: dict) -> None:
        """The page's countdown reached zero: the server checks its own time."""
        table = self._game_table(conn, table_id, "flag")
        if table.check_time():
            self._count_game(conn, table_id, table)
        await self._send(conn, self.table_message(conn, table_id))

    def _game_table(self, conn: Connection, table_id: str, what: str) -> Table:
        table = conn.tables[table_id]
        if isinstance(table, PuzzleTable):
            raise InputError(f"{what}: an exercise has no {what}")
        return table

    async def _reveal(self, conn: Connection, table_id: str, message: dict) -> None:
        table = conn.tables[table_id]
        hides = conn.revealed.get(table_id, NOTHING_HIDDEN) != NOTHING_HIDDEN
        if isinstance(table, PuzzleTable) or not hides:
            raise InputError("reveal: this table hides no hand")
        conn.revealed[table_id] = table.to_act()
        await self._send(conn, self.table_message(conn, table_id))

    # ---- what is remembered ---------------------------------------------------
    def _count_game(self, conn: Connection, table_id: str, table: Table) -> None:
        result = table.result()
        if result is None or table_id in conn.counted:
            return
        conn.counted.add(table_id)
        person = table.start.people[0]
        won = result[person] > max(r for s, r in enumerate(result) if s != person)
        if table.mode == "computer":
            strength = next(iter(table.strengths.values()))
            self.store.count_game(table.slug, strength, won, table.helped)
        if table_id in conn.daily_days:
            self.store.finish_daily(table.slug, conn.daily_days[table_id], "won" if won else "lost")
        self.store.save_game(
            table.slug,
            table.mode,
            {
                "start": table.game.format_state(table.start.state),
                "moves": [entry.text for entry in table.played],
                "before": [entry.before for entry in table.played],
                "states": [table.game.format_state(state) for state in table.states],
                "names": list(table.names),
                "people": list(table.start.people),
                "result": list(result),
                "helped": table.helped,
            },
        )

    def _count_puzzle(self, conn: Connection, table_id: str, table: PuzzleTable) -> None:
        if not table.finished or table_id in conn.counted:
            return
        conn.counted.add(table_id)
        self.store.count_attempt(table.game, table.puzzle["id"], table.solved, table.helped)

    # ---- messages to the page -----------------------------------------------
    def catalogue(self) -> dict:
        games = []
        for slug, entry in self.games.items():
            games.append(
                {
                    "slug": slug,
                    "title": entry.plugin.title,
                    "modes": [m for m in entry.web.modes if m in (*MODES, "exercise")],
                    "analysis": entry.web.analysis,
                    "setup": {
                        **entry.web.setup(entry.players()),
                        "clock": {"choices": list(CLOCK_MINUTES), "default": "0"},
                    },
                    "script": f"/games/{slug}/{entry.web.script}",
                    "style": None
                    if entry.web.style is None
                    else f"/games/{slug}/{entry.web.style}",
                }
            )
        packs = [
            {"name": p.name, "game": p.game, "count": p.count, "ids": list(p.ids)}
            for p in self.packs
            if p.game in self.games
        ]
        return {"type": "catalogue", "games": games, "packs": packs}

    def records_message(self, slug: str) -> dict:
        self._entry(slug)
        today = self.today()
        return {
            "type": "records",
            "game": slug,
            "record": self.store.records(slug),
            "exercises": self.store.exercises(slug),
            "streak": self.store.streak(slug, today),
            "daily_today": self.store.daily(slug).get(today.isoformat()),
            "saved": len(self.store.saved_games(slug)),
        }

    def saved_message(self, slug: str) -> dict:
        self._entry(slug)
        games = [
            {
                "id": saved["id"],
                "mode": saved["mode"],
                "at": saved["at"],
                "result": saved["record"]["result"],
                "moves": len(saved["record"]["moves"]),
            }
            for saved in self.store.saved_games(slug)
        ]
        return {"type": "saved", "game": slug, "games": games}

    def _saved_game(self, message: dict) -> tuple[WebEntry, dict, list]:
        """The saved game a message names (``game``, ``id``): its entry, its record
        and its states."""
        entry = self._entry(message.get("game"))
        wanted = message.get("id")
        saved = next(
            (g for g in self.store.saved_games(entry.plugin.slug) if g["id"] == wanted), None
        )
        if saved is None:
            raise InputError(f"id: no saved {entry.plugin.slug} game {quote(wanted)}")
        states = [entry.game.parse_state(text) for text in saved["record"]["states"]]
        return entry, saved, states

    def replay_analysis_message(self, message: dict) -> dict:
        """The analysis of a saved game (as after a game at the table), for the
        replay's "Wendepunkt"."""
        entry, saved, states = self._saved_game(message)
        record = saved["record"]
        # the state each action was played in (a game of rounds deals between them)
        played_in = [states[before] for before in record["before"]] + [states[-1]]
        report = entry.web.analyse(entry.game, played_in, record["moves"])
        if report is None:
            raise InputError(f"analyse: {entry.plugin.slug} has no analysis after a game")
        return {"type": "analysis", "game": entry.plugin.slug, "replay": saved["id"], **report}

    def replay_message(self, message: dict) -> dict:
        """A saved game, every position as the seat that played it saw it."""
        entry, saved, states = self._saved_game(message)
        wanted = saved["id"]
        record = saved["record"]
        game, web = entry.game, entry.web
        seat = None if saved["mode"] == "hotseat" else record["people"][0]
        plies = []
        for text, before in zip(record["moves"], record["before"], strict=True):
            state = states[before]
            action = game.parse_action(state, text)
            plies.append(
                {
                    "view": seat_view(
                        web, game, states[: before + 1], state_seat(game, state, seat)
                    ),
                    "text": text,
                    "action": {"text": text, **web.action_view(game, state, action)},
                    "explanation": web.explain(game, state, action, record["names"]),
                }
            )
        final = states[-1]
        return {
            "type": "replay",
            "game": entry.plugin.slug,
            "id": wanted,
            "names": record["names"],
            "people": record["people"],
            "result": record["result"],
            "plies": plies,
            "final": seat_view(web, game, states, state_seat(game, final, seat)),
        }

    def table_message(self, conn: Connection, table_id: str) -> dict:
        """The table as the page may see it (see the module docstring)."""
        table = conn.tables[table_id]
        assert isinstance(table, Table)
        message = {
            "type": "table",
            "table": table_id,
            "game": table.slug,
            "mode": table.mode,
            "title": table.start.title,
            "facts": table.start.facts,
            "names": list(table.names),
            "people": list(table.start.people),
            "to_act": table.to_act(),
            "finished": table.finished,
            "result": table.result(),
            "loser": table.loser,
            "ended_by": table.ended_by,
            "time": table.time_left(),
            "helped": table.helped,
            "repetitions": table.repetitions(),
            "daily_counts": table_id in conn.daily_days,
        }
        if table.prelude is not None:
            return {**message, **self._prelude_part(table)}
        return {**message, **self._game_part(conn, table_id, table)}

    @staticmethod
    def _prelude_part(table: Table) -> dict:
        """A game still being set up by choices (the Kartenwahl): no state yet."""
        prelude = table.prelude
        legal = []
        if table.person_to_act():
            legal = [{"text": text, **prelude.action_view(text)} for text in table.legal()]
        return {
            "seat": table.start.people[0],
            "covered": False,
            "view": None,
            "prelude": prelude.view(),
            "legal": legal,
            "last": None,
            "moves": [],
        }

    @staticmethod
    def _game_part(conn: Connection, table_id: str, table: Table) -> dict:
        game, web, state = table.game, table.web, table.state
        revealed = conn.revealed.get(table_id, NOTHING_HIDDEN)
        to_act = table.to_act()
        if revealed == NOTHING_HIDDEN:  # the person's seat; in a hotseat game whose turn it is
            seat = to_act if table.mode == "hotseat" else table.start.people[0]
            if seat is None:
                seat = table.start.people[0]
        else:
            seat = revealed
        covered = revealed is None and to_act is not None
        legal = []
        if table.person_to_act() and not covered and revealed in (NOTHING_HIDDEN, to_act):
            legal = [
                {"text": text, **web.action_view(game, state, action)}
                for text, action in table.legal().items()
            ]
        last = None
        if table.played:
            entry = table.played[-1]
            before = table.states[entry.before]
            action = game.parse_action(before, entry.text)
            last = {"text": entry.text, "seat": entry.seat, **web.action_view(game, before, action)}
        return {
            "seat": seat,
            "covered": covered,
            "view": seat_view(web, game, table.states, None if covered else seat),
            "legal": legal,
            "last": last,
            "moves": [
                {"seat": e.seat, "text": e.text, "explanation": e.explanation, "cpu": e.by_computer}
                for e in table.played
            ],
        }

    def puzzle_message(self, table_id: str, table: PuzzleTable) -> dict:
        entry = self.games[table.game]
        texts = list(table.legal())
        view, actions = entry.web.problem_view(table.kind, table.state, texts)
        return {
            "type": "exercise",
            "table": table_id,
            "game": table.game,
            "pack": table.pack_name,
            "number": table.number,
            "puzzle": table.puzzle["id"],
            "n": table.puzzle["n"],
            "view": view,
            "legal": actions,
            "moves": [
                {"text": text, "defence": defence, **problem_words(entry.web, table, state, text)}
                for (text, defence), state in zip(table.played, table.played_in, strict=True)
            ],
            "solved": table.solved,
            "lost": table.lost,
            "helped": table.helped,
            "turns_left": table.turns_left(),
        }


def problem_words(web, table: PuzzleTable, state, text: str) -> dict:
    """An exercise's action in the words of the game's move list (``explanation``: a
    message key and its arguments, which the page words with the notation beside), when
    the game's ``problem_explain`` words it (see :class:`WebGame`); else nothing."""
    explain = getattr(web, "problem_explain", None)
    words = None if explain is None else explain(table.kind, state, text)
    return {} if words is None else {"explanation": words}


def seat_view(web, game, states, seat: int | None) -> dict:
    """What ``seat`` sees in the last of ``states`` (``None``: the public part), with what
    the game's ``history_view`` adds from the states before it (see :class:`WebGame`)."""
    view = web.view(game, states[-1], seat)
    history = getattr(web, "history_view", None)
    return view if history is None else history(game, states, view)


def state_seat(game, state, seat: int | None) -> int | None:
    """The seat a replay shows: the person's, or at one device (hidden hands) the seat
    to act, so a replay never shows a hand its viewer did not see in play."""
    if seat is not None:
        return seat
    return None if game.is_terminal(state) else game.current_player(state)


TABLE_MESSAGES = {
    "act": Server._act,
    "undo": Server._undo,
    "hint": Server._hint,
    "resign": Server._resign,
    "reveal": Server._reveal,
    "abort": Server._abort,
    "analyse": Server._analyse,
    "flag": Server._flag,
}


def error_message(err: InputError) -> dict:
    """An ``error`` for the page: the English message, and for a refusal the page can
    meet in play its message key and arguments (so the page words it)."""
    message = {"type": "error", "message": str(err)}
    if isinstance(err, ActionRefused) and err.key is not None:
        message.update(key=err.key, args=err.text_args)
    return message


def parse_message(text: str) -> dict:
    """A client message: a JSON object with a text ``type``."""
    if len(text) > MAX_MESSAGE:
        raise InputError(f"message: longer than {MAX_MESSAGE} characters")
    try:
        message = loads_checked(text, MAX_NESTING, MAX_NUMBER)
    except NotJSON:
        raise InputError(f"message: not JSON: {quote(text, 80)}") from None
    if not isinstance(message, dict):
        raise InputError("message: expected a JSON object")
    _field(message, "type", str)
    return message


def _field(message: dict, name: str, kind: type) -> Any:
    value = message.get(name)
    if not isinstance(value, kind):
        raise InputError(f"{name}: expected {kind.__name__}, got {quote(value, 60)}")
    return value


def static_folder() -> str:
    return str(resources.files("fechtbuch.web") / "static")


def create_app(server: Server, mounts: dict[str, Starlette] | None = None) -> Starlette:
    """The ASGI app: the page, its assets, each game's board script, the socket; and
    ``mounts``, other applications under a path (the Wartesaal under ``/wartesaal``),
    whose start-up and shut-down run inside this app's."""
    mounts = mounts or {}

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with contextlib.AsyncExitStack() as stack:
            for mounted in mounts.values():
                await stack.enter_async_context(mounted.router.lifespan_context(mounted))
            yield

    async def index(request) -> Response:
        return FileResponse(os.path.join(static_folder(), "index.html"))

    async def game_script(request) -> Response:
        """A game's board script or style sheet, as its WebGame names them."""
        slug = request.path_params["slug"]
        name = request.path_params["name"]
        entry = server.games.get(slug)
        if entry is None or name not in (entry.web.script, entry.web.style):
            return JSONResponse({"error": "unknown game script"}, status_code=404)
        path = game_static(entry.plugin) / name
        kind = "text/javascript" if name == entry.web.script else "text/css"
        return FileResponse(str(path), media_type=kind)

    async def texts(request) -> Response:
        try:
            lang = check_language(request.path_params["lang"])
        except InputError as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        return JSONResponse(page_texts(lang, (entry.plugin for entry in server.games.values())))

    return Starlette(
        routes=[
            Route("/", index),
            Route("/games/{slug}/{name}", game_script),
            Route("/i18n/{lang}.json", texts),
            Mount("/static", StaticFiles(directory=static_folder()), name="static"),
            WebSocketRoute("/ws", server.serve_socket),
            *(Mount(path, app=mounted) for path, mounted in mounts.items()),
        ],
        lifespan=lifespan,
    )
