"""The fast rules of ``pyramiden-1``: bitmask boards and incremental pattern tests.

``legal_actions`` and ``apply`` are the main implementation; ``reference.py``
re-derives the same rules the slow, obvious way and the tests compare the two.
Set-up (the dealer draw and every round's deal) lives here too, because a full
state must know how the next round is dealt: it is fixed by the game's seed.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from fechtbuch.engines.touche_pyramiden.board import (
    ALL_MASK,
    CARD_FIELD_MASK,
    CARD_FIELDS,
    CARD_MASK,
    FREE_MASK,
    HAND_SIZE,
    JOKER,
    full_deck,
)
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.shuffle import check_seed, shuffled
from fechtbuch.engines.touche_pyramiden.state import (
    Action,
    Config,
    IllegalActionError,
    Kind,
    Phase,
    State,
)

CHOOSE_ACTIONS = tuple(Action(Kind.CHOOSE, pattern=p) for p in Pattern)


# ---- set-up ------------------------------------------------------------------------
def dealer_rank(kind: int) -> int:
    """Rank for the dealer draw: ace high, jokers lowest (ours)."""
    if kind == JOKER:
        return -1
    rank = kind % 13
    return 13 if rank == 0 else rank


def dealer_labels(seed: str, players: int) -> tuple[int, list[str]]:
    """The dealer of the first round and the labels of the draws that found it.

    Everybody draws a card from a shuffled deck (in seat order); the highest rank
    deals; those tied for highest draw again from a new shuffle.
    """
    candidates = list(range(players))
    labels = []
    attempt = 0
    while True:
        label = f"{seed}/geber{attempt}"
        labels.append(label)
        deck = shuffled(full_deck(), label)
        ranks = {s: dealer_rank(deck[i]) for i, s in enumerate(candidates)}
        best = max(ranks.values())
        candidates = [s for s in candidates if ranks[s] == best]
        if len(candidates) == 1:
            return candidates[0], labels
        attempt += 1


def round_label(seed: str, round_no: int) -> str:
    """The shuffle label of round ``round_no``."""
    return f"{seed}/runde{round_no}"


def deal(config: Config, seed: str, round_no: int, first: int):
    """Hands, piles and the set-aside cards of a round; dealt clockwise from ``first``."""
    deck = shuffled(full_deck(), round_label(seed, round_no))
    n = config.players
    dealt = config.pile_size * n
    piles: list[list[int]] = [[] for _ in range(n)]
    for j in range(dealt):
        piles[(first + j) % n].append(deck[j])
    hands = tuple(tuple(sorted(p[:HAND_SIZE])) for p in piles)
    rest = tuple(tuple(p[HAND_SIZE:]) for p in piles)
    return hands, rest, tuple(deck[dealt:])


def default_leads(config: Config, starter: int) -> tuple[int, ...]:
    """Per team, its first member clockwise from ``starter`` (plain clockwise play), or
    ``()`` when no team has several members."""
    if not config.member_choice:
        return ()
    leads = [0] * config.teams
    for j in range(config.teams):
        seat = (starter + j) % config.players
        leads[config.team_of(seat)] = seat
    return tuple(leads)


def next_seat(config: Config, starter: int, leads: tuple[int, ...], seat: int) -> int:
    """The seat after ``seat``: the next team (clockwise from the starting team), and
    within it the member after the one who last played for it.  Teams turn in cycles;
    in cycle c team t's member is its lead's c-th successor in its rotation."""
    if not leads:
        return (seat + 1) % config.players
    teams = config.teams
    size = config.players // teams
    team = config.team_of(seat)
    cycle = (seat // teams - leads[team] // teams) % size
    nxt = (team + 1) % teams
    if nxt == config.team_of(starter):
        cycle += 1
    return nxt + teams * ((leads[nxt] // teams + cycle) % size)


def start_round(
    config: Config, seed: str, round_no: int, starter: int, scores, crowned: int, chooser: int
) -> State:
    """A new round: cards dealt, board cleared but for the crowned fields."""
    hands, piles, aside = deal(config, seed, round_no, starter)
    fixed = config.fixed_pattern
    leads = default_leads(config, starter)
    phase = Phase.CHOOSE if not fixed else Phase.LEAD if leads else Phase.PLAY
    return State(
        config=config,
        round=round_no,
        phase=phase,
        pattern=fixed,
        to_move=starter if fixed else chooser,
        starter=starter,
        scores=tuple(scores),
        own=(0,) * config.teams,
        crowned=crowned,
        hands=hands,
        piles=piles,
        discard=(),
        aside=aside,
        passes=0,
        seed=seed,
        leads=leads,
    )


def new_game(config: Config, seed: str) -> State:
    """The first round: the dealer (by draw) chooses the pattern, the left neighbour starts."""
    check_seed(seed)
    dealer, _ = dealer_labels(seed, config.players)
    starter = (dealer + 1) % config.players
    return start_round(config, seed, 1, starter, (0,) * config.teams, 0, dealer)


# ---- legal actions -----------------------------------------------------------------
def dead_cards(state: State, seat: int) -> list[int]:
    """The cards of ``seat`` whose two fields are both occupied or crowned."""
    occ = state.occupied
    return [k for k in state.hands[seat] if k != JOKER and CARD_MASK[k] & ~occ == 0]


def _sub_multisets(cards: list[int]) -> list[tuple[int, ...]]:
    found = set()
    for size in range(1, len(cards) + 1):
        for combo in combinations(cards, size):
            found.add(combo)
    return sorted(found)


def completing_free_fields(state: State, team: int) -> list[int]:
    """Empty free fields whose taking would complete the pattern for ``team``."""
    own = state.own[team]
    empty_free = FREE_MASK & ~state.occupied
    out = []
    through = THROUGH[state.pattern]
    while empty_free:
        low = empty_free & -empty_free
        empty_free ^= low
        f = low.bit_length() - 1
        mine = own | low
        for mask in through[f]:
            if mask & ~mine == 0:
                out.append(f)
                break
    return out


# Every action object that names a card and a field is made once, here: building
# frozen dataclasses dominated the time of legal_actions.
_FIELD_ACTIONS = {
    kind: tuple(Action(kind, JOKER, f) for f in range(112))
    for kind in (Kind.JOKER_PLACE, Kind.JOKER_REMOVE, Kind.JOKER_REPLACE)
}
_PLACE_ACTIONS = tuple(
    tuple((f, Action(Kind.PLACE, k, f)) for f in CARD_FIELDS[k]) for k in range(52)
)
_FREE_ACTIONS = {(k, f): Action(Kind.FREE, k, f) for k in range(JOKER + 1) for f in range(112)}
_PASS = (Action(Kind.PASS),)
_LEAD_ACTIONS = tuple(Action(Kind.LEAD, field=s) for s in range(6))


def legal_actions(state: State) -> list[Action]:
    """Every legal action in the canonical order (see :meth:`Action.sort_key`): built in
    that order, so no sort is needed (the reference sorts; the tests compare)."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.CHOOSE:
        return list(CHOOSE_ACTIONS)
    if state.phase is Phase.LEAD:
        return [_LEAD_ACTIONS[s] for s in state.config.members(state.config.team_of(state.to_move))]
    seat = state.to_move
    config = state.config
    team = config.team_of(seat)
    hand = state.hands[seat]
    kinds = sorted(set(hand))
    occ = state.occupied
    empty = ALL_MASK & ~occ
    out: list[Action] = []
    has_joker = kinds and kinds[-1] == JOKER
    for k in kinds:
        if k == JOKER:
            continue
        for f, action in _PLACE_ACTIONS[k]:
            if empty >> f & 1:
                out.append(action)
    if has_joker:
        place = _FIELD_ACTIONS[Kind.JOKER_PLACE]
        out.extend(place[f] for f in mask_fields(empty & CARD_FIELD_MASK))
        theirs = 0
        for t, m in enumerate(state.own):
            if t != team:
                theirs |= m
        fields = mask_fields(theirs)
        remove = _FIELD_ACTIONS[Kind.JOKER_REMOVE]
        out.extend(remove[f] for f in fields)
        again = _FIELD_ACTIONS[Kind.JOKER_REPLACE]
        out.extend(again[f] for f in fields)
    free = completing_free_fields(state, team)
    if free:
        out.extend(_FREE_ACTIONS[(k, f)] for k in kinds for f in free)
    dead = dead_cards(state, seat)
    if dead:
        out.extend(Action(Kind.EXCHANGE, cards=c) for c in _sub_multisets(dead))
    if not out:
        return list(_PASS)
    return out


