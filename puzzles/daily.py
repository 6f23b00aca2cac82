"""The daily duel (Tagesduell): one card set, deal and player school per date.

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

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from itertools import combinations

from fechtbuch.engines.battleklinge.cards import (
    CARDS,
    COLOR_CHARS,
    NUM_CARDS,
    Card,
    card_from_id,
    card_id,
)
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.errors import InputError

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

FAIR_K = 4
"""Fair: neither side can force a hit within this many own moves (docs/daily.md)."""

FAIR_MAX_NODES = 5_000_000
"""Node limit of the fairness proof; a candidate that reaches it counts as unfair."""

FAIR_TABLE_MB = 16
"""Transposition table of the fairness proof (fixed: node counts depend on it)."""

BALANCE_DEPTHS = (5, 6)
"""Plies of the engine's alpha-beta searches (plus quiescence) whose scores are averaged."""

BALANCE_MARGIN = 25
"""Balanced: the averaged score of the start is within +-0.25 students (centi-students)."""

BALANCE_WEIGHTS = (100, 4, 12, 40, 25, 6, 30)
"""The evaluation weights of the balance check, pinned here so that tuning the
engine's ``DEFAULT_WEIGHTS`` does not change published duels."""

BALANCE_TT_BITS = 18
"""Transposition table size (2**18 entries) of the balance search, pinned likewise."""

SCHEDULE_FORMAT = "fechtbuch-daily"
SCHEDULE_VERSION = 1

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
"""The JSON fields of a duel (binding, issue 5), in report order."""

_DATE_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DailyError(Exception):
    """No fair deal exists for a day's card set (never observed; see docs/daily.md)."""


# ---- dates ---------------------------------------------------------------


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


# ---- hashing -------------------------------------------------------------


def digest(ruleset: str, *parts: object) -> bytes:
    """SHA-256 of ``"battleklinge-daily/v1/<ruleset>/<part>/<part>..."`` (ASCII).

    >>> digest("battleklinge-1", "school", 0).hex()[:16]
    'e0259848c43a4df2'
    """
    text = "/".join([PREFIX, ruleset, *(str(p) for p in parts)])
    return hashlib.sha256(text.encode("ascii")).digest()


def u64(block: bytes, index: int = 0) -> int:
    """The ``index``-th unsigned 64-bit big-endian integer of a digest (0 to 3)."""
    return int.from_bytes(block[8 * index : 8 * index + 8], "big")


def u64_stream(ruleset: str, *parts: object) -> Iterator[int]:
    """Counter-mode stream: digest(..., 0) gives four u64, then digest(..., 1), ..."""
    counter = 0
    while True:
        block = digest(ruleset, *parts, counter)
        for index in range(4):
            yield u64(block, index)
        counter += 1


# ---- card sets -----------------------------------------------------------


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


# ---- duels -----------------------------------------------------------------


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


@dataclass(frozen=True)
class Verdict:
    """The fairness checks on one candidate start position.

    ``fair`` only if the solver proved, within the node limit, that neither
    side forces a hit within ``k`` own moves (and the balance check held).
    """

    fair: bool
    reason: str
    status: str
    distance: int | None
    loss_in: int | None
    nodes: int
    seconds: float
    verified: bool | None = None
    balance: float | None = None


FairnessCheck = Callable[[Position], Verdict]


def solver_verdict(
    position: Position,
    k: int = FAIR_K,
    max_nodes: int = FAIR_MAX_NODES,
    verify: bool = False,
) -> Verdict:
    """Neither side forces a hit within ``k`` own moves (df-pn, node limit, no time limit).

    ``verify`` re-derives the answer with the independent minimax verifier;
    ``verified`` is then False if it disagrees.

    >>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER
    >>> solver_verdict(Position.from_text(START_EINSTEIGER)).reason
    'no forced hit within 4 own moves for either side'
    """
    from fechtbuch.solver import solve

    result = solve(
        position,
        max_n=k,
        max_nodes=max_nodes,
        time_limit=None,
        table_mb=FAIR_TABLE_MB,
        verify=verify,
    )
    mover = COLOR_CHARS[position.turn]
    other = COLOR_CHARS[1 - position.turn]
    if result.status != "solved":
        reason = f"unknown: node limit {max_nodes:,} reached"
    elif result.distance is not None:
        reason = f"{mover} (to move) hits in {result.distance}"
    elif result.loss_in is not None:
        reason = f"{other} hits in {result.loss_in} whatever {mover} plays"
    else:
        reason = f"no forced hit within {k} own moves for either side"
    return Verdict(
        fair=result.status == "solved" and result.distance is None and result.loss_in is None,
        reason=reason,
        status=result.status.value,
        distance=result.distance,
        loss_in=result.loss_in,
        nodes=result.nodes,
        seconds=result.seconds,
        verified=result.verified if verify and result.status == "solved" else None,
    )


