"""``fechtbuch serve``: play every game in the browser (docs/web.md)."""

from __future__ import annotations

import errno
import logging
import socket
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click
from fechtbuch.commands.options import StrictIntRange
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.web.store import Store, default_store_path

if TYPE_CHECKING:
    from fechtbuch.web.server import Server
    from starlette.applications import Starlette


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=StrictIntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option(
    "--data",
    "data_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite file of records, streak and solved exercises "
    "(default: $XDG_DATA_HOME/fechtbuch/web.sqlite3).",
)
@click.option(
    "--pack",
    "pack_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Offer this pack's exercises too (any game's pack file, e.g. a 'db export' "
    "of a database query); repeat for several.",
)
@click.option(
    "--wartesaal",
    "wartesaal_url",
    metavar="DATABASE_URL",
    default=None,
    help="Also serve the Wartesaal (people play people, docs/wartesaal.md) under "
    "/wartesaal on this database (sqlite:///FILE or postgresql://...); the session "
    "secret comes from WARTESAAL_SECRET.",
)
def serve(
    host: str,
    port: int,
    open_browser: bool,
    data_file: Path | None,
    pack_files: tuple[Path, ...],
    wartesaal_url: str | None,
) -> None:
    """Play in the browser: every game against the computer or at one device,
    the Fechtübungen of the shipped packs (and of any --pack) and Battleklinge's
    daily duel.

    \b
    Examples:
      fechtbuch serve --open
      (then play at http://127.0.0.1:8000/; Ctrl-C stops the server)
      fechtbuch db export --game battleklinge --tag zugzwang --count 6 -o zugzwang.json
      fechtbuch serve --pack zugzwang.json

    The server checks every move with the game's rules engine; records, the daily
    streak and solved exercises stay in a SQLite file on this device.  It listens
    on 127.0.0.1 unless --host says otherwise (anyone who can reach the address can
    play and write your records).
    """
    import uvicorn
    from fechtbuch.wartesaal.protocol import UVICORN_WEBSOCKETS
    from fechtbuch.web.puzzle import available_packs, extra_pack
    from fechtbuch.web.server import Server, create_app

    packs = available_packs(tuple(extra_pack(path) for path in pack_files))
    store = Store(data_file or default_store_path())
    store.check()
    listening = listening_socket(host, port)
    try:
        logging.basicConfig(level=logging.INFO, format="fechtbuch serve: %(message)s")
        page_server = Server(store, packs=packs)
        mounts = {}
        if wartesaal_url is not None:
            mounts["/wartesaal"] = _wartesaal(wartesaal_url, page_server)
        app = create_app(page_server, mounts)
    except BaseException:
        listening.close()
        raise
    # the Wartesaal's frame limit holds for the page's socket too (its messages are
    # smaller still), so both ways of serving the room read the same frames
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", **UVICORN_WEBSOCKETS)
    server = uvicorn.Server(config)
    original_startup = server.startup

    async def startup(sockets=None) -> None:
        await original_startup(sockets)
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        url = f"http://{_url_host(host)}:{bound}/"
        click.echo(f"fechtbuch serve: playing at {url} (Ctrl-C stops)")
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    server.startup = startup
    server.run(sockets=[listening])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` for uvicorn to listen on: bound here,
    so that an address or a port that cannot be had is one line naming the option
    (uvicorn would log its own error and exit 3)."""
    if not host.strip():
        # uvicorn takes '' for every address; a blank option is more likely a mistake
        raise InputError("--host: give an address to listen on (0.0.0.0 for every one)")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err) or type(err).__name__
        raise InputError(f"--host: {quote(host)} is no address to listen on ({reason})") from None
    family, _kind, _proto, _name, address = found[0]
    try:
        return _bound_socket(family, address)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        if err.errno == errno.EADDRINUSE:
            raise InputError(f"--port: {port} on {host} is in use") from None
        if err.errno == errno.EACCES:
            root = "; ports below 1024 need root" if 0 < port < 1024 else ""
            raise InputError(f"--port: may not listen on {port} ({reason}{root})") from None
        if err.errno == errno.EADDRNOTAVAIL:
            raise InputError(f"--host: {host} is not an address of this machine") from None
        raise InputError(f"--host: cannot listen on {quote(host)} port {port} ({reason})") from None


def _bound_socket(family: int, address: tuple) -> socket.socket:
    """A TCP socket of ``family`` bound to ``address`` (as uvicorn binds one)."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _wartesaal(database_url: str, page_server: Server) -> Starlette:
    """The Wartesaal's application on ``database_url`` with its page, drawn by the
    games of ``page_server``; or one line naming what is missing (its extra, its
    secret)."""
    import os

    secret = os.environ.get("WARTESAAL_SECRET", "")
    if len(secret) < 16:
        raise InputError("--wartesaal: set WARTESAAL_SECRET to at least 16 characters")
    try:
        import fechtbuch.wartesaal.app  # noqa: F401  (its extra's packages)
    except ImportError as err:
        raise InputError(
            f"--wartesaal: needs the wartesaal extra (pip install 'fechtbuch[wartesaal]'): {err}"
        ) from None
    from fechtbuch.web.server import static_folder
    from fechtbuch.web.wartesaal_page import wartesaal_app

    games = {slug: entry.web for slug, entry in page_server.games.items()}
    return wartesaal_app(database_url, secret, games, static_folder())


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
