"""Reading tables: the exact result of a position and every move that keeps it."""

from __future__ import annotations

import enum
import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jsonschema
import numpy as np
import orjson
from fechtbuch.engines.battleklinge.cards import Card, card_from_id, card_id
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.reference import legal_moves, play
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase.build import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    manifest_seal,
    split_file,
)
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import read_json_file
from fechtbuch.engines.paths import data_file

MANIFEST_SCHEMA = "tablebase-manifest.schema.json"


class Outcome(enum.Enum):
    """The result for the side to move."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, order=True)
class TbResult:
    """``WIN`` in ``distance`` own moves (hit within exactly that many, as df-pn's
    distance), ``LOSS`` in ``distance`` (every move is answered by a hit within that
    many opponent moves, the least such), or ``DRAW`` (no forced result; distance None)."""

    result: Outcome
    distance: int | None = None

    @classmethod
    def from_code(cls, code: int) -> TbResult:
        if code == 0:
            return cls(Outcome.DRAW)
        if code & 1:
            return cls(Outcome.WIN, (code + 1) // 2)
        return cls(Outcome.LOSS, code // 2)

    def rank(self) -> tuple[int, int]:
        """Sort key, larger is better for the side to move: fast wins, then draws, then
        slow losses."""
        if self.result is Outcome.WIN:
            return (2, -self.distance)  # type: ignore[operator]
        if self.result is Outcome.DRAW:
            return (1, 0)
        return (0, self.distance)  # type: ignore[return-value]

    def after_move(self) -> TbResult:
        """The mover's result when the position after its move (opponent to move) has
        this result."""
        if self.result is Outcome.LOSS:
            return TbResult(Outcome.WIN, self.distance + 1)  # type: ignore[operator]
        if self.result is Outcome.WIN:
            return TbResult(Outcome.LOSS, self.distance)
        return self

    def __str__(self) -> str:
        if self.result is Outcome.DRAW:
            return "draw (no forced result)"
        return f"{self.result.value} in {self.distance}"


HIT = TbResult(Outcome.WIN, 1)


class NotCovered(InputError):
    """The position is not in the tables (other cards, more students, or decided)."""


class DamagedTables(InputError):
    """Tables that fail a check before use: the manifest's schema or seal, a file's size,
    kind or SHA-256.  Such tables are never read: a damaged byte would be a wrong claim."""


HASH_CHUNK = 1 << 24
"""Bytes hashed per step (16 MiB, about 10 ms): Ctrl-C is seen between two steps."""


def _is_integer(checker, instance) -> bool:
    return type(instance) is int  # JSON Schema would take 2.0 as an integer


@cache
def _manifest_validator() -> jsonschema.Draft202012Validator:
    strict = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )
    return strict(orjson.loads(data_file("schema", MANIFEST_SCHEMA).read_bytes()))


def _damaged(path: Path, reason: str) -> DamagedTables:
    return DamagedTables(
        f"tables: {quote(path)} is damaged ({reason}); rebuild them with "
        f"'fechtbuch tb build --force'"
    )


def read_manifest(folder: Path) -> dict:
    """The manifest of a table folder, checked against its schema, its seal and the
    layout of its card set; every failure is one :class:`InputError` line."""
    path = folder / MANIFEST
    try:
        present = os.path.lexists(path)
    except ValueError:  # an embedded NUL byte
        raise InputError(f"tables: cannot read {quote(folder)} (bad file name)") from None
    if not present:
        if os.path.isdir(folder):
            raise InputError(f"tables: no {MANIFEST} in {quote(folder)} (not a table folder)")
    # the reader refuses FIFOs and devices and names what is wrong with an odd path
    manifest = read_json_file(path, "tables")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"tables: {quote(path)} is not the manifest of fechtbuch tables")
    if manifest.get("version") != FORMAT_VERSION:
        raise InputError(
            f"tables: {quote(folder)} is a version {quote(manifest.get('version'))} table, "
            f"not version {FORMAT_VERSION}: rebuild it with 'fechtbuch tb build --force'"
        )
    if "seal" not in manifest:
        raise _damaged(path, "no seal: built by an older fechtbuch or edited")
    errors = sorted(
        _manifest_validator().iter_errors(manifest), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top)"
        raise _damaged(path, f"{where}: {quote(errors[0].message, 120)[1:-1]}")
    if manifest["seal"] != manifest_seal(manifest):
        raise _damaged(path, "its seal does not match its content: edited or corrupted")
    _check_layout(path, manifest)
    return manifest


def _check_layout(path: Path, manifest: dict) -> None:
    """The sealed manifest agrees with what its card set's layout says (a build of an
    older or other program must not be read with this index)."""
    try:
        cards = tuple(card_from_id(c) for c in manifest["cards"])
    except InputError as err:
        raise _damaged(path, f"cards: {err}") from None
    if list(cards) != sorted(cards) or len(set(cards)) != 5:
        raise _damaged(path, "cards: not five distinct cards in card order")
    lay = ix.layout(cards)
    if manifest["mirror"] != lay.mirrored:
        raise _damaged(path, f"mirror: {manifest['mirror']} does not fit the card set")
    listed = [tuple(entry["split"]) for entry in manifest["splits"]]
    k = manifest["max_students"]
    if listed != ix.required_splits(listed) or k != max(max(split) for split in listed):
        raise _damaged(
            path, f"splits: {listed} are not the splits of a K = {k} build in build order"
        )
    for entry, (a, b) in zip(manifest["splits"], listed, strict=True):
        wanted = {
            "file": split_file(a, b),
            "boards": lay.boards(a, b),
            "bytes": lay.positions(a, b),
            "positions": ix.covered_positions(a, b),
        }
        for field, value in wanted.items():
            if entry[field] != value:
                raise _damaged(path, f"split {a},{b}: {field} {entry[field]!r}, expected {value!r}")
        if entry["won"] + entry["lost"] + entry["drawn"] != entry["positions"]:
            raise _damaged(path, f"split {a},{b}: won + lost + drawn is not its positions")


def verified_values(folder: Path, entry: dict) -> np.ndarray:
    """One split's bytes, memory-mapped read-only after their size and SHA-256 matched
    the manifest (the hash is taken over the very mapping that probes read)."""
    path = folder / entry["file"]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise _damaged(path, err.strerror or type(err).__name__) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _damaged(path, "not a regular file")
        if info.st_size != entry["bytes"]:
            raise _damaged(path, f"{info.st_size:,} bytes, the manifest says {entry['bytes']:,}")
        with os.fdopen(os.dup(fd), "rb") as handle:
            values = np.memmap(handle, dtype=np.uint8, mode="r", shape=(entry["bytes"],))
    finally:
        os.close(fd)
    digest = hashlib.sha256()
    flat = memoryview(values).cast("B")
    for start in range(0, len(flat), HASH_CHUNK):
        digest.update(flat[start : start + HASH_CHUNK])
    if digest.hexdigest() != entry["sha256"]:
        raise _damaged(path, "its SHA-256 differs from the manifest's: the bytes changed")
    return values


class Tablebase:
    """The tables of one card set, memory-mapped read-only.  Every file is checked
    (size and SHA-256) when the tables are opened, before any probe: a few ms per MB."""

    def __init__(self, folder: Path, manifest: dict):
        self.folder = folder
        self.manifest = manifest
        self.cards: tuple[Card, ...] = tuple(sorted(card_from_id(c) for c in manifest["cards"]))
        self.max_students: int = manifest["max_students"]
        self.layout = ix.layout(self.cards)
        self._values: dict[tuple[int, int], np.ndarray] = {
            (entry["split"][0], entry["split"][1]): verified_values(folder, entry)
            for entry in manifest["splits"]
        }

    @classmethod
    def open(cls, folder: str | Path) -> Tablebase:
        """Open a folder written by :func:`build`: the manifest must pass its schema, its
        seal and the layout, and every file its size and SHA-256, else
        :class:`InputError` (:class:`DamagedTables` for damage) and nothing is read."""
        folder = Path(folder)
        return cls(folder, read_manifest(folder))

    @property
    def splits(self) -> tuple[tuple[int, int], ...]:
        """The material splits in these tables."""
        return tuple(self._values)

    def split_values(self, split: tuple[int, int]) -> np.ndarray:
        """The raw value bytes of one split, in index order (read-only memory map)."""
        return self._values[split]

    def covers(self, pos: Position) -> bool:
        """True if the position is live, uses this card set and its split was built."""
        if pos.winner() is not None or pos.cards != self.cards:
            return False
        split = (pos.students[pos.turn].bit_count(), pos.students[1 - pos.turn].bit_count())
        return split in self._values

    def probe(self, pos: Position) -> TbResult:
        """The exact result of a covered position for the side to move."""
        if not self.covers(pos):
            raise NotCovered(
                f"position: not covered by the tables of {','.join(map(card_id, self.cards))} "
                f"with up to {self.max_students} students per side: {pos.to_text()!r}"
            )
        where = ix.locate(pos, self.cards)
        return TbResult.from_code(int(self._values[where.split][where.offset]))

    def move_results(self, pos: Position) -> list[tuple[Move, TbResult]]:
        """Every legal move with the mover's result after it."""
        out = []
        for move in legal_moves(pos):
            child = play(pos, move)
            decided = child.winner() is not None
            out.append((move, HIT if decided else self.probe(child).after_move()))
        return out

    def best_moves(self, pos: Position) -> list[Move]:
        """Every move that keeps the best result: for a win in d the keys (hit within d),
        for a draw the moves that keep it, for a loss the moves that delay it longest."""
        results = self.move_results(pos)
        best = max(r.rank() for _, r in results)
        return [m for m, r in results if r.rank() == best]

    def main_line(self, pos: Position) -> list[Move]:
        """docs/solver.md's main line from the tables: for a win the fastest key, the
        longest defence, the fastest finish, ... to the hit; for a loss the longest
        defence first; empty for a draw.  Ties by notation text, ascending."""
        result = self.probe(pos)
        if result.result is Outcome.DRAW:
            return []
        line: list[Move] = []
        attacking = result.result is Outcome.WIN
        while True:
            by_text = sorted(self.move_results(pos), key=lambda item: item[0].to_text())
            # min/max keep the first of equals: ties go to the smaller notation text
            if attacking:
                wins = [(m, r.distance) for m, r in by_text if r.result is Outcome.WIN]
                move = min(wins, key=lambda item: item[1])[0]  # type: ignore[arg-type, return-value]
            else:
                delays = [(m, r.distance) for m, r in by_text]
                move = max(delays, key=lambda item: item[1])[0]  # type: ignore[arg-type, return-value]
            line.append(move)
            pos = play(pos, move)
            if pos.winner() is not None:
                return line
            attacking = not attacking


