"""The fast move generator: bitboards, copy-make states and perft, compiled with numba.

State encoding (an ``int64`` array of :data:`STATE_SIZE`; search code keeps a
stack of them, one row per ply, and copies on make, which for nine words is
cheaper than undo bookkeeping)::

    F_PIECES + c   bitboard of all pieces of colour c (master included), 25 bits
    F_MASTER + c   bitboard of c's master (one bit, or 0 when captured)
    F_HAND + c     16-bit mask of the two cards in c's hand (order-free by design)
    F_SIDE         index of the side card
    F_TURN         colour to move (0 Gold, 1 Blau)
    F_HASH         64-bit Zobrist hash of everything above

Move encoding (an ``int32``)::

    bits 0-3   card index (0..15)
    bits 4-8   from square (0..24)
    bits 9-13  to square (0..24)
    bit  14    MOVE_PASS: exchange without moving (from/to are 0)

Read and build move codes only through :func:`pack_move`, :func:`move_card`,
:func:`move_origin`, :func:`move_target` and :func:`move_is_pass` (compiled inline,
so they cost nothing), never with shifts of one's own.

Target tables: ``TARGETS[colour, card, square]`` is the bitboard of squares a
piece of that colour on that square reaches with that card (on the board, not
yet masked by own pieces).  Blau's offsets are the negated card offsets.

All functions take and return plain numpy arrays and ints so that solver code
compiled elsewhere can call them.  Every jitted function is non-recursive
(explicit stacks) because numba's on-disk cache mis-handles recursion.
"""

from __future__ import annotations

import hashlib

import numpy as np
from fechtbuch.engines.battleklinge.cards import BLAU, CARDS, GOLD, NUM_CARDS
from fechtbuch.engines.battleklinge.position import BANNER, Move, Position
from fechtbuch.engines.compiled import njit
from llvmlite import ir  # noqa: F401  (numba's intrinsic codegen builds on llvmlite)
from numba import types
from numba.extending import intrinsic

F_PIECES = 0
F_MASTER = 2
F_HAND = 4
F_SIDE = 6
F_TURN = 7
F_HASH = 8
STATE_SIZE = 9

MOVE_PASS = 1 << 14
MAX_MOVES = 48
"""Upper bound on legal moves: 5 pieces x 2 cards x 4 offsets = 40."""

NO_WINNER = -1


def _build_targets() -> np.ndarray:
    table = np.zeros((2, NUM_CARDS, 25), dtype=np.int64)
    for color, sign in ((GOLD, 1), (BLAU, -1)):
        for card, spec in enumerate(CARDS):
            for sq in range(25):
                file, rank = sq % 5, sq // 5
                mask = 0
                for dx, dy in spec.offsets:
                    tf, tr = file + sign * dx, rank + sign * dy
                    if 0 <= tf < 5 and 0 <= tr < 5:
                        mask |= 1 << (tr * 5 + tf)
                table[color, card, sq] = mask
    return table


def _zobrist(label: str, count: int) -> np.ndarray:
    """Hash keys derived from SHA-256 so they are identical on every platform and version."""
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        digest = hashlib.sha256(f"battleklinge-zobrist/{label}/{i}".encode()).digest()
        keys[i] = int.from_bytes(digest[:8], "little", signed=True)
    return keys


TARGETS = _build_targets()
# Z_PIECE[colour, kind (0 student, 1 master), square]
Z_PIECE = _zobrist("piece", 2 * 2 * 25).reshape(2, 2, 25)
Z_HAND = _zobrist("hand", 2 * NUM_CARDS).reshape(2, NUM_CARDS)
Z_SIDE = _zobrist("side", NUM_CARDS)
Z_TURN = _zobrist("turn", 1)[0]
BANNER_BIT = np.array([1 << BANNER[GOLD], 1 << BANNER[BLAU]], dtype=np.int64)
BANNER_SQUARE = np.array([BANNER[GOLD], BANNER[BLAU]], dtype=np.int64)


