"""What a Battleklinge puzzle claims and what follows from it alone: its fields, the parsed
claim (position, key, line), the identity fields and the derived fields (tags,
difficulty) recomputed by the functions mining uses.  The pack kind and the tablebase
studies both check puzzles with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fechtbuch.engines.battleklinge.cards import COLOR_CHARS, card_id
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.puzzles.battleklinge.mining import puzzle_id
from fechtbuch.puzzles.battleklinge.rating import puzzle_difficulty
from fechtbuch.puzzles.battleklinge.tags import PuzzleFacts, tags_for
from fechtbuch.puzzles.packkind import Puzzle

MAX_N = 64
"""The largest N a version-2 Battleklinge pack may declare (the deepest tablebase
studies: three students against one reach past 40 own moves); beyond the reach of
endgame tables the verifier's work grows steeply with N, so the bound is checked
first (:data:`TABLELESS_MAX_N`)."""


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
    "witness",
)
"""A Battleklinge puzzle's fields, in the order ``fechtbuch mine`` writes them."""


HIT = "hit"
"""The leaf of a Battleklinge solution tree: the attacker's move hits."""


@dataclass(frozen=True)
class Claim:
    """A puzzle's position, key and line, parsed."""

    pos: Position
    key: Move
    line: list[Move]


def parse_claim(puzzle: Puzzle, max_n: int) -> Claim | list[str]:
    """The parsed claim, or the one problem that stops verification before any search
    (bad notation, ``n`` outside the pack's range)."""
    try:
        pos = Position.from_text(puzzle["position"])
        key = Move.from_text(puzzle["key"])
        line = [Move.from_text(m) for m in puzzle["line"]]
    except NotationError as err:
        return [str(err)]
    n = puzzle["n"]
    if not 1 <= n <= max_n:  # the schema and the envelope say so; again for other callers
        return [f"n: {n} is outside this pack's range 1-{max_n}"]
    return Claim(pos, key, line)


def identity_problems(puzzle: Puzzle, pos: Position, key: Move, line: list[Move]) -> list[str]:
    """The fields that follow from the position and the claim alone: ``id``,
    ``attacker``, ``cards``, and a line that starts with the key."""
    problems = []
    n = puzzle["n"]
    if puzzle["id"] != puzzle_id(puzzle["position"], n, puzzle["key"]):
        expected = puzzle_id(puzzle["position"], n, puzzle["key"])
        problems.append(
            f"id: expected {expected} (the hash of position, n and key: it or one of them "
            "was edited)"
        )
    if puzzle["attacker"] != COLOR_CHARS[pos.turn]:
        problems.append("attacker: not the side to move")
    if puzzle["cards"] != [card_id(c) for c in pos.cards]:
        problems.append("cards: not the five cards of the position")
    if not line or line[0] != key:
        problems.append("line: must start with the key")
    return problems


def line_problems(line: list[Move], tree) -> list[str]:
    """The line must follow the solution tree and end in a hit (the claim's own
    fields: no search)."""
    node = tree
    for i, move in enumerate(line):
        text = move.to_text()
        if not isinstance(node, dict) or text not in node:
            return [f"line: move {i + 1} {text!r} leaves the solution tree"]
        node = node[text]
    return [] if node == HIT else ["line: does not end in a hit"]


def derived_fields(
    puzzle: Puzzle, pos: Position, key: Move, line: list[Move]
) -> tuple[list[str], float]:
    """``tags`` and ``difficulty`` of a puzzle (for a puzzle made elsewhere, such as a
    tablebase study, and for verification), by the functions mining uses."""
    n = puzzle["n"]
    facts = PuzzleFacts.of_puzzle(pos, n, key, line, puzzle["solution"])
    return tags_for(facts), puzzle_difficulty(pos, n, key)


def derived_field_problems(puzzle: Puzzle, pos: Position, key: Move, line: list[Move]) -> list[str]:
    """``tags`` and ``difficulty`` recomputed by the functions that mining used, for a
    puzzle whose key, line and tree are already verified."""
    problems = []
    expected_tags, expected_difficulty = derived_fields(puzzle, pos, key, line)
    if puzzle["tags"] != expected_tags:
        problems.append(f"tags: {puzzle['tags']} but recomputed {expected_tags}")
    if puzzle["difficulty"] != expected_difficulty:
        problems.append(f"difficulty: {puzzle['difficulty']} but recomputed {expected_difficulty}")
    return problems
