"""The duel's meister: exact tactics (proofs, sure losses), halving search, counting."""

from __future__ import annotations

from itertools import combinations

from fechtbuch.commands.touche_duell.solve import solve_view
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.bruteforce import concrete_positions
from fechtbuch.engines.touche_duell.deal import HashStream, new_round
from fechtbuch.engines.touche_duell.notation import parse_action, parse_position, parse_view
from fechtbuch.engines.touche_duell.players import (
    Player,
    determinise,
    halving_search,
    p_parry_and_retreat_fail,
    stark_choice,
    stark_score,
    sure_loss,
    view_actions,
)
from fechtbuch.engines.touche_duell.state import (
    RULESETS,
    Action,
    Kind,
    Level,
    Phase,
    Ruleset,
    view_of,
)
from fechtbuch.solver.touche_duell.tactics import ProofTactics

SURE_LUNGE = "fortgeschritten 10-17 0:0 A zug 12355/?5 32313 ?3"
"""A sure win in one turn by the lunge l2a5x2 only (tests/unit/test_touche_duell_sure.py)."""


def _late_views(count: int, max_pile: int) -> list:
    """Views of the player to act from stark self-play with at most ``max_pile`` cards
    left, over every rule set."""
    out = []
    for number in range(200):
        ruleset = RULESETS[number % len(RULESETS)]
        pos = new_round(f"late/{number}", number % 2, ruleset)
        while not pos.phase.over:
            view = view_of(pos, pos.mover)
            if view.pile_size <= max_pile and pos.phase in (Phase.TURN, Phase.RIPOSTE):
                out.append((pos, view))
            pos = rules.apply_legal(pos, stark_choice(view))
        if len(out) >= count:
            break
    return out[:count]


def test_lunge_hit_chance_matches_enumeration():
    cards = [1, 1, 2, 3, 3, 3, 4, 5, 5, 2]
    unseen = tuple(cards.count(v) for v in range(1, 6))
    for drawn in (1, 3, 5):
        hands = list(combinations(range(len(cards)), drawn))
        for value in range(1, 6):
            for count in (1, 2):
                for back in range(0, 6):
                    fails = sum(
                        sum(cards[i] == value for i in h) < count
                        and all(cards[i] > back for i in h)
                        for h in hands
                    )
                    got = p_parry_and_retreat_fail(unseen, drawn, value, count, back)
                    assert abs(got - fails / len(hands)) < 1e-12, (drawn, value, count, back)


def test_sure_loss_is_exact_against_every_deal():
    """sure_loss(view, move) holds exactly when in every deal consistent with the view
    the opponent's standing attack with all its cards of the new distance hits."""
    checked = losing = 0
    for _pos, view in _late_views(60, 3):
        deals = concrete_positions(view)
        for action in view_actions(view):
            if action.kind is not Kind.MOVE:
                continue
            always_hit = True
            for deal in deals:
                after = rules.apply_legal(deal, action)
                if after.phase.over:
                    always_hit = False
                    break
                d = after.distance
                theirs = after.hands[after.mover][d - 1] if d <= 5 else 0
                attack = Action(Kind.ATTACK, 0, d, theirs)
                if not theirs or attack not in rules.legal_actions(after):
                    always_hit = False
                    break
                if rules.apply_legal(after, attack).phase is not Phase.HIT:
                    always_hit = False
                    break
            assert sure_loss(view, action) == always_hit, (view, action)
            checked += 1
            losing += always_hit
    assert checked > 100 and losing > 0


def test_proof_tactics_find_a_sure_lunge_and_meister_plays_it():
    view = parse_view(SURE_LUNGE)
    tactics = ProofTactics()
    key = tactics.winning_action(view, 1)
    assert key == parse_action("l2a5x2")
    # the lunge with one 5 wins too: B's parry leaves A a last attack it cannot make,
    # which spends no turn (docs/solver.md)
    assert solve_view(view, 1, with_tree=False).keys == ["l2a5x2", "l2a5x1"]
    assert Player("meister", "t", samples=2, oracle=tactics).choose(view) == key
    # no sure win: the oracle says nothing and counts a question
    quiet = parse_view("fortgeschritten 1-23 0:0 A zug 12355/?5 00000 ?15")
    assert tactics.winning_action(quiet, 1) is None and tactics.questions == 3  # meister asked too


