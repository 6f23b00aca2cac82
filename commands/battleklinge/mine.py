"""``fechtbuch mine``: mine an exercise pack, resumable and parallel; and
``fechtbuch bench mine``, which mines the shipped pack again from scratch."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import click
from fechtbuch.commands.battleklinge.params import CARD_LIST
from fechtbuch.commands.mineoptions import count_option, lengths_option, mine_options
from fechtbuch.commands.options import jobs_option, runs_option
from fechtbuch.engines.battleklinge.cards import parse_card_list
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_file
from fechtbuch.puzzles.battleklinge.minekind import DEFAULT_ROUNDS, KIND
from fechtbuch.puzzles.minekit import MineRun, run_mine


@click.command("mine")
@mine_options(
    output="pack.json",
    rounds=DEFAULT_ROUNDS,
    round_what="one self-play game and its positions",
    seed_what="the games, the sources and the selection",
)
@lengths_option(2, 3, "moves")
@count_option(6, 500)
@click.option(
    "--cards",
    "cards_text",
    type=CARD_LIST,
    default=None,
    help="Play every game with these five cards: einsteiger, angriff, verteidigung, "
    "or five ids joined by ','. Default (zufall): five of sixteen at random per game.",
)
def mine_command(run: MineRun, ns: tuple[int, ...], count: int, cards_text: str | None) -> int:
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
    if not random_cards:
        parse_card_list(cards_text)  # a bad card list is an error before anything is written
    params = {
        "ns": list(ns),
        "count": count,
        "cards": None if random_cards else cards_text,
        "seed": run.seed,
    }
    return run_mine(KIND, params, run)


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
