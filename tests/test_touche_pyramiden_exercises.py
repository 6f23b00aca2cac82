"""Touché-in-N mining: deterministic from the seed, exactly one verified key, plausible
alternatives for N = 1, JSON written atomically."""

from __future__ import annotations

import json

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, node_of_view
from fechtbuch.puzzles.pyramiden.exercises import mine, plausible_fields
from fechtbuch.solver.andor import keys
from fechtbuch.solver.andor_verifier import ProofCheck

from tests.clirun import run


def test_mined_exercises_have_one_verified_key():
    exercises = mine("1", 300, 1, 20_000)
    assert exercises
    for e in exercises:
        node, pattern = node_of_view(notation.parse_view(e.position))
        problem = TouchInN(pattern)
        check = ProofCheck(problem)
        assert check.wins(node, e.n)
        found = [problem.format_action(node, a) for a in keys(problem, check.wins, node, e.n)]
        assert found == [e.key]
        assert len(plausible_fields(problem, node)) >= 2
        assert e.line[0] == e.key and e.solution == {e.key: "win"}
        assert f"in-{e.n}" in e.tags and e.difficulty > 0
    assert len({(e.position) for e in exercises}) == len(exercises)


def test_mine_command_is_deterministic_and_atomic(tmp_path):
    out = tmp_path / "ex.json"
    args = ["pyramiden", "mine", "-o", out, "--seed", "t2", "--candidates", "120", "--max", "1"]
    first = run(*args, "--quiet")
    assert first.exit_code == 0, first.output
    data = out.read_bytes()
    assert isinstance(json.loads(data), list)
    again = run(*args, "--quiet")
    assert again.exit_code == 2  # no overwrite without --force
    forced = run(*args, "--quiet", "--force")
    assert forced.exit_code == 0 and out.read_bytes() == data
