"""Independent checks of exercises and solution trees with the minimax verifier.

Nothing here uses df-pn or its helpers: every claim is re-derived with
:mod:`solver.minimax`, and a hit is recognised by the generator's own
``winner`` on the position after the move.  Each
function returns a list of problems (empty when everything holds) so callers
can report one line per failure.
"""

from __future__ import annotations

import numpy as np
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.solver import minimax

KERNEL = GAME.kernel()


def _children(st: np.ndarray) -> dict[str, tuple[int, np.ndarray]]:
    """Every legal move by its notation text, with its code and the state after it."""
    return {fast.decode_move(code).to_text(): (code, child) for code, child in fast.children(st)}


def _hits(st: np.ndarray, child: np.ndarray) -> bool:
    return fast.winner(child) == st[fast.F_TURN]


def winning_first_moves(st: np.ndarray, budget: int) -> set[str]:
    """Moves that hit at once or leave the defender lost within ``budget - 1`` (verifier)."""
    winning = set()
    for text, (_, child) in _children(st).items():
        if _hits(st, child) or (budget >= 2 and minimax.lost_within(KERNEL, child, budget - 1)[0]):
            winning.add(text)
    return winning


def hit_speeds(st: np.ndarray, budget: int) -> dict[str, tuple[int, np.ndarray]]:
    """The side to move's moves that hit within ``budget`` own moves, by text, each
    with how many further own moves its hit needs (0: it hits) and the state after it."""
    speeds = {}
    for text, (_, child) in sorted(_children(st).items()):
        if _hits(st, child):
            speeds[text] = (0, child)
            continue
        speed = next(
            (j for j in range(1, budget) if minimax.lost_within(KERNEL, child, j)[0]), None
        )
        if speed is not None:
            speeds[text] = (speed, child)
    return speeds


def fastest_move(st: np.ndarray, budget: int) -> tuple[int, str, np.ndarray] | None:
    """The side to move's move whose hit comes soonest within ``budget`` own moves, as
    (further own moves after it, text, state after it); ties by notation text."""
    best = None
    for text, (speed, child) in hit_speeds(st, budget).items():  # in text order
        if best is None or speed < best[0]:
            best = (speed, text, child)
    return best


def longest_reply(st: np.ndarray, budget: int) -> tuple[int, str, np.ndarray]:
    """The defender's (side to move's) reply that delays the attacker's hit longest, as
    (the attacker's own moves to the hit after it, text, state after it); ties by
    notation text.  ``st`` must be lost within ``budget``."""
    reply = None
    for text, (_, child) in sorted(_children(st).items()):
        delay = next(k for k in range(1, budget + 1) if minimax.hit_within(KERNEL, child, k)[0])
        if reply is None or delay > reply[0]:
            reply = (delay, text, child)
    assert reply is not None
    return reply


def main_line(pos: Position, n: int) -> list[str]:
    """The main line re-derived by the verifier: at each attacker turn the move whose
    hit comes soonest, at each defender turn the reply that delays it longest, ties
    by notation text (the rule of docs/solver.md).  ``pos`` must have a hit within n."""
    st = fast.state_from_position(pos)
    budget = n
    line: list[str] = []
    while True:
        best = fastest_move(st, budget)
        if best is None:
            raise ValueError(f"no hit within {budget} after {' '.join(line) or 'the start'}")
        speed, text, child = best
        line.append(text)
        if speed == 0:
            return line
        budget, reply, st = longest_reply(child, speed)
        line.append(reply)


def verify_exact_claim(pos: Position, n: int, key: Move) -> list[str]:
    """Exactly N (hit within n, none within n - 1) and ``key`` the only key."""
    problems = []
    if pos.winner() is not None:
        return ["position is already decided"]
    st = fast.state_from_position(pos)
    if not minimax.hit_within(KERNEL, st, n)[0]:
        problems.append(f"no forced hit within {n}")
    elif n > 1 and minimax.hit_within(KERNEL, st, n - 1)[0]:
        problems.append(f"a hit within {n - 1} exists, so it is not exactly {n}")
    keys = sorted(winning_first_moves(st, n))
    if keys != [key.to_text()]:
        problems.append(f"keys are {keys}, expected only {key.to_text()!r}")
    return problems


def verify_tree(pos: Position, tree, n: int) -> list[str]:
    """The solution tree is complete and correct (the solver's format), from ``pos``, budget n.

    Attacker nodes list every winning move and no other; ``"hit"`` marks real
    hits only; defender nodes list every legal reply.
    """
    problems: list[str] = []
    _walk_attacker(fast.state_from_position(pos), tree, n, "", problems)
    return problems


def _walk_attacker(st, node, budget: int, path: str, problems: list[str]) -> None:
    where = path or "root"
    if not isinstance(node, dict) or not node:
        problems.append(f"{where}: attacker node must be a non-empty object")
        return
    children = _children(st)
    expected = winning_first_moves(st, budget)
    if set(node) != expected:
        missing = sorted(expected - set(node))
        extra = sorted(set(node) - expected)
        problems.append(f"{where}: winning moves differ (missing {missing}, not winning {extra})")
    if list(node) != sorted(node):
        problems.append(f"{where}: keys are not sorted")
    for text, sub in node.items():
        if text not in children or text not in expected:
            continue
        _, child = children[text]
        step = f"{path} {text}".strip()
        if _hits(st, child):
            if sub != "hit":
                problems.append(f'{step}: a hit must be marked "hit"')
            continue
        if sub == "hit":
            problems.append(f'{step}: marked "hit" but does not hit')
            continue
        if not isinstance(sub, dict):
            problems.append(f"{step}: defender node must be an object")
            continue
        replies = _children(child)
        if set(sub) != set(replies):
            problems.append(f"{step}: defender replies differ from the legal moves")
        if list(sub) != sorted(sub):
            problems.append(f"{step}: keys are not sorted")
        for reply, attacker_node in sub.items():
            if reply in replies:
                _walk_attacker(
                    replies[reply][1], attacker_node, budget - 1, f"{step} {reply}", problems
                )


def parse_move_list(moves: list, field: str) -> list[Move]:
    try:
        return [Move.from_text(m) for m in moves]
    except (NotationError, AttributeError) as err:
        raise NotationError(f"{field}: {err}") from None
