"""Ratings from attempts: Glicko-2 against Glickman's worked example, the attempt
against the tree's defence, fit determinism and a small end-to-end ``pack rate``."""

from __future__ import annotations

import json

import pytest
from clirun import run
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.battleklinge.rating_panel import panel, stored_ladder
from fechtbuch.puzzles.glicko2 import Game, Glicko, rate
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.rating_panel import (
    UNRATED,
    Attempt,
    Panel,
    attempt,
    fit_ratings,
    update_rating,
    validate,
)

SHIPPED = load_pack(data_path("packs", "fechtuebungen.json"))["puzzles"]


def test_glicko2_reproduces_the_papers_example():
    """Glickman (2012), section 'Example calculation': 1500/200/0.06 beats 1400/30 and
    loses to 1550/100 and 1700/300 (tau 0.5): 1464.06, 151.52, 0.05999."""
    player = Glicko(1500, 200, 0.06)
    games = [
        Game(Glicko(1400, 30), 1.0),
        Game(Glicko(1550, 100), 0.0),
        Game(Glicko(1700, 300), 0.0),
    ]
    new = rate(player, games)
    # the paper prints its intermediate values rounded (mu' = -0.2069), hence the tolerances
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_solved_attempt_lowers_the_exercise_and_a_failure_raises_it():
    strong = Attempt("x", 1700.0, 30.0, solved=True)
    weak = Attempt("y", 1300.0, 30.0, solved=False)
    assert update_rating(UNRATED, [strong]).rating < 1500 < update_rating(UNRATED, [weak]).rating
    both = update_rating(update_rating(UNRATED, [strong]), [weak])
    assert (both.attempts, both.solved) == (2, 1) and both.rd < 350


def test_an_attempt_follows_the_tree_and_fails_off_it():
    puzzle = SHIPPED[0]
    tree = PuzzleTree(KIND, puzzle)
    line = iter(puzzle["line"][0::2])  # the solver's moves of the main line
    assert attempt(tree, lambda state: next(line))
    legal = sorted(tree.legal(tree.root))
    wrong = next(text for text in legal if text != puzzle["key"])
    assert not attempt(tree, lambda state: wrong)


def _small_panel() -> Panel:
    full = panel(KIND)
    keep = {"leicht", "nodes-30", "nodes-300"}
    return Panel(KIND, tuple(m for m in full.members if m.name in keep), full.anchor)


def test_same_seed_same_ratings_and_the_weakest_fail_more():
    exercises = SHIPPED[:2] + SHIPPED[-2:]
    small = _small_panel()
    first = fit_ratings(exercises, small, seed=5)
    assert first == fit_ratings(exercises, small, seed=5)
    assert all(r.attempts == 3 and 0 <= r.solved <= 3 and r.rd < 350 for r in first)


def test_validation_scores_held_out_members():
    exercises = SHIPPED[:4]
    attempts = [
        [Attempt("a", 1300.0, 30.0, False), Attempt("b", 1500.0, 30.0, True)],
        [Attempt("a", 1300.0, 30.0, True), Attempt("b", 1500.0, 30.0, True)],
        [Attempt("a", 1300.0, 30.0, False), Attempt("b", 1500.0, 30.0, False)],
        [Attempt("a", 1300.0, 30.0, True), Attempt("b", 1500.0, 30.0, True)],
    ]
    check = validate(exercises, attempts)
    assert check.attempts == 8
    assert sum(b.attempts for b in check.by_prediction) == 8
    assert sum(b.attempts for b in check.by_rating) == 8
    assert check.glicko_log_loss > 0 and check.difficulty_log_loss > 0


def test_the_stored_ladder_is_anchored_and_ordered():
    members = stored_ladder()["members"]
    ratings = {m["name"]: m["rating"] for m in members}
    assert ratings["nodes-300"] == 1500.0
    assert ratings["leicht"] < ratings["nodes-30"] < ratings["nodes-1000"]


def test_pack_rate_end_to_end(tmp_path):
    pack = json.loads(data_path("packs", "fechtuebungen.json").read_bytes())
    pack["puzzles"] = pack["puzzles"][:3]
    small = tmp_path / "small.json"
    small.write_text(json.dumps(pack))
    result = run("pack", "rate", small, "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [r["id"] for r in out["ratings"]] == [p["id"] for p in pack["puzzles"]]
    assert all(r["attempts"] == len(out["panel"]) for r in out["ratings"])
    assert out["validation"]["attempts"] == 3 * len(out["panel"])
    again = run("pack", "rate", small, "--seed", "3", "--json")
    assert again.stdout == result.stdout


@pytest.mark.parametrize(
    ("pack", "field"), [("touche-uebungen", "rules"), ("meisterstudien", "solution")]
)
def test_pack_rate_refuses_what_it_cannot_rate(pack, field):
    result = run("pack", "rate", pack)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert field in result.stderr and "Traceback" not in result.output
