"""Seeded random games: states for the agreement tests and the speed benchmark.

The policy is random but leans towards placing cards and towards completing,
so the sampled states cover full boards, crowned fields, later rounds, dead
cards and free-field completions, not just openings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, Pattern
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import (
    TEAM_SPLITS,
    Action,
    Config,
    Kind,
    Phase,
    State,
)

PLACING = (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REPLACE, Kind.FREE)


def completes(state: State, action: Action) -> bool:
    """Whether ``action`` completes the round's pattern (ends the round with a point)."""
    if action.kind not in PLACING:
        return False
    mine = state.own[state.config.team_of(state.to_move)] | (1 << action.field)
    return any(m & ~mine == 0 for m in THROUGH[state.pattern][action.field])


def random_action(state: State, actions: list[Action], rng: HashStream) -> Action:
    """A random action, with a lean towards completions and plain placements."""
    roll = rng.below(100)
    if roll < 60:
        done = [a for a in actions if completes(state, a)]
        if done:
            return done[rng.below(len(done))]
    if roll < 90:
        plain = [a for a in actions if a.kind in (Kind.PLACE, Kind.FREE, Kind.EXCHANGE)]
        if plain:
            return plain[rng.below(len(plain))]
    return actions[rng.below(len(actions))]


def random_config(players: int, rng: HashStream) -> Config:
    teams = TEAM_SPLITS[players][rng.below(len(TEAM_SPLITS[players]))]
    patterns = [None, *Pattern]
    return Config(players, teams, 3 + rng.below(2), patterns[rng.below(len(patterns))])


def random_states(players: int, count: int, label: str) -> Iterator[State]:
    """``count`` states from seeded random games of ``players`` (every team split)."""
    rng = HashStream(f"states/{label}/{players}")
    return played_states(players, count, rng, lambda g: f"{label}-{players}-{g}", random_action)


Policy = Callable[[State, list[Action], HashStream], Action]


def played_states(
    players: int, count: int, rng: HashStream, game_seed: Callable[[int], str], policy: Policy
) -> Iterator[State]:
    """``count`` states of seeded games (configurations drawn from ``rng``, game g
    dealt from ``game_seed(g)``) in which every seat plays ``policy``."""
    produced = 0
    game = 0
    while True:
        config = random_config(players, rng)
        state = rules.new_game(config, game_seed(game))
        game += 1
        while state.phase is not Phase.OVER:
            yield state
            produced += 1
            if produced >= count:
                return
            actions = rules.legal_actions(state)
            state = rules.apply_unchecked(state, policy(state, actions, rng))
