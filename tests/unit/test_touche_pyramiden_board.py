"""Board and patterns of pyramiden-1: the sheet's drawing, placement counts, completion."""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_pyramiden import reference
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    COLS,
    FIELD_CARD,
    FREE_FIELDS,
    ROWS,
    drawing,
    field_name,
    parse_field,
)
from fechtbuch.engines.touche_pyramiden.patterns import (
    PLACEMENTS,
    THROUGH,
    USABLE,
    Pattern,
    completed,
    mask_fields,
)
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream

SHEET = """\
     a  b  c  d  e  f  g  h  i  j  k  l  m  n
 8  ** AS 2S 3S 4S 5S 6S KC QC JC TC 9C 8C **
 7  7S 8S 9S TS JS QS KS 7C 6C 5C 4C 3C 2C AC
 6  AH 2H 3H 4H 5H 6H 7H KD QD JD TD 9D 8D 7D
 5  8H 9H TH JH QH KH ** ** 6D 5D 4D 3D 2D AD
 4  AD 2D 3D 4D 5D 6D ** ** KH QH JH TH 9H 8H
 3  7D 8D 9D TD JD QD KD 7H 6H 5H 4H 3H 2H AH
 2  AC 2C 3C 4C 5C 6C 7C KS QS JS TS 9S 8S 7S
 1  ** 8C 9C TC JC QC KC 6S 5S 4S 3S 2S AS **"""

# Closed-form counts: positions of the bounding box times orientations.
EXPECTED = {
    Pattern.LINIE: 8 * 10 + 14 * 4 + 2 * 4 * 10,
    Pattern.KVADRAT: 7 * 13,
    Pattern.T_FORM: 4 * 6 * 12,
    Pattern.KORS: 2 * 6 * 12,
}
EXPECTED[Pattern.KOMBINATION] = sum(EXPECTED.values())


def test_board_is_the_sheets_drawing():
    assert drawing() == SHEET


def test_every_card_has_two_fields_and_the_right_half_is_turned():
    assert all(len(fields) == 2 for fields in CARD_FIELDS)
    assert [f for f in range(112) if FIELD_CARD[f] < 0] == list(FREE_FIELDS)
    assert [field_name(f) for f in FREE_FIELDS] == ["a1", "n1", "g4", "h4", "g5", "h5", "a8", "n8"]
    for row in range(ROWS):
        for col in range(7, COLS):
            assert FIELD_CARD[row * COLS + col] == FIELD_CARD[(7 - row) * COLS + 13 - col]


def test_field_names_round_trip():
    assert field_name(0) == "a1" and field_name(111) == "n8" and parse_field("b1") == 1
    assert all(parse_field(field_name(f)) == f for f in range(112))


@pytest.mark.parametrize("pattern", list(Pattern))
def test_placement_counts_match_brute_force(pattern):
    brute = reference.shapes(pattern)  # anchor walk over the whole board, written separately
    masks = [sum(1 << reference.cell_field(c) for c in cells) for cells in brute]
    assert len(PLACEMENTS[pattern]) == len(set(masks)) == EXPECTED[pattern]
    assert list(PLACEMENTS[pattern]) == masks  # same canonical order
    free = sum(1 << f for f in FREE_FIELDS)
    assert USABLE[pattern] == tuple(m for m in masks if (m & free).bit_count() <= 1)


def test_usable_counts():
    assert {p.value: len(USABLE[p]) for p in Pattern} == {
        "linie": 192,
        "kvadrat": 86,
        "t-form": 264,
        "kors": 136,
        "kombination": 678,
    }


def test_both_crosses_and_all_t_orientations_are_there():
    kors = set(PLACEMENTS[Pattern.KORS])
    plus = sum(1 << parse_field(f) for f in ["c3", "b3", "d3", "c2", "c4"])
    cross = sum(1 << parse_field(f) for f in ["c3", "b2", "d4", "b4", "d2"])
    assert plus in kors and cross in kors
    t_down = sum(1 << parse_field(f) for f in ["b5", "c5", "d5", "c4", "c3"])
    t_up = sum(1 << parse_field(f) for f in ["b3", "c3", "d3", "c4", "c5"])
    t_right = sum(1 << parse_field(f) for f in ["b2", "b3", "b4", "c3", "d3"])
    t_left = sum(1 << parse_field(f) for f in ["d2", "d3", "d4", "c3", "b3"])
    assert {t_down, t_up, t_right, t_left} <= set(PLACEMENTS[Pattern.T_FORM])


@pytest.mark.parametrize("pattern", list(Pattern))
def test_incremental_completion_matches_full_scan(pattern):
    rng = HashStream(f"completion/{pattern.value}")
    for _ in range(300):
        own = 0
        for _ in range(10 + rng.below(40)):
            own |= 1 << rng.below(112)
        f = rng.below(112)
        own |= 1 << f
        scan = [m for m in USABLE[pattern] if m >> f & 1 and m & ~own == 0]
        assert completed(pattern, own, f) == (scan[0] if scan else 0)
        assert list(THROUGH[pattern][f]) == [m for m in USABLE[pattern] if m >> f & 1]


def test_longer_line_contains_a_line():
    own = sum(1 << parse_field(f) for f in ["b2", "c2", "d2", "e2", "g2", "h2"])
    f = parse_field("f2")
    mask = completed(Pattern.LINIE, own | 1 << f, f)
    assert [field_name(x) for x in mask_fields(mask)] == ["b2", "c2", "d2", "e2", "f2"]