@intrinsic
def popcount(typingctx, x):
    """Hardware population count (LLVM ``ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_square(typingctx, x):
    """Index of the lowest set bit (LLVM ``cttz``); undefined for 0."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@njit(cache=True, inline="always")
def pack_move(card, origin, target):
    """The code of the move of ``card`` from square ``origin`` to square ``target``."""
    return card | (origin << 4) | (target << 9)


@njit(cache=True, inline="always")
def move_card(move):
    """The card index (0..15) of a move code."""
    return move & 15


@njit(cache=True, inline="always")
def move_origin(move):
    """The from square (0..24) of a move code; 0 for a pass."""
    return (move >> 4) & 31


@njit(cache=True, inline="always")
def move_target(move):
    """The to square (0..24) of a move code; 0 for a pass."""
    return (move >> 9) & 31


@njit(cache=True, inline="always")
def move_is_pass(move):
    """Whether a move code is a pass (an exchange without moving)."""
    return (move & MOVE_PASS) != 0


@njit(cache=True, inline="always")
def winner(st):
    """The school that has already won (GOLD or BLAU), NO_WINNER (-1) if the game goes on."""
    if st[F_MASTER + BLAU] == 0 or st[F_MASTER + GOLD] == BANNER_BIT[BLAU]:
        return GOLD
    if st[F_MASTER + GOLD] == 0 or st[F_MASTER + BLAU] == BANNER_BIT[GOLD]:
        return BLAU
    return NO_WINNER


@njit(cache=True, inline="always")
def winning_move(st):
    """A move that wins at once (captures the enemy master or puts the own master
    on the enemy banner), or -1."""
    return winning_move_for(st, st[F_TURN])


@njit(cache=True)
def winning_move_for(st, me):
    """A move with which ``me`` would win at once if it were to move now (its own
    hand), or -1: the threat test of the search asks it for the side not to move."""
    op = 1 - me
    own = st[F_PIECES + me]
    enemy_master = st[F_MASTER + op]
    my_master = st[F_MASTER + me]
    hand = st[F_HAND + me]
    while hand:
        card = lowest_square(hand)
        hand &= hand - 1
        pieces = own
        while pieces:
            sq = lowest_square(pieces)
            pieces &= pieces - 1
            targets = TARGETS[me, card, sq] & ~own
            if targets & enemy_master:
                return pack_move(card, sq, lowest_square(enemy_master))
            if (np.int64(1) << sq) == my_master and targets & BANNER_BIT[op]:
                return pack_move(card, sq, BANNER_SQUARE[op])
    return -1


@njit(cache=True)
def compute_hash(st):
    """Zobrist hash of a state from scratch (make_move keeps it incrementally)."""
    h = Z_TURN if st[F_TURN] == 1 else np.int64(0)
    for color in range(2):
        bb = st[F_PIECES + color]
        while bb:
            sq = lowest_square(bb)
            bb &= bb - 1
            kind = 1 if st[F_MASTER + color] == (np.int64(1) << sq) else 0
            h ^= Z_PIECE[color, kind, sq]
        hand = st[F_HAND + color]
        while hand:
            card = lowest_square(hand)
            hand &= hand - 1
            h ^= Z_HAND[color, card]
    h ^= Z_SIDE[st[F_SIDE]]
    return h


@njit(cache=True)
def gen_moves(st, out):
    """Write the legal moves of a live position into ``out``; return their number.

    Order: card index, then from square, then to square.  With no move for
    any piece, the two pass moves (one per card).  Call only on positions
    that are not decided.
    """
    me = st[F_TURN]
    own = st[F_PIECES + me]
    n = 0
    hand = st[F_HAND + me]
    while hand:
        card = lowest_square(hand)
        hand &= hand - 1
        pieces = own
        while pieces:
            sq = lowest_square(pieces)
            pieces &= pieces - 1
            targets = TARGETS[me, card, sq] & ~own
            while targets:
                to = lowest_square(targets)
                targets &= targets - 1
                out[n] = pack_move(card, sq, to)
                n += 1
    if n == 0:
        hand = st[F_HAND + me]
        while hand:
            card = lowest_square(hand)
            hand &= hand - 1
            out[n] = card | MOVE_PASS
            n += 1
    return n


