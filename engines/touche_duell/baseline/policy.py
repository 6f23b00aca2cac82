"""meister-2026: the frozen copy of the Touché duel's meister for mining.

A copy of ``players.py`` at commit 06c472c (meister's exact tactics, stark's card
counting, successive halving over determinised roll-outs), changed only where the
live meister reaches outside the engine:

* the exact tactics are :func:`sure_win_key` here, a plain exhaustive recursion
  over the public-state problem (:class:`~fechtbuch.engines.touche_duell.public.SureWinProblem`)
  without a node limit, so its answer is a function of the view and the definition
  alone (the live meister asks the solver's df-pn with a limit of 1,500 nodes, whose
  give-ups would follow any change of the prover);
* the roll-out budget is fixed by the caller (:data:`MINING_SAMPLES` for mining,
  docs/performance.md has the measurement behind it);
* the first key in the rules' action order is played when several win.

Do not edit (see the package doc).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from math import comb

from fechtbuch.engines.game import Outcome
from fechtbuch.engines.seeding import HashStream
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.public import PublicState, SureWinProblem, position_of
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    TRACK,
    TURN_PHASES,
    Action,
    Counts,
    Kind,
    Level,
    Phase,
    Position,
    View,
    view_of,
)

NAME = "meister-2026"
MINING_SAMPLES = 24
"""Determinised samples per candidate in the first halving round when mining."""

GROUND = 0.01
"""stark: value of one square of ground gained by a move."""
ENDGAME = {
    Level.KINDER: (6, 0.2),
    Level.STANDARD: (15, 1.0),
    Level.FORTGESCHRITTEN: (15, 2.0),
}
"""stark, per rule level: (pile size from which on, weight) of the hand comparison in
the score of a move.  With parries most rounds at the higher levels end in the
comparison, so it counts from the first move there (tuned by matches against mittel,
docs/strength.md)."""
LUNGE_RISK = 0.6
"""stark: share of a lunge's hit chance that counts as danger (the defender may retreat)."""

PROOF_TURNS = 2
"""meister: its own turns within which it looks for a sure win by proof ..."""
PROOF_TWO_TURNS_PILE = 4
"""... when the pile holds at most this many cards; with more, one turn (proofs over
two turns with a long pile rarely succeed and cost 0.1-0.4 s each, measured in
docs/performance.md)."""
CANDIDATES = 6
"""meister: how many of stark's best actions the search compares."""
DEVIATE_Z = 1.0
"""meister: how many standard errors the best challenger must beat stark's choice by."""


def view_actions(view: View) -> tuple[Action, ...] | list[Action]:
    """The legal actions of the viewer, who must be the player to act."""
    phase = view.phase
    if phase.over:
        return ()
    if phase in TURN_PHASES:
        return rules.turn_actions(
            view.rules.lunge, rules.back_room(view.squares, view.mover), view.distance, view.hand
        )
    if phase is Phase.LAST_ATTACK:
        return rules.last_actions(view.distance, view.hand)
    return rules.answer_actions(
        phase, view.attack, rules.back_room(view.squares, view.mover), view.hand
    )


@cache
def p_at_least(k: int, kind: int, unseen: int, drawn: int) -> float:
    """Chance that ``drawn`` cards taken from ``unseen`` (``kind`` of them of one value)
    hold at least ``k`` of that value (hypergeometric tail)."""
    if k <= 0:
        return 1.0
    if drawn <= 0 or unseen <= 0 or kind < k:
        return 0.0
    total = comb(unseen, drawn)
    hit = sum(
        comb(kind, x) * comb(unseen - kind, drawn - x) for x in range(k, min(kind, drawn) + 1)
    )
    return hit / total


def sure_hit(view: View, action: Action) -> bool:
    """No opponent hand can parry this attack (and, after a lunge, retreat is ignored)."""
    if action.kind is not Kind.ATTACK:
        return False
    if not view.rules.parry:
        return True
    return view.unseen()[action.value - 1] < action.count or view.other_size < action.count


def _forward(squares, player: int, steps: int) -> tuple[int, int]:
    return (squares[0] + steps, squares[1]) if player == 0 else (squares[0], squares[1] - steps)


