"""``fechtbuch serve``: play every game in the browser (docs/web.md)."""

from __future__ import annotations

import logging
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click
from fechtbuch.commands.options import StrictIntRange
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
    from fechtbuch.web.exercise import available_packs, extra_pack
    from fechtbuch.web.server import Server, create_app

    packs = available_packs(tuple(extra_pack(path) for path in pack_files))
    store = Store(data_file or default_store_path())
    store.check()
    logging.basicConfig(level=logging.INFO, format="fechtbuch serve: %(message)s")
    page_server = Server(store, packs=packs)
    mounts = {} if wartesaal_url is None else {"/wartesaal": _wartesaal(wartesaal_url, page_server)}
    app = create_app(page_server, mounts)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
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
    server.run()


def _wartesaal(database_url: str, page_server: Server) -> Starlette:
    """The Wartesaal's application on ``database_url`` with its page, drawn by the
    games of ``page_server``; or one line naming what is missing (its extra, its
    secret)."""
    import os

    from fechtbuch.engines.errors import InputError

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
