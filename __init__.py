"""fechtbuch: exercise packs, proofs and play for three fencing games.

The repository root is this package (see pyproject.toml): ``fechtbuch.engines``
(rules, one package per game), ``fechtbuch.solver`` (proof search and
verification), ``fechtbuch.puzzles`` (mining, packs, daily duels),
``fechtbuch.cli`` (the command line) and ``fechtbuch.data`` (shipped data).
docs/architecture.md draws the layers.
"""

from fechtbuch.engines import __version__

__all__ = ["__version__"]
