"""The Touché duel rules: the fast code against the plain reference, and one
known position per rule that decides."""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_duell import GAME, reference, rules
from fechtbuch.engines.touche_duell.deal import HashStream, lot, new_round, shuffle
from fechtbuch.engines.touche_duell.notation import format_position, parse_action
from fechtbuch.engines.touche_duell.state import IllegalActionError, Phase, format_action
from support.touche_helpers import build, random_positions


@pytest.fixture(scope="module")
def played():
    stream = HashStream("touche-test-random-play")
    return random_positions(5000, "differential", lambda n, i: stream.below(n))


def test_reference_and_fast_rules_agree_on_random_play(played):
    """>= 10,000 positions per rule level (5,000 each in the long and short game), every
    legal action of each."""
    per_level: dict[str, int] = {}
    ends = set()
    for name, states in played.items():
        for pos in states:
            fast = rules.legal_actions(pos)
            ref = reference.legal_actions(pos)
            assert sorted(fast) == sorted(ref), format_position(pos)
            assert len(set(fast)) == len(fast)
            for action in fast:
                assert rules.apply(pos, action) == reference.apply(pos, action), (
                    format_position(pos),
                    format_action(action),
                )
            if pos.phase.over:
                ends.add((name.split("-")[0], pos.phase))
        per_level[name.split("-")[0]] = per_level.get(name.split("-")[0], 0) + len(states)
    assert all(n >= 10_000 for n in per_level.values()) and len(per_level) == 3
    # random play reaches the hit and the comparison at every level, and (rarely) a
    # player without a legal move; the known-position table covers each rule anyway
    for level in per_level:
        assert {Phase.HIT, Phase.COMPARE} <= {p for lv, p in ends if lv == level}
    assert Phase.BLOCKED in {p for _, p in ends}


def test_every_reached_position_round_trips(played):
    for states in played.values():
        for pos in states[::7]:
            assert GAME.parse_state(GAME.format_state(pos)) == pos


def test_seeded_deal_and_lot_are_fixed():
    assert shuffle("demo") == shuffle("demo") != shuffle("demo2")
    assert sorted(shuffle("x")) == [v for v in range(1, 6) for _ in range(5)]
    assert format_position(new_round("demo", 0)) == (
        "standard 1-23 0:0 A zug 23355/11234 00000 341252544251314"
    )
    assert {lot(str(i)) for i in range(20)} == {0, 1}


def legal(pos) -> set[str]:
    return {format_action(a) for a in rules.legal_actions(pos)}


def after(pos, *actions: str):
    for text in actions:
        action = parse_action(text)
        ref = reference.apply(pos, action)
        pos = rules.apply(pos, action)
        assert pos == ref
    return pos


def head(pos) -> str:
    """squares, score, mover and phase of a position."""
    return " ".join(format_position(pos).split(" ")[1:5])


# ---- one row per rule that decides ------------------------------------------------------


def test_move_not_onto_or_past_the_opponent():
    pos = build("standard", "10-13", "A", "zug", "13345", "12245", "1112223444555")
    assert {"m+1", "a3x1", "a3x2"} <= legal(pos)
    assert "m+3" not in legal(pos) and "m+4" not in legal(pos) and "m+5" not in legal(pos)


def test_move_back_not_off_the_track():
    pos = build("standard", "3-20", "A", "zug", "12345", "12345", "111222333444555")
    assert {"m-1", "m-2"} <= legal(pos) and "m-3" not in legal(pos)
    pos = build("standard", "3-20", "B", "zug", "12345", "12345", "111222333444555")
    assert {"m-3"} <= legal(pos) and "m-4" not in legal(pos)


def test_attack_that_cannot_be_parried_hits():
    pos = build("standard", "10-13", "A", "zug", "13345", "12245", "1112223444555")
    end = after(pos, "a3x2")
    assert head(end) == "10-13 1:0 A treffer:A"


def test_parry_then_riposte_before_refill_the_rulebook_example():
    # Anna (A) on 9, Ben (B) on 12: Anna attacks with a 3, Ben parries and ripostes
    # with another 3; Anna holds no 3 and is hit.
    pos = build("standard", "9-12", "A", "zug", "11223", "33445", "1245124512455")
    pos = after(pos, "a3x1")
    assert head(pos) == "9-12 0:0 B parade:3x1"
    assert legal(pos) == {"p"}
    pos = after(pos, "p")
    assert head(pos) == "9-12 0:0 B riposte" and sum(pos.hands[1]) == 4  # not refilled yet
    assert "a3x1" in legal(pos)
    end = after(pos, "a3x1")
    assert head(end) == "9-12 0:1 B treffer:B"


