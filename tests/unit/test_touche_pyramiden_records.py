"""Game records: whole seeded games written and replayed exactly; malformed records refused."""

from __future__ import annotations

import pytest
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.record import GameRecord, RecordError, read_record
from fechtbuch.engines.touche_pyramiden.sampling import random_action
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Config, Phase


def played(config: Config, seed: str) -> GameRecord:
    rng = HashStream(f"record/{seed}")
    state = rules.new_game(config, seed)
    actions = []
    while state.phase is not Phase.OVER:
        action = random_action(state, rules.legal_actions(state), rng)
        actions.append(action)
        state = rules.apply(state, action)
    return GameRecord(config, seed, tuple(actions), headers=(("Seat-0", "leicht"),))


@pytest.mark.parametrize(
    ("players", "teams", "pattern"),
    [(2, 2, None), (3, 3, Pattern.KVADRAT), (4, 2, None), (5, 5, Pattern.KORS), (6, 3, None)],
)
def test_records_replay_exactly(players, teams, pattern, tmp_path):
    record = played(Config(players, teams, 3, pattern), f"rec{players}")
    text = record.to_text()
    assert "Ruleset: pyramiden-1" in text and f"Shuffle-3: rec{players}/runde3" in text
    assert "Dealer-Draw: rec" in text and f"Players: {players}" in text
    again = GameRecord.from_text(text)
    assert again == record and again.to_text() == text
    assert again.states()[-1] == record.states()[-1]
    path = tmp_path / "game.txt"
    record.write(path)
    assert read_record(path) == record
    with pytest.raises(InputError, match="exists"):
        record.write(path)
    record.write(path, force=True)


def test_record_from_a_start_position():
    state = rules.compose(
        Config(2, 2),
        Pattern.LINIE,
        [["7H", "2S", "3S", "4S", "5S"], ["AS"] * 2 + ["JD", "QD", "KD"]],
    )
    record = GameRecord(state.config, state.seed, (notation.parse_action("7H:g6"),), start=state)
    assert GameRecord.from_text(record.to_text()) == record


GOOD = played(Config(2, 2, 3, Pattern.LINIE), "bad").to_text()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("Ruleset: pyramiden-1", "Ruleset: pyramiden-2", "Ruleset"),
        ("Teams: 2", "Teams: 1", "teams"),
        ("Seed: bad", "Seed: good", "does not match"),
        ("Shuffle-2: bad/runde2", "Shuffle-2: bad/runde7", "Shuffle-2"),
        ("Pattern: linie", "Pattern: stern", "Pattern"),
        ("Result: ", "Result: 9,9 #", "Result"),
    ],
)
def test_bad_records_are_refused(old, new, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_text(GOOD.replace(old, new, 1))


def test_illegal_action_names_the_line():
    head, _, body = GOOD.partition("\n\n")
    lines = body.splitlines()
    lines[1] = "XX:-a1"
    with pytest.raises(RecordError, match=r"line \d+"):
        GameRecord.from_text(head + "\n\n" + "\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="after the game ended"):
        GameRecord.from_text(GOOD + "pass\n")
