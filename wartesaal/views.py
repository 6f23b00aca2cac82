"""What the room sends about a table: built only from what the receiver may see.

A seat gets ``Game.information_state(state, seat)`` (its own hand, the others' hands
and the pile by size) and, on its turn, its legal actions; a spectator and a replay
get the game's public view (``TableSetup.public_view``: no hand, no pile order) or,
for a game that hides cards and has none, the actions alone.  The full state is
stored with the table and never leaves these functions: no message is built from it
directly.
"""

from __future__ import annotations

from fechtbuch.wartesaal.table import Entry, Table


def _common(table: Table, now: float) -> dict:
    return {
        "type": "table",
        "id": table.id,
        "game": table.game,
        "variant": table.variant,
        "seats": list(table.seats),
        "rated": table.rated,
        "stake": table.stake,
        "status": table.status,
        "version": table.version,
        "unit": table.unit,
        "actions": table.actions,
        "to_act": table.to_act(),
        "now": now,
        "clocks": table.clocks_at(now),
        "move_deadline": table.move_deadline(),
        "last_minute": table.last_minute,
        "offers": {kind: list(seats) for kind, seats in table.offers.items()},
        "repetition": table.repetition_offered,
        "away": sorted(table.away),
        "result": table.result,
        "reason": table.reason,
        "rematch": table.rematch,
        "settlement": table.settlement,
    }


def seat_view(table: Table, seat: int, now: float) -> dict:
    """The table as ``seat`` sees it."""
    game = table.rules
    state = table.state
    message = _common(table, now) | {"you": seat, "view": game.information_state(state, seat)}
    if table.to_act() == seat:
        message["legal"] = list(table.legal_texts())
    return message


def spectator_view(table: Table, now: float) -> dict:
    """The table as a spectator sees it."""
    view = table.setup.public_view(table.variant, table.state)
    return _common(table, now) | {"you": None, "view": view}


def last_action(entry: Entry | None) -> dict | None:
    """The latest action, as everyone may see it (the rules make actions public)."""
    if entry is None:
        return None
    return {"number": entry.number, "seat": entry.seat, "action": entry.text}


def replay(table: Table, entries: list[Entry]) -> dict:
    """Every action of a table with the public view after it: the same for everyone,
    during the game and after it."""
    setup = table.setup
    game = table.rules
    first = game.parse_state(entries[0].before) if entries else table.state
    return {
        "type": "replay",
        "id": table.id,
        "game": table.game,
        "variant": table.variant,
        "seats": list(table.seats),
        "status": table.status,
        "result": table.result,
        "reason": table.reason,
        "start": setup.public_view(table.variant, first),
        "actions": [
            {
                "number": e.number,
                "seat": e.seat,
                "action": e.text,
                "unit": e.unit,
                "view": setup.public_view(table.variant, game.parse_state(e.after)),
            }
            for e in entries
        ],
    }