@njit(cache=True)
def make_move(st, move, out):
    """Write the state after ``move`` into ``out`` (copy-make; ``st`` is untouched)."""
    for i in range(STATE_SIZE):
        out[i] = st[i]
    me = st[F_TURN]
    op = 1 - me
    card = move_card(move)
    h = st[F_HASH]
    if not move_is_pass(move):
        fr = move_origin(move)
        to = move_target(move)
        from_bit = np.int64(1) << fr
        to_bit = np.int64(1) << to
        if st[F_PIECES + op] & to_bit:
            out[F_PIECES + op] = st[F_PIECES + op] ^ to_bit
            if st[F_MASTER + op] == to_bit:
                out[F_MASTER + op] = 0
                h ^= Z_PIECE[op, 1, to]
            else:
                h ^= Z_PIECE[op, 0, to]
        out[F_PIECES + me] = st[F_PIECES + me] ^ (from_bit | to_bit)
        if st[F_MASTER + me] == from_bit:
            out[F_MASTER + me] = to_bit
            h ^= Z_PIECE[me, 1, fr] ^ Z_PIECE[me, 1, to]
        else:
            h ^= Z_PIECE[me, 0, fr] ^ Z_PIECE[me, 0, to]
    side = st[F_SIDE]
    out[F_HAND + me] = st[F_HAND + me] ^ (np.int64(1) << card) ^ (np.int64(1) << side)
    h ^= Z_HAND[me, card] ^ Z_HAND[me, side] ^ Z_SIDE[side] ^ Z_SIDE[card]
    out[F_SIDE] = card
    out[F_TURN] = op
    out[F_HASH] = h ^ Z_TURN


@njit(cache=True, inline="always")
def count_moves(color, own, hand):
    """Number of piece moves for ``color`` with pieces ``own`` and card mask ``hand``."""
    n = 0
    while hand:
        card = lowest_square(hand)
        hand &= hand - 1
        pieces = own
        while pieces:
            sq = lowest_square(pieces)
            pieces &= pieces - 1
            n += popcount(TARGETS[color, card, sq] & ~own)
    return n


@njit(cache=True)
def _perft2(st):
    """Leaves two plies below a live state, counted without making the last two plies.

    A child's leaf count is the opponent's move count (2 if it must pass, 1
    if the child is decided).  The opponent's hand does not change with our
    move and our pieces never block theirs, so every quiet move shares one
    count; only captures (fewer enemy pieces) are counted separately.
    """
    me = st[F_TURN]
    op = 1 - me
    own = st[F_PIECES + me]
    opp = st[F_PIECES + op]
    opp_master = st[F_MASTER + op]
    my_master = st[F_MASTER + me]
    opp_hand = st[F_HAND + op]
    base = count_moves(op, opp, opp_hand)
    quiet_leaves = base if base else 2
    total = 0
    any_move = False
    hand = st[F_HAND + me]
    while hand:
        card = lowest_square(hand)
        hand &= hand - 1
        pieces = own
        while pieces:
            sq = lowest_square(pieces)
            pieces &= pieces - 1
            targets = TARGETS[me, card, sq] & ~own
            if targets == 0:
                continue
            any_move = True
            if (np.int64(1) << sq) == my_master and targets & BANNER_BIT[op]:
                total += 1
                targets &= ~BANNER_BIT[op]
            if targets & opp_master:
                total += 1
                targets &= ~opp_master
            total += popcount(targets & ~opp) * quiet_leaves
            captures = targets & opp
            while captures:
                cap = captures & -captures
                captures ^= cap
                n = count_moves(op, opp ^ cap, opp_hand)
                total += n if n else 2
    if not any_move:
        total = 2 * quiet_leaves
    return total


