"""``fechtbuch touche mine``: mine a pack of "sicherer Treffer" exercises, resumable
and parallel.

Rounds of seeded self-play (:func:`~fechtbuch.puzzles.touche.exercises.examine_game`)
are examined in batches of :data:`BATCH_ROUNDS`; after each batch the pool (every
exercise so far, deduplicated up to the mirror, first round first) is saved in
``OUTPUT.partial``, and mining stops when every N has exercises from
:data:`POOL_ROUNDS` times as many rounds as the pack needs.  The stop is decided
per batch from results in round order, so the pack is the same for any ``-j``.
CP-SAT then picks the pack (:mod:`fechtbuch.puzzles.touche.selection`).
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from pathlib import Path

import click
import orjson
from fechtbuch.engines import interrupts
from fechtbuch.engines.clikit import (
    atomic_write,
    emit_json,
    ensure_writable,
    int_range,
    jobs_option,
    read_json_file,
    resolve_jobs,
)
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.touche_duell.notation import parse_view
from fechtbuch.puzzles.pack import build_pack_v2, pack_bytes, schema_problems
from fechtbuch.puzzles.touche.exercises import (
    EXAMINE_NODES,
    MAX_N,
    PLAYER,
    GameResult,
    duplicate_class,
    examine_game,
)
from fechtbuch.puzzles.touche.packkind import KIND
from fechtbuch.puzzles.touche.selection import Candidate, select

BATCH_ROUNDS = 8
DEFAULT_ROUNDS = 2_000
POOL_ROUNDS = 1.25
"""Mine until each N has exercises from this many times as many rounds as it needs."""
STATE_FORMAT = "fechtbuch-touche-mine-state"


class Pool:
    """The exercises found so far, deduplicated up to the mirror (first round wins)."""

    def __init__(self) -> None:
        self.candidates: list[Candidate] = []
        self.classes: set[str] = set()
        self.reasons: dict[str, int] = {}
        self.rounds = 0

    def add(self, result: GameResult) -> None:
        self.rounds += 1
        for reason, count in result.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count
        for puzzle in result.puzzles:
            cls = duplicate_class(parse_view(puzzle["position"]))
            if cls not in self.classes:
                self.classes.add(cls)
                self.candidates.append(Candidate(puzzle, result.game))

    def rounds_with(self, n: int) -> int:
        return len({c.game for c in self.candidates if c.puzzle["n"] == n})

    def full(self, per_n: dict[int, int]) -> bool:
        return all(self.rounds_with(n) >= math.ceil(POOL_ROUNDS * k) for n, k in per_n.items())

    def to_json(self) -> dict:
        return {
            "candidates": [c.to_json() for c in self.candidates],
            "reasons": self.reasons,
            "rounds": self.rounds,
        }

    @classmethod
    def from_json(cls, data: dict) -> Pool:
        pool = cls()
        for item in data["candidates"]:
            candidate = Candidate.from_json(item)
            pool.candidates.append(candidate)
            pool.classes.add(duplicate_class(parse_view(candidate.puzzle["position"])))
        pool.reasons = dict(data["reasons"])
        pool.rounds = data["rounds"]
        return pool


def state_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


def state_bytes(params: dict, next_round: int, pool: Pool) -> bytes:
    state = {"format": STATE_FORMAT, "params": params, "next_round": next_round}
    return orjson.dumps(state | {"pool": pool.to_json()})


def load_state(path: Path, params: dict) -> tuple[Pool, int]:
    """The pool and the next round of an interrupted run with the same options; a
    damaged or foreign file is one InputError line."""
    state = read_json_file(path, "--resume")
    try:
        if state["format"] != STATE_FORMAT:
            raise ValueError("not a touche mine state")
        pool = Pool.from_json(state["pool"])
        next_round = state["next_round"]
        if type(next_round) is not int or next_round < 0 or next_round % BATCH_ROUNDS:
            raise ValueError("next_round")
    except (KeyError, TypeError, ValueError, InputError) as err:
        raise InputError(
            f"--resume: {quote(str(path))} is damaged ({quote(str(err), 80)[1:-1]}); "
            "delete it or use --force to start over"
        ) from None
    if state["params"] != params:
        raise InputError(f"--resume: {quote(str(path))} was made with other options")
    return pool, next_round


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which saves the pool and stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def command_text(
    ns: tuple[int, ...], count: int, seed: int, max_nodes: int, max_rounds: int, output: Path
) -> str:
    parts = ["fechtbuch touche mine"]
    if ns != tuple(range(1, MAX_N + 1)):
        parts += [f"--n {n}" for n in ns]
    parts += [f"--count {count}", f"--seed {seed}"]
    if max_nodes != EXAMINE_NODES:
        parts.append(f"--max-nodes {max_nodes}")
    if max_rounds != DEFAULT_ROUNDS:
        parts.append(f"--rounds {max_rounds}")
    return " ".join(parts + [f"-o {output.name}"])


def reachable(pool: Pool, per_n: dict[int, int]) -> dict[int, int]:
    """What the pack can hold: ``per_n`` when the pool is full; after ``--rounds``
    stopped a thin pool, each N at most one exercise per round that has one (an N
    without any is left out) -- the summary and the command say so."""
    if pool.full(per_n):
        return per_n
    short = {n: min(k, pool.rounds_with(n)) for n, k in per_n.items()}
    return {n: k for n, k in short.items() if k}


@click.command("mine")
@click.option(
    "--n",
    "ns",
    type=int_range(1, MAX_N),
    multiple=True,
    help="Exercise length in own turns; repeat for several (default: --n 1 --n 2 --n 3).",
)
@click.option(
    "--count", type=int_range(1, 200), default=12, show_default=True, help="Exercises per N."
)
@click.option(
    "--seed",
    type=int_range(0),
    default=1,
    show_default=True,
    help="Seed of the self-play rounds (deals, starters, the players' choices; SHA-256).",
)
@click.option(
    "--max-nodes",
    type=int_range(100),
    default=EXAMINE_NODES,
    show_default=True,
    help="Proof nodes per view before it is skipped (more finds more, slower).",
)
@click.option(
    "--rounds",
    "max_rounds",
    type=int_range(BATCH_ROUNDS),
    default=DEFAULT_ROUNDS,
    show_default=True,
    help="Stop mining after this many rounds; a thin pool then gives fewer exercises "
    "for an N (one per round that has one).",
)
@jobs_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("touche-uebungen.json"),
    show_default=True,
    help="The pack file to write.",
)
@click.option("--resume", is_flag=True, help="Continue an interrupted run from OUTPUT.partial.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT (and start OUTPUT.partial over).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def mine_command(ns, count, seed, max_nodes, max_rounds, jobs, output, resume, force, as_json):
    """Mine "sicherer Treffer" exercises: sure wins in exactly N own turns.

    Seeded self-play rounds (standard and fortgeschritten, the computer at
    strength stark on both sides); every view of the player to act is proved by
    df-pn (a sure win whatever the opponent holds and the pile brings), kept with
    exactly one key and N = 1 not trivial, confirmed by the independent verifier,
    deduplicated up to the mirror, tagged and rated.  CP-SAT picks the pack for
    variety (levels, motifs, rounds).  The pack is format version 2 with whole
    solution trees.

    The same options give a byte-identical pack for any -j.  Ctrl-C keeps the pool
    in OUTPUT.partial; run again with --resume to continue.

    \b
    Examples:
      fechtbuch touche mine -o touche-uebungen.json      # 12 per N = 1, 2, 3
      fechtbuch touche mine --n 1 --count 4 --seed 7 -j 2 -o quick.json
    """
    ns = tuple(sorted(set(ns))) or tuple(range(1, MAX_N + 1))
    per_n = {n: count for n in ns}
    ensure_writable(output, force=force)
    jobs = resolve_jobs(jobs)
    params = {"ns": list(ns), "count": count, "seed": seed, "max_nodes": max_nodes}
    # --rounds only bounds the work: a resumed run may raise it
    partial = state_path(output)
    pool, next_round = Pool(), 0
    if resume:
        pool, next_round = load_state(partial, params)
    elif partial.exists() and not force:
        raise InputError(
            f"output: {quote(str(partial))} exists (an interrupted or running mine of this "
            "output); continue it with --resume or start over with --force"
        )
    else:
        atomic_write(partial, state_bytes(params, 0, pool), force=True)
    started = time.perf_counter()
    workers = None
    try:
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            workers = context.Pool(jobs, initializer=_ignore_interrupts)
        while not pool.full(per_n) and next_round < max_rounds:
            tasks = [(seed, g, max_nodes) for g in range(next_round, next_round + BATCH_ROUNDS)]
            results = workers.imap(examine_game, tasks) if workers else map(examine_game, tasks)
            for result in results:
                pool.add(result)
            next_round += BATCH_ROUNDS
            atomic_write(partial, state_bytes(params, next_round, pool), force=True)
            if not as_json:
                click.echo(
                    f"rounds {next_round}: "
                    + ", ".join(f"N={n} from {pool.rounds_with(n)} rounds" for n in ns),
                    err=True,
                )
        mined = time.perf_counter() - started
        wanted = reachable(pool, per_n)
        if not wanted:
            raise InputError(f"--rounds: no exercise in {next_round} rounds; mine more rounds")
        chosen = select(pool.candidates, wanted)
    except KeyboardInterrupt:
        interrupts.acknowledge()
        if workers:
            workers.terminate()
            workers.join()
            workers = None
        click.echo(
            f"interrupted: {len(pool.candidates)} exercises from {next_round} rounds kept in "
            f"{partial}; continue with --resume",
            err=True,
        )
        return 130
    finally:
        if workers:
            workers.close()
            workers.join()
    command = command_text(ns, count, seed, max_nodes, max_rounds, output)
    # each exercise names its self-play round, so one can be re-mined on its own
    puzzles = [{**c.puzzle, "round": c.game} for c in chosen]
    pack = build_pack_v2(
        KIND, puzzles, seed=seed, command=command, max_n=MAX_N, generator="fechtbuch touche mine"
    )
    problems = schema_problems(pack)
    if problems:  # only a hand-edited resume state can get here; never write a bad pack
        raise InputError(f"pack: the mined pack fails its schema: {problems[0]}")
    atomic_write(output, pack_bytes(pack), force=force)
    partial.unlink(missing_ok=True)
    summary = {
        "output": str(output),
        "puzzles": len(pack["puzzles"]),
        "by_n": {str(n): sum(1 for p in pack["puzzles"] if p["n"] == n) for n in ns},
        "rounds": pool.rounds,
        "views": sum(pool.reasons.values()),
        "reasons": dict(sorted(pool.reasons.items())),
        "pool": {str(n): sum(1 for c in pool.candidates if c.puzzle["n"] == n) for n in ns},
        "short": {str(n): k - wanted.get(n, 0) for n, k in per_n.items() if wanted.get(n, 0) < k},
        "player": PLAYER,
        "seconds_mining": round(mined, 2),
        "seconds": round(time.perf_counter() - started, 2),
        "command": command,
    }
    if as_json:
        emit_json(summary)
        return 0
    click.echo(
        f"Wrote {output}: {summary['puzzles']} exercises "
        + ", ".join(f"{v} with N={k}" for k, v in summary["by_n"].items())
        + "."
    )
    click.echo(
        f"Examined {summary['views']:,} views from {pool.rounds} rounds in {mined:.1f} s "
        f"({jobs} workers); pool {len(pool.candidates)} after mirror duplicates."
    )
    click.echo("Views by outcome: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()))
    for n, missing in summary["short"].items():
        click.echo(f"WARNING: {missing} fewer exercises with N={n} than --count: the pool is thin.")
    return 0
