"""Touché duel exercises: examining views, verification, the mirror, CP-SAT selection,
and ``fechtbuch touche mine`` (byte-identical for any -j, resumable)."""

from __future__ import annotations

import copy
import hashlib

import orjson
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import format_view, parse_view
from fechtbuch.engines.touche_duell.public import root_problem
from fechtbuch.engines.touche_duell.state import Level, Ruleset, view_of
from fechtbuch.puzzles.mine_state import state_bytes
from fechtbuch.puzzles.minekit import MinePool
from fechtbuch.puzzles.touche_duell.minekind import BATCH_ROUNDS, KIND
from fechtbuch.puzzles.touche_duell.mining import (
    duplicate_class,
    examine,
    mirrored,
    non_trivial,
    verify_puzzle,
)
from fechtbuch.puzzles.touche_duell.selection import Candidate, PoolTooSmall, select
from fechtbuch.solver.andor_prover import ProofSearch

FOUND = [
    "standard 8-14 0:0 A zug 23333/?5 53132 ?1",
    "fortgeschritten 5-7 0:0 A ausweichen:2x2 13335/?5 24143 ?1",
    "fortgeschritten 8-11 0:0 A ausweichen-v:3x2 24555/?4 43531 ?0",
]


@pytest.fixture(scope="module")
def exercises() -> list[dict]:
    found = [examine(parse_view(text)) for text in FOUND]
    assert all(e.reason == "exercise" for e in found), [e.reason for e in found]
    return [e.puzzle for e in found]


def test_examined_exercises_verify_and_have_tags(exercises):
    for puzzle in exercises:
        assert puzzle["n"] == 1 and puzzle["tags"] and 1 <= puzzle["difficulty"] <= 10
        assert puzzle["line"][0] == puzzle["key"] and puzzle["key"] in puzzle["solution"]
        assert verify_puzzle(puzzle) == []


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda p: p.update(key="m-1"), "key"),
        (lambda p: p.update(n=2), "n"),
        (lambda p: p.update(tags=["drei-gleiche"]), "tags"),
        (lambda p: p.update(difficulty=9.9), "difficulty"),
        (lambda p: p.update(id="t-000000000000"), "id"),
        (lambda p: p.update(line=[*p["line"], "p"]), "line"),
        (lambda p: p["solution"].clear(), "solution"),
        (lambda p: p.update(position="standard 8-14 0:0 A zug 2333/?5 53132 ?1"), "position"),
    ],
)
def test_every_broken_field_is_named(exercises, change, field):
    broken = copy.deepcopy(exercises[0])
    change(broken)
    problems = verify_puzzle(broken)
    assert problems and problems[0].startswith(f"{field}:"), problems


def test_a_tree_above_the_shipping_limit_is_no_exercise(exercises, monkeypatch):
    from fechtbuch.puzzles.packtree import count_nodes
    from fechtbuch.puzzles.touche_duell import mining as module

    inner = count_nodes(exercises[0]["solution"])[0]
    monkeypatch.setattr(module, "MAX_TREE_NODES", inner - 1)
    assert examine(parse_view(FOUND[0])).reason == "large"
    assert verify_puzzle(exercises[0]) == [f"solution: {inner} inner nodes, more than {inner - 1}"]


def test_a_view_without_sure_win_is_no_exercise():
    assert examine(parse_view("standard 1-23 0:0 B zug ?5/23444 00000 ?15")).reason == "none"


def test_a_view_with_one_action_is_trivial():
    # attacked from standing: only the parry (no retreat from a standing attack)
    view = parse_view("standard 10-13 0:0 B parade:3x1 ?5/12334 10101 ?12")
    assert non_trivial(view, 2, "p") is False


def _pick(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "little")


def late_views(count: int) -> list:
    views = []
    game = 0
    while len(views) < count:
        level = Level.STANDARD if game % 2 else Level.FORTGESCHRITTEN
        p = new_round(f"mirror/{game}", game % 2, Ruleset(level))
        ply = 0
        while not p.phase.over:
            if len(p.pile) <= 3 and _pick("take", game, ply) % 3 == 0:
                views.append(view_of(p, p.mover))
            actions = rules.legal_actions(p)
            p = rules.apply_legal(p, actions[_pick("mirror", game, ply) % len(actions)])
            ply += 1
        game += 1
    return views[:count]


def test_the_mirror_is_the_same_exercise():
    """The mirror image of a view has the same duplicate class, parses back, and the
    same sure-win answers at N = 1 and 2 (60 late views from seeded random play)."""
    agree = 0
    for view in late_views(60):
        image = mirrored(view)
        assert parse_view(format_view(image)) == image
        assert mirrored(image) == view
        assert duplicate_class(image) == duplicate_class(view)
        for n in (1, 2):
            here = ProofSearch(root_problem(view)).wins(view, n)
            there = ProofSearch(root_problem(image)).wins(image, n)
            assert here == there, (format_view(view), n)
            agree += here
    assert agree >= 5  # the set holds sure wins, not only refutations


