"""Touché-in-N mining: deterministic from the seed, exactly one verified key, plausible
alternatives for N = 1, a version-2 pack written atomically, verified by the kind."""

from __future__ import annotations

import json

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import parse_card
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, node_of_view
from fechtbuch.puzzles.touche_pyramiden.mining import mine, plausible_fields
from fechtbuch.puzzles.touche_pyramiden.packkind import KIND
from fechtbuch.puzzles.touche_pyramiden.tree import tree_child
from fechtbuch.solver.andor import keys
from fechtbuch.solver.andor_verifier import ProofCheck
from support.clirun import run


def test_mined_exercises_have_one_verified_key():
    exercises = mine("1", 300, 1, 20_000)
    assert exercises
    for e in exercises:
        node, pattern = node_of_view(notation.parse_view(e.position))
        problem = TouchInN(pattern)
        check = ProofCheck(problem, leaf_tests=False)
        assert check.wins(node, e.n)
        found = [problem.format_action(node, a) for a in keys(problem, check.wins, node, e.n)]
        assert found == [e.key]
        assert len(plausible_fields(problem, node)) >= 2
        assert e.line == [e.key] and e.solution == {e.key: f"win:{pattern.value}"}
        assert f"in-{e.n}" in e.tags and 1 <= e.difficulty <= 3
        assert KIND.verify_pruned(e.to_json(), 3) == []
    assert len({(e.position) for e in exercises}) == len(exercises)


def test_kind_refuses_a_wrong_key_and_a_wrong_tree():
    exercise = mine("1", 300, 1, 20_000)[0].to_json()
    wrong_key = dict(exercise, key="pass")
    assert any(p.startswith("key:") for p in KIND.verify_pruned(wrong_key, 3))
    wrong_tree = dict(exercise, solution={exercise["key"]: "win:linie-x"})
    assert any(p.startswith("solution:") for p in KIND.verify_pruned(wrong_tree, 3))
    assert KIND.verify_pruned(dict(exercise, n=2), 3)[0].startswith("n:")
    assert KIND.verify_pruned(dict(exercise, n=4), 3)[0].startswith("n:")
    assert KIND.verify_pruned(dict(exercise, position="pyramiden-1 x"), 3)[0].startswith(
        "position:"
    )


def test_tree_child_finds_an_action_in_its_group():
    node = {"7H:c3 8C:d4 XX:a2": {"zieht:2S": "win:linie"}, "XX:-c2": "win:linie"}
    assert tree_child(node, "8C:d4") == {"zieht:2S": "win:linie"}
    assert tree_child(node, "XX:-c2") == "win:linie"
    assert tree_child(node, "8C:d") is None and tree_child(node, "9C:d4") is None


def test_mine_command_writes_a_deterministic_pack_atomically(tmp_path):
    out = tmp_path / "ex.json"
    args = ["pyramiden", "mine", "-o", out, "--seed", "2", "--candidates", "120", "--max", "1"]
    first = run(*args, "--quiet")
    assert first.exit_code == 0, first.output
    data = out.read_bytes()
    pack = json.loads(data)
    assert pack["format"] == "fechtbuch-pack" and pack["version"] == 2
    assert pack["rules"] == "touche-pyramiden" and pack["solution"] == "pruned"
    assert pack["command"].startswith("fechtbuch pyramiden mine -o ex.json --seed 2 ")
    assert pack["puzzles"], "seed 2 has exercises in its first 120 states"
    again = run(*args, "--quiet")
    assert again.exit_code == 2  # no overwrite without --force
    forced = run(*args, "--quiet", "--force")
    assert forced.exit_code == 0 and out.read_bytes() == data


def test_earlier_views_lift_one_pyramid_and_keep_the_cards_exact():
    from fechtbuch.engines.files import read_json_file
    from fechtbuch.engines.paths import data_path
    from fechtbuch.puzzles.touche_pyramiden.mining import earlier_views
    from fechtbuch.puzzles.touche_pyramiden.witnesses import Trail

    pack = read_json_file(data_path("packs", "pyramiden-uebungen.json"), "pack")
    made = 0
    for puzzle in pack["puzzles"]:
        if puzzle["n"] != 2:
            continue
        view = notation.parse_view(puzzle["position"])
        node, _ = node_of_view(view)
        trail = Trail.of_witness(puzzle["witness"])
        for text, earlier_trail in earlier_views(puzzle["position"], trail):
            earlier = notation.parse_view(text)  # a valid view: 108 cards, sizes kept
            before, _ = node_of_view(earlier)
            # one pyramid of P's lifted; the card played instead may stand elsewhere
            assert (node.mine & ~before.mine).bit_count() == 1
            assert (before.mine & ~node.mine).bit_count() <= 1
            assert before.unseen == node.unseen and len(earlier.hand) == len(view.hand)
            assert earlier_trail.replay() is not None
            made += 1
    assert made > 0


def _pack_puzzle(n: int) -> dict:
    from fechtbuch.engines.files import read_json_file
    from fechtbuch.engines.paths import data_path

    pack = read_json_file(data_path("packs", "pyramiden-uebungen.json"), "pack")
    return next(p for p in pack["puzzles"] if p["n"] == n)


