"""The pack viewer page: self-contained, and driven in headless Chromium like a person.

The page runs a scripted check when its URL carries ``#selftest=...`` (clicks on
squares and buttons through DOM events) or ``#rulestest=...`` (its JavaScript
move generator on given positions); Chromium's ``--dump-dom`` hands back the
result.  Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.sampling import random_game
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.v1page import pack_html
from fechtbuch.puzzles.pagekit import texts_of
from fechtbuch.solver.battleklinge.api import solve
from support.browser import run_page, self_test
from support.pack_fixture import make_pack
from support.pack_words import battleklinge, fill, m

ENGLISH = {
    **texts_of("fechtbuch.puzzles")["en"],
    **texts_of("fechtbuch.puzzles.battleklinge")["en"],
}


def worded(pos: Position, text: str) -> str:
    """The person's move ``text`` at ``pos`` as the English page says it: in words, its
    notation beside them."""
    words = battleklinge(pos, Move.from_text(text), True)
    return fill(ENGLISH, m("pp.action", words=words, text=text))


@pytest.fixture(scope="module")
def pack():
    return make_pack()


@pytest.fixture(scope="module")
def page_file(pack, tmp_path_factory):
    path = tmp_path_factory.mktemp("viewer") / "pack.html"
    path.write_text(pack_html(pack, "en"), encoding="utf-8")
    return path


SHIPPED_PACK = data_path("packs", "fechtuebungen.json")


def attacker_moves(line: list[str]) -> list[str]:
    return line[0::2]


# ---- without a browser ----------------------------------------------------------


def test_page_is_self_contained(pack):
    page = pack_html(pack)
    assert page.startswith("<!DOCTYPE html>")
    assert set(re.findall(r"https?://[\w./-]+", page)) == {"http://www.w3.org/2000/svg"}
    assert "<link" not in page and "src=" not in page and "@import" not in page
    assert page.count("<svg") == len(pack["puzzles"])  # one diagram per puzzle, as JSON text


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda p: p.update(format="other"), "field 'format' must be 'fechtbuch-pack'"),
        (lambda p: p["puzzles"][1].pop("solution"), "puzzle 2: missing field 'solution'"),
        (lambda p: p["puzzles"][0].update(position="x"), "expected 5 fields"),
        (lambda p: p["puzzles"][0].update(attacker="b"), "field 'attacker' is 'b'"),
        (lambda p: p["puzzles"][2].update(line=["volte:a1b2"]), "field 'line' must start"),
        (
            lambda p: p["puzzles"][0]["solution"].update({"ausfall:z9a1": "hit"}),
            "(p-b0cf0bcc68a0): solution: move: bad square in 'ausfall:z9a1'",
        ),
    ],
)
def test_bad_packs_name_the_field(pack, change, fragment):
    broken = json.loads(json.dumps(pack))
    change(broken)
    with pytest.raises(InputError, match=re.escape(fragment)):
        pack_html(broken)


def test_pack_commands(pack, tmp_path):
    source = tmp_path / "pack.json"
    source.write_bytes(dump_json(pack))
    out = tmp_path / "pack.html"
    result = CliRunner().invoke(cli.main, ["pack", "html", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == pack_html(pack)
    again = CliRunner().invoke(cli.main, ["pack", "html", str(source), "-o", str(out)])
    assert again.exit_code == 2 and "exists; use --force" in again.output
    missing = CliRunner().invoke(cli.main, ["pack", "html", str(tmp_path / "no.json"), "-o", "x"])
    assert missing.exit_code == 2 and "pack: no such file" in missing.output
    result = CliRunner().invoke(
        cli.main, ["pack", "svg", str(source), "-d", str(tmp_path / "img"), "--count", "2"]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "img").iterdir()) == [
        "puzzle-2-01.svg",
        "puzzle-2-02.svg",
    ]


def test_fixture_pack_is_real(pack):
    """The fixture's trees come from the reference; check the claims the tests rely on,
    and that the solver (df-pn) gives the same trees and main lines."""
    for puzzle in pack["puzzles"]:
        pos = Position.from_text(puzzle["position"])
        n = puzzle["n"]
        assert reference.hit_within(pos, n) and not reference.hit_within(pos, n - 1)
        solved = solve(pos, max_n=n)
        assert solved.distance == n and solved.tree().to_json() == puzzle["solution"]
        assert [m.to_text() for m in solved.main_line] == puzzle["line"]
        assert list(puzzle["solution"]) == [puzzle["key"]]
        node = puzzle["solution"]
        for i, text in enumerate(puzzle["line"]):
            pos = reference.play(pos, Move.from_text(text))
            node = node[text]
            if i % 2 == 0 and node == "hit":
                assert pos.winner() == "gb".index(puzzle["attacker"])
                assert i == len(puzzle["line"]) - 1


# ---- in Chromium --------------------------------------------------------------------


def test_rules_in_javascript_match_the_reference(page_file, tmp_path, pass_positions):
    rng = random.Random(5)
    positions = []
    while len(positions) < 40:
        game = random_game(rng, max_plies=40)
        positions += [game[0], game[len(game) // 2], game[-1]]  # start, middle, often decided
    # Re-parsed: the pass fixture builds some hands out of canonical order.
    positions += [Position.from_text(p.to_text()) for p in pass_positions[:4]]
    texts = [p.to_text() for p in positions]
    assert any(p.winner() is not None for p in positions)
    out, _ = run_page(page_file, tmp_path, "rulestest=" + json.dumps(texts), "--dump-dom")
    match = re.search(r'<pre id="rulestest-result" hidden="">(.*?)</pre>', out, re.S)
    result = json.loads(match.group(1))
    assert result["errors"] == []
    for pos, got in zip(positions, result["value"], strict=True):
        moves = reference.legal_moves(pos)
        assert got["position"] == pos.to_text()
        assert got["winner"] == pos.winner()
        assert got["moves"] == [m.to_text() for m in moves]
        assert got["children"] == [reference.play(pos, m).to_text() for m in moves]


@pytest.fixture(scope="module")
def main_lines(pack, page_file, tmp_path_factory):
    """Each fixture puzzle solved by clicking its main line, all in one page load (each
    spec starts by clicking its puzzle's row): one Chromium instead of one per puzzle."""
    specs = [
        {"puzzle": index, "actions": attacker_moves(puzzle["line"])}
        for index, puzzle in enumerate(pack["puzzles"])
    ]
    return self_test(page_file, tmp_path_factory.mktemp("main-lines"), specs)


@pytest.mark.parametrize("index", range(5))
def test_clicking_the_main_line_solves_each_puzzle(pack, main_lines, index):
    line = pack["puzzles"][index]["line"]
    result = main_lines[index]
    assert len(main_lines) == len(pack["puzzles"]) == 5
    assert result["final"] == "solved", result
    assert result["history"] == line  # the computer replied along the main line
    assert [s["state"] for s in result["steps"]] == ["good"] * (len(line) // 2) + ["solved"]
    assert "solved" in result["row"]


def test_choice_between_two_cards_is_offered(main_lines):
    """Puzzle 4's second move: both Gold cards reach b2 from c1; the page asks which."""
    result = main_lines[3]
    assert result["steps"][0]["choices"] == []
    assert result["steps"][1]["choices"] == ["riposte:c1b2", "bindung:c1b2"]
    assert result["final"] == "solved" and result["history"][-1] == "bindung:c1b2"


def test_a_wrong_move_loses_the_sure_path_and_take_back_recovers(pack, page_file, tmp_path):
    puzzle = pack["puzzles"][0]
    pos = Position.from_text(puzzle["position"])
    wrong = next(
        m.to_text() for m in reference.legal_moves(pos) if m.to_text() not in puzzle["solution"]
    )
    actions = [wrong, "takeback", *attacker_moves(puzzle["line"])]
    result = self_test(page_file, tmp_path, 0, actions)
    first = result["steps"][0]
    assert first["state"] == "lost"
    lost = f"The sure path is lost: {worded(pos, wrong)} does not force the hit within 2 moves"
    assert lost in first["message"]
    assert result["steps"][1]["state"] == "play"
    assert result["final"] == "solved" and result["history"] == puzzle["line"]


def test_a_wrong_second_move_in_a_hit_in_3(pack, page_file, tmp_path):
    puzzle = pack["puzzles"][4]
    line = puzzle["line"]
    after_reply = Position.from_text(puzzle["position"])
    for text in line[:2]:
        after_reply = reference.play(after_reply, Move.from_text(text))
    node = puzzle["solution"][line[0]][line[1]]
    wrong = next(m.to_text() for m in reference.legal_moves(after_reply) if m.to_text() not in node)
    result = self_test(page_file, tmp_path, 4, [line[0], wrong])
    assert [s["state"] for s in result["steps"]] == ["good", "lost"]
    assert "within 2 moves" in result["steps"][1]["message"]
    assert "failed" in result["row"]


def test_main_line_button_steps_to_the_hit(pack, page_file, tmp_path):
    puzzle = pack["puzzles"][4]
    line = puzzle["line"]
    result = self_test(page_file, tmp_path, 4, ["step"] * len(line) + ["hint"])
    assert result["history"] == line
    assert [s["state"] for s in result["steps"][:-1]] == ["line"] * len(line)
    last = Position.from_text(puzzle["position"])
    for text in line[:-1]:
        last = reference.play(last, Move.from_text(text))
    assert result["steps"][len(line) - 1]["message"].endswith(f"{worded(last, line[-1])}. Hit.")
    assert result["steps"][-1]["solution"] == "Main line: " + " ".join(line)


def test_hint_names_the_keys(pack, page_file, tmp_path):
    puzzle = pack["puzzles"][1]
    result = self_test(page_file, tmp_path, 1, ["hint", *attacker_moves(puzzle["line"])])
    assert result["steps"][0]["solution"] == "Winning here: " + puzzle["key"]
    assert result["final"] == "solved" and "(with help)" in result["message"]


def test_screenshot(pack, page_file, tmp_path):
    shot = tmp_path / "viewer.png"
    line = pack["puzzles"][3]["line"]
    run_page(
        page_file,
        tmp_path,
        # After the key and the reply, Gold's master selected: b2 is reachable with both cards.
        "selftest=" + json.dumps({"puzzle": 3, "actions": [line[0], "click:c1"]}),
        "--window-size=1100,760",
        f"--screenshot={shot}",
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_every_shipped_puzzle_is_solved_by_clicking_its_main_line(tmp_path):
    """All 48 exercises of data/packs/fechtuebungen.json in one page load: the page
    accepts each key and finish, and the computer's replies follow the pack's line."""
    pack = json.loads(SHIPPED_PACK.read_text(encoding="utf-8"))
    page = tmp_path / "fechtuebungen.html"
    page.write_text(pack_html(pack, "en"), encoding="utf-8")
    specs = [
        {"puzzle": i, "actions": attacker_moves(p["line"])} for i, p in enumerate(pack["puzzles"])
    ]
    results = self_test(page, tmp_path, specs, budget_ms=600_000)
    assert len(results) == len(pack["puzzles"]) == 48
    for puzzle, result in zip(pack["puzzles"], results, strict=True):
        assert result["final"] == "solved", (puzzle["id"], result)
        assert result["history"] == puzzle["line"], puzzle["id"]
