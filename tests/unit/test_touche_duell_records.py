"""Touché game records replay exactly; the computer decides from its view only."""

from __future__ import annotations

from itertools import product

import pytest
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.deal import HashStream, new_round
from fechtbuch.engines.touche_duell.match import play_game, run_match
from fechtbuch.engines.touche_duell.notation import format_view, parse_view
from fechtbuch.engines.touche_duell.players import (
    STRENGTHS,
    Player,
    determinise,
    p_at_least,
    sure_hit,
    view_actions,
)
from fechtbuch.engines.touche_duell.record import (
    GameRecord,
    GameRecordError,
    game_over,
    read_game,
    write_game,
)
from fechtbuch.engines.touche_duell.state import RULESETS, Ruleset, view_of


@pytest.mark.parametrize("ruleset", ["kinder", "standard-kurz", "fortgeschritten"])
def test_a_match_game_replays_exactly_from_its_record(ruleset, tmp_path):
    result, record = play_game("mittel", "stark", "rec", 1, Ruleset.from_name(ruleset))
    text = record.to_text()
    assert f"Ruleset: {ruleset}" in text and "Shuffle-1: rec/0/1" in text
    again = GameRecord.from_text(text)
    assert again == record
    last = again.positions()[-1]
    assert game_over(last) and last.score == result.score
    assert again.result() == f"{result.score[0]}:{result.score[1]}"
    path = tmp_path / "duel.txt"
    write_game(path, record)
    assert read_game(path) == record
    with pytest.raises(InputError, match="exists"):
        write_game(path, record)
    write_game(path, record, force=True)


GOOD = "Ruleset: standard\nStarter: A\nShuffle-1: s/1\n\nm+5\n"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("Starter: A\nShuffle-1: x\n\n", "Ruleset"),
        ("Ruleset: standard\nShuffle-1: x\n\n", "Starter"),
        ("Ruleset: profi\nStarter: A\nShuffle-1: x\n\n", "Ruleset"),
        ("Ruleset: standard\nStarter: C\nShuffle-1: x\n\n", "Starter"),
        ("Ruleset: standard\nStarter: A\n\n", "Shuffle"),
        ("Ruleset: standard\nStarter: A\nShuffle-2: x\n\n", "Shuffle"),
        ("Ruleset: standard\nStarter: A\nStarter: B\nShuffle-1: x\n\n", "second"),
        ("Ruleset: standard\nStarter: A\nShuffle-1: s/1\nbad header\n", "line 4"),
        ("Ruleset: standard\nStarter: A\nShuffle-1: s/1\n\nm+5\nm+9\n", "line 6"),
        ("Ruleset: standard\nStarter: A\nShuffle-1: s/1\n\nm+5\na1x1\n", "line 6"),
        ("Ruleset: standard\nStarter: A\nShuffle-1: s/1\nResult: 5:0\n\nm+5\n", "Result"),
    ],
)
def test_record_errors_name_the_line_or_header(text, needle):
    with pytest.raises(GameRecordError, match=needle):
        GameRecord.from_text(text)


def test_comments_and_unknown_headers_are_kept_or_skipped():
    text = (
        "# a duel\nRuleset: standard\nEvent: club\nStarter: A\nShuffle-1: s/1\n\n# opening\nm+5\n"
    )
    record = GameRecord.from_text(text)
    assert record.header("event") == "club" and len(record.actions) == 1
    assert "Event: club" in record.to_text()


def test_actions_after_a_round_without_its_shuffle_are_refused():
    _, record = play_game("leicht", "leicht", "cut", 0, Ruleset())
    pos = new_round(record.shuffles[0], record.starter, record.rules)
    played = 0
    while not pos.phase.over:
        pos = rules.apply(pos, record.actions[played])
        played += 1
    short = GameRecord(record.rules, record.starter, record.shuffles[:1], record.actions[:played])
    text = short.to_text()
    text += "m+1\n"
    with pytest.raises(GameRecordError, match="no Shuffle header"):
        GameRecord.from_text(text)


def test_hypergeometric_tail_matches_enumeration():
    for kind, unseen, drawn in [(3, 10, 5), (2, 7, 3), (5, 15, 5), (0, 4, 2)]:
        cards = [1] * kind + [0] * (unseen - kind)
        from itertools import combinations

        hands = list(combinations(range(unseen), drawn))
        for k in range(0, 4):
            exact = sum(sum(cards[i] for i in h) >= k for h in hands) / len(hands)
            assert abs(p_at_least(k, kind, unseen, drawn) - exact) < 1e-12


def test_sure_hit_by_counting():
    # A attacks with two 3s; two 3s were played already: no hand can parry
    view = parse_view("standard 10-13 0:0 A zug 13345/?5 01200 ?12")
    attack = [a for a in view_actions(view) if a.value == 3 and a.count == 2][0]
    assert sure_hit(view, attack)
    assert Player("meister", 1, samples=4).choose(view) == attack


def test_players_see_only_their_view():
    """Two positions with the same view (other hidden cards) get the same choice."""
    stream = HashStream("same-view")
    checked = 0
    for rules_, strength in product(RULESETS[::2], STRENGTHS):
        pos = new_round(f"v/{rules_.name}", 0, rules_)
        for _ in range(12):
            if pos.phase.over:
                break
            view = view_of(pos, pos.mover)
            twin = determinise(view, stream)
            assert view_of(twin, pos.mover) == view
            samples = 3
            first = Player(strength, "x", samples).choose(view)
            assert first == Player(strength, "x", samples).choose(view_of(twin, twin.mover))
            assert first in rules.legal_actions(pos)
            pos = rules.apply(pos, first)
            checked += 1
    assert checked > 50


def test_every_strength_finishes_short_games():
    for strength in STRENGTHS:
        summary, results = run_match(strength, "leicht", 2, "fin", Ruleset(short=True), samples=4)
        assert summary.games == 2 and all(r.outcome in ("win", "loss", "draw") for r in results)


def test_view_notation_of_every_phase_parses():
    for rules_ in RULESETS:
        result, record = play_game("stark", "mittel", "views", 0, rules_)
        for pos in record.positions()[::5]:
            for viewer in (0, 1):
                text = format_view(view_of(pos, viewer))
                assert format_view(parse_view(text)) == text