def test_pruned_tree_holds_every_reply_of_the_first_two_adversary_moves():
    """After the key: every opponent reply, after each every draw of P's (both the
    adversary's), then one action per node; ``verify_pruned`` names a draw or a
    reply that is missing, and a key that is not one."""
    import copy

    from fechtbuch.engines.touche_pyramiden.touche_in_n import with_budget
    from fechtbuch.puzzles.touche_pyramiden.tree import GROUP_SEPARATOR, cut_problems

    puzzle = _pack_puzzle(2)
    node, pattern = node_of_view(notation.parse_view(puzzle["position"]))
    problem = TouchInN(pattern)
    root = with_budget(node, 2)
    tree = puzzle["solution"]
    assert list(tree) == [puzzle["key"]]
    (_, after_key), *_ = [
        (a, c) for a, c in problem.children(root) if problem.format_action(root, a) == puzzle["key"]
    ]
    replies = {problem.format_action(after_key, a): c for a, c in problem.children(after_key)}
    listed = [t for group in tree[puzzle["key"]] for t in group.split(GROUP_SEPARATOR)]
    assert sorted(listed) == sorted(replies)
    draws_checked = 0
    for group, sub in tree[puzzle["key"]].items():
        state = replies[group.split(GROUP_SEPARATOR)[0]]
        if isinstance(sub, str):
            continue
        draws = {problem.format_action(state, a) for a, _ in problem.children(state)}
        assert {t for g in sub for t in g.split(GROUP_SEPARATOR)} == draws
        for line in sub.values():  # below the cut: the main line, one action per node
            while isinstance(line, dict):
                assert len(line) == 1
                (line,) = line.values()
        draws_checked += 1
    assert draws_checked > 0
    assert cut_problems(problem, ProofCheck(problem).wins, root, tree, 2) == []

    cut = copy.deepcopy(puzzle)
    groups = cut["solution"][puzzle["key"]]
    group, sub = next((g, s) for g, s in groups.items() if isinstance(s, dict))
    first, *rest = sorted(sub)
    texts = first.split(GROUP_SEPARATOR)
    moved = sub.pop(first)
    if len(texts) > 1:
        sub[GROUP_SEPARATOR.join(texts[1:])] = moved
    problems = KIND.verify_pruned(cut, 3)
    assert any(p.startswith("solution:") and texts[0] in p and "missing" in p for p in problems)
    extra = copy.deepcopy(puzzle)
    extra["solution"]["pass"] = "win:" + pattern.value
    assert any("not keys ['pass']" in p for p in KIND.verify_pruned(extra, 3))


