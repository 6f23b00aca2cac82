"""Touché in N proof cost of the pyramid game, before and after (docs/performance.md).

Run it from a checkout, or against another version of the package with PYTHONPATH:

    python tests/support/touche_pyramiden_proofbench.py N COUNT LIMIT
    git archive 13def4c | tar -x -C /tmp/old/fechtbuch
    PYTHONPATH=/tmp/old python tests/support/touche_pyramiden_proofbench.py N COUNT LIMIT

The views: the two-player PLAY states among ``random_states(2, COUNT, "proofbench")``,
each with its unseen jokers swapped into the discard pile where it has any (the
double-threat positions that exercises need).  One fresh ``ProofSearch`` per view
asks ``wins(view, N)`` with a node limit; the code with grouped keys gets a root with
budget N (``with_budget``), the code before it the plain root.
"""

import statistics
import sys
import time

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden import touche_in_n as T
from fechtbuch.engines.touche_pyramiden.state import Phase
from fechtbuch.puzzles.touche_pyramiden.mining import jokers_seen, random_trails
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch

N = int(sys.argv[1])
count = int(sys.argv[2])
limit = int(sys.argv[3])
grouped = hasattr(T, "with_budget")
views = []
for s, trail in random_trails(count, "proofbench"):
    if s.phase is Phase.PLAY:
        variant = jokers_seen(s, trail)
        v = s if variant is None else variant.replay()
        views.append(notation.view_of(v, v.to_move))
res = []
for view in views:
    node, pattern = T.node_of_view(view)
    if grouped:
        node = T.with_budget(node, N)
    s = ProofSearch(T.TouchInN(pattern), max_nodes=limit)
    t = time.perf_counter()
    try:
        w = s.wins(node, N)
    except ProofLimit:
        w = None
    res.append((w, s.nodes, time.perf_counter() - t))
dec = [r for r in res if r[0] is not None]
print(
    f"{'after ' if grouped else 'before'} N={N} views={len(res)} wins={sum(1 for r in res if r[0])} unknown(>{limit:,} nodes)={len(res) - len(dec)} "
    f"nodes total={sum(r[1] for r in res):,} median={statistics.median(r[1] for r in res):,.0f} max={max(r[1] for r in res):,} "
    f"seconds total={sum(r[2] for r in res):.1f} median={statistics.median(r[2] for r in res) * 1000:.1f}ms",
    flush=True,
)