@njit(cache=True)
def _perft_walk(st, depth, bulk):
    """The one perft driver (explicit stack): leaves ``depth`` plies below ``st``, a
    decided position one leaf, a pass position one child per card.  With ``bulk`` the
    last two plies are counted by :func:`_perft2` without making them."""
    if depth == 0 or winner(st) != NO_WINNER:
        return np.int64(1)
    if bulk and depth == 1:
        n = count_moves(st[F_TURN], st[F_PIECES + st[F_TURN]], st[F_HAND + st[F_TURN]])
        return np.int64(n if n else 2)
    if bulk and depth == 2:
        return _perft2(st)
    states = np.empty((depth + 1, STATE_SIZE), dtype=np.int64)
    moves = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    counts = np.zeros(depth + 1, dtype=np.int64)
    index = np.zeros(depth + 1, dtype=np.int64)
    states[0] = st
    counts[0] = gen_moves(states[0], moves[0])
    ply = 0
    total = np.int64(0)
    while ply >= 0:
        if index[ply] == counts[ply]:
            ply -= 1
            continue
        move = moves[ply, index[ply]]
        index[ply] += 1
        child = states[ply + 1]
        make_move(states[ply], move, child)
        if ply + 1 == depth or winner(child) != NO_WINNER:
            total += 1
        elif bulk and depth - ply - 1 == 2:
            total += _perft2(child)
        else:
            ply += 1
            counts[ply] = gen_moves(states[ply], moves[ply])
            index[ply] = 0
    return total


@njit(cache=True)
def perft(st, depth):
    """Leaf count ``depth`` plies below ``st``, the last two plies counted in bulk."""
    return _perft_walk(st, depth, True)


@njit(cache=True)
def perft_plain(st, depth):
    """Perft that makes every move down to the leaves: the honest nodes/s figure of
    gen_moves + make_move, and a second opinion on :func:`perft`'s bulk counting."""
    return _perft_walk(st, depth, False)


# ---- conversions between the Python types and the compiled encoding -------


def state_from_position(pos: Position) -> np.ndarray:
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for color in (GOLD, BLAU):
        st[F_PIECES + color] = pos.pieces(color)
        st[F_MASTER + color] = pos.masters[color]
        st[F_HAND + color] = sum(1 << c for c in pos.hands[color])
    st[F_SIDE] = pos.side
    st[F_TURN] = pos.turn
    st[F_HASH] = compute_hash(st)
    return st


def position_from_state(st: np.ndarray) -> Position:
    hands = []
    for color in (GOLD, BLAU):
        mask = int(st[F_HAND + color])
        hands.append(tuple(c for c in range(NUM_CARDS) if mask >> c & 1))
    masters = (int(st[F_MASTER + GOLD]), int(st[F_MASTER + BLAU]))
    return Position(
        students=(int(st[F_PIECES + GOLD]) & ~masters[0], int(st[F_PIECES + BLAU]) & ~masters[1]),
        masters=masters,
        turn=int(st[F_TURN]),
        hands=(hands[0], hands[1]),  # type: ignore[arg-type]
        side=int(st[F_SIDE]),
    )


def encode_move(move: Move) -> int:
    if move.from_sq is None or move.to_sq is None:
        return move.card | MOVE_PASS
    return int(pack_move(move.card, move.from_sq, move.to_sq))


def decode_move(code: int) -> Move:
    code = int(code)
    if move_is_pass(code):
        return Move(int(move_card(code)))
    return Move(int(move_card(code)), int(move_origin(code)), int(move_target(code)))


def children(st: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(move code, state after it) for every legal move of a live state, in generator order."""
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = gen_moves(st, out)
    result = []
    for code in out[:n]:
        child = np.empty(STATE_SIZE, dtype=np.int64)
        make_move(st, code, child)
        result.append((int(code), child))
    return result


def legal_moves(pos: Position) -> list[Move]:
    """The fast generator's moves as :class:`Move` objects (empty if decided)."""
    st = state_from_position(pos)
    if winner(st) != NO_WINNER:
        return []
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = gen_moves(st, out)
    return [decode_move(c) for c in out[:n]]


def play(pos: Position, move: Move) -> Position:
    """The position after a move, computed by the compiled make_move."""
    st = state_from_position(pos)
    out = np.empty(STATE_SIZE, dtype=np.int64)
    make_move(st, encode_move(move), out)
    return position_from_state(out)
