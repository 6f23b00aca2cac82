"""The derivation of the daily duel (Tagesduell): card set, deal and school per date.

Everything is derived from SHA-256 of versioned ASCII text, so any
implementation in any language reproduces it; docs/daily.md is the binding
description (byte strings, integer reading, shuffle, deal, school, fairness,
attempts).  In short, for day number ``n`` (days since 1970-01-01):

* the card set is entry ``n mod 4368`` of the walk of period ``n // 4368``: a
  Fisher-Yates permutation of all 4368 five-card sets whose first 29 entries
  are swapped away from the last 29 of the previous period, so no set repeats
  within 30 consecutive days, across period boundaries too;
* attempt ``a`` picks one of the set's 30 deals not tried before (two cards
  per hand, one on the side slot); the first attempt whose start position is
  fair is the duel;
* the player's school alternates within each pair of days, a seeded coin
  deciding which day of the pair is Gold's.

>>> from fechtbuch.engines.battleklinge.cards import card_from_id
>>> duel = Deriver().derive_candidate(parse_date("2027-01-01"), 0)
>>> duel.date, len(duel.cards), duel.attempt
('2027-01-01', 5, 0)
>>> duel.position == Position.start(
...     [card_from_id(c) for c in duel.gold_hand],
...     [card_from_id(c) for c in duel.blau_hand],
...     card_from_id(duel.side),
... ).to_text()
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import combinations

from fechtbuch.engines.battleklinge.cards import (
    CARDS,
    COLOR_CHARS,
    NUM_CARDS,
    Card,
    card_id,
)
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.seeding import WORDS_PER_DIGEST, HashStream, sha256_text, u64
from fechtbuch.puzzles.battleklinge.daily.fairness import FairnessCheck, Verdict, fairness

PREFIX = "battleklinge-daily/v1"
"""Version tag at the start of every hashed text; a new algorithm gets v2."""

RULESET = "battleklinge-1"
"""The rules of /work/shared/rules/battleklinge.de.txt as implemented in engines/battleklinge."""

RULESETS = (RULESET,)

EPOCH = date(1970, 1, 1)
"""Day number 0.  Earlier dates have no duel."""

SETS: tuple[tuple[Card, ...], ...] = tuple(combinations(range(NUM_CARDS), 5))
"""All 4368 five-card sets, each ascending, in lexicographic order (set index = position)."""

PERIOD_DAYS = len(SETS)
"""One permutation of all sets per period of 4368 days."""

NO_REPEAT_DAYS = 30
"""No card set occurs twice within this many consecutive days."""

BOUNDARY_DAYS = NO_REPEAT_DAYS - 1
"""Entries at the head of a walk kept clear of the previous period's last entries."""

DEALS_PER_SET = 30
"""5 choices of side card times 6 choices of the Gold hand from the remaining four."""

FIELDS = (
    "date",
    "ruleset",
    "cards",
    "gold_hand",
    "blau_hand",
    "side",
    "starts",
    "school",
    "position",
    "seed",
    "attempt",
)
"""The JSON fields of a duel (binding: docs/daily.md), in report order."""

_DATE_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DailyError(Exception):
    """No fair deal exists for a day's card set (never observed; see docs/daily.md)."""


def parse_date(text: str, what: str = "date") -> date:
    """Parse ``YYYY-MM-DD`` strictly; impossible or too early dates are InputErrors.

    >>> parse_date("2028-02-29")
    datetime.date(2028, 2, 29)
    >>> parse_date("2027-02-30")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fechtbuch.engines.errors.InputError: date: '2027-02-30' is not a calendar date (...)
    """
    if not isinstance(text, str) or not _DATE_PATTERN.fullmatch(text):
        raise InputError(f"{what}: expected a date YYYY-MM-DD, got {text!r}")
    try:
        day = date(int(text[:4]), int(text[5:7]), int(text[8:]))
    except ValueError as err:
        raise InputError(f"{what}: {text!r} is not a calendar date ({err})") from None
    if day < EPOCH:
        raise InputError(f"{what}: {text!r} is before {EPOCH.isoformat()}, the first daily duel")
    return day


def day_number(day: date) -> int:
    """Days since 1970-01-01 (proleptic Gregorian calendar).

    >>> day_number(date(1970, 1, 2)), day_number(date(2027, 1, 1))
    (1, 20819)
    """
    return (day - EPOCH).days


