"""Computer players in four strengths; each sees only its seat's view.

* ``leicht``: completes when it can, otherwise places a random card (rarely a joker).
* ``mittel``: completes; otherwise the action with the best threat-evaluation delta
  (own gain minus the opponents' gain), jokers and exchanges priced in.
* ``stark``: completes; otherwise blocks an opponent's one-field-away pattern when it
  can (the most threats at once); otherwise looks ahead: the best ``mittel``
  candidates are tried on several determinisations of the hidden cards, the
  opponents answer with the ``mittel`` policy until it is the seat's turn again, and
  the outcome (an opponent's completion, an own completion in hand, the board value)
  decides.
* ``meister``: completes, or plays a sure Touché its oracle proves; otherwise a
  determinised Monte Carlo search over stark's choice and its rivals
  (:mod:`~fechtbuch.engines.touche_pyramiden.meister`), within a play-out budget or
  ``movetime`` seconds.

Randomness comes from SHA-256 of the seed and the view, so a game is reproducible.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import CARD_MASK, JOKER
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.evaluate import (
    field_delta,
    threats,
)
from fechtbuch.engines.touche_pyramiden.notation import View, format_view, view_of
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.sampling import completes
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase, State

if TYPE_CHECKING:  # meister's module loads numpy, so only meister's decisions import it
    from fechtbuch.engines.touche_pyramiden.meister import SureToucheOracle

JOKER_COST = 25.0
"""What spending a joker on an ordinary placement costs ``mittel`` (evaluation points)."""
STARK_JOKER_COST = 300.0
"""The same for ``stark``, which keeps its jokers for completions and blocks: measured
0.58 against 0.51 (cost 25) in 400 greedy games against ``mittel`` (docs/strength.md)."""
DEAD_CARD_VALUE = 5.0
"""What exchanging one dead card is worth (when the pile still has cards)."""
WIN_NEXT = 400.0
"""What holding a completion at one's next turn is worth in the lookahead."""


STRENGTHS = ("leicht", "mittel", "stark", "meister")
"""The computer's strengths, weakest first (a strength is its name, in every game)."""


@dataclass(frozen=True)
class Choice:
    action: Action
    reason: str
    """``complete``, ``block``, ``search``, ``greedy``, ``random``, ``forced`` or
    ``sure`` (meister's oracle proved a Touché)."""
    seconds: float


def _stream(seed: str, view: View) -> HashStream:
    digest = hashlib.sha256(f"{seed}|{format_view(view)}".encode()).hexdigest()[:16]
    return HashStream(digest)


def _choose_pattern(state: State) -> Action:
    """The chooser's pattern: a short one when it moves first, a long one otherwise."""
    pattern = Pattern.KVADRAT if state.to_move == state.starter else Pattern.LINIE
    return Action(Kind.CHOOSE, pattern=pattern)


def score_action(state: State, action: Action, joker_cost: float = JOKER_COST) -> float:
    """The greedy value of ``action`` for the mover's team (threat-evaluation delta)."""
    team = state.config.team_of(state.to_move)
    if action.kind is Kind.EXCHANGE:
        pile = len(state.piles[state.to_move])
        return DEAD_CARD_VALUE * min(len(action.cards), pile) - 0.5 * len(action.cards)
    if action.kind is Kind.PASS:
        return 0.0
    f = action.field
    bit = 1 << f
    own = state.own
    if action.kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
        new_own = tuple(m & ~bit for m in own)
    else:
        new_own = own
    if action.kind is not Kind.JOKER_REMOVE:
        new_own = tuple(m | bit if t == team else m for t, m in enumerate(new_own))
    deltas = field_delta(state.pattern, own, state.crowned, f, new_own)
    value = deltas[team] - sum(d for t, d in enumerate(deltas) if t != team)
    if action.card == JOKER:
        value -= joker_cost
    elif action.kind is Kind.PLACE:
        # the card's other field: keep a card whose twin field is still open for later
        if CARD_MASK[action.card] & ~state.occupied & ~bit == 0:
            value += 1.0  # the card would be dead otherwise: use it
    return value


def completing(state: State, actions: list[Action]) -> list[Action]:
    return [a for a in actions if completes(state, a)]


