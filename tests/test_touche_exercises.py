"""The building blocks of Touché exercises (mining is not wired to a command yet)."""

from __future__ import annotations

from fechtbuch.engines.touche_duell.notation import parse_view
from fechtbuch.puzzles.touche_exercises import examine, verify_puzzle

FOUND = [
    "standard 8-14 0:0 A zug 23333/?5 53132 ?1",
    "fortgeschritten 5-7 0:0 A ausweichen:2x2 13335/?5 24143 ?1",
]


def test_examined_exercises_verify_and_have_tags():
    for text in FOUND:
        puzzle = examine(parse_view(text))
        assert puzzle is not None and puzzle["n"] == 1
        assert puzzle["tags"] and 1 <= puzzle["difficulty"] <= 10
        assert verify_puzzle(puzzle) == []
        broken = dict(puzzle, key="m-1")
        assert any(p.startswith("key:") for p in verify_puzzle(broken))


def test_a_view_without_sure_win_is_no_exercise():
    assert examine(parse_view("standard 1-23 0:0 B zug ?5/23444 00000 ?15")) is None