# ---- applying ----------------------------------------------------------------------
def _remove_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _replace_at(items: tuple, i: int, value) -> tuple:
    return items[:i] + (value,) + items[i + 1 :]


def apply(state: State, action: Action) -> State:
    """The state after a legal ``action``; an :class:`IllegalActionError` otherwise."""
    if not is_legal(state, action):
        raise IllegalActionError(f"action: {action_repr(action)} is not legal here")
    return apply_unchecked(state, action)


def action_repr(action: Action) -> str:
    from fechtbuch.engines.touche_pyramiden.notation import format_action

    return repr(format_action(action))


def is_legal(state: State, action: Action) -> bool:
    """Whether ``action`` is legal, an explicit crown choice included."""
    if action.crown:
        base = replace(action, crown=0)
        if base not in legal_actions(state):
            return False
        return action.crown in crown_choices(state, base)
    return action in legal_actions(state)


def crown_choices(state: State, action: Action) -> list[int]:
    """The placements ``action`` would complete (the first is crowned by default)."""
    if action.kind not in (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REPLACE, Kind.FREE):
        return []
    team = state.config.team_of(state.to_move)
    mine = state.own[team] | (1 << action.field)
    return [m for m in THROUGH[state.pattern][action.field] if m & ~mine == 0]


def apply_unchecked(state: State, action: Action) -> State:
    """The state after ``action``, which the caller knows to be legal."""
    kind = action.kind
    config = state.config
    seat = state.to_move
    if kind is Kind.CHOOSE:
        phase = Phase.LEAD if state.leads else Phase.PLAY
        return replace(state, phase=phase, pattern=action.pattern, to_move=state.starter)
    if kind is Kind.LEAD:
        return _after_lead(state, action.field)
    if kind is Kind.PASS:
        passes = state.passes + 1
        if passes >= config.players:
            return end_round(state, None, 0)
        nxt = next_seat(config, state.starter, state.leads, seat)
        return replace(state, passes=passes, to_move=nxt)
    hand = state.hands[seat]
    pile = state.piles[seat]
    if kind is Kind.EXCHANGE:
        for c in action.cards:
            hand = _remove_card(hand, c)
        drawn = pile[: len(action.cards)]
        hand = tuple(sorted(hand + drawn))
        pile = pile[len(drawn) :]
        discard = state.discard + action.cards
        own = state.own
    else:
        hand = _remove_card(hand, action.card)
        if pile:
            hand = tuple(sorted(hand + pile[:1]))
            pile = pile[1:]
        discard = state.discard + (action.card,)
        own = state.own
        bit = 1 << action.field
        if kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
            own = tuple(m & ~bit for m in own)
    team = config.team_of(seat)
    hands = _replace_at(state.hands, seat, hand)
    piles = _replace_at(state.piles, seat, pile)
    crown = 0
    if kind in (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REPLACE, Kind.FREE):
        mine = own[team] | (1 << action.field)
        own = _replace_at(own, team, mine)
        crown = action.crown
        if not crown:
            for mask in THROUGH[state.pattern][action.field]:
                if mask & ~mine == 0:
                    crown = mask
                    break
    over = not crown and not any(hands) and not any(piles)
    # one State built directly: dataclasses.replace was most of the time of apply
    after = State(
        state.config,
        state.round,
        state.phase,
        state.pattern,
        seat if crown or over else next_seat(config, state.starter, state.leads, seat),
        state.starter,
        state.scores,
        own,
        state.crowned,
        hands,
        piles,
        discard,
        state.aside,
        0,
        state.seed,
        state.leads,
    )
    if crown:
        return end_round(after, seat, crown)
    if over:
        return end_round(after, None, 0)
    return after


