"""Touché "sicherer Treffer" exercises: mining, tags, difficulty, selection, verification.

An exercise is a view of the player to act with a sure win in exactly N (N = 1, 2,
3) own turns and exactly one key (docs/solver.md, "Sure wins under hidden
cards"), found in seeded self-play of the computer (``stark`` on both sides) at the
levels standard and fortgeschritten, proved by df-pn and confirmed by the
independent verifier.  N = 1 must not be trivial: the key is a move (not an
attack), or another attack or lunge is legal and fails.

Packs of these exercises use the game-independent pack format (version 2,
``data/schema/pack-2.schema.json``): ``game`` ``touche``, positions, keys and
lines in the Touché notation, the whole solution tree of the generic solver.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from fechtbuch.engines import __version__
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.deal import lot, new_round
from fechtbuch.engines.touche_duell.notation import (
    Kind,
    Level,
    Ruleset,
    View,
    format_view,
    parse_action,
    parse_view,
    view_of,
)
from fechtbuch.engines.touche_duell.players import Player
from fechtbuch.engines.touche_duell.public import root_problem, view_actions
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_solve import FOUND, AndOrSolution, solve_andor

GAME = "touche"
LEVELS = (Level.STANDARD, Level.FORTGESCHRITTEN)
MINE_NODES = 2_000
"""Node limit of the first proof attempt per view (views beyond it are skipped)."""
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


@dataclass
class Candidate:
    """One proved exercise before selection."""

    puzzle: dict
    game: int


def exercise_id(view_text: str) -> str:
    return "t-" + hashlib.sha256(f"touche/{view_text}".encode()).hexdigest()[:12]


def _walk(view: View, line: list[str]):
    """The public states along ``line`` (actions and hidden choices as text)."""
    problem = root_problem(view)
    state = view
    states = [state]
    for text in line:
        for action, child in problem.children(state):
            if problem.format_action(state, action) == text:
                state = child
                break
        else:
            raise ValueError(f"line: {text!r} is not a child")
        states.append(state)
    return problem, states


def tags_for(view: View, key: str, line: list[str]) -> list[str]:
    """Motifs of an exercise, facts of its key and main line."""
    problem, states = _walk(view, line)
    tags = set()
    first = parse_action(key)
    unseen = view.unseen()
    if first.kind in (Kind.ATTACK, Kind.LUNGE):
        if first.count >= 3:
            tags.add("drei-gleiche")
        if unseen[first.value - 1] < first.count < 3:
            tags.add("zaehlen")
    for state, text in zip(states, line, strict=False):
        mine = problem.attacker_to_act(state)
        if mine and text == "p":
            tags.add("riposte")
        if mine and text.startswith("l"):
            tags.add("sturmangriff")
        if not mine and text.startswith("r"):
            tags.add("ausweichen")
    end = states[-1]
    tags.add(
        {"treffer": "treffer", "blockiert": "blockiert", "vergleich": "stapelende"}[end.phase.value]
    )
    return sorted(tags)


def difficulty(view: View, n: int, tree_nodes: int) -> float:
    """1..10: more turns, a larger solution tree and more legal choices are harder."""
    choices = len(view_actions(view))
    value = 1 + 2.2 * (n - 1) + 0.8 * math.log2(1 + tree_nodes) + 0.25 * (choices - 1)
    return round(min(10.0, max(1.0, value)), 1)


def non_trivial(view: View, n: int, key: str) -> bool:
    """N = 1: the key is not an attack, or another attack or lunge is legal."""
    if n > 1:
        return True
    first = parse_action(key)
    if first.kind not in (Kind.ATTACK, Kind.LUNGE):
        return len(view_actions(view)) > 1
    return any(a.kind in (Kind.ATTACK, Kind.LUNGE) and a != first for a in view_actions(view))


def puzzle_of(view: View, result: AndOrSolution) -> dict:
    text = format_view(view)
    n = result.distance
    assert n is not None and result.tree is not None
    key = result.keys[0]
    return {
        "id": exercise_id(text),
        "n": n,
        "position": text,
        "key": key,
        "line": result.main_line,
        "solution": result.tree,
        "tags": tags_for(view, key, result.main_line),
        "difficulty": difficulty(view, n, result.tree_nodes),
    }


def examine(view: View) -> dict | None:
    """The exercise of ``view`` if it has a sure win in exactly 1..3 with one key."""
    try:
        if not ProofSearch(root_problem(view), max_nodes=MINE_NODES).wins(view, 3):
            return None
    except ProofLimit:
        return None
    result = solve_andor(root_problem(view), view, 3, verify=True)
    if result.status != FOUND or not result.verified or len(result.keys) != 1:
        return None
    if not non_trivial(view, result.distance, result.keys[0]):
        return None
    return puzzle_of(view, result)


def mine(seed: int, games: int) -> list[Candidate]:
    """Self-play ``games`` rounds; every proved exercise of every view of the mover."""
    found: dict[str, Candidate] = {}
    for game in range(games):
        level = LEVELS[game % 2]
        deal = f"uebungen/{seed}/{game}"
        position = new_round(deal, lot(deal), Ruleset(level))
        players = [Player("stark", seed=f"{deal}/A"), Player("stark", seed=f"{deal}/B")]
        while not position.phase.over:
            view = view_of(position, position.mover)
            text = format_view(view)
            if exercise_id(text) not in found:
                puzzle = examine(view)
                if puzzle is not None:
                    found[puzzle["id"]] = Candidate(puzzle, game)
            position = rules.apply(position, players[position.mover].choose(view))
    return list(found.values())


def select(candidates: list[Candidate], per_n: int) -> list[dict]:
    """``per_n`` exercises per N, chosen with CP-SAT for variety: at most one per
    self-play round, each tag as often as the pool allows up to a share, the two
    levels balanced; ties by id (deterministic: one worker, fixed seed)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    pick = [model.new_bool_var(f"x{i}") for i in range(len(candidates))]
    penalties = []
    for n in (1, 2, 3):
        group = [i for i, c in enumerate(candidates) if c.puzzle["n"] == n]
        if len(group) < per_n:
            from fechtbuch.engines.errors import InputError

            raise InputError(f"games: only {len(group)} exercises with N = {n}; mine more")
        model.add(sum(pick[i] for i in group) == per_n)
        for level in ("standard", "fortgeschritten"):
            members = [i for i in group if candidates[i].puzzle["position"].startswith(level)]
            want = min(len(members), per_n // 3)
            short = model.new_int_var(0, per_n, f"l{n}{level}")
            model.add(sum(pick[i] for i in members) + short >= want)
            penalties.append(short)
        for tag in TAGS:
            members = [i for i in group if tag in candidates[i].puzzle["tags"]]
            want = min(len(members), max(1, per_n // 6))
            short = model.new_int_var(0, per_n, f"t{n}{tag}")
            model.add(sum(pick[i] for i in members) + short >= want)
            penalties.append(short)
    by_game: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_game.setdefault(c.game, []).append(i)
    for members in by_game.values():
        model.add(sum(pick[i] for i in members) <= 1)
    # prefer harder and more varied exercises; the id breaks ties
    order = sorted(range(len(candidates)), key=lambda i: candidates[i].puzzle["id"])
    rank = {i: r for r, i in enumerate(order)}
    quality = [
        int(candidates[i].puzzle["difficulty"] * 10) * 1000
        + len(candidates[i].puzzle["tags"]) * 100
        - rank[i] % 100
        for i in range(len(candidates))
    ]
    model.maximize(
        sum(q * p for q, p in zip(quality, pick, strict=True)) - 100_000 * sum(penalties)
    )
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 1
    solver.parameters.max_deterministic_time = 20.0
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        from fechtbuch.engines.errors import InputError

        raise InputError("games: the selection found no pack; mine more")
    chosen = [candidates[i].puzzle for i in range(len(candidates)) if solver.value(pick[i])]
    return sorted(chosen, key=lambda p: (p["n"], p["difficulty"], p["id"]))


def build_pack(puzzles: list[dict], seed: int, command: str) -> dict:
    return {
        "format": "fechtbuch-pack",
        "version": 2,
        "game": GAME,
        "rules": "touche-duell",
        "generator": {"name": "fechtbuch touche mine", "version": __version__},
        "seed": seed,
        "command": command,
        "puzzles": puzzles,
    }


def verify_puzzle(puzzle: dict) -> list[str]:
    """Re-derive every derived field with the prover and the independent verifier."""
    try:
        view = parse_view(puzzle["position"])
    except Exception as err:  # noqa: BLE001 - a bad position is a problem of the pack
        return [f"position: {err}"]
    n = puzzle["n"]
    result = solve_andor(root_problem(view), view, n, verify=True)
    problems = []
    if result.status != FOUND or result.distance != n:
        return [f"n: no sure win in exactly {n} (found {result.distance})"]
    if not result.verified:
        problems.append("n: the independent verifier disagrees")
    if result.keys != [puzzle["key"]]:
        problems.append(f"key: expected the one key {result.keys}, got {puzzle['key']!r}")
        return problems
    expected = puzzle_of(view, result)
    for field in ("id", "line", "solution", "tags", "difficulty"):
        if expected[field] != puzzle[field]:
            problems.append(f"{field}: does not match the re-derived value")
    if not non_trivial(view, n, puzzle["key"]):
        problems.append("key: a trivial N = 1 exercise (the only attack)")
    return problems


def verify_pack(pack: dict, progress=None) -> list[str]:
    problems: list[str] = []
    ids: set[str] = set()
    for number, puzzle in enumerate(pack["puzzles"], 1):
        label = f"puzzle {number} ({puzzle['id']})"
        problems += [f"{label}: {p}" for p in verify_puzzle(puzzle)]
        if puzzle["id"] in ids:
            problems.append(f"{label}: id: duplicate")
        ids.add(puzzle["id"])
        if progress is not None:
            progress()
    order = [(p["n"], p["difficulty"], p["id"]) for p in pack["puzzles"]]
    if order != sorted(order):
        problems.append("puzzles: not ordered by n, difficulty, id")
    return problems
