"""`fechtbuch serve` refuses what it cannot use with one line naming it: hostile
messages on the page's socket (deep nesting, options of the wrong type, binary
frames), a --data file that is not its store (left byte for byte as it was), and a
--host or --port it cannot listen on, a --pack given twice."""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fechtbuch.puzzles.db.schema import open_for_writing
from fechtbuch.web import serve_command
from fechtbuch.web.server import MAX_NESTING, Server, create_app
from fechtbuch.web.store import Store
from starlette.testclient import TestClient
from support.clirun import assert_one_line_error, run

PACKS = Path(__file__).resolve().parents[2] / "data" / "packs"


@pytest.fixture
def page(tmp_path):
    server = Server(Store(tmp_path / "web.sqlite3"), seed=lambda: "limits")
    with TestClient(create_app(server)) as http:
        with http.websocket_connect("/ws") as socket_:
            catalogue = socket_.receive_json()
            yield socket_, catalogue


def _answer(ws, message: dict | str) -> dict:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    return ws.receive_json()


def test_deeply_nested_options_name_the_field(page):
    ws, _ = page
    depth = 2000
    text = '{"type": "new", "game": "touche-duell", "mode": "computer", "options": '
    text += "[" * depth + "]" * depth + "}"
    assert _answer(ws, text) == {
        "type": "error",
        "message": f"options: nested deeper than {MAX_NESTING} levels",
    }
    answer = _answer(ws, '{"type": "records", "game": "\\ud800"}')
    assert answer["message"] == "game: not valid Unicode text (a lone surrogate)"


@pytest.mark.parametrize("wrong", [7, 1.5, True, None, ["A"], {"A": 1}])
def test_every_option_of_the_wrong_type_is_an_error_naming_it(page, wrong):
    """Each option the catalogue offers, for every game and mode, given a value of
    the wrong type: an error naming that option, never an internal one."""
    ws, catalogue = page
    for game in catalogue["games"]:
        for mode in ("computer", "hotseat"):
            if mode not in game["modes"]:
                continue
            for name in game["setup"]:
                answer = _answer(
                    ws,
                    {"type": "new", "game": game["slug"], "mode": mode, "options": {name: wrong}},
                )
                if answer["type"] == "error":
                    assert answer["message"].startswith(f"{name}: "), (game["slug"], answer)
                    continue
                # an option a mode does not read is ignored: the game starts
                assert answer["type"] == "table" and name not in ("clock",), answer
                while answer["type"] == "table" and answer["to_act"] not in answer["people"]:
                    answer = ws.receive_json()


def test_a_duel_seat_of_the_wrong_type(page):
    ws, _ = page
    answer = _answer(
        ws, {"type": "new", "game": "touche-duell", "mode": "computer", "options": {"seat": 7}}
    )
    assert answer == {"type": "error", "message": "seat: '7' is not A or B"}


def test_a_binary_frame_is_answered_and_the_page_served_on(page):
    ws, _ = page
    ws.send_bytes(b'{"type": "records", "game": "battleklinge"}')
    assert ws.receive_json() == {
        "type": "error",
        "message": "message: expected a text frame, got a binary one",
    }
    assert _answer(ws, {"type": "records", "game": "battleklinge"})["type"] == "records"


# ---- --data: only the store's own file -------------------------------------------------


def _serve_data(path: Path):
    return run("serve", "--data", path, "--port", "0", "--host", "192.0.2.1")


def test_data_refuses_a_file_that_is_not_its_store(tmp_path):
    puzzles = tmp_path / "puzzles.sqlite3"
    open_for_writing(puzzles).close()
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.close()
    for path in (puzzles, other):
        before = path.read_bytes()
        line = assert_one_line_error(_serve_data(path))
        assert line.startswith("fechtbuch: error: data: ") and "not a store of" in line, line
        assert path.read_bytes() == before


