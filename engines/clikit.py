"""Pieces every fechtbuch command shares: click parameter types, JSON output,
atomic file writes.

Commands live next to the code they drive (``solver/commands.py``,
``puzzles/...``) and ``cli.py`` registers them, so each feature stays in its
own package.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click
import orjson
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.errors import InputError


class PositionType(click.ParamType):
    """A position in notation; bad text becomes an error naming the field."""

    name = "POSITION"

    def convert(self, value, param, ctx):
        if isinstance(value, Position):
            return value
        return Position.from_text(value)


class MoveType(click.ParamType):
    """A move in notation (``ausfall:c1c3``, ``volte:pass``)."""

    name = "MOVE"

    def convert(self, value, param, ctx):
        if isinstance(value, Move):
            return value
        return Move.from_text(value)


POSITION = PositionType()
MOVE = MoveType()


def emit_json(obj) -> None:
    """Print one JSON object (orjson, sorted keys, indented) on stdout."""
    click.echo(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode())


def dump_json(obj) -> bytes:
    """Byte-stable JSON for files: sorted keys, two-space indent, final newline."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def atomic_write(path: str | os.PathLike, data: bytes, force: bool = False) -> None:
    """Write ``data`` to ``path`` via a temporary file and rename.

    A reader never sees a half-written file, and a crash leaves the old file
    intact.  Refuses to replace an existing file unless ``force``.
    """
    target = Path(path)
    fd, tmp = _temp_beside(target, force, ".tmp")
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def ensure_writable(path: str | os.PathLike, force: bool = False) -> None:
    """Fail early (InputError) if ``path`` exists without ``force`` or cannot be written,
    before a long job spends its time."""
    fd, probe = _temp_beside(Path(path), force, ".probe")
    os.close(fd)
    os.unlink(probe)


def _temp_beside(target: Path, force: bool, suffix: str) -> tuple[int, str]:
    """A new temporary file in ``target``'s folder (created if missing), after refusing
    an existing ``target`` without ``force``; every failure is one InputError."""
    try:
        exists = target.exists()
    except ValueError:  # an embedded NUL byte
        raise InputError(f"output: cannot write {str(target)!r} (bad file name)") from None
    if exists and not force:
        raise InputError(f"output: {str(target)!r} exists; use --force to overwrite it")
    directory = target.parent if str(target.parent) else Path(".")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=directory)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) else str(err)
        raise InputError(f"output: cannot write {str(target)!r} ({reason})") from None


def _umask() -> int:
    """The process umask (reading it requires setting it; it is restored at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_json_file(path: str | os.PathLike, what: str):
    """Load a JSON file; a missing or malformed file is an InputError naming it."""
    target = Path(path)
    try:
        return orjson.loads(target.read_bytes())
    except FileNotFoundError:
        raise InputError(f"{what}: no such file {str(target)!r}") from None
    except orjson.JSONDecodeError as err:
        raise InputError(f"{what}: {str(target)!r} is not valid JSON ({err})") from None
