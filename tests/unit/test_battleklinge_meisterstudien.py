"""The shipped Meisterstudien pack: mined from tables, verified by tables and
df-pn, re-minable byte for byte, playable in the terminal and the viewer.

Re-mining the whole pack takes minutes (24 studies, each confirmed by df-pn where it
reaches); the test re-mines the fast subset of the deepest studies (n = 10, beyond
df-pn's bound, so the tables alone answer) from the recorded command's seed and
compares them byte for byte.  `fechtbuch tb studies` with the recorded command
re-makes the whole file (docs/tablebase.md).
"""

from __future__ import annotations

import copy
import io
import shlex

import orjson
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge.cards import parse_card_list
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.mining import puzzle_id
from fechtbuch.puzzles.battleklinge.studies import BALANCED_MAX_N, MAX_N, mine_pack
from fechtbuch.puzzles.battleklinge.studycheck import DEEP_SPLIT, study_tables, verify_study
from fechtbuch.puzzles.pack import PackTerms, SolutionMode, verify_pack
from fechtbuch.puzzles.treeplay import play_pack_puzzle

PACK = orjson.loads(data_path("packs", "meisterstudien.json").read_bytes())


def _students(puzzle) -> tuple[int, int]:
    pos = Position.from_text(puzzle["position"])
    return pos.students[pos.turn].bit_count(), pos.students[1 - pos.turn].bit_count()


BALANCED = [p for p in PACK["puzzles"] if _students(p) == (1, 1)]
"""The studies of one student a side (K = 1 tables: built in seconds)."""
DEEP = [p for p in PACK["puzzles"] if _students(p) != (1, 1)]
"""The deep studies of three students against one (their tables take minutes)."""


@pytest.fixture(autouse=True)
def no_default_tables(tmp_path, monkeypatch):
    """The tests never read tables a user built: they build their own (K = 1)."""
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "no-tables"))


def _recorded() -> dict:
    words = shlex.split(PACK["command"])
    assert words[:3] == ["fechtbuch", "tb", "studies"]
    options = dict(zip(words[3::2], words[4::2], strict=True))
    return {
        "cards": options["--cards"],
        "count": int(options["--count"]),
        "deep": int(options.get("--deep", 0)),
        "seed": int(options["--seed"]),
    }


def test_pack_envelope_says_what_it_holds():
    terms = PackTerms.of(PACK)
    assert PACK["version"] == 2 and PACK["rules"] == "battleklinge"
    assert PACK["order"] == "-n,difficulty,id"
    assert terms.solution is SolutionMode.PRUNED
    assert len(BALANCED) == _recorded()["count"] == 24
    assert len(DEEP) == _recorded()["deep"]
    assert terms.max_n == (MAX_N if DEEP else BALANCED_MAX_N)
    ns = [p["n"] for p in PACK["puzzles"]]
    assert ns == sorted(ns, reverse=True) and min(ns) >= 4
    assert max(p["n"] for p in BALANCED) == BALANCED_MAX_N == 10
    assert all(_students(p) == DEEP_SPLIT and p["n"] > BALANCED_MAX_N for p in DEEP)
    assert len({p["n"] for p in DEEP}) == len(DEEP)  # one each at the longest distances


def test_deepest_studies_re_mine_byte_for_byte():
    recorded = _recorded()
    deepest = [p for p in BALANCED if p["n"] == 10]
    position = Position.from_text(BALANCED[0]["position"])
    tables = study_tables(position)
    assert tables is not None and tables.cards == tuple(sorted(parse_card_list(recorded["cards"])))
    again = mine_pack(
        tables,
        count=len(deepest),
        seed=recorded["seed"],
        command=PACK["command"],
        distances=range(10, 9, -1),
    )
    assert dump_json(again["puzzles"]) == dump_json(deepest)


def test_studies_verify_with_tables_and_dfpn():
    """Every third study (n = 10 down to 5: the tables alone beyond 8, with df-pn up
    to 8), through `pack verify`'s path (the kind's pruned check)."""
    chosen = BALANCED[::3]
    assert {p["n"] for p in chosen} >= {10, 8, 5}
    subset = dict(PACK, puzzles=chosen)
    assert verify_pack(subset) == []


def _with_n(study: dict, n: int) -> dict:
    """``study`` claiming ``n`` with its id made to match (else the id refuses it)."""
    return dict(study, n=n, id=puzzle_id(study["position"], n, study["key"]))


def test_verification_catches_wrong_claims():
    study = BALANCED[0]
    wrong_n = dict(study, n=study["n"] - 1)
    assert [p.split(":")[0] for p in verify_study(wrong_n, MAX_N)] == ["id"]
    assert any(p.startswith("n:") for p in verify_study(_with_n(study, study["n"] - 1), MAX_N))
    wrong_line = dict(study, line=study["line"][:-2])
    assert any(p.startswith("line:") for p in verify_study(wrong_line, MAX_N))
    cut = copy.deepcopy(study)
    defender = cut["solution"][study["key"]]
    dropped = sorted(defender)[0]
    del defender[dropped]
    assert any("defender replies differ" in p for p in verify_study(cut, MAX_N))
    assert verify_study(dict(study, n=MAX_N + 1), MAX_N) == [
        f"n: {MAX_N + 1} is outside this pack's range 1-{MAX_N}"
    ]


