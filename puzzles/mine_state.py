"""The resume state of every ``mine`` command: ``OUTPUT.partial``, written after each batch.

``{"format": "fechtbuch-mine-state", "rules": "battleklinge", "params": {...},
"next_round": 32, "pool": {...}}`` where ``pool`` is
:meth:`fechtbuch.puzzles.minekit.MinePool.to_json`.  Like a pack, the state is
checked against a strict schema (the envelope here, each candidate against the
game's ``candidate_schema``, built on the pack schema's definitions) before anything
reads it, so a damaged file is one line naming the JSON path, never an
AttributeError half-way through mining.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import orjson
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import read_json_file
from fechtbuch.puzzles.minekit import MinePool, MiningKind
from fechtbuch.puzzles.pack import SCHEMA_PATH, StrictValidator

STATE_FORMAT = "fechtbuch-mine-state"


def state_schema(kind: MiningKind) -> dict:
    """The schema of ``kind``'s resume state (without ``$defs``)."""
    return {
        "type": "object",
        "required": ["format", "rules", "params", "next_round", "pool"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": STATE_FORMAT},
            "rules": {"const": kind.rules},
            "params": {"type": "object"},
            "next_round": {"type": "integer", "minimum": 0},
            "pool": {
                "type": "object",
                "required": ["candidates", "rounds", "counts"],
                "additionalProperties": False,
                "properties": {
                    "candidates": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["round", "puzzle"],
                            "additionalProperties": False,
                            "properties": {
                                "round": {"type": "integer", "minimum": 0},
                                "puzzle": kind.candidate_schema,
                            },
                        },
                    },
                    "rounds": {"type": "integer", "minimum": 0},
                    "counts": {
                        "type": "object",
                        "additionalProperties": {"type": "integer", "minimum": 0},
                    },
                },
            },
        },
    }


@cache
def _pack_defs() -> dict:
    """The pack schema's definitions, with ``puzzleFields``: a puzzle's fields without
    the ban on others (a candidate carries its mining facts as well)."""
    defs = dict(orjson.loads(SCHEMA_PATH.read_bytes())["$defs"])
    fields = dict(defs["puzzle"])
    fields.pop("additionalProperties")
    defs["puzzleFields"] = fields
    return defs


_VALIDATORS: dict[str, StrictValidator] = {}


def _validator(kind: MiningKind) -> StrictValidator:
    if kind.rules not in _VALIDATORS:
        _VALIDATORS[kind.rules] = StrictValidator({**state_schema(kind), "$defs": _pack_defs()})
    return _VALIDATORS[kind.rules]


def state_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


def state_bytes(kind: MiningKind, params: dict, next_round: int, pool: MinePool) -> bytes:
    state = {"format": STATE_FORMAT, "rules": kind.rules, "params": params}
    return orjson.dumps(state | {"next_round": next_round, "pool": pool.to_json()})


def load_state(kind: MiningKind, path: Path, params: dict) -> tuple[MinePool, int]:
    """(pool, next round) from a resume state made with the same ``params``; every
    problem (unreadable, not JSON, schema, other options) is one InputError."""
    state = read_json_file(path, "--resume")
    errors = sorted(_validator(kind).iter_errors(state), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top)"
        raise InputError(
            f"--resume: {quote(str(path))} is damaged at {where}: "
            f"{quote(errors[0].message, 120)[1:-1]}; delete it or use --force to start over"
        )
    if state["params"] != params:
        raise InputError(
            f"--resume: {quote(str(path))} was made with other options {state['params']}"
        )
    return MinePool.from_json(state["pool"], kind.duplicate_class), state["next_round"]


def saved_progress(path: Path) -> tuple[int, int] | None:
    """(next round, candidates) that the state file at ``path`` holds, None if it is
    gone: what an interrupted run may say it kept (its memory can be a batch ahead)."""
    try:
        state = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except orjson.JSONDecodeError:  # Ctrl-C between the claim's create and its write
        return 0, 0
    return state["next_round"], len(state["pool"]["candidates"])


def claim(kind: MiningKind, path: Path, params: dict, force: bool) -> bool:
    """Create the state file of a new run (empty pool) or refuse: without ``force`` an
    existing one belongs to an interrupted or running mine of the same OUTPUT.  Created
    exclusively (O_EXCL), so of two runs started at once one refuses before mining."""
    data = state_bytes(kind, params, 0, MinePool())
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
