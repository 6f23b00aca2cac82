"""JSON from the network, read within limits: how deep it nests, whether its text is
valid Unicode, how large its numbers are.

``json.loads`` alone turns 2,000 nested brackets into a ``RecursionError``, a
``"\\ud800"`` escape into a string that no database or UTF-8 encoder takes, and
``-1e40`` or ``NaN`` into numbers that overflow a database column later.  Each of
those would surface far from the message as an internal error; here each is an
:class:`~fechtbuch.engines.errors.InputError` naming the top-level field it came in
(``"message"`` when there is none), before anything reads the value.
"""

from __future__ import annotations

import json
import math
from typing import Any

from fechtbuch.engines.errors import InputError


class NotJSON(InputError):
    """``message: not JSON``: the text is no JSON at all."""


_NOT_A_NUMBER = object()
"""What ``NaN``, ``Infinity`` and ``-Infinity`` parse to, so the walk can name their field."""


def loads_checked(text: str, max_depth: int, max_integer: int) -> Any:
    """The JSON value of ``text``: nested at most ``max_depth`` levels (the outer
    object is level 1), every string valid Unicode, every number finite and at most
    ``max_integer`` in size.  An :class:`InputError` ``"<field>: ..."`` otherwise,
    and ``"message: not JSON"`` for text that is no JSON at all."""
    value = loads_nested(text, max_depth)
    check_fields(value, max_integer)
    return value


def loads_nested(text: str, max_depth: int) -> Any:
    """The first half of :func:`loads_checked`: the value, nested at most
    ``max_depth`` levels; its strings and numbers not checked yet (a caller may first
    read a field it needs whatever the others hold)."""
    deep = _too_deep(text, max_depth)
    if deep is not None:
        raise InputError(f"{deep}: nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=lambda _name: _NOT_A_NUMBER)
    except ValueError:
        raise NotJSON("message: not JSON") from None


def check_fields(value: Any, max_integer: int) -> None:
    """The second half of :func:`loads_checked`: every string of ``value`` valid
    Unicode, every number finite and at most ``max_integer`` in size."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not _valid_text(key):
                raise InputError("message: a field name is not valid Unicode text")
            check_value(item, key, max_integer)
    else:
        check_value(value, "message", max_integer)


def check_value(value: Any, field: str, max_integer: int) -> None:
    """``value`` (of ``field``) holds valid text and finite numbers up to ``max_integer``."""
    if value is _NOT_A_NUMBER:
        raise InputError(f"{field}: NaN and Infinity are not JSON numbers")
    if isinstance(value, str):
        if not _valid_text(value):
            raise InputError(f"{field}: not valid Unicode text (a lone surrogate)")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        if not (math.isfinite(value) and abs(value) <= max_integer):
            raise InputError(f"{field}: out of range (at most {max_integer} in size)")
    elif isinstance(value, list):
        for item in value:
            check_value(item, field, max_integer)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_value(key, field, max_integer)
            check_value(item, field, max_integer)


def _valid_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _too_deep(text: str, max_depth: int) -> str | None:
    """The top-level field under which ``text``'s brackets nest deeper than
    ``max_depth`` (``"message"`` outside any field), or None.  A scan of the text,
    since parsing it first is what fails."""
    depth = 0
    in_string = escaped = False
    start = 0
    last_string = field = None
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
                if depth == 1:
                    last_string = text[start : i + 1]
        elif ch == '"':
            in_string, start = True, i
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return field or "message"
        elif ch in "]}":
            depth -= 1
        elif ch == ":" and depth == 1 and last_string is not None:
            field = _field_name(last_string)
    return None


def _field_name(quoted: str) -> str:
    try:
        name = json.loads(quoted)
    except ValueError:
        return "message"
    return name[:40] if _valid_text(name) else "message"
