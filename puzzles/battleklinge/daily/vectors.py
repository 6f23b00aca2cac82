"""Test vectors for other implementations of the daily duel (data/daily/vectors.json)."""

from __future__ import annotations

from datetime import date

from fechtbuch.engines.seeding import sha256_text
from fechtbuch.puzzles.battleklinge.daily.derivation import (
    PERIOD_DAYS,
    Deriver,
    day_number,
    hashed_text,
    parse_date,
    raw_permutation,
)
from fechtbuch.puzzles.battleklinge.daily.fairness import balance_score
from fechtbuch.puzzles.battleklinge.daily.schedule import schedule


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
                "school_text": hashed_text(deriver.ruleset, "school", n // 2),
                "attempt_0_text": hashed_text(deriver.ruleset, "deal", d.isoformat(), 0),
            }
        )
    obj["raw_permutation_heads"] = {
        str(p): raw_permutation(p, deriver.ruleset)[:8] for p in (0, 1, 4, 5)
    }
    obj["digests"] = [
        {"text": text, "sha256": sha256_text(text).hex()}
        for text in (
            hashed_text(deriver.ruleset, "sets", 5, 0),
            hashed_text(deriver.ruleset, "school", 0),
        )
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
