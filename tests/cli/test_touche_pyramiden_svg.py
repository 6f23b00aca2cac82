"""fechtbuch pyramiden render: the SVG parses and has every field, pyramid and crown."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.state import Config
from support.clirun import run

NS = "{http://www.w3.org/2000/svg}"


def test_render_state_and_view(tmp_path):
    state = rules.compose(
        Config(3, 3),
        Pattern.KORS,
        [
            ["2C", "6C", "7C", "KH", "9S"],
            ["AS", "3S", "5H", "8D", "QD"],
            ["4H", "4H", "5S", "5S", "JD"],
        ],
        pyramids={0: ["c2", "d2"], 1: ["k7"], 2: ["b6", "m3", "n2"]},
        crowned=["a1", "b1", "c1", "d1"],
    )
    for i, text in enumerate(
        [notation.format_state(state), notation.format_view(notation.view_of(state, 1))]
    ):
        out = tmp_path / f"b{i}.svg"
        result = run("pyramiden", "render", text, "-o", out)
        assert result.exit_code == 0, result.output
        root = ET.fromstring(out.read_text())
        assert root.tag == f"{NS}svg" and root.get("viewBox")
        classes = [e.get("class", "") for e in root.iter()]
        assert sum(c.startswith("field") for c in classes) == 112
        assert sum(c == "field free" for c in classes) == 8
        assert classes.count("pyramid team-1") == 2
        assert classes.count("pyramid team-2") == 1
        assert classes.count("pyramid team-3") == 3
        assert classes.count("crowned") == 4
        coords = [e.text for e in root.iter(f"{NS}text") if e.get("class") == "coord"]
        assert {"a", "n", "1", "8"} <= set(coords)
        texts = [e.text for e in root.iter(f"{NS}text")]
        assert "AS" in texts and "*" in texts
    assert run("pyramiden", "render", text, "-o", out).exit_code == 2  # exists, no --force


def test_top_level_render_draws_a_pyramid_position(tmp_path):
    """``fechtbuch render`` tells the games apart by their notation."""
    state = rules.new_game(Config(4, 2, 3, Pattern.KORS), "render")
    out = tmp_path / "p.svg"
    result = run("render", notation.format_state(state), "-o", out)
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    assert root.get("aria-label") == "Touché, kors"
    again = run("render", notation.format_state(state), "-o", out, "--move", "ausfall:c1c3")
    assert again.exit_code == 2 and "drawn without them" in again.output
    battle = run("render", "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "-o", "-")
    assert battle.exit_code == 0 and battle.output.startswith("<svg")


def test_pack_kind_is_registered_and_draws_states():
    from fechtbuch.puzzles.packkinds import kind_for

    kind = kind_for("touche-pyramiden")
    state = rules.compose(
        Config(2, 2, 3, Pattern.LINIE),
        Pattern.LINIE,
        [["2C", "6C", "7C", "KH", "9S"], ["AS", "3S", "5H", "8D", "QD"]],
        pyramids={0: ["c2", "d2", "e2"], 1: ["k7"]},
    )
    puzzle = {"position": notation.format_view(notation.view_of(state, 0)), "n": 2}
    problem, root = kind.problem(puzzle)
    text = kind.board_text(root, False)
    assert "[1]" in text and "Hand of seat 0" in text and "2C 6C 7C" in text
    assert ET.fromstring(kind.board_svg(root)).tag.endswith("svg")
    action, child = next(iter(problem.children(root)))
    assert "[1]" in kind.board_text(child, False)


def test_render_is_one_command_for_every_game():
    """``fechtbuch render``, ``fechtbuch battleklinge render`` and ``fechtbuch pyramiden
    render`` are one generic command; text in no game's notation is one error line."""
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    top = run("render", start, "-o", "-").output
    assert top == run("battleklinge", "render", start, "-o", "-").output
    assert top == run("render", start, "--game", "battleklinge", "-o", "-").output
    wrong_group = run("pyramiden", "render", start, "-o", "-")
    assert wrong_group.exit_code == 2 and "no notation of the games that draw" in wrong_group.output
    nowhere = run("render", "x y z", "-o", "-")
    assert nowhere.exit_code == 2 and nowhere.output.count("\n") == 1
    broken = run("render", "ssmss/5/5/5/SSMS g ausfall,volte bindung,stoss riposte", "-o", "-")
    assert broken.exit_code == 2 and "board: rank 1" in broken.output
