"""``fechtbuch mine``: mine an exercise pack, resumable and parallel; and
``fechtbuch bench mine``, which mines the shipped pack again from scratch."""

from __future__ import annotations

import ctypes
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
from fechtbuch.engines import interrupts
from fechtbuch.engines.battleklinge.cards import CARDS, parse_card_list
from fechtbuch.engines.battleklinge.clitypes import CARD_LIST
from fechtbuch.engines.clikit import (
    atomic_write,
    dump_json,
    emit_json,
    ensure_writable,
    int_range,
    jobs_option,
    resolve_jobs,
    runs_option,
)
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.paths import data_file
from fechtbuch.puzzles.battleklinge.packkind import build_pack
from fechtbuch.puzzles.mine_state import claim, load_state, state_json, state_path
from fechtbuch.puzzles.mining import Pool, examine_game, warm_up
from fechtbuch.puzzles.pack import pack_bytes, schema_problems
from fechtbuch.puzzles.selection import select
from tqdm import tqdm

BATCH_GAMES = 16
POOL_FACTOR = 4
MAX_GAMES = 50_000


def _init_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the main process, which saves the pool and stops them,
    and die with their parent: the kernel sends SIGKILL when it exits (Linux
    PR_SET_PDEATHSIG), and a worker whose parent is already gone leaves at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    _PARENT["pid"] = parent


_PARENT = {"pid": 0}
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent-pid checks remain
        pass


def _examine(task):
    """Worker entry point: stop if the parent is gone (the check for systems without
    PR_SET_PDEATHSIG)."""
    if _PARENT["pid"] and os.getppid() != _PARENT["pid"]:
        os._exit(1)
    return examine_game(task)


def _interrupted_note(partial: Path, claimed: bool, pool: Pool, first: int, done: int) -> str:
    """What Ctrl-C left behind, said truthfully: the state file only when it exists
    and holds games (a run interrupted before its first batch removes its own)."""
    if done == 0:
        if claimed:
            partial.unlink(missing_ok=True)
        return "interrupted before the first batch of games was done; nothing kept"
    if not partial.exists():
        return f"interrupted; {partial} is gone, so nothing is kept"
    return (
        f"interrupted: {len(pool.candidates)} candidates from {done} games "
        f"({done - first} in this run) kept in {partial}; continue with --resume"
    )


def _command_text(ns, count, cards_text, seed, output) -> str:
    parts = ["fechtbuch mine"] + [f"--n {n}" for n in ns] + [f"--count {count}"]
    if cards_text:
        parts.append(f"--cards {cards_text}")
    parts += [f"--seed {seed}", f"-o {output}"]
    return " ".join(parts)


def _pool_full(pool: Pool, ns, count) -> bool:
    """Four times the pack per N, from at least twice as many different games as
    the pack needs (the selection takes at most one exercise per game)."""
    games = {n: {c["game"] for c in pool.candidates if c["n"] == n} for n in ns}
    return all(
        pool.count(n) >= POOL_FACTOR * count and len(games[n]) >= 2 * count for n in ns
    ) and len(set().union(*games.values())) >= 2 * count * len(ns)


