"""Game records of the Touché duel: a whole game (rounds to 5 or 3 points) as text.

Format (UTF-8, ``\\n`` line ends)::

    # fechtbuch touche record
    Ruleset: standard
    Seed: 7
    Starter: B
    Shuffle-1: 7/1
    Shuffle-2: 7/2
    Result: 1:5
                         <- a blank line ends the header
    m+5                  <- one action per line; a round follows the end of the last
    ...

``Ruleset``, ``Starter`` (who began round 1, drawn by lot) and ``Shuffle-N`` (the
seed of the deal of round N, one per round played) are required; every other
header (``Seed``, ``A``, ``B``, ``Date`` ...) is kept in order.  ``Result`` is the
final score ``a:b`` or ``*`` (unfinished); when given it must agree with the
actions.  ``#`` lines and blank lines among the actions are ignored.

>>> record = GameRecord.new("standard", "7")
>>> record = record.with_action(record.positions()[-1], parse_action("m+5"))
>>> GameRecord.from_text(record.to_text()) == record
True
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from fechtbuch.engines import errors
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, read_text_file
from fechtbuch.engines.recordtext import split_record
from fechtbuch.engines.touche_duell import rules as fast
from fechtbuch.engines.touche_duell.deal import lot, new_round, round_seed
from fechtbuch.engines.touche_duell.notation import (
    PLAYER_CHARS,
    Action,
    NotationError,
    Position,
    Ruleset,
    format_action,
    parse_action,
)

HEADER_COMMENT = "# fechtbuch touche record"
MAX_ROUNDS = 99
"""Rounds that nobody wins score nothing; a game stops after this many rounds."""


class GameRecordError(errors.RecordError):
    """A malformed record; the message names the line or the header."""


def game_over(position: Position) -> bool:
    """The round is over and a player reached the target score."""
    return position.phase.over and max(position.score) >= position.rules.target


def round_starter(first: int, number: int) -> int:
    """Who starts round ``number`` (1, 2, ...) when ``first`` started round 1."""
    return first if number % 2 == 1 else 1 - first


@dataclass(frozen=True)
class GameRecord:
    """A game: rule set, starter of round 1, the shuffle seed of each round, actions."""

    rules: Ruleset
    starter: int
    shuffles: tuple[str, ...]
    actions: tuple[Action, ...] = ()
    headers: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def new(cls, ruleset: str | Ruleset, seed: str, headers=()) -> GameRecord:
        """A new game seeded ``seed``: the lot picks the starter, round 1 is ``seed/1``."""
        rules = Ruleset.from_name(ruleset) if isinstance(ruleset, str) else ruleset
        return cls(rules, lot(seed), (round_seed(seed, 1),), (), (("Seed", seed), *headers))

    def positions(self) -> list[Position]:
        """Every position from the first deal on; a new round is dealt as soon as the
        previous one is over (if a shuffle seed for it is recorded)."""
        pos = new_round(self.shuffles[0], self.starter, self.rules)
        out = [pos]
        number = 1
        for action in self.actions:
            if pos.phase.over:
                raise GameRecordError("record: an action after the end of the game")
            pos = fast.apply(pos, action)
            out.append(pos)
            if pos.phase.over and not game_over(pos) and number < len(self.shuffles):
                number += 1
                pos = new_round(
                    self.shuffles[number - 1],
                    round_starter(self.starter, number),
                    self.rules,
                    pos.score,
                )
                out.append(pos)
        return out

    def with_action(self, position: Position, action: Action) -> GameRecord:
        """The record with ``action`` played in ``position`` (its last position); the
        next round's shuffle seed is added when the round ends."""
        after = fast.apply(position, action)
        shuffles = self.shuffles
        if after.phase.over and not game_over(after):
            seed = self.header("Seed") or self.shuffles[0].rsplit("/", 1)[0]
            shuffles = (*shuffles, round_seed(seed, len(shuffles) + 1))
        return replace(self, actions=(*self.actions, action), shuffles=shuffles)

    def header(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.headers:
            if k.lower() == key.lower():
                return v
        return default

    def result(self) -> str:
        last = self.positions()[-1]
        return f"{last.score[0]}:{last.score[1]}" if game_over(last) else "*"

    def to_text(self) -> str:
        lines = [HEADER_COMMENT, f"Ruleset: {self.rules.name}"]
        lines += [f"{k}: {v}" for k, v in self.headers if k.lower() == "seed"]
        lines.append(f"Starter: {PLAYER_CHARS[self.starter]}")
        lines += [f"Shuffle-{n}: {s}" for n, s in enumerate(self.shuffles, 1)]
        lines += [f"{k}: {v}" for k, v in self.headers if k.lower() != "seed"]
        lines += [f"Result: {self.result()}", ""]
        lines += [format_action(a) for a in self.actions]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "game") -> GameRecord:
        """Parse and replay a record; errors name ``source`` and the line."""
        parts = split_record(text, source, GameRecordError)
        found: dict[str, str] = {}
        shuffles: dict[int, str] = {}
        headers: list[tuple[str, str]] = []
        for header in parts.headers:
            i, key, value = header.line, header.key, header.value
            shuffle = re.fullmatch(r"shuffle-([0-9]+)", key.lower())
            if shuffle:
                shuffles[int(shuffle[1])] = value
            elif key.lower() in ("ruleset", "starter", "result"):
                if key.lower() in found:
                    raise GameRecordError(f"{source}: line {i}: a second {key!r} header")
                found[key.lower()] = value
            else:
                headers.append((key, value))
        for needed in ("ruleset", "starter"):
            if needed not in found:
                raise GameRecordError(f"{source}: no '{needed.capitalize()}: ...' header")
        try:
            rules = Ruleset.from_name(found["ruleset"])
        except NotationError as err:
            raise GameRecordError(f"{source}: Ruleset: {err}") from None
        if found["starter"] not in ("A", "B"):
            raise GameRecordError(f"{source}: Starter: expected A or B, got {found['starter']!r}")
        if sorted(shuffles) != list(range(1, len(shuffles) + 1)) or not shuffles:
            raise GameRecordError(
                f"{source}: Shuffle-N headers must be numbered 1, 2, ... without gaps"
            )
        record = cls(
            rules,
            PLAYER_CHARS.index(found["starter"]),
            tuple(shuffles[n] for n in sorted(shuffles)),
            (),
            tuple(headers),
        )
        pos = record.positions()[-1]
        round_number = 1
        actions: list[Action] = []
        for number, line in parts.body:
            if pos.phase.over:
                why = "the game is over" if game_over(pos) else "no Shuffle header for the round"
                raise GameRecordError(f"{source}: line {number}: action {line!r} but {why}")
            try:
                action = parse_action(line)
                pos = fast.apply(pos, action)
            except InputError as err:
                raise GameRecordError(f"{source}: line {number}: {err}") from None
            actions.append(action)
            if pos.phase.over and not game_over(pos) and round_number < len(record.shuffles):
                round_number += 1
                pos = new_round(
                    record.shuffles[round_number - 1],
                    round_starter(record.starter, round_number),
                    rules,
                    pos.score,
                )
        record = replace(record, actions=tuple(actions))
        if "result" in found and found["result"] != record.result():
            raise GameRecordError(
                f"{source}: Result {found['result']!r} does not match the actions "
                f"(they give {record.result()!r})"
            )
        return record


def read_game(path: str | os.PathLike) -> GameRecord:
    """Read a record file; a missing or malformed file is an InputError."""
    target = Path(path)
    text = read_text_file(target, "game")  # one reader: FIFOs, loops, bad UTF-8 are one line
    return GameRecord.from_text(text, source=f"game {str(target)!r}")


def write_game(path: str | os.PathLike, record: GameRecord, force: bool = False) -> None:
    """Write a record atomically; refuses to overwrite unless ``force``."""
    atomic_write(path, record.to_text().encode("utf-8"), force=force)