def _after_lead(state: State, seat: int) -> State:
    """A team named its first member; the next team chooses, or play begins with the
    starting team's choice once every team has chosen."""
    config = state.config
    team = config.team_of(state.to_move)
    leads = _replace_at(state.leads, team, seat)
    nxt = (team + 1) % config.teams
    if nxt == config.team_of(state.starter):
        return replace(state, phase=Phase.PLAY, leads=leads, to_move=leads[nxt])
    return replace(state, leads=leads, to_move=leads[nxt])


def end_round(state: State, winner: int | None, crown: int) -> State:
    """Score, crown, and deal the next round (or end the game)."""
    config = state.config
    scores = list(state.scores)
    if winner is not None:
        scores[config.team_of(winner)] += 1
        starter = winner
    else:
        starter = (state.starter + 1) % config.players
    crowned = state.crowned | crown
    if state.round >= config.rounds:
        n = config.players
        return State(
            config=config,
            round=config.rounds + 1,
            phase=Phase.OVER,
            pattern=None,
            to_move=starter,
            starter=starter,
            scores=tuple(scores),
            own=(0,) * config.teams,
            crowned=crowned,
            hands=((),) * n,
            piles=((),) * n,
            discard=(),
            aside=(),
            passes=0,
            seed=state.seed,
        )
    return start_round(config, state.seed, state.round + 1, starter, scores, crowned, starter)


