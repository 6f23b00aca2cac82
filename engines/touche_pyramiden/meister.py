"""``meister``: determinised Monte Carlo search from the seat's view.

The seat cannot see the other hands and the piles, so it deals them at random
(:func:`~fechtbuch.engines.touche_pyramiden.determinise.determinise`, from the
view alone) and plays each candidate action in the same dealt worlds:

* a completion the seat holds is played at once (an immediate Touché is proved by
  the rules, whatever is hidden), and so is a sure Touché that the player's
  oracle proves (``SureToucheOracle``; the player factory of the command line
  gives it the solver's prover);
* otherwise the candidates are stark's choice without its lookahead (complete,
  block, greedy with jokers kept) and the next best blocks and greedy actions;
* each candidate is played out in every world: all seats follow a fast policy
  (complete, block the most threats, else the best threat-evaluation field, from
  :mod:`~fechtbuch.engines.touche_pyramiden.fieldtable`) until the round ends or
  for :data:`HORIZON` turns of every seat; a point for the seat's team is 1,
  another team's point -1, and a play-out cut off is scored by who can complete
  next, else by the board's threat value;
* worlds are added until the budget is spent (a number of play-outs, which is
  reproducible, or ``movetime`` seconds); a candidate clearly behind the best is
  dropped, and stark's choice stays unless another beats it by :data:`DEVIATE_Z`
  standard errors of the paired differences (the worlds are shared, so luck of
  the deal cancels).

Every random draw comes from SHA-256 of the seed and the view, so with a play-out
budget the same seed and view give the same action.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    FIELD_CARD,
    FREE_MASK,
    JOKER,
)
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.fieldtable import SCALE, Table, table
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase, State

ROLLOUTS = 200
"""meister's default budget: play-outs per decision (reproducible; 0.1 to 0.3 s on a
shared machine, docs/strength.md)."""
CANDIDATES = 6
"""How many actions the search compares at most."""
HORIZON = 3
"""Turns of every seat a play-out runs before it is scored by the board."""
DEVIATE_Z = 1.0
"""How many standard errors a challenger must beat stark's choice by."""
DROP_Z = 2.0
"""A candidate this many standard errors behind the best is played no more."""
MIN_WORLDS = 8
"""Worlds every candidate is played in before any is dropped."""
EVAL_WEIGHT = 0.5
"""What a cut-off play-out is worth at most (a point is 1)."""
EVAL_SPREAD = 30.0 * SCALE
"""The board-value difference that is worth ``tanh(1)`` of :data:`EVAL_WEIGHT`."""
DEAD_CARD = 5 * SCALE
"""What exchanging a dead card is worth to the play-out policy (``players.DEAD_CARD_VALUE``)."""
TWIN_DEAD = 1 * SCALE
"""The bonus for a card whose other field is taken (``players.score_action``)."""


class SureToucheOracle(Protocol):
    """Exact tactics for meister: an action that keeps a sure Touché within a few own
    actions whatever the hidden cards are, or ``None``.  A meister made here has none;
    the player factory the plugin names gives it the solver's prover."""

    def sure_action(self, view: View) -> Action | None: ...


@dataclass
class SearchStats:
    """What one decision's search did (for tests and the benchmark)."""

    rollouts: int = 0
    worlds: int = 0
    candidates: int = 0
    means: dict[Action, float] = field(default_factory=dict)


# ---- the play-out policy -----------------------------------------------------------
def _completion(state: State, tab: Table, team: int) -> Action | None:
    """A completing action of the seat to act (its hand not empty): a card, a joker on
    an empty field, any card on a free field, or a joker that lifts another team's
    pyramid and puts its own there (most rounds end by a joker)."""
    hand = state.hands[state.to_move]
    for f in sorted(set(tab.one_away(team).tolist())):
        if FREE_MASK >> f & 1:
            return Action(Kind.FREE, hand[0], f)
        if FIELD_CARD[f] in hand:
            return Action(Kind.PLACE, FIELD_CARD[f], f)
        if hand[-1] == JOKER:
            return Action(Kind.JOKER_PLACE, JOKER, f)
    if hand[-1] == JOKER:
        lifted = tab.replace_one(team)
        if lifted.size:
            return Action(Kind.JOKER_REPLACE, JOKER, int(lifted.min()))
    return None


