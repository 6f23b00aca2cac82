"""Tablebases against independent opinions.

* Counts: every 2-, 3- and 4-piece position (both masters, at most one student a
  side) of two card sets is classified won/lost/drawn by a brute-force fixpoint
  that shares nothing with the tables but fast.py's move generator: it indexes
  raw squares and both colours to move (no turning, no deal permutations, no
  ranking), sweeps until nothing changes and counts per split with Gold to move.
* Distances: seeded random positions of every table (both colours to move) agree
  with reference.MemoSolver (pure-Python rules) where its search is cheap and with
  df-pn's exact distance and loss (solver.solve) up to 6; best moves are the keys.
"""

from __future__ import annotations

import hashlib
from itertools import combinations

import numpy as np
import pytest
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import CARD_SETS, card_from_id
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.reference import MemoSolver
from fechtbuch.engines.battleklinge.tablebase import Outcome, Tablebase, TbResult, build
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase.probe import table_folder
from fechtbuch.engines.compiled import njit
from support.tablebase_pins import K1_DIGESTS

# One worker runs the whole module (--dist loadgroup, pyproject.toml): its module
# fixture builds three card sets' K <= 1 tables, which on two workers would be paid
# twice.
pytestmark = pytest.mark.xdist_group("battleklinge_tablebase")


CARD_SET_A = CARD_SETS["einsteiger"]
CARD_SET_B = tuple(sorted(card_from_id(c) for c in ("prim", "terz", "volte", "battuta", "stoss")))
CARD_SET_C = CARD_SETS["verteidigung"]
"""A: every card its own mirror (mirror-reduced, no deal permutation); B: not closed
under the mirror (full tables); C: closed, with terz and quart each other's mirror
(mirror-reduced, the deals permute)."""
CARD_SETS_TESTED = [CARD_SET_A, CARD_SET_B, CARD_SET_C]
CARD_SET_IDS = ["einsteiger", "prim-terz-set", "verteidigung"]
NONE = 25  # "no student" in the brute-force index


def _deal_tables(cards):
    """(gold hand mask, blau hand mask, side card) of 30 deals and the inverse lookup."""
    gold, blau, side = [], [], []
    lookup = np.full((1 << 16, 16), -1, dtype=np.int64)
    for g in combinations(cards, 2):
        rest = [c for c in cards if c not in g]
        for b in combinations(rest, 2):
            (s,) = [c for c in rest if c not in b]
            lookup[sum(1 << c for c in g), s] = len(gold)
            gold.append(sum(1 << c for c in g))
            blau.append(sum(1 << c for c in b))
            side.append(s)
    return (np.array(gold), np.array(blau), np.array(side), lookup)


@njit
def _brute_index(st, deal_lookup):
    gm = fast.lowest_square(st[fast.F_MASTER])
    bm = fast.lowest_square(st[fast.F_MASTER + 1])
    gs_bb = st[fast.F_PIECES] & ~st[fast.F_MASTER]
    bs_bb = st[fast.F_PIECES + 1] & ~st[fast.F_MASTER + 1]
    gs = fast.lowest_square(gs_bb) if gs_bb else 25
    bs = fast.lowest_square(bs_bb) if bs_bb else 25
    deal = deal_lookup[st[fast.F_HAND], st[fast.F_SIDE]]
    return ((((gm * 25 + bm) * 26 + gs) * 26 + bs) * 2 + st[fast.F_TURN]) * 30 + deal