def blocking(state: State, actions: list[Action]) -> tuple[list[Action], dict[Action, int]]:
    """Actions that break an opponent's one-field-away placement, and how many each breaks."""
    team = state.config.team_of(state.to_move)
    open_threats = []
    for t in range(state.config.teams):
        if t != team:
            open_threats += threats(state.pattern, state.own, state.crowned, t)
    if not open_threats:
        return [], {}
    counts: dict[Action, int] = {}
    for a in actions:
        if a.kind in (Kind.EXCHANGE, Kind.PASS, Kind.CHOOSE, Kind.FREE):
            continue
        n = sum(1 for m in open_threats if m >> a.field & 1)
        if n:
            counts[a] = n
    return list(counts), counts


def greedy(
    state: State, actions: list[Action], jokers: bool = True, joker_cost: float = JOKER_COST
) -> list[tuple[float, Action]]:
    """Actions with their greedy scores, best first (ties: canonical order)."""
    scored = []
    for a in actions:
        if not jokers and a.kind in (Kind.JOKER_PLACE, Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
            continue
        scored.append((score_action(state, a, joker_cost), a))
    if not scored:
        scored = [(score_action(state, a, joker_cost), a) for a in actions]
    scored.sort(key=lambda pair: (-pair[0], pair[1].sort_key()))
    return scored


def policy_mittel(state: State, actions: list[Action], jokers: bool = True) -> tuple[Action, str]:
    done = completing(state, actions)
    if done:
        return done[0], "complete"
    return greedy(state, actions, jokers)[0][1], "greedy"


def policy_block_first(
    state: State, actions: list[Action], joker_cost: float = JOKER_COST
) -> tuple[Action, str] | None:
    """Completion, else the block breaking most threats (then best greedy score)."""
    done = completing(state, actions)
    if done:
        return done[0], "complete"
    blocks, counts = blocking(state, actions)
    if blocks:
        best = max(
            blocks,
            key=lambda a: (counts[a], score_action(state, a), [-x for x in a.sort_key()[:3]]),
        )
        return best, "block"
    return None


class ComputerPlayer:
    """A computer seat.  ``choose`` gets the seat's view only.  meister's budget is
    ``rollouts`` play-outs per decision (reproducible), or ``movetime`` seconds when
    given; ``oracle`` proves sure Touchés for it (``None``: none are looked for)."""

    def __init__(
        self,
        strength: str,
        seed: str = "cpu",
        candidates: int = 4,
        worlds: int = 4,
        movetime: float | None = None,
        rollouts: int | None = None,
        oracle: SureToucheOracle | None = None,
    ) -> None:
        if strength not in STRENGTHS:
            known = ", ".join(STRENGTHS)
            raise InputError(f"strength: expected one of {known}, got {strength!r}")
        self.strength = strength
        self.seed = seed
        self.candidates = candidates
        self.worlds = worlds
        self.movetime = movetime
        """Seconds per decision instead of the play-out budget (not reproducible)."""
        self.rollouts = rollouts
        """Play-outs per decision instead of meister's default."""
        self.oracle = oracle
        self.stats = None
        """meister: what the last decision's search did (:class:`meister.SearchStats`)."""

    def choose(self, view: View) -> Choice:
        start = time.perf_counter()
        action, reason = self._choose(view, start)
        return Choice(action, reason, time.perf_counter() - start)

    def _choose(self, view: View, started: float) -> tuple[Action, str]:
        rng = _stream(f"{self.seed}/{self.strength}", view)
        state = determinise(view)
        actions = rules.legal_actions(state)
        if len(actions) == 1:
            return actions[0], "forced"
        if state.phase is Phase.LEAD:
            # the member whose turn it would be in plain clockwise order starts
            return Action(Kind.LEAD, field=view.to_move), "lead"
        if state.phase is Phase.CHOOSE:
            if self.strength == "leicht":
                return actions[rng.below(len(actions))], "random"
            return _choose_pattern(state), "pattern"
        if self.strength == "leicht":
            done = completing(state, actions)
            if done and rng.below(4) != 0:
                return done[0], "complete"
            plain = [a for a in actions if a.kind in (Kind.PLACE, Kind.EXCHANGE)]
            pool = plain if plain and rng.below(10) != 0 else actions
            return pool[rng.below(len(pool))], "random"
        if self.strength == "mittel":
            return policy_mittel(state, actions)
        if self.strength == "meister":
            return self._meister(view, state, actions, rng, started)
        forced = policy_block_first(state, actions, STARK_JOKER_COST)
        if forced is not None:
            return forced
        return self._search(view, state, actions, rng), "search"

    def _meister(
        self, view: View, state: State, actions: list[Action], rng: HashStream, started: float
    ) -> tuple[Action, str]:
        """A completion in hand; a sure Touché the oracle proves; else the search over
        stark's choice (without its lookahead) and its best rivals."""
        from fechtbuch.engines.touche_pyramiden import meister

        done = completing(state, actions)
        if done:
            return done[0], "complete"
        if self.oracle is not None:
            sure = self.oracle.sure_action(view)
            if sure is not None and sure in actions:
                return sure, "sure"
        ranked = greedy(state, actions, joker_cost=STARK_JOKER_COST)
        forced = policy_block_first(state, actions, STARK_JOKER_COST)
        first = forced[0] if forced is not None else ranked[0][1]
        _, blocks = blocking(state, actions)
        pool = meister.candidates(state, actions, ranked, first, blocks)
        self.stats = meister.SearchStats()
        budget = self.rollouts if self.rollouts is not None else meister.ROLLOUTS
        action = meister.search(
            view,
            pool,
            rng,
            rollouts=None if self.movetime is not None else budget,
            deadline=meister.deadline_of(self.movetime, started),
            stats=self.stats,
        )
        return action, "search"

    def _search(self, view: View, state: State, actions: list[Action], rng: HashStream) -> Action:
        """The greedy score (jokers priced high) of the best candidates, plus the tactics
        seen in determinised worlds: does another team complete before our next turn,
        do we then hold a completion?"""
        ranked = greedy(state, actions, joker_cost=STARK_JOKER_COST)
        top = ranked[: self.candidates]
        if len(top) == 1 or self.worlds == 0:
            return top[0][1]
        worlds = [determinise(view, rng) for _ in range(self.worlds)]
        best, best_value = top[0][1], float("-inf")
        for score, action in top:
            tactics = sum(self._rollout(world, action, view.seat) for world in worlds)
            value = score + tactics / len(worlds)
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, world: State, action: Action, seat: int) -> float:
        """Play ``action``; the others answer (complete, block, greedy without jokers)
        until ``seat`` moves again.  -1000 if another team completes, +1000 if ours
        does, +WIN_NEXT if the seat then holds a completion, else 0."""
        team = world.config.team_of(seat)
        round_no = world.round
        scores = world.scores
        state = rules.apply_unchecked(world, action)
        for _ in range(world.config.players - 1):
            if state.round != round_no or state.phase is not Phase.PLAY:
                break
            moves = rules.legal_actions(state)
            reply = policy_block_first(state, moves)
            choice = reply[0] if reply else policy_mittel(state, moves, jokers=False)[0]
            state = rules.apply_unchecked(state, choice)
        if state.round != round_no or state.phase is not Phase.PLAY:
            gained = [b - a for a, b in zip(scores, state.scores, strict=True)]
            if gained[team] > 0:
                return 1000.0
            return -1000.0 if any(gained) else 0.0
        if state.to_move == seat and completing(state, rules.legal_actions(state)):
            return WIN_NEXT
        return 0.0


def computer(
    strength: str,
    seed: str = "cpu",
    movetime: float | None = None,
    rollouts: int | None = None,
    oracle: SureToucheOracle | None = None,
) -> ComputerPlayer:
    """A player of ``strength``; ``movetime`` and ``rollouts`` set meister's budget
    (the other strengths have no budget and ignore them)."""
    return ComputerPlayer(strength, seed, movetime=movetime, rollouts=rollouts, oracle=oracle)


def act(player: ComputerPlayer, state: State) -> Action:
    """The action of ``player`` at a full ``state``: it sees only its seat's view."""
    return player.choose(view_of(state, state.to_move)).action