def test_refill_after_the_riposte():
    pos = build("standard", "9-12", "A", "zug", "11233", "33445", "1245124512455")
    pos = after(pos, "a3x1", "p", "m-4")
    assert head(pos) == "9-16 0:0 A zug" and sum(pos.hands[1]) == 5


def test_no_legal_move_at_the_start_of_a_turn():
    # B steps to 3; A on square 1 holds only cards too big to step forward (distance 2)
    pos = build("standard", "1-4", "B", "zug", "33445", "11225", 10)
    assert "m+1" in legal(pos)
    end = after(pos, "m+1")
    assert head(end) == "1-3 0:1 A blockiert:B"


def test_no_legal_move_right_after_a_parry():
    # B on 23 parries a 2 and keeps 4 5 5 5: nothing fits (distance 2, no room behind)
    pos = build("standard", "21-23", "A", "zug", "12234", "24555", "1111223333444")
    end = after(pos, "a2x1", "p")
    assert head(end) == "21-23 1:0 B blockiert:A"


def test_three_equal_cards_always_hit_and_two_when_only_two_are_unseen():
    pos = build("standard", "10-13", "A", "zug", "12333", "34445", 10)
    assert head(after(pos, "a3x3")) == "10-13 1:0 A treffer:A"
    # two 3s played already: two unseen, B holds one; an attack with two cannot be parried
    pos = build("standard", "10-13", "A", "zug", "13345", "12345", 6)
    assert pos.discard[2] == 2
    assert head(after(pos, "a3x2")) == "10-13 1:0 A treffer:A"


def test_kinder_every_attack_hits():
    pos = build("kinder", "10-13", "A", "zug", "13345", "13345", "1112222244555")
    assert head(after(pos, "a3x1")) == "10-13 1:0 A treffer:A"


def test_lunge_only_in_the_advanced_game_and_leaves_distance_one():
    hands = ("23455", "12345", 10)
    pos = build("fortgeschritten", "10-16", "A", "zug", *hands)
    assert {"l4a2x1", "l3a3x1", "l2a4x1", "l5a1x1"} - legal(pos) == {"l3a3x1", "l5a1x1"}
    assert not any(a.startswith("l") for a in legal(build("standard", "10-16", "A", "zug", *hands)))
    pos = build("fortgeschritten", "10-14", "A", "zug", "23445", "12345", 10)
    assert "l4a" not in " ".join(legal(pos))  # a step of 4 would leave distance 0


def test_retreat_only_against_a_lunge():
    pos = build("fortgeschritten", "10-16", "A", "zug", "23455", "12245", 10)
    lunged = after(pos, "l4a2x1")
    assert head(lunged) == "14-16 0:0 B ausweichen:2x1"
    assert legal(lunged) == {"p", "r1", "r2", "r4", "r5"}
    standing = build("fortgeschritten", "10-12", "A", "zug", "23455", "12245", 10)
    attacked = after(standing, "a2x1")
    assert head(attacked) == "10-12 0:0 B parade:2x1" and legal(attacked) == {"p"}


def test_retreat_is_the_whole_turn_then_the_attacker_moves():
    pos = build("fortgeschritten", "10-16", "A", "zug", "23455", "12245", 10)
    pos = after(pos, "l4a2x1", "r5")
    assert head(pos) == "14-21 0:0 A zug" and sum(pos.hands[1]) == 5


def test_retreat_off_the_track_not_allowed():
    pos = build("fortgeschritten", "14-17", "A", "zug", "12345", "14445", 10)
    lunged = after(pos, "l1a2x1")  # B on 17 holds no 2; room behind: 6
    assert legal(lunged) == {"r1", "r4", "r5"}
    pos = build("fortgeschritten", "16-21", "A", "zug", "23455", "13445", 10)
    lunged = after(pos, "l3a2x1")  # room behind B: 2 squares
    assert legal(lunged) == {"r1"}


def test_neither_parry_nor_retreat_is_a_hit():
    pos = build("fortgeschritten", "17-23", "A", "zug", "23455", "13445", 10)
    assert head(after(pos, "l4a2x1")) == "21-23 1:0 A treffer:A"


