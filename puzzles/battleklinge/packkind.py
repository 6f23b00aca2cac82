"""Battleklinge's :class:`~fechtbuch.puzzles.packkind.PackKind`: its exercises in the pack format.

Battleklinge writes version-1 packs (the shipped ``fechtuebungen.json`` stays byte
for byte what ``fechtbuch mine`` made) and may also be read from version-2 packs
(deep tablebase studies: ``n`` up to :data:`MAX_N`, pruned trees, deepest first).
Its puzzles carry two fields of their own: ``attacker`` (``g`` or ``b``, the side
to move) and ``cards`` (the five card ids of the position).

Verification re-derives every derived field with the independent minimax
verifier (:mod:`fechtbuch.solver.battleklinge.verify`): exactly N, the only key, the solution
tree, the main line, id, attacker, cards, tags and difficulty.  A *pruned* tree
(pack field ``"solution": "pruned"``) holds every winning key and every defence at
the first :data:`FULL_DEFENCES` defender moves and below them at least the
branch's main line (the attacker's fastest key, the defender's longest reply, ties
by notation text); whatever else is stored there must be winning moves and legal
replies, so a complete tree also passes (a pack may mix complete and pruned trees).
"""

from __future__ import annotations

from collections.abc import Hashable

from fechtbuch.engines import __version__
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES, card_id
from fechtbuch.engines.battleklinge.game import GAME, HitProblem
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.engines.battleklinge.svg import render_svg
from fechtbuch.engines.battleklinge.textboard import draw_position
from fechtbuch.puzzles.battleklinge import studycheck
from fechtbuch.puzzles.battleklinge.claims import (
    HIT,
    MAX_N,
    PUZZLE_FIELDS,
    derived_field_problems,
    identity_problems,
    line_problems,
    parse_claim,
)
from fechtbuch.puzzles.battleklinge.exactjudge import judge_move
from fechtbuch.puzzles.battleklinge.mining import mirror_class
from fechtbuch.puzzles.pack import FULL_DEFENCES, PACK_FORMAT, PACK_VERSION
from fechtbuch.puzzles.pack import MAX_N as V1_MAX_N
from fechtbuch.puzzles.packkind import PackKind, Puzzle, Version1Views, schema_part
from fechtbuch.puzzles.witness import replay_witness
from fechtbuch.solver.battleklinge.verify import (
    hit_speeds,
    longest_reply,
    verify_exact_claim,
    verify_tree,
    winning_first_moves,
)
from fechtbuch.solver.battleklinge.verify import main_line as verifier_main_line

MINED_BY = "battleklinge/mining-random-greedy-meister2026"
"""The policy that plays ``fechtbuch mine``'s rounds (the pack's ``mined_by``): game
``i`` is played by the uniform random player, the cautious greedy player or the
frozen 2026 engine at depth 2, by ``i`` modulo 3
(:mod:`fechtbuch.puzzles.battleklinge.sources`).  A change of any of them is a new name
and a new pack."""


def build_pack(selected: list[dict], seed: int, command: str) -> dict:
    """The version-1 pack ``fechtbuch mine`` writes (the shipped pack's format)."""
    puzzles = [{k: c[k] for k in PUZZLE_FIELDS} for c in selected]
    puzzles.sort(key=lambda p: (p["n"], p["difficulty"], p["id"]))
    return {
        "format": PACK_FORMAT,
        "version": PACK_VERSION,
        "rules": "battleklinge",
        "generator": {"name": "fechtbuch", "version": __version__},
        "seed": seed,
        "command": command,
        "mined_by": MINED_BY,
        "puzzles": puzzles,
    }


TABLELESS_MAX_N = V1_MAX_N
"""The deepest claim the table-less minimax verifier checks.  Its work grows steeply
with n and the material (a study of n = 8 with three students ran for hours), so a
deeper claim that no endgame table covers is refused with a reason instead of searched
without end.  Positions with at most one student a side are sparse: there the verifier
goes to :data:`SPARSE_TABLELESS_MAX_N` (a study of n = 6 takes well under a second)."""
SPARSE_TABLELESS_MAX_N = 6


def _beyond_the_verifier(puzzle: Puzzle, max_n: int) -> list[str]:
    """The one problem of a claim too deep for the table-less verifier, else [] (a claim
    outside the pack's range is the claim parser's to report)."""
    n = puzzle["n"]
    if not TABLELESS_MAX_N < n <= max_n:
        return []
    try:
        pos = Position.from_text(puzzle["position"])
    except NotationError:
        return []  # the claim's parser names the notation error
    counts = (pos.students[0].bit_count(), pos.students[1].bit_count())
    limit = SPARSE_TABLELESS_MAX_N if max(counts) <= 1 else TABLELESS_MAX_N
    if n <= limit:
        return []
    return [
        f"n: {n} own moves are beyond the verifier without endgame tables (at most {limit} "
        f"here), and no built tables cover this position ({counts[0]} and {counts[1]} "
        "students; 'fechtbuch tb build --students 2' covers up to two a side): not verified"
    ]


