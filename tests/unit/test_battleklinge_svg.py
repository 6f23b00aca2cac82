"""SVG diagrams: valid XML, the right pieces, cards oriented for their holders, the arrow."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge.cards import CARDS, COLOR_CHARS
from fechtbuch.engines.battleklinge.position import (
    START_EINSTEIGER,
    IllegalMoveError,
    Move,
    Position,
    iter_squares,
)
from fechtbuch.engines.battleklinge.sampling import random_placement
from fechtbuch.engines.battleklinge.svg import CELL, render_svg, square_centre
from hypothesis import given, settings
from hypothesis import strategies as st

NS = {"s": "http://www.w3.org/2000/svg"}
SAMPLE = "s1m1s/1s3/2S2/1M1s1/S3S b ausfall,volte bindung,stoss riposte"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def pieces(root: ET.Element) -> dict[int, str]:
    """Square -> symbol id ('piece-g-m', ...) of every drawn piece."""
    out = {}
    for use in root.iterfind(".//s:g[@class='pieces']/s:use", NS):
        assert use.get("class") == "piece"
        out[int(use.get("data-sq"))] = use.get("href").lstrip("#")
    return out


def screen_targets(card: ET.Element) -> set[tuple[int, int]]:
    """The card's targets as (right, up) steps on the drawing, rotation applied."""
    grid = card.find("s:g[@class='grid']", NS)
    centre_x, centre_y = float(grid.get("data-cx")), float(grid.get("data-cy"))
    rotated = grid.get("transform", "").startswith("rotate(180")
    steps = set()
    for rect in grid.iterfind("s:rect[@class='target']", NS):
        x = float(rect.get("x")) + (CELL - 1) / 2
        y = float(rect.get("y")) + (CELL - 1) / 2
        right, up = round((x - centre_x) / CELL), round((centre_y - y) / CELL)
        steps.add((-right, -up) if rotated else (right, up))
    return steps


def test_start_position_elements():
    pos = Position.from_text(START_EINSTEIGER)
    root = parse(render_svg(pos, Move.from_text("ausfall:c1c3")))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    drawn = pieces(root)
    assert len(drawn) == 10
    assert drawn[2] == "piece-g-m" and drawn[22] == "piece-b-m"
    assert sorted(sq for sq, kind in drawn.items() if kind == "piece-g-s") == [0, 1, 3, 4]
    assert len(root.findall(".//s:rect[@class='sq']", NS)) == 25
    names = [t.text for t in root.iterfind(".//s:text[@class='card-name']", NS)]
    assert sorted(names) == sorted(["Ausfall", "Volte", "Bindung", "Stoß", "Riposte"])
    banners = root.findall(".//s:g[@class='banner']", NS)
    assert {b.get("data-owner") for b in banners} == {"g", "b"}
    coords = [t.text for t in root.iterfind(".//s:text[@class='coord']", NS)]
    assert sorted(coords) == sorted("abcde12345")
    (arrow,) = root.findall(".//s:line[@class='arrow']", NS)
    # From c1's centre toward c3's (the head stops short of the centre).
    assert (float(arrow.get("x1")), float(arrow.get("y1"))) == square_centre(2, 0)
    assert float(arrow.get("x2")) == square_centre(12, 0)[0]
    assert square_centre(12, 0)[1] < float(arrow.get("y2")) < square_centre(7, 0)[1]
    assert "Gold to move: ausfall:c1c3." in root.find(".//s:text[@class='caption']", NS).text
    used = root.find(".//s:g[@data-card='ausfall']/s:rect[@class='card-face']", NS)
    assert used.get("stroke-width") == "3.5"


def test_no_arrow_without_move_and_pass_is_captioned():
    root = parse(render_svg(Position.from_text(SAMPLE)))
    assert root.findall(".//s:line[@class='arrow']", NS) == []
    passing = Position.from_text("SSSSM/5/5/3m1/5 g stoss,traverse ausfall,volte riposte")
    root = parse(render_svg(passing, Move.from_text("stoss:pass")))
    assert root.findall(".//s:line[@class='arrow']", NS) == []
    assert "passes with Stoß" in root.find(".//s:text[@class='caption']", NS).text