def balance_score(position: Position, depths: tuple[int, ...] = BALANCE_DEPTHS) -> float:
    """The engine's score of ``position`` for the side to move, in centi-students:
    the mean of fixed-depth alpha-beta searches at ``depths`` plies (a fresh
    search each, no node or time limit, so deterministic), with the pinned
    weights and table size.  Averaging an odd and an even depth cancels the
    swing of the score between odd and even horizons.

    >>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER
    >>> balance_score(Position.from_text(START_EINSTEIGER))
    26.0
    """
    import numpy as np

    # the frozen 2026 engine: published duels and packs never change with the engine
    from fechtbuch.engines.battleklinge.frozen2026.search import Searcher

    weights = np.array(BALANCE_WEIGHTS, dtype=np.int64)
    scores = [
        Searcher(weights=weights, tt_bits=BALANCE_TT_BITS).search(position, max_depth=d).score
        for d in depths
    ]
    return sum(scores) / len(scores)


def fairness(position: Position, verify: bool = False) -> Verdict:
    """All fairness checks of the daily duel, in order; the first failure rejects.

    1. :func:`solver_verdict`: no forced hit within :data:`FAIR_K` own moves;
    2. :func:`balance_score`: within :data:`BALANCE_MARGIN` of 0 (a forced hit
       found by the search scores about 1000 students, far outside).
    """
    verdict = solver_verdict(position, verify=verify)
    if not verdict.fair:
        return verdict
    score = balance_score(position)
    if abs(score) > BALANCE_MARGIN:
        return replace(
            verdict,
            fair=False,
            reason=f"unbalanced: engine score {score / 100:+.3f} students for the side to move "
            f"(margin {BALANCE_MARGIN / 100:.2f})",
            balance=score,
        )
    return replace(verdict, reason=f"{verdict.reason}, balance {score / 100:+.3f}", balance=score)


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


# ---- files -----------------------------------------------------------------


def schedule(duels: list[Duel], ruleset: str = RULESET) -> dict:
    """A schedule file's object."""
    return {
        "format": SCHEDULE_FORMAT,
        "version": SCHEDULE_VERSION,
        "ruleset": ruleset,
        "days": [d.to_json() for d in duels],
    }


