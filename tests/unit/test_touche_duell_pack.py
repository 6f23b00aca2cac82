"""The shipped Touché duel pack ``data/packs/touche-uebungen.json``: it verifies, its
exercises re-mine from their recorded rounds byte for byte, they play in the
terminal (through stdin) and their boards draw in headless Chromium.

The full re-mine from the pack's recorded command takes many minutes on the shared
machine, so it runs only with ``FECHTBUCH_REMINE=1`` (a benchmark/CI-optional
check); the default test re-mines the rounds of one exercise per N.
"""

from __future__ import annotations

import os
import shlex
from collections import Counter

import orjson
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.touche_duell.public import Pending, view_actions
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.pagekit import texts_of
from fechtbuch.puzzles.touche_duell.mining import examine_game
from fechtbuch.puzzles.touche_duell.packkind import KIND
from fechtbuch.puzzles.touche_duell.svg import board_svg, board_text
from support.browser import self_test
from support.pack_clicks import NOTATION_BUTTON, at, line_clicks

PACK_PATH = data_path("packs", "touche-uebungen.json")
PACK = orjson.loads(PACK_PATH.read_bytes())


def _option(name: str, default: str) -> str:
    words = shlex.split(PACK["command"])
    return words[words.index(name) + 1] if name in words else default


def test_the_pack_is_version_2_with_count_per_n_or_what_its_rounds_gave():
    assert load_pack(PACK_PATH) == PACK  # the schema and the declared range hold
    assert PACK["rules"] == "touche-duell" and PACK["solution"] == "full"
    assert PACK["command"].startswith("fechtbuch touche mine ")
    count = int(_option("--count", "12"))
    by_n = Counter(p["n"] for p in PACK["puzzles"])
    assert set(by_n) <= {1, 2, 3} and all(k <= count for k in by_n.values())
    if "--rounds" not in PACK["command"]:  # not stopped early: the full count
        assert set(by_n.values()) == {count}
    for n in by_n:  # one exercise per round and N
        rounds = [p["round"] for p in PACK["puzzles"] if p["n"] == n]
        assert len(rounds) == len(set(rounds))
    for puzzle in PACK["puzzles"]:
        assert type(puzzle["round"]) is int and puzzle["id"].startswith("t-")
    assert PACK_PATH.read_bytes() == dump_json(PACK)  # written by the one JSON writer


@pytest.mark.slow
def test_pack_verify_re_proves_every_exercise():
    result = CliRunner().invoke(cli.main, ["pack", "verify", "touche-uebungen"])
    assert result.exit_code == 0, result.output


def test_the_stored_main_lines_are_the_trees_longest_defence():
    for puzzle in PACK["puzzles"]:
        assert PuzzleTree(KIND, puzzle).main_line() == puzzle["line"], puzzle["id"]


def test_each_n_re_mines_from_its_round():
    """One exercise per N: examining its recorded self-play round again gives it
    byte for byte (the rest of the pack's pipeline is deterministic: tests in
    test_touche_duell_exercises.py)."""
    seed = int(_option("--seed", "1"))
    max_nodes = int(_option("--max-nodes", "5000"))
    for n in sorted({p["n"] for p in PACK["puzzles"]}):
        puzzle = next(p for p in PACK["puzzles"] if p["n"] == n)
        found = examine_game((seed, puzzle["round"], max_nodes)).puzzles
        stored = {k: v for k, v in puzzle.items() if k != "round"}
        assert dump_json(stored) in [dump_json(p) for p in found], puzzle["id"]


