"""Battleklinge's rating panel: the engine at a ladder of node budgets.

The weakest member is the engine's ``leicht``; the others are the live search
(``engines/battleklinge/search.py``) with a fixed node budget per move, no
randomness and no exact forced play (a member with forced play would find every hit
within 3 by proof, not by strength).  The members'
ratings come from engine matches between neighbouring steps of the ladder
(:func:`measure_ladder`, the match harness of ``fechtbuch match``: paired deals,
each played from both sides), chained from the anchor: the member
:data:`ANCHOR` is rated 1500, so an exercise rated 1500 is solved by the engine at
that budget with probability one half.  The measured ladder is stored in
``data/rating/battleklinge-ladder.json`` with the command that measured it.
"""

from __future__ import annotations

import hashlib
import math

from fechtbuch.engines.battleklinge.match import play_game
from fechtbuch.engines.battleklinge.players import Budget, Player
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.matchkit import run_games, tally
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.puzzles.packkind import PackKind
from fechtbuch.puzzles.rating_panel import Chooser, Panel, PanelMember

LADDER = ("leicht", "nodes-30", "nodes-100", "nodes-300", "nodes-1000", "nodes-3000", "nodes-10000")
"""The panel, weakest first: the engine's ``leicht`` (every move scored by a 1-ply
search, then chosen by softmax at 1.2 students: the one member with chance), then
the full search at node budgets about a factor of three apart, so that neighbours
score neither 0 nor 1 against each other."""
ANCHOR = "nodes-300"
"""The member rated 1500."""
ANCHOR_TEXT = (
    "1500 is the Battleklinge engine at 300 nodes per move (no forced-play proofs): "
    "it solves an exercise rated 1500 half the time"
)
LADDER_FILE = ("rating", "battleklinge-ladder.json")
MIN_RD = 30.0
"""The smallest RD a member gets (the anchor's own is exact by definition, but a
panel this small should not pretend to know any rating better than this)."""


def ladder_player(name: str, seed: int = 0, **_budget) -> Player:
    """The panel member ``name`` as an engine player (extra budget options of the
    match harness are ignored: the budget is the member): ``leicht`` as the game plays
    it, ``nodes-N`` the search with N nodes per move, no randomness and no forced-play
    proofs."""
    if not name.startswith("nodes-"):
        return Player(name, seed)
    nodes = int(name.removeprefix("nodes-"))
    return Player(Budget(name, 32, nodes, 0.0, False, False), seed)


LADDER_PLAYERS = PlayerFactory(LADDER, ladder_player)
"""The members as a player factory, for the match harness."""


def _match_game(a: str, b: str, seed: int, index: int) -> str:
    return play_game(a, b, seed, index, players=LADDER_PLAYERS).outcome


def measure_ladder(games: int, seed: int, jobs: int = 1) -> dict:
    """Elo of every member from matches of ``games`` games between neighbours,
    chained from :data:`ANCHOR`; RD is the 95% half-width of the chain over 1.96
    (the intervals of the matches on the way added in quadrature), at least 30."""
    names = list(LADDER)
    steps = []
    for weaker, stronger in zip(names, names[1:], strict=False):
        tasks = [(stronger, weaker, seed, i) for i in range(games)]
        outcomes = run_games(_match_game, tasks, jobs)
        t = tally(outcomes)
        low = t.elo_low if t.elo_low is not None else -800.0
        high = t.elo_high if t.elo_high is not None else 800.0
        elo = t.elo if t.elo is not None else (low + high) / 2
        steps.append(
            {"stronger": stronger, "weaker": weaker, "games": games, "score": t.score,
             "elo": elo, "half_width": (high - low) / 2}
        )  # fmt: skip
    anchor = names.index(ANCHOR)
    ratings = {ANCHOR: (1500.0, 0.0)}
    for i in range(anchor + 1, len(names)):
        r, var = ratings[names[i - 1]]
        step = steps[i - 1]
        ratings[names[i]] = (r + step["elo"], var + (step["half_width"] / 1.96) ** 2)
    for i in range(anchor - 1, -1, -1):
        r, var = ratings[names[i + 1]]
        step = steps[i]
        ratings[names[i]] = (r - step["elo"], var + (step["half_width"] / 1.96) ** 2)
    return {
        "anchor": ANCHOR,
        "seed": seed,
        "games_per_step": games,
        "steps": steps,
        "members": [
            {"name": n, "rating": round(r, 1), "rd": round(max(MIN_RD, math.sqrt(var)), 1)}
            for n, (r, var) in ((n, ratings[n]) for n in names)
        ],
    }  # fmt: skip


def _chooser(name: str, seed: int) -> Chooser:
    player = ladder_player(name, seed)

    def choose(state: Position) -> str:
        return player.choose(state).move.to_text()

    return choose


def _solver(name: str):
    return lambda seed: _chooser(name, seed)


def stored_ladder() -> dict:
    import json

    return json.loads(data_file(*LADDER_FILE).read_text())


def panel(kind: PackKind, ladder: dict | None = None) -> Panel:
    """The panel with the stored (or the given) measured ladder."""
    ladder = stored_ladder() if ladder is None else ladder
    members = tuple(
        PanelMember(m["name"], m["rating"], m["rd"], _solver(m["name"])) for m in ladder["members"]
    )
    return Panel(kind, members, ANCHOR_TEXT)


def ladder_digest(ladder: dict) -> str:
    """A short digest of a ladder's ratings (printed with every fit)."""
    text = ";".join(f"{m['name']}={m['rating']}/{m['rd']}" for m in ladder["members"])
    return hashlib.sha256(text.encode()).hexdigest()[:12]
