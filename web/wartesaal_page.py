"""The Wartesaal's page: the room, the table, spectating and replays in the browser.

The Wartesaal (``fechtbuch.wartesaal``) knows no game and no page; this module gives
it both.  It serves ``static/wartesaal.html`` at the room's root (``/wartesaal/``
under ``fechtbuch serve``) and adds to every ``table`` and ``replay`` message the
drawing the games' board scripts of the single-player page expect (their
``WebGame.room_board`` and ``room_action``), so the room is drawn by the same
Battleklinge board, duel track and pyramid sheet as the rest of ``serve``.

A drawing is made from the message alone: a seat's message holds its information
state, a spectator's and a replay's the public view, and ``room_board`` reads only
that notation.  So a drawing cannot show a hand its receiver may not see.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping

from fechtbuch.web.webgame import WebGame
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

PAGE = "wartesaal.html"

log = logging.getLogger(__name__)


def table_drawing(games: Mapping[str, WebGame]) -> Callable[[dict], dict]:
    """What the room adds to a ``table`` or ``replay`` message of a game in ``games``
    (slug -> its web play): ``board`` (merged into what the board script is given),
    ``legal_views`` and ``last_view`` (the actions as the board draws them)."""

    def draw(message: dict) -> dict:
        web = games.get(message.get("game"))
        if web is None:
            return message
        try:
            if message.get("type") == "replay":
                return _drawn_replay(web, message)
            return _drawn_table(web, message)
        except Exception as err:  # the room's update must still go out, undrawn
            log.warning("wartesaal page: cannot draw %s: %r", message.get("id"), err)
            return message

    return draw


def _drawn_table(web: WebGame, message: dict) -> dict:
    last = message.get("last_action")
    return message | {
        "board": web.room_board(message["variant"], message["view"], message.get("you")),
        "legal_views": [
            {"text": text, **web.room_action(text)} for text in message.get("legal", [])
        ],
        "last_view": None
        if last is None
        else {"seat": last["seat"], **web.room_action(last["action"])},
    }


def _drawn_replay(web: WebGame, message: dict) -> dict:
    variant = message["variant"]
    return message | {
        "start_board": web.room_board(variant, message["start"], None),
        "actions": [
            entry
            | {
                "board": web.room_board(variant, entry["view"], None),
                "drawn": {"seat": entry["seat"], **web.room_action(entry["action"])},
            }
            for entry in message["actions"]
        ],
    }


def page_routes(games: Mapping[str, WebGame], static_folder: str) -> list[Route]:
    """The page at the room's root, ``boards``: each game's board script, and
    ``styles``: the style sheets of the boards that have one, as the single-player
    page serves them (``/games/<slug>/<file>``)."""

    async def page(_request: Request) -> Response:
        return FileResponse(os.path.join(static_folder, PAGE))

    async def boards(_request: Request) -> JSONResponse:
        return JSONResponse({slug: f"/games/{slug}/{web.script}" for slug, web in games.items()})

    async def styles(_request: Request) -> JSONResponse:
        return JSONResponse(
            {slug: f"/games/{slug}/{web.style}" for slug, web in games.items() if web.style}
        )

    return [Route("/", page), Route("/boards", boards), Route("/styles", styles)]


def wartesaal_app(
    database_url: str, secret: str, games: Mapping[str, WebGame], static_folder: str, **options
) -> Starlette:
    """The Wartesaal on ``database_url`` with its page, for ``serve --wartesaal``;
    ``options`` go to :func:`fechtbuch.wartesaal.app.build_app` (``hasher``,
    ``tick_seconds``)."""
    from fechtbuch.wartesaal.app import build_app

    return build_app(
        database_url,
        secret,
        drawing=table_drawing(games),
        page_routes=page_routes(games, static_folder),
        **options,
    )
