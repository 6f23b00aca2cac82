"""Perft: leaf counts as the behaviour signature of the move generator.

Suite files are plain text in the style of python-chess's perft suites::

    id start-einsteiger
    position ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte
    perft 1 13
    perft 2 169

Blank lines and ``#`` comments are ignored.  :func:`check_suite` reports the
per-first-move split (``divide``) of a wrong count, computed by both the fast
generator and the pure-Python reference, so the faulty move shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.engines.errors import quote


@dataclass
class PerftCase:
    id: str
    position: Position | None = None
    counts: dict[int, int] = field(default_factory=dict)


def perft(pos: Position, depth: int) -> int:
    """Leaf count by the fast generator.

    >>> perft(Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"), 3)
    2483
    """
    if depth < 0:
        raise ValueError(f"depth: must be 0 or more, got {depth}")
    return int(fast.perft(fast.state_from_position(pos), depth))


def divide(pos: Position, depth: int) -> list[tuple[Move, int]]:
    """The leaf count under each first move (fast generator); empty if decided or depth 0."""
    if depth < 1:
        return []
    return [(m, perft(fast.play(pos, m), depth - 1)) for m in fast.legal_moves(pos)]


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
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise NotationError(f"{where}: expected 'perft <depth> <count>', got {quote(raw)}")
            cases[-1].counts[int(parts[0])] = int(parts[1])
        else:
            raise NotationError(f"{where}: unknown keyword {quote(keyword)}")
    return cases


def load_suite(path: str | Path, what: str = "suite") -> list[PerftCase]:
    """Read and parse a suite file; every problem is one InputError naming ``what``."""
    from fechtbuch.engines.clikit import read_text_file

    return parse_suite(read_text_file(path, what), f"{what} {quote(str(path))}")


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
