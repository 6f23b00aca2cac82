"""Battleklinge's witness games: legal starts, and packs whose exercises a game reaches."""

from __future__ import annotations

import dataclasses

from fechtbuch.engines.battleklinge.cards import CARDS, card_from_id
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Position
from fechtbuch.puzzles.witness import replay_witness

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
