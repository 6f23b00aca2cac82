"""``python -m fechtbuch.wartesaal --port 8765``: the Wartesaal on its own (for tests
and a club without the rest of ``fechtbuch serve``)."""

from __future__ import annotations

import os

import click
from fechtbuch.commands.options import float_range, int_range
from fechtbuch.engines.errors import InputError
from fechtbuch.wartesaal.commandline import run_command
from fechtbuch.wartesaal.protocol import UVICORN_WEBSOCKETS

SECRET_VARIABLE = "WARTESAAL_SECRET"


@click.command(
    epilog="Example: WARTESAAL_SECRET=$(openssl rand -hex 32) python -m fechtbuch.wartesaal "
    "--database sqlite:///saal.db --port 8765"
)
@click.option(
    "--database",
    default="sqlite:///wartesaal.db",
    show_default=True,
    help="sqlite:///FILE (add ?synchronous=normal for speed over power-loss safety) "
    "or postgresql://USER@HOST/DB.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", type=int_range(0, 65535), default=8765, show_default=True)
@click.option(
    "--tick",
    type=float_range(0.05, 60),
    default=1.0,
    show_default=True,
    help="Seconds between checks of clocks, the Notbremse and absent seats.",
)
def main(database: str, host: str, port: int, tick: float) -> None:
    """Serve the Wartesaal: accounts, challenges, tables, spectators and replays.

    The session secret comes from the environment variable WARTESAAL_SECRET (every
    server process of one room needs the same)."""
    try:
        import uvicorn
        from fechtbuch.wartesaal.app import build_app
    except ModuleNotFoundError as missing:  # installed without the extra
        raise InputError(
            f"{missing.name}: not installed; pip install 'fechtbuch[wartesaal]'"
        ) from None

    secret = os.environ.get(SECRET_VARIABLE, "")
    if len(secret) < 16:
        raise InputError(f"{SECRET_VARIABLE}: set it to at least 16 characters")
    app = build_app(database, secret, tick_seconds=tick)
    uvicorn.run(app, host=host, port=port, log_level="warning", **UVICORN_WEBSOCKETS)


if __name__ == "__main__":
    run_command(main, "wartesaal")
