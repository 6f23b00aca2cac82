"""The Wartesaal's page without a browser: served under /wartesaal of ``fechtbuch
serve``, its board scripts found, every text it says in both catalogues, and the
drawing the room adds to a message showing no more than the message itself."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from fechtbuch.wartesaal.games import catalogue
from fechtbuch.wartesaal.table import FINISHED
from fechtbuch.web.server import Server, create_app, static_folder, web_games
from fechtbuch.web.store import Store
from fechtbuch.web.wartesaal_page import table_drawing, wartesaal_app
from fechtbuch.web.webgame import page_texts
from starlette.testclient import TestClient
from support.wartesaal_helpers import CHEAP, SECRET, make_room, members, open_table, play_random

STATIC = Path(static_folder())
GAMES = {slug: entry.web for slug, entry in web_games().items()}


def test_the_page_and_its_boards_are_served(tmp_path):
    server = Server(Store(tmp_path / "web.sqlite3"))
    room = wartesaal_app(
        f"sqlite:///{tmp_path / 'room.db'}", SECRET, GAMES, static_folder(), hasher=CHEAP
    )
    with TestClient(create_app(server, {"/wartesaal": room})) as http:
        page = http.get("/wartesaal/")
        assert page.status_code == 200 and '<script src="/static/wartesaal.js">' in page.text
        boards = http.get("/wartesaal/boards").json()
        assert set(boards) == {g["game"] for g in catalogue()}
        for script in boards.values():
            answer = http.get(script)
            assert answer.status_code == 200 and "window.FechtbuchGames" in answer.text
        styles = http.get("/wartesaal/styles").json()
        assert set(styles) == {slug for slug, web in GAMES.items() if web.style}
        assert styles and set(styles) <= set(boards)
        for sheet in styles.values():
            answer = http.get(sheet)
            assert answer.status_code == 200 and answer.headers["content-type"].startswith(
                "text/css"
            )
        for name in ("wartesaal.js", "wartesaal.css"):
            assert http.get(f"/static/{name}").status_code == 200


def _keys_used() -> set[str]:
    script = (STATIC / "wartesaal.js").read_text()
    html = (STATIC / "wartesaal.html").read_text()
    keys = set(re.findall(r'\bt\("([a-z_.-]+)"', script))
    keys |= set(re.findall(r'data-i18n="([a-z_.-]+)"', html))
    # the keys the page builds from the room's words
    reasons = json.loads(re.search(r"const REASONS = (\[.*?\]);", script).group(1))
    keys |= {f"saal.reason.{reason.replace(' ', '_')}" for reason in reasons}
    for kind in ("takeback", "abort", "rematch"):
        keys |= {f"saal.offer.{kind}", f"saal.offer.{kind}.waiting", f"saal.offer.{kind}.watch"}
    for game in catalogue():
        keys.add(f"saal.variant.label.{game['game']}")
        keys |= {f"saal.variant.{game['game']}.{variant}" for variant in game["variants"]}
    return keys


def test_every_text_of_the_page_is_in_both_catalogues():
    """The page's catalogue: the generic texts merged with every game's own."""
    used = _keys_used()
    assert len(used) > 80
    for lang in ("de", "en"):
        texts = page_texts(lang, [entry.plugin for entry in web_games().values()])
        assert sorted(used - set(texts)) == [], lang


def test_a_drawing_shows_no_more_than_its_message(tmp_path):
    room = make_room(tmp_path / "room.db")
    ida, jan, kim = members(room, "Ida", "Jan", "Kim")
    table_id = open_table(room, ida, [jan], game="touche-duell", variant="standard")
    draw = table_drawing(GAMES)
    for _ in range(12):
        messages = room.table_messages([ida, jan, kim], table_id)
        seats, spectator = messages[:2], messages[2]
        drawn = draw(spectator)
        assert "hand" not in drawn["board"]["view"] and drawn["legal_views"] == []
        assert drawn["board"]["view"]["hand_sizes"] == [
            int(size[1:]) for size in spectator["view"].split(" ")[5].split("/")
        ]
        for message in seats:
            mine = draw(message)
            # a seat's hands field: its own cards' values, and the other hand's size
            [own] = [part for part in message["view"].split(" ")[5].split("/") if "?" not in part]
            assert mine["board"]["view"]["hand"] == [int(d) for d in own.replace("-", "")]
            assert [a["text"] for a in mine["legal_views"]] == message.get("legal", [])
        mover = {"Ida": ida, "Jan": jan}[spectator["seats"][spectator["to_act"]]]
        mine = room.table_message(mover, table_id)
        room.act(mover, table_id, mine["version"], random.Random(1).choice(mine["legal"]))
    replay = draw(room.replay(table_id) | {"type": "replay"})
    assert len(replay["actions"]) == 12 and '"hand":' not in json.dumps(replay)
    assert replay["start_board"]["view"]["squares"] == [1, 23]


def test_finished_tables_are_listed_for_replays(tmp_path):
    room = make_room(tmp_path / "room.db")
    lea, tom = members(room, "Lea", "Tom")
    table_id = open_table(room, lea, [tom], game="battleklinge", variant="einsteiger")
    play_random(room, table_id, {"Lea": lea, "Tom": tom}, random.Random(5))
    [listed] = room.tables(FINISHED)
    assert listed["id"] == table_id and listed["result"] in ([1.0, 0.0], [0.0, 1.0])
    assert room.tables() == []
