"""Split groups solved on a Ray cluster, with the bytes of the single-machine build.

Partitioning: the rows of each split of the group (a row: one master pair and one
placement of the mover's students, :func:`.kernel.split_rows`) are cut into one
contiguous range per worker; worker w sweeps range w of every split of the group.

Every step of the analysis is two *phases* (the win sweep, then the loss sweep). A
phase writes only masks of its own kind and reads the other kind (and its own board's
open deals), so its result does not depend on how the boards are shared out: a worker
sweeps its rows against its replica of the masks as they stood after the previous
phase, and returns its *frontier*, the (board, newly resolved deals) pairs of its rows.
Only frontiers cross partitions: the driver merges the workers' frontiers of a phase
(in row order, so the merge does not depend on the number of workers), writes it to
the checkpoint folder and hands it to every worker through Ray's object store before
the next phase; each worker ORs it into its replica.

The value bytes are the frontiers written down: a position resolved in the win phase
of step t is ``2t - 1``, in the loss phase ``2t`` (what the kernel writes), so the
driver assembles the split files from the checkpoint and no worker ever sends values.

Checkpoint and resume: each merged phase lives in ``.steps-<a>-<b>/`` beside the
tables.  A worker (or its node) that dies is replaced by a new actor that replays the
finished phases into its replica, and runs the phase again: a phase is a pure function
of the state before it, so nothing is computed twice into a different result.  A
build started again after the driver died resumes after the last finished phase.

Memory per worker: 8 bytes of masks per board of the group (the replica), the finished
split a capture reaches (from the object store, shared by the workers of a node) and a
zeroed scratch array the kernel writes the values of its rows into (untouched pages of
it are never mapped in).
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
from fechtbuch.engines.battleklinge.cards import Card, card_from_id, card_id
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase import kernel
from fechtbuch.engines.battleklinge.tablebase.build import (
    GroupJob,
    checkpoint_folder,
    part_file,
    step_is_last,
    sweep_tables,
)
from fechtbuch.engines.files import atomic_write, dump_json
from fechtbuch.engines.raykit import connect_ray, import_ray

PHASES = (kernel.WIN_SWEEP, kernel.LOSS_SWEEP)
MAX_RESTARTS = 8
"""Replacement actors per build before the driver gives up (a worker that dies again
and again is a fault, not bad luck)."""
ASSEMBLY_BOARDS = 1 << 20
"""Frontier entries turned into value bytes at once (about 150 bytes of memory each)."""

Frontier = dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]
"""Per split of a group: the boards (int64, increasing) and their newly resolved deals
(uint32 masks) of one phase."""


def row_ranges(rows: int, parts: int) -> list[tuple[int, int]]:
    """``rows`` cut into ``parts`` contiguous ranges of (nearly) equal length."""
    return [(rows * w // parts, rows * (w + 1) // parts) for w in range(parts)]


def split_rows(lay: ix.Layout, a: int, b: int) -> int:
    """Rows of split (a, b): stored master pairs times placements of the mover's students."""
    return lay.num_pairs * math.comb(ix.FREE_SQUARES, a)


