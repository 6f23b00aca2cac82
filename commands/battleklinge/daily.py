"""``fechtbuch daily``: show, verify, export and measure the daily duel (Tagesduell)."""

from __future__ import annotations

import statistics
import time
from datetime import date, datetime, timezone

import click
from fechtbuch.commands.options import emit_json, int_range, json_option
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, dump_json, ensure_writable, read_json_file
from fechtbuch.puzzles.battleklinge import daily


class DateType(click.ParamType):
    """A date ``YYYY-MM-DD``; impossible dates are one-line errors naming the field."""

    name = "DATE"

    def __init__(self, what: str = "date"):
        self.what = what

    def convert(self, value, param, ctx):
        if isinstance(value, date):
            return value
        return daily.parse_date(value, self.what)


@click.group("daily")
def daily_group() -> None:
    """The daily duel (Tagesduell): one card set, deal and player school per date.

    Derived from SHA-256 of versioned text (docs/daily.md), so every copy of
    the game computes the same duel; every duel is proved fair with the solver.
    """


def _today() -> date:
    return datetime.now(timezone.utc).date()


def _describe(duel: daily.Duel) -> list[str]:
    from fechtbuch.engines.battleklinge.cards import CARDS, COLOR_NAMES, card_from_id

    def names(ids):
        return ", ".join(CARDS[card_from_id(c)].name for c in ids)

    school = COLOR_NAMES["gb".index(duel.school)]
    starts = COLOR_NAMES["gb".index(duel.starts)]
    return [
        f"Daily duel {duel.date} (ruleset {duel.ruleset}, attempt {duel.attempt})",
        f"Cards: {names(duel.cards)}",
        f"Gold hand: {names(duel.gold_hand)}; Blau hand: {names(duel.blau_hand)}; "
        f"side: {names([duel.side])} ({starts} starts)",
        f"Your school: {school} (against the computer at strength Stark)",
        f"Position: {duel.position}",
        f"Seed: {duel.seed}",
    ]


@daily_group.command("show")
@click.argument("day", metavar="[DATE]", type=DateType(), required=False)
@json_option("the duel's fields")
def show_command(day: date | None, as_json: bool) -> None:
    """Show the duel of DATE (YYYY-MM-DD; default today, UTC): board and fields.

    The board is drawn from the player's school.  JSON fields: date, ruleset,
    cards, gold_hand, blau_hand, side, starts, school, position, seed, attempt.
    """
    from fechtbuch.engines.battleklinge.textboard import draw_position

    duel = daily.Deriver().derive(day or _today()).duel
    if as_json:
        emit_json(duel.to_json())
        return
    for line in _describe(duel):
        click.echo(line)
    click.echo("")
    position = duel.start_position()
    player = "gb".index(duel.school)
    click.echo(draw_position(position, flip=player != position.turn))


def _check_duel(
    deriver: daily.Deriver, day: date, recorded: daily.Duel | None
) -> tuple[bool, str, daily.Duel]:
    """Re-derive a day with the fairness checks confirmed by minimax; (ok, report line, duel)."""
    derivation = deriver.derive(day, check=lambda pos: daily.fairness(pos, verify=True))
    duel = derivation.duel
    problems = []
    for attempt, verdict in enumerate(derivation.verdicts):
        if verdict.verified is False:
            problems.append(f"attempt {attempt}: minimax contradicts '{verdict.reason}'")
    if recorded is not None:
        for name in daily.differences(duel, recorded):
            problems.append(
                f"field {name!r}: file {getattr(recorded, name)!r}, derived {getattr(duel, name)!r}"
            )
    accepted = derivation.verdicts[-1]
    if problems:
        return False, f"{day.isoformat()} FAIL: " + "; ".join(problems), duel
    rejected = "".join(
        f"; attempt {a} rejected ({v.reason})" for a, v in enumerate(derivation.verdicts[:-1])
    )
    return (
        True,
        f"{day.isoformat()} ok: attempt {duel.attempt}, {','.join(duel.cards)}, "
        f"school {duel.school}, {accepted.reason} (verified){rejected}",
        duel,
    )


