"""Battleklinge's witness games: legal starts, and packs whose exercises a game reaches."""

from __future__ import annotations

import copy
import dataclasses

import orjson
import pytest
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import CARDS, card_from_id
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Move, Position
from fechtbuch.engines.battleklinge.reach import ReachBudget, find_witness
from fechtbuch.engines.battleklinge.tablebase.studies import mine_studies
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import MINED_BY, verify_witness
from fechtbuch.puzzles.battleklinge.sources import play_game_record
from fechtbuch.puzzles.battleklinge.studies import study_witness
from fechtbuch.puzzles.battleklinge.studycheck import study_tables
from fechtbuch.puzzles.pack import verify_pack
from fechtbuch.puzzles.witness import replay_witness
from support.clirun import run

EINSTEIGER = Position.from_text(START_EINSTEIGER)


# ---- start_problem --------------------------------------------------------------------


def test_the_einsteiger_start_and_every_deal_of_the_rules_are_legal_starts():
    assert GAME.start_problem(EINSTEIGER) is None
    assert GAME.reference().start_problem(EINSTEIGER) is None
    for seed in range(40):
        assert GAME.start_problem(GAME.initial_state(seed)) is None


def test_a_moved_student_is_not_a_start():
    moved = GAME.apply(EINSTEIGER, GAME.parse_action(EINSTEIGER, "ausfall:a1a3"))
    back_to_gold = dataclasses.replace(moved, turn=EINSTEIGER.turn)
    problem = GAME.start_problem(back_to_gold)
    assert problem is not None and "students" in problem and "Gold" in problem


def test_a_moved_master_and_a_missing_student_are_not_starts():
    moved_master = Position.from_text("ssmss/5/5/2M2/SS1SS g ausfall,volte stoss,bindung riposte")
    assert "master" in GAME.start_problem(moved_master)
    missing = Position.from_text("ssm1s/5/5/5/SSMSS g ausfall,volte stoss,bindung riposte")
    assert "Blau's students" in GAME.start_problem(missing)


def test_three_cards_in_a_hand_is_not_a_start():
    # the notation cannot say it; the rules' deal gives each hand two cards
    three = dataclasses.replace(EINSTEIGER, hands=((0, 5, 4), (6,)), side=EINSTEIGER.side)
    problem = GAME.start_problem(three)
    assert problem is not None and "two cards" in problem


def test_the_wrong_side_to_move_is_not_a_start():
    # riposte, the side card, carries Gold's mark: Gold begins
    assert CARDS[EINSTEIGER.side].mark == EINSTEIGER.turn == 0
    blau_first = dataclasses.replace(EINSTEIGER, turn=1)
    problem = GAME.start_problem(blau_first)
    assert problem is not None and "Riposte" in problem and "Gold's mark" in problem
    # and with a Blau-marked side card Blau begins
    volte_side = Position.from_text("ssmss/5/5/5/SSMSS b ausfall,riposte stoss,bindung volte")
    assert GAME.start_problem(volte_side) is None
    assert GAME.start_problem(dataclasses.replace(volte_side, turn=0)) is not None


def test_a_duplicate_card_is_not_a_start():
    stoss = card_from_id("stoss")
    twice = dataclasses.replace(EINSTEIGER, side=stoss)
    problem = GAME.start_problem(twice)
    assert problem is not None and "'stoss' twice" in problem


def test_a_position_after_a_move_is_not_a_start():
    after = GAME.apply(EINSTEIGER, GAME.parse_action(EINSTEIGER, "ausfall:c1c3"))
    assert GAME.start_problem(after) is not None


def test_a_witness_from_a_dealt_start_replays_to_where_the_game_went():
    start = GAME.initial_state(3)
    moves = []
    state = start
    for _ in range(4):
        action = GAME.legal_actions(state)[0]
        moves.append(GAME.format_action(state, action))
        state = GAME.apply(state, action)
    witness = {"start": GAME.format_state(start), "moves": moves}
    reached, problems = replay_witness(GAME, witness)
    assert problems == [] and reached == state


# ---- the shipped packs ----------------------------------------------------------------

FECHTUEBUNGEN = orjson.loads(data_path("packs", "fechtuebungen.json").read_bytes())
MEISTERSTUDIEN = orjson.loads(data_path("packs", "meisterstudien.json").read_bytes())
PACKS = {"fechtuebungen": FECHTUEBUNGEN, "meisterstudien": MEISTERSTUDIEN}


@pytest.fixture(autouse=True)
def no_default_tables(tmp_path, monkeypatch):
    """Study verification never reads tables a user built (it builds K = 1 itself)."""
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "no-tables"))


@pytest.mark.parametrize("name", sorted(PACKS))
def test_every_shipped_exercise_has_a_witness_that_reaches_it(name):
    pack = PACKS[name]
    for puzzle in pack["puzzles"]:
        assert verify_witness(puzzle) == [], puzzle["id"]
        start = Position.from_text(puzzle["witness"]["start"])
        assert GAME.start_problem(start) is None
        assert start.cards == Position.from_text(puzzle["position"]).cards


