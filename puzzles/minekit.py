"""The mining loop every game's ``mine`` command runs, written once.

A game supplies a :class:`MiningKind`: how one seeded round yields candidate
exercises (proved, verified, tagged and rated by the game's own functions), the
duplicate class of a candidate, when the pool is full, how CP-SAT picks the pack
from it (:mod:`fechtbuch.puzzles.selection` does the solving) and how the chosen
candidates become a pack.  This module does the rest, the same way for every game:

* rounds ``0, 1, 2, ...`` are examined in batches of ``kind.batch_rounds``, by a
  pool of forked workers (``-j``) or in this process; a round is a pure function of
  its task (seed and round number are SHA-256 derived by the game), and results are
  added in round order, so any ``-j`` gives the same pool;
* the pool keeps the first candidate of each duplicate class;
* after each batch the resume state ``OUTPUT.partial`` is written atomically
  (:mod:`fechtbuch.puzzles.mine_state`); Ctrl-C keeps it, ``--resume`` continues
  with the same options and gives the same bytes as an uninterrupted run;
* mining stops when the kind says the pool is full, or after ``--rounds`` rounds
  (the last batch is cut there);
* the pack is checked against its schema and written atomically (``--force`` to
  overwrite); the summary is printed as text or, with ``--json``, as JSON.

:func:`mine_options` is the one option factory of the three ``mine`` commands.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from fechtbuch.engines import interrupts
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, dump_json, ensure_writable
from fechtbuch.engines.workers import resolve_jobs
from fechtbuch.puzzles.motifs import MotifCatalogue
from fechtbuch.puzzles.pack import pack_bytes, schema_problems
from tqdm import tqdm

EXIT_INTERRUPTED = 130


@dataclass(frozen=True)
class Candidate:
    """One mined exercise (the game's record: pack fields and mining facts) and the
    seeded round it came from."""

    round: int
    puzzle: dict

    def to_json(self) -> dict:
        return {"round": self.round, "puzzle": self.puzzle}

    @classmethod
    def from_json(cls, data: dict) -> Candidate:
        return cls(data["round"], data["puzzle"])


@dataclass
class RoundYield:
    """What one round gave: its candidates in the order found, and statistics
    (counts under names the game chooses, summed over rounds by the pool)."""

    round: int
    candidates: list[dict] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list = field(default_factory=list)
    """Anything else the kind's :meth:`MiningKind.add` needs (the pyramids: the
    examinations a worker did ahead of the sequential keep step)."""


@dataclass
class MinePool:
    """Candidates so far, one per duplicate class (the first found wins), in round
    order, with the summed statistics of every round examined."""

    candidates: list[Candidate] = field(default_factory=list)
    classes: set[str] = field(default_factory=set)
    rounds: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, found: RoundYield, duplicate_class: Callable[[dict], str]) -> None:
        self.rounds += 1
        for name, count in found.counts.items():
            self.counts[name] = self.counts.get(name, 0) + count
        for puzzle in found.candidates:
            cls = duplicate_class(puzzle)
            if cls in self.classes:
                continue
            self.classes.add(cls)
            self.candidates.append(Candidate(found.round, puzzle))

    def count(self, n: int) -> int:
        """Candidates with N = ``n``."""
        return sum(1 for c in self.candidates if c.puzzle["n"] == n)

    def rounds_with(self, n: int) -> int:
        """Different rounds that gave a candidate with N = ``n``."""
        return len({c.round for c in self.candidates if c.puzzle["n"] == n})

    def to_json(self) -> dict:
        return {
            "candidates": [c.to_json() for c in self.candidates],
            "rounds": self.rounds,
            "counts": self.counts,
        }

    @classmethod
    def from_json(cls, data: dict, duplicate_class: Callable[[dict], str]) -> MinePool:
        pool = cls(
            candidates=[Candidate.from_json(c) for c in data["candidates"]],
            rounds=int(data["rounds"]),
            counts=dict(data["counts"]),
        )
        pool.classes = {duplicate_class(c.puzzle) for c in pool.candidates}
        return pool


class MiningKind:
    """What a game supplies to the mining loop.  Subclass it in
    ``puzzles/<game>/`` and override every method that raises here."""

    rules: str = ""
    """The game (the pack's ``rules``); the resume state names it."""
    command: str = ""
    """The command line that mines, e.g. ``fechtbuch touche mine``."""
    batch_rounds: int = 8
    """Rounds per batch: the pool is saved and the stop is decided after each."""
    candidate_schema: dict = {"type": "object", "required": ["n"]}
    """JSON schema of one pool candidate in the resume state (``$defs`` of the
    version-1 pack schema are available as ``#/$defs/...``)."""
    motifs: MotifCatalogue | None = None
    """The game's current motif catalogue (:mod:`fechtbuch.puzzles.motifs`): what new
    mining, the puzzle database, tags with (:meth:`motif_tags`).  The ``mine``
    commands' packs keep the tags of the game's catalogue version 1, which the
    shipped packs store and ``pack verify`` recomputes."""

    def motif_tags(self, puzzle: dict) -> tuple[int, list[str]]:
        """The version of :attr:`motifs` and the tags it gives a mined exercise (a
        candidate or a pack puzzle of this game)."""
        if self.motifs is None:
            raise InputError(f"motifs: {self.rules} has no motif catalogue")
        return self.motifs.version, self.motifs.tags(puzzle)

    def ns(self, params: dict) -> tuple[int, ...]:
        """The exercise lengths the run mines."""
        return tuple(params["ns"])

    def task(self, params: dict, round_number: int, pool: MinePool) -> tuple:
        """The picklable work unit of one round (``pool``: as it was before the batch)."""
        raise NotImplementedError

    def examine_round(self, task: tuple) -> RoundYield:
        """Play and examine one round (runs in a worker: deterministic, no clock)."""
        raise NotImplementedError

    def duplicate_class(self, puzzle: dict) -> str:
        """Equal for candidates that are the same exercise up to the game's symmetry."""
        raise NotImplementedError

    def add(self, pool: MinePool, found: RoundYield, params: dict) -> None:
        """Add one round's yield to the pool (called in round order)."""
        pool.add(found, self.duplicate_class)

    def pool_full(self, pool: MinePool, params: dict) -> bool:
        """Enough candidates to choose the pack from: mining stops."""
        raise NotImplementedError

    def select(self, pool: MinePool, params: dict) -> list[Candidate]:
        """The pack's candidates (CP-SAT with what the game balances); an
        InputError when the pool cannot give a pack."""
        raise NotImplementedError

    def build_pack(self, chosen: list[Candidate], params: dict, command: str) -> dict:
        """The pack of the chosen candidates."""
        raise NotImplementedError

    def command_text(self, params: dict, output: Path, max_rounds: int) -> str:
        """The command recorded in the pack (the same bytes come out of it again)."""
        raise NotImplementedError

    def warm_up(self) -> None:
        """Compile or load compiled code once before workers fork (changes no output)."""

    def progress(self, pool: MinePool, params: dict) -> dict:
        """The progress bar's figures."""
        return {f"n{n}": pool.count(n) for n in self.ns(params)}

    def summary(self, pool: MinePool, pack: dict, params: dict) -> dict:
        """The game's fields of the summary (added to the generic ones)."""
        return {}

    def report(self, summary: dict, jobs: int) -> list[str]:
        """The game's lines of the text summary (after "Wrote ...")."""
        return []

    # ---- the puzzle database (``fechtbuch db``, :mod:`fechtbuch.puzzles.db`) ----
    # A database round must not depend on any other round (a Ray task is one round,
    # run anywhere, retried anywhere), so the database asks for its rounds here
    # instead of through :meth:`task`, whose rounds may share a stream or a pool.

    mined_by: str = ""
    """The policy that plays the rounds (the pack's ``mined_by``), stored in each row."""
    rules_version: str = "1"
    """The rules the rows were proved under: raise it when a rules change makes old
    rows wrong, so the database can tell them apart."""
    db_ns: tuple[int, ...] = ()
    """The exercise lengths ``db mine`` mines when ``--n`` is not given."""

    db_cover_sets: int = 0
    """How many card sets the game has for ``db mine --cover`` (numbered from 0); 0
    where the game has no card sets."""

    def db_task(
        self, seed: int, round_number: int, ns: tuple[int, ...], card_set: int | None = None
    ) -> tuple:
        """The picklable work of round ``round_number`` of the database stream ``seed``:
        a pure function of these arguments, independent of every other round;
        ``card_set``: the number of the card set the round must play (a covering
        stream), ``None`` for the game's own choice."""
        raise NotImplementedError

    def db_cover_set_name(self, number: int) -> str:
        """Card set ``number`` as :meth:`db_card_set` writes it."""
        raise NotImplementedError

    def db_round(self, task: tuple) -> RoundYield:
        """Examine one database round (in a worker or on a Ray node: deterministic, no
        clock); its candidates are verified exercises in the order found."""
        return self.examine_round(task)

    def db_card_set(self, puzzle: dict) -> str | None:
        """The card set of an exercise, for queries by card set (``None``: the game
        has no fixed card set per position)."""
        return None

    def db_card_set_text(self, text: str) -> str:
        """A ``--cards`` filter as :meth:`db_card_set` writes card sets (InputError
        naming ``--cards`` for a bad list or a game without card sets)."""
        raise InputError(f"--cards: {self.rules} has no card sets")

    def db_export_params(self, ns: tuple[int, ...], count: int, seed: int) -> dict:
        """The ``params`` of :meth:`select` and :meth:`build_pack` for a pack of
        ``count`` exercises per N in ``ns`` chosen from database rows."""
        raise NotImplementedError

    def db_verify(self, row: DbCandidate) -> list[str]:
        """Re-prove one database row: a pack of this one exercise, as :meth:`db_pack`
        would write it, through ``pack verify`` (schema, every derived field with the
        game's independent verifier, the witness game); one line per problem."""
        from fechtbuch.puzzles.pack import verify_pack

        params = self.db_export_params((row.puzzle["n"],), 1, row.seed)
        pack = self.build_pack([Candidate(row.round, row.puzzle)], params, "fechtbuch db verify")
        return schema_problems(pack) or verify_pack(pack)

    def db_pack(
        self, rows: list[DbCandidate], ns: tuple[int, ...], count: int, seed: int, command: str
    ) -> dict:
        """A balanced pack chosen from database rows by the game's own selection
        (:meth:`select`, CP-SAT where the game has it).  Each row is its own
        candidate round: rows of one round of one stream are told apart by
        ``round_key``."""
        params = self.db_export_params(ns, count, seed)
        pool = MinePool(candidates=[Candidate(row.round_key, row.puzzle) for row in rows])
        pool.classes = {self.duplicate_class(row.puzzle) for row in rows}
        return self.build_pack(self.select(pool, params), params, command)


@dataclass(frozen=True)
class DbCandidate:
    """One database row as a mining candidate: the stream seed and round that found
    it, a number unique per (seed, round) pair for selections that take at most one
    exercise per round, and the exercise's record."""

    seed: int
    round: int
    round_key: int
    puzzle: dict


_ACTIVE: dict[str, object] = {"kind": None, "parent": 0}
PR_SET_PDEATHSIG = 1


def init_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the main process, which saves the pool and stops them,
    and die with their parent: the kernel sends SIGKILL when it exits (Linux
    PR_SET_PDEATHSIG), and a worker whose parent is already gone leaves at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent-pid checks remain
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    _ACTIVE["parent"] = parent


def _examine_in_worker(task: tuple) -> RoundYield:
    """Worker entry point (forked: the kind is inherited); stops if the parent is
    gone (the check for systems without PR_SET_PDEATHSIG)."""
    if _ACTIVE["parent"] and os.getppid() != _ACTIVE["parent"]:
        os._exit(1)
    return _ACTIVE["kind"].examine_round(task)


def _interrupted_note(partial: Path, claimed: bool, first: int) -> str:
    """What Ctrl-C left behind, said truthfully: the rounds and candidates the state
    file holds, not those in memory (Ctrl-C can come between a batch and its save), and
    the file only when it holds rounds (a run interrupted before its first saved batch
    removes its own)."""
    from fechtbuch.puzzles import mine_state

    saved = mine_state.saved_progress(partial)
    if saved is None:
        return f"interrupted; {partial} is gone, so nothing is kept"
    rounds, candidates = saved
    if rounds == first and claimed:
        partial.unlink(missing_ok=True)
        return "interrupted before the first batch of rounds was done; nothing kept"
    return (
        f"interrupted: {candidates} candidates from {rounds} rounds "
        f"({rounds - first} in this run) kept in {partial}; continue with --resume"
    )


@dataclass(frozen=True)
class MineRun:
    """The shared options of one ``mine`` invocation."""

    output: Path
    seed: int
    max_rounds: int
    jobs: int | None
    resume: bool
    force: bool
    as_json: bool
    progress: bool = True
    """Show the progress bar (on a terminal)."""


def run_mine(kind: MiningKind, params: dict, run: MineRun) -> int:
    """Mine, select and write the pack; the exit code (130 after Ctrl-C)."""
    from fechtbuch.puzzles import mine_state

    ensure_writable(run.output, force=run.force)
    jobs = resolve_jobs(run.jobs)
    partial = mine_state.state_path(run.output)
    pool, next_round = MinePool(), 0
    if run.resume:
        pool, next_round = mine_state.load_state(kind, partial, params)
    first_round = next_round
    started = time.perf_counter()
    workers = None
    claimed = False
    bar = tqdm(
        desc="mining",
        unit=" rounds",
        initial=next_round,
        disable=None if run.progress else True,
        leave=False,
    )
    try:
        if not run.resume:  # before any work: a second run of the same output refuses
            claimed = mine_state.claim(kind, partial, params, run.force)
        kind.warm_up()
        _ACTIVE["kind"] = kind
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            workers = context.Pool(jobs, initializer=init_worker, initargs=(os.getpid(),))
        while not kind.pool_full(pool, params) and next_round < run.max_rounds:
            batch = range(next_round, min(next_round + kind.batch_rounds, run.max_rounds))
            tasks = [kind.task(params, r, pool) for r in batch]
            results: Iterable[RoundYield] = (
                workers.imap(_examine_in_worker, tasks)
                if workers
                else map(kind.examine_round, tasks)
            )
            for found in results:
                kind.add(pool, found, params)
                bar.update(1)
                bar.set_postfix(kind.progress(pool, params) | {"kept": len(pool.candidates)})
            next_round = batch.stop
            atomic_write(partial, mine_state.state_bytes(kind, params, next_round, pool), True)
        bar.close()
        mined = time.perf_counter() - started
        chosen = kind.select(pool, params)
    except KeyboardInterrupt:
        interrupts.acknowledge()
        if workers:
            workers.terminate()
            workers.join()
            workers = None
        bar.close()
        note = _interrupted_note(partial, claimed, first_round)
        print(note, file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    except BaseException:
        if claimed and next_round == 0:
            partial.unlink(missing_ok=True)
        raise
    finally:
        if workers:
            workers.close()
            workers.join()
        bar.close()
    command = kind.command_text(params, run.output, run.max_rounds)
    pack = kind.build_pack(chosen, params, command)
    problems = schema_problems(pack)
    if problems:  # only a hand-edited resume state can get here; never write a bad pack
        raise InputError(f"pack: the mined pack fails its schema: {problems[0]}")
    atomic_write(run.output, pack_bytes(pack), force=run.force)
    partial.unlink(missing_ok=True)
    ns = kind.ns(params)
    summary = {
        "output": str(run.output),
        "puzzles": len(pack["puzzles"]),
        "by_n": {str(n): sum(1 for p in pack["puzzles"] if p["n"] == n) for n in ns},
        "rounds": pool.rounds,
        "pool": {str(n): pool.count(n) for n in ns},
        **kind.summary(pool, pack, params),
        "seconds_mining": round(mined, 2),
        "seconds": round(time.perf_counter() - started, 2),
        "command": command,
    }
    if run.as_json:
        sys.stdout.write(dump_json(summary).decode())
        return 0
    print(
        f"Wrote {run.output}: {summary['puzzles']} exercises "
        + ", ".join(f"{v} with N={k}" for k, v in summary["by_n"].items())
        + "."
    )
    for line in kind.report(summary, jobs):
        print(line)
    return 0