def test_last_card_after_an_attack():
    # the attack's refill takes the last card: B parries, then has the last attack
    pos = build("standard", "10-13", "A", "zug", "12334", "13345", "5")
    pos = after(pos, "a3x1")
    assert head(pos) == "10-13 0:0 B parade-l:3x1" and pos.pile == ()
    pos = after(pos, "p")
    assert head(pos) == "10-13 0:0 B letzter"
    assert legal(pos) == {"a3x1", "-"}  # no move any more
    pos = after(pos, "a3x1")
    assert head(pos) == "10-13 0:0 A parade-v:3x1"
    end = after(pos, "p")
    assert head(end).endswith("vergleich:B")  # equal counts of 3s, B advanced further


def test_last_card_after_an_attack_that_cannot_be_parried():
    pos = build("standard", "10-13", "A", "zug", "12334", "12445", "5")
    assert head(after(pos, "a3x1")) == "10-13 1:0 A treffer:A"


def test_last_card_after_a_move():
    pos = build("standard", "8-13", "A", "zug", "12334", "13345", "5")
    pos = after(pos, "m+2")
    assert head(pos) == "10-13 0:0 B letzter"
    end = after(pos, "-")
    # distance 3: A holds 3 3, B holds 3 3 -> equal; B advanced 10, A 9 -> B
    assert head(end) == "10-13 0:1 B vergleich:B"


def test_last_card_after_a_lunge_hands_decide_at_once():
    pos = build("fortgeschritten", "8-14", "A", "zug", "12233", "13345", "5")
    pos = after(pos, "l3a3x1")
    assert head(pos) == "11-14 0:0 B ausweichen-v:3x1"
    assert after(pos, "r1").phase is Phase.COMPARE  # no last attack after a lunge
    end = after(pos, "p")
    assert end.phase is Phase.COMPARE


def test_hand_comparison_more_cards_of_the_distance_wins():
    pos = build("standard", "10-13", "B", "letzter", "12334", "1345", "-")
    assert head(after(pos, "-")) == "10-13 1:0 B vergleich:A"


def test_hand_comparison_tie_goes_to_the_further_advanced_fencer():
    pos = build("standard", "10-13", "B", "letzter", "12234", "1345", "-")
    assert head(after(pos, "-")) == "10-13 0:1 B vergleich:B"
    pos = build("standard", "12-15", "B", "letzter", "12234", "1345", "-")
    assert head(after(pos, "-")) == "12-15 1:0 B vergleich:A"


def test_hand_comparison_nobody_wins():
    pos = build("standard", "11-13", "B", "letzter", "12234", "1225", "-", score="2:1")
    end = after(pos, "-")
    assert head(end) == "11-13 2:1 B vergleich:-" and GAME.returns(end) == (0.5, 0.5)


def test_hand_comparison_beyond_distance_five_counts_advance_only():
    pos = build("standard", "5-17", "A", "letzter", "55555", "1111", "-")
    assert head(after(pos, "-")) == "5-17 0:1 A vergleich:B"


def test_last_attack_in_kinder_hits():
    pos = build("kinder", "10-13", "B", "letzter", "12334", "1345", "-")
    assert head(after(pos, "a3x1")) == "10-13 0:1 B treffer:B"


def test_illegal_actions_are_refused_by_both():
    pos = build("standard", "10-13", "A", "zug", "13345", "12245", "1112223444555")
    for text in ("m+3", "p", "r1", "a4x1", "a3x3", "l1a2x1", "-"):
        with pytest.raises(IllegalActionError):
            rules.apply(pos, parse_action(text))
        with pytest.raises(IllegalActionError):
            reference.apply(pos, parse_action(text))


