"""Where candidate positions come from: self-play games with randomness.

Each game is a pure function of (seed, game index): its card set, deal,
source and every move are drawn from the SHA-256 stream of
:mod:`fechtbuch.engines.seeding`, so candidates are the same whatever the number
of worker processes.

Sources (their yields are measured in docs/puzzles.md):

* ``random``: uniform random moves.  Many blunders, so positions are often
  lopsided and forced hits plentiful but crude.
* ``greedy``: a cautious player: it takes an immediate hit when it has one,
  otherwise avoids moves that allow the opponent an immediate hit, and
  prefers captures half of the time.  Its positions look like play between
  people who see one move ahead, so forced hits there need real calculation.
* ``engine``: the playable engine's alpha-beta search scores every
  move at depth 2; the player takes the best with probability 1/2, the second
  with 1/4, and so on (ties by notation).  Closest to real games.
"""

from __future__ import annotations

import numpy as np
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import NUM_CARDS
from fechtbuch.engines.battleklinge.kernel import has_immediate_hit, is_hit_move
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.seeding import HashStream

SOURCES = ("random", "greedy", "engine")
ENGINE_DEPTH = 2
ENGINE_NODES = 20_000
ENGINE_WEIGHTS = (100, 4, 12, 40, 25, 6, 30)
"""The evaluation weights of the engine source, pinned (like the daily duel's) so
that tuning the engine's ``DEFAULT_WEIGHTS`` does not change the shipped pack."""
MAX_PLIES = 60


def game_rng(seed: int, index: int) -> HashStream:
    return HashStream(f"fechtbuch-mine/v1/{seed}/game/{index}")


def deal(rng: HashStream, cards: tuple[int, ...] | None) -> Position:
    """A start position: ``cards`` (or five of sixteen) dealt to hands and side slot."""
    chosen = list(cards) if cards is not None else rng.shuffled(range(NUM_CARDS))[:5]
    order = rng.shuffled(sorted(chosen))
    return Position.start(order[:2], order[2:4], order[4])


def _engine_choice(rng: HashStream, searcher, pos: Position) -> int:
    result = searcher.search(pos, max_depth=ENGINE_DEPTH, max_nodes=ENGINE_NODES, all_scores=True)
    ranked = sorted(result.scores, key=lambda m: (-result.scores[m], m.to_text()))
    return fast.encode_move(ranked[rng.geometric_rank(len(ranked))])


def _choose(rng: HashStream, st: np.ndarray, source: str, moves: list[int]) -> int:
    if source == "random":
        return rng.choice(moves)
    hits = [m for m in moves if is_hit_move(st, m)]
    if hits:
        return rng.choice(hits)
    child = np.empty(fast.STATE_SIZE, dtype=np.int64)
    safe = []
    for m in moves:
        fast.make_move(st, m, child)
        if not has_immediate_hit(child):
            safe.append(m)
    pool = safe or moves
    opponent = st[fast.F_PIECES + 1 - st[fast.F_TURN]]
    captures = [m for m in pool if not m & fast.MOVE_PASS and opponent >> ((m >> 9) & 31) & 1]
    if captures and rng.chance(1, 2):
        return rng.choice(captures)
    return rng.choice(pool)


def play_game(
    seed: int, index: int, cards: tuple[int, ...] | None = None
) -> tuple[str, list[Position]]:
    """(source, positions) of game ``index``: every position until decided or MAX_PLIES."""
    source, positions, _ = play_game_record(seed, index, cards)
    return source, positions


def play_game_record(
    seed: int, index: int, cards: tuple[int, ...] | None = None
) -> tuple[str, list[Position], list[Move]]:
    """(source, positions, moves) of game ``index``: ``positions[0]`` is the start deal
    and ``moves[i]`` leads from ``positions[i]`` to ``positions[i + 1]``, so the start and
    the first ``ply`` moves are the witness of ``positions[ply]``."""
    rng = game_rng(seed, index)
    source = SOURCES[index % len(SOURCES)]
    pos = deal(rng, cards)
    st = fast.state_from_position(pos)
    out = np.empty(fast.MAX_MOVES, dtype=np.int32)
    positions = [pos]
    moves: list[Move] = []
    searcher = None
    if source == "engine":
        # the frozen 2026 engine: the shipped pack never changes with the engine
        from fechtbuch.engines.battleklinge.baseline.search import Searcher

        # one table per game, like a player's
        searcher = Searcher(weights=np.array(ENGINE_WEIGHTS, dtype=np.int64), tt_bits=16)
    for _ in range(MAX_PLIES):
        if fast.winner(st) != fast.NO_WINNER:
            break
        if searcher is not None:
            move = _engine_choice(rng, searcher, positions[-1])
        else:
            n = fast.gen_moves(st, out)
            move = _choose(rng, st, source, [int(m) for m in out[:n]])
        child = np.empty(fast.STATE_SIZE, dtype=np.int64)
        fast.make_move(st, move, child)
        st = child
        moves.append(fast.decode_move(move))
        positions.append(fast.position_from_state(st))
    return source, positions, moves
