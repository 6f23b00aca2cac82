"""Dense index of the positions of one five-card set: deals, master pairs, student sets.

Every stored position is seen from the side to move (the *mover*).  A position
with Blau to move is turned 180 degrees and its colours swapped, which maps the
rules onto themselves (Blau's offsets are Gold's, negated; the banners c1 and c5
trade places), so one table answers both colours and the count "positions with
Gold to move" of a split is simply the size of its table.

A table holds one *material split* ``(a, b)``: ``a`` students of the mover and
``b`` of the other side, both masters on the board, neither on the enemy banner.
Its index is ``board * 30 + deal`` with::

    board = (pair * C(23, a) + rank(mover students)) * C(23 - a, b) + rank(other students)

* ``pair`` numbers the stored master squares ``(M, m)`` with ``M != c5`` (the
  mover's master is not on the enemy banner), ``m != c1`` and ``M != m``
  (:class:`Layout`).  Without the mirror: all 553 pairs in increasing order of
  ``M * 25 + m``.  With the left-right mirror (card sets closed under it): only
  the 283 pairs with ``M`` on files a-b, or ``M`` on the c file and ``m`` on
  files a-c: first the 270 with a mirror image elsewhere (each board stands for
  itself and its mirror image), then the 13 with both masters on the c file
  (their mirror image is also such a pair: both are stored, each stands for
  itself).  A position whose pair is not stored is looked up as its mirror image
  (board reflected, every card swapped for its mirror: the deal's slots permute).
* the mover's students are ranked among the 23 squares the masters leave free,
  the other students among the 23 - a squares still free, each by the colex
  rank of their *compressed* square numbers (square ``s`` counts the free
  squares below it), which is dense: every rank is one set;
* ``deal`` (0..29) = ``pair_of_mover_hand * 3 + side_slot``: the five cards
  sorted by card index are slots 0..4; the mover's two slots are one of the 10
  pairs in lexicographic order; the side card is one of the other three slots
  (in increasing order), the other side holds the remaining two.

The 30 deals of one board lie next to each other, so a move of the board is
looked up once for all deals (the retrograde kernel works on 30-bit deal masks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
from fechtbuch.engines.battleklinge.cards import BLAU, CARDS, GOLD, MIRROR, Card
from fechtbuch.engines.battleklinge.position import BANNER, Position, mirror_bitboard, mirror_square

NUM_SLOTS = 5
NUM_DEALS = 30
ALL_DEALS = (1 << NUM_DEALS) - 1
ENEMY_BANNER = BANNER[BLAU]  # c5, the square the mover's master must reach (mover frame)
OWN_BANNER = BANNER[GOLD]  # c1
FREE_SQUARES = 23
"""Squares left for students once both masters stand."""

HAND_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(NUM_SLOTS), 2))
_PAIR_INDEX = {pair: i for i, pair in enumerate(HAND_PAIRS)}


@dataclass(frozen=True)
class Deal:
    """One of the 30 deals of five cards, as slots (positions in the sorted card set)."""

    mover: tuple[int, int]
    other: tuple[int, int]
    side: int


def _deals() -> tuple[Deal, ...]:
    out = []
    for pair in HAND_PAIRS:
        rest = [s for s in range(NUM_SLOTS) if s not in pair]
        for side in rest:
            other = tuple(s for s in rest if s != side)
            out.append(Deal(pair, other, side))  # type: ignore[arg-type]
    return tuple(out)


DEALS = _deals()


def deal_index(mover: tuple[int, int], side: int) -> int:
    """The index of the deal where the mover holds slots ``mover`` and ``side`` lies aside."""
    pair = tuple(sorted(mover))
    rest = [s for s in range(NUM_SLOTS) if s not in pair]
    return _PAIR_INDEX[pair] * 3 + rest.index(side)  # type: ignore[index]


def child_deal(deal: int, slot: int) -> int:
    """The deal seen by the next mover after the mover plays (or passes with) ``slot``;
    -1 if the mover does not hold it."""
    d = DEALS[deal]
    if slot not in d.mover:
        return -1
    return deal_index(d.other, slot)


def _binomials() -> np.ndarray:
    table = np.zeros((26, 8), dtype=np.int64)
    for n in range(26):
        for k in range(8):
            table[n, k] = comb(n, k)
    return table


BINOM = _binomials()


def _is_position_pair(mover: int, other: int) -> bool:
    return mover != ENEMY_BANNER and other != OWN_BANNER and mover != other


NUM_PAIRS = sum(_is_position_pair(m, o) for m in range(25) for o in range(25))
"""Master pairs of live positions (553); a split has NUM_PAIRS * C(23, a) * C(23 - a, b)
placements, whether or not the mirror halves what is stored."""


def mirror_closed(cards: tuple[Card, ...]) -> bool:
    """True if the mirror image of every card of the set is in the set."""
    return {MIRROR[c] for c in cards} == set(cards)


@dataclass(frozen=True, eq=False)
class Layout:
    """How one card set's tables are indexed: the stored master pairs and the mirror.

    ``pair_index[M, m]`` is the pair number of a stored pair, -1 otherwise;
    ``pair_flip[M, m]`` is 1 for a live pair that is looked up as its mirror image.
    The first ``mirror_pairs`` pairs stand for themselves and their mirror image
    (0 without the mirror).  ``deal_mirror[d]`` is deal d of the mirrored position and
    ``mask_mirror`` maps a 30-bit deal mask through it (four byte lookups, as
    :class:`CardTables`' ``perm``); ``sigma_identity`` when every card is its own
    mirror (the deal masks need no permutation)."""

    cards: tuple[Card, ...]
    mirrored: bool
    pair_mover: np.ndarray
    pair_other: np.ndarray
    pair_index: np.ndarray
    pair_flip: np.ndarray
    mirror_pairs: int
    deal_mirror: np.ndarray
    mask_mirror: np.ndarray
    sigma_identity: bool

    @property
    def num_pairs(self) -> int:
        return len(self.pair_mover)

    def boards(self, a: int, b: int) -> int:
        """Number of stored boards of split (a, b)."""
        return self.num_pairs * comb(FREE_SQUARES, a) * comb(FREE_SQUARES - a, b)

    def positions(self, a: int, b: int) -> int:
        """Number of stored positions (boards times 30 deals, one byte each) of a split."""
        return self.boards(a, b) * NUM_DEALS

    def doubled_boards(self, a: int, b: int) -> int:
        """The leading boards of a split that also stand for their mirror image."""
        return self.mirror_pairs * comb(FREE_SQUARES, a) * comb(FREE_SQUARES - a, b)


def _layout_pairs(mirrored: bool) -> tuple[list[tuple[int, int]], np.ndarray, int]:
    """Stored pairs in index order, the flip table and the number of doubled pairs."""
    flip = np.zeros((25, 25), dtype=np.int64)
    live = [(m, o) for m in range(25) for o in range(25) if _is_position_pair(m, o)]
    if not mirrored:
        return live, flip, 0
    doubled, self_mirror = [], []
    for m, o in live:
        fm, fo = m % 5, o % 5
        if fm < 2 or (fm == 2 and fo < 2):
            doubled.append((m, o))
        elif fm == 2 and fo == 2:
            self_mirror.append((m, o))
        else:
            flip[m, o] = 1
    return doubled + self_mirror, flip, len(doubled)


@cache
def layout(cards: tuple[Card, ...]) -> Layout:
    """The index layout of a sorted card set (mirror-reduced if the set is closed under
    the mirror)."""
    mirrored = mirror_closed(cards)
    pairs, flip, mirror_pairs = _layout_pairs(mirrored)
    index = np.full((25, 25), -1, dtype=np.int64)
    for i, (m, o) in enumerate(pairs):
        index[m, o] = i
    slot = {card: i for i, card in enumerate(cards)}
    sigma = [slot[MIRROR[c]] if mirrored else i for i, c in enumerate(cards)]
    deal_mirror = np.zeros(NUM_DEALS, dtype=np.int64)
    for d, deal in enumerate(DEALS):
        deal_mirror[d] = deal_index((sigma[deal.mover[0]], sigma[deal.mover[1]]), sigma[deal.side])
    mask_mirror = np.zeros((4, 256), dtype=np.int64)
    for d in range(NUM_DEALS):
        k, bit = divmod(d, 8)
        for byte in range(256):
            if byte >> bit & 1:
                mask_mirror[k, byte] |= 1 << int(deal_mirror[d])
    return Layout(
        cards=cards,
        mirrored=mirrored,
        pair_mover=np.array([m for m, _ in pairs], dtype=np.int64),
        pair_other=np.array([o for _, o in pairs], dtype=np.int64),
        pair_index=index,
        pair_flip=flip,
        mirror_pairs=mirror_pairs,
        deal_mirror=deal_mirror,
        mask_mirror=mask_mirror,
        sigma_identity=sigma == list(range(NUM_SLOTS)),
    )


def _colex_table(max_k: int) -> np.ndarray:
    """``COMBO[k, r]``: the compressed-square bitmask of colex rank ``r`` among k-sets."""
    width = comb(FREE_SQUARES, max_k) if max_k else 1
    table = np.zeros((max_k + 1, max(width, 1)), dtype=np.int64)
    for k in range(max_k + 1):
        sets = sorted(combinations(range(FREE_SQUARES), k), key=lambda s: tuple(reversed(s)))
        for r, subset in enumerate(sets[: comb(FREE_SQUARES, k)]):
            table[k, r] = sum(1 << x for x in subset)
    return table


MAX_STUDENTS = 3
"""The largest K the index covers: K = 3 is about 4.7 * 10^10 Gold-to-move positions per
card set (docs/tablebase.md); its largest splits build on Ray (:mod:`.distributed`)."""

COMBO = _colex_table(MAX_STUDENTS)


def placements(a: int, b: int) -> int:
    """Number of boards (piece placements) of split (a, b), mirror images included."""
    return NUM_PAIRS * comb(FREE_SQUARES, a) * comb(FREE_SQUARES - a, b)


def covered_positions(a: int, b: int) -> int:
    """Positions with Gold to move of split (a, b): placements times 30 deals."""
    return placements(a, b) * NUM_DEALS


def splits(max_students: int) -> list[tuple[int, int]]:
    """Every split of a build with up to ``max_students`` per side, in build order:
    smaller material first (a capture leads to a split with one student less, so it is
    finished before), and (a, b) next to (b, a) (they are children of each other)."""
    out = []
    for total in range(2 * max_students + 1):
        for a in range(max_students + 1):
            b = total - a
            if 0 <= b <= max_students:
                out.append((a, b))
    return out


def split_groups(max_students: int) -> list[list[tuple[int, int]]]:
    """Splits built together: {(a, b), (b, a)}, in increasing material."""
    groups = []
    for a, b in splits(max_students):
        if a <= b:
            groups.append([(a, b)] if a == b else [(a, b), (b, a)])
    return groups


def build_order(max_students: int) -> list[tuple[int, int]]:
    """The splits of K in the order the builder finishes them (group by group) and the
    manifest lists them."""
    return [split for group in split_groups(max_students) for split in group]


def capture_splits(group: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The finished splits a capture from the group's splits leads to: a capture turns
    (a, b) into (b - 1, a) (the other side, one student less, moves next)."""
    out = []
    for a, b in group:
        if b and (b - 1, a) not in out:
            out.append((b - 1, a))
    return out


def group_of(split: tuple[int, int]) -> list[tuple[int, int]]:
    """The split group (built together) holding ``split``: {(a, b), (b, a)}."""
    a, b = split
    return [(a, b)] if a == b else [(min(a, b), max(a, b)), (max(a, b), min(a, b))]


def required_splits(wanted: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The splits a build of ``wanted`` must hold: their groups and every split their
    captures reach, recursively, in build order (:func:`build_order`)."""
    needed: set[tuple[int, int]] = set()
    todo = list(wanted)
    while todo:
        split = todo.pop()
        for member in group_of(split):
            if member not in needed:
                needed.add(member)
                todo.extend(capture_splits([member]))
    k = max(max(split) for split in needed)
    return [split for split in build_order(k) if split in needed]


# ---- plain-Python rank/unrank (the probe path; the kernel has compiled twins) ----


def rotate_bitboard(bb: int) -> int:
    """Turn a bitboard 180 degrees (square s -> 24 - s)."""
    out = 0
    while bb:
        low = bb & -bb
        out |= 1 << (24 - (low.bit_length() - 1))
        bb ^= low
    return out


def _rank(subset: int, free: int) -> int:
    rank, i = 0, 1
    while subset:
        low = subset & -subset
        subset ^= low
        rank += comb((free & (low - 1)).bit_count(), i)
        i += 1
    return rank


def _deposit(compressed: int, free: int) -> int:
    out, j = 0, 0
    while free and compressed >> j:
        low = free & -free
        free ^= low
        if compressed >> j & 1:
            out |= low
        j += 1
    return out


@dataclass(frozen=True)
class Placement:
    """A board in the mover's frame: master squares and student bitboards."""

    mover_master: int
    mover_students: int
    other_master: int
    other_students: int

    @property
    def split(self) -> tuple[int, int]:
        return self.mover_students.bit_count(), self.other_students.bit_count()

    def mirrored(self) -> Placement:
        """The left-right mirror image (the banners stay where they are)."""
        return Placement(
            mirror_square(self.mover_master),
            mirror_bitboard(self.mover_students),
            mirror_square(self.other_master),
            mirror_bitboard(self.other_students),
        )


def board_index(p: Placement, lay: Layout) -> int:
    """The board number of a stored placement within its split."""
    a, b = p.split
    pair = int(lay.pair_index[p.mover_master, p.other_master])
    if pair < 0:
        raise ValueError(f"master squares {p.mover_master}, {p.other_master} are not indexed")
    free = ((1 << 25) - 1) & ~(1 << p.mover_master | 1 << p.other_master)
    r1 = _rank(p.mover_students, free)
    r2 = _rank(p.other_students, free & ~p.mover_students)
    return (pair * comb(FREE_SQUARES, a) + r1) * comb(FREE_SQUARES - a, b) + r2


def board_placement(lay: Layout, a: int, b: int, board: int) -> Placement:
    """The inverse of :func:`board_index`."""
    c2 = comb(FREE_SQUARES - a, b)
    outer, r2 = divmod(board, c2)
    pair, r1 = divmod(outer, comb(FREE_SQUARES, a))
    mover, other = int(lay.pair_mover[pair]), int(lay.pair_other[pair])
    free = ((1 << 25) - 1) & ~(1 << mover | 1 << other)
    s1 = _deposit(int(COMBO[a, r1]), free)
    s2 = _deposit(int(COMBO[b, r2]), free & ~s1)
    return Placement(mover, s1, other, s2)


@dataclass(frozen=True)
class Indexed:
    """Where a position lives: its split, board and deal."""

    split: tuple[int, int]
    board: int
    deal: int

    @property
    def offset(self) -> int:
        return self.board * NUM_DEALS + self.deal


def locate(pos: Position, cards: tuple[Card, ...]) -> Indexed:
    """Index a live position of the card set ``cards`` (sorted) in the mover's frame
    (as its mirror image when its master pair is not stored)."""
    me = pos.turn
    other = 1 - me
    turn = rotate_bitboard if me == BLAU else (lambda bb: bb)
    placement = Placement(
        mover_master=turn(pos.masters[me]).bit_length() - 1,
        mover_students=turn(pos.students[me]),
        other_master=turn(pos.masters[other]).bit_length() - 1,
        other_students=turn(pos.students[other]),
    )
    slot = {card: i for i, card in enumerate(cards)}
    deal = deal_index((slot[pos.hands[me][0]], slot[pos.hands[me][1]]), slot[pos.side])
    lay = layout(cards)
    if lay.pair_flip[placement.mover_master, placement.other_master]:
        placement = placement.mirrored()
        deal = int(lay.deal_mirror[deal])
    return Indexed(placement.split, board_index(placement, lay), deal)


def position_at(
    cards: tuple[Card, ...], split: tuple[int, int], board: int, deal: int, turn: int = GOLD
) -> Position:
    """The position at an index, with ``turn`` to move (Gold: the mover's frame as is)."""
    p = board_placement(layout(cards), *split, board)
    d = DEALS[deal]
    turn_bb = rotate_bitboard if turn == BLAU else (lambda bb: bb)
    masters = [0, 0]
    students = [0, 0]
    masters[turn] = turn_bb(1 << p.mover_master)
    students[turn] = turn_bb(p.mover_students)
    masters[1 - turn] = turn_bb(1 << p.other_master)
    students[1 - turn] = turn_bb(p.other_students)
    hands = [(0, 0), (0, 0)]
    hands[turn] = tuple(sorted(cards[s] for s in d.mover))  # type: ignore[assignment]
    hands[1 - turn] = tuple(sorted(cards[s] for s in d.other))  # type: ignore[assignment]
    return Position(
        students=(students[0], students[1]),
        masters=(masters[0], masters[1]),
        turn=turn,
        hands=(hands[0], hands[1]),  # type: ignore[arg-type]
        side=cards[d.side],
    )


# ---- card-set tables for the kernel ----------------------------------------


@dataclass(frozen=True)
class CardTables:
    """Per card set: mover-frame targets by slot, deal masks and deal permutations."""

    targets: np.ndarray  # int64 [5, 25]: squares a mover's piece reaches with the slot's card
    holds: np.ndarray  # int64 [5]: deals (30-bit mask) in which the mover holds the slot
    perm: np.ndarray  # int64 [5, 4, 256]: child-deal mask bytes -> parent-deal mask


def card_tables(cards: tuple[Card, ...]) -> CardTables:
    """Targets and the deal permutations of one sorted card set.

    ``perm[slot, k, byte]`` is the set of parent deals whose mover holds ``slot``
    and whose child deal after playing it lies in the bits ``8k..8k+7`` given by
    ``byte``: OR-ing four lookups maps a 30-bit child mask to a parent mask.
    """
    targets = np.zeros((NUM_SLOTS, 25), dtype=np.int64)
    for slot, card in enumerate(cards):
        for sq in range(25):
            f, r = sq % 5, sq // 5
            mask = 0
            for dx, dy in CARDS[card].offsets:
                if 0 <= f + dx < 5 and 0 <= r + dy < 5:
                    mask |= 1 << ((r + dy) * 5 + f + dx)
            targets[slot, sq] = mask
    holds = np.zeros(NUM_SLOTS, dtype=np.int64)
    perm = np.zeros((NUM_SLOTS, 4, 256), dtype=np.int64)
    for slot in range(NUM_SLOTS):
        for deal in range(NUM_DEALS):
            child = child_deal(deal, slot)
            if child < 0:
                continue
            holds[slot] |= 1 << deal
            k, bit = divmod(child, 8)
            for byte in range(256):
                if byte >> bit & 1:
                    perm[slot, k, byte] |= 1 << deal
    return CardTables(targets, holds, perm)
