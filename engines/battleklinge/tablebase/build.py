"""Build the tables of one card set: smaller material first, (a, b) with (b, a).

Files (in the output folder): one ``split-<a>-<b>.bin`` per split, the value
bytes of :mod:`.kernel` in index order (:mod:`.index`), and ``manifest.json``
(card set, K, sizes, format version, SHA-256 of every file, the counts, and the
seal: a SHA-256 of the manifest itself).  The manifest is written last, atomically:
a folder without it is an unfinished build that no reader uses.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from fechtbuch.engines.battleklinge.cards import Card, card_id
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase import kernel
from fechtbuch.engines.clikit import atomic_write, dump_json
from fechtbuch.engines.errors import InputError

FORMAT = "fechtbuch-battleklinge-tablebase"
FORMAT_VERSION = 2
"""2: the left-right mirror halves the tables of mirror-closed card sets (docs/tablebase.md)."""
MANIFEST = "manifest.json"


def split_file(a: int, b: int) -> str:
    return f"split-{a}-{b}.bin"


def manifest_seal(manifest: dict) -> str:
    """SHA-256 of the manifest without its ``seal`` field (as :func:`dump_json` writes it):
    an edited field (cards, a split's file name or hash, a count) no longer matches it,
    so a damaged manifest is refused instead of pointing a split at the wrong bytes."""
    unsealed = {key: value for key, value in manifest.items() if key != "seal"}
    return hashlib.sha256(dump_json(unsealed)).hexdigest()


@dataclass
class SplitReport:
    """Counts of one split, all from the view of the side to move (Gold to move):
    ``positions`` counts every placement (mirror images included), ``stored`` the
    bytes of the table."""

    split: tuple[int, int]
    positions: int
    stored: int
    won: int
    lost: int
    drawn: int
    longest_win: int
    longest_loss: int
    iterations: int
    seconds: float
    sha256: str = ""

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else float("inf")

    @property
    def stored_per_second(self) -> float:
        return self.stored / self.seconds if self.seconds > 0 else float("inf")


@dataclass
class BuildReport:
    """What :func:`build` made: per-split counts, time and bytes."""

    cards: tuple[Card, ...]
    max_students: int
    out_dir: str
    mirrored: bool = False
    splits: list[SplitReport] = field(default_factory=list)
    seconds: float = 0.0
    retro_seconds: float = 0.0
    bytes: int = 0

    @property
    def positions(self) -> int:
        return sum(s.positions for s in self.splits)

    @property
    def stored(self) -> int:
        return sum(s.stored for s in self.splits)

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.retro_seconds if self.retro_seconds > 0 else float("inf")

    @property
    def stored_per_second(self) -> float:
        return self.stored / self.retro_seconds if self.retro_seconds > 0 else float("inf")

    def to_json(self) -> dict:
        return {
            "cards": [card_id(c) for c in self.cards],
            "max_students": self.max_students,
            "out_dir": self.out_dir,
            "mirror": self.mirrored,
            "positions": self.positions,
            "stored": self.stored,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
            "retro_seconds": round(self.retro_seconds, 3),
            "positions_per_second": round(self.positions_per_second),
            "stored_per_second": round(self.stored_per_second),
            "splits": [
                asdict(s) | {"split": list(s.split), "seconds": round(s.seconds, 3)}
                for s in self.splits
            ],
        }


Progress = Callable[[tuple[int, int], int, int], None]
"""``progress(split, step, resolved)``: called after every step of every split group."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


class _Split:
    """One split under construction: memory-mapped values and the two mask arrays."""

    def __init__(self, out: Path, lay: ix.Layout, a: int, b: int):
        self.a, self.b = a, b
        self.boards = lay.boards(a, b)
        self.path = out / split_file(a, b)
        self.values = np.memmap(self.path, dtype=np.uint8, mode="w+", shape=(self.boards * 30,))
        self.won = np.zeros(self.boards, dtype=np.uint32)
        self.lost = np.zeros(self.boards, dtype=np.uint32)


def _max_distance(values: np.ndarray, boards: int) -> int:
    hist = kernel.value_counts(values, boards, 0)
    codes = np.nonzero(hist)[0]
    return int((codes.max() + 1) // 2) if codes.size else 0


def build(
    cards: tuple[Card, ...],
    max_students: int,
    out_dir: str | Path,
    progress: Progress | None = None,
    force: bool = False,
) -> BuildReport:
    """Retrograde analysis of every position of ``cards`` with up to ``max_students``
    students per side; writes the tables and the manifest into ``out_dir``."""
    cards = tuple(sorted(cards))
    if len(cards) != 5 or len(set(cards)) != 5:
        raise InputError(f"cards: need five distinct cards, got {[card_id(c) for c in cards]!r}")
    if not 0 <= max_students <= ix.MAX_STUDENTS:
        raise InputError(f"students: must be 0 to {ix.MAX_STUDENTS}, got {max_students}")
    out = Path(out_dir)
    if (out / MANIFEST).exists() and not force:
        raise InputError(f"output: {str(out)!r} already holds tables (use --force to replace)")
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)
    for stale in out.glob("split-*-*.bin"):  # a former build, maybe with a larger K
        stale.unlink()
    started = time.perf_counter()
    card_tables = ix.card_tables(cards)
    tables = (card_tables.targets, card_tables.holds, card_tables.perm, ix.BINOM, ix.COMBO)
    lay = ix.layout(cards)
    lay_arrays = kernel.layout_arrays(lay)
    report = BuildReport(cards, max_students, str(out), mirrored=lay.mirrored)
    done: dict[tuple[int, int], np.ndarray] = {}
    empty = np.zeros(0, dtype=np.uint8)
    for group in ix.split_groups(max_students):
        group_start = time.perf_counter()
        work = {split: _Split(out, lay, *split) for split in group}
        # a capture leads from (a, b) to (b - 1, a), finished before this group
        ext_max = 0
        for a, b in group:
            if b:
                ext_max = max(ext_max, _max_distance(done[(b - 1, a)], lay.boards(b - 1, a)))
        step = 0
        resolved = 0
        while True:
            step += 1
            if step > 127:
                raise RuntimeError("distance beyond 127 own moves: the value byte overflows")
            changed = 0
            for kind in (kernel.WIN_SWEEP, kernel.LOSS_SWEEP):
                for (a, b), s in work.items():
                    child = work[(b, a)]
                    sweeper = (
                        kernel.sweep if s.boards >= kernel.PARALLEL_BOARDS else kernel.sweep_serial
                    )
                    arrays = (
                        s.won,
                        s.lost,
                        np.asarray(s.values),
                        child.lost if kind == kernel.WIN_SWEEP else child.won,
                        np.asarray(done[(b - 1, a)]) if b else empty,
                    )
                    for first, stop in kernel.sweep_rows(lay_arrays, a, b):
                        changed += sweeper(
                            kind, step, a, b, arrays, tables, lay_arrays, first, stop
                        )
            resolved += changed
            if progress is not None:
                progress(group[0], step, resolved)
            if changed == 0 and step >= ext_max + 1:
                break
        seconds = time.perf_counter() - group_start
        report.retro_seconds += seconds
        group_positions = sum(lay.positions(*split) for split in group)
        for (a, b), s in work.items():
            hist = kernel.value_counts(np.asarray(s.values), s.boards, lay.doubled_boards(a, b))
            s.values.flush()
            del s.won, s.lost
            wins = hist[1::2]
            losses = hist[2::2]
            split_report = SplitReport(
                split=(a, b),
                positions=ix.covered_positions(a, b),
                stored=lay.positions(a, b),
                won=int(wins.sum()),
                lost=int(losses.sum()),
                drawn=int(hist[0]),
                longest_win=int(np.nonzero(wins)[0].max() + 1) if wins.any() else 0,
                longest_loss=int(np.nonzero(losses)[0].max() + 1) if losses.any() else 0,
                iterations=step,
                seconds=seconds * lay.positions(a, b) / group_positions,
            )
            report.splits.append(split_report)
            done[(a, b)] = s.values
    for split_report in report.splits:
        path = out / split_file(*split_report.split)
        split_report.sha256 = _sha256(path)
        report.bytes += path.stat().st_size
    report.seconds = time.perf_counter() - started
    manifest = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "cards": [card_id(c) for c in cards],
        "max_students": max_students,
        "mirror": lay.mirrored,
        "index": "board * 30 + deal; see docs/tablebase.md",
        "value": "uint8: 0 no forced result, 2d-1 won in d, 2d lost in d (side to move)",
        "splits": [
            {
                "split": list(s.split),
                "file": split_file(*s.split),
                "boards": lay.boards(*s.split),
                "positions": s.positions,
                "bytes": s.stored,
                "sha256": s.sha256,
                "won": s.won,
                "lost": s.lost,
                "drawn": s.drawn,
                "longest_win": s.longest_win,
                "longest_loss": s.longest_loss,
                "iterations": s.iterations,
            }
            for s in report.splits
        ],
    }
    manifest["seal"] = manifest_seal(manifest)
    atomic_write(out / MANIFEST, dump_json(manifest), force=True)
    return report
