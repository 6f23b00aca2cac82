"""Known exercises for every motif of the Touché duel's catalogue
(puzzles/touche_duell/motifs.py): a row where the motif is present and one where
it is absent, each checked by hand against the motif's rule.  #k is exercise k of
the shipped pack data/packs/touche-uebungen.json (its keys, lines and trees are
re-proved by ``pack verify`` in tests/unit/test_touche_duell_exercises.py)."""

from __future__ import annotations

import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.touche_duell.notation import parse_view
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.touche_duell.mining import tags_for
from fechtbuch.puzzles.touche_duell.motifs import CATALOGUE_V1, CATALOGUE_V2
from support.motif_rows import MotifRow, row_id

PUZZLES = load_pack(data_path("packs", "touche-uebungen.json"))["puzzles"]


TABLE = (
    MotifRow("ausweichen", 5, "l3a5x1", True, "A answers the lunge with r3"),
    MotifRow("ausweichen", 2, "a3x3", False, "the attack hits; nobody retreats"),
    MotifRow("blockiert", 1, "m+2", True, "the line ends 'zieht 3, blockiert'"),
    MotifRow("blockiert", 2, "a3x3", False, "the line ends with a hit"),
    MotifRow("drei-gleiche", 2, "a3x3", True, "three cards of 3"),
    MotifRow("drei-gleiche", 1, "m+2", False, "no attack at all"),
    MotifRow("riposte", 4, "p", True, "the parry is followed by a1x1 in the riposte turn"),
    MotifRow("riposte", 2, "a3x3", False, "no parry before the attack"),
    MotifRow("stapelende", 9, "m-5", True, "the last attack is declined ('-'): hands compared"),
    MotifRow("stapelende", 2, "a3x3", False, "the round ends with a hit"),
    MotifRow("sturmangriff", 5, "l3a5x1", True, "the key lunges: step 3, attack 5x1"),
    MotifRow("sturmangriff", 2, "a3x3", False, "a plain attack"),
    MotifRow("treffer", 2, "a3x3", True, "the line ends 'treffer'"),
    MotifRow("treffer", 1, "m+2", False, "the line ends 'blockiert'"),
    MotifRow("zaehlen", 4, "p", True, "a1x1: B's hand and the discard hold every 1 (31522)"),
    MotifRow("zaehlen", 2, "a3x3", False, "three equal cards: drei-gleiche, not counting"),
    MotifRow("ruhiger-zug", 1, "m+2", True, "the key is a move"),
    MotifRow("ruhiger-zug", 2, "a3x3", False, "the key attacks"),
    MotifRow("rueckzug", 9, "m-5", True, "the key moves 5 backwards"),
    MotifRow("rueckzug", 1, "m+2", False, "the key moves forwards"),
    MotifRow("parade", 4, "p", True, "the key parries the lunge 1x1"),
    MotifRow("parade", 1, "m+2", False, "the key is a move"),
    MotifRow("letzter-angriff", 9, "m-5", True, "the pile runs out: A declines the last attack"),
    MotifRow("letzter-angriff", 2, "a3x3", False, "the round ends by a hit before the pile ends"),
)


@pytest.mark.parametrize("row", TABLE, ids=row_id)
def test_known_exercise(row: MotifRow):
    puzzle = PUZZLES[row.number - 1]
    assert puzzle["key"] == row.key
    assert (row.motif in CATALOGUE_V2.tags(puzzle)) == row.present, row.why
    detector = CATALOGUE_V2.motif(row.motif).detect
    assert detector(CATALOGUE_V2.facts(puzzle)) == row.present, row.why


def test_every_motif_has_a_present_and_an_absent_row():
    expected = {(m, p) for m in CATALOGUE_V2.names for p in (True, False)}
    assert {(r.motif, r.present) for r in TABLE} == expected


def test_version_1_is_the_mining_tags_and_version_2_extends_it():
    assert CATALOGUE_V2.names[: len(CATALOGUE_V1.names)] == CATALOGUE_V1.names
    assert all(len(m.rule) > 20 for m in CATALOGUE_V2.motifs)
    for puzzle in PUZZLES:
        legacy = tags_for(parse_view(puzzle["position"]), puzzle["line"])
        assert legacy == puzzle["tags"] == CATALOGUE_V1.tags(puzzle)
        assert [t for t in CATALOGUE_V2.tags(puzzle) if t in legacy] == legacy
