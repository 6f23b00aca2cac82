"""What a game supplies so that its exercises live in the one pack format.

The pack format (docs/puzzles.md, "Pack format") is the same for every game: an
envelope (``format``, ``version``, ``rules``, ``generator``, ``seed``,
``command``, ``puzzles``) and puzzles with ``id``, ``n``, ``position``, ``key``,
``line``, ``solution``, ``tags``, ``difficulty`` (plus fields of the game's own,
declared in its schema).  The ``solution`` is the whole solution tree of the
game's AND/OR problem: nested objects from action text to the next node; at the
solver's nodes every action that keeps the win, at the adversary's nodes every
reply (hidden choices included); a leaf is a string naming the rule that decides
(``"hit"`` in Battleklinge, ``"win:<tag>"`` in the Touché games).  Whose node it is
follows from the problem's state (``AndOrProblem.attacker_to_act``), so nodes of
one side may follow each other (a parry, then the riposte).

A game plugs in with one :class:`PackKind` (registered in
:mod:`fechtbuch.puzzles.packkinds`); the generic code (``pack verify``, ``pack
show``, the HTML viewer for version-2 packs, the terminal loop that plays a pack
puzzle) reads packs only through it.  This module imports no game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import orjson
from fechtbuch.engines.game import AndOrProblem, Verdict

__all__ = ["Judge", "Judgement", "PackKind", "Puzzle", "Verdict", "Version1Views", "tree_child"]

Puzzle = dict[str, Any]
"""One puzzle of a pack as read from JSON (validated by the schema before any kind sees it)."""


@dataclass(frozen=True)
class Judgement:
    """An exact answer of :attr:`PackKind.judge` for one action."""

    verdict: Verdict
    source: str
    """Who answered, for messages: "df-pn", "the endgame tables", "the AND/OR prover"."""
    line: tuple[str, ...] = ()
    """With ``KEEPS``: the main line after the action (the adversary's longest defence,
    the solver's fastest finish, ... to the decision, ties by action text); empty when
    the action decides at once or the judge knows the verdict but not the line."""
    note: str = ""
    """With ``UNKNOWN``: which limit was reached."""


Judge = Callable[[AndOrProblem, Any, Any, int, int], Judgement]
"""``judge(problem, state, action, turns, max_nodes)``: at the solver's ``state`` of
``problem`` with ``turns`` own turns left, does ``action`` keep a sure win within them?
Exact or ``UNKNOWN`` when ``max_nodes`` (or another limit of the judge) is reached;
never a wrong claim."""

JUDGE_NODES = 2_000_000
"""The terminal's node limit per judgement (seconds for every shipped pruned pack)."""


@dataclass(frozen=True)
class Version1Views:
    """What a game whose packs use the version-1 format (Battleklinge's) supplies for
    them: ``check(pack)`` (a one-line ``InputError`` for a pack the page cannot show),
    ``page(pack, lang)`` (its own HTML page, in the language ``lang`` at first: ``"de"``,
    ``"en"`` or ``None``, the browser's) and ``diagram(puzzle, number, key)`` (one
    puzzle's SVG with its caption, the key's arrow if ``key``)."""

    check: Callable[[dict], None]
    page: Callable[[dict, str | None], str]
    diagram: Callable[[Puzzle, int, bool], str]


@dataclass(frozen=True)
class PackKind:
    """One game's part of the pack pipeline.

    ``rules`` is the value of the pack's ``rules`` field.  ``version`` is the pack
    format version the game writes (Battleklinge's shipped packs stay version 1,
    byte for byte; every other game writes version 2).  ``max_n`` bounds the N a
    puzzle may claim, so verifying any valid pack is bounded before a search starts.
    """

    rules: str
    title: str
    version: int
    max_n: int
    verify_puzzle: Callable[[Puzzle, int], list[str]]
    """Re-prove one puzzle and re-derive every derived field (``id``, ``n``, ``key``,
    ``line``, ``solution``, ``tags``, ``difficulty``, the game's own fields) with the
    independent verifier; one line per problem, each starting with the field name."""
    duplicate_class: Callable[[Puzzle], Hashable]
    """Equal for two puzzles that are the same exercise (up to the game's symmetry);
    ``None`` for a puzzle that has no class (unreadable: its verification says so)."""
    problem: Callable[[Puzzle], tuple[AndOrProblem, Any]]
    """The puzzle's AND/OR problem and its root state (for play and the viewer)."""
    board_text: Callable[[Any, bool], str]
    """A state of :attr:`problem` drawn for the terminal (``True``: with colours)."""
    board_svg: Callable[[Any], str]
    """A state of :attr:`problem` drawn as a self-contained SVG (legible at phone size)."""
    verify_pruned: Callable[[Puzzle, int], list[str]] | None = None
    """As :attr:`verify_puzzle` for a puzzle of a pack with ``"solution": "pruned"``
    (the main line plus every defence at the first two adversary moves; below them
    at least the branch's main line).  ``None``: this game's packs must
    carry full trees, and ``pack verify`` says so."""
    full_defences: int = 2
    """A pruned tree of this game holds every solver action that keeps the win at the
    solver's nodes reached after fewer adversary actions than this; below, only the
    main line (Battleklinge: two defender moves; the pyramids: the first reply)."""
    judge: Judge | None = None
    """Exact judgements past a pruned tree's cut (:data:`Judge`): the terminal loop asks
    it for an action the tree does not hold there, ``pack html`` precomputes it for every
    such action.  ``None``: such an action is only said to leave the stored part."""
    rating_panel: Callable[[PackKind], Any] | None = None
    """The game's panel of solvers of known strength for ``pack rate``
    (:class:`fechtbuch.puzzles.rating_panel.Panel` of this kind); ``None``: the game's
    exercises are not rated from attempts yet."""
    symmetry: str = "the game's symmetry"
    """What :attr:`duplicate_class` identifies, for ``pack verify``'s duplicate message
    (Battleklinge: "the mirror")."""
    verify_witness: Callable[[Puzzle], list[str]] | None = None
    """Replay the puzzle's ``witness`` game (:func:`fechtbuch.puzzles.witness.
    replay_witness` with the game's rules) and check that it reaches the puzzle's
    position exactly (hidden information: the same public state and the same view of
    the puzzle's player, from a concrete legal deal); one line per problem, each
    starting with ``witness``.  ``None``: this game's packs carry no witnesses yet."""
    page_action: Callable[[Any, Any], dict[str, Any]] | None = None
    """``page_action(state, action)``: a legal action at the solver's ``state`` in the
    parts the version-2 pack page's click-mapper (``packplay.js`` next to the kind)
    offers it by: its cards, squares or fields, as the game's drawing marks them
    (docs/puzzles.md, "Playing a pack").  ``None``: the page offers the actions as
    buttons in notation."""
    page_reply: Callable[[Any, Any], dict[str, Any]] | None = None
    """``page_reply(state, action)``: an action of the adversary at ``state`` (the
    opponent's answer, a card or cards it has the solver draw) in the parts the game's
    ``packplay.js`` words it by (``window.fbPlay.reply``), so that the version-2 pack
    page says the defence's answers in the page's language, their notation beside.
    ``None``: the page shows their notation alone."""
    version_1: Version1Views | None = None
    """The page and diagrams of this game's version-1 packs; ``None``: it writes none."""
    child: Callable[[dict, str], Any] | None = None
    """The subtree reached by an action text from a tree node; ``None`` when the
    action leaves the tree.  ``None`` here means exact key lookup; a game whose trees
    group equivalent replies under one key supplies its own."""
    verify_in_pack: Callable[[dict, Puzzle], list[str]] | None = None
    """``verify_in_pack(pack, puzzle)``: the puzzle's fields that only the whole pack can
    re-derive (the Touché duel's ``round``: where in the seeded self-play the view
    occurs); one line per problem, each starting with the field name."""
    puzzle_schema: Mapping[str, Any] | None = None
    """The game's part of the version-2 pack schema (:func:`schema_part` reads it from
    the game's ``pack.schema.json``): ``"puzzle"``, a JSON Schema every puzzle of a pack
    of this game must meet besides the envelope's ``#/$defs/puzzle``, and optionally
    ``"$defs"``, definitions it refers to as ``#/$defs/<name>`` (added to the pack
    schema's; name them after the game, a clash is an error).  ``None``: the game's
    own fields are checked by ``verify_puzzle`` alone."""


def schema_part(package: str, name: str = "pack.schema.json") -> dict[str, Any]:
    """A game's part of the pack schema, shipped as ``name`` in its ``package``."""
    return orjson.loads(resources.files(package).joinpath(name).read_bytes())


def tree_child(kind: PackKind, node: dict, action: str) -> Any:
    """The subtree after ``action``, or ``None`` when the action leaves the tree."""
    if kind.child is not None:
        return kind.child(node, action)
    return node.get(action)