def returns(state: State) -> tuple[float, ...]:
    """Per seat: 1 for the team with the most points, 1/k shared by k such teams, else 0."""
    best = max(state.scores)
    winners = [t for t, s in enumerate(state.scores) if s == best]
    config = state.config
    return tuple(
        1.0 / len(winners) if config.team_of(s) in winners else 0.0 for s in range(config.players)
    )


# ---- composing positions -----------------------------------------------------------
def compose(
    config: Config,
    pattern: Pattern,
    hands: list[list[str]],
    pyramids: dict[int, list[str]] | None = None,
    crowned: list[str] = (),
    to_move: int = 0,
    pile_sizes: list[int] | None = None,
    round_no: int = 1,
    scores: tuple[int, ...] | None = None,
    starter: int | None = None,
    seed: str = "compose",
) -> State:
    """A PLAY state from a few facts (for tests, exercises and ``show``).

    ``pyramids`` maps a team to its field names; the cards not in a hand fill the
    piles (``pile_sizes``, default: as many as a fresh deal leaves, capped by what is
    left) in a fixed order, and whatever remains goes to the discard pile.
    """
    from fechtbuch.engines.touche_pyramiden.board import parse_card, parse_field

    n = config.players
    own = [0] * config.teams
    for team, names in (pyramids or {}).items():
        for name in names:
            own[team] |= 1 << parse_field(name)
    crown = sum(1 << parse_field(name) for name in crowned)
    hand_kinds = [tuple(sorted(parse_card(c) for c in h)) for h in hands]
    rest = full_deck()
    for hand in hand_kinds:
        for k in hand:
            rest.remove(k)
    rest.sort()
    aside = tuple(rest[: 108 % n])
    rest = rest[108 % n :]
    sizes = pile_sizes if pile_sizes is not None else [config.pile_size - 5] * n
    piles = []
    for s in range(n):
        size = min(sizes[s], len(rest)) if len(hand_kinds[s]) == 5 else 0
        piles.append(tuple(rest[:size]))
        rest = rest[size:]
    return State(
        config=config,
        round=round_no,
        phase=Phase.PLAY,
        pattern=pattern,
        to_move=to_move,
        starter=to_move if starter is None else starter,
        scores=scores or (0,) * config.teams,
        own=tuple(own),
        crowned=crown,
        hands=tuple(hand_kinds),
        piles=tuple(piles),
        discard=tuple(rest),
        aside=aside,
        passes=0,
        seed=seed,
        leads=default_leads(config, to_move if starter is None else starter),
    )
