"""One-line notation for full states, a player's view and actions.

Full state (tokens in this order, separated by single spaces)::

    pyramiden-1 spieler=2 teams=2 runden=3 vorgabe=linie runde=1 muster=linie zug=1
    start=1 punkte=0,0 pass=0 brett=<8 rows> hand=<hands> stapel=<piles>
    ablage=<cards> beiseite=<cards> seed=<seed>

* ``vorgabe``: the pattern of every round, or ``-`` when the round's chooser picks it.
* ``runde``: the round (``runden + 1`` once the game is over); ``muster`` the round's
  pattern, ``-`` while it is still to be chosen (and when the game is over).
* ``zug``: the seat to act; ``start``: the seat that starts the round; seats are
  numbered from 0 clockwise, seat ``s`` belongs to team ``s mod teams``.
* ``brett``: rows 8 down to 1, separated by ``/``, 14 characters each (columns a-n):
  ``.`` empty, ``x`` crowned, ``1``-``6`` a pyramid of team 1-6 (team index + 1).
* ``hand`` / ``stapel``: one entry per seat, separated by ``/``; an entry is cards
  joined by ``,`` (hands sorted, piles top card first) or ``-`` if empty.
* ``ablage``: the discard pile in the order played; ``beiseite``: the cards set
  aside unseen (5 players); ``-`` when empty.

A player's view replaces what the seat cannot see: ``sicht=<seat>`` follows the
ruleset token, other hands and every pile become ``#<count>``, the set-aside cards
``#<count>`` and the seed ``?``.

Actions: ``7H:c3`` (place), ``XX:c3`` (joker on an empty field), ``XX:-c3`` (joker
removes the pyramid on c3), ``XX:=c3`` (removes it and puts an own pyramid there),
``5S:g4`` (any card on a free field, completing), ``tausch:7H,8C`` (exchange dead
cards), ``pass``, ``muster:kvadrat`` (choose the round's pattern).  A completing
action may name the placement to crown: ``7H:c3@c3d3e3f3g3`` (fields ascending).
"""

from __future__ import annotations

from dataclasses import dataclass

from fechtbuch.engines import errors
from fechtbuch.engines.touche_pyramiden.board import (
    COLS,
    FREE_MASK,
    JOKER,
    KINDS,
    ROWS,
    card_text,
    field_name,
    full_deck,
    parse_card,
    parse_field,
)
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.shuffle import check_seed
from fechtbuch.engines.touche_pyramiden.state import (
    RULESET,
    Action,
    Config,
    Kind,
    Phase,
    State,
)

STATE_KEYS = (
    "spieler",
    "teams",
    "runden",
    "vorgabe",
    "runde",
    "muster",
    "zug",
    "start",
    "punkte",
    "pass",
    "brett",
    "hand",
    "stapel",
    "ablage",
    "beiseite",
    "seed",
)


class NotationError(errors.NotationError):
    """Malformed state, view or action text; the message names the field."""


# ---- small pieces ------------------------------------------------------------------
def _cards(cards) -> str:
    return ",".join(card_text(k) for k in cards) if cards else "-"


