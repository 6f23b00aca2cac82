"""Known exercises for every motif of the pyramids' catalogue
(puzzles/touche_pyramiden/motifs.py): a row where the motif is present and one where
it is absent, each checked by hand against the motif's rule.  #k is exercise k of
the shipped pack data/packs/pyramiden-uebungen.json (its keys and trees are
re-proved by ``pack verify`` in the pyramids' pack tests).

Two motifs of the key's text occur in no shipped exercise (a key on a free field, a
dead-card exchange); their rows ask the detector about a key written on exercise
#1's view, and say so."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.touche_pyramiden.mining import tags_of
from fechtbuch.puzzles.touche_pyramiden.motifs import CATALOGUE_V1, CATALOGUE_V2, PyramidFacts
from support.motif_rows import MotifRow, row_id

PUZZLES = load_pack(data_path("packs", "pyramiden-uebungen.json"))["puzzles"]


TABLE = (
    MotifRow("blockade", 24, "XX:l2", True, "the opponent holds k2 k3 l3 of the square; l2 taken"),
    MotifRow("blockade", 1, "6S:h1", False, "no opponent placement lacks h1 with <= 2 missing"),
    MotifRow("quiet-key", 25, "6H:f6", True, "after the key no single field completes a kors"),
    MotifRow("quiet-key", 29, "JC:j8", False, "after the key six fields each complete one"),
    MotifRow("double-threat", 29, "JC:j8", True, "k1, l2, j3, n3, m4, j7 each complete one"),
    MotifRow("double-threat", 25, "6H:f6", False, "no field completes a kors after the key"),
    MotifRow("safe-field", 26, "7S:n2", True, "every card of the missing square field is seen"),
    MotifRow("safe-field", 25, "6H:f6", False, "no placement within 2 is safe from the opponent"),
    MotifRow("joker", 3, "XX:i2", True, "a joker placed on i2"),
    MotifRow("joker", 1, "6S:h1", False, "the six of spades, no joker"),
    MotifRow(
        "joker-removal", 4, "XX:=d4", True, "the joker removes the pyramid on d4 (and takes d4)"
    ),
    MotifRow("joker-removal", 3, "XX:i2", False, "the joker only places"),
    MotifRow("joker-defence-exhausted", 3, "XX:i2", True, "P has seen all four jokers"),
    MotifRow("joker-defence-exhausted", 1, "6S:h1", False, "a joker is still unseen"),
    MotifRow("free-field", 1, "6S:a1", True, "a1 is a corner", written_key=True),
    MotifRow("free-field", 1, "6S:h1", False, "h1 is the six of spades' field"),
    MotifRow("dead-card-exchange", 1, "tausch:6S", True, "an exchange key", written_key=True),
    MotifRow("dead-card-exchange", 1, "6S:h1", False, "the key places a pyramid"),
    MotifRow("in-1", 1, "6S:h1", True, "N = 1"),
    MotifRow("in-1", 13, "3C:c2", False, "N = 2"),
    MotifRow("in-2", 13, "3C:c2", True, "N = 2"),
    MotifRow("in-2", 1, "6S:h1", False, "N = 1"),
    MotifRow("in-3", 25, "6H:f6", True, "N = 3"),
    MotifRow("in-3", 1, "6S:h1", False, "N = 1"),
    MotifRow("kvadrat", 1, "6S:h1", True, "muster=kvadrat"),
    MotifRow("kvadrat", 2, "2H:b6", False, "muster=kombination"),
    MotifRow("kombination", 2, "2H:b6", True, "muster=kombination"),
    MotifRow("kombination", 1, "6S:h1", False, "muster=kvadrat"),
    MotifRow("t-form", 8, "XX:k5", True, "muster=t-form"),
    MotifRow("t-form", 1, "6S:h1", False, "muster=kvadrat"),
    MotifRow("kors", 25, "6H:f6", True, "muster=kors"),
    MotifRow("kors", 1, "6S:h1", False, "muster=kvadrat"),
    MotifRow("linie", 27, "6D:i5", True, "muster=linie"),
    MotifRow("linie", 1, "6S:h1", False, "muster=kvadrat"),
)


def _facts(row: MotifRow) -> PyramidFacts:
    puzzle = PUZZLES[row.number - 1]
    if row.written_key:
        return replace(PyramidFacts.of_record(puzzle), key=row.key)
    assert puzzle["key"] == row.key
    return PyramidFacts.of_record(puzzle)


@pytest.mark.parametrize("row", TABLE, ids=row_id)
def test_known_exercise(row: MotifRow):
    facts = _facts(row)
    assert (row.motif in CATALOGUE_V2.tags_of_facts(facts)) == row.present, row.why
    assert CATALOGUE_V2.motif(row.motif).detect(facts) == row.present, row.why


def test_every_motif_has_a_present_and_an_absent_row():
    expected = {(m, p) for m in CATALOGUE_V2.names for p in (True, False)}
    assert {(r.motif, r.present) for r in TABLE} == expected


def test_version_1_is_the_mining_tags_and_version_2_extends_it():
    assert all(len(m.rule) > 15 for m in CATALOGUE_V2.motifs)
    assert set(CATALOGUE_V1.names) < set(CATALOGUE_V2.names)
    for puzzle in PUZZLES:
        facts = PyramidFacts.of_record(puzzle)
        legacy = tags_of(facts.problem, facts.node, puzzle["key"], puzzle["n"])
        assert legacy == puzzle["tags"] == CATALOGUE_V1.tags(puzzle)
        assert [t for t in CATALOGUE_V2.tags(puzzle) if t in legacy] == legacy
