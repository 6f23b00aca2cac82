"""Known positions, one per rule of the sheet that decides them (fast and reference)."""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_pyramiden import GAME, notation, reference, rules
from fechtbuch.engines.touche_pyramiden.board import card_text, field_name, parse_field
from fechtbuch.engines.touche_pyramiden.patterns import Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.state import (
    Config,
    IllegalActionError,
    Phase,
)

TWO = Config(2, 2)
FOUR_TEAMS = Config(4, 2)
HAND_B = ["AS", "AS", "JD", "QD", "KD"]


def legal(state) -> list[str]:
    fast = rules.legal_actions(state)
    assert fast == reference.legal_actions(state)
    return [notation.format_action(a) for a in fast]


def play(state, text: str):
    action = notation.parse_action(text)
    after = rules.apply(state, action)
    assert after == reference.apply(state, action)
    return after


def fields(mask: int) -> list[str]:
    return [field_name(f) for f in mask_fields(mask)]


def test_place_on_either_field_of_the_card_only_if_empty():
    state = rules.compose(
        TWO, Pattern.LINIE, [["7H", "2S", "3S", "4S", "5S"], HAND_B], {1: ["h3"]}, crowned=["c8"]
    )
    moves = legal(state)
    assert "7H:g6" in moves and "7H:h3" not in moves  # h3 holds an opponent's pyramid
    assert "2S:l1" in moves and "2S:c8" not in moves  # c8 is crowned


def test_jack_queen_king_are_ordinary_cards():
    state = rules.compose(TWO, Pattern.LINIE, [["JS", "QS", "KS", "2S", "3S"], HAND_B])
    moves = legal(state)
    assert [m for m in moves if m.startswith("JS")] == ["JS:j2", "JS:e7"]
    assert not any(m.startswith("XX") for m in moves)


def test_joker_places_on_any_empty_card_field_but_not_a_free_field():
    state = rules.compose(TWO, Pattern.LINIE, [["XX", "2S", "3S", "4S", "5S"], HAND_B], {0: ["b2"]})
    moves = legal(state)
    assert "XX:c2" in moves and "XX:b2" not in moves
    assert not any(m in moves for m in ["XX:a1", "XX:g4", "XX:h5"])
    assert len([m for m in moves if m.startswith("XX:") and m[3] not in "-="]) == 104 - 1


