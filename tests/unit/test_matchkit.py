"""The game-free match harness (engines/matchkit.py) and the three games that use it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace

import pytest
from fechtbuch.engines import matchkit
from fechtbuch.engines.battleklinge.match import run_match as battleklinge_match
from fechtbuch.engines.touche_duell.match import run_match as duel_match
from fechtbuch.engines.touche_duell.state import Level, Ruleset
from fechtbuch.engines.touche_pyramiden.match import run_match as pyramid_match


def test_schedule_plays_each_deal_twice_with_seats_swapped():
    slots = matchkit.schedule(5)
    assert [s.pair for s in slots] == [0, 0, 1, 1, 2]
    assert [s.a_first for s in slots] == [True, False, True, False, True]
    assert slots == [matchkit.slot_of(i) for i in range(5)]


def test_tally_counts_half_points_and_elo():
    total = matchkit.tally(["win"] * 3 + ["loss"] + ["aborted"] * 2)
    assert (total.wins, total.losses, total.others, total.games) == (3, 1, 2, 6)
    assert total.score == pytest.approx(4 / 6)
    assert total.low < total.score < total.high
    assert total.elo == pytest.approx(-400 * __import__("math").log10(6 / 4 - 1))
    assert total.elo_low < total.elo < total.elo_high
    everything = matchkit.tally(["win"] * 10)
    assert everything.elo is None and everything.elo_high is None and everything.elo_low > 0
    assert "not finite" in everything.elo_text()


def test_deal_interval_is_the_mean_deal_score_plus_or_minus_two_standard_errors():
    # 24 deals scoring 1, 1/2, 1/2, 3/4, 1/4, 1 four times over (an unfinished 49th
    # game is left out)
    deal_games = [("win", "win"), ("win", "loss"), ("loss", "win"), ("win", "draw")]
    deal_games += [("draw", "loss"), ("win", "win")]
    outcomes = [o for _ in range(4) for pair in deal_games for o in pair] + ["loss"]
    scores = [1, 0.5, 0.5, 0.75, 0.25, 1] * 4
    mean = sum(scores) / 24
    sd = (sum((x - mean) ** 2 for x in scores) / 23) ** 0.5
    deals, low, high = matchkit.deal_interval(outcomes)
    assert deals == 24
    assert low == pytest.approx(mean - 1.96 * sd / 24**0.5)
    assert high == pytest.approx(mean + 1.96 * sd / 24**0.5)
    total = matchkit.tally(outcomes)
    assert (total.deals, total.deal_low, total.deal_high) == (deals, low, high)
    assert total.deal_elo_low == pytest.approx(matchkit.elo_difference(low))


def test_deal_interval_is_narrower_when_the_seat_decides():
    # 90 deals won by their first seat, 10 won twice by A: the games look like a coin
    # toss, the deals show A ahead
    outcomes = ["win", "loss"] * 90 + ["win", "win"] * 10
    total = matchkit.tally(outcomes)
    assert total.elo_low < 0 < total.deal_elo_low
    assert total.deal_high - total.deal_low < (total.high - total.low) / 2
    assert total.deal_text().startswith("by deal (100 deals")


def test_no_deal_interval_from_few_deals_or_deals_all_alike():
    assert matchkit.deal_interval(["win", "loss"] * (matchkit.MIN_DEALS - 1) + ["win"]) == (
        matchkit.MIN_DEALS - 1, None, None,
    )  # fmt: skip
    alike = matchkit.tally(["win", "win"] * 40)
    assert alike.deal_elo_low is None and "all scored alike" in alike.deal_text()
    assert "too few" in matchkit.tally(["win", "win"] * 3).deal_text()


def test_wilson_interval_against_the_formula_at_one_point():
    # 70 of 100: the Wilson interval is 0.604-0.781 (standard tables)
    low, high = matchkit.wilson_interval(0.7, 100)
    assert round(low, 3) == 0.604 and round(high, 3) == 0.781


def test_run_games_keeps_task_order_with_workers():
    seen = []
    out = matchkit.run_games(pow, [(2, k) for k in range(6)], jobs=2, progress=seen.append)
    assert out == seen == [1, 2, 4, 8, 16, 32]


def _battleklinge_digest(a: str, b: str, games: int, seed: int, **kw) -> str:
    from fechtbuch.solver.battleklinge.players import PLAYERS

    summary, results = battleklinge_match(a, b, games, seed, jobs=1, players=PLAYERS, **kw)
    payload = [dict(asdict(r), seconds=None) for r in results]
    # the totals the digests were first taken over, read off the summary shared by
    # every game since (the same values under the names of the time)
    totals = {
        "a": summary.a,
        "b": summary.b,
        "games": summary.games,
        "seed": summary.seed,
        "wins": summary.wins,
        "losses": summary.losses,
        "aborted": summary.others,
        "aborted_repetition": summary.reason("repetition"),
        "aborted_cap": summary.reason("move cap"),
        "score": summary.score,
        "elo": summary.total.elo,
        "elo_low": summary.total.elo_low,
        "elo_high": summary.total.elo_high,
    }
    text = json.dumps({"games": payload, "summary": totals}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def test_battleklinge_matches_unchanged_by_the_shared_harness():
    """Digests of every move, outcome and total of two matches.  First recorded with
    the match code from before the harness was shared (commit 13def4c); re-recorded
    when the search dropped three features (commit 165a336: leicht and mittel search
    too), with commit 03b83cd still giving the first digests.  Played with the
    command line's player factory (the solver's forced hits)."""
    assert (
        _battleklinge_digest("mittel", "leicht", 8, 7)
        == "68e9df1d3861e60e7117afda678d99514ef055d2c8e21d0e00a578b269fdddd9"
    )
    assert (
        _battleklinge_digest("leicht", "mittel", 6, 11, max_plies=60)
        == "911ea38b229b939199302d6d818dc6800993e63f05260be26b355e8a8b3c7154"
    )


def test_battleklinge_match_with_a_clock_loses_on_time():
    from fechtbuch.engines.battleklinge.match import deal_for_game, play_game

    # a clock of 60 microseconds: whoever moves first cannot move in time
    results = [play_game("leicht", "leicht", 5, index, clock=1e-6) for index in (0, 1)]
    for game in results:
        a_moves_first = deal_for_game(5, game.index).turn == game.a_color
        assert (game.why, game.moves) == ("time", [])
        assert game.outcome == ("loss" if a_moves_first else "win")
    assert {g.outcome for g in results} == {"win", "loss"}  # the seats swap within a deal
    summary = matchkit.summarize("battleklinge", "leicht", "leicht", 5, results, 0.0)
    assert summary.reason("time") == 2 and "time 2" in summary.to_text()


def test_duel_match_same_games_for_any_jobs_and_pairs_share_deals():
    rules = Ruleset(Level.STANDARD, short=True)
    one, games_one = duel_match("mittel", "leicht", 4, "jobs", rules, jobs=1)
    two, games_two = duel_match("mittel", "leicht", 4, "jobs", rules, jobs=2)
    strip = [replace(g, seconds=(0, 0)) for g in games_one]
    assert strip == [replace(g, seconds=(0, 0)) for g in games_two]
    assert one.total == two.total and one.to_dict()["draws"] == one.total.others
    assert games_one[0].seed == games_one[1].seed != games_one[2].seed
    assert [g.a_fencer for g in games_one] == [0, 1, 0, 1]


def test_pyramid_match_pairs_share_deals(monkeypatch):
    from fechtbuch.engines.touche_pyramiden import match as pyramid_module

    seeds = []
    real = pyramid_module.play_game

    def recording(config, seed, seats, names):
        seeds.append((seed, tuple(names)))
        return real(config, seed, seats, names)

    monkeypatch.setattr(pyramid_module, "play_game", recording)
    done = []
    result, games = pyramid_match("mittel", "leicht", 2, 4, "pairs", progress=done.append)
    assert [g.index for g in done] == [0, 1, 2, 3] and done == games
    assert [s for s, _ in seeds] == ["pairs-0", "pairs-0", "pairs-1", "pairs-1"]
    assert seeds[0][1] == ("A:mittel", "B:leicht") and seeds[1][1] == ("B:leicht", "A:mittel")
    assert result.wins + result.losses + result.others == 4
    assert result.total.low <= result.score <= result.total.high
    assert result.total.deals == 2 and result.total.deal_low is None  # too few deals
    assert result.points == (sum(g.a_points for g in games), sum(g.b_points for g in games))


@pytest.mark.parametrize(
    "game, args",
    [
        ("touche", ["leicht", "mittel", "--games", "6"]),
        ("pyramiden", ["mittel", "leicht", "--players", "2", "--games", "4", "--seed", "r"]),
    ],
)
def test_every_game_s_match_resumes_from_its_log(tmp_path, game, args):
    """--log/--resume (matchkit.MatchLog) in every game's match: a log torn by a kill
    resumes to the totals of an uninterrupted match."""
    from support.clirun import run

    log = tmp_path / "m.jsonl"
    assert run(game, "match", *args, "--log", log).exit_code == 0
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:7])  # two games, then a torn one
    resumed = run(game, "match", *args, "--log", log, "--resume", "--json")
    fresh = run(game, "match", *args, "--json")
    assert resumed.exit_code == 0, resumed.output
    totals = []
    for out in (resumed, fresh):
        data = json.loads(out.stdout)
        totals.append({k: v for k, v in data.items() if "second" not in k})
    assert totals[0] == totals[1]
    other = run(game, "match", *args[:2], "--games", "2", "--seed", "x", "--log", log, "--resume")
    assert other.exit_code == 2 and "other options" in other.stderr