def verify_puzzle(puzzle: Puzzle, max_n: int = V1_MAX_N) -> list[str]:
    """Re-prove one puzzle with its complete solution tree; one line per problem.

    ``max_n`` is the declared range of the puzzle's pack: the verifier's work grows
    steeply with N, so a claim beyond it is refused before any search."""
    return _beyond_the_verifier(puzzle, max_n) or _verify(puzzle, max_n, pruned=False)


def verify_pruned_puzzle(puzzle: Puzzle, max_n: int) -> list[str]:
    """As :func:`verify_puzzle` for a puzzle whose tree is pruned (module docstring).

    A position the endgame tables cover (the Meisterstudien: up to 10 own moves, far
    beyond the minimax verifier) is checked by the tables and df-pn where it reaches
    (:func:`fechtbuch.puzzles.battleklinge.studycheck.verify_study`): bounded and exact."""
    if studycheck.covered_by_tables(puzzle):
        return studycheck.verify_study(puzzle, max_n)
    return _beyond_the_verifier(puzzle, max_n) or _verify(puzzle, max_n, pruned=True)


def _verify(puzzle: Puzzle, max_n: int, pruned: bool) -> list[str]:
    claim = parse_claim(puzzle, max_n)
    if isinstance(claim, list):
        return claim
    pos, key, line, n = claim.pos, claim.key, claim.line, puzzle["n"]
    problems = identity_problems(puzzle, pos, key, line)
    exercise_problems = [_field_of(p) for p in verify_exact_claim(pos, n, key)]
    problems += exercise_problems
    if exercise_problems:
        return problems  # the tree and line of a position without an exact-N hit mean nothing
    if pruned:
        problems += [f"solution: {p}" for p in verify_pruned_tree(pos, puzzle["solution"], n)]
    else:
        problems += [f"solution: {p}" for p in verify_tree(pos, puzzle["solution"], n)]
    problems += line_problems(line, puzzle["solution"])
    expected_line = verifier_main_line(pos, n)
    if puzzle["line"] != expected_line:
        problems.append(f"line: not the main line; expected {' '.join(expected_line)}")
        return problems  # tags are facts of the main line: without it they mean nothing
    return problems + derived_field_problems(puzzle, pos, key, line)


def _field_of(problem: str) -> str:
    """The verifier's exercise problems, prefixed with the field whose claim fails."""
    if problem.startswith("keys are"):
        return f"key: {problem}"
    if problem.startswith("position"):
        return f"position: {problem}"
    return f"n: {problem}"


# ---- pruned trees ---------------------------------------------------------------------


def _children(st) -> dict[str, object]:
    return {fast.decode_move(code).to_text(): child for code, child in fast.children(st)}


def _hits(st, child) -> bool:
    return fast.winner(child) == st[fast.F_TURN]


def verify_pruned_tree(pos: Position, tree, n: int) -> list[str]:
    """A pruned tree is correct (module docstring): at attacker nodes above the cut
    every winning move and no other, at defender nodes above the cut every legal
    reply; below the cut at least the branch's main line, and only winning moves
    and legal replies."""
    problems: list[str] = []
    _walk_pruned(fast.state_from_position(pos), tree, n, FULL_DEFENCES, "", problems)
    return problems


def _walk_pruned(st, node, budget: int, full: int, path: str, problems: list[str]) -> None:
    where = path or "root"
    if not isinstance(node, dict) or not node:
        problems.append(f"{where}: attacker node must be a non-empty object")
        return
    children = _children(st)
    if list(node) != sorted(node):
        problems.append(f"{where}: keys are not sorted")
    if full > 0:
        expected = winning_first_moves(st, budget)
        if set(node) != expected:
            missing = sorted(expected - set(node))
            extra = sorted(set(node) - expected)
            problems.append(
                f"{where}: winning moves differ (missing {missing}, not winning {extra})"
            )
        allowed = expected
    else:
        speeds = hit_speeds(st, budget)
        fastest = min(speeds, key=lambda text: speeds[text][0]) if speeds else None
        if fastest not in node:
            problems.append(f"{where}: below the cut the main line key {fastest!r} is missing")
        extra = sorted(set(node) - set(speeds))
        if extra:
            problems.append(f"{where}: not winning {extra}")
        allowed = set(speeds)
    for text, sub in node.items():
        if text not in children or text not in allowed:
            continue
        child = children[text]
        step = f"{path} {text}".strip()
        if _hits(st, child):
            if sub != HIT:
                problems.append(f'{step}: a hit must be marked "hit"')
            continue
        if not isinstance(sub, dict) or not sub:
            problems.append(f"{step}: defender node must be a non-empty object")
            continue
        replies = _children(child)
        if full > 0:
            if set(sub) != set(replies):
                problems.append(f"{step}: defender replies differ from the legal moves")
        else:
            longest = longest_reply(child, budget - 1)[1]
            if longest not in sub:
                problems.append(f"{step}: below the cut the longest defence {longest!r} is missing")
            if not set(sub) <= set(replies):
                problems.append(f"{step}: not legal {sorted(set(sub) - set(replies))}")
        if list(sub) != sorted(sub):
            problems.append(f"{step}: keys are not sorted")
        for reply, attacker_node in sub.items():
            if reply in replies:
                _walk_pruned(
                    replies[reply], attacker_node, budget - 1, full - 1, f"{step} {reply}", problems
                )


