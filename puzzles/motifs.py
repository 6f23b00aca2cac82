"""Motif catalogues: the named ideas of an exercise, one detector function per motif.

A game's catalogue is a :class:`MotifCatalogue`: an ordered table of
:class:`Motif` (a name a player would use and one small function that says yes or
no), and ``facts``, which turns a stored exercise (a pack puzzle or a mined
candidate, in the game's pack fields) into what the detectors read.  The rule of a
motif is its detector's docstring (:attr:`Motif.rule`), so the documentation prints
the same sentence the code obeys.

Catalogues carry a ``version``.  The tags stored in the shipped packs are those of
each game's version 1 (the tag functions mining used when they were made; ``pack
verify`` recomputes exactly those, so the shipped bytes stay valid).  A later
version may add motifs; new mining (the puzzle database) tags with the game's
current catalogue, named by its plugin's mining kind (``MiningKind.motifs``), and
records the version with the tags.

This module is generic: it imports no game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Detector = Callable[[Any], bool]


@dataclass(frozen=True)
class Motif:
    """One motif: its name (lower case, hyphenated, as stored in ``tags``) and the
    function that detects it from a game's facts of an exercise."""

    name: str
    detect: Detector

    @property
    def rule(self) -> str:
        """The detector's docstring as one paragraph: the motif's definition."""
        doc = inspect.getdoc(self.detect) or ""
        return " ".join(doc.split("\n\n")[0].split())


@dataclass(frozen=True)
class MotifCatalogue:
    """One game's motifs, in the order tags are listed, at one version."""

    rules: str
    version: int
    motifs: tuple[Motif, ...]
    facts: Callable[[dict], Any]
    """The facts the detectors read, from a stored exercise (pack fields)."""

    def __post_init__(self) -> None:
        names = [m.name for m in self.motifs]
        if len(set(names)) != len(names):
            raise ValueError(f"motifs: duplicate names in {self.rules} v{self.version}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.motifs)

    def motif(self, name: str) -> Motif:
        for m in self.motifs:
            if m.name == name:
                return m
        raise KeyError(name)

    def tags_of_facts(self, facts: Any) -> list[str]:
        """The names of every motif whose detector says yes, in catalogue order."""
        return [m.name for m in self.motifs if m.detect(facts)]

    def tags(self, puzzle: dict) -> list[str]:
        """The tags of a stored exercise by this catalogue."""
        return self.tags_of_facts(self.facts(puzzle))

    def table(self) -> list[dict[str, str]]:
        """Name and rule of every motif, for documentation and ``--json``."""
        return [{"name": m.name, "rule": m.rule} for m in self.motifs]


def catalogue_of(
    rules: str, version: int, facts: Callable[[dict], Any], detectors: dict[str, Detector]
) -> MotifCatalogue:
    """A catalogue from a table of names and detector functions (in tag order)."""
    motifs = tuple(Motif(name, fn) for name, fn in detectors.items())
    return MotifCatalogue(rules, version, motifs, facts)
