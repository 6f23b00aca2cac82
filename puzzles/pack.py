"""Exercise packs of every game: reading, validating and verifying the one pack format.

A pack (docs/puzzles.md, "Pack format") is a JSON envelope (``format``
"fechtbuch-pack", ``version``, ``rules``, ``generator``, ``seed``, ``command``,
``puzzles``) whose ``rules`` names the game; each game supplies a
:class:`~fechtbuch.puzzles.packkind.PackKind` (found by :func:`kind_for`) and this
module reads packs only through it, so it imports no game.

* Version 1 (schema data/schema/pack.schema.json): Battleklinge only, N at most 3,
  full solution trees, ordered by N, difficulty, id.  The shipped
  ``fechtuebungen.json`` is version 1 and stays so byte for byte.
* Version 2 (data/schema/pack-2.schema.json): every game.  The envelope adds
  ``max_n`` (the declared range of N, at most the kind's ``max_n``), ``order``
  (:class:`PackOrder`) and ``solution`` (:class:`SolutionMode`: full trees, or
  pruned to the main line plus every defence at the first two adversary moves).
  A game's own puzzle fields are declared in its kind's part of the schema
  (``PackKind.puzzle_schema``, composed with the envelope by :func:`composed_schema`
  for a pack of that game) or checked by its kind.

Every pack is checked against its version's schema (strict types: ``2.0`` is not an
integer) and its declared range before anything else reads it: :func:`load_pack`
refuses a pack that fails with one :class:`PackError` line, so no command meets a
malformed one, and verifying any valid pack is bounded before a search starts.  The
schema of a pack with deep solution trees takes seconds, so a pack that passed it
leaves a mark named by the SHA-256 of its bytes and of the schema in the compiled-code
cache folder (:func:`fechtbuch.engines.compiled.cache_dir`, named by the sources):
the same bytes under the same schema and code are not checked again.

``pack verify`` (:func:`verify_pack`) asks the kind to re-derive every derived field
of every puzzle (``PackKind.verify_puzzle``, or ``verify_pruned`` for a pruned pack)
and adds the checks that are the same for every game: unique ids, duplicates
(``PackKind.duplicate_class``), the declared order, and each puzzle's witness game
where the kind checks them (``PackKind.verify_witness``).  Only ``generator``,
``seed``, ``command`` and ``mined_by`` are informative: they say how the pack was
made and are not verified.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jsonschema
import orjson
from fechtbuch.engines import __version__
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import dump_json, read_json_file
from fechtbuch.engines.paths import data_file, data_path
from fechtbuch.engines.registry import plugin
from fechtbuch.puzzles.packkind import PackKind, Puzzle
from fechtbuch.puzzles.packkinds import UnknownRulesError, kind_for

PACK_FORMAT = "fechtbuch-pack"
PACK_VERSION = 1
"""The version ``fechtbuch mine`` writes for Battleklinge (the shipped pack's)."""
MAX_N = 3
"""The largest N a version-1 pack may claim (the schema's maximum of ``n``)."""
SCHEMA_PATH = data_file("schema", "pack.schema.json")
SCHEMA_PATHS = {1: SCHEMA_PATH, 2: data_file("schema", "pack-2.schema.json")}
"""Each pack format version's schema."""
FULL_DEFENCES = 2
"""A pruned tree (:attr:`SolutionMode.PRUNED`) is complete for this many adversary moves."""


class PackError(InputError):
    """A pack file that is not a valid pack: unreadable, not JSON, wrong format or
    version, a schema violation, a claim outside its declared range."""


class PackOrder(enum.Enum):
    """The declared order of a version-2 pack's puzzles (version 1: always by N)."""

    BY_N = "n,difficulty,id"
    DEEPEST_FIRST = "-n,difficulty,id"

    def sort_key(self, puzzle: Puzzle) -> tuple:
        n = puzzle["n"] if self is PackOrder.BY_N else -puzzle["n"]
        return (n, puzzle["difficulty"], puzzle["id"])


class SolutionMode(enum.Enum):
    """What a version-2 pack's solution trees hold (version 1: always full)."""

    FULL = "full"
    """At the solver's nodes every action that keeps the win, every adversary reply."""
    PRUNED = "pruned"
    """Every key and every defence at the first two adversary moves; below them at
    least the branch's main line (deep studies whose full tree is huge; a complete
    tree is also a valid pruned one)."""


@dataclass(frozen=True)
class PackTerms:
    """What a pack's envelope declares, the same for both versions."""

    version: int
    rules: str
    max_n: int
    order: PackOrder
    solution: SolutionMode

    @classmethod
    def of(cls, pack: dict) -> PackTerms:
        """The terms of a schema-valid pack (version 1 has fixed ones)."""
        if pack["version"] == 1:
            return cls(1, pack["rules"], MAX_N, PackOrder.BY_N, SolutionMode.FULL)
        return cls(
            2,
            pack["rules"],
            pack["max_n"],
            PackOrder(pack["order"]),
            SolutionMode(pack["solution"]),
        )


def _is_integer(checker, instance) -> bool:
    """JSON Schema calls 2.0 an integer; a pack's counts must be written as integers."""
    return type(instance) is int


StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def composed_schema(envelope: dict, kind: PackKind | None) -> dict:
    """The version-2 pack schema for a pack of ``kind``'s game: the game-free
    ``envelope`` plus the game's part (``PackKind.puzzle_schema``) applied to every
    puzzle, its ``$defs`` added; ``envelope`` alone for ``None`` or a kind without one."""
    part = None if kind is None else kind.puzzle_schema
    if part is None:
        return envelope
    defs = dict(envelope["$defs"])
    for name, definition in part.get("$defs", {}).items():
        if name in defs:
            raise ValueError(f"{kind.rules}: pack schema definition {name!r} is taken")
        defs[name] = definition
    game_part = {"properties": {"puzzles": {"items": part["puzzle"]}}}
    return envelope | {"allOf": [*envelope.get("allOf", []), game_part], "$defs": defs}


@cache
def _validator(version: int = 1, rules: str | None = None) -> jsonschema.Draft202012Validator:
    """The validator of a pack of ``version``; for version 2 with the part of the game
    whose slug is ``rules`` (``None``: the envelope only)."""
    schema = orjson.loads(SCHEMA_PATHS[version].read_bytes())
    if version == 2 and rules is not None:
        schema = composed_schema(schema, kind_for(rules))
    return StrictValidator(schema)


def _schema_game(pack: dict) -> str | None:
    """The slug of the game whose schema part a pack gets: its ``rules`` when they
    name a game with a pack kind, else ``None`` (the envelope names the problem)."""
    rules = pack.get("rules")
    if pack["version"] != 2 or not isinstance(rules, str):
        return None
    try:
        return kind_for(rules).rules
    except UnknownRulesError:
        return None


def build_pack_v2(
    kind: PackKind,
    puzzles: list[Puzzle],
    *,
    seed: int,
    command: str,
    max_n: int,
    order: PackOrder = PackOrder.BY_N,
    solution: SolutionMode = SolutionMode.FULL,
    generator: str = "fechtbuch",
    mined_by: str | None = None,
) -> dict:
    """A version-2 pack of ``kind``'s puzzles, sorted by ``order`` (for every game's miner);
    ``mined_by`` names the frozen policy that played the self-play rounds (by its role,
    e.g. ``touche-duell/mining-2026``), written only when given."""
    pack = {
        "format": PACK_FORMAT,
        "version": 2,
        "rules": kind.rules,
        "generator": {"name": generator, "version": __version__},
        "seed": seed,
        "command": command,
    }
    if mined_by is not None:
        pack["mined_by"] = mined_by
    return pack | {
        "max_n": max_n,
        "order": order.value,
        "solution": solution.value,
        "puzzles": sorted(puzzles, key=order.sort_key),
    }


def pack_bytes(pack: dict) -> bytes:
    return dump_json(pack)


def _version_problem(pack) -> str | None:
    version = pack.get("version") if isinstance(pack, dict) else None
    if type(version) is int and version in SCHEMA_PATHS:
        return None
    return f"version: {version!r} is not a pack format version (one of {sorted(SCHEMA_PATHS)})"


def schema_problems(pack, parsed: bool = False) -> list[str]:
    """One line per violation of the schema of the pack's version, with its JSON path.
    ``parsed``: the pack is as JSON parsing made it, so its JSON text is all there is to
    it (in memory a tuple would pass for a list) and a mark of an earlier pass counts."""
    problem = _version_problem(pack)
    if problem is not None:
        return [f"schema: {problem}"]
    validator = _validator(pack["version"], _schema_game(pack))
    mark = _schema_mark(validator.schema, pack) if parsed else None
    if mark is not None and mark.exists():
        return []
    problems = []
    errors = validator.iter_errors(pack)
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        path = "/".join(str(p) for p in error.absolute_path) or "(top)"
        message = error.message if len(error.message) < 160 else error.message[:157] + "..."
        problems.append(f"schema: {path}: {message}")
    if not problems and mark is not None:
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()
        except OSError:
            pass  # a cache that cannot be written only costs the check next time
    return problems


def _schema_mark(schema: dict, pack: dict) -> Path:
    """The file whose presence says that the parsed ``pack`` passed ``schema`` before."""
    from fechtbuch.engines.compiled import cache_dir  # imports numba: only when asked

    digest = hashlib.sha256(orjson.dumps(schema, option=orjson.OPT_SORT_KEYS))
    digest.update(b"\0" + orjson.dumps(pack))
    return cache_dir() / "valid-packs" / digest.hexdigest()


def range_problems(pack: dict, kind: PackKind) -> list[str]:
    """The declared range of a schema-valid pack: every ``n`` at most ``max_n``, and
    ``max_n`` at most what the game allows (so verification is bounded)."""
    terms = PackTerms.of(pack)
    problems = []
    if terms.max_n > kind.max_n:
        problems.append(
            f"max_n: {terms.max_n} is above the largest N of {kind.title} packs ({kind.max_n})"
        )
    for number, puzzle in enumerate(pack["puzzles"], 1):
        if puzzle["n"] > terms.max_n:
            problems.append(
                f"puzzle {number} ({puzzle['id']}): n: {puzzle['n']} is above the pack's "
                f"max_n {terms.max_n}"
            )
    return problems


def envelope_problems(pack, parsed: bool = False) -> list[str]:
    """Schema, then the declared range: everything checked before a search starts.
    A pack whose ``rules`` names no game raises the kind's one-line ``InputError``.
    ``parsed``: as in :func:`schema_problems`."""
    problems = schema_problems(pack, parsed)
    if problems:
        return problems
    return range_problems(pack, kind_for(pack["rules"])) + policy_problems(pack)


def policy_problems(pack: dict) -> list[str]:
    """The pack's ``mined_by`` (where it has one) names a registered mining policy of
    its game (``GamePlugin.policies``)."""
    mined_by = pack.get("mined_by")
    if mined_by is None:
        return []
    entry = plugin(pack["rules"])
    if mined_by in entry.policies:
        return []
    known = ", ".join(entry.policies) or "none"
    return [f"mined_by: {quote(mined_by)} is not a mining policy of {entry.title} ({known})"]


def verify_pack(
    pack, progress: Callable[[], None] | None = None, envelope_checked: bool = False
) -> list[str]:
    """All problems of a pack: envelope, every puzzle (every derived field re-derived
    by its game's kind), ids, duplicates, order.  ``progress`` is called after each
    puzzle.  ``envelope_checked``: the caller has the pack from :func:`load_pack`, which
    checked the envelope (the schema of a pack with deep solution trees takes seconds:
    once is enough)."""
    problems = [] if envelope_checked else envelope_problems(pack)
    if problems:
        return problems
    terms = PackTerms.of(pack)
    kind = kind_for(terms.rules)
    verify = kind.verify_puzzle
    if terms.solution is SolutionMode.PRUNED:
        if kind.verify_pruned is None:
            return [f"solution: {kind.title} packs must carry full solution trees"]
        verify = kind.verify_pruned
    classes: dict[Hashable, str] = {}
    ids: dict[str, int] = {}
    for number, puzzle in enumerate(pack["puzzles"], 1):
        label = f"puzzle {number} ({puzzle['id']})"
        problems += [f"{label}: {p}" for p in verify(puzzle, terms.max_n)]
        if kind.verify_witness is not None:
            problems += [f"{label}: {p}" for p in kind.verify_witness(puzzle)]
        if kind.verify_in_pack is not None:
            problems += [f"{label}: {p}" for p in kind.verify_in_pack(pack, puzzle)]
        if progress is not None:
            progress()
        if puzzle["id"] in ids:
            problems.append(f"{label}: id: same id as puzzle {ids[puzzle['id']]}")
        ids.setdefault(puzzle["id"], number)
        cls = kind.duplicate_class(puzzle)
        if cls is None:
            continue
        if cls in classes:
            problems.append(f"{label}: same as {classes[cls]} up to {kind.symmetry}")
        classes.setdefault(cls, label)
    return problems + order_problems(pack)


def order_problems(pack: dict) -> list[str]:
    """The puzzles of a schema-valid pack in its declared order (version 1: by N)."""
    order = PackTerms.of(pack).order
    keys = [order.sort_key(p) for p in pack["puzzles"]]
    if keys == sorted(keys):
        return []
    return [f"puzzles: not ordered by {order.value.replace(',', ', ')}"]


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


def _missing_reference(data: dict, reference: str) -> None:
    """An InputError if no puzzle has the id or number ``reference`` (before the schema:
    validating the solution trees of a large pack takes seconds)."""
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list):
        return  # the schema names it
    ids = {p.get("id") for p in puzzles if isinstance(p, dict)}
    numbers = {str(number) for number in range(1, len(puzzles) + 1)}
    if reference not in ids | numbers:
        raise InputError(
            f"puzzle: no puzzle {quote(reference)} in the pack (ids, or numbers 1-{len(puzzles)})"
        )