# ---- the kind -------------------------------------------------------------------------


def verify_witness(puzzle: Puzzle) -> list[str]:
    """Replay the puzzle's ``witness`` with the reference rules from a legal start
    (:meth:`BattleklingeGame.start_problem`) and check that it reaches the puzzle's
    position exactly: the same board, both hands, the side card and the side to move.
    A puzzle without a witness fails: an exercise must be a position some game reaches."""
    if "witness" not in puzzle:
        return ["witness: missing (every exercise carries a game that reaches it)"]
    reached, problems = replay_witness(GAME, puzzle["witness"])
    if problems:
        return problems
    try:
        wanted = Position.from_text(puzzle["position"])
    except NotationError:
        return []  # the position's own check reports its notation
    if reached != wanted:
        return [f"witness: reaches {reached.to_text()!r}, not the position {wanted.to_text()!r}"]
    return []


def duplicate_class(puzzle: Puzzle) -> Hashable:
    """Equal for a position and its left-right mirror; ``None`` for an unreadable one
    (its verification says so)."""
    try:
        return mirror_class(Position.from_text(puzzle["position"]))
    except NotationError:
        return None


def problem(puzzle: Puzzle) -> tuple[HitProblem, Position]:
    """The side to move hits within N: Battleklinge's positions as they are."""
    pos = Position.from_text(puzzle["position"])
    return HitProblem(pos.turn), pos


def board_text(pos: Position, colour: bool = False) -> str:
    """The terminal drawing of ``fechtbuch play`` (plain text; it has no colours)."""
    return draw_position(pos)


def board_svg(pos: Position) -> str:
    return render_svg(pos)


def page_action(pos: Position, move: Move) -> dict:
    """A move as the version-2 pack page offers it (``packplay.js``): the piece's
    square and its target (the drawing's ``data-sq``), and the card; a pass names
    only the card handed on."""
    if move.is_pass:
        return {"card": card_id(move.card), "pass": True}
    return {"card": card_id(move.card), "from": move.from_sq, "to": move.to_sq}


def page_reply(pos: Position, move: Move) -> dict:
    """The defender's move as the version-2 pack page words it (``packplay.js``): as
    :func:`page_action`, with the school that moves (``"g"``, ``"b"``) and whether it
    takes a student (``takes``)."""
    takes = not move.is_pass and bool(pos.students[1 - pos.turn] >> move.to_sq & 1)
    return {**page_action(pos, move), "school": "gb"[pos.turn], "takes": takes}


def _check_page(pack: dict) -> None:
    from fechtbuch.puzzles.battleklinge.v1page import check_pack

    check_pack(pack)


def _page(pack: dict, lang: str | None) -> str:
    from fechtbuch.puzzles.battleklinge.v1page import pack_html

    return pack_html(pack, lang)


def _diagram(puzzle: Puzzle, number: int, key: bool) -> str:
    """A version-1 puzzle's diagram with its caption (and the key's arrow)."""
    position = Position.from_text(puzzle["position"])
    move = Move.from_text(puzzle["key"]) if key else None
    school, n = COLOR_NAMES[position.turn], puzzle["n"]
    note = f"Puzzle {number}: {school} to move and hit in {n} (Treffer in {n})."
    if key:
        note += f" Key: {puzzle['key']}."
    return render_svg(position, move, note=note)


def rating_panel(kind: PackKind):
    """The engine at a ladder of node budgets (imported when ``pack rate`` runs)."""
    from fechtbuch.puzzles.battleklinge.rating_panel import SPEC
    from fechtbuch.puzzles.rating_ladder import panel_of

    return panel_of(SPEC, kind)


KIND = PackKind(
    rules="battleklinge",
    title="Battleklinge",
    version=1,
    max_n=MAX_N,
    verify_puzzle=verify_puzzle,
    duplicate_class=duplicate_class,
    problem=problem,
    board_text=board_text,
    board_svg=board_svg,
    page_action=page_action,
    page_reply=page_reply,
    verify_pruned=verify_pruned_puzzle,
    full_defences=FULL_DEFENCES,
    judge=judge_move,
    symmetry="the mirror",
    rating_panel=rating_panel,
    verify_witness=verify_witness,
    version_1=Version1Views(check=_check_page, page=_page, diagram=_diagram),
    puzzle_schema=schema_part(__package__),
)
