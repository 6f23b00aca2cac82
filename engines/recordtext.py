"""The text of a game record, the same for every game: headers, a blank line, actions.

A record is ``Key: value`` header lines, one blank line, then one action per line in
the game's notation; lines starting with ``#`` are comments anywhere.  This module
splits such a text and names the line of every problem; each game's record type
reads the header values and replays the actions with its rules.

>>> text = "# a game\\nRuleset: standard\\nStarter: A\\n\\nm+3\\n# note\\na2x1\\n"
>>> record = split_record(text, "game")
>>> [(h.line, h.key, h.value) for h in record.headers]
[(2, 'Ruleset', 'standard'), (3, 'Starter', 'A')]
>>> record.body
((5, 'm+3'), (7, 'a2x1'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fechtbuch.engines.errors import RecordError, quote


@dataclass(frozen=True)
class Header:
    line: int
    key: str
    value: str


@dataclass(frozen=True)
class RecordText:
    """The headers in file order and the body: (line number, text) of every action line."""

    headers: tuple[Header, ...]
    body: tuple[tuple[int, str], ...]

    def first(self, key: str) -> Header | None:
        """The first header called ``key`` (letter case ignored), or ``None``."""
        return next((h for h in self.headers if h.key.lower() == key.lower()), None)


def split_record(
    text: str,
    source: str,
    error: type[RecordError] = RecordError,
    is_action: Callable[[str], bool] = lambda key: False,
    first: str = "",
    action_word: str = "action",
) -> RecordText:
    """Split a record into headers and action lines; ``error`` is the game's record
    error, raised with ``source`` and the line number.

    ``is_action(key)``: whether a line whose text before ``:`` is ``key`` is an action
    rather than a header (Battleklinge's ``ausfall:c1c3``), so actions may follow the
    headers without the blank line.  ``first`` names the header a record must begin
    with and ``action_word`` what an action line is, for the errors."""
    lines = text.splitlines()
    headers: list[Header] = []
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        i += 1
        if raw.startswith("#"):
            continue
        if not raw:
            if headers:
                break
            continue
        key, sep, value = raw.partition(":")
        key, value = key.strip(), value.strip()
        action = bool(sep) and bool(key) and " " not in key and is_action(key)
        if not sep or not key or " " in key or action:
            if headers:  # actions right after the headers, without the blank line
                i -= 1
                break
            if action:
                before = f"before the header {first}" if first else "before the headers"
                raise error(f"{source}: line {i}: {action_word} {quote(raw)} {before}")
            expected = f" (first {first})" if first else ""
            raise error(
                f"{source}: line {i}: expected a header 'Key: value'{expected}, got {quote(raw)}"
            )
        headers.append(Header(i, key, value))
    body = tuple(
        (number, raw.strip())
        for number, raw in enumerate(lines[i:], start=i + 1)
        if raw.strip() and not raw.strip().startswith("#")
    )
    return RecordText(tuple(headers), body)
