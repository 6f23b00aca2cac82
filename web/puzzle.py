"""Fechtübungen in the browser: one pack exercise of any game, on its solution tree.

The person plays the solver's side; the defence answers from the stored tree with
the longest defence (docs/solver.md's tie-breaks, :class:`PuzzleTree`), so no
engine is needed.  An action that is legal but not in the tree loses the sure path
where the tree holds every winning action (a full tree, or a pruned one before its
cut): the rulebook wants that said at once, so the exercise ends there as failed.
Past a pruned tree's cut the page has no exact judge at hand; such an action is
refused and the person may try another (the terminal's ``pack play`` judges it).
"Lösung" shows a key and marks the exercise as solved with help (yellow).

The shipped packs are found by the ``rules`` field of each file in ``data/packs``
and matched to the games of the registry, so a new game's pack appears here
without a line of this module changing.
"""

from __future__ import annotations

import importlib.resources as resources
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import plugin
from fechtbuch.puzzles.pack import PackTerms, SolutionMode, load_pack, pack_kind
from fechtbuch.puzzles.packkind import PackKind
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode
from fechtbuch.web.table import ActionRefused


@dataclass(frozen=True)
class ShippedPack:
    name: str
    """The file name without ``.json`` (the page's id of the pack)."""
    game: str
    """The registry slug of the pack's game."""
    ids: tuple[str, ...]
    """The exercises' ids, in the pack's order (the store keeps solved ones by id)."""
    path: str | None = None
    """A pack given to ``serve --pack`` (for example a ``db export`` of a query);
    ``None`` for a pack shipped in ``data/packs``."""

    @property
    def count(self) -> int:
        return len(self.ids)