@daily_group.command("verify")
@click.argument("day", metavar="[DATE]", type=DateType(), required=False)
@click.option("--from", "first", type=DateType("--from"), help="First date of a range.")
@click.option("--days", type=int_range(1, 100_000), help="Number of days of the range.")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False),
    help="A schedule file to compare entry by entry.",
)
def verify_command(day, first, days, file) -> int:
    """Recompute duels, re-run the fairness checks and compare a file field by field.

    With no argument: today's duel (UTC), as `daily show`.

    \b
      fechtbuch daily verify 2027-01-01
      fechtbuch daily verify --from 2027-01-01 --days 30
      fechtbuch daily verify --file data/daily/2027.json

    One line per date.  Exit status 0 if every duel holds, 1 if any check
    or field fails, 2 on bad input (impossible dates, malformed files).
    """
    modes = sum(x is not None for x in (day, first, file))
    if modes == 0 and days is None:
        day, modes = _today(), 1  # as `daily show`: no argument means today (UTC)
    if modes != 1 or (first is None) != (days is None):
        raise InputError("verify: give at most one of DATE, --from DATE --days N, --file FILE")
    deriver = daily.Deriver()
    recorded: list[daily.Duel | None]
    if file is not None:
        obj = read_json_file(file, "file")
        entries = daily.schedule_from_json(obj, "file")
        if not entries:
            raise InputError(f"days: the file {file!r} has no entries")
        deriver = daily.Deriver(obj["ruleset"])
        dates = [daily.parse_date(e.date) for e in entries]
        recorded = list(entries)
    elif day is not None:
        dates, recorded = [day], [None]
    else:
        dates = daily.date_range(first, days)
        recorded = [None] * len(dates)
    all_ok = True
    duels = []
    for when, entry in zip(dates, recorded, strict=True):
        ok, line, duel = _check_duel(deriver, when, entry)
        click.echo(line)
        all_ok = all_ok and ok
        duels.append(duel)
    if len(duels) > 1:
        clashes = daily.repeated_sets(duels)
        for a, b in clashes:
            click.echo(f"{b} FAIL: same card set as {a}, less than 30 days before")
        all_ok = all_ok and not clashes
    click.echo(f"{len(dates)} dates: {'all hold' if all_ok else 'FAILED'}")
    return 0 if all_ok else 1


