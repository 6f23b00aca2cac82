"""The ``PACK`` argument of every pack command: a pack file, or the name of a shipped pack."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.puzzles.pack import (
    shipped_pack_path,
)


class PackFileType(click.ParamType):
    """A pack file, or the name of a shipped pack (``fechtuebungen``), so that an
    installed copy can reach its own packs from any folder."""

    name = "PACK"

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            return value
        path = Path(value)
        try:
            exists = path.exists()
        except OSError:  # a name too long and the like: the file reader says so
            return path
        if not exists:
            shipped = shipped_pack_path(value)
            if shipped is not None:
                return shipped
        return path


PACK_FILE = PackFileType()
