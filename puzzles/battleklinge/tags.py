"""Motif tags for exercises: one small function per motif.

Each tagger takes the :class:`PuzzleFacts` of a proved exercise and answers
yes or no from the rules alone (the pure-Python reference; exercises are few,
so clarity beats speed here).  Examples for every tag are in docs/puzzles.md.

Tags:
  master-captured  the main line ends by taking the enemy master
  banner-reached   the main line ends with the attacker's master on the enemy banner
  quiet-key        the key captures nothing
  sacrifice        the key puts a piece where the defender can take it, or lets the
                   defender take a piece it could not take before
  forced-pass      somewhere in the solution the defender has no move and must pass
  card-handover    N >= 3: the key's jump is possible with both hand cards, but only the
                   key's card keeps the hit; the defender receives that card and can
                   still play it, so the card handed over is part of the solution
  double-threat    after the key the attacker threatens two different hits at once
  master-moves     the attacker's master moves in the main line
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Move, Position


@dataclass(frozen=True)
class PuzzleFacts:
    position: Position
    n: int
    key: Move
    line: tuple[Move, ...]
    tree: dict
    winning_first_moves: frozenset[Move]

    @classmethod
    def of_puzzle(
        cls, position: Position, n: int, key: Move, line: Sequence[Move], tree: dict
    ) -> PuzzleFacts:
        """The facts of a proved exercise, whose key is its only winning first move:
        how mining builds them for the tags it stores."""
        return cls(position, n, key, tuple(line), tree, frozenset([key]))

    @classmethod
    def of_record(cls, record: dict) -> PuzzleFacts:
        """The facts of a stored exercise (a pack puzzle or a mined candidate), built
        as mining built them, so its stored ``tags`` are ``tags_for`` of these."""
        return cls.of_puzzle(
            Position.from_text(record["position"]),
            record["n"],
            Move.from_text(record["key"]),
            [Move.from_text(m) for m in record["line"]],
            record["solution"],
        )

    @property
    def attacker(self) -> int:
        return self.position.turn

    def line_positions(self) -> list[Position]:
        """The positions before each move of the main line, and the final one."""
        out = [self.position]
        for move in self.line:
            out.append(reference.play(out[-1], move))
        return out


def _captures(pos: Position, move: Move) -> bool:
    return move.to_sq is not None and bool(pos.pieces(1 - pos.turn) >> move.to_sq & 1)


def master_captured(f: PuzzleFacts) -> bool:
    """The main line ends by taking the defender's master."""
    before = f.line_positions()[-2]
    return bool(before.masters[1 - f.attacker] >> f.line[-1].to_sq & 1)


def banner_reached(f: PuzzleFacts) -> bool:
    """The main line ends with the attacker's master on the enemy banner."""
    return not master_captured(f)


def quiet_key(f: PuzzleFacts) -> bool:
    """The key captures nothing (ruhiger Zug)."""
    return not _captures(f.position, f.key)


def _takeable(pos: Position) -> set[int]:
    """Squares of the waiting side's pieces that the side to move can capture."""
    return {m.to_sq for m in reference.legal_moves(pos) if _captures(pos, m)}


def sacrifice(f: PuzzleFacts) -> bool:
    """The key puts a piece where the defender can take it, or lets the defender take
    a piece it could not take before (Opfer)."""
    after = reference.play(f.position, f.key)
    if after.winner() is not None:
        return False
    pos = f.position
    # the defender's hand is the same before and after the key: compare what it could take
    before = replace(pos, turn=1 - pos.turn)
    exposed = _takeable(after)
    return f.key.to_sq in exposed or bool(exposed - _takeable(before))


def forced_pass(f: PuzzleFacts) -> bool:
    """Somewhere in the solution tree the defender has no move and must pass."""

    def walk(node) -> bool:
        if node == "hit":
            return False
        for defender_node in node.values():
            if defender_node == "hit":
                continue
            if all(reply.endswith(":pass") for reply in defender_node):
                return True
            if any(walk(sub) for sub in defender_node.values()):
                return True
        return False

    return walk(f.tree)


def card_handover(f: PuzzleFacts) -> bool:
    """N >= 3: the key's jump is possible with both hand cards, but only the key's
    card keeps the hit; the defender receives that card and can still play it."""
    # with N = 2 the defender never moves again after receiving the card, so the card
    # it receives cannot matter; the twin would only differ in the card kept
    if f.key.is_pass or f.n < 3:
        return False
    other = next(c for c in f.position.hands[f.attacker] if c != f.key.card)
    twin = Move(other, f.key.from_sq, f.key.to_sq)
    return twin in reference.legal_moves(f.position) and twin not in f.winning_first_moves


def hits_if_to_move_again(pos: Position) -> set[tuple[int | None, int | None]]:
    """(from, to) of the hits the player who just moved would have with a free move."""
    again = replace(pos, turn=1 - pos.turn)
    return {
        (m.from_sq, m.to_sq)
        for m in reference.legal_moves(again)
        if reference.play(again, m).winner() == again.turn
    }


def double_threat(f: PuzzleFacts) -> bool:
    """After the key a free move would hit in two different ways: from two squares
    or onto two squares (Doppelangriff)."""
    after = reference.play(f.position, f.key)
    if after.winner() is not None:
        return False
    hits = hits_if_to_move_again(after)
    return len({fr for fr, _ in hits}) >= 2 or len({to for _, to in hits}) >= 2


def master_moves(f: PuzzleFacts) -> bool:
    """The attacker's master moves in the main line."""
    positions = f.line_positions()
    return any(
        positions[i].masters[f.attacker] >> move.from_sq & 1
        for i, move in enumerate(f.line)
        if i % 2 == 0 and not move.is_pass
    )


TAGGERS: dict[str, Callable[[PuzzleFacts], bool]] = {
    "master-captured": master_captured,
    "banner-reached": banner_reached,
    "quiet-key": quiet_key,
    "sacrifice": sacrifice,
    "forced-pass": forced_pass,
    "card-handover": card_handover,
    "double-threat": double_threat,
    "master-moves": master_moves,
}
LANDING_TAGS = ("master-captured", "banner-reached")


def tags_for(facts: PuzzleFacts) -> list[str]:
    """All tags that apply, in the order of :data:`TAGGERS`."""
    return [name for name, tagger in TAGGERS.items() if tagger(facts)]
