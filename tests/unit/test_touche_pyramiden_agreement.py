"""The fast rules agree with the reference on 2,000 random states per player count
(10,000 in all): the same legal actions in the same order, and the same state after
a random action, every completing action and every exchange; every state reached
passes the notation's invariant checks."""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_pyramiden import notation, reference, rules
from fechtbuch.engines.touche_pyramiden.sampling import completes, random_states
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Kind

STATES_PER_COUNT = 2000


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_rules_agree_with_reference(players):
    rng = HashStream(f"agree/{players}")
    kinds_seen: set[Kind] = set()
    rounds_seen = set()
    legal_kinds: set[Kind] = set()
    for state in random_states(players, STATES_PER_COUNT, "agree"):
        fast = rules.legal_actions(state)
        slow = reference.legal_actions(state)
        assert fast == slow, notation.format_state(state)
        picks = [fast[rng.below(len(fast))]]
        picks += [a for a in fast if completes(state, a) or a.kind is Kind.EXCHANGE][:4]
        for action in picks:
            kinds_seen.add(action.kind)
            after = rules.apply(state, action)
            # the parser re-checks the invariants: all 108 cards, hand sizes, no
            # completed pattern left standing, nothing on a free field
            assert notation.parse_state(notation.format_state(after)) == after
            assert after == reference.apply(state, action), (
                notation.format_state(state),
                notation.format_action(action),
            )
        rounds_seen.add(state.round)
        legal_kinds.update(a.kind for a in fast)
    assert {Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REPLACE, Kind.EXCHANGE} <= kinds_seen
    assert {Kind.JOKER_REMOVE, Kind.FREE} <= legal_kinds
    assert max(rounds_seen) >= 2
