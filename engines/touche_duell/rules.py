"""The fast rules of the Touché duel: legal actions and their results.

Positions are immutable tuples (:class:`~fechtbuch.engines.touche_duell.state.Position`)
whose hands are counts per value, so a whole turn's choices depend only on four
small numbers: whether lunges exist, how far the mover may step back (capped at 5),
the distance (capped at 11: from there no attack or lunge reaches and every step
forward fits) and the mover's hand.  Those choices are computed once per key and
kept in a table; :func:`apply` then only does tuple arithmetic.  The deliberately
simple :mod:`~fechtbuch.engines.touche_duell.reference` states the same rules
plainly; tests check that both agree on thousands of positions.

The functions that choose actions (:func:`turn_actions`, :func:`answer_actions`,
:func:`last_actions`) take only what the mover sees, so players that may only use
their view call them too.
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.state import (
    COPIES,
    HAND_SIZE,
    NOBODY,
    PARRY,
    PASS,
    PLAYER_CHARS,
    TRACK,
    Action,
    Counts,
    IllegalActionError,
    Kind,
    Phase,
    Position,
    format_action,
)

_TURN_TABLE: dict[tuple[bool, int, int, Counts], tuple[Action, ...]] = {}
_LAST_TABLE: dict[tuple[int, Counts], tuple[Action, ...]] = {}

_MOVES = {s: Action(Kind.MOVE, s) for s in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)}
_RETREATS = {s: Action(Kind.RETREAT, s) for s in range(1, 6)}


def back_room(squares: tuple[int, int], player: int) -> int:
    """How many squares ``player`` can step back before leaving the track."""
    return squares[0] - 1 if player == 0 else TRACK - squares[1]


def advance(squares: tuple[int, int], player: int) -> int:
    """How far ``player`` has advanced from their own end square."""
    return back_room(squares, player)


def _attacks(distance: int, hand: Counts) -> list[Action]:
    if distance > 5:
        return []
    return [Action(Kind.ATTACK, 0, distance, k) for k in range(1, hand[distance - 1] + 1)]


def turn_actions(lunge: bool, back: int, distance: int, hand: Counts) -> tuple[Action, ...]:
    """Every move, attack (and lunge) of a normal turn or a riposte, in a fixed order:
    moves back, moves forward, attacks, lunges."""
    key = (lunge, min(back, 5), min(distance, 11), hand)
    found = _TURN_TABLE.get(key)
    if found is not None:
        return found
    back, distance = key[1], key[2]
    out = [_MOVES[-s] for s in range(5, 0, -1) if hand[s - 1] and s <= back]
    out += [_MOVES[s] for s in range(1, 6) if hand[s - 1] and s < distance]
    out += _attacks(distance, hand)
    if lunge:
        for s in range(1, 6):
            if hand[s - 1] and s < distance and distance - s <= 5:
                rest = list(hand)
                rest[s - 1] -= 1
                v = distance - s
                out += [Action(Kind.LUNGE, s, v, k) for k in range(1, rest[v - 1] + 1)]
    result = tuple(out)
    _TURN_TABLE[key] = result
    return result


def last_actions(distance: int, hand: Counts) -> tuple[Action, ...]:
    """The last attack: attacks from where the mover stands, or ``-``."""
    key = (min(distance, 6), hand)
    found = _LAST_TABLE.get(key)
    if found is None:
        found = _LAST_TABLE[key] = (*_attacks(key[0], hand), PASS)
    return found


def spends_turn(phase: Phase, action: Action, distance: int, hand: Counts) -> bool:
    """Whether ``action`` is one of its player's turns (for "win within N own turns").

    The rulebook's turn is moving or attacking ("In deinem Zug machst du eines davon:
    Bewegen. ... Angreifen."); a riposte is the turn right after a parry, and the
    parry itself is no turn.  The last attack is a *chance* ("eine letzte Chance zum
    Angriff") after which the hands are compared at once: declining it when the hand
    holds a card of the distance is a choice and spends a turn, but a player without
    such a card has no last attack to make, and the forced ``-`` spends none (were it
    a turn, that player would lose by "Kein erlaubter Zug", which the rules do not say).
    """
    if action.kind is Kind.PARRY:
        return False
    if action.kind is Kind.PASS and phase is Phase.LAST_ATTACK:
        return len(last_actions(distance, hand)) > 1
    return True


def answer_actions(phase: Phase, attack: tuple[int, int], back: int, hand: Counts) -> list[Action]:
    """The defender's answers to an attack: ``p`` if the hand holds K cards of V,
    and in retreat phases a retreat with each card that fits behind the defender."""
    value, count = attack
    out = [PARRY] if hand[value - 1] >= count else []
    if phase is Phase.RETREAT or phase is Phase.RETREAT_THEN_COMPARE:
        out += [_RETREATS[s] for s in range(1, 6) if hand[s - 1] and s <= back]
    return out


def legal_actions(position: Position) -> tuple[Action, ...] | list[Action]:
    """Every legal action of the player to act; empty when the round is over."""
    phase = position.phase
    mover = position.mover
    if phase is Phase.TURN or phase is Phase.RIPOSTE:
        return turn_actions(
            position.rules.lunge,
            back_room(position.squares, mover),
            position.squares[1] - position.squares[0],
            position.hands[mover],
        )
    if phase is Phase.LAST_ATTACK:
        return last_actions(position.squares[1] - position.squares[0], position.hands[mover])
    if phase.over:
        return ()
    return answer_actions(
        phase, position.attack, back_room(position.squares, mover), position.hands[mover]
    )


def _take(counts: Counts, value: int, n: int) -> Counts:
    out = list(counts)
    out[value - 1] -= n
    return tuple(out)  # type: ignore[return-value]


def _give(counts: Counts, value: int, n: int) -> Counts:
    out = list(counts)
    out[value - 1] += n
    return tuple(out)  # type: ignore[return-value]


def _refill(hand: Counts, pile: tuple[int, ...]) -> tuple[Counts, tuple[int, ...]]:
    need = HAND_SIZE - sum(hand)
    if need <= 0 or not pile:
        return hand, pile
    out = list(hand)
    for v in pile[:need]:
        out[v - 1] += 1
    return tuple(out), pile[need:]  # type: ignore[return-value]


def _ended(
    p: Position, phase: Phase, winner: int, mover: int, squares, hands, discard, pile
) -> Position:
    score = p.score
    if winner == 0:
        score = (score[0] + 1, score[1])
    elif winner == 1:
        score = (score[0], score[1] + 1)
    return Position(p.rules, squares, score, mover, phase, (0, 0), winner, hands, discard, pile)


def compare_winner(squares: tuple[int, int], hands: tuple[Counts, Counts]) -> int:
    """The hand comparison at the end of the pile: more cards of the distance wins,
    then the fencer who advanced further; ``NOBODY`` if both are equal."""
    distance = squares[1] - squares[0]
    if distance <= 5:
        a, b = hands[0][distance - 1], hands[1][distance - 1]
        if a != b:
            return 0 if a > b else 1
    a, b = advance(squares, 0), advance(squares, 1)
    if a != b:
        return 0 if a > b else 1
    return NOBODY


def _start_turn(p: Position, phase: Phase, mover: int, squares, hands, discard, pile) -> Position:
    """A turn (or riposte) of ``mover`` begins, or the round ends if they cannot act."""
    if not turn_actions(
        p.rules.lunge, back_room(squares, mover), squares[1] - squares[0], hands[mover]
    ):
        return _ended(p, Phase.BLOCKED, 1 - mover, mover, squares, hands, discard, pile)
    return Position(p.rules, squares, p.score, mover, phase, (0, 0), NOBODY, hands, discard, pile)


def _set(hands: tuple[Counts, Counts], player: int, hand: Counts) -> tuple[Counts, Counts]:
    return (hand, hands[1]) if player == 0 else (hands[0], hand)


def apply(position: Position, action: Action) -> Position:
    """The position after ``action``; :class:`IllegalActionError` if it is not legal."""
    if action not in legal_actions(position):
        raise IllegalActionError(
            f"action: {format_action(action)!r} is not legal for "
            f"{PLAYER_CHARS[position.mover]} here"
        )
    return apply_legal(position, action)


def apply_legal(p: Position, action: Action) -> Position:
    """:func:`apply` without the legality check (for search over legal actions)."""
    me = p.mover
    other = 1 - me
    hands = p.hands
    hand = hands[me]
    discard = p.discard
    pile = p.pile
    squares = p.squares
    kind = action.kind
    phase = p.phase

    if kind is Kind.PARRY:
        value, count = p.attack
        hands = _set(hands, me, _take(hand, value, count))
        discard = _give(discard, value, count)
        if phase is Phase.PARRY_THEN_LAST:
            return Position(
                p.rules,
                squares,
                p.score,
                me,
                Phase.LAST_ATTACK,
                (0, 0),
                NOBODY,
                hands,
                discard,
                pile,
            )
        if phase is Phase.PARRY_THEN_COMPARE or phase is Phase.RETREAT_THEN_COMPARE:
            winner = compare_winner(squares, hands)
            return _ended(p, Phase.COMPARE, winner, me, squares, hands, discard, pile)
        return _start_turn(p, Phase.RIPOSTE, me, squares, hands, discard, pile)

    if kind is Kind.PASS:
        winner = compare_winner(squares, hands)
        return _ended(p, Phase.COMPARE, winner, me, squares, hands, discard, pile)

    if kind is Kind.RETREAT:
        s = action.step
        squares = (squares[0] - s, squares[1]) if me == 0 else (squares[0], squares[1] + s)
        hand = _take(hand, s, 1)
        discard = _give(discard, s, 1)
        if phase is Phase.RETREAT_THEN_COMPARE:
            hands = _set(hands, me, hand)
            return _ended(
                p, Phase.COMPARE, compare_winner(squares, hands), me, squares, hands, discard, pile
            )
        hand, pile = _refill(hand, pile)
        hands = _set(hands, me, hand)
        if not pile:
            return Position(
                p.rules,
                squares,
                p.score,
                other,
                Phase.LAST_ATTACK,
                (0, 0),
                NOBODY,
                hands,
                discard,
                pile,
            )
        return _start_turn(p, Phase.TURN, other, squares, hands, discard, pile)

    if kind is Kind.MOVE:
        s = action.step
        forward = s if me == 0 else -s
        squares = (
            (squares[0] + forward, squares[1]) if me == 0 else (squares[0], squares[1] + forward)
        )
        size = abs(s)
        hand, pile = _refill(_take(hand, size, 1), pile)
        hands = _set(hands, me, hand)
        discard = _give(discard, size, 1)
        if not pile:
            return Position(
                p.rules,
                squares,
                p.score,
                other,
                Phase.LAST_ATTACK,
                (0, 0),
                NOBODY,
                hands,
                discard,
                pile,
            )
        return _start_turn(p, Phase.TURN, other, squares, hands, discard, pile)

    # an attack: standing, as the last attack, or after a lunge step
    value, count = action.value, action.count
    if kind is Kind.LUNGE:
        s = action.step
        squares = (squares[0] + s, squares[1]) if me == 0 else (squares[0], squares[1] - s)
        hand = _take(hand, s, 1)
        discard = _give(discard, s, 1)
    hand = _take(hand, value, count)
    discard = _give(discard, value, count)
    last_attack = phase is Phase.LAST_ATTACK
    hand, pile = _refill(hand, pile)
    hands = _set(hands, me, hand)
    if not p.rules.parry:
        return _ended(p, Phase.HIT, me, me, squares, hands, discard, pile)
    if last_attack:
        answer = Phase.PARRY_THEN_COMPARE
    elif kind is Kind.LUNGE:
        answer = Phase.RETREAT if pile else Phase.RETREAT_THEN_COMPARE
    else:
        answer = Phase.PARRY if pile else Phase.PARRY_THEN_LAST
    if not answer_actions(answer, (value, count), back_room(squares, other), hands[other]):
        return _ended(p, Phase.HIT, me, me, squares, hands, discard, pile)
    return Position(
        p.rules, squares, p.score, other, answer, (value, count), NOBODY, hands, discard, pile
    )


def is_over(position: Position) -> bool:
    return position.phase.over


def returns(position: Position) -> tuple[float, float]:
    """1 for the round's winner, 0 for the loser, 0.5 each when nobody wins."""
    if position.winner == NOBODY:
        return (0.5, 0.5)
    return (1.0, 0.0) if position.winner == 0 else (0.0, 1.0)


def unseen_counts(hand: Counts, discard: Counts) -> Counts:
    """Cards a player has not seen, per value: five minus own hand minus discard."""
    return tuple(COPIES - h - d for h, d in zip(hand, discard, strict=False))  # type: ignore[return-value]