def _check_card(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{where}: expected a card id, got {value!r}")
    try:
        card_from_id(value)
    except InputError:
        raise InputError(f"{where}: unknown card {value!r}") from None
    return value


def _check_cards(value: object, count: int, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise InputError(f"{where}: expected a list of {count} card ids, got {value!r}")
    return tuple(_check_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def duel_from_json(obj: object, where: str = "duel") -> Duel:
    """Read one duel entry, checking every field's type (not its derivation).

    >>> duel_from_json({"date": "2027-01-01"}, "days[0]")
    Traceback (most recent call last):
    ...
    fechtbuch.engines.errors.InputError: days[0]: missing field 'ruleset'
    """
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected an object, got {obj!r}")
    for name in FIELDS:
        if name not in obj:
            raise InputError(f"{where}: missing field {name!r}")
    extra = sorted(set(obj) - set(FIELDS))
    if extra:
        raise InputError(f"{where}: unknown field {extra[0]!r}")
    parse_date(obj["date"], f"{where}.date")
    for name in ("ruleset", "position", "seed"):
        if not isinstance(obj[name], str):
            raise InputError(f"{where}.{name}: expected text, got {obj[name]!r}")
    for name in ("starts", "school"):
        if obj[name] not in ("g", "b"):
            raise InputError(f"{where}.{name}: expected 'g' or 'b', got {obj[name]!r}")
    attempt = obj["attempt"]
    if not isinstance(attempt, int) or isinstance(attempt, bool) or attempt < 0:
        raise InputError(f"{where}.attempt: expected a non-negative integer, got {attempt!r}")
    return Duel(
        date=obj["date"],
        ruleset=obj["ruleset"],
        cards=_check_cards(obj["cards"], 5, f"{where}.cards"),
        gold_hand=_check_cards(obj["gold_hand"], 2, f"{where}.gold_hand"),  # type: ignore[arg-type]
        blau_hand=_check_cards(obj["blau_hand"], 2, f"{where}.blau_hand"),  # type: ignore[arg-type]
        side=_check_card(obj["side"], f"{where}.side"),
        starts=obj["starts"],
        school=obj["school"],
        position=obj["position"],
        seed=obj["seed"],
        attempt=attempt,
    )


def schedule_from_json(obj: object, what: str = "file") -> list[Duel]:
    """Read a schedule object (format, version, ruleset, days); InputError naming the field."""
    if not isinstance(obj, dict):
        raise InputError(f"{what}: expected a JSON object with 'format' and 'days'")
    for name in ("format", "version", "ruleset", "days"):
        if name not in obj:
            raise InputError(f"{what}: missing field {name!r}")
    if obj["format"] != SCHEDULE_FORMAT:
        raise InputError(f"format: expected {SCHEDULE_FORMAT!r}, got {obj['format']!r}")
    if type(obj["version"]) is not int or obj["version"] != SCHEDULE_VERSION:
        raise InputError(f"version: expected {SCHEDULE_VERSION}, got {obj['version']!r}")
    if obj["ruleset"] not in RULESETS:
        raise InputError(f"ruleset: unknown ruleset {obj['ruleset']!r}")
    if not isinstance(obj["days"], list):
        raise InputError(f"days: expected a list of entries, got {type(obj['days']).__name__}")
    duels = [duel_from_json(entry, f"days[{i}]") for i, entry in enumerate(obj["days"])]
    seen: set[str] = set()
    for i, duel in enumerate(duels):
        if duel.date in seen:
            raise InputError(f"days[{i}].date: {duel.date!r} appears twice")
        seen.add(duel.date)
    return duels


def differences(expected: Duel, actual: Duel) -> list[str]:
    """The fields (in :data:`FIELDS` order) where ``actual`` differs from ``expected``."""
    return [name for name in FIELDS if getattr(expected, name) != getattr(actual, name)]


def repeated_sets(duels: list[Duel]) -> list[tuple[str, str]]:
    """Pairs of dates less than 30 days apart with the same card set.

    >>> repeated_sets([])
    []
    """
    by_day = sorted((parse_date(d.date), frozenset(d.cards)) for d in duels)
    clashes = []
    for i, (day, cards) in enumerate(by_day):
        for later, other in by_day[i + 1 :]:
            if (later - day).days >= NO_REPEAT_DAYS:
                break
            if other == cards and later != day:
                clashes.append((day.isoformat(), later.isoformat()))
    return clashes


# ---- test vectors ------------------------------------------------------------


def vector_dates(extra: list[date] = ()) -> list[date]:  # type: ignore[assignment]
    """The dates of data/daily/vectors.json: period boundaries, month and year
    ends, leap days, far-future dates, plus ``extra`` (days with a rejected attempt)."""
    texts = [
        "1970-01-01", "1970-01-02", "1981-12-16", "1981-12-17", "1981-12-18",
        "2017-11-01", "2017-11-02", "2024-02-29", "2025-12-31",
        "2026-01-01", "2026-06-15", "2026-11-30", "2026-12-31",
        "2027-01-01", "2027-01-02", "2027-02-01", "2027-02-28", "2027-03-01", "2027-04-01",
        "2027-05-01", "2027-06-01", "2027-07-01", "2027-08-01", "2027-09-01", "2027-10-01",
        "2027-11-01", "2027-12-01", "2027-12-31",
        "2028-01-01", "2028-02-28", "2028-02-29", "2028-03-01", "2028-12-31",
        "2029-01-01", "2029-10-16", "2029-10-17", "2029-10-18", "2029-10-19", "2029-10-20",
        "2029-11-15", "2029-12-31", "2030-01-01", "2030-12-31", "2031-01-01",
        "2032-02-29", "2035-12-31", "2036-02-29", "2039-12-31", "2040-01-01",
        "2041-10-02", "2041-10-03", "2050-06-30", "2099-12-31", "2100-02-28", "2100-03-01",
        "2400-02-29", "3000-01-01", "5000-07-04", "9999-12-30", "9999-12-31",
    ]  # fmt: skip
    days = {parse_date(t) for t in texts} | set(extra)
    return sorted(days)


def build_vectors(deriver: Deriver, extra: list[date], unbalanced: tuple[date, int]) -> dict:
    """The object of data/daily/vectors.json: a schedule of the vector dates plus the
    intermediate values another implementation needs to find its first mistake."""
    days = vector_dates(extra)
    duels = [deriver.derive(d).duel for d in days]
    obj = schedule(duels, deriver.ruleset)
    obj["intermediate"] = []
    for d in days:
        n = day_number(d)
        period, index = divmod(n, PERIOD_DAYS)
        obj["intermediate"].append(
            {
                "date": d.isoformat(),
                "day_number": n,
                "period": period,
                "index_in_period": index,
                "set_index": deriver.walk(period)[index],
                "school_text": f"{PREFIX}/{deriver.ruleset}/school/{n // 2}",
                "attempt_0_text": f"{PREFIX}/{deriver.ruleset}/deal/{d.isoformat()}/0",
            }
        )
    obj["raw_permutation_heads"] = {
        str(p): raw_permutation(p, deriver.ruleset)[:8] for p in (0, 1, 4, 5)
    }
    obj["digests"] = [
        {"text": text, "sha256": hashlib.sha256(text.encode("ascii")).hexdigest()}
        for text in (f"{PREFIX}/{deriver.ruleset}/sets/5/0", f"{PREFIX}/{deriver.ruleset}/school/0")
    ]
    day, attempt = unbalanced
    candidate = deriver.derive_candidate(day, attempt)
    obj["unbalanced_example"] = {
        "date": day.isoformat(),
        "attempt": attempt,
        "position": candidate.position,
        "balance": balance_score(candidate.start_position()),
    }
    return obj
