"""Touché duel "sicherer Treffer" exercises: examining views, tags, difficulty, the pack.

An exercise is a view of the player to act with a sure win in exactly N (N = 1, 2,
3) own turns and exactly one key (docs/solver.md, "Sure wins under hidden
cards"), found in seeded self-play (:data:`PLAYER` on both sides: the frozen
meister of :mod:`fechtbuch.engines.touche_duell.baseline`) at the levels
standard and fortgeschritten, proved by df-pn and confirmed by the independent
verifier.  No exercise is trivial: the player has a choice, and for N = 1 the key
is a quiet action or another attack or lunge is legal (and fails).

Packs of these exercises use the game-independent pack format, version 2
(``data/schema/pack-2.schema.json``): rules ``touche-duell``, positions, keys and
lines in the Touché notation, the whole solution tree of the generic solver
(``"solution": "full"``).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from functools import lru_cache

from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.baseline.policy import NAME as FROZEN_PLAYER
from fechtbuch.engines.touche_duell.baseline.policy import MiningPlayer
from fechtbuch.engines.touche_duell.deal import lot, new_round
from fechtbuch.engines.touche_duell.game import ToucheDuellGame
from fechtbuch.engines.touche_duell.notation import (
    format_position,
    format_view,
    parse_action,
    parse_view,
)
from fechtbuch.engines.touche_duell.public import root_problem, view_actions
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    TRACK,
    Action,
    Kind,
    Level,
    NotationError,
    Position,
    Ruleset,
    View,
    format_action,
    view_of,
)
from fechtbuch.puzzles.packtree import count_nodes
from fechtbuch.puzzles.touche_duell.motifs import CATALOGUE_V1, DuelFacts
from fechtbuch.puzzles.witness import replay_witness
from fechtbuch.solver.andor import ProofLimit, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_solve import FOUND, AndOrSolution, solve_andor

RULES = "touche-duell"
GAME = ToucheDuellGame()
MAX_N = 3
LEVELS = (Level.STANDARD, Level.FORTGESCHRITTEN)
PLAYER = FROZEN_PLAYER
"""The self-play policy on both sides (see :func:`round_record`): frozen, so that a
change of the live players never changes a mined pack."""
MINED_BY = "touche-duell/mining-2026"
"""The pack's ``mined_by``: the frozen mining policy by its role (the copy of the
ladder's meister in :mod:`fechtbuch.engines.touche_duell.baseline`, whose own
name is :data:`PLAYER`)."""
EXAMINE_NODES = 5_000
"""Node limit of the proof attempt per view (a view beyond it is skipped: mining
never waits on one hard view; the pack records every limit in its command)."""
DEEP_PILE = 9
"""Views with at most this many pile cards get the whole node limit; views with more
get :data:`FAR_SHARE` of it.  No sure win within 3 turns turned up with 10 or more
pile cards in 120 measured rounds, yet those views took 70% of the proof time
(docs/performance.md, "Mining the Touché pack")."""
FAR_SHARE = 10
"""Views beyond :data:`DEEP_PILE` are proved with ``max_nodes // FAR_SHARE`` nodes."""
RETRY_FACTOR = 10
"""A view that reached the limit and precedes a sure win of the same player (in
its next two views) is proved again with this many times the limit: the view just
before a sure win in 1 or 2 is where sure wins in 3 live, and they need more
nodes (4 N = 3 exercises from 68 such views of 120 rounds, none at 5,000 nodes)."""
MAX_TREE_NODES = 12_000
"""Largest solution tree (inner nodes) a shipped exercise may have.  A few sure wins
in 3 have trees of 25,000 to 150,000 nodes (up to 4.5 MB of JSON each): a pack of
them grew to 50 MB and took minutes to verify and play through, for exercises no
reader walks through whole.  Such views count as ``large``."""
TAGS = (
    "drei-gleiche",
    "zaehlen",
    "riposte",
    "sturmangriff",
    "ausweichen",
    "stapelende",
    "blockiert",
    "treffer",
)
"""Motifs: a hit with three equal cards; a hit by counting (the parry cards are all
seen); a riposte; a lunge; the opponent forced to retreat; the hand comparison
at the end of the pile; the opponent without a legal move; a hit."""
END_TAGS = {"treffer": "treffer", "blockiert": "blockiert", "vergleich": "stapelende"}


def puzzle_id(view_text: str) -> str:
    return "t-" + hashlib.sha256(f"touche/{view_text}".encode()).hexdigest()[:12]


def mirrored(view: View) -> View:
    """The same view with the sides swapped (A's track end becomes B's)."""

    def swap(player: int) -> int:
        return player if player == NOBODY else 1 - player

    a, b = view.squares
    return view._replace(
        squares=(TRACK + 1 - b, TRACK + 1 - a),
        score=view.score[::-1],
        mover=swap(view.mover),
        winner=swap(view.winner),
        viewer=swap(view.viewer),
    )