@pytest.mark.skipif(
    os.environ.get("FECHTBUCH_REMINE") != "1", reason="the full re-mine takes minutes"
)
def test_the_whole_pack_re_mines_from_its_command(tmp_path):
    words = shlex.split(PACK["command"])[1:]
    words[words.index("-o") + 1] = str(tmp_path / "touche-uebungen.json")
    result = CliRunner().invoke(cli.main, [*words, "-j", "2"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "touche-uebungen.json").read_bytes() == PACK_PATH.read_bytes()


def _play(puzzle_number: int, lines: list[str]):
    return CliRunner().invoke(
        cli.main,
        ["touche", "play", "--pack", "touche-uebungen", "--puzzle", str(puzzle_number)],
        input="".join(f"{line}\n" for line in lines),
    )


def _own_actions(puzzle: dict) -> list[str]:
    """The solver's actions of the main line (the adversary's come from the tree)."""
    tree = PuzzleTree(KIND, puzzle)
    node, own = tree.root, []
    for text in puzzle["line"]:
        if tree.solver_to_act(node):
            own.append(text)
        node = tree.step(node, text)
    return own


def test_playing_the_main_line_solves_one_exercise_per_n():
    for n in sorted({p["n"] for p in PACK["puzzles"]}):
        number, puzzle = next((i, p) for i, p in enumerate(PACK["puzzles"], 1) if p["n"] == n)
        result = _play(number, _own_actions(puzzle))
        assert result.exit_code == 0, result.output
        tree = PuzzleTree(KIND, puzzle)
        node = tree.root
        for text in puzzle["line"]:
            node = tree.step(node, text)
        assert f"Solved: {node.tree}." in result.output  # the leaf: win:treffer and so on
        assert "hand A:" in result.output and "unseen (opponent's hand and pile)" in result.output


def test_a_losing_action_is_refused_and_solution_shows_the_key():
    number, puzzle = next(
        (i, p)
        for i, p in enumerate(PACK["puzzles"], 1)
        if len(PuzzleTree(KIND, p).legal(PuzzleTree(KIND, p).root)) > 1
    )
    tree = PuzzleTree(KIND, puzzle)
    wrong = next(a for a in sorted(tree.legal(tree.root)) if a != puzzle["key"])
    result = _play(number, [wrong, "solution", "quit"])
    assert "The sure path is lost" in result.output
    assert f"A key: {puzzle['key']}" in result.output
    # stopped by the player: said so, exit 0 as in Battleklinge's play --pack
    assert result.exit_code == 0 and result.output.rstrip().endswith("Stopped.")


def test_play_without_pack_options_is_the_game_and_puzzle_needs_pack():
    runner = CliRunner()
    alone = runner.invoke(cli.main, ["touche", "play", "--puzzle", "2"])
    assert alone.exit_code == 2 and "--puzzle: only with --pack" in alone.output
    mixed = runner.invoke(
        cli.main, ["touche", "play", "--pack", "touche-uebungen", "--strength", "stark"]
    )
    assert mixed.exit_code == 2 and "--strength: not used with --pack" in mixed.output


def test_board_text_shows_what_the_prover_sees():
    puzzle = PACK["puzzles"][0]
    _, view = KIND.problem(puzzle)
    text = board_text(view)
    assert "hand A:" in text and "pile:" in text and "unseen" in text
    assert "\x1b[1m" in board_text(view, True)


def _pack_of_one_per_n() -> dict:
    chosen = [next((p for p in PACK["puzzles"] if p["n"] == n), None) for n in (1, 2, 3)]
    return {**PACK, "puzzles": [p for p in chosen if p is not None]}


@pytest.mark.browser
def test_pack_html_plays_one_exercise_per_n_in_headless_chromium(tmp_path):
    """``fechtbuch pack html`` (the generic version-2 page) with the Touché boards:
    the person plays the main line's own actions by clicking the hand's cards and the
    piste's squares (tests/support/pack_clicks.py), the page answers with the longest
    defence and the worst draws, and says Solved with the deciding rule; a losing
    first action is refused at once.  No step meets a button in notation."""
    small = _pack_of_one_per_n()
    source, page = tmp_path / "small.json", tmp_path / "small.html"
    source.write_bytes(dump_json(small))
    made = CliRunner().invoke(
        cli.main, ["pack", "html", str(source), "-o", str(page), "--lang", "en"]
    )
    assert made.exit_code == 0, made.output
    html = page.read_text(encoding="utf-8")
    assert html == pack2_html(small, lang="en")
    ends = texts_of("fechtbuch.puzzles.touche_duell")["en"]  # the page's words for them
    notation = set()
    for index, puzzle in enumerate(small["puzzles"]):
        tree = PuzzleTree(KIND, puzzle)
        node = tree.root
        for text in puzzle["line"]:
            notation.update(tree.legal(node))
            node = tree.step(node, text)
        result = self_test(page, tmp_path, index, line_clicks(KIND, puzzle))
        assert result["final"] == "solved", result
        ended = ends["pp.leaf." + node.tree.replace(":", ".")]
        assert result["message"] == f"Solved: {ended}." and result["moves"] == puzzle["line"]
        assert result["svg"] is True  # the board was drawn
        for step in result["steps"]:
            assert step["missing"] == [] and not set(step["choices"]) & notation, step
    first = small["puzzles"][0]
    wrong = next(
        a
        for a in sorted(PuzzleTree(KIND, first).legal(PuzzleTree(KIND, first).root))
        if a != first["key"]
    )
    lost = self_test(page, tmp_path, 0, [at(KIND, first, [], wrong), [NOTATION_BUTTON]])
    assert lost["steps"][0]["missing"] == []
    assert lost["steps"][0]["state"] == "lost"
    assert lost["steps"][0]["message"].startswith("The sure path is lost")
    assert f"({wrong})" in lost["steps"][0]["message"]  # words, and the notation beside them
    assert lost["steps"][1]["missing"] == [NOTATION_BUTTON]  # no button in notation


def test_board_svg_shows_the_public_state():
    puzzle = PACK["puzzles"][-1]
    _, view = KIND.problem(puzzle)
    svg = board_svg(view)
    assert svg.startswith("<svg") and svg.count("<circle") == 2
    assert "Unseen:" in svg and "Discard:" in svg and f"pile: {view.pile_size} cards" in svg
    pending = Pending(view, view_actions(view)[0])
    assert "the adversary picks your draw" in board_svg(pending)
    assert "the adversary picks your draw" in board_text(pending)
