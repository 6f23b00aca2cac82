"""Known positions for every motif of Battleklinge's catalogue version 2
(puzzles/battleklinge/motifs.py), as tests/unit/test_battleklinge_tags.py does for version 1.

Each motif has a row where it must be present and one where it must be absent,
checked by hand against the motif's rule (the reason is in the row).  The exercise
is proved by the miner (``examine_position``), so a row also pins the key; the motif
is asked of the catalogue and of its detector alone.  #k is exercise k of the
shipped pack data/packs/fechtuebungen.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.mining import examine_position
from fechtbuch.puzzles.battleklinge.motifs import CATALOGUE_V1, CATALOGUE_V2
from fechtbuch.puzzles.pack import load_pack

P1 = "1m3/1s3/1M3/4S/s3S g moulinet,traverse ausfall,passata sekond"  # #1
P2 = "ss1ss/5/3m1/2SS1/S1M1S b ausfall,traverse terz,quint volte"  # #2
P4 = "s1mss/1s3/5/SS3/2MSS b traverse,battuta ausfall,prim bindung"  # #4
P5 = "1s1ss/1s3/m4/3M1/1SSSS g stoss,sixt traverse,inquartata volte"  # #5
P7 = "4s/ss1m1/S4/3SM/4S b moulinet,terz ausfall,bindung volte"  # #7
P11 = "s2s1/1m1s1/1s3/M1S2/1S1SS b sekond,sixt traverse,stoss quint"  # #11
P13 = "1s1ss/2m2/M1s2/1S3/S2SS b bindung,battuta riposte,passata quart"  # #13
P19 = "s3s/1sSs1/2M2/m2S1/3S1 g inquartata,sixt battuta,passata ausfall"  # #19
P25 = "5/m3s/1S3/5/M4 b passata,sekond quart,quint riposte"  # #25
P39 = "4s/5/s2m1/3S1/SM3 b bindung,quint moulinet,volte prim"  # #39
ZUGZWANG = "m4/5/2S1M/5/4S g ausfall,quart moulinet,bindung inquartata"  # mined, seed 77


@dataclass(frozen=True)
class MotifRow:
    motif: str
    position: str
    key: str
    present: bool
    why: str


TABLE = (
    MotifRow("capture-key", P1, "traverse:b3b4", True, "b4 holds a Blau student"),
    MotifRow("capture-key", P5, "stoss:b1b2", False, "b2 is empty"),
    MotifRow("long-key", P4, "ausfall:b4b2", True, "b4 to b2 is two ranks"),
    MotifRow("long-key", P1, "traverse:b3b4", False, "b3 to b4 is one step"),
    MotifRow("retreat-key", P13, "passata:c3b4", True, "Blau advances to rank 1; c3-b4 goes up"),
    MotifRow("retreat-key", P1, "traverse:b3b4", False, "Gold advances to rank 5; b3-b4 goes up"),
    MotifRow(
        "discovered-attack",
        P19,
        "sixt:c4b4",
        True,
        "the master on c3 had no hit; the key takes in Ausfall and ausfall:c3c5 would "
        "reach Blau's banner",
    ),
    MotifRow(
        "discovered-attack",
        P1,
        "traverse:b3b4",
        False,
        "the only piece a free move would hit with is the master that moved (sekond:b4c5)",
    ),
    MotifRow(
        "only-defence",
        P25,
        "quint:a4b3",
        True,
        "Gold has two replies: sekond:a1b2 allows a hit at once, sekond:a1b1 does not",
    ),
    MotifRow("only-defence", P1, "traverse:b3b4", False, "N=2: every reply allows a hit at once"),
    MotifRow(
        "master-hunt",
        P11,
        "stoss:b3a3",
        True,
        "Gold's master flees a2-b2 (sekond) and quint:a3b2 takes it there",
    ),
    MotifRow("master-hunt", P1, "traverse:b3b4", False, "the line ends on the banner"),
    MotifRow(
        "banner-run", P1, "traverse:b3b4", True, "Gold's master moves b3-b4-c5, Blau's banner"
    ),
    MotifRow("banner-run", P2, "terz:d3d2", False, "the line ends by taking the master on c1"),
    MotifRow(
        "zugzwang",
        ZUGZWANG,
        "ausfall:c3c5",
        True,
        "after the key no Gold card (quart, inquartata) hits; Blau's master must move "
        "and is taken (bindung:a5b4 inquartata:c5b4)",
    ),
    MotifRow("zugzwang", P1, "traverse:b3b4", False, "the key threatens sekond:b4c5"),
    MotifRow(
        "received-card", P1, "traverse:b3b4", True, "Sekond, the hitting card, was the side card"
    ),
    MotifRow(
        "received-card", P7, "ausfall:d4d2", False, "Bindung was in Blau's hand from the start"
    ),
    MotifRow("student-hit", P4, "ausfall:b4b2", True, "the student on b2 takes the master on c1"),
    MotifRow("student-hit", P1, "traverse:b3b4", False, "the line ends on the banner"),
    MotifRow("exchange", P39, "volte:a3b2", True, "bindung:a1b2 takes the Blau student on b2"),
    MotifRow("exchange", P1, "traverse:b3b4", False, "Blau's reply ausfall:a1a2 lands on empty a2"),
)
NEW_MOTIFS = [name for name in CATALOGUE_V2.names if name not in CATALOGUE_V1.names]


@cache
def _record(position: str) -> dict:
    record = examine_position(Position.from_text(position), (2, 3))
    assert record is not None and "rejected" not in record, position
    return record


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.motif}-{'yes' if r.present else 'no'}")
def test_known_position(row: MotifRow):
    record = _record(row.position)
    assert record["key"] == row.key
    assert (row.motif in CATALOGUE_V2.tags(record)) == row.present, row.why
    detector = CATALOGUE_V2.motif(row.motif).detect
    assert detector(CATALOGUE_V2.facts(record)) == row.present, row.why


def test_every_new_motif_has_a_present_and_an_absent_row():
    assert {(r.motif, r.present) for r in TABLE} == {
        (m, p) for m in NEW_MOTIFS for p in (True, False)
    }


def test_the_catalogue_names_sixteen_motifs_each_with_its_rule():
    assert len(CATALOGUE_V2.motifs) >= 16
    assert all(len(m.rule) > 20 for m in CATALOGUE_V2.motifs)
    assert CATALOGUE_V2.names[: len(CATALOGUE_V1.names)] == CATALOGUE_V1.names


@pytest.mark.parametrize("pack", ["fechtuebungen.json", "meisterstudien.json"])
def test_version_2_keeps_the_shipped_tags(pack):
    """Version 1's motifs are version 2's first eight, unchanged: on every shipped
    exercise version 2 gives the stored tags plus only new motifs."""
    for puzzle in load_pack(data_path("packs", pack))["puzzles"]:
        tags = CATALOGUE_V2.tags(puzzle)
        assert (
            [t for t in tags if t in CATALOGUE_V1.names]
            == puzzle["tags"]
            == (CATALOGUE_V1.tags(puzzle))
        )
