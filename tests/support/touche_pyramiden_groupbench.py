"""Grouped transposition keys against exact keys at N = 3 (docs/performance.md).

    python tests/support/touche_pyramiden_groupbench.py COUNT LIMIT

The views: every exercise of the shipped pack (data/packs/pyramiden-uebungen.json),
then the views with no unseen joker among ``candidate_views("groupbench", COUNT, deep=True)`` (the
states of seeded play and their lifted variants: the views the miner examines for
N = 3).  For each, ``distance(view, 3)`` and the keys come twice: from the prover
with grouped keys (the root has budget 3, ``with_budget``) and from the independent
verifier with exact keys (no budget; its leaf tests on, which
``test_leaf_test_claims_hold`` checks against plain recursion: without them an N = 3
question costs the verifier tens of seconds).  A view where the verifier passes
LIMIT nodes is counted as unknown.  Prints one line; exit 1 on a disagreement.
"""

import statistics
import sys
import time

from fechtbuch.engines.files import read_json_file
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import JOKER
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, node_of_view, with_budget
from fechtbuch.puzzles.touche_pyramiden.mining import candidate_views
from fechtbuch.solver.andor import ProofLimit, distance, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck

TURNS = 3


def answer(problem, wins, root) -> tuple:
    found = distance(wins, root, TURNS)
    texts = (
        [problem.format_action(root, a) for a in keys(problem, wins, root, found)] if found else []
    )
    return found, texts


def compare(view: str, limit: int) -> tuple[bool | None, float, float, int | None]:
    """(agree, or None when the exact side hit the limit; seconds grouped, exact; distance)."""
    node, pattern = node_of_view(notation.parse_view(view))
    problem = TouchInN(pattern)
    started = time.perf_counter()
    grouped = answer(problem, ProofSearch(problem).wins, with_budget(node, TURNS))
    middle = time.perf_counter()
    try:
        exact = answer(problem, ProofCheck(problem, max_nodes=limit).wins, node)
    except ProofLimit:
        return None, middle - started, time.perf_counter() - middle, grouped[0]
    return grouped == exact, middle - started, time.perf_counter() - middle, grouped[0]


def views(count: int) -> list[str]:
    pack = read_json_file(data_path("packs", "pyramiden-uebungen.json"), "pack")
    out = [p["position"] for p in pack["puzzles"]]
    for view in candidate_views("groupbench", count, deep=True):
        node, _ = node_of_view(notation.parse_view(view))
        if not node.unseen[JOKER]:
            out.append(view)
    return out


def main() -> int:
    count, limit = int(sys.argv[1]), int(sys.argv[2])
    results = [compare(view, limit) for view in views(count)]
    decided = [r for r in results if r[0] is not None]
    wrong = sum(1 for r in decided if not r[0])
    by_n = {n: sum(1 for r in decided if r[3] == n) for n in (1, 2, 3)}
    print(
        f"N={TURNS} views={len(results)} decided={len(decided)} disagree={wrong} "
        f"unknown(>{limit:,} nodes)={len(results) - len(decided)} "
        f"wins in 1/2/3={by_n[1]}/{by_n[2]}/{by_n[3]} "
        f"seconds grouped total={sum(r[1] for r in results):.1f} "
        f"median={statistics.median(r[1] for r in results) * 1000:.0f}ms "
        f"exact total={sum(r[2] for r in results):.1f} "
        f"median={statistics.median(r[2] for r in results) * 1000:.0f}ms",
        flush=True,
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