def _block(state: State, tab: Table, team: int, scores) -> Action | None:
    threats: Counter[int] = Counter()
    for t in range(state.config.teams):
        if t != team:
            threats.update(f for f in tab.one_away(t).tolist() if not FREE_MASK >> f & 1)
    if not threats:
        return None
    hand = state.hands[state.to_move]
    by_card = [f for f in threats if FIELD_CARD[f] in hand]
    if by_card:
        f = max(by_card, key=lambda f: (threats[f], scores[f], -f))
        return Action(Kind.PLACE, FIELD_CARD[f], f)
    if hand[-1] == JOKER:
        f = max(threats, key=lambda f: (threats[f], scores[f], -f))
        return Action(Kind.JOKER_PLACE, JOKER, f)
    return None


def policy(state: State, tab: Table | None = None) -> Action:
    """The play-out policy of the seat to act in a full PLAY state: complete, else
    block the most opponents' one-field-away placements (a card, else a joker), else
    the card and field with the best threat-evaluation value (jokers kept), else an
    exchange of dead cards or a joker's best field."""
    seat = state.to_move
    hand = state.hands[seat]
    if not hand:
        return Action(Kind.PASS)
    team = state.config.team_of(seat)
    if tab is None:
        tab = table(state.pattern, state.own, state.crowned)
    done = _completion(state, tab, team)
    if done is not None:
        return done
    scores = tab.field_scores(team)
    block = _block(state, tab, team, scores)
    if block is not None:
        return block
    occ = state.occupied
    best, best_value = None, -math.inf
    dead = []
    for k in sorted(set(hand)):
        if k == JOKER:
            continue
        free = [f for f in CARD_FIELDS[k] if not occ >> f & 1]
        if not free:
            dead.append(k)
            continue
        twin = TWIN_DEAD if len(free) == 1 else 0
        for f in free:
            value = scores[f] + twin
            if value > best_value:
                best, best_value = Action(Kind.PLACE, k, f), value
    if dead:
        cards = tuple(k for k in hand if k in dead)
        pile = len(state.piles[seat])
        value = DEAD_CARD * min(len(cards), pile) - SCALE // 2 * len(cards)
        if value > best_value:
            best, best_value = Action(Kind.EXCHANGE, cards=cards), value
    if best is not None:
        return best
    empty = [f for f in range(len(FIELD_CARD)) if FIELD_CARD[f] >= 0 and not occ >> f & 1]
    if hand[-1] == JOKER and empty:
        f = max(empty, key=lambda f: (scores[f], -f))
        return Action(Kind.JOKER_PLACE, JOKER, f)
    return rules.legal_actions(state)[0]


def playout(world: State, action: Action, seat: int, horizon: int = HORIZON) -> float:
    """``action`` in ``world``, then every seat plays :func:`policy` for ``horizon``
    turns each or until the round ends: 1 when the seat's team scores, -1 when another
    team does, 0 when the round ends without a point; a play-out cut off is worth
    ±1 if the seat to act can complete, else the board's value, within
    ±:data:`EVAL_WEIGHT`."""
    config = world.config
    team = config.team_of(seat)
    round_no = world.round
    state = rules.apply_unchecked(world, action)
    for _ in range(horizon * config.players):
        if state.round != round_no or state.phase is not Phase.PLAY:
            break
        state = rules.apply_unchecked(state, policy(state))
    if state.round != round_no or state.phase is not Phase.PLAY:
        gained = [b - a for a, b in zip(world.scores, state.scores, strict=True)]
        if gained[team] > 0:
            return 1.0
        return -1.0 if any(gained) else 0.0
    tab = table(state.pattern, state.own, state.crowned)
    mover = config.team_of(state.to_move)
    if state.hands[state.to_move] and _completion(state, tab, mover) is not None:
        return 1.0 if mover == team else -1.0
    values = tab.team_values()
    others = max(int(v) for t, v in enumerate(values) if t != team)
    return EVAL_WEIGHT * math.tanh((int(values[team]) - others) / EVAL_SPREAD)