def duplicate_class(view: View) -> str:
    """Equal for a view and its mirror image (the same exercise for either fencer);
    the score does not matter for a sure win within the round."""
    canonical = view if view.viewer == 0 else mirrored(view)
    return format_view(canonical._replace(score=(0, 0)))


def tags_for(view: View, line: list[str]) -> list[str]:
    """Motifs of an exercise (catalogue version 1): facts of its main line (key,
    defence, end)."""
    return CATALOGUE_V1.tags_of_facts(DuelFacts.of_line(view, line))


def difficulty(view: View, n: int, tree_nodes: int) -> float:
    """1..10: more turns, a larger solution tree and more legal choices are harder.
    The tree grows about tenfold per turn already, so N itself weighs little and
    the tree by its logarithm (N = 1 lands near 3, N = 2 near 7, N = 3 near 9)."""
    choices = len(view_actions(view))
    value = 1 + 1.5 * (n - 1) + 0.35 * math.log2(1 + tree_nodes) + 0.15 * (choices - 1)
    return round(min(10.0, max(1.0, value)), 1)


def non_trivial(view: View, n: int, key: str) -> bool:
    """There is a choice: more than one legal action; and for N = 1 the key is not
    the only legal attack (another attack or lunge is legal and fails) unless it is
    a quiet action."""
    first = parse_action(key)
    actions = view_actions(view)
    if len(actions) < 2:
        return False
    if n > 1 or first.kind not in (Kind.ATTACK, Kind.LUNGE):
        return True
    return any(a.kind in (Kind.ATTACK, Kind.LUNGE) and a != first for a in actions)


def puzzle_of(view: View, result: AndOrSolution) -> dict:
    """The pack fields of a proved view (the key is the one key)."""
    text = format_view(view)
    n = result.distance
    assert n is not None and result.tree is not None
    return {
        "id": puzzle_id(text),
        "n": n,
        "position": text,
        "key": result.keys[0],
        "line": result.main_line,
        "solution": result.tree,
        "tags": tags_for(view, result.main_line),
        "difficulty": difficulty(view, n, result.tree_nodes),
    }


@dataclass
class Examined:
    """Why a view is or is not an exercise (the mining statistics count these)."""

    puzzle: dict | None
    reason: str
    """``exercise``, ``none`` (no sure win within 3), ``limit``, ``keys`` (more than
    one key), ``trivial``, ``rejected`` (the independent verifier disagreed) or
    ``large`` (a solution tree above :data:`MAX_TREE_NODES`)."""


def examine(view: View, max_nodes: int = EXAMINE_NODES) -> Examined:
    """Is ``view`` an exercise: a sure win in exactly 1..3 with one key, not trivial,
    confirmed by the independent verifier?  Iterative deepening in one df-pn table:
    the first N that wins is the distance."""
    problem = root_problem(view)
    search = ProofSearch(problem, max_nodes=max_nodes)
    try:
        n = next((n for n in range(MAX_N + 1) if search.wins(view, n)), None)
        if n is None:
            return Examined(None, "none")
        if n == 0:  # won with free actions (a parry, a forced "-"): nothing to find
            return Examined(None, "trivial")
        found = keys(problem, search.wins, view, n)
    except ProofLimit:
        return Examined(None, "limit")
    if len(found) != 1:
        return Examined(None, "keys")
    if not non_trivial(view, n, problem.format_action(view, found[0])):
        return Examined(None, "trivial")
    result = solve_andor(root_problem(view), view, n, verify=True)
    if (
        result.status != FOUND
        or not result.verified
        or result.keys != [problem.format_action(view, found[0])]
    ):
        return Examined(None, "rejected")
    if count_nodes(result.tree)[0] > MAX_TREE_NODES:
        return Examined(None, "large")
    return Examined(puzzle_of(view, result), "exercise")


def round_seed(seed: int, game: int) -> str:
    return f"touche-uebungen/{seed}/{game}"


@dataclass(frozen=True)
class RoundRecord:
    """One self-play round: its deal, every action played and the view of the player
    to act before each action (``views[i]`` comes after ``actions[:i]``)."""

    start: Position
    actions: tuple[Action, ...]
    views: tuple[View, ...]

    def witness(self, index: int) -> dict:
        """The witness game of ``views[index]`` (docs/puzzles.md): the deal and the
        actions played before it, in notation."""
        return {
            "start": format_position(self.start),
            "moves": [format_action(a) for a in self.actions[:index]],
        }


