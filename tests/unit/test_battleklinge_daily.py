"""The daily duel: vectors, the 2027 schedule, the binding properties, and the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import date, timedelta

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge.cards import CARDS, card_from_id
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge import daily
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.clirun import run

VECTORS = data_path("daily", "vectors.json")
SCHEDULE_2027 = data_path("daily", "2027.json")


def load(path):
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def deriver():
    return daily.Deriver()


@pytest.fixture(scope="module")
def schedule_2027():
    return load(SCHEDULE_2027)


# ---- an independent implementation of docs/daily.md (no code shared) --------


def doc_sha(text):
    return hashlib.sha256(text.encode("ascii")).digest()


def doc_u64(block, i=0):
    return int.from_bytes(block[8 * i : 8 * i + 8], "big")


def doc_permutation(period):
    order = list(range(4368))
    draws, counter = [], 0
    for i in range(4367, 0, -1):
        if not draws:
            block = doc_sha(f"battleklinge-daily/v1/battleklinge-1/sets/{period}/{counter}")
            draws = [doc_u64(block, k) for k in range(4)]
            counter += 1
        j = draws.pop(0) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def doc_candidate(day: date, attempt: int) -> dict:
    """Card set, deal, school and seed of one attempt, written from docs/daily.md."""
    n = (day - date(1970, 1, 1)).days
    period, index = divmod(n, 4368)
    walk = doc_permutation(period)
    if period > 0:
        tail = set(doc_permutation(period - 1)[4368 - 29 :])
        q = 29
        for i in range(29):
            if walk[i] in tail:
                while walk[q] in tail:
                    q += 1
                walk[i], walk[q] = walk[q], walk[i]
                q += 1
    sets = [
        (a, b, c, d, e)
        for a in range(16)
        for b in range(a + 1, 16)
        for c in range(b + 1, 16)
        for d in range(c + 1, 16)
        for e in range(d + 1, 16)
    ]
    cards = sets[walk[index]]
    untried = []
    for side in cards:
        rest = [c for c in cards if c != side]
        for x in range(4):
            for y in range(x + 1, 4):
                gold = (rest[x], rest[y])
                blau = tuple(c for c in rest if c not in gold)
                untried.append((gold, blau, side))
    for a in range(attempt + 1):
        seed = doc_sha(f"battleklinge-daily/v1/battleklinge-1/deal/{day.isoformat()}/{a}")
        gold, blau, side = untried.pop(doc_u64(seed) % len(untried))
    coin = doc_u64(doc_sha(f"battleklinge-daily/v1/battleklinge-1/school/{n // 2}")) % 2
    ids = [c.id for c in CARDS]
    return {
        "cards": [ids[c] for c in cards],
        "gold_hand": [ids[c] for c in gold],
        "blau_hand": [ids[c] for c in blau],
        "side": ids[side],
        "starts": "gb"[CARDS[side].mark],
        "school": "g" if n % 2 == coin else "b",
        "seed": seed.hex(),
    }


# ---- vectors -------------------------------------------------------------------


def test_vectors_cover_the_required_dates():
    data = load(VECTORS)
    assert data["format"] == "fechtbuch-daily" and data["ruleset"] == daily.RULESET
    dates = [entry["date"] for entry in data["days"]]
    assert len(set(dates)) == len(dates) >= 60
    assert {"2028-02-29", "2026-12-31", "2027-12-31", "2028-12-31", "9999-12-31"} <= set(dates)
    assert any(entry["attempt"] > 0 for entry in data["days"])
    assert all(set(entry) == set(daily.FIELDS) for entry in data["days"])


def test_vectors_match_the_derivation(deriver):
    for entry in load(VECTORS)["days"]:
        assert deriver.derive(daily.parse_date(entry["date"])).duel.to_json() == entry


def test_vectors_match_an_independent_implementation_of_the_docs():
    for entry in load(VECTORS)["days"]:
        expected = doc_candidate(daily.parse_date(entry["date"]), entry["attempt"])
        assert {k: entry[k] for k in expected} == expected, entry["date"]


def test_intermediate_values_in_vectors(deriver):
    steps = load(VECTORS)["intermediate"]
    for step in steps:
        day = daily.parse_date(step["date"])
        n = daily.day_number(day)
        assert step["day_number"] == n
        assert step["period"] == n // daily.PERIOD_DAYS
        assert step["set_index"] == deriver.walk(n // daily.PERIOD_DAYS)[n % daily.PERIOD_DAYS]
    heads = load(VECTORS)["raw_permutation_heads"]
    for period, head in heads.items():
        assert daily.raw_permutation(int(period))[: len(head)] == head


# ---- the 2027 schedule ------------------------------------------------------------


def test_2027_schedule_is_the_derivation(deriver, schedule_2027):
    duels = daily.schedule_from_json(schedule_2027)
    assert schedule_2027["format"] == "fechtbuch-daily" and schedule_2027["version"] == 1
    assert [d.date for d in duels] == [
        (date(2027, 1, 1) + timedelta(days=i)).isoformat() for i in range(365)
    ]
    # every entry is its attempt's candidate (cheap: no solver)
    for duel in duels:
        assert deriver.derive_candidate(daily.parse_date(duel.date), duel.attempt) == duel
    # full derivation with the fairness checks: every day with a rejected attempt, and every
    # 7th day (the whole year takes about 15 s; see docs/daily.md)
    sample = [d for i, d in enumerate(duels) if d.attempt > 0 or i % 7 == 0]
    assert any(d.attempt > 0 for d in sample)
    for duel in sample:
        assert deriver.derive(daily.parse_date(duel.date)).duel == duel
    assert daily.repeated_sets(duels) == []


def test_2027_file_is_byte_stable(schedule_2027):
    assert SCHEDULE_2027.read_bytes() == dump_json(schedule_2027)


# ---- binding properties --------------------------------------------------------------


def test_no_card_set_repeats_within_30_days_over_eleven_years(deriver):
    first = date(2026, 1, 1)
    days = [
        first + timedelta(days=i) for i in range(11 * 366)
    ]  # crosses the period boundary 2029-10-18
    assert any(daily.day_number(d) % daily.PERIOD_DAYS == 0 for d in days)
    sets = [deriver.card_set(d) for d in days]
    for i in range(len(sets)):
        window = sets[max(0, i - 29) : i]
        assert sets[i] not in window, days[i]
    # the deal of any attempt keeps the day's set
    assert sorted(deriver.derive_candidate(days[0], 7).cards) == sorted(
        CARDS[c].id for c in sets[0]
    )


@settings(max_examples=40, deadline=None)
@given(st.dates(min_value=date(1970, 1, 30), max_value=date(9999, 12, 31)))
@example(date(2029, 10, 18))
@example(date(2029, 11, 15))
@example(date(1982, 1, 14))
def test_any_30_days_have_30_sets_and_balanced_schools(last):
    deriver = daily.Deriver()
    window = [last - timedelta(days=i) for i in range(30)]
    assert len({deriver.card_set(d) for d in window}) == 30
    gold = sum(daily.school_of_day(daily.day_number(d)) == "g" for d in window)
    assert 14 <= gold <= 16


@pytest.mark.parametrize("period", [1, 2, 3, 4, 5, 6, 7, 100, 671])
def test_period_boundaries_are_clear_and_walks_are_permutations(period):
    previous = daily.period_walk(period - 1)
    walk = daily.period_walk(period)
    assert sorted(walk) == list(range(4368))
    assert not set(previous[-29:]) & set(walk[:29])
    assert walk[-29:] == tuple(daily.raw_permutation(period)[-29:])


def test_school_is_balanced_over_any_30_days_for_eleven_years():
    first = daily.day_number(date(2026, 1, 1))
    schools = [daily.school_of_day(n) for n in range(first, first + 11 * 366)]
    for i in range(len(schools) - 29):
        gold = schools[i : i + 30].count("g")
        assert 14 <= gold <= 16
    assert abs(schools.count("g") - schools.count("b")) <= 2
    # not a fixed alternation: the coin differs between pairs
    assert {tuple(schools[i : i + 2]) for i in range(0, 60, 2)} == {("g", "b"), ("b", "g")}


def test_deals_are_the_30_splits_with_the_side_card_deciding_who_starts(deriver):
    cards = (0, 4, 7, 12, 13)
    deals = daily.deals(cards)
    assert len(set(deals)) == 30
    for gold, blau, side in deals:
        assert sorted([*gold, *blau, side]) == list(cards)
    day = date(2027, 5, 12)
    for attempt in range(30):
        duel = deriver.derive_candidate(day, attempt)
        assert duel.starts == "gb"[CARDS[card_from_id(duel.side)].mark]
        assert duel.start_position().turn == "gb".index(duel.starts)
    tried = {deriver.derive_candidate(day, a).position for a in range(30)}
    assert len(tried) == 30  # every attempt tries a new deal


# ---- fairness --------------------------------------------------------------------------


def test_fairness_rejects_forced_hits_and_skips_to_the_next_attempt(deriver, schedule_2027):
    # a day whose first candidates have a forced hit within 4: the derivation names the attempt
    entry = next(e for e in schedule_2027["days"] if e["attempt"] > 0)
    day = daily.parse_date(entry["date"])
    derivation = deriver.derive(day)
    assert derivation.duel.attempt == entry["attempt"] == len(derivation.verdicts) - 1
    assert not any(v.fair for v in derivation.verdicts[:-1]) and derivation.verdicts[-1].fair
    for attempt, verdict in enumerate(derivation.verdicts[:-1]):
        position = deriver.derive_candidate(day, attempt).start_position()
        assert verdict.reason == daily.fairness(position).reason


def test_forced_hit_start_is_unfair_and_confirmed_by_minimax():
    # ausfall, stoss, battuta, terz, quart: Blau to move with stoss,battuta hits in 3
    position = Position.from_text("ssmss/5/5/5/SSMSS b stoss,battuta terz,quart ausfall")
    verdict = daily.fairness(position, verify=True)
    assert not verdict.fair and verdict.distance == 3 and verdict.verified is True
    assert verdict.reason == "b (to move) hits in 3"


def test_lopsided_start_is_rejected_by_the_balance_check():
    position = Position.from_text(load(VECTORS)["unbalanced_example"]["position"])
    solver_only = daily.solver_verdict(position)
    assert solver_only.fair
    verdict = daily.fairness(position)
    assert not verdict.fair and verdict.reason.startswith("unbalanced")
    assert abs(verdict.balance) > daily.BALANCE_MARGIN


def test_node_limit_counts_as_rejection():
    position = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    verdict = daily.solver_verdict(position, max_nodes=1000)
    assert not verdict.fair and verdict.status == "unknown" and "node limit" in verdict.reason


def test_attempts_skip_deterministically_and_exhaustion_is_an_error(deriver):
    day = date(2027, 3, 3)
    calls = []

    def reject_two(position):
        calls.append(position.to_text())
        fair = len(calls) > 2
        return daily.Verdict(fair, "test", "solved", None, None, 0, 0.0)

    derivation = deriver.derive(day, check=reject_two)
    assert derivation.duel == deriver.derive_candidate(day, 2)
    assert calls == [deriver.derive_candidate(day, a).position for a in range(3)]
    with pytest.raises(daily.DailyError):
        deriver.derive(day, check=lambda p: daily.Verdict(False, "no", "solved", 1, None, 0, 0))


# ---- CLI -----------------------------------------------------------------------------


def test_show_text_and_json():
    result = run("daily", "show", "2028-02-29")
    assert result.exit_code == 0
    duel = daily.derive("2028-02-29")
    assert f"Position: {duel.position}" in result.output and "Seed: " in result.output
    assert "  1 S S M S S 1" in result.output and "Your school: " in result.output
    data = json.loads(run("daily", "show", "2028-02-29", "--json").output)
    assert data == duel.to_json() and list(data) == sorted(daily.FIELDS)


def test_show_defaults_to_today_utc():
    data = json.loads(run("daily", "show", "--json").output)
    from datetime import datetime, timezone

    assert data["date"] in {
        datetime.now(timezone.utc).date().isoformat(),
        (datetime.now(timezone.utc).date() - timedelta(days=1)).isoformat(),
    }


def test_export_then_verify_and_a_tampered_entry_is_caught(tmp_path):
    out = tmp_path / "s.json"
    result = run("daily", "export", "--from", "2027-12-30", "--days", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (
        run("daily", "export", "--from", "2027-12-30", "--days", "3", "-o", str(out)).exit_code == 2
    )
    result = run("daily", "verify", "--file", str(out))
    assert result.exit_code == 0 and result.output.count(" ok: ") == 3
    data = load(out)
    data["days"][1]["school"] = "b" if data["days"][1]["school"] == "g" else "g"
    data["days"][2]["gold_hand"] = data["days"][2]["blau_hand"]
    out.write_bytes(dump_json(data))
    result = run("daily", "verify", "--file", str(out))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("2027-12-30 ok")
    assert lines[1].startswith("2027-12-31 FAIL: field 'school'")
    assert lines[2].startswith("2028-01-01 FAIL: field 'gold_hand'")
    assert lines[-1] == "3 dates: FAILED"
    forced = run(
        "daily", "export", "--from", "2027-12-30", "--days", "3", "-o", str(out), "--force"
    )
    assert forced.exit_code == 0 and run("daily", "verify", "--file", str(out)).exit_code == 0


def test_vectors_command_reproduces_the_shipped_file(tmp_path):
    out = tmp_path / "v.json"
    result = run("daily", "vectors", "--schedule", str(SCHEDULE_2027), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == VECTORS.read_bytes()


def test_measure_reports_rejections_and_costs():
    result = run("daily", "measure", "--from", "2027-05-12", "--days", "2", "--k", "4", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["candidates"] == 2 and report["k"]["4"]["mover_hits"] == 1
    assert report["balance"]["forced"] == 1


def test_verify_a_date_and_a_range():
    result = run("daily", "verify", "2027-01-01")
    assert result.exit_code == 0 and result.output.startswith("2027-01-01 ok: attempt 1")
    assert "(verified); attempt 0 rejected (unbalanced: engine score +0.330" in result.output
    result = run("daily", "verify", "--from", "2027-12-31", "--days", "2")
    assert result.exit_code == 0 and result.output.splitlines()[-1] == "2 dates: all hold"


def _write(tmp_path, obj, raw=None):
    path = tmp_path / "bad.json"
    path.write_bytes(raw if raw is not None else dump_json(obj))
    return str(path)


def _good_entry():
    return daily.Deriver().derive_candidate(date(2027, 1, 1), 0).to_json()


def test_verify_without_a_date_checks_today_as_show_does(monkeypatch):
    from fechtbuch.commands.battleklinge import daily as daily_commands

    monkeypatch.setattr(daily_commands, "_today", lambda: date(2027, 3, 1))
    result = run("daily", "verify")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2027-03-01 ok")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["show", "2027-02-30"], "date: '2027-02-30' is not a calendar date"),
        (["show", "2027-13-01"], "date: '2027-13-01' is not a calendar date"),
        (["show", "27-1-1"], "date: expected a date YYYY-MM-DD, got '27-1-1'"),
        (["show", "1969-12-31"], "before 1970-01-01"),
        (["verify", "2027-02-29"], "'2027-02-29' is not a calendar date"),
        (["verify", "--from", "2027-02-30", "--days", "2"], "--from: '2027-02-30'"),
        (["verify", "--from", "9999-12-31", "--days", "2"], "go past 9999-12-31"),
        (["verify", "--days", "3"], "give at most one of DATE"),
        (["verify", "2027-01-01", "--file", "x.json"], "give at most one of DATE"),
        (["verify", "--file", "/nonexistent/x.json"], "file: no such file '/nonexistent/x.json'"),
        (
            ["export", "--from", "2027-01-01", "--days", "0", "-o", "x.json"],
            "0 is not in the range",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(args, fragment):
    result = run("daily", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fechtbuch: error:"), result.stderr
    assert fragment in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: None, "not valid JSON"),
        (lambda d: [1, 2], "file: expected a JSON object"),
        (lambda d: d.pop("days") and None, "file: missing field 'days'"),
        (lambda d: d.update(format="other"), "format: expected 'fechtbuch-daily', got 'other'"),
        (lambda d: d.update(version=7), "version: expected 1, got 7"),
        (lambda d: d.update(ruleset="chess"), "ruleset: unknown ruleset 'chess'"),
        (lambda d: d.update(days={}), "days: expected a list"),
        (lambda d: d.update(days=[]), "has no entries"),
        (lambda d: d["days"][0].update(date="2027-02-30"), "days[0].date: '2027-02-30'"),
        (lambda d: d["days"][0].pop("seed"), "days[0]: missing field 'seed'"),
        (lambda d: d["days"][0].update(extra=1), "days[0]: unknown field 'extra'"),
        (lambda d: d["days"][0].update(school="x"), "days[0].school: expected 'g' or 'b', got 'x'"),
        (lambda d: d["days"][0].update(attempt=-1), "days[0].attempt: expected a non-negative"),
        (lambda d: d["days"][0].update(cards=["a"]), "days[0].cards: expected a list of 5"),
        (lambda d: d["days"][0].update(side="florett"), "days[0].side: unknown card 'florett'"),
        (lambda d: d["days"][0].update(gold_hand=["stoss", 3]), "days[0].gold_hand[1]"),
    ],
)
def test_malformed_files_are_one_line_exit_2(tmp_path, mutate, fragment):
    obj = {"format": "fechtbuch-daily", "version": 1, "ruleset": "battleklinge-1"}
    obj["days"] = [_good_entry()]
    replaced = mutate(obj)
    raw = b"{not json" if fragment == "not valid JSON" else None
    path = _write(tmp_path, replaced if isinstance(replaced, list) else obj, raw)
    result = run("daily", "verify", "--file", path)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_play_daily_uses_the_derived_duel(tmp_path, monkeypatch):
    import datetime as dt

    from fechtbuch.commands.battleklinge import play as play_commands

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(play_commands, "utc_today", lambda: dt.date(2027, 1, 1))
    duel = daily.derive("2027-01-01")
    result = CliRunner().invoke(
        cli.main, ["play", "--daily", "2027-01-01", "--seed", "1"], input="resign\n"
    )
    assert result.exit_code == 0, result.output
    assert f"Daily duel 2027-01-01: cards {', '.join(duel.cards)}" in result.output
    you = "Gold" if duel.school == "g" else "Blau"
    assert f"you play {you} against Stark" in result.output
    record = json.loads((tmp_path / "xdg" / "fechtbuch" / "record.json").read_text())
    assert record["daily"] == {"2027-01-01": "lost"}


# ---- a fresh process ------------------------------------------------------------------


def test_identical_results_in_a_fresh_process():
    dates = ["2028-02-29", "9999-12-31"]
    env = dict(os.environ, PYTHONHASHSEED="12345")
    outputs = []
    for day in dates:
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                "from fechtbuch import cli; cli.main()",
                "daily",
                "show",
                day,
                "--json",
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(json.loads(result.stdout))
    assert outputs == [daily.derive(d).to_json() for d in dates]
    bad = subprocess.run(
        [
            sys.executable,
            "-c",
            "from fechtbuch import cli; cli.main()",
            "daily",
            "verify",
            "2027-02-30",
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == (
        "fechtbuch: error: date: '2027-02-30' is not a calendar date "
        "(day is out of range for month)"
    )


def test_non_ascii_digits_boolean_version_and_repeated_dates_are_input_errors(tmp_path):
    assert run("daily", "show", "２０２７-01-01").exit_code == 2
    entry = _good_entry()
    for obj in (
        {
            "format": "fechtbuch-daily",
            "version": True,
            "ruleset": "battleklinge-1",
            "days": [entry],
        },
        {
            "format": "fechtbuch-daily",
            "version": 1,
            "ruleset": "battleklinge-1",
            "days": [entry, entry],
        },
    ):
        path = _write(tmp_path, obj, None)
        assert run("daily", "verify", "--file", path).exit_code == 2
