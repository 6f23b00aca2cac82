"""Build the tables of one card set: smaller material first, (a, b) with (b, a).

Files (in the output folder): one ``split-<a>-<b>.bin`` per split, the value
bytes of :mod:`.kernel` in index order (:mod:`.index`), and ``manifest.json``
(card set, K, sizes, format version, SHA-256 of every file, the counts, and the
seal: a SHA-256 of the manifest itself).  A split grows in ``split-<a>-<b>.bin.part``
(a memory map on disk, so a split larger than memory still builds) and is renamed when
finished; the manifest is rewritten atomically after every split group and lists only
finished splits: readers use those, and a build run again resumes after them.
"""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
from fechtbuch.engines.battleklinge.cards import Card, card_id
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase import kernel, unmove
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, dump_json

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
    peak_rss_mb: int = 0
    """Peak resident memory of the building process when the split was finished."""

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
    kept: list[tuple[int, int]] = field(default_factory=list)
    """Splits a former run had built: kept, not built again."""
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
            "kept": [list(split) for split in self.kept],
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


def _peak_rss_mb() -> int:
    """The peak resident memory of this process so far (MB)."""
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def part_file(a: int, b: int) -> str:
    """The file a split's value bytes grow in; renamed to :func:`split_file` when done."""
    return split_file(a, b) + ".part"


@dataclass
class GroupJob:
    """One split group to solve: what a group solver (local or on Ray) needs.

    ``captures`` holds the value bytes of every finished split a capture leads to
    (:func:`~.index.capture_splits`); ``ext_max`` is their longest distance, so the
    steps go on until every result a capture brings in has been passed.  The solver
    writes each split's value bytes into ``out / part_file(a, b)``."""

    cards: tuple[Card, ...]
    group: list[tuple[int, int]]
    out: Path
    captures: dict[tuple[int, int], np.ndarray]
    ext_max: int


GroupSolver = Callable[[GroupJob, Callable[[int, int], None]], int]
"""``solve(job, on_step) -> steps``: fills the group's part files, calls
``on_step(step, resolved_so_far)`` after every step."""


def sweep_tables(cards: tuple[Card, ...]) -> tuple[tuple, tuple]:
    """The kernel's card tables and layout arrays of a sorted card set."""
    card_tables = ix.card_tables(cards)
    tables = (card_tables.targets, card_tables.holds, card_tables.perm, ix.BINOM, ix.COMBO)
    return tables, kernel.layout_arrays(ix.layout(cards))


def step_is_last(step: int, changed: int, ext_max: int) -> bool:
    """The analysis of a group ends after a step that changed nothing, once every
    distance of the finished tables a capture reaches has been passed; past 127 own
    moves the value byte would overflow."""
    if step >= 127 and changed:
        raise RuntimeError("distance beyond 127 own moves: the value byte overflows")
    return changed == 0 and step >= ext_max + 1


class UnmoveWins:
    """The wins of a step after the first, found from the positions lost in the step
    before by un-moves (:mod:`.unmove`), for one split group built on this machine.

    Keeps, per parent split, what was already pushed: the quiet children's lost masks
    (the group's other split) and the capture children's (the finished split one
    student less); 8 bytes a board at most."""

    def __init__(self, job: GroupJob, lay: ix.Layout, tables: tuple, lay_arrays: tuple):
        targets, holds, perm, binom, combo = tables
        self.tables = (targets, unmove.source_squares(targets), holds, perm, binom, combo)
        self.lay_arrays = lay_arrays
        self.mirror_pairs = lay.mirror_pairs
        weights = unmove.pair_weights(lay.mirror_pairs, lay.num_pairs)
        self.tasks = {
            threads: unmove.master_classes(lay.pair_mover, threads, weights)
            for threads in {1, numba.get_num_threads()}
        }
        self.pushed: dict[tuple, np.ndarray] = {}
        for a, b in job.group:
            self.pushed[(a, b, "quiet")] = np.zeros(lay.boards(b, a), dtype=np.uint32)
            if b:
                self.pushed[(a, b, "capture")] = np.zeros(lay.boards(b - 1, a), dtype=np.uint32)
        self.boards = {split: lay.boards(*split) for split in job.group}
        self.lay = lay
        self.every_row = np.zeros(0, dtype=np.uint8)

    def step(
        self, step: int, split: tuple[int, int], won, lost, values, child_lost, capture_lost,
        child_rows: np.ndarray | None,
    ) -> int:  # fmt: skip
        """Step ``step``'s wins of ``split`` (a, b): from the lost masks of (b, a) and of
        the capture split (b - 1, a) (its masks brought to the step); returns how many.
        ``child_rows``: the rows of (b, a) the last loss sweep swept (None: all)."""
        a, b = split
        big = self.boards[split] >= kernel.PARALLEL_BOARDS
        threads = numba.get_num_threads() if big else 1
        tasks = self.tasks[threads]
        listed = self.every_row
        if child_rows is not None:
            listed = np.zeros(self.lay.num_pairs * math.comb(kernel.FREE, b), dtype=np.uint8)
            listed[child_rows] = 1
        found = unmove.push_wins(
            step, b, a, False, child_lost, self.pushed[(a, b, "quiet")], listed,
            won, lost, values, self.tables, self.lay_arrays, self.mirror_pairs, *tasks, threads,
        )  # fmt: skip
        if b:
            found += unmove.push_wins(
                step, b - 1, a, True, capture_lost, self.pushed[(a, b, "capture")], self.every_row,
                won, lost, values, self.tables, self.lay_arrays, self.mirror_pairs, *tasks, threads,
            )  # fmt: skip
        return int(found)