def default_root() -> Path:
    """Where tables live unless told: ``$FECHTBUCH_TABLES``, else
    ``$XDG_DATA_HOME/fechtbuch/tables`` (``~/.local/share/...``)."""
    override = os.environ.get("FECHTBUCH_TABLES")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local/share")
    return Path(base) / "fechtbuch" / "tables"


def table_folder(cards: tuple[Card, ...], root: Path | None = None) -> Path:
    """The folder of one card set's tables under a tables root (``--tables``, default
    :func:`default_root`): ``<root>/<ids in card order, joined by ->``.

    ``root`` may also be a card set's folder itself (it holds a ``manifest.json``): the
    form ``tb probe --tables`` once took, still accepted."""
    root = Path(root) if root is not None else default_root()
    try:
        if os.path.lexists(root / MANIFEST):
            return root
    except ValueError:  # an embedded NUL byte: the reader reports it
        return root
    return root / "-".join(card_id(c) for c in sorted(cards))


def _warn(message: str) -> None:
    sys.stderr.write(f"fechtbuch: warning: {message}\n")
    sys.stderr.flush()


_OPENED: dict[Path, Tablebase | None] = {}


def find_tables(pos: Position, root: Path | None = None) -> Tablebase | None:
    """The built tables covering ``pos`` under the tables root ``root`` (default
    :func:`default_root`), or None.

    For the solver and the Meister: one call per position is cheap (the tables of a
    folder are opened and checked once per process).  Tables that fail their checks
    are reported in one warning line on stderr and never used: the caller searches."""
    folder = table_folder(pos.cards, root)
    if folder not in _OPENED:
        try:
            if not os.path.lexists(folder / MANIFEST):
                return None
        except ValueError:
            return None
        try:
            _OPENED[folder] = Tablebase.open(folder)
        except InputError as err:
            _warn(f"{err}; not used, searching instead")
            _OPENED[folder] = None
    base = _OPENED[folder]
    return base if base is not None and base.covers(pos) else None
