"""Perft: leaf counts as the behaviour signature of the move generator.

Suite files are plain text in the style of python-chess's perft suites::

    id start-einsteiger
    position ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte
    perft 1 13
    perft 2 169

Blank lines and ``#`` comments are ignored.  :func:`check_suite` reports the
per-first-move split (``divide``) of a wrong count, computed by both the fast
generator and the pure-Python reference, so the faulty move shows at once.

The commands ``fechtbuch perft`` and ``fechtbuch bench perft`` are at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.position import (
    Move,
    NotationError,
    Position,
)
from fechtbuch.engines.errors import quote


@dataclass
class PerftCase:
    id: str
    position: Position | None = None
    counts: dict[int, int] = field(default_factory=dict)


MAX_DEPTH = 10
"""The deepest perft the command line accepts: depth 10 from the start position is
about 1.3e11 leaves, minutes at 1 G leaves/s; depth 11 would take hours and 12 a day."""

CHUNK_DEPTH = 6
"""No compiled perft call goes deeper than this (depth 6 from the start position is
about 0.02 s, 0.2 s from the busiest positions), so Python regains control, and sees
Ctrl-C, several times a second; the Python overhead of the split is under 1%."""

Progress = Callable[[int, int], None]
"""Called with (chunks done, chunks in all) after each compiled call."""


def _chunks(
    st: np.ndarray, depth: int, root: int | None
) -> list[tuple[int | None, np.ndarray, int]]:
    """The subtrees of at most CHUNK_DEPTH plies that make up perft(st, depth), each
    labelled with the root move code it lies under (None at the root itself)."""
    if depth <= CHUNK_DEPTH or fast.winner(st) != fast.NO_WINNER:
        return [(root, st, depth)]
    out = []
    for code, child in fast.children(st):
        out += _chunks(child, depth - 1, code if root is None else root)
    return out


def _count(
    pos: Position | np.ndarray,
    depth: int,
    progress: Progress | None,
    kernel: Callable[[np.ndarray, int], int] = fast.perft,
) -> tuple[int, dict[int, int]]:
    """(leaves, leaves under each root move code) from a compiled perft ``kernel``
    (fast.perft or fast.perft_plain), called in chunks so that the loop is
    interruptible and can report progress."""
    if depth < 0:
        raise ValueError(f"depth: must be 0 or more, got {depth}")
    st = fast.state_from_position(pos) if isinstance(pos, Position) else pos
    chunks = _chunks(st, depth, None)
    total, split = 0, {}
    for done, (root, sub, d) in enumerate(chunks, 1):
        leaves = int(kernel(sub, d))
        total += leaves
        if root is not None:
            split[root] = split.get(root, 0) + leaves
        if progress is not None:
            progress(done, len(chunks))
    return total, split


def perft(pos: Position, depth: int, progress: Progress | None = None) -> int:
    """Leaf count by the fast generator (interruptible at any depth: see CHUNK_DEPTH).

    >>> perft(Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"), 3)
    2483
    """
    return _count(pos, depth, progress)[0]


def count_state(st: np.ndarray, depth: int, kernel=fast.perft) -> int:
    """Leaves below a compiled state by ``kernel``, interruptible (for benchmarks)."""
    return _count(st, depth, None, kernel)[0]


def divide(pos: Position, depth: int, progress: Progress | None = None) -> list[tuple[Move, int]]:
    """The leaf count under each first move (fast generator); empty if decided or depth 0."""
    if depth < 1 or pos.winner() is not None:
        return []
    moves = fast.legal_moves(pos)
    if depth - 1 <= CHUNK_DEPTH:
        out = []
        for i, m in enumerate(moves, 1):
            out.append((m, perft(fast.play(pos, m), depth - 1)))
            if progress is not None:
                progress(i, len(moves))
        return out
    _, split = _count(pos, depth, progress)
    return [(m, split[fast.encode_move(m)]) for m in moves]


def reference_divide(pos: Position, depth: int) -> list[tuple[Move, int]]:
    if depth < 1:
        return []
    return [
        (m, reference.perft(reference.play(pos, m), depth - 1)) for m in reference.legal_moves(pos)
    ]


def parse_suite(text: str, source: str = "<suite>") -> list[PerftCase]:
    cases: list[PerftCase] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        where = f"{source}:{lineno}"
        if keyword == "id":
            cases.append(PerftCase(rest.strip()))
        elif not cases:
            raise NotationError(f"{where}: expected 'id' first, got {quote(raw)}")
        elif keyword == "position":
            try:
                cases[-1].position = Position.from_text(rest)
            except NotationError as err:
                raise NotationError(f"{where}: {err}") from None
        elif keyword == "perft":
            if cases[-1].position is None:
                raise NotationError(f"{where}: 'perft' before 'position' in case {cases[-1].id!r}")
            parts = rest.split()
            if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
                raise NotationError(f"{where}: expected 'perft <depth> <count>', got {quote(raw)}")
            cases[-1].counts[int(parts[0])] = int(parts[1])
        else:
            raise NotationError(f"{where}: unknown keyword {quote(keyword)}")
    return cases


def load_suite(path: str | Path, what: str = "suite") -> list[PerftCase]:
    """Read and parse a suite file; every problem is one InputError naming ``what``."""
    from fechtbuch.engines.files import read_text_file

    cases = parse_suite(read_text_file(path, what), f"{what} {quote(str(path))}")
    if not cases:
        raise NotationError(f"{what}: {quote(str(path))} has no cases ('id' lines)")
    return cases


def check_suite(cases: list[PerftCase], max_depth: int = 99) -> list[str]:
    """Run every count up to ``max_depth``; return one report block per mismatch."""
    failures = []
    for case in cases:
        assert case.position is not None  # parse_suite guarantees it for cases with counts
        for depth, expected in sorted(case.counts.items()):
            if depth > max_depth:
                continue
            got = perft(case.position, depth)
            if got == expected:
                continue
            lines = [f"{case.id}: perft {depth} = {got}, expected {expected} ({case.position})"]
            if depth <= 5:
                ref = dict(reference_divide(case.position, depth))
                for move, count in divide(case.position, depth):
                    ref_count = ref.pop(move, None)
                    mark = "" if ref_count == count else f"   <-- reference {ref_count}"
                    lines.append(f"  {move} {count}{mark}")
                lines += [f"  {move} missing, reference {count}" for move, count in ref.items()]
            failures.append("\n".join(lines))
    return failures


# ---- commands (registered in cli.py) -----------------------------------------