@daily_group.command("export")
@click.option("--from", "first", type=DateType("--from"), required=True, help="First date.")
@click.option("--days", type=int_range(1, 100_000), required=True, help="Number of days.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Schedule file to write (default: daily-<FROM>-<DAYS>.json in this folder).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def export_command(first: date, days: int, output: str | None, force: bool) -> None:
    """Write the schedule of DAYS days from --from as JSON (atomic write).

    \b
      fechtbuch daily export --from 2027-01-01 --days 365 -o data/daily/2027.json

    The file: {"format": "fechtbuch-daily", "version": 1, "ruleset": ..., "days": [...]}
    with one entry per date (the fields of `daily show --json`).
    """

    from tqdm import tqdm

    output = output or f"daily-{first.isoformat()}-{days}.json"
    ensure_writable(output, force)  # before the days are derived
    deriver = daily.Deriver()
    dates = daily.date_range(first, days)
    started = time.perf_counter()
    duels = [
        deriver.derive(when).duel
        for when in tqdm(dates, desc="daily duels", unit="day", disable=days < 30 or None)
    ]
    atomic_write(output, dump_json(daily.schedule(duels)), force=force)
    seconds = time.perf_counter() - started
    attempts = sum(d.attempt > 0 for d in duels)
    click.echo(
        f"wrote {len(duels)} duels ({first.isoformat()} to {dates[-1].isoformat()}, "
        f"{attempts} after a rejected attempt) to {output} in {seconds:.1f} s"
    )


@daily_group.command("measure")
@click.option("--from", "first", type=DateType("--from"), help="First date (not with --all-sets).")
@click.option(
    "--days",
    type=int_range(1, 100_000),
    default=300,
    show_default=True,
    help="Number of dates (or card sets) to measure.",
)
@click.option(
    "--k",
    "ks",
    type=int_range(1, 8),
    multiple=True,
    default=(4, 5),
    show_default=True,
    help="Fairness bound K (no forced hit within K own moves); repeatable.",
)
@click.option(
    "--max-nodes",
    type=int_range(1),
    default=daily.FAIR_MAX_NODES,
    show_default=True,
    help="Solver node limit per check ('unknown' counts as a rejection).",
)
@click.option(
    "--all-sets",
    is_flag=True,
    help="Instead: check that each of the 4368 card sets has a fair deal (slow).",
)
@json_option()
def measure_command(
    first: date | None,
    days: int,
    ks: tuple[int, ...],
    max_nodes: int,
    all_sets: bool,
    as_json: bool,
):
    """Solver cost and rejection rates of the fairness checks, to choose K and the margin.

    The population is the attempt-0 candidate of DAYS consecutive dates from
    --from (a different card set each day).  For each K: how many the solver
    rejects and what it costs; then the balance scores (engine searches of depth
    5 and 6 averaged, side to move's view) and how many exceed the margin.  See docs/daily.md.
    """
    from tqdm import tqdm

    if all_sets:
        return _measure_all_sets(as_json)
    if first is None:
        raise InputError("--from: a first date is required unless --all-sets is given")
    deriver = daily.Deriver()
    candidates = [
        deriver.derive_candidate(when, 0).start_position() for when in daily.date_range(first, days)
    ]
    daily.solver_verdict(candidates[0], k=1)  # load the compiled code outside the timing
    daily.balance_score(candidates[0], depths=(1,))
    report: dict = {"from": first.isoformat(), "candidates": days, "max_nodes": max_nodes, "k": {}}
    for k in ks:
        verdicts = [
            daily.solver_verdict(pos, k=k, max_nodes=max_nodes)
            for pos in tqdm(candidates, desc=f"K={k}", unit="pos", disable=None)
        ]
        seconds = [v.seconds for v in verdicts]
        nodes = [v.nodes for v in verdicts]
        report["k"][str(k)] = {
            "rejected": sum(not v.fair for v in verdicts),
            "mover_hits": sum(v.distance is not None for v in verdicts),
            "mover_lost": sum(v.loss_in is not None for v in verdicts),
            "unknown": sum(v.status != "solved" for v in verdicts),
            "median_seconds": round(statistics.median(seconds), 4),
            "mean_seconds": round(statistics.fmean(seconds), 4),
            "max_seconds": round(max(seconds), 4),
            "median_nodes": int(statistics.median(nodes)),
            "max_nodes_used": max(nodes),
        }
    started = time.perf_counter()
    scores = [daily.balance_score(pos) for pos in tqdm(candidates, desc="balance", disable=None)]
    balance_seconds = (time.perf_counter() - started) / days
    ordinary = [s for s in scores if abs(s) < 1000]
    report["balance"] = {
        "depths": list(daily.BALANCE_DEPTHS),
        "margin": daily.BALANCE_MARGIN,
        "forced": len(scores) - len(ordinary),
        "mean": round(statistics.fmean(ordinary), 1) if ordinary else None,
        "percentile_99_abs": sorted(abs(s) for s in ordinary)[int(0.99 * len(ordinary))]
        if ordinary
        else None,
        "stdev": round(statistics.pstdev(ordinary), 1) if ordinary else None,
        "min": min(ordinary, default=None),
        "max": max(ordinary, default=None),
        "beyond_margin": sum(abs(s) > daily.BALANCE_MARGIN for s in scores),
        "mean_seconds": round(balance_seconds, 4),
    }
    if as_json:
        emit_json(report)
        return
    click.echo(f"{days} candidates (attempt 0 of each date from {first.isoformat()})")
    for k, row in report["k"].items():
        click.echo(
            f"K={k}: rejected {row['rejected']} ({100 * row['rejected'] / days:.1f}%: "
            f"{row['mover_hits']} mover hits, {row['mover_lost']} mover lost, "
            f"{row['unknown']} unknown); seconds median {row['median_seconds']}, "
            f"mean {row['mean_seconds']}, max {row['max_seconds']}; nodes median "
            f"{row['median_nodes']:,}, max {row['max_nodes_used']:,}"
        )
    b = report["balance"]
    click.echo(
        f"balance (mean of depths {b['depths']}, centi-students, side to move): "
        f"{b['forced']} forced, "
        f"mean {b['mean']}, stdev {b['stdev']}, min {b['min']}, max {b['max']}, "
        f"99th percentile of |score| {b['percentile_99_abs']}; "
        f"beyond +-{b['margin']}: {b['beyond_margin']} ({100 * b['beyond_margin'] / days:.1f}%); "
        f"{b['mean_seconds']} s each"
    )


def _measure_all_sets(as_json: bool) -> int:
    """Every card set has a deal that passes all fairness checks (deals in canonical order)."""
    from tqdm import tqdm

    started = time.perf_counter()
    tried_counts = []
    without = []
    solver_nodes = []
    unknown = 0
    for cards in tqdm(daily.SETS, desc="card sets", unit="set", disable=None):
        for tried, (gold, blau, side) in enumerate(daily.deals(cards), start=1):
            verdict = daily.fairness(daily.Position.start(gold, blau, side))
            solver_nodes.append(verdict.nodes)
            unknown += verdict.status != "solved"
            if verdict.fair:
                tried_counts.append(tried)
                break
        else:
            without.append(cards)
    seconds = time.perf_counter() - started
    report = {
        "sets": len(daily.SETS),
        "sets_without_fair_deal": [list(c) for c in without],
        "max_deals_tried": max(tried_counts, default=None),
        "sets_needing_more_than_one_deal": sum(t > 1 for t in tried_counts),
        "candidates": len(solver_nodes),
        "solver_unknown": unknown,
        "solver_max_nodes": max(solver_nodes),
        "seconds": round(seconds, 1),
    }
    if as_json:
        emit_json(report)
    else:
        click.echo(
            f"{report['sets']} card sets: {len(without)} without a fair deal; "
            f"{report['sets_needing_more_than_one_deal']} needed more than one deal "
            f"(at most {report['max_deals_tried']}); {len(solver_nodes)} candidates, "
            f"{unknown} at the node limit, at most {max(solver_nodes):,} solver nodes; "
            f"{seconds:.1f} s"
        )
    return 1 if without else 0


@daily_group.command("vectors")
@click.option(
    "--schedule",
    "schedule_file",
    type=click.Path(dir_okay=False),
    required=True,
    help="A schedule file (data/daily/2027.json) to take days with rejected attempts from.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    required=True,
    help="The vectors file to write (the shipped one: data/daily/vectors.json).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def vectors_command(schedule_file: str, output: str, force: bool) -> None:
    """Write the test vectors for other implementations (data/daily/vectors.json).

    The fixed dates of puzzles.battleklinge.daily.vector_dates, every day of the schedule
    whose first attempts were rejected, the intermediate values, and one
    candidate that only the balance check rejects.
    """
    entries = daily.schedule_from_json(read_json_file(schedule_file, "schedule"), "schedule")
    ensure_writable(output, force)  # before the rejected days are derived again
    deriver = daily.Deriver()
    skipped = [daily.parse_date(e.date) for e in entries if e.attempt > 0]
    unbalanced = None
    for day in skipped:
        for attempt, verdict in enumerate(deriver.derive(day).verdicts):
            if unbalanced is None and verdict.reason.startswith("unbalanced"):
                unbalanced = (day, attempt)
    if unbalanced is None:
        raise InputError(f"schedule: no attempt in {schedule_file!r} was rejected as unbalanced")
    obj = daily.build_vectors(deriver, skipped, unbalanced)
    atomic_write(output, dump_json(obj), force=force)
    click.echo(f"wrote {len(obj['days'])} vectors to {output}")