# ---- the search --------------------------------------------------------------------
def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def _paired(a: dict[int, float], b: dict[int, float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the worlds both were played in."""
    shared = [w for w in a if w in b]
    if not shared:
        return 0.0, math.inf
    return _mean_and_error([a[w] - b[w] for w in shared])


def search(
    view: View,
    candidates: list[Action],
    stream: HashStream,
    rollouts: int | None = ROLLOUTS,
    deadline: float | None = None,
    stats: SearchStats | None = None,
    score: Callable[[State, Action, int], float] = playout,
) -> Action:
    """The candidate to play (``candidates[0]`` is stark's choice): each is played out
    in the same worlds, dealt from ``view`` by ``stream``, until ``rollouts`` play-outs
    are spent or ``time.perf_counter()`` passes ``deadline`` (one world at least)."""
    stats = stats if stats is not None else SearchStats()
    stats.candidates = len(candidates)
    if len(candidates) == 1:
        return candidates[0]
    results: list[dict[int, float]] = [{} for _ in candidates]
    alive = list(range(len(candidates)))
    spent = 0
    world_no = 0
    while True:
        if rollouts is not None and spent + len(alive) > rollouts and world_no > 0:
            break
        if deadline is not None and world_no > 0 and time.perf_counter() >= deadline:
            break
        world = determinise(view, stream)
        for c in alive:
            results[c][world_no] = score(world, candidates[c], view.seat)
        spent += len(alive)
        world_no += 1
        if world_no >= MIN_WORLDS and len(alive) > 2:
            alive = _survivors(results, alive)
    stats.rollouts, stats.worlds = spent, world_no
    means = {c: sum(results[c].values()) / len(results[c]) for c in alive}
    stats.means = {candidates[c]: m for c, m in means.items()}
    best = max(alive, key=lambda c: (means[c], -c))
    if best == 0:
        return candidates[0]
    gain, error = _paired(results[best], results[0])
    return candidates[best] if gain > DEVIATE_Z * error else candidates[0]


def _survivors(results: list[dict[int, float]], alive: list[int]) -> list[int]:
    """``alive`` without the candidates :data:`DROP_Z` standard errors behind the best
    (stark's choice, index 0, always stays)."""
    means = {c: sum(results[c].values()) / len(results[c]) for c in alive}
    best = max(alive, key=lambda c: (means[c], -c))
    keep = []
    for c in alive:
        if c in (0, best):
            keep.append(c)
            continue
        gain, error = _paired(results[c], results[best])
        if gain >= -DROP_Z * error:
            keep.append(c)
    return keep


def candidates(
    state: State,
    actions: list[Action],
    ranked: list[tuple[float, Action]],
    first: Action,
    blocks: dict[Action, int],
    limit: int = CANDIDATES,
) -> list[Action]:
    """``first`` (stark's choice), then the blocks breaking most threats, then the best
    greedy actions, at most ``limit`` and each once."""
    out = [first]
    by_threats = sorted(blocks, key=lambda a: (-blocks[a], a.sort_key()))
    for a in [*by_threats[:2], *(a for _, a in ranked)]:
        if len(out) >= limit:
            break
        if a not in out:
            out.append(a)
    return out


def deadline_of(movetime: float | None, started: float) -> float | None:
    """When a decision that began at ``started`` must stop starting worlds: a little
    before ``movetime`` ends, since the world in hand is finished."""
    if movetime is None:
        return None
    return started + 0.8 * movetime
