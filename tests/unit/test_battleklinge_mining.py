"""Mining, tags, rating, selection and packs: determinism, resume, verification."""

from __future__ import annotations

import copy
import json

import fechtbuch.puzzles.battleklinge.mining as mining
import orjson
import pytest
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.seeding import HashStream
from fechtbuch.puzzles.battleklinge.mining import examine_game, mirror_class
from fechtbuch.puzzles.battleklinge.rating import difficulty
from fechtbuch.puzzles.battleklinge.selection import band, quality, select
from fechtbuch.puzzles.battleklinge.tags import TAGGERS, PuzzleFacts, tags_for
from fechtbuch.puzzles.pack import load_pack, verify_pack
from support.clirun import run

SHIPPED = data_path("packs", "fechtuebungen.json")


@pytest.fixture(scope="module")
def shipped():
    return load_pack(SHIPPED)


def test_shipped_pack_is_complete_and_verified(shipped):
    puzzles = shipped["puzzles"]
    assert len(puzzles) == 48
    assert sum(p["n"] == 2 for p in puzzles) == 24 and sum(p["n"] == 3 for p in puzzles) == 24
    assert verify_pack(shipped) == []
    gold = sum(p["attacker"] == "g" for p in puzzles)
    assert abs(gold - (48 - gold)) <= 2
    cards = [c for p in puzzles for c in p["cards"]]
    assert all(cards.count(c) >= 5 for c in set(cards)) and len(set(cards)) == 16