def date_range(first: date, days: int) -> list[date]:
    """``days`` consecutive dates from ``first``; InputError past 9999-12-31."""
    last_ordinal = first.toordinal() + days - 1
    if last_ordinal > date.max.toordinal():
        raise InputError(f"days: {days} days from {first.isoformat()} go past 9999-12-31")
    return [first + timedelta(days=i) for i in range(days)]


def hashed_text(ruleset: str, *parts: object) -> str:
    """``"battleklinge-daily/v1/<ruleset>/<part>/<part>..."``: the text that is hashed."""
    return "/".join([PREFIX, ruleset, *(str(p) for p in parts)])


def digest(ruleset: str, *parts: object) -> bytes:
    """SHA-256 of :func:`hashed_text` (ASCII).

    >>> digest("battleklinge-1", "school", 0).hex()[:16]
    'e0259848c43a4df2'
    """
    return sha256_text(hashed_text(ruleset, *parts))


def u64_stream(ruleset: str, *parts: object) -> Iterator[int]:
    """Counter-mode stream: digest(..., 0) gives four u64, then digest(..., 1), ...
    (the project's one SHA-256 stream, :class:`HashStream`, reading every word)."""
    stream = HashStream(hashed_text(ruleset, *parts), words_per_block=WORDS_PER_DIGEST)
    while True:
        yield stream.next_u64()


def raw_permutation(period: int, ruleset: str = RULESET) -> list[int]:
    """Fisher-Yates shuffle of the set indices 0..4367 for one period.

    For i from 4367 down to 1: take the next u64 r of the stream
    ``sets/<period>/<counter>`` and swap entries i and ``r mod (i + 1)``.
    """
    order = list(range(len(SETS)))
    stream = u64_stream(ruleset, "sets", period)
    for i in range(len(order) - 1, 0, -1):
        j = next(stream) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def period_walk(period: int, ruleset: str = RULESET) -> tuple[int, ...]:
    """The set indices of a period's days, in order.

    The raw permutation, except that each of its first 29 entries that is
    among the last 29 entries of the previous period's raw permutation is
    swapped with the next entry from position 29 on that is not.  Only
    positions below 4368 - 29 change, so a walk ends as its raw permutation.
    """
    walk = raw_permutation(period, ruleset)
    if period == 0:
        return tuple(walk)
    previous_tail = set(raw_permutation(period - 1, ruleset)[-BOUNDARY_DAYS:])
    donor = BOUNDARY_DAYS
    for i in range(BOUNDARY_DAYS):
        if walk[i] in previous_tail:
            while walk[donor] in previous_tail:
                donor += 1
            walk[i], walk[donor] = walk[donor], walk[i]
            donor += 1
    return tuple(walk)


def deals(cards: tuple[Card, ...]) -> list[tuple[tuple[Card, Card], tuple[Card, Card], Card]]:
    """The 30 deals of a set in canonical order: (gold hand, blau hand, side).

    Side card in ascending order, then the Gold hand as a pair of the other
    four in lexicographic order; Blau gets the remaining two.

    >>> deals((0, 1, 2, 3, 4))[:2]
    [((1, 2), (3, 4), 0), ((1, 3), (2, 4), 0)]
    """
    result = []
    for side in cards:
        rest = [c for c in cards if c != side]
        for gold in combinations(rest, 2):
            blau = tuple(c for c in rest if c not in gold)
            result.append((gold, blau, side))
    return result  # type: ignore[return-value]


