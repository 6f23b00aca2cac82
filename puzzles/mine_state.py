"""The resume state of ``fechtbuch mine``: ``OUTPUT.partial``, written after each batch.

``{"format": "fechtbuch-mine-state", "params": {...}, "next_game": 32, "pool": {...}}``
where ``pool`` is :meth:`puzzles.mining.Pool.to_json`.  Like a pack, the state is
checked against a strict schema (:data:`STATE_SCHEMA`, built on the pack schema's
definitions) before anything reads it, so a damaged file is one line naming the
JSON path, never an AttributeError half-way through mining.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import orjson
from fechtbuch.engines.clikit import read_json_file
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.puzzles.battleklinge.sources import SOURCES
from fechtbuch.puzzles.mining import Pool
from fechtbuch.puzzles.pack import SCHEMA_PATH, StrictValidator

STATE_FORMAT = "fechtbuch-mine-state"

_COUNTS = {
    "type": "object",
    "required": list(SOURCES),
    "additionalProperties": False,
    "properties": {s: {"type": "integer", "minimum": 0} for s in SOURCES},
}
_CANDIDATE = {
    "allOf": [{"$ref": "#/$defs/puzzleFields"}],
    "required": ["features", "mirror_class", "pieces", "material_gap", "game", "ply", "source"],
    "properties": {
        "features": {"type": "object", "additionalProperties": {"type": "number"}},
        "mirror_class": {"type": "string"},
        "pieces": {"type": "integer", "minimum": 0},
        "material_gap": {"type": "integer"},
        "game": {"type": "integer", "minimum": 0},
        "ply": {"type": "integer", "minimum": 0},
        "source": {"enum": list(SOURCES)},
    },
}
STATE_SCHEMA_TOP = {
    "type": "object",
    "required": ["format", "params", "next_game", "pool"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": STATE_FORMAT},
        "params": {"type": "object"},
        "next_game": {"type": "integer", "minimum": 0},
        "pool": {
            "type": "object",
            "required": ["candidates", "positions", "found", "games", "rejected"],
            "additionalProperties": False,
            "properties": {
                "candidates": {"type": "array", "items": _CANDIDATE},
                "positions": _COUNTS,
                "found": _COUNTS,
                "games": {"type": "integer", "minimum": 0},
                "rejected": {"type": "integer", "minimum": 0},
            },
        },
    },
}


@cache
def _validator():
    """The state schema with the pack schema's definitions (moves, trees, puzzle fields)."""
    pack_schema = orjson.loads(SCHEMA_PATH.read_bytes())
    defs = dict(pack_schema["$defs"])
    fields = dict(defs["puzzle"])
    fields.pop("additionalProperties")  # a candidate carries the mining fields as well
    defs["puzzleFields"] = fields
    return StrictValidator({**STATE_SCHEMA_TOP, "$defs": defs})


def state_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


def state_json(params: dict, next_game: int, pool: Pool) -> bytes:
    state = {"format": STATE_FORMAT, "params": params, "next_game": next_game}
    return orjson.dumps(state | {"pool": pool.to_json()})


def load_state(path: Path, params: dict) -> tuple[Pool, int]:
    """(pool, next game) from a resume state made with the same ``params``; every
    problem (unreadable, not JSON, schema, other options) is one InputError."""
    state = read_json_file(path, "--resume")
    errors = sorted(_validator().iter_errors(state), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top)"
        raise InputError(
            f"--resume: {quote(str(path))} is damaged at {where}: "
            f"{quote(errors[0].message, 120)[1:-1]}; delete it or use --force to start over"
        )
    if state["params"] != params:
        raise InputError(
            f"resume: {quote(str(path))} was made with other options {state['params']}"
        )
    return Pool.from_json(state["pool"]), state["next_game"]


def claim(path: Path, params: dict, force: bool) -> bool:
    """Create the state file of a new run (empty pool) or refuse: without ``force`` an
    existing one belongs to an interrupted or running mine of the same OUTPUT.  Created
    exclusively (O_EXCL), so of two runs started at once one refuses before mining."""
    data = state_json(params, 0, Pool())
    if force:
        path.unlink(missing_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise InputError(
            f"output: {quote(str(path))} exists (an interrupted or running mine of this "
            "output); continue it with --resume or start over with --force"
        ) from None
    except OSError as err:
        raise InputError(f"output: cannot write {quote(str(path))} ({err.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except BaseException:  # Ctrl-C or a full disk: leave nothing behind
        path.unlink(missing_ok=True)
        raise
    return True