def _candidate(i: int, n: int, game: int, tags: list[str], level: str = "standard") -> Candidate:
    puzzle = {
        "id": f"t-{i:012x}",
        "n": n,
        "position": f"{level} 8-14 0:0 A zug 23333/?5 53132 ?1",
        "tags": tags,
        "difficulty": 1.0 + i % 9,
    }
    return Candidate(game, puzzle)


def test_selection_takes_the_count_per_n_one_per_round_and_spreads_tags():
    pool = [_candidate(i, 1 + i % 2, i // 4, ["treffer"]) for i in range(40)]
    pool += [_candidate(100 + i, 1, 50 + i, ["blockiert"], "fortgeschritten") for i in range(3)]
    chosen = select(pool, {1: 6, 2: 4})
    assert sorted(c.puzzle["n"] for c in chosen) == [1] * 6 + [2] * 4
    for n in (1, 2):
        rounds = [c.round for c in chosen if c.puzzle["n"] == n]
        assert len(rounds) == len(set(rounds))
    # the rarer motif and level are taken although their difficulty is lower
    assert any("blockiert" in c.puzzle["tags"] for c in chosen)
    assert select(pool, {1: 6, 2: 4}) == chosen  # deterministic
    with pytest.raises(PoolTooSmall):
        select(pool, {3: 1})


MINE = ["touche", "mine", "--n", "1", "--count", "1", "--seed", "3", "--max-nodes", "1500"]


def test_mine_is_byte_identical_for_any_jobs_and_resumes(tmp_path):
    """The same options give the same pack with -j 1 and -j 2; a run interrupted
    after its first batch (its state file as the batch loop writes it) and
    continued with --resume gives the same bytes again."""
    runner = CliRunner()
    one, two, split = tmp_path / "one.json", tmp_path / "two.json", tmp_path / "split.json"
    first = runner.invoke(cli.main, [*MINE, "-j", "1", "-o", str(one), "--json"])
    assert first.exit_code == 0, first.output
    summary = orjson.loads(first.output)
    assert summary["puzzles"] == 1 and summary["rounds"] % BATCH_ROUNDS == 0
    assert summary["short"] == {}
    assert summary["command"] == "fechtbuch touche mine --n 1 --count 1 --seed 3 " + (
        "--max-nodes 1500 -o one.json"
    )
    second = runner.invoke(cli.main, [*MINE, "-j", "2", "-o", str(two), "--json"])
    assert second.exit_code == 0, second.output
    assert one.read_bytes().replace(b"one.json", b"two.json") == two.read_bytes()
    pack = orjson.loads(one.read_bytes())
    assert pack["version"] == 2 and pack["rules"] == "touche-duell" and pack["solution"] == "full"
    puzzle = pack["puzzles"][0]
    assert verify_puzzle({k: v for k, v in puzzle.items() if k != "round"}, 3) == []

    pool = MinePool()
    for game in range(BATCH_ROUNDS):
        pool.add(KIND.examine_round((3, game, 1500)), KIND.duplicate_class)
    params = {"ns": [1], "count": 1, "seed": 3, "max_nodes": 1500}
    (tmp_path / "split.json.partial").write_bytes(state_bytes(KIND, params, BATCH_ROUNDS, pool))
    again = runner.invoke(cli.main, [*MINE, "-o", str(split)])
    assert again.exit_code == 2 and "--resume" in again.output
    other = runner.invoke(cli.main, [*MINE, "--count", "2", "--resume", "-o", str(split)])
    assert other.exit_code == 2 and "other options" in other.output
    resumed = runner.invoke(cli.main, [*MINE, "--resume", "-o", str(split)])
    assert resumed.exit_code == 0, resumed.output
    assert not (tmp_path / "split.json.partial").exists()
    assert split.read_bytes() == one.read_bytes().replace(b"one.json", b"split.json")


def test_a_thin_pool_stopped_by_rounds_gives_fewer_and_says_so(tmp_path):
    out = tmp_path / "thin.json"
    result = CliRunner().invoke(
        cli.main, [*MINE[:4], "--count", "5", *MINE[6:], "--rounds", "8", "-o", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = orjson.loads(result.output)
    found = summary["by_n"]["1"]
    assert 1 <= found < 5 and summary["short"] == {"1": 5 - found}
    assert summary["command"].endswith("--rounds 8 -o thin.json")


def test_mine_refuses_an_existing_output_and_a_foreign_resume_state(tmp_path):
    runner = CliRunner()
    out = tmp_path / "p.json"
    out.write_text("{}")
    refused = runner.invoke(cli.main, [*MINE, "-o", str(out)])
    assert refused.exit_code == 2 and "exists" in refused.output
    (tmp_path / "q.json.partial").write_text('{"format": "other"}')
    damaged = runner.invoke(cli.main, [*MINE, "--resume", "-o", str(tmp_path / "q.json")])
    assert damaged.exit_code == 2 and "damaged" in damaged.output
