"""The solver benchmark suite: every stored answer still holds."""

from fechtbuch.solver.battleklinge.bench import load_suite, run_bench


def test_solver_suite_has_mixed_answers_and_all_hold():
    rows = load_suite()
    assert len(rows) >= 200
    assert {r["distance"] for r in rows} >= {None, 1, 2, 3, 4}
    assert {r["loss_in"] for r in rows} >= {None, 1, 2, 3}
    assert len({r["position"].split()[-1] for r in rows}) >= 10  # many side cards: many card sets
    report = run_bench(table_mb=8)
    assert report.wrong == [] and report.positions == len(rows) and report.nodes > 0
