"""A table folder's manifest and split files: their names, the seal over the manifest, and
the checked reads (schema, seal, layout, each split's size and SHA-256) that every
reader and a resumed build share.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import cache
from pathlib import Path

import jsonschema
import numpy as np
import orjson
from fechtbuch.engines.battleklinge.cards import card_from_id
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import dump_json, read_json_file
from fechtbuch.engines.paths import data_file

FORMAT = "fechtbuch-battleklinge-tablebase"


FORMAT_VERSION = 2
"""2: the left-right mirror halves the tables of mirror-closed card sets (docs/tablebase.md)."""


MANIFEST = "manifest.json"


def split_file(a: int, b: int) -> str:
    return f"split-{a}-{b}.bin"


def manifest_seal(manifest: dict) -> str:
    """SHA-256 of the manifest without its ``seal`` field (as :func:`dump_json` writes it):
    an edited field (cards, a split's file name or hash, a count) no longer matches it,
    so a damaged manifest is refused instead of pointing a split at the wrong bytes."""
    unsealed = {key: value for key, value in manifest.items() if key != "seal"}
    return hashlib.sha256(dump_json(unsealed)).hexdigest()


MANIFEST_SCHEMA = "tablebase-manifest.schema.json"


class DamagedTables(InputError):
    """Tables that fail a check before use: the manifest's schema or seal, a file's size,
    kind or SHA-256.  Such tables are never read: a damaged byte would be a wrong claim.

    ``reason`` is what is wrong with the one file named (without the file's path), so
    that a listing can name each damaged split in a few words."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


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
        f"'fechtbuch tb build --force'",
        reason,
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


def split_damage(folder: Path, entry: dict) -> str | None:
    """What is wrong with one split file of a sealed manifest (missing, not a regular
    file, its size or its SHA-256), in a few words; None when it is the file the
    manifest lists.  The very checks :func:`verified_values` makes before a probe."""
    try:
        verified_values(folder, entry)
    except DamagedTables as err:
        return err.reason
    return None
