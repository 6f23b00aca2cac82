"""docs/motifs.md prints every motif of every catalogue with its detector's rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from fechtbuch.puzzles.battleklinge.motifs import CATALOGUE as BATTLEKLINGE
from fechtbuch.puzzles.touche_duell.motifs import CATALOGUE as DUEL
from fechtbuch.puzzles.touche_pyramiden.motifs import CATALOGUE as PYRAMIDS

DOC = (Path(__file__).parents[2] / "docs" / "motifs.md").read_text()


@pytest.mark.parametrize("catalogue", [BATTLEKLINGE, DUEL, PYRAMIDS], ids=lambda c: c.rules)
def test_every_motif_and_its_rule_is_in_the_doc(catalogue):
    for motif in catalogue.motifs:
        assert f"| {motif.name} |" in DOC and motif.rule in DOC, motif.name
