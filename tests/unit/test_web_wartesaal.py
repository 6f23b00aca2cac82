"""``fechtbuch serve --wartesaal URL``: the Wartesaal mounted under /wartesaal of the
browser server, started and stopped with it; what it needs missing is one line."""

from __future__ import annotations

from fechtbuch.wartesaal.app import build_app
from fechtbuch.web.server import Server, create_app
from fechtbuch.web.store import Store
from starlette.testclient import TestClient
from support.clirun import assert_one_line_error, run
from support.wartesaal_helpers import CHEAP, SECRET


def test_the_wartesaal_is_served_beside_the_page(tmp_path):
    room = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)
    app = create_app(Server(Store(tmp_path / "web.sqlite3")), {"/wartesaal": room})
    with TestClient(app) as http:
        assert http.get("/").status_code == 200
        made = http.post("/wartesaal/register", json={"name": "Anna", "password": "geheim-123"})
        assert made.status_code == 200 and made.json()["session"]
        with http.websocket_connect("/ws") as page:
            assert page.receive_json()["type"] == "catalogue"


def test_what_the_wartesaal_needs_is_one_line(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'room.db'}"
    monkeypatch.delenv("WARTESAAL_SECRET", raising=False)
    no_secret = run("serve", "--wartesaal", url, "--port", "0", "--data", tmp_path / "w.sqlite3")
    assert "WARTESAAL_SECRET" in assert_one_line_error(no_secret)
    monkeypatch.setenv("WARTESAAL_SECRET", "x" * 32)
    bad = run(
        "serve", "--wartesaal", "nonsense://", "--port", "0", "--data", tmp_path / "w.sqlite3"
    )
    assert "database: expected sqlite:/// or postgresql://" in assert_one_line_error(bad)