def test_joker_removes_an_opponent_pyramid_with_or_without_placing():
    state = rules.compose(
        TWO,
        Pattern.LINIE,
        [["XX", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["b2"], 1: ["c2"]},
        crowned=["d2"],
    )
    moves = legal(state)
    assert "XX:-c2" in moves and "XX:=c2" in moves
    assert "XX:-b2" not in moves and "XX:-d2" not in moves  # own pyramid, crowned field
    removed = play(state, "XX:-c2")
    assert removed.own == (1 << parse_field("b2"), 0)
    replaced = play(state, "XX:=c2")
    assert fields(replaced.own[0]) == ["b2", "c2"] and replaced.own[1] == 0


def test_joker_replace_can_complete():
    state = rules.compose(
        TWO,
        Pattern.KVADRAT,
        [["XX", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["b2", "c2", "b3"], 1: ["c3"]},
    )
    after = play(state, "XX:=c3")
    assert after.scores == (1, 0) and fields(after.crowned) == ["b2", "c2", "b3", "c3"]


def test_free_field_only_as_last_field_and_with_any_card():
    near = {0: ["a2", "a3", "a4", "a5"]}  # a line a1-a5 needs a1, a free field
    state = rules.compose(TWO, Pattern.LINIE, [["7H", "2S", "XX", "4S", "5S"], HAND_B], near)
    moves = legal(state)
    assert {"7H:a1", "2S:a1", "XX:a1", "4S:a1", "5S:a1"} <= set(moves)
    assert "7H:a8" not in moves  # a8 would not complete anything
    after = play(state, "4S:a1")
    assert after.scores == (1, 0) and fields(after.crowned) == ["a1", "a2", "a3", "a4", "a5"]
    short = rules.compose(
        TWO, Pattern.LINIE, [["7H", "2S", "XX", "4S", "5S"], HAND_B], {0: ["a2", "a3", "a4"]}
    )
    assert not any(m.endswith(":a1") for m in legal(short))


def test_a_pattern_holds_at_most_one_free_field():
    # square g4 h4 g5 h5 is all free fields; f4 f5 + g4 g5 would hold two free fields
    state = rules.compose(
        TWO, Pattern.KVADRAT, [["7H", "2S", "XX", "4S", "5S"], HAND_B], {0: ["f4", "f5"]}
    )
    assert not any(m.endswith(("g4", "g5", "h4", "h5")) for m in legal(state))
    with pytest.raises(IllegalActionError):
        rules.apply(state, notation.parse_action("7H:g4"))


def test_dead_card_exchange_is_the_whole_turn():
    # 7H has fields h3 and g6: both taken (one crowned), so 7H is dead; 2S is not
    state = rules.compose(
        TWO, Pattern.LINIE, [["7H", "7H", "2S", "3S", "4S"], HAND_B], {1: ["h3"]}, crowned=["g6"]
    )
    moves = legal(state)
    assert [m for m in moves if m.startswith("tausch")] == ["tausch:7H", "tausch:7H,7H"]
    pile = state.piles[0]
    after = play(state, "tausch:7H,7H")
    assert after.to_move == 1 and after.own == state.own
    assert sorted(after.hands[0]) == sorted(
        [k for k in state.hands[0] if card_text(k) != "7H"] + list(pile[:2])
    )
    assert [card_text(k) for k in after.discard[-2:]] == ["7H", "7H"]


def test_free_field_with_a_dead_card():
    state = rules.compose(
        TWO,
        Pattern.LINIE,
        [["7H", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["a2", "a3", "a4", "a5"], 1: ["h3"]},
        crowned=["g6"],
    )
    assert "7H:a1" in legal(state) and "tausch:7H" in legal(state)


def test_pass_only_when_nothing_else_is_possible():
    crowned = [field_name(f) for f in range(112) if f not in (0, 13, 98, 111, 48, 49, 62, 63)]
    state = rules.compose(TWO, Pattern.LINIE, [["XX"], ["7H"]], crowned=crowned, pile_sizes=[0, 0])
    assert legal(state) == ["pass"]  # a joker with no empty card field and no opponent
    after = play(state, "pass")
    assert after.to_move == 1 and after.passes == 1
    assert legal(after) == ["tausch:7H"]


def test_a_full_circle_of_passes_ends_the_round_without_a_point():
    crowned = [field_name(f) for f in range(112) if f not in (0, 13, 98, 111, 48, 49, 62, 63)]
    state = rules.compose(TWO, Pattern.LINIE, [["XX"], ["XX"]], crowned=crowned, pile_sizes=[0, 0])
    after = play(play(state, "pass"), "pass")
    assert after.round == 2 and after.scores == (0, 0) and after.starter == 1


def test_completion_scores_crowns_clears_and_the_winner_starts_and_chooses():
    state = rules.compose(
        TWO,
        Pattern.LINIE,
        [["7H", "2S", "XX", "4S", "5S"], HAND_B],
        {0: ["a2", "b2", "c2", "d2"], 1: ["h3", "k5"]},
        crowned=["n8"],
        to_move=0,
        starter=1,
    )
    after = play(state, "XX:e2")
    assert after.scores == (1, 0) and after.round == 2
    assert fields(after.crowned) == ["a2", "b2", "c2", "d2", "e2", "n8"]
    assert after.own == (0, 0) and after.phase is Phase.CHOOSE and after.to_move == 0
    assert after.starter == 0 and len(after.hands[0]) == 5 and after.discard == ()
    chosen = play(after, "muster:kors")
    assert chosen.pattern is Pattern.KORS and chosen.to_move == 0


def test_crowned_fields_stay_over_rounds_and_cannot_join_a_pattern():
    state = rules.compose(
        TWO,
        Pattern.LINIE,
        [["5C", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["a2", "b2", "c2"]},
        crowned=["d2"],
        round_no=2,
    )
    assert "5C:e2" in legal(state)
    after = play(state, "5C:e2")
    assert after.scores == (0, 0) and after.crowned == state.crowned


def test_two_patterns_at_once_score_one_point_and_the_canonical_one_is_crowned():
    own = {0: ["a2", "b2", "c2", "d2", "e3", "e4", "e5", "e6"]}
    state = rules.compose(TWO, Pattern.LINIE, [["5C", "2S", "3S", "4S", "5S"], HAND_B], own)
    action = notation.parse_action("5C:e2")
    assert [fields(m) for m in rules.crown_choices(state, action)] == [
        ["a2", "b2", "c2", "d2", "e2"],
        ["e2", "e3", "e4", "e5", "e6"],
    ]
    after = play(state, "5C:e2")
    assert after.scores == (1, 0) and fields(after.crowned) == ["a2", "b2", "c2", "d2", "e2"]
    other = play(state, "5C:e2@e2e3e4e5e6")
    assert other.scores == (1, 0) and fields(other.crowned) == ["e2", "e3", "e4", "e5", "e6"]
    with pytest.raises(IllegalActionError):
        rules.apply(state, notation.parse_action("5C:e2@a2b2c2d2e2e3"))


@pytest.mark.parametrize(
    ("own", "last"),
    [
        (["b2", "c2", "d2", "e2"], "6C:f2"),  # linie
        (["b2", "c2", "b3"], "9D:c3"),  # kvadrat
        (["b4", "c4", "d4", "c3"], "3C:c2"),  # t-form
        (["b3", "d3", "c2", "c4"], "9D:c3"),  # kors +
        (["b2", "d4", "b4", "d2"], "9D:c3"),  # kryds x
    ],
)
def test_kombination_takes_any_of_the_four_shapes(own, last):
    card = last.split(":")[0]
    state = rules.compose(
        TWO, Pattern.KOMBINATION, [[card, "2S", "3S", "4S", "5S"], HAND_B], {0: own}
    )
    assert play(state, last).scores == (1, 0)


def test_team_members_share_a_colour_and_score_together():
    # seat 2 is team 0 with seat 0; seat 1 and 3 are team 1
    hands = [
        ["2S", "3S", "4S", "5S", "6S"],
        HAND_B,
        ["5C", "8S", "9S", "TS", "JS"],
        ["2H"] * 2 + ["3H", "4H", "5H"],
    ]
    state = rules.compose(
        FOUR_TEAMS, Pattern.LINIE, hands, {0: ["a2", "b2", "c2", "d2"]}, to_move=2
    )
    after = play(state, "5C:e2")
    assert after.scores == (1, 0) and after.starter == 2
    assert after.crowned.bit_count() == 5 and after.to_move == 2


def test_round_without_point_when_cards_run_out():
    state = rules.compose(TWO, Pattern.LINIE, [["7H"], []], pile_sizes=[0, 0], starter=1)
    after = play(state, "7H:g6")
    assert after.round == 2 and after.scores == (0, 0) and after.starter == 0


def test_empty_pile_plays_on_with_fewer_cards():
    state = rules.compose(TWO, Pattern.LINIE, [["7H", "2S"], HAND_B], pile_sizes=[0, 40])
    after = play(state, "7H:g6")
    assert after.hands[0] == (1,) and after.to_move == 1


def test_game_ends_after_the_agreed_rounds_and_ties_share():
    config = Config(2, 2, rounds=3)
    state = rules.compose(
        config,
        Pattern.KVADRAT,
        [["9D", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["b2", "c2", "b3"]},
        round_no=3,
        scores=(0, 1),
    )
    over = play(state, "9D:c3")
    assert over.phase is Phase.OVER and GAME.is_terminal(over) and over.scores == (1, 1)
    assert GAME.returns(over) == (0.5, 0.5) and GAME.legal_actions(over) == []
    assert notation.parse_state(notation.format_state(over)) == over
    four = rules.compose(
        Config(2, 2, rounds=4),
        Pattern.KVADRAT,
        [["9D", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["b2", "c2", "b3"]},
        round_no=3,
    )
    assert play(four, "9D:c3").round == 4


@pytest.mark.parametrize(
    ("players", "teams"), [(2, 2), (3, 3), (4, 4), (4, 2), (5, 5), (6, 6), (6, 3), (6, 2)]
)
def test_deal_every_pile_the_same_and_five_in_hand(players, teams):
    state = rules.new_game(Config(players, teams), "deal")
    size = 108 // players
    assert all(len(h) == 5 for h in state.hands)
    assert all(len(p) == size - 5 for p in state.piles)
    assert len(state.aside) == 108 % players == (3 if players == 5 else 0)
    assert state.phase is Phase.CHOOSE
    dealer, _ = rules.dealer_labels("deal", players)
    assert state.to_move == dealer and state.starter == (dealer + 1) % players
    again = rules.new_game(Config(players, teams), "deal")
    assert again == state  # the seed fixes everything


def test_team_splits_outside_the_sheet_are_refused():
    from fechtbuch.engines.errors import InputError

    for players, teams in [(4, 3), (5, 2), (3, 1), (6, 4), (2, 1)]:
        with pytest.raises(InputError, match="teams"):
            Config(players, teams)


def test_dealer_draw_ace_high():
    from fechtbuch.engines.touche_pyramiden.board import full_deck
    from fechtbuch.engines.touche_pyramiden.shuffle import shuffled

    for seed in ["a", "b", "c", "d"]:
        dealer, labels = rules.dealer_labels(seed, 4)
        deck = shuffled(full_deck(), labels[0])
        ranks = [rules.dealer_rank(k) for k in deck[:4]]
        if len(labels) == 1:
            assert ranks[dealer] == max(ranks) and ranks.count(max(ranks)) == 1
    assert rules.dealer_rank(0) == 13 and rules.dealer_rank(12) == 12  # AS above KS


def test_opponent_pyramid_blocks_a_pattern():
    state = rules.compose(
        TWO,
        Pattern.LINIE,
        [["5C", "2S", "3S", "4S", "5S"], HAND_B],
        {0: ["a2", "b2", "c2"], 1: ["d2"]},
    )
    assert play(state, "5C:e2").scores == (0, 0)


def test_only_the_mover_acts_and_the_turn_goes_clockwise():
    state = rules.compose(
        Config(3, 3),
        Pattern.LINIE,
        [["7H", "2S", "3S", "4S", "5S"], HAND_B, ["2H", "3H", "4H", "5H", "6H"]],
        to_move=2,
    )
    assert play(state, "2H:b6").to_move == 0
    with pytest.raises(IllegalActionError):
        rules.apply(state, notation.parse_action("7H:g6"))  # seat 0's card
    assert card_text(state.hands[2][0]) == "2H"


def test_six_players_in_three_teams_sit_alternately():
    config = Config(6, 3)
    assert [config.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    hands = [
        ["2S", "3S", "4S", "5S", "6S"],
        ["2H", "3H", "4H", "5H", "6H"],
        ["2D", "3D", "4D", "5D", "6D"],
        ["5C", "8S", "9S", "TS", "JS"],
        ["8H", "9H", "TH", "JH", "QH"],
        ["8D", "9D", "TD", "JD", "QD"],
    ]
    state = rules.compose(config, Pattern.LINIE, hands, {0: ["a2", "b2", "c2", "d2"]}, to_move=3)
    after = play(state, "5C:e2")  # seat 3 completes on seat 0's pyramids: one colour
    assert after.scores == (1, 0, 0) and after.starter == 3 and after.to_move == 3


# ---- a team chooses which member starts (ruleset sheet: "the team chooses") ---------------
def _order_after_leads(players: int, teams: int, pick, seed: str = "lead"):
    """Play the member choices ``pick(starter)`` gives, then 2 x players turns; rules and
    reference must agree on every step.  Returns the starter and the seats in turn."""
    from fechtbuch.engines.touche_pyramiden.state import Action, Config, Kind, Phase

    config = Config(players, teams, 3, Pattern.LINIE)
    state = rules.new_game(config, seed)
    assert state.phase is Phase.LEAD and state.to_move == state.starter
    starter = state.starter
    for seat in pick(starter):
        legal = rules.legal_actions(state)
        assert legal == reference.legal_actions(state)
        team = config.team_of(state.to_move)
        assert legal == [Action(Kind.LEAD, field=s) for s in config.members(team)]
        action = Action(Kind.LEAD, field=seat)
        state, again = rules.apply(state, action), reference.apply(state, action)
        assert state == again
    assert state.phase is Phase.PLAY
    order = []
    for _ in range(2 * players):
        order.append(state.to_move)
        action = rules.legal_actions(state)[0]
        state, again = rules.apply_unchecked(state, action), reference.apply(state, action)
        assert state == again
    return starter, order


def test_team_chooses_its_first_member_four_players():
    """Two teams of two: both teams name the member who is not first clockwise; teams
    alternate, members alternate within each team."""
    s, order = _order_after_leads(4, 2, lambda s: [(s + 2) % 4, (s + 3) % 4])
    assert order == [(s + j) % 4 for j in (2, 3, 0, 1)] * 2


def test_team_chooses_its_first_member_six_players():
    s, plain = _order_after_leads(6, 2, lambda s: [s, (s + 1) % 6])
    assert plain == [(s + j) % 6 for j in range(6)] * 2  # the default is plain clockwise
    s, order = _order_after_leads(6, 2, lambda s: [(s + 4) % 6, (s + 3) % 6])
    assert order == [(s + j) % 6 for j in (4, 3, 0, 5, 2, 1)] * 2
    s, order = _order_after_leads(6, 3, lambda s: [(s + 3) % 6, (s + 1) % 6, (s + 5) % 6])
    assert order == [(s + j) % 6 for j in (3, 1, 5, 0, 4, 2)] * 2


def test_member_choice_in_notation_and_only_with_teams():
    from fechtbuch.engines.touche_pyramiden.state import Action, Config, Kind

    state = rules.new_game(Config(6, 3, 3, Pattern.KORS), "lead6")
    text = notation.format_state(state)
    assert " beginn=wahl:" in text and notation.parse_state(text) == state
    view = notation.view_of(state, 1)
    assert notation.parse_view(notation.format_view(view)) == view
    with pytest.raises(notation.NotationError, match="^beginn:"):
        notation.parse_state(text.rsplit(" ", 1)[0])
    two = notation.format_state(rules.new_game(Config(2, 2, 3, Pattern.KORS), "lead2"))
    assert "beginn=" not in two
    with pytest.raises(notation.NotationError, match="^beginn:"):
        notation.parse_state(two + " beginn=0,1")
    bad = text.replace("beginn=wahl:", "beginn=wahl:9,")
    with pytest.raises(notation.NotationError, match="^beginn:"):
        notation.parse_state(bad)
    assert notation.parse_action("beginnt:4") == Action(Kind.LEAD, field=4)
    assert notation.format_action(Action(Kind.LEAD, field=4)) == "beginnt:4"