@njit
def _brute_classify(gold, blau, side, deal_lookup):
    """status[index]: 0 drawn, 1 won, 2 lost for the side to move; -1 not a position."""
    n = 25 * 25 * 26 * 26 * 2 * 30
    status = np.full(n, -1, dtype=np.int8)
    st = np.zeros(fast.STATE_SIZE, dtype=np.int64)
    for i in range(n):
        rest, deal = divmod(i, 30)
        rest, turn = divmod(rest, 2)
        rest, bs = divmod(rest, 26)
        rest, gs = divmod(rest, 26)
        gm, bm = divmod(rest, 25)
        if gm == bm or gm == 22 or bm == 2:
            continue
        if gs != 25 and (gs == gm or gs == bm):
            continue
        if bs != 25 and (bs == gm or bs == bm or bs == gs):
            continue
        status[i] = 0
    moves = np.empty(fast.MAX_MOVES, dtype=np.int32)
    child = np.empty(fast.STATE_SIZE, dtype=np.int64)
    changed = 1
    while changed:
        changed = 0
        for i in range(n):
            if status[i] != 0:
                continue
            rest, deal = divmod(i, 30)
            rest, turn = divmod(rest, 2)
            rest, bs = divmod(rest, 26)
            rest, gs = divmod(rest, 26)
            gm, bm = divmod(rest, 25)
            st[fast.F_MASTER] = np.int64(1) << gm
            st[fast.F_MASTER + 1] = np.int64(1) << bm
            st[fast.F_PIECES] = st[fast.F_MASTER] | ((np.int64(1) << gs) if gs != 25 else 0)
            st[fast.F_PIECES + 1] = st[fast.F_MASTER + 1] | ((np.int64(1) << bs) if bs != 25 else 0)
            st[fast.F_HAND] = gold[deal]
            st[fast.F_HAND + 1] = blau[deal]
            st[fast.F_SIDE] = side[deal]
            st[fast.F_TURN] = turn
            count = fast.gen_moves(st, moves)
            won = False
            all_won = True
            for k in range(count):
                fast.make_move(st, moves[k], child)
                if fast.winner(child) == turn:
                    won = True
                    break
                value = status[_brute_index(child, deal_lookup)]
                if value == 2:
                    won = True
                    break
                if value != 1:
                    all_won = False
            if won:
                status[i] = 1
                changed += 1
            elif all_won:
                status[i] = 2
                changed += 1
    return status


def brute_counts(cards) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """{(gold students, blau students): (positions, won, lost, drawn)} with Gold to move."""
    gold, blau, side, lookup = _deal_tables(cards)
    status = _brute_classify(gold, blau, side, lookup).reshape(25, 25, 26, 26, 2, 30)
    gold_to_move = status[:, :, :, :, 0, :]
    out = {}
    for a in (0, 1):
        for b in (0, 1):
            gs = slice(25, 26) if a == 0 else slice(0, 25)
            bs = slice(25, 26) if b == 0 else slice(0, 25)
            part = gold_to_move[:, :, gs, bs, :]
            valid = part >= 0
            out[(a, b)] = (
                int(valid.sum()),
                int((part == 1).sum()),
                int((part == 2).sum()),
                int((part == 0).sum()),
            )
    return out


@pytest.fixture(scope="module")
def tables_root(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="module")
def tables(tables_root):
    """Both card sets built with K <= 1 in their default folders under one root."""
    out = {}
    for cards in CARD_SETS_TESTED:
        folder = table_folder(cards, tables_root)
        report = build(cards, 1, folder)
        out[cards] = (report, Tablebase.open(folder))
    return out


# The brute force takes 10-14 s a card set.  The default run counts einsteiger (a
# mirrored layout); the slow run counts the other two, among them prim-terz-set (the
# plain one), and every card set's bytes are pinned by SHA-256 (K1_DIGESTS).
@pytest.mark.parametrize(
    "cards",
    [
        pytest.param(cards, id=name, marks=pytest.mark.slow if name != "einsteiger" else ())
        for cards, name in zip(CARD_SETS_TESTED, CARD_SET_IDS, strict=True)
    ],
)
def test_counts_match_brute_force(tables, cards):
    report, _ = tables[cards]
    ours = {s.split: (s.positions, s.won, s.lost, s.drawn) for s in report.splits}
    assert ours == brute_counts(cards)


@pytest.mark.parametrize("cards", CARD_SETS_TESTED, ids=CARD_SET_IDS)
def test_k1_bytes_did_not_change(tables, cards):
    report, _ = tables[cards]
    name = CARD_SET_IDS[CARD_SETS_TESTED.index(cards)]
    assert {s.split: s.sha256 for s in report.splits} == K1_DIGESTS[name]


def test_table_sizes():
    assert ix.covered_positions(0, 0) == 553 * 30
    assert ix.covered_positions(2, 2) == 553 * 253 * 210 * 30
    plain, mirrored = ix.layout(CARD_SET_B), ix.layout(CARD_SET_A)
    assert not plain.mirrored and mirrored.mirrored
    assert plain.positions(1, 1) == 553 * 23 * 22 * 30
    # 270 pairs stand for themselves and their mirror image, 13 (both masters on the
    # c file) only for themselves: 2 * 270 + 13 = 553
    assert (mirrored.num_pairs, mirrored.mirror_pairs) == (283, 270)
    assert mirrored.positions(2, 2) == 283 * 253 * 210 * 30


