"""Schedule files of daily duels: writing, strict reading, comparing."""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import (
    card_from_id,
)
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.battleklinge.daily.derivation import (
    FIELDS,
    NO_REPEAT_DAYS,
    RULESET,
    RULESETS,
    Duel,
    parse_date,
)

SCHEDULE_FORMAT = "fechtbuch-daily"
SCHEDULE_VERSION = 1


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