def test_proof_tactics_give_up_at_the_node_limit():
    tactics = ProofTactics(max_nodes=3)
    view = parse_view("fortgeschritten 5-13 0:0 A zug 14555/?5 23311 ?5")
    assert tactics.winning_action(view, 2) is None and tactics.gave_up == 1


class _Fixed:
    """An oracle that claims one action (to see that meister trusts its oracle)."""

    def __init__(self, action: Action | None) -> None:
        self.action = action
        self.asked = 0

    def winning_action(self, view, turns):
        self.asked += 1
        return self.action


def test_meister_asks_its_oracle_and_avoids_sure_losses():
    for _pos, view in _late_views(40, 5):
        actions = list(view_actions(view))
        if len(actions) < 2 or view.phase is Phase.LAST_ATTACK:
            continue
        claimed = actions[-1]
        oracle = _Fixed(claimed)
        if any(a.kind is Kind.ATTACK for a in actions):
            continue  # a sure hit by counting would come before the oracle
        assert Player("meister", "o", samples=2, oracle=oracle).choose(view) == claimed
        assert oracle.asked == 1
        choice = Player("meister", "o", samples=2, oracle=_Fixed(None)).choose(view)
        if any(not sure_loss(view, a) for a in actions):
            assert not sure_loss(view, choice)


def test_meister_choice_depends_on_the_view_only_with_proofs():
    """Two full positions with the same view (other hidden cards) get the same choice."""
    stream = HashStream("meister-view")
    for pos, view in _late_views(16, 6):
        twin = determinise(view, stream)
        assert view_of(twin, view.viewer) == view
        first = Player("meister", "v", samples=3, oracle=ProofTactics()).choose(view)
        again = Player("meister", "v", samples=3, oracle=ProofTactics())
        assert again.choose(view_of(twin, twin.mover)) == first
        third = Player("meister", "v", samples=3, oracle=ProofTactics())
        assert third.choose(view_of(pos, pos.mover)) == first


def test_halving_search_is_deterministic_and_keeps_a_candidate():
    pos = new_round("halving", 0, Ruleset(Level.STANDARD))
    view = view_of(pos, 0)
    ranked = sorted(view_actions(view), key=lambda a: -stark_score(view, a))[:5]
    one = halving_search(view, ranked, 4, HashStream("h"))
    two = halving_search(view, ranked, 4, HashStream("h"))
    assert one == two and one in ranked


def test_halving_keeps_starks_choice_unless_a_challenger_is_clearly_better(monkeypatch):
    from fechtbuch.engines.touche_duell import players

    pos = parse_position("standard 8-16 0:0 A zug 12345/12345 00000 123451234512345")
    view = view_of(pos, 0)
    ranked = sorted(view_actions(view), key=lambda a: -stark_score(view, a))[:5]
    assert len({rules.apply_legal(pos, a).squares for a in ranked}) == 5
    monkeypatch.setattr(players, "rollout", lambda after, me: 0.5)
    assert halving_search(view, ranked, 6, HashStream("e")) == ranked[0]
    target = rules.apply_legal(pos, ranked[3]).squares
    monkeypatch.setattr(
        players, "rollout", lambda after, me: 1.0 if after.squares == target else 0.5
    )
    assert halving_search(view, ranked, 6, HashStream("e")) == ranked[3]
    # better in two deals, worse in one: well within one standard error
    calls = {"n": 0}

    def mixed(after, me):
        if after.squares != target:
            return 0.5
        calls["n"] += 1
        return {1: 1.0, 2: 1.0, 3: 0.0}.get(calls["n"], 0.5)

    monkeypatch.setattr(players, "rollout", mixed)
    assert halving_search(view, ranked, 6, HashStream("e")) == ranked[0]
