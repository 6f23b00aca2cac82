"""The Wartesaal's JSON protocol: one message per WebSocket frame.

A request is a JSON object of at most :data:`MAX_MESSAGE_BYTES` UTF-8 bytes with a
``type`` and an optional ``ref`` (any short text or number the answer echoes, so a
client can pair answers with requests).  Answers are ``{"type": <request type>,
"ref": ..., ...}`` or ``{"type": "error", "ref": ..., "error": "<field>: <what is
wrong>"}``; every answer to a message whose ``ref`` could be read carries it back.
Pushed messages (``table``, ``challenges``) carry no ``ref``.  docs/wartesaal.md
lists every type and, under "Limits", every limit below.
"""

from __future__ import annotations

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.jsontext import check_fields, check_value, loads_nested
from fechtbuch.wartesaal.table import RoomError

MAX_MESSAGE_BYTES = 4096
"""Longer messages (counted in UTF-8 bytes) are refused unread: no request needs more."""
MAX_FRAME_BYTES = 1 << 16
"""Longer WebSocket frames close the connection (code 1009) before the room sees them:
uvicorn's ``ws_max_size``, the same for ``python -m fechtbuch.wartesaal`` and
``fechtbuch serve --wartesaal``.  Frames up to it are answered with an error."""
UVICORN_WEBSOCKETS = {
    "ws": "websockets-sansio",
    "ws_max_size": MAX_FRAME_BYTES,
    "ws_per_message_deflate": False,
}
"""uvicorn's WebSocket settings for every way of serving the room.  No per-message
deflate: the messages are small JSON, and each connection's compressor cost the server
about 30 kB of memory and, with a few hundred connections receiving the room's lists,
more than half of its CPU per action (loadbench --idle 400, docs/performance.md)."""
MAX_NESTING = 16
"""Levels of brackets a message may nest (the outer object is one); a request needs two."""
MAX_INTEGER = 2**53 - 1
"""The largest size of a number in a message: the largest whole number a browser's
JavaScript holds exactly, far below SQLite's 64-bit integers."""
MAX_REF = 64
"""Characters of a ``ref``."""

BEFORE_LOGIN = frozenset({"hello", "login", "register", "guest", "games"})
"""What a connection may ask before it names a session."""
REQUESTS = BEFORE_LOGIN | frozenset(
    {
        "challenges",
        "challenge",
        "withdraw",
        "accept",
        "act",
        "offer",
        "decline",
        "resign",
        "watch",
        "unwatch",
        "replay",
        "tables",
        "online",
        "account",
        "ranking",
        "logout",
    }
)


def parse_object(frame: str | bytes) -> dict:
    """The JSON object in ``frame``, within the limits above; a :class:`RoomError`
    naming what is wrong (the field, where there is one)."""
    data = frame.encode() if isinstance(frame, str) else frame
    if len(data) > MAX_MESSAGE_BYTES:
        raise RoomError(f"message: longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        request = loads_nested(data.decode(), MAX_NESTING)
    except UnicodeDecodeError:
        raise RoomError("message: not UTF-8 text") from None
    except InputError as err:
        raise RoomError(str(err)) from None
    if not isinstance(request, dict):
        raise RoomError("message: expected a JSON object")
    return request


def parse_body(body: bytes) -> dict:
    """An HTTP request's JSON body, within the same limits as a WebSocket message."""
    request = parse_object(body)
    _check_fields(request)
    return request


def check_request(request: dict) -> str:
    """The request's type, once its fields hold valid text and numbers in range (read
    after :func:`reference`, so that these errors carry the ``ref`` back)."""
    _check_fields(request)
    kind = request.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise RoomError(f"type: expected one of {', '.join(sorted(REQUESTS))}")
    return kind


def reference(request: dict) -> int | str | None:
    """The request's ``ref``, which every answer to it carries back."""
    ref = request.get("ref")
    try:
        check_value(ref, "ref", MAX_INTEGER)
    except InputError as err:
        raise RoomError(str(err)) from None
    if ref is not None and not (
        isinstance(ref, int | str) and not isinstance(ref, bool) and len(str(ref)) <= MAX_REF
    ):
        raise RoomError(f"ref: a number or a text of at most {MAX_REF} characters")
    return ref


def _check_fields(request: dict) -> None:
    try:
        check_fields(request, MAX_INTEGER)
    except InputError as err:
        raise RoomError(str(err)) from None


def error(ref: object, message: str) -> dict:
    return {"type": "error", "ref": ref, "error": message}