def _parse_cards(text: str, what: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    return tuple(parse_card(t, what) for t in text.split(","))


def _int(text: str, what: str, low: int, high: int) -> int:
    # ASCII digits only: str.isdigit() and int() would take '２' as 2
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise NotationError(f"{what}: expected a number {low}-{high}, got {text[:200]!r}")
    return int(text)


def format_board(own: tuple[int, ...], crowned: int) -> str:
    rows = []
    for row in range(ROWS - 1, -1, -1):
        chars = []
        for col in range(COLS):
            f = row * COLS + col
            ch = "x" if crowned >> f & 1 else "."
            for t, m in enumerate(own):
                if m >> f & 1:
                    ch = str(t + 1)
            chars.append(ch)
        rows.append("".join(chars))
    return "/".join(rows)


def parse_board(text: str, teams: int) -> tuple[tuple[int, ...], int]:
    rows = text.split("/")
    if len(rows) != ROWS:
        raise NotationError(f"brett: expected 8 rows separated by '/', got {text[:200]!r}")
    own = [0] * teams
    crowned = 0
    allowed = ".x" + "".join(str(t + 1) for t in range(teams))
    for i, row_text in enumerate(rows):
        row = ROWS - 1 - i
        if len(row_text) != COLS:
            raise NotationError(
                f"brett: row {row + 1} must have 14 characters, got {row_text[:200]!r}"
            )
        for col, ch in enumerate(row_text):
            f = row * COLS + col
            if ch not in allowed:
                raise NotationError(
                    f"brett: field {field_name(f)}: expected one of {allowed!r}, got {ch!r}"
                )
            if ch == "x":
                crowned |= 1 << f
            elif ch != ".":
                if FREE_MASK >> f & 1:
                    raise NotationError(
                        f"brett: field {field_name(f)} is a free field; only a crowned "
                        f"pyramid ('x') can stand there, got {ch!r}"
                    )
                own[int(ch) - 1] |= 1 << f
    return tuple(own), crowned


def _tokens(text: str, keys: tuple[str, ...], what: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise NotationError(f"{what}: expected text, got {type(text).__name__}")
    parts = text.split(" ")
    expected = len(keys) + 1
    if len(parts) != expected or parts[0] != RULESET:
        raise NotationError(
            f"{what}: expected '{RULESET}' and {len(keys)} tokens key=value "
            f"({' '.join(keys)}), got {text[:200]!r}"
        )
    values = {}
    for key, part in zip(keys, parts[1:], strict=True):
        name, sep, value = part.partition("=")
        if name != key or not sep:
            raise NotationError(f"{key}: expected '{key}=...', got {part[:200]!r}")
        values[key] = value
    return values


@dataclass(frozen=True)
class _Common:
    config: Config
    round: int
    phase: Phase
    pattern: Pattern | None
    to_move: int
    starter: int
    scores: tuple[int, ...]
    passes: int
    own: tuple[int, ...]
    crowned: int
    leads: tuple[int, ...] = ()


LEADS_TOKEN = "beginn="
LEADS_CHOOSING = "wahl:"


def _leads_tokens(phase: Phase, leads: tuple[int, ...]) -> list[str]:
    """``beginn=`` (games with teams of several members): per team the seat that starts
    for it, after ``wahl:`` while the teams are still choosing."""
    if not leads:
        return []
    prefix = LEADS_CHOOSING if phase is Phase.LEAD else ""
    return [LEADS_TOKEN + prefix + ",".join(str(s) for s in leads)]


def _split_leads(text: str) -> tuple[str, str | None]:
    if not isinstance(text, str):
        return text, None
    head, sep, last = text.rpartition(" ")
    if sep and last.startswith(LEADS_TOKEN):
        return head, last[len(LEADS_TOKEN) :]
    return text, None


def _parse_leads(text: str | None, config: Config, over: bool) -> tuple[bool, tuple[int, ...]]:
    """(choosing, leads) of the ``beginn=`` token; every error names it.  A game that is
    over has no round to start, so no token."""
    if not config.member_choice or over:
        if text is not None:
            raise NotationError("beginn: only a running game with teams of several members has it")
        return False, ()
    if text is None:
        raise NotationError(
            f"beginn: {config.players} players in {config.teams} teams need 'beginn=<seats>'"
        )
    choosing = text.startswith(LEADS_CHOOSING)
    parts = text[len(LEADS_CHOOSING) :].split(",") if choosing else text.split(",")
    if len(parts) != config.teams:
        raise NotationError(f"beginn: expected {config.teams} seats, got {text[:200]!r}")
    leads = tuple(_int(p, "beginn", 0, config.players - 1) for p in parts)
    for team, seat in enumerate(leads):
        if config.team_of(seat) != team:
            raise NotationError(f"beginn: seat {seat} is not a member of team {team + 1}")
    return choosing, leads


def _parse_common(v: dict[str, str], leads_text: str | None = None) -> _Common:
    players = _int(v["spieler"], "spieler", 2, 6)
    teams = _int(v["teams"], "teams", 1, 6)
    rounds = _int(v["runden"], "runden", 3, 4)
    fixed = None if v["vorgabe"] == "-" else _pattern(v["vorgabe"], "vorgabe")
    config = Config(players, teams, rounds, fixed)
    round_no = _int(v["runde"], "runde", 1, rounds + 1)
    pattern = None if v["muster"] == "-" else _pattern(v["muster"], "muster")
    if round_no > rounds:
        phase = Phase.OVER
        if pattern is not None:
            raise NotationError(f"muster: the game is over, expected '-', got {v['muster']!r}")
    elif pattern is None:
        phase = Phase.CHOOSE
        if fixed is not None:
            raise NotationError(f"muster: expected the vorgabe {fixed.value!r}, got '-'")
    else:
        phase = Phase.PLAY
        if fixed is not None and pattern is not fixed:
            raise NotationError(
                f"muster: expected the vorgabe {fixed.value!r}, got {v['muster']!r}"
            )
    choosing, leads = _parse_leads(leads_text, config, phase is Phase.OVER)
    if choosing:
        if phase is not Phase.PLAY:
            raise NotationError("beginn: teams choose their first member once the pattern is set")
        phase = Phase.LEAD
    to_move = _int(v["zug"], "zug", 0, players - 1)
    starter = _int(v["start"], "start", 0, players - 1)
    if choosing and leads[config.team_of(to_move)] != to_move:
        raise NotationError("zug: while teams choose, zug is the choosing team's seat in beginn")
    score_parts = v["punkte"].split(",")
    if len(score_parts) != teams:
        raise NotationError(f"punkte: expected {teams} numbers, got {v['punkte'][:200]!r}")
    scores = tuple(_int(s, "punkte", 0, 4) for s in score_parts)
    passes = _int(v["pass"], "pass", 0, players - 1)
    own, crowned = parse_board(v["brett"], teams)
    if phase is not Phase.PLAY and any(own):
        raise NotationError("brett: no pyramids may stand before the pattern is chosen")
    if phase is Phase.PLAY:
        for t, mine in enumerate(own):
            for f in mask_fields(mine):
                for mask in THROUGH[pattern][f]:
                    if mask & ~mine == 0:
                        raise NotationError(
                            f"brett: team {t + 1} already completed {pattern.value} on "
                            f"{''.join(field_name(x) for x in mask_fields(mask))}"
                        )
    return _Common(
        config, round_no, phase, pattern, to_move, starter, scores, passes, own, crowned, leads
    )


def _pattern(text: str, what: str) -> Pattern:
    try:
        return Pattern(text)
    except ValueError:
        names = ", ".join(p.value for p in Pattern)
        raise NotationError(f"{what}: expected one of {names}, got {text[:200]!r}") from None


def _seat_entries(text: str, players: int, what: str) -> list[str]:
    entries = text.split("/")
    if len(entries) != players:
        raise NotationError(
            f"{what}: expected {players} entries separated by '/', got {text[:200]!r}"
        )
    return entries


def _common_tokens(c: _Common) -> list[str]:
    cfg = c.config
    return [
        f"spieler={cfg.players}",
        f"teams={cfg.teams}",
        f"runden={cfg.rounds}",
        f"vorgabe={cfg.fixed_pattern.value if cfg.fixed_pattern else '-'}",
        f"runde={c.round}",
        f"muster={c.pattern.value if c.pattern else '-'}",
        f"zug={c.to_move}",
        f"start={c.starter}",
        f"punkte={','.join(str(s) for s in c.scores)}",
        f"pass={c.passes}",
        f"brett={format_board(c.own, c.crowned)}",
    ]


def _common_of(state) -> _Common:
    return _Common(
        state.config,
        state.round,
        state.phase,
        state.pattern,
        state.to_move,
        state.starter,
        state.scores,
        state.passes,
        state.own,
        state.crowned,
        state.leads,
    )


# ---- full states -------------------------------------------------------------------
def format_state(state: State) -> str:
    """The canonical one-line notation of a full state."""
    tokens = [RULESET] + _common_tokens(_common_of(state))
    tokens += [
        "hand=" + "/".join(_cards(h) for h in state.hands),
        "stapel=" + "/".join(_cards(p) for p in state.piles),
        f"ablage={_cards(state.discard)}",
        f"beiseite={_cards(state.aside)}",
        f"seed={state.seed}",
    ]
    return " ".join(tokens + _leads_tokens(state.phase, state.leads))


def parse_state(text: str) -> State:
    """A full state from its notation; every error names the token it is about."""
    text, leads_text = _split_leads(text)
    v = _tokens(text, STATE_KEYS, "state")
    c = _parse_common(v, leads_text)
    n = c.config.players
    hands = tuple(
        tuple(sorted(_parse_cards(e, f"hand: seat {s}")))
        for s, e in enumerate(_seat_entries(v["hand"], n, "hand"))
    )
    piles = tuple(
        _parse_cards(e, f"stapel: seat {s}")
        for s, e in enumerate(_seat_entries(v["stapel"], n, "stapel"))
    )
    discard = _parse_cards(v["ablage"], "ablage")
    aside = _parse_cards(v["beiseite"], "beiseite")
    seed = check_seed(v["seed"], "seed")
    _check_hands(hands, [len(p) for p in piles])
    counts = [0] * KINDS
    for group in (*hands, *piles, discard, aside):
        for k in group:
            counts[k] += 1
    if c.phase is Phase.OVER:
        if any(counts):
            raise NotationError("hand: the game is over; hands, piles and discards must be empty")
    else:
        expected = [0] * KINDS
        for k in full_deck():
            expected[k] += 1
        if counts != expected:
            wrong = [
                f"{card_text(k)} {counts[k]}x" for k in range(KINDS) if counts[k] != expected[k]
            ]
            raise NotationError(
                "hand: hands, piles, ablage and beiseite must hold the 108 cards exactly "
                f"(2 of each card, 4 XX); off: {', '.join(wrong)[:200]}"
            )
        if len(aside) != 108 % n:
            raise NotationError(
                f"beiseite: {n} players set aside {108 % n} cards, got {len(aside)}"
            )
    return State(
        config=c.config,
        round=c.round,
        phase=c.phase,
        pattern=c.pattern,
        to_move=c.to_move,
        starter=c.starter,
        scores=c.scores,
        own=c.own,
        crowned=c.crowned,
        hands=hands,
        piles=piles,
        discard=discard,
        aside=aside,
        passes=c.passes,
        seed=seed,
        leads=c.leads,
    )


def _check_hands(hands, pile_sizes) -> None:
    for s, hand in enumerate(hands):
        if len(hand) > 5:
            raise NotationError(f"hand: seat {s} holds {len(hand)} cards, at most 5")
        if len(hand) < 5 and pile_sizes[s]:
            raise NotationError(
                f"hand: seat {s} holds {len(hand)} cards while its pile still has cards"
            )


# ---- a player's view ---------------------------------------------------------------
@dataclass(frozen=True)
class View:
    """What one seat sees: the board, its own hand, the sizes of everything hidden."""

    config: Config
    round: int
    phase: Phase
    pattern: Pattern | None
    to_move: int
    starter: int
    scores: tuple[int, ...]
    passes: int
    own: tuple[int, ...]
    crowned: int
    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    aside_size: int
    leads: tuple[int, ...] = ()


def view_of(state: State, seat: int) -> View:
    """The view of ``seat``: the hand of its own, counts of all hidden cards."""
    return View(
        state.config,
        state.round,
        state.phase,
        state.pattern,
        state.to_move,
        state.starter,
        state.scores,
        state.passes,
        state.own,
        state.crowned,
        seat,
        state.hands[seat],
        tuple(len(h) for h in state.hands),
        tuple(len(p) for p in state.piles),
        state.discard,
        len(state.aside),
        state.leads,
    )


VIEW_KEYS = ("sicht",) + STATE_KEYS


def format_view(view: View) -> str:
    """The one-line notation of a view."""
    hands = [
        _cards(view.hand) if s == view.seat else f"#{size}"
        for s, size in enumerate(view.hand_sizes)
    ]
    tokens = [RULESET, f"sicht={view.seat}"] + _common_tokens(view)  # type: ignore[arg-type]
    tokens += [
        "hand=" + "/".join(hands),
        "stapel=" + "/".join(f"#{p}" for p in view.pile_sizes),
        f"ablage={_cards(view.discard)}",
        f"beiseite=#{view.aside_size}",
        "seed=?",
    ]
    return " ".join(tokens + _leads_tokens(view.phase, view.leads))


def _count(text: str, what: str, high: int) -> int:
    if not text.startswith("#"):
        raise NotationError(f"{what}: expected '#<count>', got {text[:200]!r}")
    return _int(text[1:], what, 0, high)


def _check_seen(hand: tuple[int, ...], discard: tuple[int, ...]) -> None:
    """The cards a view shows (its hand and the discard pile) fit into the deck: no
    card more often than the 108 cards hold it (2 of each, 4 XX)."""
    in_deck = [0] * KINDS
    for k in full_deck():
        in_deck[k] += 1
    seen = [0] * KINDS
    for k in (*hand, *discard):
        seen[k] += 1
    too_many = [f"{card_text(k)} {seen[k]}x" for k in range(KINDS) if seen[k] > in_deck[k]]
    if too_many:
        raise NotationError(
            "hand: the hand and the ablage show more of a card than the deck holds "
            f"(2 of each card, 4 XX): {', '.join(too_many)[:200]}"
        )


def parse_view(text: str) -> View:
    """A view from its notation; errors name the token."""
    text, leads_text = _split_leads(text)
    v = _tokens(text, VIEW_KEYS, "view")
    c = _parse_common(v, leads_text)
    n = c.config.players
    seat = _int(v["sicht"], "sicht", 0, n - 1)
    hand: tuple[int, ...] = ()
    sizes = []
    for s, e in enumerate(_seat_entries(v["hand"], n, "hand")):
        if s == seat:
            hand = tuple(sorted(_parse_cards(e, f"hand: seat {s}")))
            sizes.append(len(hand))
        else:
            sizes.append(_count(e, f"hand: seat {s}", 5))
    piles = tuple(
        _count(e, f"stapel: seat {s}", 108)
        for s, e in enumerate(_seat_entries(v["stapel"], n, "stapel"))
    )
    _check_hands([(0,) * k for k in sizes], piles)
    discard = _parse_cards(v["ablage"], "ablage")
    _check_seen(hand, discard)
    aside = _count(v["beiseite"], "beiseite", 3)
    if v["seed"] != "?":
        raise NotationError(f"seed: a view hides the seed, expected '?', got {v['seed'][:200]!r}")
    total = sum(sizes) + sum(piles) + len(discard) + aside
    if c.phase is not Phase.OVER and total != 108:
        raise NotationError(f"hand: hands, piles, ablage and beiseite hold {total} cards, not 108")
    return View(
        c.config,
        c.round,
        c.phase,
        c.pattern,
        c.to_move,
        c.starter,
        c.scores,
        c.passes,
        c.own,
        c.crowned,
        seat,
        hand,
        tuple(sizes),
        piles,
        discard,
        aside,
        c.leads,
    )


# ---- actions -----------------------------------------------------------------------
def format_action(action: Action) -> str:
    """The canonical notation of an action."""
    kind = action.kind
    if kind is Kind.PASS:
        return "pass"
    if kind is Kind.CHOOSE:
        return f"muster:{action.pattern.value}"
    if kind is Kind.LEAD:
        return f"beginnt:{action.field}"
    if kind is Kind.EXCHANGE:
        return "tausch:" + ",".join(card_text(k) for k in action.cards)
    prefix = {Kind.JOKER_REMOVE: "-", Kind.JOKER_REPLACE: "="}.get(kind, "")
    text = f"{card_text(action.card)}:{prefix}{field_name(action.field)}"
    if action.crown:
        text += "@" + "".join(field_name(f) for f in mask_fields(action.crown))
    return text


def parse_action(text: str) -> Action:
    """An action from its notation (legality is not checked here)."""
    if not isinstance(text, str):
        raise NotationError(f"action: expected text, got {type(text).__name__}")
    if text == "pass":
        return Action(Kind.PASS)
    head, sep, rest = text.partition(":")
    if not sep:
        raise NotationError(
            f"action: expected '<card>:<field>', 'tausch:<cards>', 'muster:<name>', "
            f"'beginnt:<seat>' or 'pass', got {text[:200]!r}"
        )
    if head == "muster":
        return Action(Kind.CHOOSE, pattern=_pattern(rest, "action: muster"))
    if head == "beginnt":
        return Action(Kind.LEAD, field=_int(rest, "action: beginnt", 0, 5))
    if head == "tausch":
        if not rest or rest == "-":
            raise NotationError(f"action: tausch needs at least one card, got {text[:200]!r}")
        cards = tuple(sorted(_parse_cards(rest, "action: tausch")))
        if JOKER in cards:
            raise NotationError("action: tausch: a joker is never a dead card")
        return Action(Kind.EXCHANGE, cards=cards)
    card = parse_card(head, "action: card")
    target, at, crown_text = rest.partition("@")
    prefix = target[:1] if target[:1] in ("-", "=") else ""
    field = parse_field(target[len(prefix) :], "action: field")
    crown = 0
    if at:
        if len(crown_text) % 2 or not crown_text:
            raise NotationError(f"action: crown: expected fields like 'c3d3e3', got {crown_text!r}")
        fields = [
            parse_field(crown_text[i : i + 2], "action: crown")
            for i in range(0, len(crown_text), 2)
        ]
        crown = sum(1 << f for f in set(fields))
        if field not in fields:
            raise NotationError(
                f"action: crown: the crowned placement must contain {field_name(field)}, "
                f"got {crown_text[:200]!r}"
            )
    free = bool(FREE_MASK >> field & 1)
    if prefix:
        if card != JOKER:
            raise NotationError(f"action: only a joker (XX) removes a pyramid, got {text[:200]!r}")
        if free:
            raise NotationError(f"action: no pyramid to remove on free field {field_name(field)}")
        if crown and prefix == "-":
            raise NotationError(f"action: removing alone completes nothing, got {text[:200]!r}")
        kind = Kind.JOKER_REMOVE if prefix == "-" else Kind.JOKER_REPLACE
    elif free:
        kind = Kind.FREE
    elif card == JOKER:
        kind = Kind.JOKER_PLACE
    else:
        kind = Kind.PLACE
    return Action(kind, card, field, crown=crown)
