"""Known positions for every motif tag of puzzles/battleklinge/tags.py.

Each tag has a row where it must be present and a row where it must be absent,
each checked by hand against the tag's definition (the reason is in the row).
The exercise is proved by the miner (``examine_position``), so a row also pins
the key; the tag is asked of the stored record and of its tagger function alone.
Positions marked #k are exercise k of the shipped pack (docs/puzzles.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.puzzles.battleklinge.mining import examine_position
from fechtbuch.puzzles.battleklinge.tags import TAGGERS, PuzzleFacts

P1 = "1m3/1s3/1M3/4S/s3S g moulinet,traverse ausfall,passata sekond"  # #1
P2 = "ss1ss/5/3m1/2SS1/S1M1S b ausfall,traverse terz,quint volte"  # #2
P3 = "5/2s2/1m1M1/5/3S1 g moulinet,quint terz,sixt stoss"  # #3
P4 = "s1mss/1s3/5/SS3/2MSS b traverse,battuta ausfall,prim bindung"  # #4
P5 = "1s1ss/1s3/m4/3M1/1SSSS g stoss,sixt traverse,inquartata volte"  # #5
P8 = "1s2s/2ssm/5/2M2/SS1SS b traverse,passata moulinet,inquartata terz"  # #8
P26 = "4m/2S2/2s2/3M1/SS3 g passata,prim traverse,riposte quart"  # #26
P27 = "5/m1s2/s2M1/5/S3S g riposte,inquartata stoss,quart volte"  # #27
FORCED_PASS = "5/S4/1M3/5/sssms g prim,terz stoss,bindung moulinet"  # built by hand


@dataclass(frozen=True)
class TagRow:
    tag: str
    position: str
    key: str
    present: bool
    why: str


TABLE = (
    TagRow(
        "master-captured",
        P2,
        "terz:d3d2",
        True,
        "the last move volte:d2c1 lands on c1, Gold's master",
    ),
    TagRow("master-captured", P1, "traverse:b3b4", False, "sekond:b4c5 lands on the empty c5"),
    TagRow("banner-reached", P1, "traverse:b3b4", True, "Gold's master ends on c5, Blau's banner"),
    TagRow("banner-reached", P2, "terz:d3d2", False, "the line ends by taking the master on c1"),
    TagRow("quiet-key", P5, "stoss:b1b2", True, "b2 is empty"),
    TagRow("quiet-key", P4, "ausfall:b4b2", False, "b2 holds a Gold student"),
    TagRow(
        "sacrifice",
        P8,
        "inquartata:d4c3",
        True,
        "Gold could take nothing before; after the key traverse:c2c3 takes the student",
    ),
    TagRow(
        "sacrifice",
        P1,
        "traverse:b3b4",
        False,
        "Blau could take b3 (ausfall:b5b3) before; after the key it can take nothing",
    ),
    TagRow(
        "forced-pass",
        FORCED_PASS,
        "prim:b3c2",
        True,
        "Stoss/Bindung jump off the board or onto Blau's own rank: bindung:pass",
    ),
    TagRow("forced-pass", P1, "traverse:b3b4", False, "no pass anywhere in the tree"),
    TagRow(
        "card-handover",
        P26,
        "passata:d2c3",
        True,
        "N=3 and prim:d2c3 is the same jump, but it does not keep the hit",
    ),
    TagRow("card-handover", P27, "riposte:d3c4", False, "inquartata cannot jump d3 to c4"),
    TagRow(
        "double-threat",
        P3,
        "quint:d3c4",
        True,
        "a free move would hit twice: moulinet:c4b3 (master) and stoss:c4c5 (banner)",
    ),
    TagRow(
        "double-threat",
        P4,
        "ausfall:b4b2",
        False,
        "bindung:b2c1 and prim:b2c1 are one threat: the same jump with two cards",
    ),
    TagRow("master-moves", P1, "traverse:b3b4", True, "b3 is Gold's master"),
    TagRow("master-moves", P4, "ausfall:b4b2", False, "b4 and b2 hold students; c5 never moves"),
)


@cache
def _record(position: str) -> dict:
    record = examine_position(Position.from_text(position), (2, 3))
    assert record is not None and "rejected" not in record, position
    return record


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.tag}-{'yes' if r.present else 'no'}")
def test_known_position(row: TagRow):
    record = _record(row.position)
    assert record["key"] == row.key
    assert (row.tag in record["tags"]) == row.present, row.why
    assert TAGGERS[row.tag](PuzzleFacts.of_record(record)) == row.present, row.why


def test_every_tag_has_a_present_and_an_absent_row():
    assert {(r.tag, r.present) for r in TABLE} == {(t, p) for t in TAGGERS for p in (True, False)}


def test_forced_pass_tag_on_a_hand_checked_position():
    # Gold: student a4, master b3, hand Prim/Terz; Blau fills rank 1 (master d1) with
    # Stoss/Bindung, whose jumps all go off the board or onto its own pieces.
    # Prim b3-c2 takes Moulinet into Gold's hand; Blau must pass; Moulinet c2xd1.
    record = _record(FORCED_PASS)
    assert record["n"] == 2 and record["key"] == "prim:b3c2"
    assert record["line"] == ["prim:b3c2", "bindung:pass", "moulinet:c2d1"]
    assert record["tags"] == ["master-captured", "quiet-key", "forced-pass", "master-moves"]
