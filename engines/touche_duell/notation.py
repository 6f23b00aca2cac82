"""Positions, player's views and actions of the Touché duel, and their one-line notation.

A *position* fixes everything (both hands, the order of the draw pile); a *view* is
what one player sees (own hand; the opponent's hand and the pile only by size).
Both are one line, eight fields separated by single spaces:

``<ruleset> <A>-<B> <scoreA>:<scoreB> <mover> <phase> <handA>/<handB> <discard> <pile>``

* ruleset: ``kinder``, ``standard`` or ``fortgeschritten``, with ``-kurz`` for the
  short game (to 3 points instead of 5), e.g. ``standard-kurz``;
* squares of fencer A and fencer B, ``1 <= A < B <= 23``; the distance is B - A;
* scores (points won in earlier rounds, and this round's point once it is over);
* ``A`` or ``B``: the player to act (in a finished round: the hitter after ``treffer``,
  the blocked player after ``blockiert``, who acted last after ``vergleich``);
* phase (see :class:`Phase`): ``zug``, ``riposte``, ``parade:VxK``, ``ausweichen:VxK``,
  ``parade-l:VxK``, ``letzter``, ``parade-v:VxK``, ``ausweichen-v:VxK``, or a finished
  round ``treffer:W``, ``blockiert:W``, ``vergleich:W`` (W the winner ``A``/``B``, or
  ``-`` when the hand comparison gives nobody the round);
* hands as sorted digit strings, ``-`` for an empty hand; in a view the hidden hand
  is ``?`` and its size (``?5``);
* the discard pile as five digits, the number of 1s, 2s, ... 5s played this round;
* the draw pile, top card first (``-`` when empty); in a view ``?`` and its size.

>>> from fechtbuch.engines.touche_duell.state import format_action, view_of
>>> text = "standard 1-23 0:0 A zug 23355/11234 00000 341252544251314"
>>> format_position(parse_position(text)) == text
True
>>> format_view(view_of(parse_position(text), 1))
'standard 1-23 0:0 A zug ?5/11234 00000 ?15'

Actions: ``m+3`` / ``m-2`` (move 3 forward / 2 back), ``a3x2`` (attack with two 3s),
``l4a2x1`` (lunge: step 4 forward, then attack with one 2), ``p`` (parry), ``r3``
(retreat: step 3 back), ``-`` (decline the last attack).

>>> format_action(parse_action("l4a2x1"))
'l4a2x1'
"""

from __future__ import annotations

import re

from fechtbuch.engines.touche_duell.state import (
    COPIES,
    HAND_SIZE,
    NO_CARDS,
    NOBODY,
    PARRY,
    PASS,
    PLAYER_CHARS,
    RETREAT_PHASES,
    TRACK,
    VALUES,
    Action,
    Counts,
    Kind,
    NotationError,
    Phase,
    Position,
    Ruleset,
    View,
    _quote,
)

# ---- cards as digit strings -----------------------------------------------------------


def counts_text(counts: Counts) -> str:
    """A hand as a sorted digit string, ``-`` when empty.

    >>> counts_text((2, 0, 1, 0, 2))
    '11355'
    """
    return "".join(str(v) * n for v, n in zip(VALUES, counts, strict=False)) or "-"


def _counts_from_digits(text: str, field: str) -> Counts:
    if text == "-":
        return NO_CARDS
    if not text or any(c not in "12345" for c in text):
        raise NotationError(f"{field}: expected digits 1-5 or '-', got {_quote(text)}")
    if list(text) != sorted(text):
        raise NotationError(f"{field}: cards must be sorted ascending, got {_quote(text)}")
    return tuple(text.count(str(v)) for v in VALUES)  # type: ignore[return-value]


def _discard_from_text(text: str) -> Counts:
    if not re.fullmatch(r"[0-5]{5}", text):
        raise NotationError(
            f"discard: expected five digits 0-5 (played 1s, 2s, ... 5s), got {_quote(text)}"
        )
    return tuple(int(c) for c in text)  # type: ignore[return-value]