def test_data_takes_a_new_file_an_empty_one_and_its_own_store(tmp_path):
    """The bind fails afterwards (192.0.2.1 is no address here): the store was
    accepted first."""
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    new = tmp_path / "new" / "web.sqlite3"
    for path in (empty, new):
        assert "--host" in assert_one_line_error(_serve_data(path))
        assert set(_meta(path)) == {"identity", "format"}
    # a store made before it carried its format: taken, and marked
    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('identity', 'abc')")
        conn.execute("CREATE TABLE record (game TEXT NOT NULL, strength TEXT NOT NULL)")
    conn.close()
    assert "--host" in assert_one_line_error(_serve_data(old))
    assert _meta(old)["identity"] == "abc" and "format" in _meta(old)


def _meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    conn.close()
    return rows


# ---- --host, --port, --pack ----------------------------------------------------------


def test_a_port_in_use_is_one_line_naming_port(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = assert_one_line_error(
            run("serve", "--port", port, "--data", tmp_path / "web.sqlite3")
        )
    assert line == f"fechtbuch: error: --port: {port} on 127.0.0.1 is in use", line


def test_a_port_denied_is_one_line_naming_port(tmp_path, monkeypatch):
    def denied(family, address):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(serve_command, "_bound_socket", denied)
    line = assert_one_line_error(run("serve", "--port", "80", "--data", tmp_path / "w.sqlite3"))
    assert line == (
        "fechtbuch: error: --port: may not listen on 80 (Permission denied; "
        "ports below 1024 need root)"
    )


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="dropping to nobody needs root and setpriv",
)
def test_port_80_as_nobody_is_one_line_naming_port():
    folder = tempfile.mkdtemp(prefix="fechtbuch-nobody-")
    try:
        os.chmod(folder, 0o777)
        nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        # the compiled kernels' cache (engines/compiled.py) is root's: nobody gets one
        env = {**os.environ, "FECHTBUCH_CACHE_DIR": os.path.join(folder, "numba")}
        probe = [*nobody, sys.executable, "-c", "import fechtbuch.web.serve_command"]
        if subprocess.run(probe, capture_output=True, timeout=120, env=env).returncode != 0:
            pytest.skip("nobody cannot run this Python or read this checkout")
        command = [*nobody, sys.executable, "-m", "fechtbuch", "serve", "--port", "80"]
        command += ["--data", os.path.join(folder, "web.sqlite3")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    finally:
        shutil.rmtree(folder)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "fechtbuch: error: --port: may not listen on 80 (Permission denied; "
        "ports below 1024 need root)"
    ]


@pytest.mark.parametrize(
    ("host", "says"),
    [
        ("", "--host: give an address to listen on (0.0.0.0 for every one)"),
        ("192.0.2.1", "--host: 192.0.2.1 is not an address of this machine"),
        ("a" * 300, "--host: 'aaaa"),
    ],
)
def test_an_unusable_host_is_one_line_naming_host(tmp_path, host, says):
    line = assert_one_line_error(
        run("serve", "--host", host, "--port", "0", "--data", tmp_path / "w.sqlite3")
    )
    assert line.startswith("fechtbuch: error: " + says), line


def test_a_pack_given_twice_is_said_so(tmp_path):
    pack = tmp_path / "meine.json"
    shutil.copy(next(PACKS.glob("*.json")), pack)
    line = assert_one_line_error(
        run("serve", "--pack", pack, "--pack", pack, "--port", "0", "--data", tmp_path / "w")
    )
    assert line == f"fechtbuch: error: --pack: {str(pack)!r} is given twice", line
    other = tmp_path / "sub"
    other.mkdir()
    shutil.copy(pack, other / "meine.json")
    line = assert_one_line_error(
        run(
            "serve",
            "--pack",
            pack,
            "--pack",
            other / "meine.json",
            "--port",
            "0",
            "--data",
            tmp_path / "w",
        )
    )
    assert "two packs named 'meine'" in line, line
