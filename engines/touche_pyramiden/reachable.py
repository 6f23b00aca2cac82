"""Which positions of a round can arise in play: a necessary test on what every seat sees.

Within a round (``pyramiden-1``) a card played goes face up on the discard pile and
nothing takes it back, pyramids are placed only by playing a card (its own field, or
any field with a joker) and removed only by a joker.  So the board and the discard
pile of any position of real play satisfy, whatever the order of the pile:

1. **Every pyramid on a card field is backed**: for each card, the pyramids on its
   two fields are at most the copies of it on the pile plus jokers, one joker per
   pyramid short (the pyramid's last placement was that card or a joker; a card is
   played once).
2. **A played card of which no pyramid stands needs a joker that removed it.**  Take
   a card with copies on the pile and no pyramid on either of its fields.  Each copy
   was placed on a field that is now empty again (a joker emptied it: removing
   alone, since a joker that replaces leaves the field occupied), or exchanged as
   dead, when both fields were occupied (one of them now empty, so again emptied by
   a joker since).  Per field, every run of pyramids begins with a placement and
   ends with a removal, so an empty field saw at least as many removals as cards
   placed on it.  With both fields uncrowned, each copy needs a removal of its own
   (a copy exchanged while the other sat on a field needs the second field occupied
   too, by a joker, and both emptied: more jokers, not fewer): as many jokers as
   copies.  With one field crowned, the copies may share one removal (one placed,
   the other exchanged while it stood), so one joker.  These removals back no
   pyramid, and a joker acts on one field, so they are distinct from the jokers of
   point 1.  (With a pyramid standing on one of the card's fields, a joker that
   replaced the card's pyramid backs the new one as well, so nothing is added.)

   Hence: (pyramids short of their card) + (removals of point 2) <= jokers on the pile.
3. **Every seat has played what its pile and hand say**: its pile was
   ``108 // players - 5`` cards after the deal, it draws one card per card played
   (as many as it exchanges), so it has played ``108 // players - pile - hand``
   cards, which cannot be negative.

The test is necessary, not sufficient: a position that passes may still be one no
game reaches (the order of the pile and the turns can forbid it).  Every shipped
exercise therefore also carries a witness game that the pack verifier replays; this
test only keeps mining from spending proofs on positions that cannot arise.
"""

from __future__ import annotations

from fechtbuch.engines.touche_pyramiden.board import CARD_MASK, FREE_MASK, HAND_SIZE, JOKER
from fechtbuch.engines.touche_pyramiden.notation import View, card_text
from fechtbuch.engines.touche_pyramiden.patterns import USABLE, Pattern
from fechtbuch.engines.touche_pyramiden.rules import default_leads
from fechtbuch.engines.touche_pyramiden.state import Phase, State


def reachability_problem(view: View) -> str | None:
    """``None`` when ``view`` passes every test of the module doc, else one line
    saying which fails (and for which cards)."""
    played = [
        view.config.pile_size - pile - hand
        for pile, hand in zip(view.pile_sizes, view.hand_sizes, strict=True)
    ]
    for seat, count in enumerate(played):
        if count < 0:
            return f"seat {seat} holds and keeps more cards than it was dealt"
    board = 0
    for own in view.own:
        board |= own
    board &= ~FREE_MASK
    on_pile = [0] * (JOKER + 1)
    for card in view.discard:
        on_pile[card] += 1
    short = 0
    lifted: list[int] = []
    for card in range(JOKER):
        standing = (board & CARD_MASK[card]).bit_count()
        short += max(0, standing - on_pile[card])
        if on_pile[card] and not standing:
            uncrowned = (CARD_MASK[card] & ~view.crowned).bit_count()
            lifted += [card] * (on_pile[card] if uncrowned == 2 else min(uncrowned, 1))
    needed = short + len(lifted)
    if needed > on_pile[JOKER]:
        return (
            f"{short} pyramid(s) without their card and {len(lifted)} played card(s) "
            f"whose pyramids are gone ({','.join(card_text(k) for k in lifted) or '-'}) "
            f"need {needed} jokers on the pile, which holds {on_pile[JOKER]}"
        )
    return None


def start_problem(state: State) -> str | None:
    """``None`` when ``state`` is a round just dealt, else one line saying why not.

    A start is the deal of a round (witness games replay one round, as the Touché
    duel's do): every seat holds five cards and its pile the rest of its share, the
    set-aside cards as the player count leaves them, nothing on the board but the
    crowned fields, nothing played, no pass; the order of the cards is free (the
    shuffle is chance; the parser already checks that the 108 cards are all there).
    The round waits for its pattern, chosen by the dealer in round 1 (the seat right
    of the starter) and by the starter later; with a fixed pattern the teams name
    their first members, or play begins, with the starter to act.

    Round 1 has no points and no crowned field.  A later round ``r`` must follow
    ``r - 1`` rounds that all scored (a round without a point needs every card
    played; no witness needs one): the points add up to ``r - 1``, the crowned fields
    are ``r - 1`` disjoint placements that the round's pattern allows (each with at
    most one free field), and the starter's team scored (the winner of a round starts
    the next).  Every such start follows a legal game: with each deal free, the
    scoring team is dealt the cards of its placement and places them, its free
    field last.  The earlier rounds are not replayed."""
    config = state.config
    if not 1 <= state.round <= config.rounds:
        return f"runde: a game of {config.rounds} rounds starts no round {state.round}"
    if any(state.own) or state.discard or state.passes:
        return "brett: a round starts with no pyramid placed and nothing played"
    share = config.pile_size - HAND_SIZE
    if any(len(h) != HAND_SIZE for h in state.hands) or any(len(p) != share for p in state.piles):
        return f"hand: each seat is dealt {HAND_SIZE} cards and a pile of {share}"
    fixed = config.fixed_pattern
    if state.pattern != fixed:
        return "muster: the pattern is chosen after the deal"
    if state.leads != default_leads(config, state.starter):
        return "beginn: the teams name their first members after the deal"
    if fixed is None:
        chooser = (state.starter - 1) % config.players if state.round == 1 else state.starter
        if state.phase is not Phase.CHOOSE or state.to_move != chooser:
            return f"zug: the round's pattern is chosen first, by seat {chooser}"
    else:
        phase = Phase.LEAD if state.leads else Phase.PLAY
        if state.phase is not phase or state.to_move != state.starter:
            return "zug: with a fixed pattern the starter acts first"
    scored = sum(state.scores)
    if scored != state.round - 1:
        return f"punkte: {scored} points before round {state.round} (every round scores once)"
    if state.round > 1 and not state.scores[config.team_of(state.starter)]:
        return "start: the winner of the last round starts the next, its team has a point"
    patterns = (fixed,) if fixed is not None else (Pattern.KOMBINATION,)
    placements = sorted({m for p in patterns for m in USABLE[p]})
    if not _splits(state.crowned, scored, placements):
        return f"brett: the crowned fields are not {scored} disjoint completed placements"
    return None


def _splits(crowned: int, count: int, placements: list[int]) -> bool:
    """Whether ``crowned`` is the union of ``count`` disjoint ``placements``."""
    if count == 0 or not crowned:
        return count == 0 and not crowned
    low = crowned & -crowned
    return any(
        m & low and m & crowned == m and _splits(crowned & ~m, count - 1, placements)
        for m in placements
    )
