"""Exercise packs: assembling, validating and verifying the JSON that the game reads.

Format (schema: data/schema/pack.schema.json): top level ``format``
("fechtbuch-pack"), ``version``, ``rules``, ``generator``, ``seed``,
``command``, ``puzzles``.  Each puzzle: ``id``, ``n``, ``position``,
``attacker``, ``key``, ``line``, ``solution`` (the solution tree of
docs/solver.md), ``tags``, ``difficulty``, ``cards``.  Puzzles are ordered by
N, then difficulty, then id.

Every pack is checked against the schema (strict types: ``2.0`` is not an
integer) before anything else reads it: :func:`load_pack` refuses a pack that
fails, so no command ever meets a malformed one.  The schema is also the pack's
declared range of N: a version-1 pack claims hits within at most :data:`MAX_N`
own moves (what ``fechtbuch mine`` makes), so verifying any claim of a valid pack
is bounded; a larger ``n`` is an error of the pack, found before any search.

``pack verify`` (:func:`verify_pack`) re-derives every derived field of every
puzzle and compares: ``n`` and ``key`` (exactly N, the only key), ``solution``
(complete and correct), ``line`` (the main line), ``id``, ``attacker``,
``cards``, ``tags`` (:func:`puzzles.battleklinge.tags.tags_for`) and ``difficulty``
(:func:`puzzles.battleklinge.rating.difficulty`), plus order and mirror duplicates.  Only
``generator``, ``seed`` and ``command`` are informative: they say how the pack
was made and are not verified.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import jsonschema
import orjson
from fechtbuch.engines import __version__
from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, card_id
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.engines.clikit import dump_json, read_json_file
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.paths import data_file, data_path
from fechtbuch.puzzles.battleklinge.rating import difficulty, features
from fechtbuch.puzzles.battleklinge.tags import PuzzleFacts, tags_for
from fechtbuch.puzzles.mining import mirror_class, puzzle_id
from fechtbuch.solver.verify import main_line as verifier_main_line
from fechtbuch.solver.verify import verify_exercise, verify_tree

PACK_FORMAT = "fechtbuch-pack"
PACK_VERSION = 1
MAX_N = 3
"""The largest N a version-1 pack may claim (the schema's maximum of ``n``)."""
PUZZLE_FIELDS = (
    "id",
    "n",
    "position",
    "attacker",
    "key",
    "line",
    "solution",
    "tags",
    "difficulty",
    "cards",
)
SCHEMA_PATH = data_file("schema", "pack.schema.json")


class PackError(InputError):
    """A pack file that is not a pack at all (unreadable, not JSON, wrong format)."""


def _is_integer(checker, instance) -> bool:
    """JSON Schema calls 2.0 an integer; a pack's counts must be written as integers."""
    return type(instance) is int


StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return StrictValidator(orjson.loads(SCHEMA_PATH.read_bytes()))


def build_pack(selected: list[dict], seed: int, command: str) -> dict:
    puzzles = [{k: c[k] for k in PUZZLE_FIELDS} for c in selected]
    puzzles.sort(key=lambda p: (p["n"], p["difficulty"], p["id"]))
    return {
        "format": PACK_FORMAT,
        "version": PACK_VERSION,
        "rules": "battleklinge",
        "generator": {"name": "fechtbuch", "version": __version__},
        "seed": seed,
        "command": command,
        "puzzles": puzzles,
    }


def pack_bytes(pack: dict) -> bytes:
    return dump_json(pack)


def schema_problems(pack) -> list[str]:
    """One line per schema violation, with its JSON path."""
    problems = []
    for error in sorted(_validator().iter_errors(pack), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in error.absolute_path) or "(top)"
        message = error.message if len(error.message) < 160 else error.message[:157] + "..."
        problems.append(f"schema: {path}: {message}")
    return problems


def verify_puzzle(puzzle: dict, max_n: int = MAX_N) -> list[str]:
    """Re-prove one puzzle with the independent verifier; one line per problem.

    ``max_n`` is the declared range of the puzzle's pack: the verifier's work grows
    steeply with N, so a claim beyond it is refused before any search."""
    problems = []
    try:
        pos = Position.from_text(puzzle["position"])
        key = Move.from_text(puzzle["key"])
        line = [Move.from_text(m) for m in puzzle["line"]]
    except NotationError as err:
        return [str(err)]
    n = puzzle["n"]
    if not 1 <= n <= max_n:  # the schema says so; checked again for callers without it
        return [f"n: {n} is outside this pack's range 1-{max_n}"]
    if puzzle["id"] != puzzle_id(puzzle["position"], n, puzzle["key"]):
        problems.append(f"id: expected {puzzle_id(puzzle['position'], n, puzzle['key'])}")
    if puzzle["attacker"] != COLOR_CHARS[pos.turn]:
        problems.append("attacker: not the side to move")
    if puzzle["cards"] != [card_id(c) for c in pos.cards]:
        problems.append("cards: not the five cards of the position")
    if not line or line[0] != key:
        problems.append("line: must start with the key")
    exercise_problems = [_field_of(p) for p in verify_exercise(pos, n, key)]
    problems += exercise_problems
    if exercise_problems:
        return problems  # the tree and line of a position without an exact-N hit mean nothing
    problems += [f"solution: {p}" for p in verify_tree(pos, puzzle["solution"], n)]
    problems += _line_problems(pos, line, puzzle["solution"])
    expected_line = verifier_main_line(pos, n)
    if puzzle["line"] != expected_line:
        problems.append(f"line: not the main line; expected {' '.join(expected_line)}")
        return problems  # tags are facts of the main line: without it they mean nothing
    return problems + derived_field_problems(puzzle, pos, key, line)


def derived_fields(
    puzzle: dict, pos: Position, key: Move, line: list[Move]
) -> tuple[list[str], float]:
    """``tags`` and ``difficulty`` of a puzzle (for a puzzle made elsewhere, such as a
    tablebase study, and for verification), by the functions mining uses."""
    n = puzzle["n"]
    facts = PuzzleFacts(pos, n, key, tuple(line), puzzle["solution"], frozenset([key]))
    return tags_for(facts), difficulty(features(pos, n, key))


def derived_field_problems(puzzle: dict, pos: Position, key: Move, line: list[Move]) -> list[str]:
    """``tags`` and ``difficulty`` recomputed by the functions that mining used, for a
    puzzle whose key, line and tree are already verified."""
    problems = []
    expected_tags, expected_difficulty = derived_fields(puzzle, pos, key, line)
    if puzzle["tags"] != expected_tags:
        problems.append(f"tags: {puzzle['tags']} but recomputed {expected_tags}")
    if puzzle["difficulty"] != expected_difficulty:
        problems.append(f"difficulty: {puzzle['difficulty']} but recomputed {expected_difficulty}")
    return problems


def _field_of(problem: str) -> str:
    """The verifier's exercise problems, prefixed with the field whose claim fails."""
    if problem.startswith("keys are"):
        return f"key: {problem}"
    if problem.startswith("position"):
        return f"position: {problem}"
    return f"n: {problem}"


def _line_problems(pos: Position, line: list[Move], tree) -> list[str]:
    """The line must follow the tree and end in a hit."""
    node = tree
    for i, move in enumerate(line):
        text = move.to_text()
        if not isinstance(node, dict) or text not in node:
            return [f"line: move {i + 1} {text!r} leaves the solution tree"]
        node = node[text]
    return [] if node == "hit" else ["line: does not end in a hit"]


def verify_pack(pack, progress: Callable[[], None] | None = None) -> list[str]:
    """All problems of a pack: schema, every puzzle (every derived field re-derived),
    ids, mirror duplicates, order.  ``progress`` is called after each puzzle."""
    problems = schema_problems(pack)
    if problems:
        return problems
    classes: dict[str, str] = {}
    ids: dict[str, int] = {}
    for number, puzzle in enumerate(pack["puzzles"], 1):
        label = f"puzzle {number} ({puzzle['id']})"
        problems += [f"{label}: {p}" for p in verify_puzzle(puzzle)]
        if progress is not None:
            progress()
        if puzzle["id"] in ids:
            problems.append(f"{label}: id: same id as puzzle {ids[puzzle['id']]}")
        ids.setdefault(puzzle["id"], number)
        try:
            cls = mirror_class(Position.from_text(puzzle["position"]))
        except NotationError:
            continue
        if cls in classes:
            problems.append(f"{label}: same as {classes[cls]} up to the mirror")
        classes.setdefault(cls, label)
    order = [(p["n"], p["difficulty"], p["id"]) for p in pack["puzzles"]]
    if order != sorted(order):
        problems.append("puzzles: not ordered by n, difficulty, id")
    return problems


def shipped_pack_path(reference: str) -> Path | None:
    """The shipped pack called ``reference`` (``fechtuebungen``), if there is one.

    >>> shipped_pack_path("fechtuebungen").name
    'fechtuebungen.json'
    >>> shipped_pack_path("no-such-pack") is None
    True
    """
    if not reference or "/" in reference or "\\" in reference or reference.startswith("."):
        return None
    name = reference if reference.endswith(".json") else f"{reference}.json"
    if name not in {entry.name for entry in data_file("packs").iterdir()}:
        return None
    return data_path("packs", name)


def find_puzzle(pack: dict, reference: str) -> tuple[int, dict]:
    """The puzzle whose id or number (from 1, in pack order) is ``reference``."""
    puzzles = pack["puzzles"]
    for number, puzzle in enumerate(puzzles, 1):
        if reference in (puzzle["id"], str(number)):
            return number, puzzle
    raise InputError(
        f"puzzle: no puzzle {quote(reference)} in the pack (ids, or numbers 1-{len(puzzles)})"
    )


def load_pack(path, what: str = "pack") -> dict:
    """Read a pack file and check it against the schema; the one way commands get a
    pack.  Anything wrong is one :class:`PackError` line: the first schema problem
    with its JSON path, and how many more there are."""
    data = read_json_file(path, what)
    if not isinstance(data, dict) or data.get("format") != PACK_FORMAT:
        raise PackError(
            f"{what}: {quote(str(path))} is not a fechtbuch pack (format must be {PACK_FORMAT!r})"
        )
    problems = schema_problems(data)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise PackError(f"{what}: {quote(str(path))}: {problems[0]}{more}")
    return data
