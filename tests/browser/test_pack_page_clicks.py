"""Every shipped Touché exercise solved on its pack page by clicking, and every kind of
action of both Touché games played by clicking (headless Chromium, the page's
self-test: tests/support/browser.py).

The clicks are worked out from the games' rules (tests/support/pack_clicks.py): the
duel's cards and squares, a lunge's step and attack, a parry and a declined last
attack as worded choices; the pyramids' cards and fields, a joker's lift and an
exchange of dead cards.  No step may meet a button in notation.
"""

from __future__ import annotations

import orjson
import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.pack import pack_kind
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from support.browser import self_test
from support.pack_clicks import clicks, line_clicks, solution_texts

KINDS = {
    "touche-uebungen": {"MOVE", "ATTACK", "LUNGE", "RETREAT", "PARRY", "PASS"},
    "pyramiden-uebungen": {
        "PLACE",
        "JOKER_PLACE",
        "JOKER_REMOVE",
        "JOKER_REPLACE",
        "FREE",
        "EXCHANGE",
    },
}
"""The kinds of action each pack's exercises offer at the nodes of their main lines."""


def shipped(name: str) -> dict:
    return orjson.loads(data_path("packs", f"{name}.json").read_bytes())


@pytest.fixture(scope="module", params=sorted(KINDS))
def made(request, tmp_path_factory):
    """A pack, its page (English, no verdicts past a cut: they take minutes to judge)."""
    pack = shipped(request.param)
    path = tmp_path_factory.mktemp("clicks") / f"{request.param}.html"
    path.write_text(pack2_html(pack, verdicts=False, lang="en"), encoding="utf-8")
    return request.param, pack, path


def on_the_board(result: dict, notation: set[str]) -> None:
    for step in result["steps"]:
        assert step["missing"] == [], step
        assert not set(step["choices"]) & notation, step


def test_every_exercise_is_solved_by_clicking(made, tmp_path):
    name, pack, path = made
    kind = pack_kind(pack)
    specs = [
        {"puzzle": index, "actions": line_clicks(kind, puzzle)}
        for index, puzzle in enumerate(pack["puzzles"])
    ]
    results = self_test(path, tmp_path, specs, budget_ms=900_000)
    notation = solution_texts(pack)
    for puzzle, result in zip(pack["puzzles"], results, strict=True):
        assert result["final"] == "solved", (puzzle["id"], result["message"])
        assert result["moves"] == puzzle["line"], puzzle["id"]
        on_the_board(result, notation)


def first_of_each_kind(name: str, pack: dict) -> dict[str, tuple[int, list[str], str, bool]]:
    """Per kind of action: the first exercise whose main line reaches a node where it is
    legal, the actions before it, its text, and whether the tree goes on after it."""
    kind = pack_kind(pack)
    found: dict[str, tuple[int, list[str], str, bool]] = {}
    for index, puzzle in enumerate(pack["puzzles"]):
        tree = PuzzleTree(kind, puzzle)
        node, before = tree.root, []
        for text in puzzle["line"]:
            if tree.solver_to_act(node):
                for other, (action, _) in sorted(tree.legal(node).items()):
                    stored = tree.step(node, other).tree is not None
                    found.setdefault(action.kind.name, (index, list(before), other, stored))
            before.append(text)
            node = tree.step(node, text)
    assert KINDS[name] <= found.keys(), sorted(found)
    return {k: v for k, v in found.items() if k in KINDS[name]}


def test_every_kind_of_action_is_played_by_clicking(made, tmp_path):
    """Clicked, each kind of action is the action the page judges: played on where the
    tree goes on, else refused (lost) or said to leave the stored solution, with its
    words and its notation."""
    name, pack, path = made
    kind = pack_kind(pack)
    chosen = first_of_each_kind(name, pack)
    specs = []
    for index, before, text, _ in chosen.values():
        puzzle = pack["puzzles"][index]
        tree = PuzzleTree(kind, puzzle)
        node = tree.root
        for done in before:
            node = tree.step(node, done)
        specs.append(
            {
                "puzzle": index,
                "actions": [*line_clicks(kind, puzzle, before), clicks(tree, node, text)],
            }
        )
    results = self_test(path, tmp_path, specs, budget_ms=300_000)
    notation = solution_texts(pack)
    for (kind_name, (_, before, text, stored)), result in zip(chosen.items(), results, strict=True):
        on_the_board(result, notation)
        played = result["steps"][-1]
        if stored:
            assert result["moves"][len(before)] == text, (kind_name, result)
        else:
            assert played["state"] in ("lost", "line"), (kind_name, played)
            assert f"({text})" in played["message"], (kind_name, played)
