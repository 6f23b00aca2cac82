"""A rating panel's ladder: the members' Elo measured by matches (every game).

A game's panel (:mod:`fechtbuch.puzzles.rating_panel`) is a ladder of solvers,
weakest first.  Neighbours play matches with the game's own match harness (paired
deals, each played from both sides); the Elo differences are chained from the
anchor member, rated 1500.  A member's RD is the 95% half-width of the chain from
the anchor over 1.96 (the intervals of the matches on the way added in
quadrature), at least :data:`MIN_RD`.  The measured ladder is stored in
``data/rating/<game>-ladder.json`` with the command that made it, and
``fechtbuch GAME bench rating-ladder`` measures it again.  This module imports no
game: each game describes its ladder as a :class:`LadderSpec`.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.matchkit import run_games, tally
from fechtbuch.engines.paths import data_file
from fechtbuch.puzzles.packkind import PackKind
from fechtbuch.puzzles.rating_panel import Chooser, Panel, PanelMember, Rating

MIN_RD = 30.0
"""The smallest RD a member gets (the anchor's own is exact by definition, but a
panel this small should not pretend to know any rating better than this)."""
UNBOUNDED_ELO = 800.0
"""The bound put on a step whose match was won or lost entirely (its interval is
open on one side)."""


@dataclass(frozen=True)
class LadderSpec:
    """How one game's panel is made and measured."""

    game: str
    """The game's command name (``battleklinge``, ``touche-duell``)."""
    members: tuple[str, ...]
    """Weakest first; neighbours should score neither 0 nor 1 against each other."""
    anchor: str
    """The member rated 1500."""
    anchor_text: str
    """What rating 1500 means, one sentence."""
    play_game: Callable[[str, str, int, int], str]
    """``play_game(a, b, seed, index)``: the outcome (``win``/``loss``/``draw``) of
    game ``index`` of a match from A's side; module-level, so that worker processes
    can run it."""
    chooser: Callable[[str, int], Chooser]
    """``chooser(member, seed)``: a fresh solver for one attempt."""
    games: int
    """Games per step of the stored ladder."""
    seed: int
    """The seed of the stored ladder."""
    description: str
    """The members in words (for the command's help)."""

    @property
    def file(self) -> tuple[str, str]:
        return ("rating", f"{self.game}-ladder.json")

    @property
    def start_file(self) -> tuple[str, str]:
        return ("rating", f"{self.game}-start.json")

    @property
    def command(self) -> str:
        return (
            f"fechtbuch {self.game} bench rating-ladder --games {self.games} "
            f"--seed {self.seed} --json > data/rating/{self.game}-ladder.json"
        )


def _step(spec: LadderSpec, weaker: str, stronger: str, games: int, seed: int, jobs: int) -> dict:
    tasks = [(stronger, weaker, seed, i) for i in range(games)]
    t = tally(run_games(spec.play_game, tasks, jobs))
    low = t.elo_low if t.elo_low is not None else -UNBOUNDED_ELO
    high = t.elo_high if t.elo_high is not None else UNBOUNDED_ELO
    elo = t.elo if t.elo is not None else (low + high) / 2
    return {
        "stronger": stronger,
        "weaker": weaker,
        "games": games,
        "score": t.score,
        "elo": elo,
        "half_width": (high - low) / 2,
    }