def test_shipped_pack_is_reproducible_byte_for_byte(shipped, tmp_path):
    """Re-run the recorded command (output redirected) and compare the bytes."""
    args = shipped["command"].split()[1:]
    out = tmp_path / "again.json"
    args[args.index("-o") + 1] = str(out)
    result = run(*args, "-j", "1")
    assert result.exit_code == 0, result.output
    remade = json.loads(out.read_bytes())
    remade["command"] = shipped["command"]  # the only field that names the output path
    assert (
        orjson.dumps(remade, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
        == SHIPPED.read_bytes()
    )


def test_same_seed_same_bytes_for_one_and_two_workers(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("mine", "--count", 3, "--seed", 5, "-j", 1, "-o", a).exit_code == 0
    assert run("mine", "--count", 3, "--seed", 5, "-j", 2, "-o", b).exit_code == 0
    assert a.read_bytes().replace(b"a.json", b"X") == b.read_bytes().replace(b"b.json", b"X")
    assert verify_pack(load_pack(a)) == []


def test_interrupted_run_resumes_to_the_same_pack(tmp_path, monkeypatch):
    reference = tmp_path / "ref" / "pack.json"
    assert run("mine", "--count", 10, "--seed", 9, "-j", 1, "-o", reference).exit_code == 0
    target = tmp_path / "pack.json"
    calls = {"n": 0}
    real = mining.examine_game

    def flaky(task):
        calls["n"] += 1
        if calls["n"] == 20:  # the second batch: the first batch is saved
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(mining, "examine_game", flaky)
    first = run("mine", "--count", 10, "--seed", 9, "-j", 1, "-o", target)
    assert first.exit_code == 130 and not target.exists()
    partial = target.with_name("pack.json.partial")
    assert json.loads(partial.read_bytes())["next_round"] == 16
    monkeypatch.setattr(mining, "examine_game", real)
    wrong = run("mine", "--count", 11, "--seed", 9, "-j", 1, "-o", target, "--resume")
    assert wrong.exit_code == 2 and "other options" in wrong.output
    second = run("mine", "--count", 10, "--seed", 9, "-j", 1, "-o", target, "--resume")
    assert second.exit_code == 0, second.output
    assert not partial.exists()
    assert target.read_bytes().replace(
        str(target).encode(), b"X"
    ) == reference.read_bytes().replace(str(reference).encode(), b"X")


def test_mine_refuses_to_overwrite_and_rejects_bad_cards(tmp_path):
    existing = tmp_path / "p.json"
    existing.write_text("{}")
    result = run("mine", "-o", existing)
    assert result.exit_code == 2 and "use --force" in result.output
    assert run("mine", "--cards", "ausfall,florett", "-o", tmp_path / "q.json").exit_code == 2


def test_mine_with_fixed_cards_uses_only_them(tmp_path):
    out = tmp_path / "angriff.json"
    assert run("mine", "--n", 2, "--count", 2, "--cards", "angriff", "-o", out).exit_code == 0
    pack = load_pack(out)
    assert {c for p in pack["puzzles"] for c in p["cards"]} == {
        "ausfall",
        "moulinet",
        "traverse",
        "riposte",
        "stoss",
    }
    assert all(p["n"] == 2 for p in pack["puzzles"])


# ---- pack verify catches every kind of damage ---------------------------------


def _problems_after(shipped, damage) -> list[str]:
    pack = copy.deepcopy(shipped)
    damage(pack)
    return verify_pack(pack)


def test_verify_catches_a_missing_defender_reply(shipped):
    def damage(pack):
        puzzle = next(p for p in pack["puzzles"] if p["n"] == 3)
        defender = puzzle["solution"][puzzle["key"]]
        defender.pop(sorted(defender)[0])

    assert any("defender replies differ" in p for p in _problems_after(shipped, damage))


def test_verify_catches_a_fake_alternative_and_a_fake_hit(shipped):
    def add_loser(pack):
        puzzle = pack["puzzles"][0]
        pos = Position.from_text(puzzle["position"])
        from fechtbuch.engines.battleklinge import reference

        loser = next(m for m in reference.legal_moves(pos) if m.to_text() != puzzle["key"])
        puzzle["solution"][loser.to_text()] = "hit"
        puzzle["solution"] = dict(sorted(puzzle["solution"].items()))

    problems = _problems_after(shipped, add_loser)
    assert any("not winning" in p for p in problems)


def test_verify_catches_wrong_n_id_and_mirror_duplicate(shipped):
    def wrong_n(pack):
        pack["puzzles"][0]["n"] = 3

    assert any(
        "no forced hit" in p or "not exactly" in p or "id:" in p
        for p in _problems_after(shipped, wrong_n)
    )

    def wrong_id(pack):
        pack["puzzles"][5]["id"] = "p-000000000000"

    assert any("id: expected" in p for p in _problems_after(shipped, wrong_id))

    def duplicate(pack):
        pack["puzzles"].insert(1, copy.deepcopy(pack["puzzles"][0]))

    assert any("up to the mirror" in p for p in _problems_after(shipped, duplicate))


def test_verify_reports_schema_errors(shipped):
    def damage(pack):
        del pack["puzzles"][0]["key"]
        pack["puzzles"][1]["attacker"] = "x"

    problems = _problems_after(shipped, damage)
    assert any(p.startswith("schema: puzzles/0") and "'key'" in p for p in problems)
    assert any(p.startswith("schema: puzzles/1/attacker") for p in problems)


def test_pack_verify_command_exit_codes(tmp_path, shipped):
    assert run("pack", "verify", SHIPPED).exit_code == 0
    broken = copy.deepcopy(shipped)
    broken["puzzles"][0]["key"] = broken["puzzles"][0]["line"][0] = "volte:pass"
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(broken))
    result = run("pack", "verify", bad)
    assert result.exit_code == 1 and "FAILED" in result.output
    not_json = tmp_path / "x.json"
    not_json.write_text("{")
    assert run("pack", "verify", not_json).exit_code == 2
    assert run("pack", "verify", tmp_path / "missing.json").exit_code == 2
    not_pack = tmp_path / "y.json"
    not_pack.write_text('{"format": "other"}')
    assert run("pack", "verify", not_pack).exit_code == 2


def test_pack_show_summary_and_one_puzzle(shipped):
    out = run("pack", "show", SHIPPED).output
    assert "48 exercises" in out and shipped["puzzles"][0]["id"] in out
    one = run("pack", "show", SHIPPED, "--id", "1")
    assert one.exit_code == 0 and "Solution: " + shipped["puzzles"][0]["key"] in one.output
    assert run("pack", "show", SHIPPED, "--id", "p-nope").exit_code == 2


# ---- tags, rating, selection -------------------------------------------------


def test_every_motif_tag_occurs_in_mined_exercises_and_landing_is_exclusive():
    seen: set[str] = set()
    for index in range(40):
        for record in examine_game((3, index, (2, 3), None)).candidates:
            tags = record["tags"]
            assert ("master-captured" in tags) != ("banner-reached" in tags)
            seen.update(tags)
    assert seen >= set(TAGGERS) - {"forced-pass"}


def test_shipped_tags_are_what_the_tagger_gives(shipped):
    """The stored tags against the function that produced them (what each tag means
    is pinned by the known positions of tests/unit/test_battleklinge_tags.py)."""
    for record in shipped["puzzles"]:
        assert record["tags"] == tags_for(PuzzleFacts.of_record(record)), record["id"]


def test_difficulty_orders_length_and_effort():
    easy = {"n": 2, "effort": 4, "tempting": 0, "defender_options": 5, "quiet": 0}
    hard = {"n": 3, "effort": 10, "tempting": 4, "defender_options": 15, "quiet": 1}
    assert 1.0 <= difficulty(easy) < difficulty(hard) <= 10.0
    assert band(difficulty(easy)) == "easy" and band(difficulty(hard)) == "hard"


def test_selection_is_deterministic_and_meets_counts():
    pool = []
    for index in range(48):
        pool += examine_game((4, index, (2, 3), None)).candidates
    first = select(pool, {2: 5, 3: 5}, seed=4)
    again = select(list(pool), {2: 5, 3: 5}, seed=4)
    assert [c["id"] for c in first] == [c["id"] for c in again]
    assert sum(c["n"] == 2 for c in first) == 5 and sum(c["n"] == 3 for c in first) == 5
    assert len({c["game"] for c in first}) == 10
    assert all(quality(c) > 0 for c in first)


def test_mirror_class_is_shared_by_a_position_and_its_mirror(shipped):
    for record in shipped["puzzles"][:10]:
        pos = Position.from_text(record["position"])
        assert mirror_class(pos) == mirror_class(pos.mirror())


def test_hash_stream_is_uniform_enough_and_stable():
    rng = HashStream("t")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    assert HashStream("x").shuffled(range(5)) == HashStream("x").shuffled(range(5))


# ---- regressions from the independent review ------------------------------------


def test_verify_catches_a_line_that_is_not_the_main_line(shipped):
    def damage(pack):
        puzzle = next(p for p in pack["puzzles"] if p["n"] == 3)
        defender = puzzle["solution"][puzzle["key"]]
        # a defender reply that allows a hit at once is a short defence, not the longest
        for reply, node in defender.items():
            hit = next((m for m, sub in node.items() if sub == "hit"), None)
            if hit and reply != puzzle["line"][1]:
                puzzle["line"] = [puzzle["key"], reply, hit]
                return
        raise AssertionError("no short defence in this puzzle")

    assert any("line: not the main line" in p for p in _problems_after(shipped, damage))


def test_verify_reports_a_decided_position_without_crashing(shipped):
    def damage(pack):
        pack["puzzles"][0]["position"] = "5/5/2M2/5/4s g ausfall,volte bindung,stoss riposte"

    problems = _problems_after(shipped, damage)
    assert any("already decided" in p for p in problems)


def test_unwritable_output_is_a_one_line_error():
    result = run("mine", "--count", 1, "-j", 1, "-o", "/proc/fechtbuch-test/x.json")
    assert result.exit_code == 2 and "cannot write" in result.output


def test_zufall_is_the_default_card_choice(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("mine", "--count", 2, "--seed", 3, "-j", 1, "-o", a).exit_code == 0
    assert (
        run("mine", "--count", 2, "--seed", 3, "-j", 1, "--cards", "Zufall", "-o", b).exit_code == 0
    )
    assert json.loads(a.read_bytes())["puzzles"] == json.loads(b.read_bytes())["puzzles"]
    assert "--cards" not in json.loads(b.read_bytes())["command"]
