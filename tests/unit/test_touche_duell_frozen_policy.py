"""The frozen mining policy of the Touché duel (``engines/touche_duell/baseline``).

* A digest of two self-play rounds as ``touche mine`` plays them pins the policy:
  it changes only when the frozen copy, the rules or the public-state definition
  change (then every mined pack must be re-mined, and this digest with it).
* The digest is computed with the live players broken on purpose, so the policy
  provably never calls them (the import contract in .importlinter says the same).
* Its exact tactics (plain recursion over the public-state problem) agree with the
  solver's verifier, and the key it plays is a key of the solver's sure win.
"""

from __future__ import annotations

import hashlib

import orjson
import pytest
from fechtbuch.engines.touche_duell import players
from fechtbuch.engines.touche_duell.baseline.policy import SureWins, sure_win_key
from fechtbuch.engines.touche_duell.notation import format_view
from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.engines.touche_duell.state import format_action
from fechtbuch.puzzles.touche_duell import minebench
from fechtbuch.puzzles.touche_duell import mining as exercises
from fechtbuch.solver.andor import keys
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.touche_duell.crosscheck import random_views

PINNED_ROUNDS = {
    # (seed, round): SHA-256 of the round's views as mining plays them
    (1, 0): "8b2d661bc2a3c95e355e0e98a8165b98207e8fcd728cdc328cf3f06bd7453c71",
    (1, 1): "31e6f1172e59d0542e58127c97526466b3920d9921cde6c82ee7f73bf9e5a201",
}


def _rounds_digest(seed: int, game: int) -> str:
    exercises.round_record.cache_clear()
    texts = "\n".join(format_view(v) for v in exercises.rounds_views(seed, game))
    return hashlib.sha256(texts.encode()).hexdigest()


def test_mining_self_play_is_pinned_and_never_asks_the_live_players(monkeypatch):
    def broken(*args, **kwargs):
        raise AssertionError("the frozen mining policy called the live players")

    for name in ("stark_choice", "stark_score", "_stark_score", "rollout", "halving_search"):
        monkeypatch.setattr(players, name, broken)
    monkeypatch.setattr(players.Player, "choose", broken)
    assert exercises.PLAYER == "meister-2026"
    found = {key: _rounds_digest(*key) for key in PINNED_ROUNDS}
    assert found == PINNED_ROUNDS


VIEWS = random_views("frozen-tactics", 30, max_pile=4)


@pytest.mark.parametrize("turns", [1, 2])
def test_the_exact_tactics_agree_with_the_solver(turns):
    wins = 0
    for view in VIEWS:
        problem = SureWinProblem(view.viewer)
        check = ProofCheck(problem)
        truth = check.wins(view, turns)
        assert SureWins(view.viewer).wins(view, turns) == truth, format_view(view)
        key = sure_win_key(view, turns)
        assert (key is not None) == truth, format_view(view)
        if truth:
            wins += 1
            fastest = next(n for n in range(1, turns + 1) if check.wins(view, n))
            assert key in keys(problem, check.wins, view, fastest), (
                format_view(view),
                format_action(key),
            )
    assert wins >= 3


def test_the_mining_bench_prints_self_play_and_proof_rows(capsys):
    assert minebench.main(["selfplay", "--rounds", "1", "--samples", "4"]) == 0
    assert minebench.main(["proofs", "--rounds", "1", "--max-nodes", "300"]) == 0
    rows = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["samples"] == 4 and rows[0]["rounds"] == 1 and rows[0]["moves"] > 0
    piles = [row["pile"] for row in rows[1:]]
    assert piles == sorted(piles) and sum(row["views"] for row in rows[1:]) > 0
