"""Reading and writing user files safely: atomic writes that never overwrite without
``force``, output folders created with a note, and reads that refuse FIFOs, folders and
oversized files, every failure one :class:`~fechtbuch.engines.errors.InputError` naming
the field.  Shared by every layer that writes packs, tables, records or databases.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

import orjson
from fechtbuch.engines.errors import InputError, quote


def dump_json(obj) -> bytes:
    """Byte-stable JSON for files: sorted keys, two-space indent, final newline."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def atomic_write(path: str | os.PathLike, data: bytes, force: bool = False) -> None:
    """Write ``data`` to ``path`` via a temporary file and rename.

    A reader never sees a half-written file, and a crash leaves the old file
    intact.  Refuses to replace an existing file unless ``force``; every failure
    (see :func:`ensure_writable`) is one InputError naming ``output``.
    """
    target = Path(path)
    fd, tmp = _temp_beside(target, force, ".tmp")
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        mode = _existing_mode(target)
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise _cannot_write(target, err.strerror or type(err).__name__) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def ensure_writable(path: str | os.PathLike, force: bool = False) -> None:
    """Fail early (InputError) if ``path`` exists without ``force`` or cannot be written,
    before a long job spends its time.

    Every odd path is one line naming ``output``: a name too long, a path through a
    file, a symlink loop or a dangling link (refused without ``--force`` like any
    existing name), a FIFO or a folder in the way, a folder the user may not write.
    A missing folder is created, and a note on stderr says so."""
    fd, probe = _temp_beside(Path(path), force, ".probe")
    os.close(fd)
    os.unlink(probe)


def _cannot_write(target: Path, reason: str) -> InputError:
    return InputError(f"output: cannot write {quote(target)} ({reason})")


def _existing_mode(target: Path) -> int | None:
    try:
        return target.stat().st_mode & 0o777
    except (OSError, ValueError):
        return None


def _lstat(path: Path, target: Path) -> os.stat_result | None:
    """``lstat`` of ``path`` (None if nothing is there); other failures name ``target``."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except ValueError:  # an embedded NUL byte
        raise _cannot_write(target, "bad file name") from None
    except NotADirectoryError:
        raise _cannot_write(target, "a part of the path is a file, not a folder") from None
    except OSError as err:
        raise _cannot_write(target, err.strerror or type(err).__name__) from None


def make_output_folder(directory: Path, target: Path | None = None) -> None:
    """Make sure ``directory`` is a folder, creating missing ones with a note on stderr;
    a file, FIFO or symlink loop in the way is one InputError naming ``target``."""
    target = target if target is not None else directory
    missing: list[Path] = []
    folder = directory
    while True:
        info = _lstat(folder, target)
        if info is None:
            missing.append(folder)
            if folder.parent == folder:
                break
            folder = folder.parent
            continue
        if stat.S_ISLNK(info.st_mode):
            try:
                info = os.stat(folder)
            except OSError as err:
                reason = err.strerror or type(err).__name__
                raise _cannot_write(target, f"{quote(folder)}: {reason}") from None
        if not stat.S_ISDIR(info.st_mode):
            raise _cannot_write(target, f"{quote(folder)} is a file, not a folder")
        break
    if not missing:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) else str(err)
        raise _cannot_write(target, reason or type(err).__name__) from None
    print(f"fechtbuch: note: created the folder {quote(missing[-1])}", file=sys.stderr)


def _temp_beside(target: Path, force: bool, suffix: str) -> tuple[int, str]:
    """A new temporary file in ``target``'s folder (created if missing), after refusing
    an existing ``target`` without ``force``; every failure is one InputError."""
    if len(target.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        raise _cannot_write(target, f"the file name is longer than {NAME_MAX} bytes")
    directory = target.parent if str(target.parent) else Path(".")
    make_output_folder(directory, target)
    info = _lstat(target, target)
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise _cannot_write(target, "it is a folder")
        if not force:
            kind = "" if stat.S_ISREG(info.st_mode) else f" (a {_kind(info.st_mode)})"
            raise InputError(f"output: {quote(target)} exists{kind}; use --force to overwrite it")
    # the temporary name is cut so that a name near the limit still gets one
    prefix = "." + target.name[: NAME_MAX - 40] + "."
    try:
        return tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=directory)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) else str(err)
        raise _cannot_write(target, reason or type(err).__name__) from None


NAME_MAX = 255
"""The longest file name (bytes) of Linux and macOS file systems."""


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    return "special file"


def _umask() -> int:
    """The process umask (reading it requires setting it; it is restored at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


MAX_INPUT_BYTES = 256 * 1024 * 1024
"""Larger input files are refused rather than read into memory."""


def _cannot_read(what: str, path: object, reason: str) -> InputError:
    return InputError(f"{what}: cannot read {quote(path)} ({reason})")


def _refuse_special(mode: int, what: str, path: object) -> None:
    if stat.S_ISDIR(mode):
        raise _cannot_read(what, path, "it is a folder")
    if not stat.S_ISREG(mode):
        raise _cannot_read(what, path, "not a regular file: a FIFO, device or socket")


def read_input_bytes(path: str | os.PathLike, what: str) -> bytes:
    """The bytes of the user's file ``path``; every failure is one :class:`InputError`
    naming ``what`` (the option or argument) and quoting the path.

    The one way fechtbuch reads a user's file.  FIFOs, devices, sockets and folders
    are refused before anything could block on them (the file is opened non-blocking
    and checked again after opening, so a swap in between cannot hang either); every
    OS error (no such file, permission denied, symlink loop, name too long, a path
    through a file) becomes the one-line error.
    """
    try:
        name = os.fspath(path)
        _refuse_special(os.stat(name).st_mode, what, path)  # before opening anything
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except InputError:
        raise
    except ValueError:  # an embedded NUL byte
        raise _cannot_read(what, path, "bad file name") from None
    except FileNotFoundError:
        raise InputError(f"{what}: no such file {quote(path)}") from None
    except IsADirectoryError:
        raise _cannot_read(what, path, "it is a folder") from None
    except OSError as err:
        raise _cannot_read(what, path, err.strerror or type(err).__name__) from None
    try:
        info = os.fstat(fd)
        _refuse_special(info.st_mode, what, path)  # again: it may have been swapped
        if info.st_size > MAX_INPUT_BYTES:
            raise _cannot_read(what, path, f"larger than {MAX_INPUT_BYTES >> 20} MiB")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as err:
        raise _cannot_read(what, path, err.strerror or type(err).__name__) from None
    finally:
        os.close(fd)
    if len(data) > MAX_INPUT_BYTES:
        raise _cannot_read(what, path, f"larger than {MAX_INPUT_BYTES >> 20} MiB")
    return data


def read_text_file(path: str | os.PathLike, what: str) -> str:
    """The UTF-8 text of ``path`` (:func:`read_input_bytes`); other encodings are an
    InputError that says where the first bad byte is."""
    data = read_input_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _cannot_read(
            what, path, f"not UTF-8 text: byte 0x{data[err.start]:02x} at offset {err.start}"
        ) from None


def read_json_file(path: str | os.PathLike, what: str):
    """Load a JSON file (:func:`read_input_bytes`); malformed JSON is an InputError."""
    data = read_input_bytes(path, what)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as err:
        reason = quote(err, 120)[1:-1]
        raise InputError(f"{what}: {quote(path)} is not valid JSON ({reason})") from None
