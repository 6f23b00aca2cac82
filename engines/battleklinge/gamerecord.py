"""Game records: a plain text format for a game of Battleklinge.

Format (UTF-8 text, ``\\n`` line ends)::

    # fechtbuch game record          <- optional comment lines start with '#'
    Start: ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte
    Gold: Mensch
    Blau: Stark
    Result: b
                                      <- one blank line ends the header
    ausfall:c1c3
    volte:d5c4
    ...                               <- one move per line, in notation

Header lines are ``Key: value``.  ``Start`` (the start position in position
notation) is required.  ``Result`` is optional; when given it is ``g`` or
``b`` (that school won), ``abgebrochen`` (aborted: threefold repetition or
agreement) or ``*`` (not finished), and must agree with the moves: a game
whose last move hits is won by its mover.  Any other keys (``Gold``, ``Blau``,
``Date``, ``Event``, ...) are kept in order and written back unchanged.
Blank lines and ``#`` comment lines between moves are ignored; each move must
be legal, and no move may follow a decided position.

>>> text = "Start: 2m2/5/5/2M2/5 g ausfall,volte bindung,stoss riposte\\n\\nausfall:c2c4\\n"
>>> game = GameRecord.from_text(text)
>>> game.result, len(game.moves), game.positions()[-1].to_text()
('*', 1, '2m2/2M2/5/5/5 b riposte,volte stoss,bindung ausfall')
>>> GameRecord.from_text(game.to_text()) == game
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from fechtbuch.engines import errors
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, CardError, card_from_id
from fechtbuch.engines.battleklinge.position import IllegalMoveError, Move, NotationError, Position
from fechtbuch.engines.errors import quote
from fechtbuch.engines.files import atomic_write, read_text_file
from fechtbuch.engines.recordtext import split_record

RESULTS = ("g", "b", "abgebrochen", "*")
HEADER_COMMENT = "# fechtbuch game record"


class GameRecordError(errors.RecordError):
    """A malformed game record; the message names the line and quotes it."""


@dataclass(frozen=True)
class GameRecord:
    """A start position, the moves played from it, and header fields.

    ``headers`` holds every header except ``Start`` and ``Result`` as
    ``(key, value)`` pairs in file order.
    """

    start: Position
    moves: tuple[Move, ...] = ()
    result: str = "*"
    headers: tuple[tuple[str, str], ...] = field(default=())

    def positions(self) -> list[Position]:
        """The start position and the position after each move."""
        out = [self.start]
        for move in self.moves:
            out.append(fast.play(out[-1], move))
        return out

    def played_result(self) -> str:
        """``g``/``b`` if the moves end in a decided position, else ``*``."""
        won = self.positions()[-1].winner()
        return "*" if won is None else COLOR_CHARS[won]

    def header(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.headers:
            if k.lower() == key.lower():
                return v
        return default

    def to_text(self) -> str:
        lines = [HEADER_COMMENT, f"Start: {self.start.to_text()}"]
        lines += [f"{k}: {v}" for k, v in self.headers]
        lines.append(f"Result: {self.result}")
        lines.append("")
        lines += [m.to_text() for m in self.moves]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "game") -> GameRecord:
        """Parse a record; errors name ``source`` and the line number."""
        parts = split_record(
            text,
            source,
            GameRecordError,
            is_action=_is_card,
            first="'Start: <position>'",
            action_word="move",
        )
        start: Position | None = None
        result: str | None = None
        headers: list[tuple[str, str]] = []
        for header in parts.headers:
            i, key, value = header.line, header.key, header.value
            if key.lower() == "start":
                if start is not None:
                    raise GameRecordError(f"{source}: line {i}: a second 'Start' header")
                try:
                    start = Position.from_text(value)
                except NotationError as err:
                    raise GameRecordError(f"{source}: line {i}: Start: {err}") from None
                if start.winner() is not None:
                    raise GameRecordError(
                        f"{source}: line {i}: Start: the game is already decided in {value!r}"
                    )
            elif key.lower() == "result":
                if value not in RESULTS:
                    raise GameRecordError(
                        f"{source}: line {i}: Result: expected one of "
                        f"{', '.join(RESULTS)}, got {value!r}"
                    )
                result = value
            else:
                headers.append((key, value))
        if start is None:
            raise GameRecordError(f"{source}: no 'Start: <position>' header")
        moves: list[Move] = []
        pos = start
        for number, line in parts.body:
            if pos.winner() is not None:
                raise GameRecordError(
                    f"{source}: line {number}: move {line!r} after the game was decided"
                )
            try:
                move = Move.from_text(line)
            except NotationError as err:
                raise GameRecordError(f"{source}: line {number}: {err}") from None
            if move not in fast.legal_moves(pos):
                raise GameRecordError(
                    f"{source}: line {number}: illegal move {line!r} in {pos.to_text()!r}"
                )
            moves.append(move)
            pos = fast.play(pos, move)
        record = cls(start=start, moves=tuple(moves), result=result or "*", headers=tuple(headers))
        played = record.played_result()
        if result is not None and result != "abgebrochen" and result != played:
            raise GameRecordError(
                f"{source}: Result {result!r} does not match the moves (they give {played!r})"
            )
        if result is None:
            record = cls(start=start, moves=tuple(moves), result=played, headers=tuple(headers))
        elif result == "abgebrochen" and played != "*":
            raise GameRecordError(
                f"{source}: Result 'abgebrochen' but the moves end with a win for {played!r}"
            )
        return record


def _is_card(text: str) -> bool:
    try:
        card_from_id(text)
    except CardError:
        return False
    return True


def read_game(path: str | os.PathLike) -> GameRecord:
    """Read a game record file; a missing or malformed file is an InputError."""
    text = read_text_file(path, "game")
    return GameRecord.from_text(text, source=f"game {quote(os.fspath(path))}")


def write_game(path: str | os.PathLike, record: GameRecord, force: bool = False) -> None:
    """Write a record atomically; refuses to overwrite unless ``force``."""
    atomic_write(path, record.to_text().encode("utf-8"), force=force)


__all__ = [
    "GameRecord",
    "GameRecordError",
    "IllegalMoveError",
    "read_game",
    "write_game",
    "RESULTS",
]
