"""``fechtbuch db``: the puzzle database of every game (docs/database.md).

The commands are generic: each game takes part through its mining kind's database
hooks (``db_task``, ``db_round``, ``db_card_set``, ``db_pack``, ``db_verify``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click
from fechtbuch.commands.options import emit_json, float_range, int_range, jobs_option, json_option
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, ensure_writable
from fechtbuch.engines.registry import UnknownGameError, plugin
from fechtbuch.puzzles.db.schema import ENVIRONMENT_VARIABLE
from tqdm import tqdm

EXIT_FAILED = 1
EXIT_INTERRUPTED = 130


def db_option(command):
    return click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False, path_type=Path),
        envvar=ENVIRONMENT_VARIABLE,
        default=None,
        help=f"The database file (default: ${ENVIRONMENT_VARIABLE}, else "
        "~/.local/share/fechtbuch/puzzles.sqlite, under $XDG_DATA_HOME if set).",
    )(command)


def _db_path(db_path: Path | None) -> Path:
    from fechtbuch.puzzles.db.schema import default_path

    return db_path if db_path is not None else default_path()


def game_option(required: bool):
    return click.option(
        "--game",
        required=required,
        default=None,
        help="The game by slug or alias (battleklinge, touche-duell, touche-pyramiden, ...).",
    )


def _slug(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return plugin(name).slug
    except UnknownGameError as err:
        raise InputError("--" + str(err)) from None


def ray_options(command):
    command = click.option(
        "--ray-address",
        default=None,
        help="Run on the Ray cluster at this address (implies --ray), e.g. 10.0.0.5:6379.",
    )(command)
    return click.option(
        "--ray",
        "use_ray",
        is_flag=True,
        help="Run on Ray (a local Ray with -j CPUs unless --ray-address names a cluster); "
        "needs pip install 'fechtbuch[ray]'.  The database bytes do not depend on it.",
    )(command)


def _interrupted(message: str) -> int:
    click.echo(message, err=True)
    return EXIT_INTERRUPTED


@click.command("mine")
@game_option(required=True)
@click.option(
    "--rounds",
    type=int_range(1),
    default=100,
    show_default=True,
    help="Seeded rounds to add (a round: one self-play game of the game's miner).",
)
@click.option(
    "--seed",
    type=int_range(0),
    default=1,
    show_default=True,
    help="The stream's seed (SHA-256 derived rounds; the same runs, the same bytes).",
)
@click.option(
    "--n",
    "ns",
    type=int_range(1, 10),
    multiple=True,
    help="Exercise length to keep; repeat for several (default: the game's, e.g. 2 and 3 "
    "for Battleklinge).",
)
@click.option(
    "--cover",
    is_flag=True,
    help="A covering stream: round r plays the game's card set number r modulo its "
    "number of card sets (Battleklinge: 4,368, every 5 of 16 in order, so --rounds 43680 "
    "gives each set ten rounds).",
)
@click.option(
    "--target",
    type=int_range(1, 10_000),
    default=None,
    help="With --cover: top-up passes instead, each one round for every card set with "
    "fewer than TARGET exercises, until none is short or --rounds is spent.",
)
@db_option
@jobs_option
@ray_options
@json_option("the run's counts")
def mine_command(
    game, rounds, seed, ns, cover, target, db_path, jobs, use_ray, ray_address, as_json
):
    """Append the verified exercises of ROUNDS more seeded rounds to the database.

    Rounds are committed in order, so the file is byte for byte the same for any
    -j, with or without Ray, and after an interruption: a run that was stopped
    (Ctrl-C, kill, a lost node) is continued by the next 'db mine' of the same
    game, seed and --n (its --rounds then adds nothing; run again for more).
    Duplicates, mirror images included, are stored once.  With --cover the rounds
    go through every card set in turn (a stream of its own), for a database that
    covers them all; with --target the sets still short get more rounds, pass by
    pass; 'db stats' shows the fewest exercises of any set.

    \b
    Example:
      fechtbuch db mine --game battleklinge --rounds 500 --seed 1 -j 2 --db puzzles.sqlite
      fechtbuch db mine --game battleklinge --cover --rounds 4368 -j 2 --db puzzles.sqlite
      fechtbuch db mine --game battleklinge --cover --target 20 --rounds 200000 -j 2 \\
          --db puzzles.sqlite
    """
    from fechtbuch.puzzles.db import backends, mine, schema

    slug = _slug(game)
    kind = backends.mining_kind(slug)
    lengths = tuple(sorted(set(ns))) or kind.db_ns
    if cover and not kind.db_cover_sets:
        raise InputError(f"--cover: {plugin(slug).title} has no card sets to cover")
    if target is not None and not cover:
        raise InputError("--target: goes with --cover (it tops up the short card sets)")
    if use_ray or ray_address is not None:
        backends.import_ray()  # a missing Ray is one line before the database is touched
    path = _db_path(db_path)
    conn = schema.open_for_writing(path)
    backend = None
    tally = mine.MineTally()
    spans: list[list[int]] = []
    try:
        backend = backends.make_backend(use_ray, ray_address, jobs, kind.warm_up)
        for plan in _plans(conn, kind, seed, lengths, rounds, cover, target):
            if plan.continued:
                click.echo(
                    f"fechtbuch: note: continuing the interrupted run of rounds {plan.first}-"
                    f"{plan.end - 1} from round {plan.start}",
                    err=True,
                )
            with tqdm(
                total=plan.end - plan.start,
                desc="db mine" if plan.cover is None or plan.cover.target is None
                else f"top-up pass {plan.cover.number} ({len(plan.cover.sets)} sets)",
                unit=" rounds", leave=False, disable=None,
            ) as bar:  # fmt: skip
                done = mine.mine_plan(conn, kind, plan, lengths, backend, lambda _: bar.update(1))
            tally.add(done)
            spans.append([plan.first, plan.end - 1])
        workers = backend.workers()
    except KeyboardInterrupt:
        return _interrupted(
            "interrupted: the rounds committed so far are kept; run again to continue"
        )
    finally:
        if backend is not None:
            backend.close()
        conn.close()
    summary = {
        "db": str(path),
        "game": slug,
        "seed": seed,
        "ns": list(lengths),
        "cover": cover,
        "target": target,
        "rounds": spans[0] if len(spans) == 1 else spans,
        "rounds_this_run": tally.rounds,
        "found": tally.found,
        "stored": tally.stored,
        "duplicates": tally.found - tally.stored,
        "backend": backend.name,
        "workers": workers,
        "seconds": round(tally.wall_seconds, 2),
        "cpu_seconds": round(tally.cpu_seconds, 2),
    }
    if as_json:
        emit_json(summary)
        return 0
    which = f"{len(spans)} top-up passes" if target is not None else (
        f"rounds {spans[0][0]}-{spans[0][1]}"
    )  # fmt: skip
    click.echo(
        f"{path}: {which} of {slug} seed {seed} done; "
        f"{tally.stored} exercises stored, {tally.found - tally.stored} duplicates, "
        f"in {tally.wall_seconds:.1f} s ({backend.name}, {workers} workers)."
    )
    return 0


def _plans(conn, kind, seed, lengths, rounds, cover, target):
    """The runs of one ``db mine``: one plan, or with ``--target`` top-up passes (an
    interrupted one first) while card sets are short and ``rounds`` last."""
    from fechtbuch.puzzles.db import mine

    if target is None:
        all_sets = mine.Cover(tuple(range(kind.db_cover_sets))) if cover else None
        yield mine.plan_run(conn, kind, seed, lengths, rounds, all_sets)
        return
    budget = rounds
    while budget > 0:
        top_up = mine.unfinished_top_up(conn, kind, seed, lengths, target)
        top_up = top_up or mine.next_top_up(conn, kind, seed, lengths, target)
        if top_up is None or len(top_up.sets) > budget:
            return
        plan = mine.plan_run(conn, kind, seed, lengths, len(top_up.sets), top_up)
        budget -= plan.end - plan.start
        yield plan


@click.command("stats")
@game_option(required=False)
@db_option
@json_option("the counts")
def stats_command(game, db_path, as_json):
    """Counts by game, N, tag, card set and rating band.

    \b
    Example:
      fechtbuch db stats --db puzzles.sqlite --game battleklinge
    """
    from fechtbuch.puzzles.db import backends, schema, store

    conn = schema.open_for_reading(_db_path(db_path))
    try:
        counts = store.stats(conn, _slug(game))
    finally:
        conn.close()
    for name, of_game in counts["games"].items():
        of_game["card_sets_in_game"] = backends.mining_kind(name).db_cover_sets
    if as_json:
        emit_json(counts)
        return 0
    click.echo(f"{counts['puzzles']} exercises")
    for name, of_game in counts["games"].items():
        click.echo(f"{name}: {of_game['puzzles']} exercises from {of_game['rounds']} rounds")
        click.echo("  by N:    " + ", ".join(f"{n}: {c}" for n, c in of_game["by_n"].items()))
        click.echo("  by tag:  " + ", ".join(f"{t}: {c}" for t, c in of_game["by_tag"].items()))
        click.echo(
            "  rating:  " + ", ".join(f"{b}: {c}" for b, c in of_game["by_rating_band"].items())
        )
        if of_game["card_sets"]:
            click.echo(
                f"  card sets: {of_game['card_sets']} of {of_game['card_sets_in_game']}, "
                f"the fewest exercises of one: {of_game['fewest_per_card_set']}"
            )
        click.echo(f"  attempts: {of_game['attempts']}")
    return 0


def query_options(command):
    options = [
        click.option(
            "--n", "ns", type=int_range(1, 10), multiple=True, help="N; repeat for several."
        ),
        click.option(
            "--tag", "tags", multiple=True, help="A tag every row has; repeat for several."
        ),
        click.option("--rating-min", type=float_range(), default=None, help="Lowest rating."),
        click.option("--rating-max", type=float_range(), default=None, help="Highest rating."),
        click.option(
            "--cards",
            default=None,
            help="The card set (five ids or a named set, in any order; Battleklinge).",
        ),
        click.option(
            "--mined-seed", type=int_range(0), default=None, help="Rows of this stream seed only."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _query(game, ns, tags, rating_min, rating_max, cards, mined_seed, limit):
    from fechtbuch.puzzles.db import backends, store

    slug = _slug(game)
    card_set = None
    if cards is not None:
        if slug is None:
            raise InputError("--cards: name the game with --game (card sets are a game's)")
        card_set = backends.mining_kind(slug).db_card_set_text(cards)
    return store.Query(
        slug, tuple(ns), tuple(tags), rating_min, rating_max, card_set, mined_seed, limit
    )


@click.command("query")
@game_option(required=False)
@query_options
@click.option(
    "--limit", type=int_range(1), default=20, show_default=True, help="At most this many rows."
)
@db_option
@json_option("the rows (without their trees)")
def query_command(
    game, ns, tags, rating_min, rating_max, cards, mined_seed, limit, db_path, as_json
):
    """The rows that match every filter, in the order they were stored.

    \b
    Example:
      fechtbuch db query --game battleklinge --n 3 --tag opfer --rating-min 1500 --json
    """
    from fechtbuch.puzzles.db import schema, store

    query = _query(game, ns, tags, rating_min, rating_max, cards, mined_seed, limit)
    conn = schema.open_for_reading(_db_path(db_path))
    try:
        rows = store.query_rows(conn, query)
    finally:
        conn.close()
    if as_json:
        emit_json({"rows": rows})
        return 0
    for row in rows:
        click.echo(
            f"{row['row']:>7} {row['game']} N={row['n']} rating {row['rating']:.0f}"
            f"±{row['rating_deviation']:.0f} {','.join(row['motifs']) or '-'}  {row['position']}"
        )
    click.echo(f"{len(rows)} rows", err=True)
    return 0


@click.command("export")
@game_option(required=True)
@query_options
@click.option(
    "--count", type=int_range(1, 1000), default=6, show_default=True, help="Exercises per N."
)
@click.option(
    "--seed", type=int_range(0), default=1, show_default=True, help="Seed of the selection."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The pack file to write (atomically; never over a file without --force).",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT.")
@db_option
@json_option("the summary")
def export_command(
    game,
    ns,
    tags,
    rating_min,
    rating_max,
    cards,
    mined_seed,
    count,
    seed,
    output,
    force,
    db_path,
    as_json,
):
    """Write a balanced pack of COUNT exercises per N, chosen from the matching rows by
    the game's own selection (CP-SAT for Battleklinge and the Touché duel); the pack
    passes 'fechtbuch pack verify' and plays with 'fechtbuch pack play'.

    \b
    Example:
      fechtbuch db export --game battleklinge --n 2 --n 3 --count 12 -o uebungen.json
    """
    from fechtbuch.puzzles.db import backends, schema, store
    from fechtbuch.puzzles.pack import pack_bytes, schema_problems

    ensure_writable(output, force=force)
    query = _query(game, ns, tags, rating_min, rating_max, cards, mined_seed, None)
    kind = backends.mining_kind(query.game)
    lengths = tuple(sorted(set(ns))) or kind.db_ns
    query = dataclasses.replace(query, ns=lengths)
    conn = schema.open_for_reading(_db_path(db_path))
    try:
        rows = store.candidates(conn, query)
    finally:
        conn.close()
    if not rows:
        raise InputError("--game: no rows match the filters; mine more or widen them")
    command = _export_command_text(query, lengths, tags, cards, count, seed, output)
    pack = kind.db_pack(rows, lengths, count, seed, command)
    problems = schema_problems(pack)
    if problems:
        raise InputError(f"output: the pack fails its schema: {problems[0]}")
    atomic_write(output, pack_bytes(pack), force=force)
    by_n = {str(n): sum(1 for p in pack["puzzles"] if p["n"] == n) for n in lengths}
    summary = {
        "output": str(output),
        "rows": len(rows),
        "puzzles": len(pack["puzzles"]),
        "by_n": by_n,
    }
    if as_json:
        emit_json(summary)
        return 0
    click.echo(
        f"Wrote {output}: {len(pack['puzzles'])} exercises chosen from {len(rows)} rows ("
        + ", ".join(f"{k} with N={n}" for n, k in by_n.items())
        + ")."
    )
    return 0


def _export_command_text(query, lengths, tags, cards, count, seed, output: Path) -> str:
    parts = ["fechtbuch", "db", "export", "--game", query.game] + [f"--n {n}" for n in lengths]
    parts += [f"--tag {t}" for t in tags]
    if query.rating_min is not None:
        parts.append(f"--rating-min {query.rating_min:g}")
    if query.rating_max is not None:
        parts.append(f"--rating-max {query.rating_max:g}")
    if cards is not None:
        parts.append(f"--cards {query.card_set}")
    if query.mined_seed is not None:
        parts.append(f"--mined-seed {query.mined_seed}")
    return " ".join(parts + [f"--count {count}", f"--seed {seed}", f"-o {output.name}"])


@click.command("verify")
@game_option(required=False)
@db_option
@jobs_option
@ray_options
@json_option("the problems")
def verify_command(game, db_path, jobs, use_ray, ray_address, as_json):
    """Re-prove every row (or every row of --game) with the game's independent
    verifier, as 'pack verify' checks a pack; exit 1 if any row fails.

    \b
    Example:
      fechtbuch db verify --db puzzles.sqlite -j 2
    """
    from fechtbuch.puzzles.db import backends, schema, verify

    slug = _slug(game)
    if use_ray or ray_address is not None:
        backends.import_ray()
    conn = schema.open_for_reading(_db_path(db_path))
    backend = None
    try:
        backend = backends.make_backend(use_ray, ray_address, jobs)
        result = verify.verify_rows(conn, slug, backend)
    except KeyboardInterrupt:
        return _interrupted("interrupted")
    finally:
        if backend is not None:
            backend.close()
        conn.close()
    if as_json:
        emit_json(result)
    else:
        for line in result["problems"]:
            click.echo(line)
        click.echo(
            f"{result['rows']} rows re-proved: {result['failed']} failed.",
            err=bool(result["failed"]),
        )
    return EXIT_FAILED if result["failed"] else 0


@click.command("bench")
@click.option(
    "--rounds",
    type=int_range(1),
    default=400,
    show_default=True,
    help="Battleklinge rounds per run.",
)
@click.option(
    "--workers",
    type=int_range(1, 256),
    default=2,
    show_default=True,
    help="Workers of the local pool and of Ray.",
)
@click.option("--seed", type=int_range(0), default=1, show_default=True, help="The stream's seed.")
@click.option(
    "--repeats",
    type=int_range(1, 100),
    default=3,
    show_default=True,
    help="Timed runs per configuration; the fastest counts.",
)
@click.option("--no-ray", is_flag=True, help="Only the local pool (without Ray installed).")
@json_option("the figures")
def bench_command(rounds, workers, seed, repeats, no_ray, as_json):
    """Throughput of 'db mine' on Battleklinge: verified exercises per CPU-second
    for the local pool and Ray at equal workers, and Ray with 1 vs WORKERS workers;
    each run into a fresh database, whose bytes must agree.

    \b
    Example:
      fechtbuch db bench --rounds 400 --workers 2
    """
    from fechtbuch.puzzles.db import bench

    figures = bench.run_bench(rounds, workers, seed, repeats, with_ray=not no_ray)
    if as_json:
        emit_json(figures)
    else:
        for line in bench.report(figures):
            click.echo(line)
    return 0 if figures["same_bytes"] else EXIT_FAILED


PANEL_SOURCE = "glicko2-panel"
"""The ``rating_source`` of a rating fitted from the panel's attempts."""