class PartitionWorker:
    """One worker's share of a split group (a Ray actor: wrapped by :func:`_actor`).

    Holds the replica of the group's masks and sweeps rows ``ranges[split]`` of each
    split.  ``captures`` are the finished splits a capture reaches."""

    def __init__(
        self,
        card_ids: list[str],
        group: list[tuple[int, int]],
        ranges: dict[tuple[int, int], tuple[int, int]],
        captures: dict[tuple[int, int], np.ndarray],
    ):
        self.cards = tuple(card_from_id(c) for c in card_ids)
        self.group = [tuple(split) for split in group]
        self.ranges = ranges
        # Ray hands the capture tables over as object references inside the dict
        self.captures = {
            split: value if isinstance(value, np.ndarray) else _fetch(value)
            for split, value in captures.items()
        }
        lay = ix.layout(self.cards)
        self.tables, self.lay_arrays = sweep_tables(self.cards)
        self.c2 = {(a, b): math.comb(ix.FREE_SQUARES - a, b) for a, b in self.group}
        self.masks = {
            kind: {split: np.zeros(lay.boards(*split), dtype=np.uint32) for split in self.group}
            for kind in PHASES
        }
        self.scratch = {
            split: np.zeros(lay.boards(*split) * ix.NUM_DEALS, dtype=np.uint8)
            for split in self.group
        }
        # The captures read as the local build reads them (4-byte masks brought up to
        # each step, kernel.advance_capture_masks), not as value bytes: the same bytes,
        # and the sweep runs with the argument types of the local build, so its compiled
        # code is shared instead of compiled a second time (about 40 s of one core).
        self.capture_masks = {
            split: (
                np.zeros(len(values) // ix.NUM_DEALS, dtype=np.uint32),
                np.zeros(len(values) // ix.NUM_DEALS, dtype=np.uint32),
            )
            for split, values in self.captures.items()
        }
        self.capture_last = {
            split: kernel.last_steps(values, len(values) // ix.NUM_DEALS)
            for split, values in self.captures.items()
        }
        self.masks_step = 0  # the step the capture masks hold

    def node(self) -> str:
        """The id of the Ray node this worker runs on."""
        import ray

        return ray.get_runtime_context().get_node_id()

    def apply(self, kind: int, frontier: Frontier) -> None:
        """OR a merged frontier of a finished phase into the replica's masks."""
        for split, (boards, bits) in frontier.items():
            self.masks[kind][tuple(split)][boards] |= bits

    def replay(self, phases: list[tuple[int, Frontier]]) -> int:
        """A replacement worker's start: every finished phase, in order."""
        for kind, frontier in phases:
            self.apply(kind, frontier)
        return len(phases)

    def sweep(self, step: int, kind: int, previous_kind: int, *previous: Frontier) -> Frontier:
        """Apply the previous phase's merged frontier (none before the first phase), then
        sweep this worker's rows; returns the frontier of its rows."""
        if previous:
            self.apply(previous_kind, previous[0])
        while self.masks_step < step:  # in order, from zero masks, once per step
            self.masks_step += 1
            for split, (lost_within, won_within) in self.capture_masks.items():
                kernel.advance_capture_masks(
                    self.captures[split], lost_within, won_within, self.masks_step,
                    self.capture_last[split],
                )  # fmt: skip
        empty = np.zeros(0, dtype=np.uint32)
        out: Frontier = {}
        for a, b in self.group:
            first_row, stop_row = self.ranges[(a, b)]
            first, stop = first_row * self.c2[(a, b)], stop_row * self.c2[(a, b)]
            own = self.masks[kind][(a, b)]
            before = own[first:stop].copy()
            arrays = (
                self.masks[kernel.WIN_SWEEP][(a, b)],
                self.masks[kernel.LOSS_SWEEP][(a, b)],
                self.scratch[(a, b)],
                self.masks[1 - kind][(b, a)],
                self.capture_masks[(b - 1, a)][kind] if b else empty,
                kernel.nothing_checked(),
            )
            for row in range(first_row, stop_row, _rows_per_call(self.c2[(a, b)])):
                last = min(stop_row, row + _rows_per_call(self.c2[(a, b)]))
                rows = np.arange(row, last, dtype=np.int64)
                kernel.sweep(kind, step, a, b, arrays, self.tables, self.lay_arrays, rows, 1)
            new = own[first:stop] & ~before
            changed = np.flatnonzero(new)
            out[(a, b)] = (changed + first, new[changed])
        return out


def _fetch(ref) -> np.ndarray:
    import ray

    return ray.get(ref)


def _rows_per_call(c2: int) -> int:
    return max(1, kernel.CHUNK_BOARDS // c2)


def _actor(ray):
    return ray.remote(num_cpus=1, max_restarts=0, scheduling_strategy="SPREAD")(PartitionWorker)


def _dead_actor_errors(ray) -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [ray.exceptions.RayActorError]
    for name in ("ActorUnavailableError", "ObjectLostError", "OwnerDiedError"):
        if hasattr(ray.exceptions, name):
            errors.append(getattr(ray.exceptions, name))
    return tuple(errors)


def merge(parts: list[Frontier], group: list[tuple[int, int]]) -> Frontier:
    """The frontier of a phase from the workers' (in row order: boards stay increasing)."""
    merged: Frontier = {}
    for split in group:
        boards = [part[split][0] for part in parts]
        bits = [part[split][1] for part in parts]
        merged[split] = (np.concatenate(boards), np.concatenate(bits))
    return merged


def resolved(frontier: Frontier) -> int:
    """Positions a phase resolved (deal bits of its frontier)."""
    total = 0
    for _, bits in frontier.values():
        total += int(np.unpackbits(bits.view(np.uint8)).sum())
    return total


class Checkpoint:
    """The merged frontiers of the finished phases of one group, one ``.npz`` each,
    in ``.steps-<a>-<b>/`` beside the tables (``meta.json`` names the group)."""

    def __init__(self, out: Path, cards: tuple[Card, ...], group: list[tuple[int, int]]):
        self.folder = checkpoint_folder(out, group)
        self.group = group
        meta = {"cards": [card_id(c) for c in cards], "group": [list(s) for s in group]}
        meta_path = self.folder / "meta.json"
        if meta_path.exists() and json.loads(meta_path.read_text()) != meta:
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        if not meta_path.exists():
            atomic_write(meta_path, dump_json(meta), force=True)

    def _path(self, phase: int) -> Path:
        return self.folder / f"phase-{phase:04d}.npz"

    def finished(self) -> int:
        """Phases finished so far (a phase counts once its file is complete)."""
        phase = 0
        while self._path(phase).exists():
            phase += 1
        return phase

    def save(self, phase: int, frontier: Frontier) -> None:
        arrays = {}
        for a, b in self.group:
            arrays[f"boards_{a}_{b}"], arrays[f"bits_{a}_{b}"] = frontier[(a, b)]
        tmp = self.folder / f".phase-{phase:04d}.tmp.npz"
        np.savez(tmp, **arrays)
        tmp.replace(self._path(phase))

    def load(self, phase: int) -> Frontier:
        with np.load(self._path(phase)) as data:
            return {(a, b): (data[f"boards_{a}_{b}"], data[f"bits_{a}_{b}"]) for a, b in self.group}

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def phase_kind(phase: int) -> int:
    return PHASES[phase % 2]


def phase_code(phase: int) -> int:
    """The value byte of a position resolved in ``phase`` (step t = phase // 2 + 1):
    won in t is 2t - 1, lost in t is 2t (the kernel's code)."""
    return phase + 1


def write_values(job: GroupJob, checkpoint: Checkpoint, phases: int, lay: ix.Layout) -> None:
    """The group's part files from the finished phases' frontiers."""
    for split in job.group:
        values = np.memmap(
            job.out / part_file(*split), dtype=np.uint8, mode="w+", shape=(lay.positions(*split),)
        )
        for phase in range(phases):
            boards, bits = checkpoint.load(phase)[split]
            for start in range(0, len(boards), ASSEMBLY_BOARDS):
                chunk_boards = boards[start : start + ASSEMBLY_BOARDS]
                chunk_bits = bits[start : start + ASSEMBLY_BOARDS]
                deals = (chunk_bits[:, None] >> np.arange(ix.NUM_DEALS, dtype=np.uint32)) & 1
                rows, slots = np.nonzero(deals)
                values[chunk_boards[rows] * ix.NUM_DEALS + slots] = phase_code(phase)
        values.flush()
        del values


class RaySolver:
    """A :data:`~.build.GroupSolver` on Ray: ``workers`` partitions (default: the
    cluster's CPUs) on the cluster at ``address``, the one this process is connected
    to, or a local Ray started here.  ``restarts`` counts replaced workers;
    ``nodes`` the Ray nodes the first workers of the last group ran on,
    ``resumed_phases`` the checkpointed phases the last group started from,
    ``frontier_bytes`` the merged frontiers sent out so far (12 bytes an entry)."""

    def __init__(self, address: str | None = None, workers: int | None = None):
        self.ray = import_ray("--ray-address" if address is not None else "--ray")
        self.started_here = connect_ray(address, workers)
        self.workers = workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.restarts = 0
        self.nodes: list[str] = []
        self.resumed_phases = 0
        self.frontier_bytes = 0

    def close(self) -> None:
        if self.started_here:
            self.ray.shutdown()
            self.started_here = False

    def __call__(self, job: GroupJob, on_step: Callable[[int, int], None]) -> int:
        ray = self.ray
        lay = ix.layout(job.cards)
        parts = self.workers
        ranges = [
            {split: row_ranges(split_rows(lay, *split), parts)[w] for split in job.group}
            for w in range(parts)
        ]
        capture_refs = {split: ray.put(np.asarray(v)) for split, v in job.captures.items()}
        card_ids = [card_id(c) for c in job.cards]
        checkpoint = Checkpoint(job.out, job.cards, job.group)
        dead = _dead_actor_errors(ray)

        def start(w: int, finished_phases: int):
            """A worker in the state after ``finished_phases`` phases."""
            actor = _actor(ray).remote(card_ids, job.group, ranges[w], capture_refs)
            if finished_phases:
                history = [(phase_kind(p), checkpoint.load(p)) for p in range(finished_phases)]
                ray.get(actor.replay.remote(history))
            return actor

        def replace(w: int, finished_phases: int, error: BaseException) -> None:
            while True:  # the replacement may land on the dead node too
                self.restarts += 1
                if self.restarts > MAX_RESTARTS:
                    raise error
                try:
                    actors[w] = start(w, finished_phases)
                    return
                except dead as again:
                    error = again

        def located(w: int) -> str:
            """The node worker ``w`` runs on.  A node killed a moment ago may still be
            offered by the cluster until its heartbeats are missed; an actor placed there
            dies before it answers, and is replaced like one lost mid-sweep."""
            while True:
                try:
                    return ray.get(actors[w].node.remote())
                except dead as error:
                    replace(w, phase, error)

        progress = _Progress(job.ext_max)
        phase = 0
        self.resumed_phases = checkpoint.finished()
        while phase < self.resumed_phases and not progress.ended:  # a resumed build
            progress.add(phase, resolved(checkpoint.load(phase)))
            phase += 1
        actors: list = []
        try:
            if not progress.ended:
                actors = [start(w, phase) for w in range(parts)]
                self.nodes = [located(w) for w in range(parts)]
            previous: list = []
            while not progress.ended:
                step, kind = phase // 2 + 1, phase_kind(phase)
                previous_kind = phase_kind(phase - 1)
                pending = {
                    w: actors[w].sweep.remote(step, kind, previous_kind, *previous)
                    for w in range(parts)
                }
                results: dict[int, Frontier] = {}
                while pending:
                    w, ref = pending.popitem()
                    try:
                        results[w] = ray.get(ref)
                    except dead as error:
                        replace(w, phase, error)  # replays through the previous phase
                        pending[w] = actors[w].sweep.remote(step, kind, previous_kind)
                merged = merge([results[w] for w in range(parts)], job.group)
                checkpoint.save(phase, merged)
                previous = [ray.put(merged)]
                self.frontier_bytes += sum(b.nbytes + m.nbytes for b, m in merged.values())
                progress.add(phase, resolved(merged))
                phase += 1
                if kind == kernel.LOSS_SWEEP:
                    on_step(step, progress.total)
        finally:  # a stopped driver frees its workers' CPUs; the checkpoint stays
            for actor in actors:
                ray.kill(actor)
        write_values(job, checkpoint, phase, lay)
        checkpoint.remove()
        return phase // 2


class _Progress:
    """Counts of the phases so far and the end rule of the single-machine build
    (:func:`~.build.step_is_last`, checked after each step's loss phase)."""

    def __init__(self, ext_max: int):
        self.ext_max = ext_max
        self.total = 0
        self.step_changed = 0
        self.ended = False

    def add(self, phase: int, changed: int) -> None:
        self.total += changed
        self.step_changed += changed
        if phase_kind(phase) == kernel.LOSS_SWEEP:
            self.ended = step_is_last(phase // 2 + 1, self.step_changed, self.ext_max)
            self.step_changed = 0
