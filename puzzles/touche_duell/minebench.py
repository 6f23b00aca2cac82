"""Where the Touché duel's mining time goes: self-play and proofs per round.

    fechtbuch touche bench mine selfplay --rounds 20 --samples 24 12 8
    fechtbuch touche bench mine proofs --rounds 60

``selfplay``: the frozen mining policy (meister-2026) on both sides over the rounds
``touche mine --seed 1`` plays, with each roll-out budget: CPU seconds per round and
per move.  ``proofs``: every view of those rounds examined as mining does with the
whole node limit (no pile rule, no retry), CPU seconds and outcomes by pile size,
which is what :data:`~fechtbuch.puzzles.touche_duell.mining.DEEP_PILE` rests on.  CPU
time (``time.process_time``), so the figures mean something on the loaded machine;
run it with ``nice -n 5``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence

import orjson
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.baseline.policy import MiningPlayer
from fechtbuch.engines.touche_duell.deal import lot, new_round
from fechtbuch.engines.touche_duell.state import Ruleset, view_of
from fechtbuch.puzzles.touche_duell.mining import (
    EXAMINE_NODES,
    LEVELS,
    SURE,
    duplicate_class,
    examine,
    round_seed,
    rounds_views,
)


def selfplay(seed: int, rounds: int, samples: int) -> dict:
    """CPU per round and per move of mining's self-play with ``samples`` roll-outs."""
    started = time.process_time()
    moves = 0
    for game in range(rounds):
        deal = round_seed(seed, game)
        position = new_round(deal, lot(deal), Ruleset(LEVELS[game % 2]))
        players = [MiningPlayer(f"{deal}/A", samples), MiningPlayer(f"{deal}/B", samples)]
        while not position.phase.over:
            view = view_of(position, position.mover)
            position = rules.apply(position, players[position.mover].choose(view))
            moves += 1
    cpu = time.process_time() - started
    return {
        "samples": samples,
        "rounds": rounds,
        "moves": moves,
        "cpu_seconds": round(cpu, 2),
        "cpu_per_round": round(cpu / rounds, 3),
        "ms_per_move": round(1000 * cpu / max(1, moves), 1),
    }


def proofs(seed: int, rounds: int, max_nodes: int) -> list[dict]:
    """Per pile size: views, CPU seconds of their examination, outcomes."""
    cpu: dict[int, float] = defaultdict(float)
    outcomes: dict[int, Counter] = defaultdict(Counter)
    for game in range(rounds):
        seen: set[str] = set()
        for view in rounds_views(seed, game):
            cls = duplicate_class(view)
            if cls in seen:
                continue
            seen.add(cls)
            started = time.process_time()
            outcomes[view.pile_size][examine(view, max_nodes).reason] += 1
            cpu[view.pile_size] += time.process_time() - started
    return [
        {
            "pile": pile,
            "views": sum(outcomes[pile].values()),
            "cpu_seconds": round(cpu[pile], 2),
            "sure_wins": sum(outcomes[pile][r] for r in SURE),
            "outcomes": dict(sorted(outcomes[pile].items())),
        }
        for pile in sorted(cpu)
    ]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fechtbuch touche bench mine",
        description="CPU of the Touché duel's mining: self-play and proofs per round.",
        epilog="example: selfplay --rounds 20 --samples 24 12 8; proofs --rounds 60",
    )
    parser.add_argument("what", choices=("selfplay", "proofs"), help="which part to time")
    parser.add_argument("--seed", type=int, default=1, help="mining seed (default 1)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds 0..R-1 (default 20)")
    parser.add_argument(
        "--samples", type=int, nargs="+", default=[24], help="selfplay: roll-out budgets"
    )
    parser.add_argument(
        "--max-nodes", type=int, default=EXAMINE_NODES, help="proofs: node limit per view"
    )
    args = parser.parse_args(list(argv))
    if args.what == "selfplay":
        rows = [selfplay(args.seed, args.rounds, samples) for samples in args.samples]
    else:
        rows = proofs(args.seed, args.rounds, args.max_nodes)
    for row in rows:
        print(orjson.dumps(row).decode(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
