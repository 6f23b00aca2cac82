"""The room: accounts, challenges, tables and their settlement, over one :class:`Store`.

Framework-free and synchronous: the WebSocket application (``app.py``) calls these
methods and fans the room events out.  Every method that changes something runs in
one transaction and commits before it returns, so what a client is told has been
accepted is on disk.  A refused request raises a :class:`RoomError` whose message
names the field; a change made on the way (a flag fell while the action came in) is
still committed first.

Seats at a new table are drawn by lot from the challenge's id; a Revanche rotates
them (two seats swap their schools).  A rated game escrows every seat's stake when
the table is dealt; the settlement pays the pot to the winners of a counted game and
back to everyone otherwise (docs/wartesaal.md, "Rules of the room").
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from argon2 import PasswordHasher
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.seeding import shuffled
from fechtbuch.wartesaal import accounts, roomrules, views
from fechtbuch.wartesaal.games import setup_of
from fechtbuch.wartesaal.protocol import MAX_INTEGER
from fechtbuch.wartesaal.sessions import Identity, Sessions
from fechtbuch.wartesaal.store import Store, Tx, table_from_json, table_to_json
from fechtbuch.wartesaal.table import FINISHED, RUNNING, RoomError, Table

MAX_CLOCK_MINUTES = 180
MAX_STAKE = 1000
MAX_TEXT = 200
"""Characters of a text field of a request: an id, a game, a variant, an action."""


class Room:
    def __init__(
        self,
        store: Store,
        secret: str,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], float] = time.time,
        session_seconds: float | None = None,
        presence_fresh: float = 5.0,
    ) -> None:
        self.store = store
        self.process = secrets.token_hex(8)
        """This server process in the ``presence`` table."""
        self.presence_fresh = presence_fresh
        """Seconds a presence row stays fresh without its process's refresh."""
        self.last_online: set[str] = set()
        """Who was online at the last refresh (a change is announced)."""
        self.hasher = hasher or PasswordHasher()
        self.sessions = (
            Sessions(secret) if session_seconds is None else Sessions(secret, session_seconds)
        )
        self.clock = clock

    # ---- accounts and sessions ------------------------------------------------------------
    def register(self, name: object, password: object) -> str:
        name, password = accounts.check_name(name), accounts.check_password(password)
        password_hash = self.hasher.hash(password)
        with self.store.transaction() as tx:
            accounts.add(tx, name, password_hash, self.clock())
        return self.sessions.issue(Identity(name, False))

    def login(self, name: object, password: object) -> str:
        if not isinstance(name, str):
            raise RoomError("password: wrong name or password")
        with self.store.read() as tx:
            account = tx.account(name[:40])
        if accounts.verify(self.hasher, account, password):
            with self.store.transaction() as tx:
                tx.update_account(account["name"], password_hash=self.hasher.hash(password))
        return self.sessions.issue(Identity(account["name"], False))

    def guest(self) -> tuple[Identity, str]:
        return self.sessions.guest()

    def identify(self, token: object) -> Identity:
        """Who ``token`` names; a :class:`RoomError` if it is forged, expired or
        ended by logging out (one read of the database)."""
        identity = self.sessions.check(token)
        if identity.session:
            with self.store.read() as tx:
                if tx.revoked(identity.session):
                    raise RoomError("session: ended by logging out, log in again")
        return identity

    def logout(self, identity: Identity) -> None:
        """End ``identity``'s session on every server process of the room."""
        if not identity.session:
            raise RoomError("session: this session cannot be ended early, it is too old")
        now = self.clock()
        with self.store.transaction() as tx:
            tx.revoke(identity.session, now + self.sessions.max_age, now)
            tx.notify({"kind": "logout", "session": identity.session})

    def account(self, name: str) -> dict | None:
        with self.store.read() as tx:
            row = tx.account(name)
        if row is None:
            return None
        return {k: row[k] for k in ("name", "points", "elo", "taler", "games")}

    def ranking(self, limit: int = 50) -> list[dict]:
        with self.store.read() as tx:
            return tx.ranking(limit)

    # ---- challenges -----------------------------------------------------------------------
    def challenges(self) -> list[dict]:
        with self.store.read() as tx:
            return [_challenge_message(row) for row in tx.open_challenges()]

    def create_challenge(self, who: Identity, request: dict) -> str:
        """Open a challenge; ``request`` holds ``game``, optional ``variant``,
        ``clock_minutes`` (a number, or null for the ten-minute Notbremse),
        ``rated`` and ``stake``."""
        try:
            setup = setup_of(_string(request.get("game"), "game"))
        except InputError as err:
            raise RoomError(str(err)) from None
        variant = request.get("variant")
        try:
            variant = setup.check_variant(None if variant is None else _string(variant, "variant"))
        except InputError as err:
            raise RoomError(str(err)) from None
        clock = request.get("clock_minutes")
        if clock is not None:
            if not _number(clock) or not 0 < clock <= MAX_CLOCK_MINUTES:
                raise RoomError(f"clock_minutes: a number above 0 and at most {MAX_CLOCK_MINUTES}")
        rated = request.get("rated", False)
        if not isinstance(rated, bool):
            raise RoomError("rated: true or false")
        stake = request.get("stake", 0)
        if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_STAKE:
            raise RoomError(f"stake: a whole number of Taler from 0 to {MAX_STAKE}")
        if stake and not rated:
            raise RoomError("stake: Taler are staked only in rated games")
        if rated and who.guest:
            raise RoomError("rated: guests play friendly games only")
        challenge_id = secrets.token_hex(8)
        with self.store.transaction() as tx:
            self._check_taler(tx, who.name, stake)
            tx.add_challenge(
                {
                    "id": challenge_id,
                    "creator": who.name,
                    "game": setup.game.info.name,
                    "variant": variant,
                    "clock_seconds": None if clock is None else float(clock) * 60.0,
                    "rated": rated,
                    "stake": stake,
                    "seats": setup.seats(variant),
                    "joined": who.name,
                    "status": "open",
                    "table_id": None,
                    "created": self.clock(),
                }
            )
            tx.notify({"kind": "challenges"})
        return challenge_id

    def withdraw(self, who: Identity, challenge_id: object) -> None:
        with self.store.transaction() as tx:
            row = self._open_challenge(tx, challenge_id)
            if row["creator"] != who.name:
                raise RoomError("challenge: only its creator withdraws it")
            tx.update_challenge(row["id"], status="withdrawn")
            tx.notify({"kind": "challenges"})

    def accept(self, who: Identity, challenge_id: object) -> str | None:
        """Join a challenge; the table's id once every seat is taken."""
        with self.store.transaction() as tx:
            row = self._open_challenge(tx, challenge_id)
            joined = row["joined"].split(",")
            if who.name in joined:
                raise RoomError("challenge: you are already at this challenge")
            if row["rated"] and who.guest:
                raise RoomError("challenge: guests play friendly games only")
            self._check_taler(tx, who.name, row["stake"])
            joined.append(who.name)
            if len(joined) < row["seats"]:
                tx.update_challenge(row["id"], joined=",".join(joined))
                tx.notify({"kind": "challenges"})
                return None
            seats = shuffled(joined, f"wartesaal-seats/{row['id']}")
            table = self._deal(tx, row, seats)
            tx.update_challenge(
                row["id"], joined=",".join(joined), status="accepted", table_id=table.id
            )
            tx.notify({"kind": "challenges"})
        return table.id

    def _deal(self, tx: Tx, options: dict, seats: list[str]) -> Table:
        table = Table.deal(
            secrets.token_hex(8),
            options["game"],
            options["variant"],
            secrets.token_hex(16),
            seats,
            options["rated"],
            options["clock_seconds"],
            options["stake"],
            self.clock(),
        )
        if options["stake"]:
            # a fixed order of locks (no deadlock between tables); every seat is checked
            # before any stake moves, so a refusal escrows nothing
            found = {name: tx.account(name, lock=True) for name in sorted(seats)}
            for name, account in found.items():
                if account is None or account["taler"] < options["stake"]:
                    raise RoomError(f"stake: {name} has fewer than {options['stake']} Taler")
            for name, account in found.items():
                tx.update_account(name, taler=account["taler"] - options["stake"])
        tx.add_table(table)
        tx.notify({"kind": "table", "id": table.id, "version": table.version, "new": seats})
        tx.notify({"kind": "tables"})
        return table

    # ---- play -----------------------------------------------------------------------------
    def act(self, who: Identity, table_id: object, seq: object, action: object) -> dict:
        """Play ``action`` at the seat of ``who``; ``seq`` is the version the client saw.
        The answer: the action's number, and ``duplicate`` for a resent action."""
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise RoomError("seq: a whole number (the table version you saw)")
        if not 0 <= seq <= MAX_INTEGER:
            raise RoomError(f"seq: a whole number from 0 to {MAX_INTEGER} (the table version)")
        text = _string(action, "action")

        def change(tx: Tx, table: Table, seat: int) -> dict:
            if seq < table.version:
                done = tx.entry(table.id, seq + 1)
                if done is not None and done.seat == seat and _same_action(table, done, text):
                    return {"number": done.number, "duplicate": True}
                raise RoomError(f"seq: the table is at {table.version}, not {seq}")
            entry = table.act(seat, seq, text, self.clock())
            tx.add_entry(table.id, entry)
            return {"number": entry.number, "duplicate": False}

        return self._change(who, table_id, change)

    def offer(self, who: Identity, table_id: object, kind: object) -> dict:
        """Offer (or agree to) a take-back, an Abbruch or a Revanche."""
        kind = _string(kind, "offer")

        def change(tx: Tx, table: Table, seat: int) -> dict:
            last = tx.last_entry(table.id)
            if table.offer(seat, kind, last, self.clock()):
                if kind == "takeback":
                    table.take_back(last, self.clock())
                    tx.delete_entry(table.id, last.number)
                elif kind == "rematch":
                    seats = table.seats[1:] + table.seats[:1]
                    options = {
                        "game": table.game,
                        "variant": table.variant,
                        "rated": table.rated,
                        "clock_seconds": table.clock_seconds,
                        "stake": table.stake,
                    }
                    table.rematch = self._deal(tx, options, seats).id
                return {"agreed": True} | ({"rematch": table.rematch} if kind == "rematch" else {})
            return {"agreed": False}

        return self._change(who, table_id, change, finished_ok=kind == "rematch")

    def decline(self, who: Identity, table_id: object, kind: object) -> dict:
        kind = _string(kind, "offer")

        def change(tx: Tx, table: Table, seat: int) -> dict:
            table.decline(seat, kind)
            return {"declined": kind}

        return self._change(who, table_id, change, finished_ok=True)

    def resign(self, who: Identity, table_id: object) -> dict:
        def change(tx: Tx, table: Table, seat: int) -> dict:
            table.resign(seat, self.clock())
            return {"resigned": True}

        return self._change(who, table_id, change)

    def _change(self, who: Identity, table_id: object, change, finished_ok: bool = False):
        """Run ``change`` on the locked table at ``who``'s seat; commit whatever
        changed (a fallen flag too) and settle a game that ended, then answer or raise."""
        table_id = _string(table_id, "table")
        refusal: RoomError | None = None
        answer = None
        with self.store.transaction() as tx:
            table = tx.table(table_id, lock=True)
            if table is None:
                raise RoomError(f"table: no table {table_id[:40]!r}")
            seat = table.seat_of(who.name)
            if seat is None:
                raise RoomError("seat: you have no seat at this table")
            before = table_to_json(table)
            was_running = table.status == RUNNING
            if was_running:
                table.check_time(self.clock())
            timed = table_to_json(table)
            try:
                if table.status != RUNNING and was_running and not finished_ok:
                    raise RoomError(f"table: the game ended first ({table.reason})")
                answer = change(tx, table, seat)
            except RoomError as err:
                # a refusal keeps what time did to the table, nothing the change began
                # (an agreed Revanche that cannot be dealt keeps its offer standing)
                refusal = err
                table = table_from_json(timed)
            if table_to_json(table) != before:
                self._save(tx, table, was_running)
        if refusal is not None:
            raise refusal
        return answer

    def _save(self, tx: Tx, table: Table, was_running: bool) -> None:
        if was_running and table.status != RUNNING:
            self._settle(tx, table)
            tx.notify({"kind": "tables"})
        tx.save_table(table)
        event = {"kind": "table", "id": table.id, "version": table.version}
        if self.store.postgres:  # every process reads the table: no snapshot
            tx.notify(event)
            return
        # the table object is not used again once the change returns: it is the snapshot
        # (the last entry of an action is the one it added: ``Tx.last_entry`` reads none)
        tx.notify(event, (table, views.last_action(tx.last_entry(table.id))))

    def _settle(self, tx: Tx, table: Table) -> None:
        """Points, Elo and Taler for a game that just ended."""
        members = [name for name in table.seats if not name.startswith(accounts.GUEST_PREFIX)]
        rows = {name: tx.account(name, lock=True) for name in sorted(members)}
        counted = table.counted()
        returns = table.result if counted else [0.5] * len(table.seats)
        points = roomrules.points_changes(returns)
        payout = roomrules.settle_stake(table.stake, returns) if table.stake else None
        elo = None
        if counted:
            elo = roomrules.elo_changes([rows[n]["elo"] for n in table.seats], returns)
        settlement = {}
        for seat, name in enumerate(table.seats):
            row = rows.get(name)
            if row is None:
                continue
            values = {"games": row["games"] + (1 if table.status == FINISHED else 0)}
            if counted:
                values |= {"points": row["points"] + points[seat], "elo": row["elo"] + elo[seat]}
            if payout is not None:
                values["taler"] = row["taler"] + payout[seat]
            tx.update_account(name, **values)
            # the stake was escrowed when the table was dealt: the change is the payout less it
            settlement[name] = {
                "points": points[seat] if counted else 0,
                "elo": elo[seat] if counted else 0.0,
                "taler": payout[seat] - table.stake if payout is not None else 0,
            }
        table.settlement = settlement
        if settlement:  # a member's row changed (guests are in no ranking)
            tx.notify({"kind": "ranking"})

    # ---- time and presence ------------------------------------------------------------------
    def tick(self) -> list[str]:
        """End every running game whose time ran out or whose seat stayed away, tell
        the tables whose mover entered the Notbremse's last minute; stamp the
        heartbeat.  The ids of the tables that ended."""
        now = self.clock()
        ended = []
        with self.store.read() as tx:
            due = tx.due_table_ids(now)
        for table_id in due:
            with self.store.transaction() as tx:
                table = tx.table(table_id, lock=True)
                if table is None or table.status != RUNNING:
                    continue
                if table.check_time(self.clock()):
                    self._save(tx, table, True)
                    ended.append(table.id)
                elif table.enter_last_minute(self.clock()):
                    self._save(tx, table, True)
        with self.store.transaction() as tx:
            tx.set_meta("heartbeat", repr(now))
        return ended

    def restore(self, stale_after: float) -> float:
        """At start-up: if no process stamped the heartbeat for ``stale_after`` seconds,
        the whole room was down since that stamp, and no running clock is charged for
        it: every running table's turn starts that much later.  Nobody is connected after
        such a pause, so every seat counts as away from now and has the reconnect grace
        to come back.  (With other processes running the room was not down.)  The
        seconds of the pause, or 0."""
        now = self.clock()
        with self.store.transaction() as tx:
            stamp = tx.get_meta("heartbeat")
            down = 0.0 if stamp is None else max(0.0, now - float(stamp))
            if down <= stale_after:
                down = 0.0
            else:
                for table_id in tx.table_ids(RUNNING):
                    table = tx.table(table_id, lock=True)
                    table.turn_started += down
                    table.away = dict.fromkeys(range(len(table.seats)), now)
                    tx.save_table(table)
            tx.set_meta("heartbeat", repr(now))
        return down

    def presence(self, name: str, connected: bool) -> None:
        """A first connection of ``name`` opened on this process (back at every running
        table) or its last one here closed: away from now, unless another server
        process still holds a connection of ``name``."""
        now = self.clock()
        with self.store.transaction() as tx:
            was_here = name in tx.online(now - self.presence_fresh)
            if connected:
                tx.connect(self.process, name, now)
            else:
                tx.disconnect(self.process, name)
            online = tx.online(now - self.presence_fresh)
            still_here = name in online
            if still_here != was_here:
                tx.notify({"kind": "online"})
        self.last_online = online  # announced here: the next refresh need not again
        if not connected and still_here:
            return
        self._mark(lambda table, seat: table.set_away(seat, None if connected else now), {name})

    def keep_presence(self) -> None:
        """Refresh this process's presence rows; a seat of a running table whose name
        has no fresh row anywhere (its server process died) is away from now."""
        now = self.clock()
        with self.store.transaction() as tx:
            tx.refresh(self.process, now, forget_before=now - 100 * self.presence_fresh)
            online = tx.online(now - self.presence_fresh)
            if online != self.last_online:  # a process died: its names went stale
                tx.notify({"kind": "online"})
        self.last_online = online
        with self.store.read() as tx:
            seating = tx.seating(RUNNING)
        gone = {
            name
            for _table_id, seats, away in seating
            for seat, name in enumerate(seats)
            if name not in online and seat not in away
        }
        if gone:
            self._mark(lambda table, seat: table.set_away(seat, now), gone)

    def online(self) -> list[str]:
        """The names with a connection open on any server process of the room."""
        with self.store.read() as tx:
            return sorted(tx.online(self.clock() - self.presence_fresh))

    def _mark(self, change, names: set[str]) -> None:
        """Apply ``change(table, seat)`` to every seat of ``names`` at a running table."""
        with self.store.read() as tx:
            seated = [table_id for table_id, seats, _ in tx.seating(RUNNING) if names & set(seats)]
        for table_id in seated:
            with self.store.transaction() as tx:
                table = tx.table(table_id, lock=True)
                before = table_to_json(table)
                for seat, name in enumerate(table.seats):
                    if name in names:
                        change(table, seat)
                if table_to_json(table) != before:
                    tx.save_table(table)
                    tx.notify({"kind": "table", "id": table.id, "version": table.version})

    # ---- reading tables ---------------------------------------------------------------------
    def table_message(self, who: Identity | None, table_id: object) -> dict:
        """The table as ``who`` may see it: a seat's view or a spectator's."""
        return self.table_messages([who], table_id)[0]

    def table_messages(
        self, viewers: list[Identity | None], table_id: object, snapshot: tuple | None = None
    ) -> list[dict]:
        """The table as each of ``viewers`` may see it, read once (or taken from the
        ``snapshot`` of a table event: the table and its last action); each distinct
        view (every spectator's is the same) is built once."""
        table_id = _string(table_id, "table")
        if snapshot is None:
            with self.store.read() as tx:
                table = tx.table(table_id)
                if table is None:
                    raise RoomError(f"table: no table {table_id[:40]!r}")
                last = views.last_action(tx.last_entry(table_id))
        else:
            table, last = snapshot
        now = self.clock()
        built: dict[int | None, dict] = {}
        messages = []
        for who in viewers:
            seat = None if who is None else table.seat_of(who.name)
            if seat not in built:
                if seat is None:
                    message = views.spectator_view(table, now)
                else:
                    message = views.seat_view(table, seat, now)
                built[seat] = message | {"last_action": last}
            messages.append(built[seat])
        return messages

    def replay(self, table_id: object) -> dict:
        table_id = _string(table_id, "table")
        with self.store.read() as tx:
            table = tx.table(table_id)
            if table is None:
                raise RoomError(f"table: no table {table_id[:40]!r}")
            entries = tx.entries(table_id)
        return views.replay(table, entries)

    def tables(self, status: str = RUNNING, limit: int | None = 30) -> list[dict]:
        """The tables to watch (or replay): id, game, variant, seats, status, rated,
        clock and result; the ``limit`` that started (running) or ended last (a list
        that goes to every connection stays short however many games are played)."""
        with self.store.read() as tx:
            found = tx.latest_tables(status, limit)
        return [
            {
                "id": t.id,
                "game": t.game,
                "variant": t.variant,
                "seats": t.seats,
                "status": t.status,
                "rated": t.rated,
                "clock_minutes": None if t.clock_seconds is None else t.clock_seconds / 60.0,
                "result": t.result,
                "reason": t.reason,
            }
            for t in found
        ]

    def tables_of(self, name: str) -> list[str]:
        """The ids of the running tables at which ``name`` has a seat."""
        with self.store.read() as tx:
            return [table_id for table_id, seats, _ in tx.seating(RUNNING) if name in seats]

    def seats_of(self, table_id: str) -> list[str]:
        with self.store.read() as tx:
            table = tx.table(table_id)
        return [] if table is None else list(table.seats)

    # ---- helpers ------------------------------------------------------------------------------
    def _open_challenge(self, tx: Tx, challenge_id: object) -> dict:
        challenge_id = _string(challenge_id, "challenge")
        row = tx.challenge(challenge_id, lock=True)
        if row is None or row["status"] != "open":
            raise RoomError(f"challenge: no open challenge {challenge_id[:40]!r}")
        return row

    def _check_taler(self, tx: Tx, name: str, stake: int) -> None:
        if stake:
            account = tx.account(name)
            if account is None or account["taler"] < stake:
                raise RoomError(f"stake: you have fewer than {stake} Taler")


def _same_action(table: Table, done, text: str) -> bool:
    game = table.rules
    try:
        state = game.parse_state(done.before)
        return game.format_action(state, game.parse_action(state, text[:200])) == done.text
    except InputError:
        return False


def _string(value: object, field: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise RoomError(f"{field}: a text of 1 to {limit} characters")
    return value


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _challenge_message(row: dict) -> dict:
    return {
        "id": row["id"],
        "creator": row["creator"],
        "game": row["game"],
        "variant": row["variant"],
        "clock_minutes": None if row["clock_seconds"] is None else row["clock_seconds"] / 60.0,
        "rated": bool(row["rated"]),
        "stake": row["stake"],
        "seats": row["seats"],
        "joined": row["joined"].split(","),
    }
