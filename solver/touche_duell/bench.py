"""Speed of the Touché sure-win prover on the fixed bench set data/bench/touche-sure.jsonl,
and the cross-check of prover, verifier and brute force.

    fechtbuch touche bench proof            # print the figures
    fechtbuch touche bench proof --n 1 2 3  # only these N
    fechtbuch touche bench proof --make F   # (re)make the set
    fechtbuch touche bench crosscheck
        # prover = verifier = definition

For N = 1..4: the prover's ``wins(view, N)`` on every view of the set (a fresh
search each), total nodes, total seconds, public states (nodes) per second, the
median time per view, and how many views are sure wins.  The set: 24 views of
the player to move from seeded random play (SHA-256 picks), standard and
fortgeschritten, 12 with at most 4 pile cards and 12 with 5 to 8.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time

import orjson
from fechtbuch.engines.files import atomic_write
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import Level, Ruleset, format_view, parse_view, view_of
from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.touche_duell.crosscheck import main as crosscheck_main


def _pick(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "little")


def make_set() -> list[str]:
    late: list[str] = []
    middle: list[str] = []
    game = 0
    while len(late) < 12 or len(middle) < 12:
        level = Level.STANDARD if game % 2 else Level.FORTGESCHRITTEN
        p = new_round(f"bench/{game}", game % 2, Ruleset(level))
        ply = 0
        while not p.phase.over:
            text = format_view(view_of(p, p.mover))
            if 1 <= len(p.pile) <= 4 and len(late) < 12 and _pick("late", text) % 4 == 0:
                late.append(text)
            elif 5 <= len(p.pile) <= 8 and len(middle) < 12 and _pick("mid", text) % 4 == 0:
                middle.append(text)
            actions = rules.legal_actions(p)
            p = rules.apply_legal(p, actions[_pick("bench", game, ply) % len(actions)])
            ply += 1
        game += 1
    return late + middle


def run(texts: list[str], ns: tuple[int, ...] = (1, 2, 3, 4)) -> list[dict]:
    rows = []
    for n in ns:
        nodes = wins = 0
        times = []
        for text in texts:
            view = parse_view(text)
            search = ProofSearch(SureWinProblem(view.viewer))
            start = time.perf_counter()
            wins += search.wins(view, n)
            times.append(time.perf_counter() - start)
            nodes += search.nodes
        seconds = sum(times)
        rows.append(
            {
                "n": n,
                "views": len(texts),
                "sure_wins": wins,
                "nodes": nodes,
                "seconds": round(seconds, 2),
                "nodes_per_second": round(nodes / seconds),
                "ms_per_view": round(1000 * seconds / len(texts), 1),
                "median_ms": round(1000 * statistics.median(times), 1),
            }
        )
        print(orjson.dumps(rows[-1]).decode(), flush=True)
    return rows


def main(argv: list[str]) -> int:
    """``fechtbuch touche bench proof [--n N ...] [--make FILE [--force]]``; the old
    ``crosscheck`` first word still runs the cross-check."""
    if argv[:1] == ["crosscheck"]:
        return crosscheck_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="fechtbuch touche bench proof",
        description="The sure-win prover on the fixed set data/bench/touche-sure.jsonl.",
    )
    parser.add_argument(
        "--n", type=int, nargs="+", choices=(1, 2, 3, 4), default=[1, 2, 3, 4],
        help="only these N (own turns)",
    )  # fmt: skip
    parser.add_argument("--make", metavar="FILE", help="(re)make the set into FILE")
    parser.add_argument("--force", action="store_true", help="overwrite FILE")
    args = parser.parse_args(argv)
    if args.make:
        lines = "".join(orjson.dumps({"view": t}).decode() + "\n" for t in make_set())
        atomic_write(args.make, lines.encode(), force=args.force)
        return 0
    path = data_file("bench", "touche-sure.jsonl")
    texts = [orjson.loads(line)["view"] for line in path.read_text().splitlines() if line]
    run(texts, tuple(args.n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