def school_of_day(number: int, ruleset: str = RULESET) -> str:
    """The player's school: in pair ``k = n // 2`` the day with ``n mod 2`` equal to
    ``u64(digest("school/<k>")) mod 2`` is Gold's, the other Blau's.

    >>> [school_of_day(n) for n in range(6)]
    ['g', 'b', 'g', 'b', 'b', 'g']
    """
    coin = u64(digest(ruleset, "school", number // 2)) % 2
    return "g" if number % 2 == coin else "b"


@dataclass(frozen=True)
class Duel:
    """One day's duel: the binding JSON fields (card ids, colours as ``g``/``b``)."""

    date: str
    ruleset: str
    cards: tuple[str, ...]
    gold_hand: tuple[str, str]
    blau_hand: tuple[str, str]
    side: str
    starts: str
    school: str
    position: str
    seed: str
    attempt: int

    def to_json(self) -> dict:
        return {
            "date": self.date,
            "ruleset": self.ruleset,
            "cards": list(self.cards),
            "gold_hand": list(self.gold_hand),
            "blau_hand": list(self.blau_hand),
            "side": self.side,
            "starts": self.starts,
            "school": self.school,
            "position": self.position,
            "seed": self.seed,
            "attempt": self.attempt,
        }

    def start_position(self) -> Position:
        return Position.from_text(self.position)


@dataclass
class Derivation:
    """A derived duel and the verdicts on every attempt, rejected ones first."""

    duel: Duel
    verdicts: list[Verdict] = field(default_factory=list)


class Deriver:
    """Derives duels; keeps the period walks it computed (per instance, not global).

    >>> d = Deriver()
    >>> d.card_set(parse_date("2027-03-01")) == d.card_set(parse_date("2027-03-01"))
    True
    """

    def __init__(self, ruleset: str = RULESET):
        if ruleset not in RULESETS:
            raise InputError(f"ruleset: unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
        self.ruleset = ruleset
        self._walks: dict[int, tuple[int, ...]] = {}

    def walk(self, period: int) -> tuple[int, ...]:
        if period not in self._walks:
            if len(self._walks) > 8:
                self._walks.clear()
            self._walks[period] = period_walk(period, self.ruleset)
        return self._walks[period]

    def card_set(self, day: date) -> tuple[Card, ...]:
        """The day's five cards, ascending (before any fairness check)."""
        number = day_number(day)
        return SETS[self.walk(number // PERIOD_DAYS)[number % PERIOD_DAYS]]

    def attempt_seed(self, day: date, attempt: int) -> bytes:
        """``digest("deal/<YYYY-MM-DD>/<attempt>")``."""
        return digest(self.ruleset, "deal", day.isoformat(), attempt)

    def derive_candidate(self, day: date, attempt: int) -> Duel:
        """The candidate of one attempt, without fairness checks.

        The untried deals start as the canonical list; attempt ``a`` removes
        and takes entry ``u64(seed_a) mod len(untried)``.
        """
        if not 0 <= attempt < DEALS_PER_SET:
            raise InputError(f"attempt: must be 0 to {DEALS_PER_SET - 1}, got {attempt}")
        cards = self.card_set(day)
        untried = deals(cards)
        for a in range(attempt + 1):
            seed = self.attempt_seed(day, a)
            gold, blau, side = untried.pop(u64(seed) % len(untried))
        position = Position.start(gold, blau, side)
        return Duel(
            date=day.isoformat(),
            ruleset=self.ruleset,
            cards=tuple(card_id(c) for c in cards),
            gold_hand=(card_id(gold[0]), card_id(gold[1])),
            blau_hand=(card_id(blau[0]), card_id(blau[1])),
            side=card_id(side),
            starts=COLOR_CHARS[CARDS[side].mark],
            school=school_of_day(day_number(day), self.ruleset),
            position=position.to_text(),
            seed=seed.hex(),
            attempt=attempt,
        )

    def derive(self, day: date, check: FairnessCheck = fairness) -> Derivation:
        """The day's duel: the first attempt whose candidate passes ``check``."""
        verdicts = []
        for attempt in range(DEALS_PER_SET):
            duel = self.derive_candidate(day, attempt)
            verdict = check(duel.start_position())
            verdicts.append(verdict)
            if verdict.fair:
                return Derivation(duel, verdicts)
        raise DailyError(f"{day.isoformat()}: no fair deal of {self.card_set(day)}")


def derive(day: date | str, ruleset: str = RULESET) -> Duel:
    """The duel of one date (a ``date`` or ``YYYY-MM-DD`` text)."""
    if isinstance(day, str):
        day = parse_date(day)
    return Deriver(ruleset).derive(day).duel


def duel_for_date(day: date, ruleset: str = RULESET) -> dict:
    """The duel of ``day`` as its JSON fields (used by ``fechtbuch play --daily``).

    >>> duel_for_date(date(2028, 2, 29))["date"]
    '2028-02-29'
    """
    return Deriver(ruleset).derive(day).duel.to_json()
