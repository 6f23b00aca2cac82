"""Every game's mining kind names its current motif catalogue, and it tags the
game's shipped exercises (the seam the puzzle database mines through)."""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import plugins
from fechtbuch.puzzles.pack import load_pack
from support.clirun import run

SHIPPED = {
    "battleklinge": "fechtuebungen.json",
    "touche-duell": "touche-uebungen.json",
    "touche-pyramiden": "pyramiden-uebungen.json",
}


@pytest.mark.parametrize("plugin", plugins(), ids=lambda p: p.slug)
def test_the_mining_kind_tags_with_the_current_catalogue(plugin):
    kind = load(plugin.mining_kind)
    assert kind.motifs is not None and kind.motifs.rules == plugin.slug
    assert kind.motifs.version == 2
    puzzles = load_pack(data_path("packs", SHIPPED[plugin.slug]))["puzzles"][:3]
    for puzzle in puzzles:
        version, tags = kind.motif_tags(puzzle)
        assert version == 2 and set(puzzle["tags"]) <= set(tags) <= set(kind.motifs.names)


def test_pack_motifs_marks_the_new_motifs():
    result = run("pack", "motifs", "fechtuebungen", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["version"] == 2 and len(out["catalogue"]) >= 16
    first = out["puzzles"][0]
    assert set(first["stored"]) < set(first["tags"])  # #1 has new motifs (banner-run, ...)
    assert out["counts"]["received-card"] == 32
    text = run("pack", "motifs", "fechtuebungen").output
    assert "+banner-run" in text and "banner-reached" in text