def test_flip_and_blau_to_move_put_blau_at_the_bottom():
    blau = Position.from_text(SAMPLE)
    assert parse(render_svg(blau)).get("data-bottom") == "b"
    assert parse(render_svg(blau, flip=True)).get("data-bottom") == "g"
    root = parse(render_svg(blau))
    labels = {
        t.get("data-row"): t.text for t in root.iterfind(".//s:text[@class='hand-label']", NS)
    }
    assert labels == {
        "top": "Gold's hand",
        "bottom": "Blau's hand",
        "side": "Side card (to Blau)",
    }
    # a1 is at the top right when Blau sits at the bottom.
    a1 = root.find(".//s:rect[@data-sq='0']", NS)
    e5 = root.find(".//s:rect[@data-sq='24']", NS)
    assert float(a1.get("x")) > float(e5.get("x")) and float(a1.get("y")) < float(e5.get("y"))


def test_illegal_move_is_refused():
    with pytest.raises(IllegalMoveError, match="'ausfall:c1c2' is not legal"):
        render_svg(Position.from_text(START_EINSTEIGER), Move.from_text("ausfall:c1c2"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_any_position_draws_its_pieces_and_orients_every_card(seed, flip):
    pos = random_placement(random.Random(seed))
    root = parse(render_svg(pos, flip=flip))
    bottom = pos.turn if not flip else 1 - pos.turn
    assert root.get("data-bottom") == COLOR_CHARS[bottom]
    expected = {}
    for color in (0, 1):
        for sq in iter_squares(pos.students[color]):
            expected[sq] = f"piece-{COLOR_CHARS[color]}-s"
        for sq in iter_squares(pos.masters[color]):
            expected[sq] = f"piece-{COLOR_CHARS[color]}-m"
    assert pieces(root) == expected
    for use in root.iterfind(".//s:use[@class='piece']", NS):
        cx, cy = square_centre(int(use.get("data-sq")), bottom)
        assert (float(use.get("x")) + 32, float(use.get("y")) + 32) == (cx, cy)
    holders = {pos.side: pos.turn}
    for color in (0, 1):
        for card in pos.hands[color]:
            holders[card] = color
    cards = root.findall(".//s:g[@class='card']", NS)
    assert len(cards) == 5
    for element in cards:
        card = next(i for i, spec in enumerate(CARDS) if spec.id == element.get("data-card"))
        slot = element.get("data-slot")
        holder = holders[card]
        if slot != "side":
            assert (slot.startswith("bottom")) == (holder == bottom)
        # The holder's "forward" points up for the bottom school, down for the top.
        sign = 1 if holder == bottom else -1
        assert screen_targets(element) == {(sign * dx, sign * dy) for dx, dy in CARDS[card].offsets}


def test_render_command_writes_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "d.svg"
    args = ["render", START_EINSTEIGER, "--move", "ausfall:c1c3", "-o", str(out)]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0 and out.exists()
    assert len(pieces(parse(out.read_text()))) == 10
    again = CliRunner().invoke(cli.main, args)
    assert again.exit_code == 2 and "exists; use --force" in again.output
    assert CliRunner().invoke(cli.main, [*args, "--force"]).exit_code == 0
    bad = CliRunner().invoke(
        cli.main,
        ["render", START_EINSTEIGER, "--move", "ausfall:c1c2", "-o", str(tmp_path / "x.svg")],
    )
    assert (
        bad.exit_code == 2 and "fechtbuch: error: move: 'ausfall:c1c2' is not legal" in bad.output
    )
    assert not (tmp_path / "x.svg").exists()


def test_readme_diagrams_are_current(tmp_path):
    """The README's diagrams are what `fechtbuch pack svg` makes of the shipped pack now."""
    from pathlib import Path

    root_dir = Path(__file__).parents[2]
    readme = (root_dir / "README.md").read_text(encoding="utf-8")
    pack = str(root_dir / "data" / "packs" / "fechtuebungen.json")
    args = ["pack", "svg", pack, "-d", str(tmp_path), "--only", "1", "--only", "25"]
    assert CliRunner().invoke(cli.main, args).exit_code == 0
    for name, n in (("puzzle-2-01.svg", 2), ("puzzle-3-25.svg", 3)):
        assert f"docs/img/{name}" in readme
        committed = (root_dir / "docs" / "img" / name).read_text(encoding="utf-8")
        assert committed == (tmp_path / name).read_text(encoding="utf-8"), f"regenerate {name}"
        root = parse(committed)
        assert len(root.findall(".//s:rect[@class='sq']", NS)) == 25
        assert len(root.findall(".//s:g[@class='card']", NS)) == 5
        assert f"hit in {n}" in root.find(".//s:text[@class='caption']", NS).text


def test_render_to_standard_output():
    from click.testing import CliRunner
    from fechtbuch import cli

    result = CliRunner().invoke(
        cli.main, ["render", "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "-o", "-"]
    )
    assert result.exit_code == 0 and result.output.startswith("<svg")