@click.command("rate")
@game_option(required=True)
@query_options
@click.option(
    "--limit", type=int_range(1), default=None, help="At most this many rows (default: all)."
)
@click.option(
    "--seed", type=int_range(0), default=1, show_default=True, help="Seed of the attempts."
)
@click.option("--again", is_flag=True, help="Rate rows the panel has rated before too.")
@click.option(
    "--attempts",
    "attempts_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Instead of the panel: apply a person's attempts from the store of "
    "'fechtbuch serve' (its --data file), new ones only.",
)
@db_option
@json_option("the counts")
def rate_command(
    game,
    ns,
    tags,
    rating_min,
    rating_max,
    cards,
    mined_seed,
    limit,
    seed,
    again,
    attempts_path,
    db_path,
    as_json,
):
    """Rate the matching rows from the game's panel's attempts (Glicko-2).

    Each panel member (the engine at a ladder of node budgets, docs/rating.md)
    plays the solver's side of each exercise against its solution tree's longest
    defence; the row's rating and deviation are fitted from those results and its
    attempts recorded (source 'panel'), each row in its own transaction, so an
    interrupted run keeps what it rated.  Rows the panel has rated are skipped
    unless --again.  The same seed gives the same ratings.

    With --attempts STORE the panel stays idle: the attempts a person made in
    the browser (recorded in the store of 'fechtbuch serve') at exercises of this
    database move the exercises' ratings and the person's, one Glicko-2 game per
    attempt in the order they were made (docs/rating.md, "Real attempts").
    Attempts applied before are skipped, so the same store can be applied again.

    \b
    Example:
      fechtbuch db rate --game battleklinge --db p.sqlite
      fechtbuch db stats --db p.sqlite      # by rating band
      fechtbuch db rate --game battleklinge --attempts ~/.local/share/fechtbuch/web.sqlite3
    """
    if attempts_path is not None:
        return _rate_from_attempts(game, attempts_path, db_path, as_json)
    from fechtbuch.puzzles.db import schema, store
    from fechtbuch.puzzles.packkinds import kind_for
    from fechtbuch.puzzles.rating_panel import attempts_of, fit_from_attempts

    slug = _slug(game)
    kind = kind_for(slug)
    if kind.rating_panel is None:
        raise InputError(f"--game: {kind.title} has no rating panel yet")
    panel = kind.rating_panel(kind)
    query = _query(game, ns, tags, rating_min, rating_max, cards, mined_seed, limit)
    path = _db_path(db_path)
    schema.open_for_reading(path).close()  # an existing database: rate creates none
    conn = schema.open_for_writing(path)
    rated = skipped = 0
    try:
        rows = store.query_rows(conn, query)
        for row in tqdm(rows, desc="rating", unit=" rows", disable=None if not as_json else True):
            if row["rating_source"] == PANEL_SOURCE and not again:
                skipped += 1
                continue
            attempts = attempts_of(store.puzzle_of(conn, row["row"]), panel, seed)
            (fit,) = fit_from_attempts([attempts], panel.start_rating)
            store.update_ratings(
                conn, [store.RatingUpdate(row["row"], fit.rating, fit.rd)], PANEL_SOURCE
            )
            store.record_attempts(
                conn, [(row["row"], a.member, a.solved) for a in attempts], "panel"
            )
            rated += 1
    except KeyboardInterrupt:
        conn.close()
        return _interrupted(f"interrupted after rating {rated} rows; run again to go on")
    conn.close()
    if as_json:
        emit_json({"rated": rated, "skipped": skipped, "source": PANEL_SOURCE, "seed": seed})
    else:
        click.echo(f"rated {rated} rows, skipped {skipped} rated before ({PANEL_SOURCE})")
    return 0