def test_playing_a_study_main_line_solves_it():
    out: list[str] = []
    study = BALANCED[0]
    lines = "".join(f"{m}\n" for m in study["line"][0::2])
    number = str(PACK["puzzles"].index(study) + 1)
    result = play_pack_puzzle(PACK, number, io.StringIO(lines), out.append)
    assert result.solved and result.actions == study["line"], "\n".join(out)


def test_play_and_viewer_commands_take_the_shipped_pack(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runner = CliRunner()
    # a balanced study: a deep one's tables are built on demand (minutes)
    number = str(PACK["puzzles"].index(BALANCED[1]) + 1)
    played = runner.invoke(
        cli.main, ["play", "--pack", "meisterstudien", "--puzzle", number], input="quit\n"
    )
    assert played.exit_code == 0, played.output
    # the viewer re-verifies every puzzle of its pack: two of the deepest studies
    # (tables only) keep this test short; the page is the same for all 24
    subset = tmp_path / "two-studies.json"
    subset.write_bytes(dump_json(dict(PACK, puzzles=BALANCED[:2])))
    page = tmp_path / "studien.html"
    made = runner.invoke(cli.main, ["pack", "html", str(subset), "-o", str(page)])
    assert made.exit_code == 0, made.output
    assert BALANCED[0]["id"] in page.read_text()


@pytest.mark.slow
@pytest.mark.skipif(not DEEP, reason="the pack has no deep studies")
def test_deep_studies_verify_with_tables_built_on_demand():
    """The deepest study of three students against one: its tables (split (3, 1) and
    what it needs, 1.42 G positions) are built into a temporary folder, then the study
    is re-derived from them; a wrong n and a wrong key are caught."""
    study = DEEP[0]
    assert verify_study(study, MAX_N) == []
    assert any(p.startswith("n:") for p in verify_study(_with_n(study, study["n"] - 1), MAX_N))
    pos = Position.from_text(study["position"])
    tables = study_tables(pos)
    assert tables is not None and DEEP_SPLIT in tables.splits
    other = sorted(m.to_text() for m, r in tables.move_results(pos) if m.to_text() != study["key"])
    wrong_key = dict(study, key=other[0])
    assert verify_study(wrong_key, MAX_N) != []


def _no_table_work(*args, **kwargs):
    raise AssertionError("an edited study must be refused before any table or search work")


def _flip_attacker(study: dict) -> None:
    study["attacker"] = "b" if study["attacker"] == "g" else "g"


def _wrong_tag(study: dict) -> None:
    study["tags"] = [t for t in study["tags"] if t != "sacrifice"] + ["sacrifice"]


def _wrong_difficulty(study: dict) -> None:
    study["difficulty"] = 9.0


def _wrong_line(study: dict) -> None:
    study["line"] = study["line"][:-2]


@pytest.mark.skipif(not DEEP, reason="the pack has no deep studies")
@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (_flip_attacker, "attacker:"),
        (_wrong_tag, "tags:"),
        (_wrong_difficulty, "difficulty:"),
        (_wrong_line, "line:"),
    ],
)
def test_an_edited_deep_study_is_refused_at_once(edit, field, monkeypatch, tmp_path):
    """A deep study with an edited identity or derived field is refused from its own
    fields: no table is opened or built (minutes for three students against one) and no
    df-pn runs, so `pack verify` answers at once.  The two stand-ins fail the test if
    verification reaches for either (they also keep a regression from hanging here)."""
    from fechtbuch.puzzles.battleklinge import rating, studycheck

    monkeypatch.setattr(studycheck, "study_tables", _no_table_work)
    monkeypatch.setattr(rating, "features", _no_table_work)
    study = copy.deepcopy(DEEP[0])
    edit(study)
    problems = verify_pack(dict(PACK, puzzles=[study]))
    assert problems and all(p.startswith("puzzle 1 ") for p in problems), problems
    assert any(p.split(": ", 1)[1].startswith(field) for p in problems), problems
    path = tmp_path / "edited.json"
    path.write_bytes(dump_json(dict(PACK, puzzles=[study])))
    result = CliRunner().invoke(cli.main, ["pack", "verify", str(path)])
    assert result.exit_code == 1 and field in result.output, result.output[-500:]


def test_the_difficulty_of_a_long_study_needs_no_search(monkeypatch):
    """From n = 8 on the length alone reaches the top of the scale (docs/puzzles.md:
    score 2.5 (n - 2) >= 14 and every other term is >= 0): the difficulty is 10.0
    without the prover; below that it is the prover's, as mining computes it."""
    from fechtbuch.engines.battleklinge.position import Move
    from fechtbuch.puzzles.battleklinge import rating

    study = min(BALANCED, key=lambda p: p["n"])
    pos, key = Position.from_text(study["position"]), Move.from_text(study["key"])
    searched = rating.difficulty(rating.features(pos, study["n"], key))
    assert rating.puzzle_difficulty(pos, study["n"], key) == searched == study["difficulty"]
    monkeypatch.setattr(rating, "features", _no_table_work)
    for study in DEEP + [p for p in BALANCED if p["n"] >= 8]:
        pos, key = Position.from_text(study["position"]), Move.from_text(study["key"])
        assert rating.puzzle_difficulty(pos, study["n"], key) == 10.0 == study["difficulty"]
