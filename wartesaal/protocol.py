"""The Wartesaal's JSON protocol: one message per WebSocket frame.

A request is a JSON object of at most :data:`MAX_MESSAGE_BYTES` with a ``type`` and
an optional ``ref`` (any short text or number the answer echoes, so a client can
pair answers with requests).  Answers are ``{"type": <request type>, "ref": ...,
...}`` or ``{"type": "error", "ref": ..., "error": "<field>: <what is wrong>"}``.
Pushed messages (``table``, ``challenges``) carry no ``ref``.  docs/wartesaal.md
lists every type.
"""

from __future__ import annotations

import json

from fechtbuch.wartesaal.table import RoomError

MAX_MESSAGE_BYTES = 4096
"""Longer frames are refused unread: no request needs more."""

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


def parse_request(frame: str | bytes) -> dict:
    """The request in ``frame``; a :class:`RoomError` naming what is wrong."""
    if len(frame) > MAX_MESSAGE_BYTES:
        raise RoomError(f"message: longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        request = json.loads(frame)
    except (ValueError, UnicodeDecodeError):
        raise RoomError("message: not JSON") from None
    if not isinstance(request, dict):
        raise RoomError("message: expected a JSON object")
    kind = request.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise RoomError(f"type: expected one of {', '.join(sorted(REQUESTS))}")
    ref = request.get("ref")
    if ref is not None and not (isinstance(ref, int | str) and len(str(ref)) <= 64):
        raise RoomError("ref: a number or a text of at most 64 characters")
    return request


def error(ref: object, message: str) -> dict:
    return {"type": "error", "ref": ref, "error": message}
