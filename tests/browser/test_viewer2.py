"""The version-2 pack page (puzzles/packpage.py), driven in headless Chromium like a person.

The pack: three shipped Battleklinge exercises rewritten as version 2, so the
page's precomputed nodes can be checked against the main lines the verifier wrote.
The person plays on the board (a piece's square, its target, the card when both
reach it: tests/support/pack_clicks.py); the page offers no buttons in notation.
"""

from __future__ import annotations

import copy
import re

import orjson
import pytest
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.pack import PackOrder, SolutionMode, build_pack_v2
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.pagekit import texts_of
from support.browser import self_test
from support.clirun import run
from support.pack_clicks import at, line_clicks
from support.pack_fixture import cut_third_attacker_move

SHIPPED = orjson.loads(data_path("packs", "fechtuebungen.json").read_bytes())
CHOSEN = [SHIPPED["puzzles"][0], next(p for p in SHIPPED["puzzles"] if p["n"] == 3)]


@pytest.fixture(scope="module")
def pack() -> dict:
    return build_pack_v2(
        KIND,
        copy.deepcopy(CHOSEN),
        seed=1,
        command="tests/browser/test_viewer2.py",
        max_n=3,
        order=PackOrder.DEEPEST_FIRST,
    )


@pytest.fixture(scope="module")
def page_file(pack, tmp_path_factory):
    path = tmp_path_factory.mktemp("viewer2") / "pack.html"
    path.write_text(pack2_html(pack, lang="en"), encoding="utf-8")
    return path


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="fb-data">(.*?)</script>', page, re.S)
    return orjson.loads(match.group(1).replace("<\\/", "</"))


def off_tree(puzzle: dict) -> str:
    pos = Position.from_text(puzzle["position"])
    return next(m.to_text() for m in reference.legal_moves(pos) if m.to_text() != puzzle["key"])


WORDS = texts_of("fechtbuch.puzzles.battleklinge")["en"]


def worded(text: str) -> str:
    """A move as the English page words it, its notation beside the words."""
    move = Move.from_text(text)
    card = WORDS["pp.bk.card." + text.split(":")[0]]
    squares = text.split(":")[1]
    if move.is_pass:
        return f"pass {card} on ({text})"
    return f"{card} {squares[:2]}–{squares[2:]} ({text})"


def played_on_the_board(result: dict, actions: set[str]) -> None:
    """Every step was clicked on the board: nothing was missing, and the page offered
    no button in notation (only worded choices, such as a card's name)."""
    for step in result["steps"]:
        assert step["missing"] == [], step
        assert not set(step["choices"]) & actions, step


# ---- without a browser ----------------------------------------------------------


def test_page_is_self_contained_and_follows_the_main_line(pack):
    page = pack2_html(pack)
    assert page.startswith("<!DOCTYPE html>")
    assert set(re.findall(r"https?://[\w./-]+", page)) == {"http://www.w3.org/2000/svg"}
    assert "<link" not in page and "src=" not in page and "@import" not in page
    data = page_data(page)
    for shown, puzzle in zip(data["puzzles"], pack["puzzles"], strict=True):
        nodes = shown["nodes"]
        root = nodes[0]
        pos = Position.from_text(puzzle["position"])
        assert [a["text"] for a in root["actions"]] == sorted(
            m.to_text() for m in reference.legal_moves(pos)
        )
        assert root["best"] == puzzle["key"] and root["turns"] == puzzle["n"]
        # the stored answers are the main line's defences
        node, line = root, []
        while "leaf" not in node:
            if "reply" in node:
                line.append(node["reply"])
                node = nodes[node["to"]]
                continue
            line.append(node["best"])
            node = nodes[next(a["to"] for a in node["actions"] if a["text"] == node["best"])]
        assert line == puzzle["line"] and node["leaf"] == "hit"
        assert all("<svg" in n["svg"] for n in nodes)


def test_pack_html_dispatches_by_version(pack, tmp_path):
    source = tmp_path / "v2.json"
    source.write_bytes(dump_json(pack))
    out = tmp_path / "v2.html"
    result = run("pack", "html", source, "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == pack2_html(pack)
    result = run("pack", "svg", source, "-d", tmp_path / "img")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "img").iterdir()) == [
        "puzzle-2-02.svg",
        "puzzle-3-01.svg",
    ]


# ---- in Chromium --------------------------------------------------------------------