def test_fechtuebungen_witnesses_are_the_mining_rounds():
    """Each exercise's witness is its self-play round from the deal, cut at the position."""
    assert FECHTUEBUNGEN["mined_by"] == MINED_BY
    seed = FECHTUEBUNGEN["seed"]
    for puzzle in FECHTUEBUNGEN["puzzles"][::8]:
        for index in range(400):  # the shipped pack's rounds all lie below 400
            _, positions, moves = play_game_record(seed, index)
            texts = [p.to_text() for p in positions]
            if positions[0].to_text() == puzzle["witness"]["start"] and puzzle["position"] in texts:
                ply = texts.index(puzzle["position"])
                assert [m.to_text() for m in moves[:ply]] == puzzle["witness"]["moves"]
                break
        else:
            raise AssertionError(f"{puzzle['id']}: no round of seed {seed} reaches it")


def _other_legal_move(puzzle: dict, ply: int) -> str:
    """A legal move at witness ply ``ply`` other than the one played."""
    pos = Position.from_text(puzzle["witness"]["start"])
    for text in puzzle["witness"]["moves"][:ply]:
        pos = reference.play(pos, Move.from_text(text))
    played = puzzle["witness"]["moves"][ply]
    return next(m.to_text() for m in reference.legal_moves(pos) if m.to_text() != played)


@pytest.mark.parametrize("name", sorted(PACKS))
def test_pack_verify_catches_an_edited_witness_move_and_an_edited_position(name):
    pack = PACKS[name]
    number = 4 if name == "fechtuebungen" else len(pack["puzzles"])  # a cheap study: n = 5
    puzzle = pack["puzzles"][number - 1]
    one = dict(pack, puzzles=[puzzle])
    assert verify_pack(one) == []
    label = f"puzzle 1 ({puzzle['id']}): witness"

    moved = copy.deepcopy(puzzle)
    ply = len(moved["witness"]["moves"]) // 2
    moved["witness"]["moves"][ply] = _other_legal_move(puzzle, ply)
    problems = verify_pack(dict(pack, puzzles=[moved]))
    assert problems and all(p.startswith(label) for p in problems), problems

    # the side card swapped with a card of the side to move's hand: another position
    pos = Position.from_text(puzzle["position"])
    me = pos.turn
    hands = list(pos.hands)
    hands[me] = tuple(sorted((hands[me][1], pos.side)))
    other = dataclasses.replace(pos, hands=tuple(hands), side=pos.hands[me][0])
    edited = dict(puzzle, position=other.to_text())
    problems = verify_witness(edited)
    assert problems == [f"witness: reaches {pos.to_text()!r}, not the position {other.to_text()!r}"]
    assert any(p.startswith(label) for p in verify_pack(dict(pack, puzzles=[edited])))


def test_an_exercise_without_a_witness_fails_and_pack_verify_names_it(tmp_path):
    bare = copy.deepcopy(FECHTUEBUNGEN)
    del bare["puzzles"][2]["witness"]
    problems = verify_pack(bare)
    assert problems == [
        f"puzzle 3 ({bare['puzzles'][2]['id']}): witness: missing "
        "(every exercise carries a game that reaches it)"
    ]
    broken = copy.deepcopy(FECHTUEBUNGEN)
    broken["puzzles"][0]["witness"]["moves"][0] = "volte:pass"
    path = tmp_path / "broken.json"
    path.write_bytes(orjson.dumps(broken))
    result = run("pack", "verify", path)
    assert result.exit_code == 1
    assert f"puzzle 1 ({broken['puzzles'][0]['id']}): witness: move 1: 'volte:pass'" in (
        result.output
    )


def test_a_witness_that_plays_on_past_the_position_is_caught():
    puzzle = copy.deepcopy(FECHTUEBUNGEN["puzzles"][0])
    puzzle["witness"]["moves"].append(puzzle["key"])
    assert verify_witness(puzzle)[0].startswith("witness: reaches ")


# ---- the witness search for studies -----------------------------------------------------


def test_the_search_finds_the_same_checked_game_every_time():
    study = Position.from_text(MEISTERSTUDIEN["puzzles"][-1]["position"])
    found = find_witness(study, "test")
    assert found is not None and found == find_witness(study, "test")
    start, moves = found
    witness = {"start": start.to_text(), "moves": [m.to_text() for m in moves]}
    assert replay_witness(GAME, witness) == (study, [])
    # more material: two students a side, Blau to move
    two = Position.from_text("1s1m1/3s1/5/S2M1/3S1 b stoss,volte riposte,bindung ausfall")
    start, moves = find_witness(two, "test")
    witness = {"start": start.to_text(), "moves": [m.to_text() for m in moves]}
    assert replay_witness(GAME, witness) == (two, [])


def test_the_search_gives_up_within_its_budget_and_the_miner_passes_over_such_studies():
    study = Position.from_text(MEISTERSTUDIEN["puzzles"][-1]["position"])
    assert find_witness(study, "test", ReachBudget(attempts=1, search_nodes=1)) is None
    decided = Position.from_text("2M2/5/2m2/5/5 b ausfall,volte bindung,stoss riposte")
    assert find_witness(decided, "test") is None

    tables = study_tables(study)
    plain = mine_studies(tables, count=2, distances=range(5, 4, -1), full_tree_limit=0)
    first = plain[0].puzzle["position"]

    def refuse_first(pos):
        return None if pos.to_text() == first else study_witness(pos)

    picky = mine_studies(
        tables, count=2, distances=range(5, 4, -1), full_tree_limit=0, witness=refuse_first
    )
    positions = [s.puzzle["position"] for s in picky]
    assert first not in positions and positions[0] == plain[1].puzzle["position"]
    assert all(verify_witness(s.puzzle) == [] for s in picky)
