"""The pyramids' motif catalogue (Touché in N): one small detector per motif.

Version 1 holds the tags of the shipped pack (``pyramiden-uebungen.json``) in their
stored (alphabetical) order: the length ``in-N``, the round's pattern, and the
motifs of the key; :func:`fechtbuch.puzzles.touche_pyramiden.mining.tags_of` is
version 1, so mining and ``pack verify`` use these very functions.  Version 2 adds
two motifs; the puzzle database tags with it (``MiningKind.motifs``).  Every
detector reads the :class:`PyramidFacts` of an exercise (P's public node at the
root, the key and the node after it); the known-position table is
``tests/unit/test_touche_pyramiden_motifs.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import FIELD_CARD, FREE_MASK, JOKER, parse_field
from fechtbuch.engines.touche_pyramiden.patterns import USABLE, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    TouchInN,
    TouchNode,
    near_fields,
    node_of_view,
)
from fechtbuch.puzzles.motifs import Detector, MotifCatalogue, catalogue_of

RULES = "touche-pyramiden"
FREE_FIELD_NAMES = ("a1", "n1", "g4", "h4", "g5", "h5", "a8", "n8")
MAX_N = 3


@dataclass(frozen=True)
class PyramidFacts:
    """P's root node of a Touché-in-N exercise, its key and the node after the key
    (``None`` for N = 1, where the key completes the pattern)."""

    problem: TouchInN
    node: TouchNode
    key: str
    n: int

    @classmethod
    def of_record(cls, puzzle: dict) -> PyramidFacts:
        node, pattern = node_of_view(notation.parse_view(puzzle["position"]))
        return cls(TouchInN(pattern), node, puzzle["key"], puzzle["n"])

    def after_key(self) -> TouchNode | None:
        """P's node after the key (the opponent to move), if the round goes on."""
        for action, child in self.problem.children(self.node):
            if self.problem.format_action(self.node, action) == self.key:
                return child
        return None

    @property
    def key_field(self) -> str:
        """The field the key names (``6S:h1``, ``XX:=l2``, ``XX:-l2``: h1, l2)."""
        return self.key.rsplit(":", 1)[-1].lstrip("=-")[:2]

    @property
    def exchanges(self) -> bool:
        return self.key.startswith("tausch:")


def leaves_safe_placement(problem: TouchInN, node: TouchNode, turns: int) -> bool:
    """Whether P has a placement whose missing fields, at most ``turns`` and at least
    one a card field, the opponent cannot take: card fields whose card it has seen
    every copy of (with every joker seen), and free fields (taken by the opponent
    only to complete its own pattern)."""
    if node.unseen[JOKER]:
        return False
    taken = node.theirs | node.crowned
    for mask in USABLE[problem.pattern]:
        missing = mask & ~node.mine
        if mask & taken or not missing & ~FREE_MASK or missing.bit_count() > turns:
            continue
        if all(node.unseen[FIELD_CARD[f]] == 0 for f in mask_fields(missing & ~FREE_MASK)):
            return True
    return False


def double_threat(f: PyramidFacts) -> bool:
    """N >= 2 and after the key two different fields would each complete the pattern."""
    child = f.after_key() if f.n >= 2 else None
    return child is not None and len(near_fields(f.problem.pattern, child.mine, child.crowned)) >= 2


def dead_card_exchange(f: PyramidFacts) -> bool:
    """The key exchanges dead cards (``tausch:``) instead of placing a pyramid."""
    return f.exchanges


def free_field(f: PyramidFacts) -> bool:
    """The key puts a pyramid on a free field (a corner or the middle block)."""
    return not f.exchanges and f.key_field in FREE_FIELD_NAMES


def joker(f: PyramidFacts) -> bool:
    """The key plays a joker to place a pyramid on any empty card field."""
    return f.key.startswith("XX:") and not f.key.startswith(("XX:=", "XX:-"))


def joker_defence_exhausted(f: PyramidFacts) -> bool:
    """P has seen every joker: the opponent holds none to remove a pyramid."""
    return f.node.unseen[JOKER] == 0


def joker_removal(f: PyramidFacts) -> bool:
    """The key plays a joker to remove an opponent's pyramid (``XX:=`` puts P's own
    there, ``XX:-`` leaves the field empty)."""
    return f.key.startswith(("XX:=", "XX:-"))


def safe_field(f: PyramidFacts) -> bool:
    """N >= 2 and after the key P has a placement whose missing fields (at most N - 1)
    the opponent cannot take: their cards are all seen, every joker too."""
    child = f.after_key() if f.n >= 2 else None
    return child is not None and leaves_safe_placement(f.problem, child, f.n - 1)


def blockade(f: PyramidFacts) -> bool:
    """The key takes or clears a field that the opponent lacks in a placement of the
    pattern missing at most two fields, none of them held by P: it blocks the
    opponent's own pattern on the way (Blockade)."""
    if f.exchanges:
        return False
    target = 1 << parse_field(f.key_field)
    blocked = f.node.mine | f.node.crowned
    for mask in USABLE[f.problem.pattern]:
        missing = mask & ~f.node.theirs
        if missing & target and not mask & blocked and missing.bit_count() <= 2:
            return True
    return False


def quiet_key(f: PyramidFacts) -> bool:
    """N >= 2 and after the key no single field completes P's pattern: the key
    threatens nothing at once, the win comes later (ruhiger Zug)."""
    child = f.after_key() if f.n >= 2 else None
    return child is not None and not near_fields(f.problem.pattern, child.mine, child.crowned)


def _length(n: int) -> Detector:
    def in_n(f: PyramidFacts) -> bool:
        return f.n == n

    in_n.__doc__ = f"The sure Touché takes exactly {n} own turn{'s' if n > 1 else ''}."
    return in_n


def _pattern(pattern: Pattern) -> Detector:
    def of_pattern(f: PyramidFacts) -> bool:
        return f.problem.pattern is pattern

    of_pattern.__doc__ = f"The round's pattern is {pattern.value}."
    return of_pattern


def _version_1() -> dict[str, Callable[[PyramidFacts], bool]]:
    """The stored tags: lengths, patterns and motifs, in alphabetical order (so the
    catalogue's order is the order the shipped pack stores)."""
    table: dict[str, Callable[[PyramidFacts], bool]] = {
        "dead-card-exchange": dead_card_exchange,
        "double-threat": double_threat,
        "free-field": free_field,
        "joker": joker,
        "joker-defence-exhausted": joker_defence_exhausted,
        "joker-removal": joker_removal,
        "safe-field": safe_field,
    }
    table |= {f"in-{n}": _length(n) for n in range(1, MAX_N + 1)}
    table |= {p.value: _pattern(p) for p in Pattern}
    return dict(sorted(table.items()))


CATALOGUE_V1: MotifCatalogue = catalogue_of(RULES, 1, PyramidFacts.of_record, _version_1())
CATALOGUE_V2: MotifCatalogue = catalogue_of(
    RULES,
    2,
    PyramidFacts.of_record,
    {**_version_1(), "blockade": blockade, "quiet-key": quiet_key},
)
CATALOGUE = CATALOGUE_V2