def load_pack(path, what: str = "pack", reference: str | None = None) -> dict:
    """Read a pack file of any version and game and check its envelope (schema, rules,
    declared range); the one way commands get a pack.  Anything wrong is one
    :class:`PackError` line: the first problem with its JSON path or field, and how
    many more there are; unknown ``rules`` is the kind registry's one line.  With
    ``reference`` (a puzzle id or number), a pack without that puzzle is refused first."""
    data = read_json_file(path, what)
    if not isinstance(data, dict) or data.get("format") != PACK_FORMAT:
        raise PackError(
            f"{what}: {quote(str(path))} is not a fechtbuch pack (format must be {PACK_FORMAT!r})"
        )
    version_problem = _version_problem(data)
    if version_problem is not None:
        raise PackError(f"{what}: {quote(str(path))}: {version_problem}")
    if data["version"] == 2 and isinstance(data.get("rules"), str):
        kind_for(data["rules"])  # an unknown game is named before its schema problems
    if reference is not None:
        _missing_reference(data, reference)
    problems = envelope_problems(data, parsed=True)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise PackError(f"{what}: {quote(str(path))}: {problems[0]}{more}")
    return data


def pack_kind(pack: dict) -> PackKind:
    """The kind of a loaded pack."""
    return kind_for(pack["rules"])