# One row per rule that decides: (rule, position, actions, squares score mover phase after).
KNOWN = [
    (
        "attack nobody can parry hits",
        "standard 10-13 0:0 A zug 13345/12245 00023 1112223334",
        "a3x2",
        "10-13 1:0 A treffer:A",
    ),
    (
        "parry, then riposte before the refill",
        "standard 9-12 0:0 A zug 11223/33445 00200 1245124512455",
        "a3x1 p",
        "9-12 0:0 B riposte",
    ),
    (
        "riposte hits a player without parry",
        "standard 9-12 0:0 A zug 11223/33445 00200 1245124512455",
        "a3x1 p a3x1",
        "9-12 0:1 B treffer:B",
    ),
    (
        "refill after the riposte",
        "standard 9-12 0:0 A zug 11233/33445 01100 1245124512455",
        "a3x1 p m-4",
        "9-16 0:0 A zug",
    ),
    (
        "no legal move at the start of a turn",
        "standard 1-4 0:0 B zug 33445/11225 00023 1112223334",
        "m+1",
        "1-3 0:1 A blockiert:B",
    ),
    (
        "no legal move right after a parry",
        "standard 21-23 0:0 A zug 12234/24555 00232 11112233",
        "a2x1 p",
        "21-23 1:0 B blockiert:A",
    ),
    (
        "three equal cards always hit",
        "standard 10-13 0:0 A zug 12333/34445 00014 1111222234",
        "a3x3",
        "10-13 1:0 A treffer:A",
    ),
    (
        "two cards hit when only two are unseen",
        "standard 10-13 0:0 A zug 13345/12345 01233 111222",
        "a3x2",
        "10-13 1:0 A treffer:A",
    ),
    (
        "kinder: every attack hits",
        "kinder 10-13 0:0 A zug 13345/13345 00023 1112222234",
        "a3x1",
        "10-13 1:0 A treffer:A",
    ),
    (
        "standing attack at fortgeschritten: parry only",
        "fortgeschritten 10-12 0:0 A zug 23455/12245 00032 1111223333",
        "a2x1",
        "10-12 0:0 B parade:2x1",
    ),
    (
        "lunge: parry or retreat",
        "fortgeschritten 10-16 0:0 A zug 23455/12245 00032 1111223333",
        "l4a2x1",
        "14-16 0:0 B ausweichen:2x1",
    ),
    (
        "retreat is the whole turn; attacker moves next",
        "fortgeschritten 10-16 0:0 A zug 23455/12245 00032 1111223333",
        "l4a2x1 r5",
        "14-21 0:0 A zug",
    ),
    (
        "neither parry nor retreat: hit",
        "fortgeschritten 17-23 0:0 A zug 23455/13445 00122 1111222233",
        "l4a2x1",
        "21-23 1:0 A treffer:A",
    ),
    (
        "last card after an attack: parry, then last attack",
        "standard 10-13 0:0 A zug 12334/13345 34133 5",
        "a3x1 p",
        "10-13 0:0 B letzter",
    ),
    (
        "last attack parried: hands decide",
        "standard 10-13 0:0 A zug 12334/13345 34133 5",
        "a3x1 p a3x1 p",
        "10-13 0:1 A vergleich:B",
    ),
    (
        "last card after an attack nobody can parry",
        "standard 10-13 0:0 A zug 12334/12445 33323 5",
        "a3x1",
        "10-13 1:0 A treffer:A",
    ),
    (
        "last card after a move: the opponent's last attack",
        "standard 8-13 0:0 A zug 12334/13345 34133 5",
        "m+2",
        "10-13 0:0 B letzter",
    ),
    (
        "last attack declined: hands decide",
        "standard 8-13 0:0 A zug 12334/13345 34133 5",
        "m+2 -",
        "10-13 0:1 B vergleich:B",
    ),
    (
        "last card after a lunge: retreat, then hands at once",
        "fortgeschritten 8-14 0:0 A zug 12233/13345 33143 5",
        "l3a3x1 r1",
        "11-15 0:1 B vergleich:B",
    ),
    (
        "comparison: more cards of the distance",
        "standard 10-13 0:0 B letzter 12334/1345 34234 -",
        "-",
        "10-13 1:0 B vergleich:A",
    ),
    (
        "comparison tie: further advanced wins",
        "standard 10-13 0:0 B letzter 12234/1345 33334 -",
        "-",
        "10-13 0:1 B vergleich:B",
    ),
    (
        "comparison: nobody wins",
        "standard 11-13 2:1 B letzter 12234/1225 31444 -",
        "-",
        "11-13 2:1 B vergleich:-",
    ),
    (
        "comparison beyond distance 5: ground only",
        "standard 5-17 0:0 A letzter 55555/1111 15550 -",
        "-",
        "5-17 0:1 A vergleich:B",
    ),
    (
        "kinder: the last attack hits",
        "kinder 10-13 0:0 B letzter 12334/1345 34234 -",
        "a3x1",
        "10-13 0:1 B treffer:B",
    ),
]


@pytest.mark.parametrize(("rule", "text", "actions", "expected"), KNOWN, ids=[r[0] for r in KNOWN])
def test_known_positions_table(rule, text, actions, expected):
    pos = GAME.parse_state(text)
    assert head(after(pos, *actions.split())) == expected, rule