def halving_search(view: View, candidates: list[Action], samples: int, stream) -> Action:
    """Successive halving over determinised samples, deviating from stark only on
    evidence.  Every candidate is played in the same ``samples`` sampled deals
    (common random numbers: the luck of the deal cancels in the differences) and the
    round finished by ``stark`` on both sides; the better half goes on with as many
    new deals again, until two are left.  stark's own choice (the first candidate)
    stays in every round, and the best challenger replaces it only if it wins by
    more than ``DEVIATE_Z`` standard errors of the paired difference over all its
    deals: among a few nearly equal actions the best sample mean is often a worse
    action that was lucky, and each such pick would make meister weaker than stark."""
    me = view.viewer
    incumbent = candidates[0]
    results: dict[Action, list[float]] = {action: [] for action in candidates}
    alive = list(candidates)
    while True:
        worlds = [determinise(view, stream) for _ in range(samples)]
        for action in alive:
            results[action] += [rollout(rules.apply_legal(w, action), me) for w in worlds]
        challengers = sorted(
            (a for a in alive if a != incumbent), key=lambda a: -sum(results[a])
        )  # stable: ties keep stark's order
        if len(challengers) <= 1:
            break
        alive = [incumbent, *challengers[: len(challengers) // 2]]
    if not challengers:
        return incumbent
    best = challengers[0]
    diffs = [x - y for x, y in zip(results[best], results[incumbent], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    if mean > 0 and (spread == 0 or mean / (spread / n**0.5) > DEVIATE_Z):
        return best
    return incumbent


def sure_loss(view: View, action: Action) -> bool:
    """After this move or retreat, the opponent hits us for sure with a standing
    attack of all its cards of the new distance, whatever we draw and whatever the
    split of the unseen cards (exact: every possible split is checked)."""
    if action.kind not in (Kind.MOVE, Kind.RETREAT):
        return False
    me = view.viewer
    step = action.step if action.kind is Kind.MOVE else -action.step
    squares = _forward(view.squares, me, step)
    distance = squares[1] - squares[0]
    if distance > 5:
        return False
    unseen = view.unseen()
    total = sum(unseen)
    kind = unseen[distance - 1]
    n = view.other_size
    hand = list(view.hand)
    hand[abs(step) - 1] -= 1
    draws = min(max(0, 5 - sum(hand)), view.pile_size) if view.pile_size else 0
    mine = hand[distance - 1]
    for theirs in range(max(0, n - (total - kind)), min(n, kind) + 1):
        left = kind - theirs  # cards of the distance in the pile
        most_drawn = min(draws, left)
        if not view.rules.parry:
            if theirs == 0:
                return False
            continue
        if theirs <= mine + most_drawn:
            return False
    return True


def stark_choice(view: View) -> Action:
    """stark's action in ``view``: the first of the best scores."""
    unseen = view.unseen()
    best, best_score = None, -1e18
    for action in view_actions(view):
        score = _stark_score(view, action, unseen)
        if score > best_score:
            best, best_score = action, score
    return best  # type: ignore[return-value]


def stark_score(view: View, action: Action) -> float:
    """Card counting: the chance to win the round soon, minus the chance to be hit,
    with small terms for ground and the hand comparison near the end of the pile."""
    return _stark_score(view, action, view.unseen())


def _stark_score(view: View, action: Action, unseen: Counts) -> float:
    me = view.viewer
    total_unseen = sum(unseen)
    n = view.other_size
    hand = list(view.hand)
    squares = view.squares
    kind = action.kind
    if kind is Kind.PASS:
        return _compare_chance(view, hand, squares, unseen) - 0.5
    if kind is Kind.PARRY:
        return 0.5
    if kind in (Kind.ATTACK, Kind.LUNGE):
        if kind is Kind.LUNGE:
            squares = _forward(squares, me, action.step)
            hand[action.step - 1] -= 1
        if not view.rules.parry:
            return 10.0
        v, k = action.value, action.count
        hit = 1.0 - p_at_least(k, unseen[v - 1], total_unseen, n)
        if kind is Kind.LUNGE and view.rules.lunge:
            # the defender may also retreat: it is hit only without a parry and
            # without a card that fits behind it
            hit = p_parry_and_retreat_fail(unseen, n, v, k, rules.back_room(squares, 1 - me))
        hand[v - 1] -= k
        if view.phase is Phase.LAST_ATTACK:
            # a parried last attack leaves the comparison; keep cards of the distance
            return (
                1.5 * hit + (1 - hit) * (_compare_chance(view, hand, squares, unseen) - 0.5) - 0.2
            )
        # parried: the opponent ripostes; we can parry with what is left
        riposte = p_at_least(k + 1, unseen[v - 1], total_unseen, n) * (1 - (hand[v - 1] > 0))
        lunge_bonus = 0.2 if kind is Kind.LUNGE else 0.0
        return 1.2 * hit - 0.8 * riposte + lunge_bonus + 0.1 * k
    # a move or a retreat
    step = action.step if kind is Kind.MOVE else -action.step
    hand[abs(step) - 1] -= 1
    squares = _forward(squares, me, step)
    distance = squares[1] - squares[0]
    danger = _danger(view, hand, distance, unseen, total_unseen, n)
    ground = GROUND * step  # a step forward advances us by its size
    endgame = 0.0
    from_pile, weight = ENDGAME[view.rules.level]
    if view.pile_size <= from_pile:
        endgame = weight * (_compare_chance(view, hand, squares, unseen) - 0.5)
    return -danger + ground + endgame + 0.02 * min(hand[distance - 1] if distance <= 5 else 0, 2)


def p_parry_and_retreat_fail(unseen, drawn: int, value: int, count: int, back: int) -> float:
    """Chance that a hand of ``drawn`` cards from ``unseen`` holds fewer than ``count``
    cards of ``value`` and no card of a value ``<= back`` (it can neither parry nor
    retreat from a lunge)."""
    total = sum(unseen)
    if drawn <= 0:
        return 1.0
    if drawn > total:
        return 0.0
    far = [unseen[w - 1] for w in range(back + 1, 6)]
    far_total = sum(far)
    if value <= back:
        return comb(far_total, drawn) / comb(total, drawn)
    kind = unseen[value - 1]
    fits = sum(
        comb(kind, x) * comb(far_total - kind, drawn - x) for x in range(0, min(count, drawn + 1))
    )
    return fits / comb(total, drawn)


def _danger(view: View, hand: list[int], distance: int, unseen, total_unseen: int, n: int):
    """Chance that the opponent can hit us from ``distance`` in its next turn: it
    attacks with all its cards of the distance and we parry with ours (refill ignored)."""
    if not view.rules.parry:
        return p_at_least(1, unseen[distance - 1], total_unseen, n) if distance <= 5 else 0.0
    risk = 0.0
    if distance <= 5:
        risk = p_at_least(hand[distance - 1] + 1, unseen[distance - 1], total_unseen, n)
    if view.rules.lunge and 5 < distance <= 10:
        worst = 0.0
        for s in range(max(1, distance - 5), 6):
            v = distance - s
            if s == v:
                p = p_at_least(hand[v - 1] + 2, unseen[v - 1], total_unseen, n)
            else:
                p = p_at_least(1, unseen[s - 1], total_unseen, n) * p_at_least(
                    hand[v - 1] + 1, unseen[v - 1], total_unseen, n
                )
            worst = max(worst, p)
        risk = max(risk, LUNGE_RISK * worst)  # we may still retreat
    return risk


def _compare_chance(view: View, hand: list[int], squares, unseen: Counts) -> float:
    """Rough chance to win the hand comparison with ``hand`` at ``squares``."""
    distance = squares[1] - squares[0]
    # A has advanced squares[0] - 1, B has advanced TRACK - squares[1]
    ahead = squares[0] - 1 - (TRACK - squares[1])
    if view.viewer == 1:
        ahead = -ahead
    tie = 0.5 if ahead == 0 else (1.0 if ahead > 0 else 0.0)
    if distance > 5:
        return tie
    total = sum(unseen)
    mine = hand[distance - 1]
    more = p_at_least(mine + 1, unseen[distance - 1], total, view.other_size)
    equal = p_at_least(mine, unseen[distance - 1], total, view.other_size) - more
    return (1 - more - equal) + equal * tie


def determinise(view: View, stream: HashStream) -> Position:
    """A full position consistent with ``view``: the unseen cards dealt at random to
    the opponent's hand and the pile."""
    cards = [v for v in range(1, 6) for _ in range(view.unseen()[v - 1])]
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    other = tuple(cards[: view.other_size].count(v) for v in range(1, 6))
    return position_of(view, other, tuple(cards[view.other_size :]))  # type: ignore[arg-type]


def rollout(position: Position, me: int, limit: int = 200) -> float:
    """Finish the round with ``stark`` play on both sides (each from its own view);
    1 for a win of ``me``, 0.5 for nobody, 0 for a loss."""
    pos = position
    for _ in range(limit):
        if pos.phase.over:
            break
        actions = rules.legal_actions(pos)
        if len(actions) == 1:
            action = actions[0]
        else:
            action = stark_choice(view_of(pos, pos.mover))
        pos = rules.apply_legal(pos, action)
    if not pos.phase.over or pos.winner == NOBODY:
        return 0.5
    return 1.0 if pos.winner == me else 0.0


class SureWins:
    """``wins(state, turns)``: P wins the round from ``state`` within ``turns`` own
    turns against every hidden deal and reply (the definition of
    ``solver/andor.py`` written as memoised recursion over the public-state problem;
    a parry spends no turn)."""

    def __init__(self, prover: int) -> None:
        self.problem = SureWinProblem(prover)
        self._memo: dict[tuple[Hashable, int], bool] = {}

    def wins(self, state: PublicState, turns: int) -> bool:
        problem = self.problem
        outcome = problem.outcome(state)
        if outcome is not None:
            return outcome is Outcome.WIN
        key = (problem.key(state), turns)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._decide(state, turns)
        return found

    def _decide(self, state: PublicState, turns: int) -> bool:
        problem = self.problem
        if not problem.attacker_to_act(state):
            return all(self.wins(child, turns) for _, child in problem.children(state))
        for action, child in problem.children(state):
            left = turns - 1 if problem.counts_turn(state, action) else turns
            if left >= 0 and self.wins(child, left):
                return True
        return False


def sure_win_key(view: View, turns: int) -> Action | None:
    """The first action in the rules' order that wins within the fewest own turns
    up to ``turns`` against every hidden deal and reply, else ``None``."""
    if view.viewer != view.mover or view.phase.over:
        return None
    decider = SureWins(view.viewer)
    after = dict(decider.problem.children(view))
    for n in range(1, turns + 1):
        for action in view_actions(view):
            left = n - 1 if decider.problem.counts_turn(view, action) else n
            if decider.wins(after[action], left):
                return action
    return None


class MiningPlayer:
    """meister-2026 from its own view: a sure hit at once, else a sure win within one
    turn (two with at most :data:`PROOF_TWO_TURNS_PILE` pile cards), else successive
    halving over stark's best actions with ``samples`` determinised roll-outs.
    Deterministic for its ``seed``: the samples come from a SHA-256 stream."""

    def __init__(self, seed: str, samples: int = MINING_SAMPLES) -> None:
        self.stream = HashStream(f"touche-player/{NAME}/{seed}")
        self.samples = samples

    def choose(self, view: View) -> Action:
        actions = list(view_actions(view))
        if len(actions) == 1:
            return actions[0]
        for action in actions:
            if sure_hit(view, action):
                return action
        if view.phase is not Phase.LAST_ATTACK:
            turns = PROOF_TURNS if view.pile_size <= PROOF_TWO_TURNS_PILE else 1
            key = sure_win_key(view, turns)
            if key is not None:
                return key
        safe = [a for a in actions if not sure_loss(view, a)] or actions
        if len(safe) == 1:
            return safe[0]
        ranked = sorted(safe, key=lambda a: -stark_score(view, a))[:CANDIDATES]
        return halving_search(view, ranked, self.samples, self.stream)
