"""The rules of the Touché duel, written plainly for checking the fast code.

Clarity over speed: hands are lists of card values, every rule is one ``if`` with
the rule's words next to it, and nothing is cached.  ``tests/`` play thousands of
random positions and require :mod:`~fechtbuch.engines.touche_duell.rules` to give
the same legal actions and the same result for every action.

Rules used (docs/touche-duell.md decides where the rulebook is silent):

* turn: move one card's value forward or back (stay on squares 1..23, never onto
  or past the opponent), attack with cards whose value is the distance, or (level
  fortgeschritten) lunge: step forward leaving a distance >= 1, then attack with
  cards of the new distance; afterwards refill to five cards from the pile;
* kinder: every attack hits;
* the defender parries with as many cards of the attack's value; against a lunge
  they may instead retreat (one card, step back on the track), which is their whole
  turn (they refill, the attacker moves next); after a parry they take their own
  turn at once and refill only after it; whoever cannot answer is hit;
* whoever cannot move, attack or lunge at the start of a turn loses the round;
* the refill that takes the last card: nobody moves any more; a pending attack is
  answered as usual; the other player then gets one last attack from where they
  stand (not after a lunge took the last card); then the hands decide.
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    TRACK,
    Action,
    IllegalActionError,
    Kind,
    Phase,
    Position,
    format_action,
)


class _Round:
    """A mutable copy of a position with hands and discard as lists of cards."""

    def __init__(self, p: Position) -> None:
        self.rules = p.rules
        self.pos = list(p.squares)  # pos[0] = square of A, pos[1] = square of B
        self.score = list(p.score)
        self.mover = p.mover
        self.phase = p.phase
        self.attack = p.attack
        self.winner = p.winner
        self.hands = [_cards(p.hands[0]), _cards(p.hands[1])]
        self.discard = _cards(p.discard)
        self.pile = list(p.pile)

    def distance(self) -> int:
        return self.pos[1] - self.pos[0]

    def position(self) -> Position:
        def counts(cards):
            return tuple(cards.count(v) for v in (1, 2, 3, 4, 5))

        return Position(
            self.rules,
            (self.pos[0], self.pos[1]),
            (self.score[0], self.score[1]),
            self.mover,
            self.phase,
            self.attack,
            self.winner,
            (counts(self.hands[0]), counts(self.hands[1])),
            counts(self.discard),
            tuple(self.pile),
        )

    def forward_square(self, player: int, steps: int) -> int:
        """The square ``player`` reaches going ``steps`` towards the opponent."""
        return self.pos[player] + steps if player == 0 else self.pos[player] - steps

    def play(self, player: int, value: int) -> None:
        self.hands[player].remove(value)
        self.discard.append(value)

    def refill(self, player: int) -> bool:
        """Draw up to five cards; True if this took the last card of the pile."""
        took_any = False
        while len(self.hands[player]) < 5 and self.pile:
            self.hands[player].append(self.pile.pop(0))
            took_any = True
        return took_any and not self.pile

    def end(self, phase: Phase, winner: int) -> None:
        self.phase = phase
        self.winner = winner
        self.attack = (0, 0)
        if winner != NOBODY:
            self.score[winner] += 1

    def compare_hands(self) -> None:
        d = self.distance()
        a = self.hands[0].count(d)
        b = self.hands[1].count(d)
        if a > b:
            self.end(Phase.COMPARE, 0)
        elif b > a:
            self.end(Phase.COMPARE, 1)
        else:
            advanced_a = self.pos[0] - 1
            advanced_b = TRACK - self.pos[1]
            if advanced_a > advanced_b:
                self.end(Phase.COMPARE, 0)
            elif advanced_b > advanced_a:
                self.end(Phase.COMPARE, 1)
            else:
                self.end(Phase.COMPARE, NOBODY)


def _cards(counts) -> list[int]:
    return [v for v in (1, 2, 3, 4, 5) for _ in range(counts[v - 1])]


def _turn_actions(r: _Round) -> list[Action]:
    me = r.mover
    hand = r.hands[me]
    d = r.distance()
    out: list[Action] = []
    for value in sorted(set(hand)):
        # move forward: not onto or past the opponent
        if value < d:
            out.append(Action(Kind.MOVE, value))
        # move back: not off the track
        back_square = r.forward_square(me, -value)
        if 1 <= back_square <= TRACK:
            out.append(Action(Kind.MOVE, -value))
    # attack: cards whose value is the distance, one or more
    for k in range(1, hand.count(d) + 1):
        out.append(Action(Kind.ATTACK, 0, d, k))
    # lunge: step forward (distance stays >= 1), attack with the new distance
    if r.rules.lunge:
        for step in sorted(set(hand)):
            new_d = d - step
            if new_d < 1:
                continue
            rest = list(hand)
            rest.remove(step)
            for k in range(1, rest.count(new_d) + 1):
                out.append(Action(Kind.LUNGE, step, new_d, k))
    return out


def _answers(r: _Round) -> list[Action]:
    me = r.mover
    value, count = r.attack
    out = []
    if r.hands[me].count(value) >= count:
        out.append(Action(Kind.PARRY))
    if r.phase in (Phase.RETREAT, Phase.RETREAT_THEN_COMPARE):
        for step in sorted(set(r.hands[me])):
            if 1 <= r.forward_square(me, -step) <= TRACK:
                out.append(Action(Kind.RETREAT, step))
    return out


def _legal(r: _Round) -> list[Action]:
    if r.phase in (Phase.TURN, Phase.RIPOSTE):
        return _turn_actions(r)
    if r.phase is Phase.LAST_ATTACK:
        d = r.distance()
        attacks = [Action(Kind.ATTACK, 0, d, k) for k in range(1, r.hands[r.mover].count(d) + 1)]
        return attacks + [Action(Kind.PASS)]
    if r.phase in (Phase.HIT, Phase.BLOCKED, Phase.COMPARE):
        return []
    return _answers(r)


def legal_actions(position: Position) -> list[Action]:
    """Every legal action (order: not significant here; compare as sets)."""
    return _legal(_Round(position))


def _begin_turn(r: _Round, player: int, phase: Phase) -> None:
    r.mover = player
    r.phase = phase
    r.attack = (0, 0)
    if not _turn_actions(r):  # no legal move at the start of a turn: the round is lost
        r.end(Phase.BLOCKED, 1 - player)


def _attacked(r: _Round, attacker: int, value: int, count: int, lunge: bool, took_last: bool):
    defender = 1 - attacker
    last_attack = r.phase is Phase.LAST_ATTACK
    if not r.rules.parry:  # kinder: every attack hits
        r.end(Phase.HIT, attacker)
        return
    r.mover = defender
    r.attack = (value, count)
    if last_attack:
        r.phase = Phase.PARRY_THEN_COMPARE
    elif lunge:
        r.phase = Phase.RETREAT_THEN_COMPARE if took_last else Phase.RETREAT
    else:
        r.phase = Phase.PARRY_THEN_LAST if took_last else Phase.PARRY
    if not _answers(r):  # cannot parry (nor retreat): hit
        r.mover = attacker
        r.end(Phase.HIT, attacker)


def apply(position: Position, action: Action) -> Position:
    """The position after ``action``; :class:`IllegalActionError` if not legal."""
    r = _Round(position)
    if action not in _legal(r):
        raise IllegalActionError(f"action: {format_action(action)!r} is not legal here")
    me, other = r.mover, 1 - r.mover
    if action.kind is Kind.MOVE:
        r.play(me, abs(action.step))
        r.pos[me] = r.forward_square(me, action.step)
        if r.refill(me):
            r.mover, r.phase = other, Phase.LAST_ATTACK
        else:
            _begin_turn(r, other, Phase.TURN)
    elif action.kind in (Kind.ATTACK, Kind.LUNGE):
        if action.kind is Kind.LUNGE:
            r.play(me, action.step)
            r.pos[me] = r.forward_square(me, action.step)
        for _ in range(action.count):
            r.play(me, action.value)
        took_last = r.refill(me)
        _attacked(r, me, action.value, action.count, action.kind is Kind.LUNGE, took_last)
    elif action.kind is Kind.PARRY:
        value, count = r.attack
        for _ in range(count):
            r.play(me, value)
        if r.phase is Phase.PARRY_THEN_LAST:
            r.phase, r.attack = Phase.LAST_ATTACK, (0, 0)
        elif r.phase in (Phase.PARRY_THEN_COMPARE, Phase.RETREAT_THEN_COMPARE):
            r.compare_hands()
        else:  # riposte: the own turn right away, refill only after it
            _begin_turn(r, me, Phase.RIPOSTE)
    elif action.kind is Kind.RETREAT:
        r.play(me, action.step)
        r.pos[me] = r.forward_square(me, -action.step)
        if r.phase is Phase.RETREAT_THEN_COMPARE:
            r.compare_hands()
        elif r.refill(me):
            r.mover, r.phase, r.attack = other, Phase.LAST_ATTACK, (0, 0)
        else:
            _begin_turn(r, other, Phase.TURN)
    else:  # PASS: no last attack; the hands decide
        r.compare_hands()
    return r.position()
