"""The room's lists as they are pushed: to many connections in slices, with other work
let in between; a list as it was pushed last is not pushed again; a game of guests
changes no ranking, so it announces none."""

from __future__ import annotations

import asyncio

from fechtbuch.wartesaal import app
from fechtbuch.wartesaal.app import Client, Hall
from fechtbuch.wartesaal.sessions import Identity
from support.wartesaal_helpers import make_room, members, open_table


class Socket:
    """Records the frames sent to it, in one list for every connection; the first
    frame of all sets off ``arriving`` (a request that arrives while a list goes out)."""

    def __init__(self, sent: list[str], arriving) -> None:
        self.sent, self.arriving = sent, arriving

    async def send_text(self, frame: str) -> None:
        if not self.sent:
            asyncio.ensure_future(self.arriving())
        self.sent.append(frame)


def test_a_list_goes_out_in_slices_and_an_unchanged_one_not_again(tmp_path):
    room = make_room(tmp_path / "room.db")
    hall = Hall(room)
    sent: list[str] = []
    midway: list[int] = []

    async def other_work() -> None:
        midway.append(len(sent))

    count = 3 * app.LIST_SLICE + 7
    for number in range(count):
        socket = Socket(sent, other_work)
        hall.clients[number] = Client(number, socket, identity=Identity(f"Gast-{number}", True))
    room.presence("Gast-0", True)

    async def scenario():
        await hall._fan_out({"kind": "online"})
        first = len(sent)
        await hall._fan_out({"kind": "online"})  # nothing changed
        again = len(sent)
        room.presence("Gast-1", True)
        await hall._fan_out({"kind": "online"})
        return first, again, len(sent)

    first, again, changed = asyncio.run(scenario())
    assert first == count and 0 < midway[0] < count
    assert again == first  # the same list is not pushed twice
    assert changed == 2 * count and '"count":2' in sent[-1]
    room.store.dispose()


def test_a_game_of_guests_announces_no_ranking_a_game_of_members_does(tmp_path):
    room = make_room(tmp_path / "room.db")
    events: list[dict] = []
    room.store.listeners.append(events.extend)
    (a, _), (b, _) = room.guest(), room.guest()
    room.resign(a, open_table(room, a, [b], game="battleklinge"))
    assert "ranking" not in {e["kind"] for e in events}
    anna, bert = members(room, "Anna", "Bert")
    room.resign(anna, open_table(room, anna, [bert], game="battleklinge"))
    assert "ranking" in {e["kind"] for e in events}
    assert {row["name"]: row["games"] for row in room.ranking()} == {"Anna": 1, "Bert": 1}
    room.store.dispose()