def test_mine_command_is_the_sequential_mine_for_any_jobs_and_resumes(tmp_path):
    """The command (generic loop, workers examining ahead from the pool before the
    batch) gives the pack of the sequential ``mine`` with -j 1 and -j 2; a run stopped
    after its first batch (its state file as the loop writes it) and continued with
    --resume gives the same bytes.  ``--per-n 1`` makes the pool change the questions
    within a batch."""
    from fechtbuch.commands.touche_pyramiden.mine import build_pack
    from fechtbuch.puzzles.mine_state import state_bytes
    from fechtbuch.puzzles.minekit import MinePool
    from fechtbuch.puzzles.touche_pyramiden.minekind import BATCH_ROUNDS
    from fechtbuch.puzzles.touche_pyramiden.minekind import KIND as MINING

    options = ["--seed", "2", "--candidates", "120", "--max", "1", "--per-n", "1"]
    made = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.json"
        result = run("pyramiden", "mine", "-o", out, *options, "-j", jobs, "--json")
        assert result.exit_code == 0, result.output
        made[jobs] = out.read_bytes().replace(out.name.encode(), b"X")
    assert made["1"] == made["2"]
    pack = json.loads(made["1"])
    expected = build_pack(mine("2", 120, 1, 30_000, 1), 2, 1, pack["command"])
    assert pack == json.loads(json.dumps(expected)) and pack["puzzles"]

    params = {"seed": 2, "max_n": 1, "max_nodes": 30_000, "per_n": 1}
    pool = MinePool()
    for number in range(BATCH_ROUNDS):
        MINING.add(pool, MINING.examine_round(MINING.task(params, number, pool)), params)
    split = tmp_path / "split.json"
    (tmp_path / "split.json.partial").write_bytes(state_bytes(MINING, params, BATCH_ROUNDS, pool))
    resumed = run("pyramiden", "mine", "-o", split, *options, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert split.read_bytes().replace(b"split.json", b"X") == made["1"]


SAFE_FIELD_VIEW = (
    "pyramiden-1 sicht=0 spieler=2 teams=2 runden=4 vorgabe=linie runde=2 muster=linie zug=0"
    " start=1 punkte=0,1 pass=0 brett=............../.....x......../.....x......../"
    ".....x..1.2.2./.....x......../.....x..2.1.../............../....1......... "
    "hand=8D,KD,2C,6C,7C/#5 stapel=#46/#45 ablage=6D,JC,KD,XX,XX,XX,XX beiseite=#0 seed=?"
)
"""A view :func:`safe_field_views` built in a trial run (seed 1, round 800): P's line
misses f2, g3 and the free field h4, every KD (g3's card) is seen, a 6C (f2's) is not."""


def test_safe_field_view_is_a_touche_in_3_whose_key_takes_the_blockable_field():
    from fechtbuch.puzzles.touche_pyramiden.mining import examine

    exercise = examine(SAFE_FIELD_VIEW, 3, 20_000, 3)
    assert exercise is not None and exercise.n == 3
    assert exercise.key == "6C:f2"  # g3 first would let the opponent block f2
    assert "safe-field" in exercise.tags and "double-threat" not in exercise.tags
    assert examine(SAFE_FIELD_VIEW, 3, 20_000, 1) is None  # N = 1 bar: plausible fields
    # the builder of session 4 made this view by editing a view of play: no game
    # reaches it (the four jokers back four pyramids, and the KD played needs a fifth)
    from fechtbuch.puzzles.touche_pyramiden.mining import reachable

    assert not reachable(SAFE_FIELD_VIEW)


def _built_views(rounds: int = 60):
    from fechtbuch.puzzles.touche_pyramiden.mining import candidate_rounds

    for round_views in candidate_rounds("1", rounds, deep=True):
        for text, key in round_views.built:
            yield text, key, round_views.trails[text]


def test_safe_field_views_are_played_rounds_with_the_cards_in_place():
    from fechtbuch.puzzles.touche_pyramiden.mining import reachable

    made = 0
    for text, key, trail in _built_views():
        view = notation.parse_view(text)  # a valid view: 108 cards, sizes kept
        node, _ = node_of_view(view)
        first = parse_card(key.split(":")[0])
        assert first in view.hand and node.unseen[first] > 0  # the key's card: unseen copy
        assert node.unseen[52] == 0 and reachable(text)
        state = trail.replay()
        assert notation.format_view(notation.view_of(state, state.to_move)) == text
        made += 1
    assert made > 0


def test_safe_field_views_need_every_joker_seen():
    from fechtbuch.puzzles.touche_pyramiden.mining import candidate_rounds, safe_field_views

    checked = 0
    for round_views in candidate_rounds("1", 20):
        for text in round_views.views:
            if node_of_view(notation.parse_view(text))[0].unseen[52]:
                # the opponent's joker could take any field, so nothing is built
                assert list(safe_field_views(text, round_views.trails[text])) == []
                checked += 1
    assert checked > 0


def test_joker_variants_keep_the_cards_that_back_the_board():
    """Every unseen joker played in the place of a card placed earlier (the two change
    places in the deal): the board stays, the round replays, every joker is seen."""
    from fechtbuch.engines.touche_pyramiden.state import Phase
    from fechtbuch.puzzles.touche_pyramiden.mining import jokers_seen, random_trails, reachable

    variants = 0
    for state, trail in random_trails(60, "backed-board"):
        if state.phase is not Phase.PLAY:
            continue
        assert reachable(notation.format_view(notation.view_of(state, state.to_move)))
        variant = jokers_seen(state, trail)
        if variant is not None:
            after = variant.replay()
            view = notation.view_of(after, after.to_move)
            assert reachable(notation.format_view(view)) and after.own == state.own
            assert node_of_view(view)[0].unseen[52] == 0
            variants += 1
    assert variants >= 20


def test_a_view_whose_board_card_left_the_discard_pile_is_caught():
    from dataclasses import replace

    from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem

    view = notation.parse_view(SAFE_FIELD_VIEW)
    # the 6D played on the board replaced by a card no pyramid has: no 6D, and the
    # four jokers already back four other pyramids
    discard = tuple(parse_card("9H") if k == parse_card("6D") else k for k in view.discard)
    assert "need" in reachability_problem(replace(view, discard=discard))


def test_built_views_are_examined_for_n3_only_and_once_per_idea():
    """``take_view`` with a built view (``only_n`` 3, ``built_for`` its key): only N = 3
    is asked (without the plausible-field bar), and not at all once that idea is kept."""
    from fechtbuch.puzzles.touche_pyramiden.mining import Kept, take_view

    asked = []

    def examine_view(view, max_n, max_nodes, min_n):
        asked.append((max_n, min_n))
        return None

    text, key, trail = next(_built_views())
    kept = Kept(counts={1: 0, 2: 0, 3: 0})
    take_view(text, kept, 3, 20_000, 12, None, examine_view, 3, key, trail)
    assert asked == [(3, 3)]
    kept.ideas.add(key)
    take_view(text, kept, 3, 20_000, 12, None, examine_view, 3, key, trail)
    assert asked == [(3, 3)]
    take_view(text, kept, 3, 20_000, 12, None, examine_view, trail=trail)  # a view of play
    assert asked == [(3, 3), (3, 1)]
    take_view(text, kept, 3, 20_000, 12, None, examine_view)  # no round reaches it: skipped
    assert asked == [(3, 3), (3, 1)]
