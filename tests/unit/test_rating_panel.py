"""Ratings from attempts: Glicko-2 against Glickman's worked example, the attempt
against the tree's defence, fit determinism and a small end-to-end ``pack rate``."""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.battleklinge.rating_panel import SPEC
from fechtbuch.puzzles.glicko2 import Game, Glicko, rate
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.rating_ladder import stored_ladder
from fechtbuch.puzzles.rating_panel import (
    UNRATED,
    Attempt,
    Panel,
    attempt,
    fit_ratings,
    update_rating,
    validate,
)
from support.clirun import run

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
    full = KIND.rating_panel(KIND)
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
    members = stored_ladder(SPEC)["members"]
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
    ("pack", "field"), [("pyramiden-uebungen", "rules"), ("meisterstudien", "solution")]
)
def test_pack_rate_refuses_what_it_cannot_rate(pack, field):
    result = run("pack", "rate", pack)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert field in result.stderr and "Traceback" not in result.output


def test_the_duel_panel_attempts_exercises_from_the_solvers_view(tmp_path):
    """The Touché duel's panel (meister at five sample budgets) plays legal actions
    from the solver's view (an action text the tree does not know would fail every
    attempt): every member solves some one-turn exercises, the full meister most;
    the ladder is anchored at meister-4, and ``pack rate`` rates a small duel pack."""
    from fechtbuch.puzzles.touche_duell.packkind import KIND as DUEL
    from fechtbuch.puzzles.touche_duell.rating_panel import SPEC as DUEL_SPEC

    members = stored_ladder(DUEL_SPEC)["members"]
    names = ["meister-1", "meister-2", "meister-4", "meister-8", "meister-24"]
    assert [m["name"] for m in members] == names
    assert dict((m["name"], m["rating"]) for m in members)["meister-4"] == 1500.0
    duel_panel = DUEL.rating_panel(DUEL)
    pack = json.loads(data_path("packs", "touche-uebungen.json").read_bytes())
    one_turn = [p for p in pack["puzzles"] if p["n"] == 1]
    solved = {m.name: 0 for m in duel_panel.members}
    for puzzle in one_turn:
        tree = PuzzleTree(DUEL, puzzle)
        for member in duel_panel.members:
            solved[member.name] += attempt(tree, member.solver(1))
    assert min(solved.values()) >= 1 and solved["meister-24"] >= 8, solved

    pack["puzzles"] = pack["puzzles"][:3]
    small = tmp_path / "duel.json"
    small.write_text(json.dumps(pack))
    result = run("pack", "rate", small, "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [m["name"] for m in out["panel"]] == names
    assert all(r["attempts"] == 5 for r in out["ratings"])


def test_fit_start_finds_the_typical_rating_of_the_exercises():
    """Attempts drawn from a known model (every exercise truly rated 1000, members
    from 900 to 2200): the fitted start lies near 1000 and predicts the held-out
    members better than starting at 1500."""
    import random

    from fechtbuch.puzzles.glicko2 import win_probability
    from fechtbuch.puzzles.rating_panel import Rating, fit_start, held_out_log_loss

    rng = random.Random(5)
    members = [(f"m{r}", float(r)) for r in (900, 1100, 1300, 1500, 1800, 2200)]
    attempts = []
    for _ in range(300):
        exercise = Glicko(rng.gauss(1000.0, 100.0), 30.0)
        attempts.append(
            [
                Attempt(name, r, 30.0, rng.random() < 1 - win_probability(exercise, Glicko(r, 30)))
                for name, r in members
            ]
        )
    start, scan = fit_start(attempts)
    assert 850 <= start.rating <= 1150 and start.rd == UNRATED.rd
    assert dict(scan)[start.rating] == min(loss for _, loss in scan)
    assert held_out_log_loss(attempts, start) < held_out_log_loss(attempts, Rating(1500, 350, 0, 0))


def test_rating_start_fits_on_database_exercises_outside_the_packs(tmp_path):
    """``bench rating-start``: the panel attempts database exercises (none of the
    shipped packs) and names the start with the least held-out log-loss; an empty
    database is a one-line error."""
    from fechtbuch.puzzles.rating_ladder import shipped_ids

    db = tmp_path / "p.sqlite"
    mined = run("db", "mine", "--game", "battleklinge", "--rounds", "6", "--db", db, "-j", "1")
    assert mined.exit_code == 0, mined.output
    result = run("battleklinge", "bench", "rating-start", "--db", db, "--limit", "6", "--json")
    assert result.exit_code == 0, result.output
    fitted = json.loads(result.stdout)
    assert fitted["exercises"] == 6 and fitted["attempts"] == 6 * len(
        stored_ladder(SPEC)["members"]
    )
    losses = dict((r, loss) for r, loss in fitted["scan"])
    assert losses[fitted["start"]] == min(losses.values())
    assert shipped_ids("battleklinge") >= {
        p["id"]
        for p in json.loads(data_path("packs", "fechtuebungen.json").read_bytes())["puzzles"]
    }
    empty = tmp_path / "empty.sqlite"
    run("db", "mine", "--game", "touche-duell", "--rounds", "1", "--db", empty, "-j", "1")
    refused = run("battleklinge", "bench", "rating-start", "--db", empty)
    assert refused.exit_code == 2 and "--db: no battleklinge exercises" in refused.stderr


def test_the_shipped_start_is_the_one_pack_rate_uses():
    """The fitted start shipped in data/rating moves every Battleklinge fit."""
    start = json.loads(data_path("rating", "battleklinge-start.json").read_bytes())
    assert KIND.rating_panel(KIND).start_rating.rating == start["start"] != 1500
    ratings = fit_ratings(SHIPPED[:2], _small_panel(), seed=1)
    assert all(r.rd < 350 for r in ratings)