@lru_cache(maxsize=64)
def round_record(seed: int, game: int) -> RoundRecord:
    """Self-play round ``game`` of ``seed``: even rounds standard, odd rounds
    fortgeschritten, :data:`PLAYER` on both sides, the deal, the starter and the
    players' choices all SHA-256 derived.  (Cached: the roll-outs cost about as much
    as the proofs, and a resumed or repeated examination of a round in one process
    plays it once.)"""
    deal = round_seed(seed, game)
    start = new_round(deal, lot(deal), Ruleset(LEVELS[game % 2]))
    players = [MiningPlayer(f"{deal}/A"), MiningPlayer(f"{deal}/B")]
    views: list[View] = []
    actions: list[Action] = []
    position = start
    while not position.phase.over:
        view = view_of(position, position.mover)
        views.append(view)
        actions.append(players[position.mover].choose(view))
        position = rules.apply(position, actions[-1])
    return RoundRecord(start, tuple(actions), tuple(views))


def rounds_views(seed: int, game: int) -> tuple[View, ...]:
    """Every view of the player to act in self-play round ``game`` of ``seed``
    (:func:`round_record`)."""
    return round_record(seed, game).views


def node_limit(view: View, max_nodes: int) -> int:
    """The proof budget of one view (see :data:`DEEP_PILE`)."""
    return max_nodes if view.pile_size <= DEEP_PILE else max(1, max_nodes // FAR_SHARE)


SURE = frozenset({"exercise", "keys", "trivial", "rejected", "large"})
"""Reasons that mean the view has a sure win within 3."""


@dataclass
class GameResult:
    """What one self-play round gave: its exercises and a count per reason."""

    game: int
    puzzles: list[dict] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)


def examine_game(task: tuple[int, int, int]) -> GameResult:
    """Examine every view of one round (a worker's unit: deterministic, no clock):
    each view with its :func:`node_limit`, then once more with :data:`RETRY_FACTOR`
    times ``max_nodes`` each view that reached its limit and comes just before a
    sure win of the same player."""
    seed, game, max_nodes = task
    result = GameResult(game)
    record = round_record(seed, game)
    seen: set[str] = set()
    found: list[tuple[int, View, Examined]] = []
    for ply, view in enumerate(record.views):
        cls = duplicate_class(view)
        if cls not in seen:
            seen.add(cls)
            found.append((ply, view, examine(view, node_limit(view, max_nodes))))
    for index, (ply, view, examined) in enumerate(found):
        if examined.reason == "limit" and view.pile_size <= DEEP_PILE:
            later = [e for _, v, e in found[index + 1 :] if v.viewer == view.viewer][:2]
            if any(e.reason in SURE for e in later):
                examined = examine(view, RETRY_FACTOR * max_nodes)
        result.reasons[examined.reason] = result.reasons.get(examined.reason, 0) + 1
        if examined.puzzle is not None:
            # the round it came from is the exercise's witness game
            result.puzzles.append({**examined.puzzle, "witness": record.witness(ply)})
    return result


def verify_witness(puzzle: dict) -> list[str]:
    """Replay the puzzle's witness with the reference rules and check that the full
    state it reaches shows exactly the puzzle's view to the player to act (the same
    public state and the same hand; the replayed deal is a concrete one consistent
    with the view).  One line per problem, each starting with ``witness``."""
    if "witness" not in puzzle:
        return ["witness: missing (every exercise carries the game that reaches it)"]
    state, problems = replay_witness(GAME, puzzle["witness"])
    if state is None:
        return problems
    if state.phase.over:
        return ["witness: the round is over where the exercise should be"]
    reached = format_view(view_of(state, state.mover))
    if reached != puzzle["position"]:
        return [f"witness: reaches {reached!r}, not the exercise's view"]
    return []


def verify_puzzle(puzzle: dict, max_n: int = MAX_N) -> list[str]:
    """Re-prove one puzzle and re-derive every derived field; the distance and the
    key with the prover and the independent verifier (one line per problem)."""
    try:
        view = parse_view(puzzle["position"])
        problem = root_problem(view)
    except NotationError as err:
        return [f"position: {err}"]
    n = puzzle["n"]
    if not 1 <= n <= min(max_n, MAX_N):
        return [f"n: {n} is outside 1..{min(max_n, MAX_N)}"]
    result = solve_andor(problem, view, n, verify=True)
    if result.status != FOUND or result.distance != n:
        return [f"n: no sure win in exactly {n} (found {result.distance})"]
    problems = []
    if not result.verified:
        problems.append("n: the independent verifier disagrees")
    if result.keys != [puzzle["key"]]:
        problems.append(f"key: expected the one key {result.keys}, got {puzzle['key']!r}")
        return problems
    expected = puzzle_of(view, result)
    for name in ("id", "line", "solution", "tags", "difficulty"):
        if expected[name] != puzzle[name]:
            problems.append(f"{name}: does not match the re-derived value")
    if not non_trivial(view, n, puzzle["key"]):
        problems.append("key: trivial (the only action, or for N = 1 the only attack)")
    inner = count_nodes(result.tree)[0]
    if inner > MAX_TREE_NODES:
        problems.append(f"solution: {inner} inner nodes, more than {MAX_TREE_NODES}")
    return problems