def measure_ladder(spec: LadderSpec, games: int, seed: int, jobs: int = 1) -> dict:
    """Every member's Elo from matches of ``games`` games between neighbours,
    chained from the anchor (the same seed gives the same ladder for any ``jobs``)."""
    names = list(spec.members)
    steps = [
        _step(spec, weaker, stronger, games, seed, jobs)
        for weaker, stronger in zip(names, names[1:], strict=False)
    ]
    anchor = names.index(spec.anchor)
    ratings = {spec.anchor: (1500.0, 0.0)}
    for i in range(anchor + 1, len(names)):
        r, var = ratings[names[i - 1]]
        step = steps[i - 1]
        ratings[names[i]] = (r + step["elo"], var + (step["half_width"] / 1.96) ** 2)
    for i in range(anchor - 1, -1, -1):
        r, var = ratings[names[i + 1]]
        step = steps[i]
        ratings[names[i]] = (r - step["elo"], var + (step["half_width"] / 1.96) ** 2)
    return {
        "anchor": spec.anchor,
        "seed": seed,
        "games_per_step": games,
        "steps": steps,
        "members": [
            {"name": n, "rating": round(r, 1), "rd": round(max(MIN_RD, math.sqrt(var)), 1)}
            for n, (r, var) in ((n, ratings[n]) for n in names)
        ],
    }  # fmt: skip


def stored_ladder(spec: LadderSpec) -> dict:
    """The ladder shipped in ``data/rating``."""
    return json.loads(data_file(*spec.file).read_text())


def stored_start(spec: LadderSpec) -> Rating | None:
    """The game's fitted start (``bench rating-start``), ``None`` when none is shipped."""
    path = data_file(*spec.start_file)
    if not path.is_file():
        return None
    stored = json.loads(path.read_text())
    return Rating(stored["start"], stored["rd"], 0, 0)


def panel_of(
    spec: LadderSpec, kind: PackKind, ladder: dict | None = None, start: Rating | None = None
) -> Panel:
    """The panel with the stored (or the given) measured ladder and fitted start."""
    ladder = stored_ladder(spec) if ladder is None else ladder
    members = tuple(
        PanelMember(m["name"], m["rating"], m["rd"], _solver(spec, m["name"]))
        for m in ladder["members"]
    )
    return Panel(kind, members, spec.anchor_text, start or stored_start(spec))


def _solver(spec: LadderSpec, name: str) -> Callable[[int], Chooser]:
    return lambda seed: spec.chooser(name, seed)


def ladder_digest(ladder: dict) -> str:
    """A short digest of a ladder's ratings (printed with every fit)."""
    text = ";".join(f"{m['name']}={m['rating']}/{m['rd']}" for m in ladder["members"])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def shipped_ids(game: str) -> set[str]:
    """The ids of every exercise in the shipped packs of ``game``: a start is fitted
    on other exercises, so that the packs' validation stays held out."""
    from fechtbuch.engines.paths import data_path

    ids: set[str] = set()
    for path in sorted(data_path("packs").glob("*.json")):
        pack = json.loads(path.read_bytes())
        if (pack.get("rules") or "battleklinge") == game:
            ids.update(p["id"] for p in pack["puzzles"])
    return ids


def measure_start(spec: LadderSpec, kind: PackKind, db_path, limit: int, seed: int) -> dict:
    """Fit the start on up to ``limit`` exercises of the puzzle database (row order,
    every N, those of the shipped packs left out), attempted by the panel."""
    from fechtbuch.puzzles.db import schema, store
    from fechtbuch.puzzles.rating_panel import attempts_of, fit_start

    panel = panel_of(spec, kind)
    shipped = shipped_ids(spec.game)
    conn = schema.open_for_reading(db_path)
    try:
        exercises = []
        for _row, _seed, _round, record in store.iter_rows_of_game(conn, spec.game):
            if record["id"] not in shipped:
                exercises.append(record)
            if len(exercises) == limit:
                break
    finally:
        conn.close()
    if not exercises:
        raise InputError(f"--db: no {spec.game} exercises outside the shipped packs")
    attempts = [attempts_of(p, panel, seed) for p in exercises]
    start, scan = fit_start(attempts)
    return {
        "game": spec.game,
        "start": start.rating,
        "rd": start.rd,
        "exercises": len(exercises),
        "attempts": sum(len(one) for one in attempts),
        "solved": sum(a.solved for one in attempts for a in one),
        "seed": seed,
        "scan": [[r, round(loss, 5)] for r, loss in scan],
    }