def _pile_from_text(text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not re.fullmatch(r"[1-5]+", text):
        raise NotationError(
            f"pile: expected digits 1-5 (top card first) or '-', got {_quote(text)}"
        )
    return tuple(int(c) for c in text)


def _phase_text(phase: Phase, attack: tuple[int, int], winner: int) -> str:
    if phase.attacked:
        return f"{phase.value}:{attack[0]}x{attack[1]}"
    if phase.over:
        return f"{phase.value}:{'-' if winner == NOBODY else PLAYER_CHARS[winner]}"
    return phase.value


_PHASE_RE = re.compile(r"([a-z-]+)(?::(?:([1-5])x([1-5])|([AB-])))?")


def _parse_phase(text: str) -> tuple[Phase, tuple[int, int], int]:
    match = _PHASE_RE.fullmatch(text)
    names = ", ".join(p.value for p in Phase)
    if not match:
        raise NotationError(f"phase: expected one of {names} (with :VxK or :W), got {_quote(text)}")
    name, value, count, who = match.groups()
    try:
        phase = Phase(name)
    except ValueError:
        raise NotationError(
            f"phase: unknown phase {_quote(name)}; expected one of {names}"
        ) from None
    if phase.attacked:
        if value is None:
            raise NotationError(
                f"phase: {phase.value} needs the attack as ':VxK', got {_quote(text)}"
            )
        return phase, (int(value), int(count)), NOBODY
    if phase.over:
        if who is None:
            raise NotationError(
                f"phase: {phase.value} needs the winner as ':A', ':B' or ':-', got {_quote(text)}"
            )
        if who == "-" and phase is not Phase.COMPARE:
            raise NotationError(
                f"phase: only 'vergleich' can end without a winner, got {_quote(text)}"
            )
        return phase, (0, 0), NOBODY if who == "-" else PLAYER_CHARS.index(who)
    if value is not None or who is not None:
        raise NotationError(f"phase: {phase.value} takes no ':...' part, got {_quote(text)}")
    return phase, (0, 0), NOBODY


def _split(text: str, what: str) -> list[str]:
    if not isinstance(text, str):
        raise NotationError(f"{what}: expected text, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 8 or any(not f for f in fields):
        raise NotationError(
            f"{what}: expected 8 fields separated by single spaces "
            f"'<ruleset> <A>-<B> <score> <mover> <phase> <hands> <discard> <pile>', "
            f"got {_quote(text)}"
        )
    return fields


def _parse_common(fields: list[str]):
    rules = Ruleset.from_name(fields[0])
    match = re.fullmatch(r"([0-9]{1,2})-([0-9]{1,2})", fields[1])
    if not match:
        raise NotationError(f"squares: expected '<A>-<B>' such as '1-23', got {_quote(fields[1])}")
    a, b = int(match[1]), int(match[2])
    if not 1 <= a < b <= TRACK:
        raise NotationError(
            f"squares: need 1 <= A < B <= {TRACK} (A left of B), got {_quote(fields[1])}"
        )
    match = re.fullmatch(r"([0-9]):([0-9])", fields[2])
    if not match or max(int(match[1]), int(match[2])) > rules.target:
        raise NotationError(
            f"score: expected '<A>:<B>' with points 0-{rules.target}, got {_quote(fields[2])}"
        )
    score = (int(match[1]), int(match[2]))
    if fields[3] not in ("A", "B"):
        raise NotationError(f"mover: expected 'A' or 'B', got {_quote(fields[3])}")
    mover = PLAYER_CHARS.index(fields[3])
    phase, attack, winner = _parse_phase(fields[4])
    return rules, (a, b), score, mover, phase, attack, winner


def _check_phase(rules: Ruleset, squares, score, phase: Phase, attack, winner, pile_size: int):
    text = _phase_text(phase, attack, winner)
    if phase.attacked and attack[0] != squares[1] - squares[0]:
        raise NotationError(
            f"phase: the attack value must equal the distance {squares[1] - squares[0]}, "
            f"got {_quote(text)}"
        )
    if phase.attacked and not rules.parry:
        raise NotationError(f"phase: no parry at level kinder, got {_quote(text)}")
    if phase in RETREAT_PHASES and not rules.lunge:
        raise NotationError(f"phase: a retreat needs level fortgeschritten, got {_quote(text)}")
    if not phase.over:
        if phase.endgame and pile_size:
            raise NotationError(f"phase: {phase.value} needs an empty pile, got {pile_size} cards")
        if not phase.endgame and not pile_size:
            raise NotationError(
                f"pile: empty, but phase {phase.value} is before the last card "
                f"(use letzter, parade-l, parade-v or ausweichen-v)"
            )
        if max(score) >= rules.target:
            raise NotationError(f"score: the game is over at {score[0]}:{score[1]}; no round runs")


def parse_position(text: str) -> Position:
    """A full position from its notation; errors name the field.

    Rejected besides bad fields: card totals other than five per value, a hand
    above five cards, an attack value other than the distance, a pile that is
    empty before the last card (or not empty after it), and a round that should
    already be over (the player to act has no legal action).
    """
    fields = _split(text, "position")
    rules, squares, score, mover, phase, attack, winner = _parse_common(fields)
    left, slash, right = fields[5].partition("/")
    if not slash:
        raise NotationError(f"hands: expected '<handA>/<handB>', got {_quote(fields[5])}")
    if "?" in fields[5] or "?" in fields[7]:
        raise NotationError(
            "position: hidden cards ('?') belong in a view; a position shows all, "
            f"got {_quote(text)}"
        )
    hands = (_counts_from_digits(left, "hand A"), _counts_from_digits(right, "hand B"))
    for who, hand in zip(PLAYER_CHARS, hands, strict=False):
        if sum(hand) > HAND_SIZE:
            raise NotationError(f"hand {who}: at most {HAND_SIZE} cards, got {counts_text(hand)!r}")
    discard = _discard_from_text(fields[6])
    pile = _pile_from_text(fields[7])
    for v in VALUES:
        total = hands[0][v - 1] + hands[1][v - 1] + discard[v - 1] + pile.count(v)
        if total != COPIES:
            raise NotationError(
                f"cards: there are {COPIES} cards of value {v}, but hands, discard and pile "
                f"hold {total} in {_quote(text)}"
            )
    _check_phase(rules, squares, score, phase, attack, winner, len(pile))
    position = Position(rules, squares, score, mover, phase, attack, winner, hands, discard, pile)
    if not phase.over:
        from fechtbuch.engines.touche_duell.rules import legal_actions

        if not legal_actions(position):
            raise NotationError(
                f"phase: {PLAYER_CHARS[mover]} has no legal action in {_quote(fields[4])}; "
                f"the round would be over"
            )
    return position


def format_position(position: Position) -> str:
    """The canonical notation of a full position."""
    p = position
    return " ".join(
        (
            p.rules.name,
            f"{p.squares[0]}-{p.squares[1]}",
            f"{p.score[0]}:{p.score[1]}",
            PLAYER_CHARS[p.mover],
            _phase_text(p.phase, p.attack, p.winner),
            f"{counts_text(p.hands[0])}/{counts_text(p.hands[1])}",
            "".join(map(str, p.discard)),
            "".join(map(str, p.pile)) or "-",
        )
    )


def _hidden_size(text: str, field: str, limit: int) -> int:
    match = re.fullmatch(r"\?([0-9]{1,2})", text)
    if not match or int(match[1]) > limit:
        raise NotationError(f"{field}: expected '?' and a size 0-{limit}, got {_quote(text)}")
    return int(match[1])


def parse_view(text: str) -> View:
    """A player's view; the hidden hand is ``?N`` and the pile ``?N``.

    >>> parse_view("fortgeschritten 5-9 1:2 B riposte ?5/234 21010 ?13").unseen()
    (3, 3, 4, 3, 5)
    """
    fields = _split(text, "view")
    rules, squares, score, mover, phase, attack, winner = _parse_common(fields)
    left, slash, right = fields[5].partition("/")
    if not slash:
        raise NotationError(
            f"hands: expected '<handA>/?<size>' or '?<size>/<handB>', got {_quote(fields[5])}"
        )
    if left.startswith("?") == right.startswith("?"):
        raise NotationError(f"hands: a view hides exactly one hand ('?5'), got {_quote(fields[5])}")
    viewer = 1 if left.startswith("?") else 0
    own_text, other_text = (right, left) if viewer else (left, right)
    hand = _counts_from_digits(own_text, f"hand {PLAYER_CHARS[viewer]}")
    other = _hidden_size(other_text, f"hand {PLAYER_CHARS[1 - viewer]}", HAND_SIZE)
    if sum(hand) > HAND_SIZE:
        raise NotationError(
            f"hand {PLAYER_CHARS[viewer]}: at most {HAND_SIZE} cards, got {_quote(own_text)}"
        )
    discard = _discard_from_text(fields[6])
    pile_size = _hidden_size(fields[7], "pile", 15)
    unseen = [COPIES - h - d for h, d in zip(hand, discard, strict=False)]
    if min(unseen) < 0:
        v = unseen.index(min(unseen)) + 1
        raise NotationError(f"cards: more than {COPIES} cards of value {v} in hand and discard")
    if sum(unseen) != other + pile_size:
        raise NotationError(
            f"cards: {sum(unseen)} cards are unseen but the hidden hand and the pile "
            f"hold {other + pile_size} in {_quote(text)}"
        )
    _check_phase(rules, squares, score, phase, attack, winner, pile_size)
    return View(
        rules, squares, score, mover, phase, attack, winner, viewer, hand, other, discard, pile_size
    )


def format_view(view: View) -> str:
    """The canonical notation of a view."""
    own, other = counts_text(view.hand), f"?{view.other_size}"
    hands = f"{other}/{own}" if view.viewer else f"{own}/{other}"
    return " ".join(
        (
            view.rules.name,
            f"{view.squares[0]}-{view.squares[1]}",
            f"{view.score[0]}:{view.score[1]}",
            PLAYER_CHARS[view.mover],
            _phase_text(view.phase, view.attack, view.winner),
            hands,
            "".join(map(str, view.discard)),
            f"?{view.pile_size}",
        )
    )


# ---- actions --------------------------------------------------------------------------


_ACTION_RE = re.compile(r"m([+-])([1-5])|a([1-5])x([1-5])|l([1-5])a([1-5])x([1-5])|p|r([1-5])|-")


def parse_action(text: str) -> Action:
    """An action in notation (legality is not checked).

    >>> parse_action("m-2"), parse_action("a3x2").count
    (Action(kind=<Kind.MOVE: 0>, step=-2, value=0, count=0), 2)
    """
    if not isinstance(text, str) or not _ACTION_RE.fullmatch(text):
        raise NotationError(
            "action: expected m+N, m-N (move), aVxK (attack with K cards of V), "
            "lSaVxK (lunge), p (parry), rN (retreat) or - (no last attack), "
            f"got {_quote(str(text))}"
        )
    if text == "p":
        return PARRY
    if text == "-":
        return PASS
    head = text[0]
    if head == "m":
        return Action(Kind.MOVE, int(text[2]) * (1 if text[1] == "+" else -1))
    if head == "a":
        return Action(Kind.ATTACK, 0, int(text[1]), int(text[3]))
    if head == "l":
        return Action(Kind.LUNGE, int(text[1]), int(text[3]), int(text[5]))
    return Action(Kind.RETREAT, int(text[1]))