def test_solving_with_the_main_line(pack, page_file, tmp_path):
    deep = pack["puzzles"][0]
    result = self_test(page_file, tmp_path, 0, line_clicks(KIND, deep))
    assert result["final"] == "solved" and result["message"] == "Solved: hit."
    assert result["moves"] == deep["line"] and "solved" in result["row"] and result["svg"]
    legal = {m.to_text() for m in reference.legal_moves(Position.from_text(deep["position"]))}
    played_on_the_board(result, legal | set(deep["line"]))


def test_the_page_offers_every_legal_move_on_the_board_and_no_notation(pack, page_file):
    """Each legal action of a decision point carries the parts its clicks need (the
    piece's square, the target, the card), and the page's scripts have the board's
    click-mapper; no button is labelled with notation."""
    html = page_file.read_text(encoding="utf-8")
    assert "window.fbPlay" in html
    root = page_data(html)["puzzles"][0]["nodes"][0]
    pos = Position.from_text(pack["puzzles"][0]["position"])
    for action in root["actions"]:
        move = Move.from_text(action["text"])
        assert action["parts"]["card"] == action["text"].split(":")[0]
        assert (action["parts"].get("from"), action["parts"].get("to")) == (
            move.from_sq,
            move.to_sq,
        )
    assert len(root["actions"]) == len(reference.legal_moves(pos))


def test_wrong_action_hint_and_take_back(pack, page_file, tmp_path):
    deep = pack["puzzles"][0]
    wrong = off_tree(deep)
    key = at(KIND, deep, [], deep["key"])
    actions = [
        at(KIND, deep, [], wrong),
        "@hint",
        key,
        "@takeback",
        key,
        *line_clicks(KIND, deep)[1:],
    ]
    result = self_test(page_file, tmp_path, 0, actions)
    lost, hinted = result["steps"][0], result["steps"][1]
    assert lost["state"] == "lost" and lost["message"].startswith(
        f"The sure path is lost: after {worded(wrong)} the defence"
    )
    assert hinted["message"] == f"A key: {worded(deep['key'])}"
    assert result["final"] == "solved" and result["message"] == "Solved with help: hit."
    assert result["moves"] == deep["line"]
    # the defence answered after the take-back as before: the longest one
    assert result["steps"][3]["state"] == "play"
    played_on_the_board(result, {wrong, *deep["line"]})


def test_pruned_pack_embeds_exact_verdicts_past_the_cut(pack, tmp_path):
    """Past the cut of a pruned tree every other legal action carries its exact verdict
    (computed by pack html): a hit is accepted as correct, anything else refused as lost."""
    pruned = copy.deepcopy(pack)
    pruned["solution"] = SolutionMode.PRUNED.value
    deep = pruned["puzzles"][0]
    keep, _ = cut_third_attacker_move(deep)
    html = pack2_html(pruned, lang="en")
    page = tmp_path / "pruned.html"
    page.write_text(html, encoding="utf-8")
    nodes = page_data(html)["puzzles"][0]["nodes"]
    cut = next(n for n in nodes if n.get("stored_only"))
    pos = Position.from_text(deep["position"])
    for text in deep["line"][:4]:
        pos = reference.play(pos, Move.from_text(text))
    verdicts = {a["text"]: a.get("verdict") for a in cut["actions"] if a["to"] is None}
    hits = {
        m.to_text()
        for m in reference.legal_moves(pos)
        if reference.play(pos, m).winner() == pos.turn and m.to_text() != keep
    }
    assert verdicts == {t: ("keeps" if t in hits else "loses") for t in verdicts}
    said = '{"key":"pp.fact.verdicts"'  # the subtitle's count of the verdicts (#fb-shell)
    assert said in html
    plain = pack2_html(pruned, verdicts=False, lang="en")  # pack html --no-verdicts
    assert '"verdict"' not in plain and said not in plain and len(plain) < len(html)
    losing = next(t for t, v in verdicts.items() if v == "loses")
    before = deep["line"][:4]
    steps = [
        *line_clicks(KIND, deep, before),
        *(at(KIND, deep, before, text) for text in [losing, *sorted(hits)[:1], keep]),
    ]
    result = self_test(page, tmp_path, 0, steps)
    lost = result["steps"][2]
    assert lost["state"] == "lost" and lost["message"].startswith(
        f"Exact: The sure path is lost: after {worded(losing)} the defence"
    )
    if hits:
        also = result["steps"][3]
        assert also["state"] == "good" and also["message"].startswith(
            f"Correct: {worded(sorted(hits)[0])} also keeps the win within 1 own turn "
        )
    assert result["final"] == "solved"
    played_on_the_board(result, set(verdicts) | {keep, *deep["line"]})
