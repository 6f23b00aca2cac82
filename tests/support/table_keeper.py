"""The server of `fechtbuch serve` for browser tests that put a position on a table:
it keeps every table it opens, with the connection and id each was opened under."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fechtbuch.web.server import Server, create_app
from fechtbuch.web.store import Store

from support.webserver import serve_app


class TableKeeper(Server):
    """`fechtbuch serve`'s server, keeping every table it opens for the test."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.opened = []
        self.where = {}
        """Each table's connection and id."""

    def _register(self, conn, table):
        self.opened.append(table)
        table_id = super()._register(conn, table)
        self.where[id(table)] = (conn, table_id)
        return table_id


@contextmanager
def keeping_tables(folder: Path, seed_prefix: str) -> Iterator[tuple[str, TableKeeper]]:
    """A :class:`TableKeeper` served on 127.0.0.1, its store in ``folder`` and its
    seeds ``seed_prefix-0``, ``-1``, ...; yields the base URL and the server."""
    seeds = (f"{seed_prefix}-{n}" for n in range(1000))
    server = TableKeeper(Store(folder / "web.sqlite3"), seed=lambda: next(seeds))
    with serve_app(create_app(server), start_seconds=20) as port:
        yield f"http://127.0.0.1:{port}/", server
