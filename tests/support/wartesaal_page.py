"""The Wartesaal's page for the browser tests: ``fechtbuch serve`` with the room
mounted under /wartesaal (SQLite, or the PostgreSQL of ``WARTESAAL_POSTGRES_URL``),
a real uvicorn on 127.0.0.1 in a thread, and one Chromium with a browser context per
person (each context has its own cookies and storage: a person of their own)."""

from __future__ import annotations

import time
from contextlib import contextmanager

from support.wartesaal_helpers import CHEAP, SECRET
from support.webserver import serve_app


class MovableClock:
    """The room's time: the wall clock plus an offset a test moves forward to reach a
    deadline (the ten-minute Notbremse, a clock running out) without waiting."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@contextmanager
def room_server(
    data_folder, database_url: str | None = None, tick_seconds: float = 0.2, clock=time.time
):
    """The page's server with the room; yields the room's page URL and its app."""
    from fechtbuch.web.server import Server, create_app, static_folder
    from fechtbuch.web.store import Store
    from fechtbuch.web.wartesaal_page import wartesaal_app

    server = Server(Store(data_folder / "web.sqlite3"))
    games = {slug: entry.web for slug, entry in server.games.items()}
    room = wartesaal_app(
        database_url or f"sqlite:///{data_folder / 'room.db'}",
        SECRET,
        games,
        static_folder(),
        hasher=CHEAP,
        tick_seconds=tick_seconds,
        clock=clock,
    )
    app = create_app(server, {"/wartesaal": room})
    with serve_app(app, start_seconds=30) as port:
        yield f"http://127.0.0.1:{port}/wartesaal/", room


class Person:
    """One person: a browser context of their own with the room's page, and every
    WebSocket frame the page received, parsed."""

    def __init__(self, browser, url: str, lang: str = "de") -> None:
        self.context = browser.new_context(
            viewport={"width": 1200, "height": 900}, locale="de-DE" if lang == "de" else "en-US"
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(f"{err}\n{err.stack}"))
        self.page.on("websocket", self._socket)
        self.page.on("dialog", lambda dialog: dialog.accept())
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready='1']")

    def _socket(self, socket) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(payload))

    def close(self) -> None:
        self.context.close()