def solve_group_locally(
    job: GroupJob,
    on_step: Callable[[int, int], None],
    unmoves: bool = True,
    skip_checked: bool = True,
) -> int:
    """Retrograde analysis of one split group on this machine (both cores for large
    splits): value bytes in memory-mapped part files on disk, in memory 8 bytes of deal
    masks per board, 4 of moves the loss sweeps need not read again (:mod:`.kernel`) and
    8 more with the un-move win steps.  ``unmoves`` False finds
    every step's wins by the row sweep, ``skip_checked`` False has the loss sweeps read
    every move of every open board in every step (the same bytes, slower; a test
    compares)."""
    lay = ix.layout(job.cards)
    tables, lay_arrays = sweep_tables(job.cards)
    boards = {split: lay.boards(*split) for split in job.group}
    values = {
        split: np.memmap(job.out / part_file(*split), dtype=np.uint8, mode="w+", shape=(n * 30,))
        for split, n in boards.items()
    }
    won = {split: np.zeros(n, dtype=np.uint32) for split, n in boards.items()}
    lost = {split: np.zeros(n, dtype=np.uint32) for split, n in boards.items()}
    # the moves each board's loss sweeps need not read again (kernel._evaluate_board)
    checked = {
        split: np.zeros(n if skip_checked else 0, dtype=np.uint32) for split, n in boards.items()
    }
    empty = np.zeros(0, dtype=np.uint32)
    capture_masks = {
        split: (np.zeros(len(v) // 30, dtype=np.uint32), np.zeros(len(v) // 30, dtype=np.uint32))
        for split, v in job.captures.items()
    }
    capture_last = {
        split: kernel.last_steps(np.asarray(v), len(v) // 30) for split, v in job.captures.items()
    }
    pushes = UnmoveWins(job, lay, tables, lay_arrays) if unmoves else None
    step = resolved = 0
    group_positions = sum(boards.values()) * ix.NUM_DEALS
    changed = group_positions
    rows: dict[tuple[int, int], np.ndarray | None] = dict.fromkeys(job.group)
    while True:
        step += 1
        swept_rows = dict(rows)  # the rows the last step swept: its losses lie in them
        if changed * kernel.DENSE_SHARE < group_positions:  # few boards left open
            for a, b in job.group:
                listed = rows[(a, b)]
                if listed is None:
                    listed = kernel.split_rows(lay_arrays, a, b)
                c2 = math.comb(kernel.FREE - a, b)
                rows[(a, b)] = kernel.open_rows(won[(a, b)], lost[(a, b)], c2, listed)
        changed = 0
        for split, (lost_within, won_within) in capture_masks.items():
            if step <= job.ext_max + 1:  # later steps find no code of a finished table
                kernel.advance_capture_masks(
                    np.asarray(job.captures[split]), lost_within, won_within, step,
                    capture_last[split],
                )  # fmt: skip
        for kind in (kernel.WIN_SWEEP, kernel.LOSS_SWEEP):
            for a, b in job.group:
                child = (b, a)
                captured = capture_masks[(b - 1, a)][kind] if b else empty
                if kind == kernel.WIN_SWEEP and step > 1 and pushes is not None:
                    changed += pushes.step(
                        step, (a, b), won[(a, b)], lost[(a, b)], np.asarray(values[(a, b)]),
                        lost[child], captured, swept_rows[child],
                    )  # fmt: skip
                    continue
                arrays = (
                    won[(a, b)],
                    lost[(a, b)],
                    np.asarray(values[(a, b)]),
                    lost[child] if kind == kernel.WIN_SWEEP else won[child],
                    captured,
                    checked[(a, b)] if kind == kernel.LOSS_SWEEP else kernel.nothing_checked(),
                )
                changed += kernel.sweep_split(
                    kind, step, a, b, arrays, tables, lay_arrays, rows[(a, b)]
                )
        resolved += changed
        on_step(step, resolved)
        if step_is_last(step, changed, job.ext_max):
            break
    for memmap in values.values():
        memmap.flush()
    return step


def _max_distance(values: np.ndarray, boards: int) -> int:
    hist = kernel.value_counts(values, boards, 0)
    codes = np.nonzero(hist)[0]
    return int((codes.max() + 1) // 2) if codes.size else 0


def _parse_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    cards = tuple(sorted(cards))
    if len(cards) != 5 or len(set(cards)) != 5:
        raise InputError(f"cards: need five distinct cards, got {[card_id(c) for c in cards]!r}")
    return cards


def _wanted_splits(max_students: int, only: list[tuple[int, int]] | None) -> list[tuple[int, int]]:
    if not 0 <= max_students <= ix.MAX_STUDENTS:
        raise InputError(f"students: must be 0 to {ix.MAX_STUDENTS}, got {max_students}")
    if not only:
        return ix.splits(max_students)
    for a, b in only:
        if not (0 <= a <= max_students and 0 <= b <= max_students):
            raise InputError(
                f"splits: {a},{b} has more than --students {max_students} students a side"
            )
    return ix.required_splits(list(only))


def _kept_entries(out: Path, cards: tuple[Card, ...], force: bool) -> list[dict]:
    """The manifest entries of the splits already built in ``out`` (none with ``force``):
    a resumed build keeps them; a folder of another card set is refused."""
    from fechtbuch.engines.battleklinge.tablebase.probe import read_manifest

    if force or not (out / MANIFEST).exists():
        return []
    manifest = read_manifest(out)
    if manifest["cards"] != [card_id(c) for c in cards]:
        held = ",".join(manifest["cards"])
        raise InputError(
            f"output: {str(out)!r} holds the tables of {held} (use --force to replace them)"
        )
    return manifest["splits"]


def checkpoint_folder(out: Path, group: list[tuple[int, int]]) -> Path:
    """Where a distributed build keeps the finished phases of a group (:mod:`.distributed`)."""
    a, b = group[0]
    return out / f".steps-{a}-{b}"


def _clear_folder(out: Path, kept: list[dict], force: bool) -> None:
    """Remove the split files of a former build that the manifest does not keep (and the
    part files of an interrupted one); with ``force`` also the phase checkpoints."""
    keep = {entry["file"] for entry in kept}
    if force:
        for folder in out.glob(".steps-*-*"):
            shutil.rmtree(folder)
    if not kept:
        (out / MANIFEST).unlink(missing_ok=True)
    for stale in [*out.glob("split-*-*.bin"), *out.glob("split-*-*.bin.part")]:
        if stale.name not in keep:
            stale.unlink()


def _manifest_entry(lay: ix.Layout, s: SplitReport) -> dict:
    return {
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


def write_manifest(out: Path, cards: tuple[Card, ...], entries: list[dict]) -> None:
    """The sealed manifest of the splits built so far, in build order, written atomically:
    a reader sees the former list or the new one, never a split half written."""
    lay = ix.layout(cards)
    k = max(max(entry["split"]) for entry in entries)
    order = {split: i for i, split in enumerate(ix.build_order(k))}
    entries = sorted(entries, key=lambda entry: order[tuple(entry["split"])])
    manifest = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "cards": [card_id(c) for c in cards],
        "max_students": k,
        "mirror": lay.mirrored,
        "index": "board * 30 + deal; see docs/tablebase.md",
        "value": "uint8: 0 no forced result, 2d-1 won in d, 2d lost in d (side to move)",
        "splits": entries,
    }
    manifest["seal"] = manifest_seal(manifest)
    atomic_write(out / MANIFEST, dump_json(manifest), force=True)


def _split_report(
    lay: ix.Layout, split: tuple[int, int], values: np.ndarray, steps: int
) -> SplitReport:
    a, b = split
    hist = kernel.value_counts(np.asarray(values), lay.boards(a, b), lay.doubled_boards(a, b))
    wins = hist[1::2]
    losses = hist[2::2]
    return SplitReport(
        split=split,
        positions=ix.covered_positions(a, b),
        stored=lay.positions(a, b),
        won=int(wins.sum()),
        lost=int(losses.sum()),
        drawn=int(hist[0]),
        longest_win=int(np.nonzero(wins)[0].max() + 1) if wins.any() else 0,
        longest_loss=int(np.nonzero(losses)[0].max() + 1) if losses.any() else 0,
        iterations=steps,
        seconds=0.0,
    )


def plan_groups(
    cards: tuple[Card, ...],
    max_students: int,
    out: Path,
    force: bool = False,
    only: list[tuple[int, int]] | None = None,
) -> list[list[tuple[int, int]]]:
    """The split groups a build will solve, in order: those of K (or of ``only`` and
    what their captures reach) that ``out`` does not hold yet (all of them with
    ``force``).  One InputError line when nothing is missing."""
    cards = _parse_cards(cards)
    wanted = _wanted_splits(max_students, only)
    held = {tuple(entry["split"]) for entry in _kept_entries(out, cards, force)}
    groups = [
        group
        for group in ix.split_groups(max(max(split) for split in wanted))
        if group[0] in wanted and group[0] not in held
    ]
    if not groups:
        raise InputError(
            f"output: {str(out)!r} already holds every split asked for (use --force to rebuild)"
        )
    return groups


def build(
    cards: tuple[Card, ...],
    max_students: int,
    out_dir: str | Path,
    progress: Progress | None = None,
    force: bool = False,
    only: list[tuple[int, int]] | None = None,
    solver: GroupSolver | None = None,
) -> BuildReport:
    """Retrograde analysis of every position of ``cards`` with up to ``max_students``
    students per side (or of the splits ``only`` and the splits they depend on);
    writes the tables and the manifest into ``out_dir``.

    Resumable split by split: the manifest is rewritten after every split group, and a
    split it lists (file and SHA-256 checked) is kept, not built again; ``force`` starts
    over.  ``solver`` solves one group (default :func:`solve_group_locally`; Ray:
    :mod:`.distributed`): the bytes do not depend on it."""
    from fechtbuch.engines.battleklinge.tablebase.probe import verified_values

    cards = _parse_cards(cards)
    out = Path(out_dir)
    groups = plan_groups(cards, max_students, out, force, only)
    kept = _kept_entries(out, cards, force)
    held = {tuple(entry["split"]) for entry in kept}
    out.mkdir(parents=True, exist_ok=True)
    _clear_folder(out, kept, force)
    solve = solver or solve_group_locally
    started = time.perf_counter()
    lay = ix.layout(cards)
    report = BuildReport(cards, max_students, str(out), mirrored=lay.mirrored)
    report.kept = sorted(held)
    entries = list(kept)
    finished: dict[tuple[int, int], np.ndarray] = {}

    def values_of(split: tuple[int, int]) -> np.ndarray:
        if split not in finished:  # a kept split: its bytes must match the manifest
            entry = next(e for e in entries if tuple(e["split"]) == split)
            finished[split] = verified_values(out, entry)
        return finished[split]

    for group in groups:
        group_start = time.perf_counter()
        captures = {split: values_of(split) for split in ix.capture_splits(group)}
        ext_max = max(
            (_max_distance(v, lay.boards(*split)) for split, v in captures.items()), default=0
        )
        job = GroupJob(cards, group, out, captures, ext_max)

        def on_step(step: int, resolved: int, first=group[0]) -> None:
            if progress is not None:
                progress(first, step, resolved)

        steps = solve(job, on_step)
        seconds = time.perf_counter() - group_start
        report.retro_seconds += seconds
        group_positions = sum(lay.positions(*split) for split in group)
        for split in group:
            part = out / part_file(*split)
            values = np.memmap(part, dtype=np.uint8, mode="r")
            split_report = _split_report(lay, split, values, steps)
            split_report.seconds = seconds * lay.positions(*split) / group_positions
            split_report.sha256 = _sha256(part)
            split_report.peak_rss_mb = _peak_rss_mb()
            del values
            os.replace(part, out / split_file(*split))
            finished[split] = np.memmap(out / split_file(*split), dtype=np.uint8, mode="r")
            report.splits.append(split_report)
            entries.append(_manifest_entry(lay, split_report))
        write_manifest(out, cards, entries)
        shutil.rmtree(checkpoint_folder(out, group), ignore_errors=True)
    report.bytes = sum((out / split_file(*s.split)).stat().st_size for s in report.splits)
    report.seconds = time.perf_counter() - started
    return report