def _rate_from_attempts(game: str, attempts_path: Path, db_path: Path | None, as_json: bool) -> int:
    from fechtbuch.puzzles.db import person_attempts, schema

    slug = _slug(game)
    attempts = person_attempts.read_web_attempts(attempts_path, slug)
    path = _db_path(db_path)
    schema.open_for_reading(path).close()  # an existing database: rate creates none
    conn = schema.open_for_writing(path)
    try:
        report = person_attempts.apply_attempts(conn, slug, attempts)
    finally:
        conn.close()
    players = {
        name: {"rating": round(g.rating, 1), "rd": round(g.rd, 1)}
        for name, g in sorted(report.players.items())
    }
    if as_json:
        emit_json(
            {
                "applied": report.applied,
                "already": report.already,
                "unknown": report.unknown,
                "players": players,
                "source": person_attempts.WEB_SOURCE,
            }
        )
        return 0
    click.echo(
        f"applied {report.applied} attempts, {report.already} applied before, "
        f"{report.unknown} at exercises this database does not hold"
    )
    for name, rating in players.items():
        click.echo(f"{name}: {rating['rating']:.0f} ± {rating['rd']:.0f} (RD)")
    return 0


def db_group() -> click.Group:
    """``fechtbuch db`` (built anew on each call; no module-level group is changed)."""
    return click.Group(
        "db",
        commands=[
            mine_command,
            stats_command,
            query_command,
            export_command,
            verify_command,
            rate_command,
            bench_command,
        ],
        help=(
            "The puzzle database: verified exercises of every game in one SQLite file.\n\n"
            "\b\n"
            "Example:\n"
            "  fechtbuch db mine --game battleklinge --rounds 200 --db p.sqlite\n"
            "  fechtbuch db stats --db p.sqlite\n"
            "  fechtbuch db export --game battleklinge --count 6 -o pack.json --db p.sqlite\n"
            "  fechtbuch pack verify pack.json"
        ),
    )