def _seeded(label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "little") % n


def _samples(cards, count):
    for i in range(count):
        split = ix.splits(1)[i % 4]
        offset = _seeded(f"tb-sample/{cards}/{i}", ix.layout(cards).positions(*split))
        yield ix.position_at(cards, split, offset // 30, offset % 30, turn=i // 4 % 2)


@pytest.mark.parametrize("cards", CARD_SETS_TESTED, ids=CARD_SET_IDS)
def test_index_round_trip(cards):
    for split in ix.splits(2):
        for i in range(200):
            board = _seeded(f"rt/{split}/{i}", ix.layout(cards).boards(*split))
            deal = i % 30
            pos = ix.position_at(cards, split, board, deal, turn=i % 2)
            where = ix.locate(pos, cards)
            assert (where.split, where.board, where.deal) == (split, board, deal)


@pytest.mark.parametrize("cards", CARD_SETS_TESTED, ids=CARD_SET_IDS)
def test_distances_match_dfpn(tables, cards):
    from fechtbuch.solver.battleklinge.api import solve

    _, base = tables[cards]
    checked = 0
    for pos in _samples(cards, 240):
        got = base.probe(pos)
        if got.result is not Outcome.DRAW and got.distance > 6:
            continue
        answer = solve(pos, max_n=6)
        assert answer.status == "solved"
        if answer.distance is not None:
            expected = TbResult(Outcome.WIN, answer.distance)
            assert set(base.best_moves(pos)) == set(answer.keys), pos.to_text()
            assert [m.to_text() for m in base.main_line(pos)] == [
                m.to_text() for m in answer.main_line
            ], pos.to_text()
        elif answer.loss_in is not None:
            expected = TbResult(Outcome.LOSS, answer.loss_in)
            assert base.main_line(pos) == answer.main_line, pos.to_text()
        else:
            expected = TbResult(Outcome.DRAW)
        assert got == expected, pos.to_text()
        checked += 1
    assert checked > 150


@pytest.mark.parametrize("cards", CARD_SETS_TESTED, ids=CARD_SET_IDS)
def test_distances_match_reference(tables, cards):
    _, base = tables[cards]
    solver = MemoSolver()
    checked = 0
    for pos in _samples(cards, 120):
        got = base.probe(pos)
        if got.result is Outcome.DRAW or got.distance > 2:
            continue
        if got.result is Outcome.WIN:
            assert solver.distance(pos, 3) == got.distance, pos.to_text()
            assert set(solver.keys(pos, got.distance)) == set(base.best_moves(pos))
        else:
            assert solver.distance(pos, 2) is None
            assert solver.loss_distance(pos, 3) == got.distance, pos.to_text()
        checked += 1
    assert checked > 40


def test_study_miner_gives_verified_puzzles(tables):
    from fechtbuch.engines.battleklinge.tablebase.studies import mine_studies
    from fechtbuch.puzzles.battleklinge.claims import derived_fields
    from fechtbuch.puzzles.battleklinge.packkind import verify_puzzle

    _, base = tables[CARD_SET_A]
    studies = mine_studies(base, count=2, distances=range(4, 3, -1))
    assert len(studies) == 2
    for study in studies:
        assert study.distance == 4 and study.tree_complete
        puzzle = study.puzzle
        pos, key = Position.from_text(puzzle["position"]), Move.from_text(puzzle["key"])
        line = [Move.from_text(m) for m in puzzle["line"]]
        puzzle["tags"], puzzle["difficulty"] = derived_fields(puzzle, pos, key, line)
        assert verify_puzzle(puzzle, max_n=4) == []


def _run(*args):
    from click.testing import CliRunner
    from fechtbuch import cli

    return CliRunner().invoke(cli.main, list(args))


def test_cli_build_and_probe(tmp_path):
    import orjson
    from fechtbuch.engines.battleklinge.tablebase import find_tables, table_folder

    folder = table_folder(CARD_SET_A, tmp_path)
    result = _run("tb", "build", "--cards", "einsteiger", "--students", "0", "-o", str(folder))
    assert result.exit_code == 0, result.output
    assert "16,590" in result.output
    again = _run("tb", "build", "--cards", "einsteiger", "--students", "0", "-o", str(folder))
    assert again.exit_code == 2 and "--force" in again.output
    result = _run(
        "tb",
        "build",
        "--cards",
        "einsteiger",
        "--students",
        "0",
        "-o",
        str(folder),
        "--force",
        "--json",
    )
    report = orjson.loads(result.output)
    (split,) = report["splits"]
    assert split["positions"] == split["won"] + split["lost"] + split["drawn"] == 16590
    position = "2m2/5/5/5/2M2 g ausfall,volte bindung,stoss riposte"
    result = _run("tb", "probe", position, "--tables", str(folder), "--json")
    answer = orjson.loads(result.output)
    assert result.exit_code == 0
    expected = Tablebase.open(folder).probe(Position.from_text(position))
    assert (answer["result"], answer["distance"]) == (expected.result.value, expected.distance)
    uncovered = "2m2/5/1s3/1S3/2M2 g ausfall,volte bindung,stoss riposte"
    result = _run("tb", "probe", uncovered, "--tables", str(folder))
    assert result.exit_code == 2 and "not covered" in result.output
    assert find_tables(Position.from_text(position), root=tmp_path) is not None
    assert find_tables(Position.from_text(uncovered), root=tmp_path) is None
    other_cards = "2m2/5/5/5/2M2 g ausfall,traverse bindung,stoss riposte"
    assert find_tables(Position.from_text(other_cards), root=tmp_path) is None


@pytest.mark.parametrize("cards", CARD_SETS_TESTED, ids=CARD_SET_IDS)
def test_draws_have_no_forced_hit(tables, cards):
    """Draws are rare (about 1 in 2,000 positions of split (1, 1)), so random samples
    miss them: take a few seeded ones and let df-pn confirm neither side forces a hit."""
    from fechtbuch.solver.battleklinge.api import solve

    _, base = tables[cards]
    drawn = np.flatnonzero(base.split_values((1, 1)) == 0)
    assert drawn.size
    for i in range(6):
        offset = int(drawn[_seeded(f"draw/{cards}/{i}", drawn.size)])
        pos = ix.position_at(cards, (1, 1), offset // 30, offset % 30, turn=i % 2)
        assert base.probe(pos) == TbResult(Outcome.DRAW)
        answer = solve(pos, max_n=5)
        assert answer.status == "solved"
        assert answer.distance is None and answer.loss_in is None, pos.to_text()
        assert base.main_line(pos) == []


def test_solve_answers_from_tables_and_df_pn_agrees(tables, tables_root):
    """`solve(..., tables=root)` reads the table (any distance, draws included) and says
    so; where df-pn reaches, its distance, keys, loss and tree are the table's."""
    from fechtbuch.solver.battleklinge.api import solve

    _, base = tables[CARD_SET_A]
    seen = {"win": 0, "loss": 0, "draw": 0, "beyond": 0}
    drawn = np.flatnonzero(base.split_values((1, 1)) == 0)  # rare: add two on purpose
    draws = [
        ix.position_at(CARD_SET_A, (1, 1), int(drawn[i]) // 30, int(drawn[i]) % 30, turn=0)
        for i in (0, drawn.size // 2)
    ]
    for pos in [*_samples(CARD_SET_A, 80), *draws]:
        got = base.probe(pos)
        answer = solve(pos, max_n=2, tables=tables_root)
        assert answer.from_tables and answer.status == "solved"
        assert answer.to_json()["source"] == "tablebase"
        if got.result is Outcome.DRAW:
            assert answer.draw and answer.distance is None and answer.loss_in is None
            seen["draw"] += 1
            continue
        depth = got.distance
        if got.result is Outcome.WIN:
            assert answer.distance == depth
            seen["win"] += 1
        else:
            assert answer.loss_in == depth
            seen["loss"] += 1
        if depth > 2:
            seen["beyond"] += 1  # beyond --max, exact all the same
        if depth <= 4:
            searched = solve(pos, max_n=depth)
            assert (searched.distance, searched.loss_in) == (answer.distance, answer.loss_in)
            assert sorted(searched.keys, key=lambda m: m.to_text()) == answer.keys
            assert searched.main_line == answer.main_line
            if answer.distance is not None and depth <= 3:
                assert answer.tree() == searched.tree()
    assert min(seen.values()) > 0, seen
    assert solve(pos, max_n=2).from_tables is False  # off unless asked


def test_solve_verify_cross_checks_the_table_with_df_pn(tables, tables_root):
    from fechtbuch.solver.battleklinge.api import solve

    for pos in _samples(CARD_SET_A, 24):
        answer = solve(pos, max_n=3, tables=tables_root, verify=True)
        assert answer.verified, (pos.to_text(), answer.verify_note)


def test_solve_command_uses_tables_and_no_tables_skips_them(tables, tables_root):
    import json

    pos = "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"
    with_tables = _run("solve", pos, "--tables", str(tables_root), "--json")
    assert with_tables.exit_code == 0, with_tables.output
    data = json.loads(with_tables.output)
    assert (data["source"], data["distance"], data["keys"]) == ("tablebase", 1, ["ausfall:c3c5"])
    text = _run("solve", pos, "--tables", str(tables_root))
    assert text.output.startswith("From the endgame tables (exact at any distance): Gold hits in 1")
    plain = json.loads(
        _run("solve", pos, "--tables", str(tables_root), "--no-tables", "--json").output
    )
    assert "source" not in plain and plain["distance"] == 1


def test_meister_plays_table_best_moves_and_claims_exact_results(tables, tables_root, monkeypatch):
    """With tables present the Meister plays a table-best move (a key of the fastest hit
    when won) and its score is the table's result: never a wrong claim."""
    from fechtbuch.engines.battleklinge.players import Player, exact_score
    from fechtbuch.engines.battleklinge.search import MATE_BOUND, hit_moves

    monkeypatch.setenv("FECHTBUCH_TABLES", str(tables_root))
    _, base = tables[CARD_SET_A]
    values = base.split_values((1, 1))
    seen = {Outcome.WIN: 0, Outcome.LOSS: 0, Outcome.DRAW: 0}
    for code, count in ((9, 4), (3, 3), (8, 3), (0, 3)):  # won in 5, 2; lost in 4; drawn
        offsets = np.flatnonzero(values == code)
        for i in range(count):
            offset = int(offsets[_seeded(f"meister/{code}/{i}", offsets.size)])
            pos = ix.position_at(CARD_SET_A, (1, 1), offset // 30, offset % 30, turn=i % 2)
            result = base.probe(pos)
            choice = Player("meister", nodes=5_000).choose(pos)
            assert choice.reason == "tablebase"
            assert choice.move in base.best_moves(pos), pos.to_text()
            if result.result is Outcome.DRAW:
                assert abs(choice.score) <= MATE_BOUND
            else:
                assert choice.score == exact_score(result)
                assert abs(hit_moves(choice.score)) == result.distance
            seen[result.result] += 1
    assert seen == {Outcome.WIN: 7, Outcome.LOSS: 3, Outcome.DRAW: 3}


def test_meister_wins_into_the_tables_and_claims_only_proved_results(
    tables, tables_root, monkeypatch
):
    """Positions outside the tables (one student against two) whose captures lead into
    them: a table win is played with the table's score, and df-pn agrees that the
    position is won within that many moves; a move the tables prove lost is never
    played while the tables prove another one is not."""
    from fechtbuch.engines.battleklinge.players import Player
    from fechtbuch.engines.battleklinge.search import hit_moves
    from fechtbuch.solver.battleklinge.api import solve

    monkeypatch.setenv("FECHTBUCH_TABLES", str(tables_root))
    _, base = tables[CARD_SET_A]
    lay = ix.layout(CARD_SET_A)
    claimed = 0
    for i in range(400):
        board = _seeded(f"meister-into/{i}", lay.boards(1, 2))
        pos = ix.position_at(CARD_SET_A, (1, 2), board, i % 30, turn=i % 2)
        if pos.winner() is not None:
            continue
        choice = Player("meister", nodes=3_000).choose(pos)
        child = fast.play(pos, choice.move)
        if choice.reason == "tablebase":
            after = base.probe(child).after_move()
            assert after.result is Outcome.WIN
            assert hit_moves(choice.score) == after.distance
            if after.distance <= 5:
                answer = solve(pos, max_n=after.distance)
                assert answer.distance is not None and answer.distance <= after.distance
            claimed += 1
        elif child.winner() is None and base.covers(child):
            proved_not_lost = [
                m
                for m in fast.legal_moves(pos)
                if base.covers(fast.play(pos, m))
                and base.probe(fast.play(pos, m)).after_move().result is not Outcome.LOSS
            ]
            if proved_not_lost:
                assert base.probe(child).after_move().result is not Outcome.LOSS
        if claimed >= 6:
            break
    assert claimed >= 3
