"""The public-state AND/OR view of the Touché duel: "sure wins" under hidden cards.

The prover P is the player to act at the root.  A node is what P sees
(:class:`~fechtbuch.engines.touche_duell.state.View`, viewer P): the squares,
P's hand, the discard (so the unseen cards U per value), the opponent's hand size,
the pile size, the phase and the attack.  An adversary controls everything hidden,
lazily (the argument that this equals "for every deal and pile order" is in
docs/solver.md, "Sure wins under hidden cards"):

* when the opponent acts, it may play any action that some hand of its size drawn
  from U allows (and it is blocked or hit only if some such hand leaves it no
  answer);
* when P refills, the adversary picks the drawn cards from U (a
  :class:`Pending` node between P's action and its result);
* the opponent's refills only shrink the pile; at the end of the pile its hand is
  all of U, so the hand comparison is decided by the public state.

Every transition is made by the real rules (:func:`rules.apply_legal`) on a full
position built from the view and one representative hidden hand and pile, and the
result is projected back to P's view, so the rules are written once.

``counts_turn``: P's move, attack, lunge, retreat, riposte and last attack (or
declining it while holding a card of the distance) spend a turn; a parry does not,
and neither does the ``-`` of a player who has no card for the last attack
(:func:`rules.spends_turn`: the rulebook's last attack is a chance, not a turn).
A round P wins (by a hit, the opponent blocked, or the hand comparison) is a win;
a loss or a comparison that nobody wins is a loss.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from functools import cache
from typing import NamedTuple

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.notation import counts_text, format_view
from fechtbuch.engines.touche_duell.state import (
    HAND_SIZE,
    NO_CARDS,
    TURN_PHASES,
    Action,
    Counts,
    Kind,
    Phase,
    Position,
    View,
    format_action,
    view_of,
)


class Pending(NamedTuple):
    """P has acted; the adversary now picks P's drawn cards (and whether the
    opponent can answer at all)."""

    before: View
    action: Action


class Hidden(NamedTuple):
    """The adversary's choice at a :class:`Pending` node: P's drawn cards and how
    the round stands right after (the phase text if it ended)."""

    drawn: Counts
    ended: str


PublicState = View | Pending


@cache
def sub_multisets(counts: Counts, size: int) -> tuple[Counts, ...]:
    """Every multiset of ``size`` cards within ``counts``, in lexicographic order."""
    out: list[Counts] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == 5:
            if left == 0:
                out.append(tuple(acc))  # type: ignore[arg-type]
            return
        for n in range(min(counts[i], left), -1, -1):
            acc.append(n)
            rec(i + 1, left - n, acc)
            acc.pop()

    rec(0, size, [])
    return tuple(sorted(out))


@cache
def minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@cache
def cards_of(counts: Counts) -> tuple[int, ...]:
    return tuple(v for v in range(1, 6) for _ in range(counts[v - 1]))


def view_actions(view: View) -> Sequence[Action]:
    """The legal actions of the viewer, who is to act (the rules' view functions)."""
    phase = view.phase
    if phase.over:
        return ()
    back = rules.back_room(view.squares, view.mover)
    if phase is Phase.TURN or phase is Phase.RIPOSTE:
        return rules.turn_actions(view.rules.lunge, back, view.distance, view.hand)
    if phase is Phase.LAST_ATTACK:
        return rules.last_actions(view.distance, view.hand)
    return rules.answer_actions(phase, view.attack, back, view.hand)


_FIRST = {Kind.ATTACK: 0, Kind.LUNGE: 1, Kind.PARRY: 2, Kind.PASS: 5, Kind.RETREAT: 4}


@cache
def prover_order(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The prover's actions, those most likely to win first: attacks, lunges, the
    parry, moves forward (longest first), retreats and moves back.  df-pn breaks
    ties between equal proof numbers by this order, so a hit is tried before a walk."""
    return tuple(
        sorted(
            actions,
            key=lambda a: (
                (3, -a.step)
                if a.kind is Kind.MOVE and a.step > 0
                else (4, a.step)
                if a.kind is Kind.MOVE
                else (_FIRST[a.kind], -a.count)
            ),
        )
    )


def position_of(view: View, other: Counts, pile: tuple[int, ...]) -> Position:
    """The full position of ``view`` with the opponent holding ``other`` and ``pile``."""
    hands = (view.hand, other) if view.viewer == 0 else (other, view.hand)
    return Position(
        view.rules,
        view.squares,
        view.score,
        view.mover,
        view.phase,
        view.attack,
        view.winner,
        hands,  # type: ignore[arg-type]
        view.discard,
        pile,
    )


@cache
def _opponent_options(lunge, phase, attack, back, distance, unseen, size):
    """(action, every hand that allows it) for every action some hand of ``size``
    cards from ``unseen`` allows, in the actions' natural order."""
    seen: dict[Action, list[Counts]] = {}
    for hand in sub_multisets(unseen, size):
        if phase is Phase.TURN or phase is Phase.RIPOSTE:
            actions = rules.turn_actions(lunge, back, distance, hand)
        elif phase is Phase.LAST_ATTACK:
            actions = rules.last_actions(distance, hand)
        else:
            actions = rules.answer_actions(phase, attack, back, hand)
        for action in actions:
            seen.setdefault(action, []).append(hand)
    return tuple((action, tuple(hands)) for action, hands in sorted(seen.items()))


def _status_hands(position: Position, viewer: int) -> tuple[Counts | None, Counts | None]:
    """For a position whose opponent (of ``viewer``) is to act next: a hand of the
    opponent's size from the unseen cards that can act, and one that cannot
    (``None`` where there is none).  Decided by the rules' view functions."""
    mover = position.mover
    size = sum(position.hands[mover])
    unseen = rules.unseen_counts(position.hands[viewer], position.discard)
    return _status_cached(
        position.rules.lunge,
        position.phase,
        position.attack,
        rules.back_room(position.squares, mover),
        position.distance,
        unseen,
        size,
    )


PARRY_ONLY = frozenset({Phase.PARRY, Phase.PARRY_THEN_LAST, Phase.PARRY_THEN_COMPARE})


def _fill(unseen: Counts, size: int, value: int, lo: int, hi: int) -> Counts | None:
    """A hand of ``size`` cards from ``unseen`` with ``lo..hi`` cards of ``value``
    (other values first, ascending), or ``None``."""
    hand = [0] * 5
    take = min(lo, unseen[value - 1])
    if take < lo or lo > size:
        return None
    hand[value - 1] = take
    left = size - take
    for v in range(1, 6):
        if v != value and left:
            n = min(unseen[v - 1], left)
            hand[v - 1] = n
            left -= n
    extra = min(left, unseen[value - 1] - take, hi - take)
    hand[value - 1] += extra
    left -= extra
    return None if left else tuple(hand)  # type: ignore[return-value]


@cache
def _status_cached(lunge, phase, attack, back, distance, unseen, size):
    if phase in PARRY_ONLY:
        # only a parry answers: K cards of V, or none (closed form, no enumeration)
        value, count = attack
        return _fill(unseen, size, value, count, 5), _fill(unseen, size, value, 0, count - 1)
    can = cannot = None
    for hand in sub_multisets(unseen, size):
        if phase is Phase.TURN or phase is Phase.RIPOSTE:
            ok = bool(rules.turn_actions(lunge, back, distance, hand))
        elif phase is Phase.LAST_ATTACK:
            ok = True  # declining the last attack is always possible
        else:
            ok = bool(rules.answer_actions(phase, attack, back, hand))
        if ok and can is None:
            can = hand
        if not ok and cannot is None:
            cannot = hand
        if can is not None and cannot is not None:
            break
    return can, cannot


class SureWinProblem(AndOrProblem):
    """ "P wins the round within N own turns whatever is hidden" as an AND/OR problem
    over public states (see the module doc).  ``prover`` is P (0 = A, 1 = B)."""

    def __init__(self, prover: int):
        self.prover = prover
        self._children: dict[Hashable, tuple[tuple[object, PublicState], ...]] = {}

    # ---- the seam ---------------------------------------------------------------
    def attacker_to_act(self, state: PublicState) -> bool:
        return type(state) is View and state.mover == self.prover

    def outcome(self, state: PublicState) -> Outcome | None:
        if type(state) is Pending or not state.phase.over:
            return None
        return Outcome.WIN if state.winner == self.prover else Outcome.LOSS

    def outcome_tag(self, state: View) -> str:
        """Which rule ended the round: ``treffer``, ``blockiert`` or ``vergleich``."""
        return state.phase.value

    def counts_turn(self, state: PublicState, action: object) -> bool:
        if type(action) is not Action:
            return True
        if type(state) is View:
            return rules.spends_turn(state.phase, action, state.distance, state.hand)
        return action.kind is not Kind.PARRY

    def needs_turn(self, state: PublicState) -> bool:
        # a turn, a riposte and a last attack P can make (or declines) spend a turn;
        # an attacked prover has a free action (the parry), and so has a prover
        # whose last attack cannot be made (the forced "-")
        if type(state) is not View:
            return False
        if state.phase is Phase.LAST_ATTACK:
            return len(rules.last_actions(state.distance, state.hand)) > 1
        return state.phase in TURN_PHASES

    def key(self, state: PublicState) -> Hashable:
        return state

    def format_state(self, state: PublicState) -> str:
        if type(state) is Pending:
            return f"{format_view(state.before)} after {format_action(state.action)}"
        return format_view(state)

    def format_action(self, state: PublicState, action: object) -> str:
        if type(action) is Hidden:
            return format_hidden(action)
        return format_action(action)  # type: ignore[arg-type]

    def children(self, state: PublicState) -> Sequence[tuple[object, PublicState]]:
        found = self._children.get(state)
        if found is None:
            found = self._children[state] = tuple(self._expand(state))
        return found

    def iter_children(self, state: PublicState) -> Iterator[tuple[object, PublicState]]:
        found = self._children.get(state)
        if found is not None:
            return iter(found)
        if type(state) is Pending:
            return self._iter_hidden_choices(state)
        if not state.phase.over and state.mover != self.prover:
            return self._iter_opponent_moves(state)
        return iter(self.children(state))

    # ---- transitions ------------------------------------------------------------
    def _expand(self, state: PublicState) -> list[tuple[object, PublicState]]:
        if type(state) is Pending:
            return self._hidden_choices(state)
        if state.phase.over:
            return []
        if state.mover == self.prover:
            out = []
            for action in prover_order(tuple(view_actions(state))):
                pending = Pending(state, action)
                if len(sub_multisets(state.unseen(), _drawn_count(state, action))) > 1:
                    # two draws or more: a real adversary node, expanded only when the
                    # search goes there (most actions of a disproved node never are)
                    out.append((action, pending))
                    continue
                results = self._children.get(pending)
                if results is None:
                    results = self._children[pending] = tuple(self._hidden_choices(pending))
                if len(results) == 1:
                    out.append((action, results[0][1]))
                else:
                    out.append((action, pending))
            return out
        return self._opponent_moves(state)

    def _opponent_moves(self, view: View) -> list[tuple[object, PublicState]]:
        """Every action of the opponent that some hand of its size from U allows."""
        return list(self._iter_opponent_moves(view))

    def _iter_opponent_moves(self, view: View) -> Iterator[tuple[object, PublicState]]:
        unseen = view.unseen()
        back = rules.back_room(view.squares, view.mover)
        seen = _opponent_options(
            view.rules.lunge,
            view.phase,
            view.attack,
            back,
            view.distance,
            unseen,
            view.other_size,
        )
        for action, hands in seen:
            yield action, view_of(self._adversary_result(view, unseen, action, hands), self.prover)

    def _adversary_result(self, view: View, unseen: Counts, action: Action, hands) -> Position:
        """The result of the opponent's ``action`` under the hand the adversary likes
        best among ``hands`` (all allow it).  The result may depend on the rest of
        the hand: after a parry the riposte is blocked if no card is left to act
        with.  A result that keeps the round going is identical for every such hand
        (P's view holds no card of the opponent's), and one that ends it with the
        opponent's win does not depend on the hand; only a P win does, so the first
        hand whose result is not a P win is the adversary's choice."""
        after = None
        for hand in hands:
            pile = cards_of(minus(unseen, hand))
            after = rules.apply_legal(position_of(view, hand, pile), action)
            if not (after.phase.over and after.winner == self.prover):
                return after
        assert after is not None
        return after

    def _hidden_choices(self, pending: Pending) -> list[tuple[Hidden, View]]:
        """P's action applied under every draw the adversary may pick and every status
        of the opponent right after (able to answer or act, or not)."""
        return sorted(dict(self._iter_hidden_choices(pending)).items())

    def _iter_hidden_choices(self, pending: Pending) -> Iterator[tuple[Hidden, View]]:
        """The pairs of :meth:`_hidden_choices` as they are computed (a choice may
        come twice)."""
        view, action = pending
        unseen = view.unseen()
        need = _drawn_count(view, action)
        for drawn in sub_multisets(unseen, need):
            rest = minus(unseen, drawn)
            # a representative full position: any opponent hand from the rest
            for other in sub_multisets(rest, view.other_size)[:1]:
                pile = cards_of(drawn) + cards_of(minus(rest, other))
                after = rules.apply_legal(position_of(view, other, pile), action)
                results = [after]
                if not after.phase.over and after.mover != self.prover:
                    can, cannot = _status_hands(after, self.prover)
                    results = []
                    for hand in (can, cannot):
                        if hand is None:
                            continue
                        pile = cards_of(drawn) + cards_of(minus(rest, hand))
                        results.append(rules.apply_legal(position_of(view, hand, pile), action))
                elif after.phase is Phase.HIT or after.phase is Phase.BLOCKED:
                    # P's action ended the round only for this opponent hand? recheck
                    results = self._all_statuses(view, action, drawn, rest)
                for result in results:
                    ended = result.phase.value if result.phase.over else ""
                    yield Hidden(drawn, ended), view_of(result, self.prover)

    def _all_statuses(self, view: View, action: Action, drawn: Counts, rest: Counts):
        """Results for an opponent hand that can answer and one that cannot."""
        seen = {}
        for hand in sub_multisets(rest, view.other_size):
            pile = cards_of(drawn) + cards_of(minus(rest, hand))
            after = rules.apply_legal(position_of(view, hand, pile), action)
            seen.setdefault(after.phase.over, after)
            if len(seen) == 2:
                break
        return list(seen.values())


def _cards_played(action: Action, attack: tuple[int, int]) -> tuple[int, ...]:
    kind = action.kind
    if kind is Kind.MOVE:
        return (abs(action.step),)
    if kind is Kind.RETREAT:
        return (action.step,)
    if kind is Kind.ATTACK:
        return (action.value,) * action.count
    if kind is Kind.LUNGE:
        return (action.step,) + (action.value,) * action.count
    if kind is Kind.PARRY:
        return (attack[0],) * attack[1]
    return ()


def _drawn_count(view: View, action: Action) -> int:
    """How many cards P draws after ``action``."""
    if not _refills(view, action):
        return 0
    need = HAND_SIZE - (sum(view.hand) - len(_cards_played(action, view.attack)))
    return max(0, min(need, view.pile_size))


def _refills(view: View, action: Action) -> bool:
    """Whether P refills after ``action`` (a parry does not; the endgame has no pile)."""
    return action.kind not in (Kind.PARRY, Kind.PASS) and view.pile_size > 0


def format_hidden(choice: Hidden) -> str:
    """``zieht 35`` (P draws a 3 and a 5), ``zieht -`` (no card), with ``, treffer`` /
    ``, blockiert`` / ``, vergleich`` when the round ends right there."""
    text = f"zieht {counts_text(choice.drawn)}"
    return f"{text}, {choice.ended}" if choice.ended else text


def root_problem(view: View) -> SureWinProblem:
    """The problem for the player to act in ``view``, who must be the viewer."""
    if view.viewer != view.mover:
        from fechtbuch.engines.touche_duell.state import NotationError

        raise NotationError("view: the sure-win prover needs the view of the player to act")
    if view.phase.over:
        from fechtbuch.engines.touche_duell.state import NotationError

        raise NotationError("view: the round is already over")
    return SureWinProblem(view.viewer)


__all__ = [
    "NO_CARDS",
    "Hidden",
    "Pending",
    "SureWinProblem",
    "format_hidden",
    "root_problem",
    "sub_multisets",
    "view_actions",
]