@click.command("mine")
@click.option(
    "--n",
    "ns",
    type=int_range(2, 3),
    multiple=True,
    help="Exercise length in own moves; repeat for both (default: --n 2 --n 3).",
)
@click.option(
    "--count",
    type=int_range(1, 500),
    default=6,
    show_default=True,
    help="Exercises per N in the pack.",
)
@click.option(
    "--cards",
    "cards_text",
    type=CARD_LIST,
    default=None,
    help="Play every game with these five cards: einsteiger, angriff, verteidigung, "
    "or five ids joined by ','. Default (zufall): five of sixteen at random per game.",
)
@click.option(
    "--seed",
    type=int_range(0),
    default=1,
    show_default=True,
    help="Seed for the games, the sources and the selection (SHA-256 derived).",
)
@jobs_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("pack.json"),
    show_default=True,
    help="The pack file to write.",
)
@click.option("--resume", is_flag=True, help="Continue an interrupted run from OUTPUT.partial.")
@click.option("--force", is_flag=True, help="Overwrite an existing OUTPUT.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def mine_command(ns, count, cards_text, seed, jobs, output, resume, force, as_json):
    """Mine exercises ("Fechtuebungen"): forced hits in exactly N own moves.

    Self-play games (random and cautious players, over many card sets) give
    candidate positions; each is proved by df-pn, confirmed by the minimax
    verifier, kept only with exactly one key, tagged and rated.  OR-Tools
    CP-SAT then picks the pack from a pool four times its size: balanced
    schools, every card several times, motifs and difficulty spread.

    The same seed gives a byte-identical pack for any -j.  Ctrl-C keeps what
    was found in OUTPUT.partial; run again with --resume to continue.

    \b
    Examples:
      fechtbuch mine                              # 6 + 6 exercises, seed 1
      fechtbuch mine --count 24 -o fechtuebungen.json
      fechtbuch mine --n 3 --cards angriff --seed 7 -j 2 -o angriff3.json
    """
    ns = tuple(sorted(set(ns))) or (2, 3)
    # "zufall" (the rulebook's random set) is the default: five of sixteen per game
    random_cards = not cards_text or cards_text.strip().lower() == "zufall"
    cards = None if random_cards else parse_card_list(cards_text)
    cards_text = None if random_cards else cards_text
    ensure_writable(output, force=force)
    jobs = resolve_jobs(jobs)
    params = {"ns": list(ns), "count": count, "cards": cards_text or None, "seed": seed}
    partial = state_path(output)
    pool = Pool()
    next_game = 0
    if resume:
        pool, next_game = load_state(partial, params)
    first_game = next_game
    started = time.perf_counter()
    workers = None
    claimed = False
    bar = tqdm(desc="mining", unit=" games", initial=next_game, disable=None, leave=False)
    try:
        if not resume:
            claimed = claim(partial, params, force)  # before any work: a second run refuses
        warm_up()
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            workers = context.Pool(jobs, initializer=_init_worker, initargs=(os.getpid(),))
        while not _pool_full(pool, ns, count) and next_game < MAX_GAMES:
            tasks = [(seed, i, ns, cards) for i in range(next_game, next_game + BATCH_GAMES)]
            results = workers.imap(_examine, tasks) if workers else map(examine_game, tasks)
            for game in results:
                pool.add(game)
                bar.update(1)
                bar.set_postfix(
                    {"positions": sum(pool.positions.values())}
                    | {f"n{n}": pool.count(n) for n in ns}
                    | {"kept": len(pool.candidates)}
                )
            next_game += BATCH_GAMES
            atomic_write(partial, state_json(params, next_game, pool), force=True)
        bar.close()
        mined = time.perf_counter() - started
        chosen = select(pool.candidates, {n: count for n in ns}, seed)
    except KeyboardInterrupt:
        interrupts.acknowledge()
        if workers:
            workers.terminate()
            workers.join()
            workers = None
        bar.close()
        click.echo(_interrupted_note(partial, claimed, pool, first_game, next_game), err=True)
        return 130
    except BaseException:
        if claimed and next_game == 0:
            partial.unlink(missing_ok=True)
        raise
    finally:
        if workers:
            workers.close()
            workers.join()
        bar.close()
    command = _command_text(ns, count, cards_text, seed, output)
    pack = build_pack(chosen, seed, command)
    problems = schema_problems(pack)
    if problems:  # only a hand-edited resume state can get here; never write a bad pack
        raise InputError(f"pack: the mined pack fails its schema: {problems[0]}")
    atomic_write(output, pack_bytes(pack), force=force)
    partial.unlink(missing_ok=True)
    seconds = time.perf_counter() - started
    summary = {
        "output": str(output),
        "puzzles": len(pack["puzzles"]),
        "by_n": {str(n): sum(1 for p in pack["puzzles"] if p["n"] == n) for n in ns},
        "games": pool.games,
        "positions": pool.positions,
        "found": pool.found,
        "pool": {str(n): pool.count(n) for n in ns},
        "rejected_by_verifier": pool.rejected,
        "seconds_mining": round(mined, 2),
        "seconds": round(seconds, 2),
        "command": command,
    }
    if as_json:
        emit_json(summary)
        return 0
    examined = sum(pool.positions.values())
    click.echo(
        f"Wrote {output}: {len(pack['puzzles'])} exercises "
        + ", ".join(f"{v} with N={k}" for k, v in summary["by_n"].items())
        + "."
    )
    click.echo(
        f"Examined {examined:,} positions from {pool.games} games in {mined:.1f} s "
        f"({examined / max(mined, 1e-9):,.0f} positions/s, {jobs} workers)."
    )
    for source, seen in pool.positions.items():
        found = pool.found[source]
        click.echo(
            f"  {source:7} {seen:7,} positions, {found:5} exercises ({found / max(seen, 1):.1%})"
        )
    click.echo(
        f"Pool {len(pool.candidates)} after mirror duplicates; chosen by CP-SAT in "
        f"{seconds - mined:.1f} s. Cards used: "
        f"{len({c for p in pack['puzzles'] for c in p['cards']})} of {len(CARDS)}."
    )
    if pool.rejected:
        click.echo(f"WARNING: {pool.rejected} candidates rejected by the verifier (not published).")
    return 0


@click.command("mine")
@runs_option(3, 10)
@jobs_option
def bench_mine_command(runs: int, jobs: int | None) -> int:
    """Mine the shipped pack from scratch (its recorded command, into a temporary
    folder) and print candidates/s, the yield per source and the wall time; the
    result must equal data/packs/fechtuebungen.json byte for byte."""
    shipped = data_file("packs", "fechtuebungen.json")
    command = json.loads(shipped.read_bytes())["command"].split()[1:]
    walls, summaries, identical = [], [], True
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "fechtuebungen.json")
            args = list(command)
            args[args.index("-o") + 1] = target
            jobs_args = ["-j", str(jobs)] if jobs else []
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "fechtbuch.cli", *args, *jobs_args, "--json"],
                capture_output=True,
                text=True,
                check=True,
            )
            walls.append(time.perf_counter() - started)
            summaries.append(json.loads(done.stdout))
            made = json.loads(open(target, "rb").read())
            made["command"] = json.loads(shipped.read_bytes())["command"]
            identical &= dump_json(made) == shipped.read_bytes()
    summary = summaries[0]
    examined = sum(summary["positions"].values())
    mining = statistics.median(s["seconds_mining"] for s in summaries)
    click.echo(
        f"shipped pack from scratch: median wall {statistics.median(walls):.1f} s "
        f"(process start included) over {runs} runs: " + ", ".join(f"{w:.1f}" for w in walls)
    )
    click.echo(
        f"candidates examined {examined:,} in {mining:.1f} s of mining: "
        f"{examined / mining:,.0f} positions/s"
    )
    for source, seen in summary["positions"].items():
        found = summary["found"][source]
        click.echo(f"  {source:7} {seen:6,} positions -> {found} exercises ({found / seen:.1%})")
    click.echo("identical to data/packs/fechtuebungen.json: " + ("yes" if identical else "NO"))
    return 0 if identical else 1