@cache
def shipped_packs() -> tuple[ShippedPack, ...]:
    """Every pack in ``data/packs``, by file name (read, not yet validated: the menu
    needs only the game and the count, and validating every pack takes seconds)."""
    found = []
    for entry in sorted(data_file("packs").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            raw = orjson.loads(entry.read_bytes())
            name = entry.name[: -len(".json")]
            ids = tuple(str(puzzle.get("id", "")) for puzzle in raw["puzzles"])
            found.append(ShippedPack(name, plugin(raw["rules"]).slug, ids))
    return tuple(found)


def extra_pack(path: Path) -> ShippedPack:
    """A pack file given to ``serve --pack``, validated at once (a bad file is one line
    naming it before the server starts); read once, the exercises are played from
    the same cached pack."""
    pack = loaded_pack(path.stem, str(path))
    ids = tuple(str(puzzle.get("id", "")) for puzzle in pack["puzzles"])
    return ShippedPack(path.stem, plugin(pack["rules"]).slug, ids, str(path))


def available_packs(extra: tuple[ShippedPack, ...] = ()) -> tuple[ShippedPack, ...]:
    """The shipped packs, then the extra ones; an extra pack may not take a shipped
    pack's name (the store keeps solved exercises by pack name)."""
    shipped = shipped_packs()
    taken: dict[str, str | None] = {p.name: None for p in shipped}
    """Each name's pack file (None: shipped)."""
    for pack in extra:
        if pack.name in taken:
            earlier = taken[pack.name]
            if earlier is None:
                raise InputError(
                    f"--pack: {quote(pack.name)} is the name of a shipped pack; rename the file"
                )
            if Path(earlier).resolve() == Path(pack.path).resolve():
                raise InputError(f"--pack: {quote(pack.path)} is given twice")
            raise InputError(
                f"--pack: two packs named {quote(pack.name)} ({quote(earlier)} and "
                f"{quote(pack.path)}); rename one"
            )
        taken[pack.name] = pack.path
    return shipped + tuple(extra)


@cache
def loaded_pack(name: str, path: str | None = None) -> dict:
    """The pack ``name`` (shipped, or the file ``path``), validated as every pack
    command validates it."""
    if path is not None:
        return load_pack(Path(path))
    with resources.as_file(data_file("packs", f"{name}.json")) as shipped:
        return load_pack(shipped)


def find_pack(name: object, packs: tuple[ShippedPack, ...] | None = None) -> ShippedPack:
    packs = shipped_packs() if packs is None else packs
    for shipped in packs:
        if shipped.name == name:
            return shipped
    known = ", ".join(p.name for p in packs)
    raise InputError(f"pack: unknown pack {quote(name)}; known: {known}")


@dataclass(frozen=True)
class PuzzleStep:
    """A solver node the person acted at, for undo."""

    node: TreeNode
    played: int


@dataclass
class PuzzleTable:
    """One exercise being played (see the module docstring)."""

    pack_name: str
    game: str
    number: int
    puzzle: dict
    kind: PackKind
    pruned: bool
    tree: PuzzleTree = field(init=False)
    node: TreeNode = field(init=False)
    played: list[tuple[str, bool]] = field(default_factory=list)
    """(action text, by the defence) in order."""
    played_in: list[Any] = field(default_factory=list)
    """The state each of ``played`` was played in (the move list words it there)."""
    history: list[PuzzleStep] = field(default_factory=list)
    helped: bool = False
    lost: bool = False
    solved: bool = False
    message: str = ""

    def __post_init__(self) -> None:
        self.tree = PuzzleTree(self.kind, self.puzzle)
        self.node = self.tree.root
        self._defend()

    @property
    def finished(self) -> bool:
        return self.lost or self.solved

    @property
    def state(self) -> Any:
        return self.node.state

    def legal(self) -> dict[str, Any]:
        if self.finished or not self.tree.solver_to_act(self.node):
            return {}
        return {text: action for text, (action, _) in self.tree.legal(self.node).items()}

    def act(self, text: object) -> None:
        if not isinstance(text, str):
            raise ActionRefused(f"action: expected the action's notation as text, got {text!r:.80}")
        if self.finished:
            raise ActionRefused("action: the exercise is over", "error.exercise_over")
        if text not in self.legal():
            raise ActionRefused(f"action: {quote(text)} is not legal here", "error.illegal")
        after = self.tree.step(self.node, text)
        if after.tree is None and not after.is_leaf:
            past_cut = self.pruned and self.node.adversary_moves >= self.kind.full_defences
            if past_cut:
                raise ActionRefused(
                    f"action: {quote(text)} leaves the stored solution past its cut; "
                    "it is not judged here, try another (or 'pack play' in the terminal)",
                    "error.past_cut",
                )
            self.history.append(PuzzleStep(self.node, len(self.played)))
            self._record(text, False)
            self.node = after
            self.lost = True
            return
        self.history.append(PuzzleStep(self.node, len(self.played)))
        self._record(text, False)
        self.node = after
        self._defend()

    def _record(self, text: str, defence: bool) -> None:
        self.played.append((text, defence))
        self.played_in.append(self.node.state)

    def _defend(self) -> None:
        while not self.node.is_leaf and not self.tree.solver_to_act(self.node):
            reply = self.tree.longest_defence(self.node)
            self._record(reply, True)
            self.node = self.tree.step(self.node, reply)
        if self.node.is_leaf:
            self.solved = True

    def solution(self) -> str:
        if self.finished:
            raise ActionRefused("solution: the exercise is over", "error.exercise_over")
        self.helped = True
        return self.tree.best_action(self.node)

    def undo(self) -> None:
        if not self.history:
            raise ActionRefused("undo: there is no move of yours to take back", "error.undo")
        step = self.history.pop()
        self.node, self.played = step.node, self.played[: step.played]
        self.played_in = self.played_in[: step.played]
        self.lost = self.solved = False
        self.helped = True

    def turns_left(self) -> int:
        return self.tree.distance(self.node) if self.node.tree is not None else 0


def open_puzzle(
    pack_name: object, number: object, packs: tuple[ShippedPack, ...] | None = None
) -> PuzzleTable:
    """Exercise ``number`` (1-based) of the pack ``pack_name`` (of ``packs``: by default
    the shipped ones)."""
    shipped = find_pack(pack_name, packs)
    if type(number) is not int or not 1 <= number <= shipped.count:
        raise InputError(
            f"number: expected an exercise number 1..{shipped.count}, got {number!r:.40}"
        )
    pack = loaded_pack(shipped.name, shipped.path)
    puzzles = pack["puzzles"]
    if type(number) is not int or not 1 <= number <= len(puzzles):
        raise InputError(
            f"number: expected an exercise number 1..{len(puzzles)}, got {number!r:.40}"
        )
    terms = PackTerms.of(pack)
    return PuzzleTable(
        shipped.name,
        shipped.game,
        number,
        puzzles[number - 1],
        pack_kind(pack),
        pruned=terms.solution is SolutionMode.PRUNED,
    )
