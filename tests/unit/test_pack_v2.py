"""Pack format version 2: the game-independent envelope, verified through the game's kind.

The pack under test is two real exercises of the shipped pack (an N = 2 and an
N = 3) rewritten as version 2, deepest first; every derived field in it was made
by ``fechtbuch mine``, so a clean verification means the v2 path re-derives them.
"""

from __future__ import annotations

import copy
import dataclasses

import orjson
import pytest
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.claims import MAX_N as KIND_MAX_N
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.pack import (
    FULL_DEFENCES,
    PackError,
    PackOrder,
    SolutionMode,
    build_pack_v2,
    composed_schema,
    envelope_problems,
    load_pack,
    order_problems,
    schema_problems,
    verify_pack,
)
from fechtbuch.puzzles.packkinds import UnknownRulesError
from hypothesis import given, settings
from hypothesis import strategies as st
from support.clirun import assert_one_line_error, run

SHIPPED = orjson.loads(data_path("packs", "fechtuebungen.json").read_bytes())


def shipped_puzzle(n: int) -> dict:
    return copy.deepcopy(next(p for p in SHIPPED["puzzles"] if p["n"] == n))


@pytest.fixture(scope="module")
def pack() -> dict:
    return build_pack_v2(
        KIND,
        [shipped_puzzle(2), shipped_puzzle(3)],
        seed=1,
        command="tests/unit/test_pack_v2.py",
        max_n=3,
        order=PackOrder.DEEPEST_FIRST,
    )


def tree_distance(node) -> int:
    """Own moves to the hit under best play, read from the tree alone."""
    if node == "hit":
        return 0
    return min(
        1 + (0 if sub == "hit" else max(tree_distance(a) for a in sub.values()))
        for sub in node.values()
    )


def prune(node, full: int = FULL_DEFENCES):
    """The tree cut as a pruned pack stores it, made here independently of the
    verifier: below ``full`` defender moves the attacker's fastest key and the
    defender's longest reply only (ties by notation text)."""
    if node == "hit":
        return node
    keys = sorted(node)
    if full <= 0:
        fastest = min(keys, key=lambda k: 1 if node[k] == "hit" else 1 + tree_distance_of(node[k]))
        keys = [fastest]
    out = {}
    for key in keys:
        sub = node[key]
        if sub == "hit":
            out[key] = sub
            continue
        replies = sorted(sub)
        if full <= 0:
            replies = [max(replies, key=lambda r: tree_distance(sub[r]))]
        out[key] = {r: prune(sub[r], full - 1) for r in replies}
    return out


def tree_distance_of(defender: dict) -> int:
    return max(tree_distance(a) for a in defender.values())


def test_version_2_pack_verifies(pack):
    assert [p["n"] for p in pack["puzzles"]] == [3, 2]  # deepest first
    assert verify_pack(pack) == []


def test_shipped_pack_is_still_version_1():
    assert SHIPPED["version"] == 1 and "max_n" not in SHIPPED
    assert load_pack(data_path("packs", "fechtuebungen.json")) == SHIPPED


def _set(path: tuple, value):
    def change(pack):
        target = pack
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def _drop_reply(pack):
    first = pack["puzzles"][0]["solution"][pack["puzzles"][0]["key"]]
    del first[sorted(first)[0]]


BROKEN = [
    # (change, the field the one-line problem must name)
    (_set(("puzzles", 0, "id"), "p-000000000000"), "id"),
    (_set(("puzzles", 1, "n"), 3), "n"),
    (_set(("puzzles", 0, "key"), "volte:a1a2"), "key"),
    (_set(("puzzles", 0, "position"), "ss1ss/5/5/5/SSMSS g"), "position"),
    (_set(("puzzles", 1, "line"), ["volte:a1a2"]), "line"),
    (_drop_reply, "solution"),
    (_set(("puzzles", 0, "tags"), ["banner-reached"]), "tags"),
    (_set(("puzzles", 0, "difficulty"), 9.5), "difficulty"),
    (_set(("puzzles", 0, "attacker"), "x"), "attacker"),
    (_set(("puzzles", 1, "cards"), ["volte"] * 5), "cards"),
    (_set(("puzzles", 1, "id"), "id-of-puzzle-1"), "id"),
    (_set(("max_n",), KIND_MAX_N + 1), "max_n"),
    (_set(("max_n",), 2), "n"),
    (_set(("order",), "difficulty"), "order"),
    (_set(("order",), "n,difficulty,id"), "puzzles: not ordered by n, difficulty, id"),
    (_set(("solution",), "some"), "solution"),
    (_set(("version",), 3), "version"),
    (_set(("puzzles", 0, "hint"), "look left"), "hint"),
    (lambda p: p["puzzles"][0].pop("tags"), "tags"),
    (lambda p: p.pop("max_n"), "max_n"),
    (lambda p: p["puzzles"].append(copy.deepcopy(p["puzzles"][1])), "same id as puzzle 2"),
]


@pytest.mark.parametrize("change, field", BROKEN, ids=[f for _, f in BROKEN])
def test_every_broken_field_is_named(pack, change, field):
    broken = copy.deepcopy(pack)
    change(broken)
    problems = verify_pack(broken)
    assert problems, field
    assert all("\n" not in p for p in problems)
    assert any(field in p for p in problems), problems


def test_mirror_duplicate_is_found(pack):
    from fechtbuch.puzzles.battleklinge.packkind import duplicate_class

    mirrored = copy.deepcopy(pack["puzzles"][0])
    mirrored["position"] = Position.from_text(mirrored["position"]).mirror().to_text()
    assert duplicate_class(mirrored) == duplicate_class(pack["puzzles"][0])
    broken = copy.deepcopy(pack)
    broken["puzzles"].insert(1, mirrored)
    assert any("same as puzzle 1" in p and "mirror" in p for p in verify_pack(broken))


def test_pruned_tree_verifies(pack):
    deep = pack["puzzles"][0]
    pruned_tree = prune(deep["solution"])
    assert pruned_tree != deep["solution"]  # the cut removed something at the last move
    pruned = copy.deepcopy(pack)
    pruned["solution"] = SolutionMode.PRUNED.value
    pruned["puzzles"][0]["solution"] = pruned_tree
    assert verify_pack(pruned) == []
    # the same tree claimed to be full misses winning moves
    full_claim = copy.deepcopy(pruned)
    full_claim["solution"] = SolutionMode.FULL.value
    assert any("solution: " in p and "winning moves differ" in p for p in verify_pack(full_claim))
    # a pruned tree must still hold every defence above the cut
    # (a reply off the main line: an edit on it is refused by the line check first)
    key = deep["key"]
    off_line = next(r for r in sorted(pruned_tree[key]) if r != deep["line"][1])
    del pruned["puzzles"][0]["solution"][key][off_line]
    assert any("defender replies differ" in p for p in verify_pack(pruned))


def test_pruned_tree_below_the_cut_holds_at_least_the_main_line(pack):
    """Below the cut: more winning moves may stay (a complete tree is a valid pruned
    one), but the branch's main line key must be there and nothing that loses."""
    deep = copy.deepcopy(pack)
    deep["solution"] = SolutionMode.PRUNED.value
    assert verify_pack(deep) == []  # complete trees in a pruned pack
    key = deep["puzzles"][0]["key"]
    tree = deep["puzzles"][0]["solution"]
    # a branch below the cut where the full tree offers two finishing moves, off the
    # main line (an edit on it is refused by the line check before the tree is walked)
    line = deep["puzzles"][0]["line"]
    branch = next(
        (reply, second, answer)
        for reply, attacker in tree[key].items()
        for second, defender in attacker.items()
        for answer, last in defender.items()
        if len(last) > 1 and [key, reply, second, answer] != line[:4]
    )
    pos = Position.from_text(deep["puzzles"][0]["position"])
    for text in (key, *branch):
        pos = reference.play(pos, Move.from_text(text))
    node = tree[key][branch[0]][branch[1]][branch[2]]
    main_key = sorted(node)[0]  # every move here hits at once: the first by text
    losing = next(m.to_text() for m in reference.legal_moves(pos) if m.to_text() not in node)
    del node[main_key]
    node[losing] = "hit"
    deep["puzzles"][0]["solution"] = tree
    problems = verify_pack(deep)
    assert any(f"the main line key {main_key!r} is missing" in p for p in problems), problems
    assert any(f"not winning [{losing!r}]" in p for p in problems), problems


def test_load_pack_refuses_unknown_rules_and_ranges(pack, tmp_path):
    unknown = copy.deepcopy(pack)
    unknown["rules"] = "schach"
    path = tmp_path / "unknown.json"
    path.write_bytes(dump_json(unknown))
    with pytest.raises(UnknownRulesError, match="rules: 'schach' is not a game"):
        load_pack(path)
    too_deep = copy.deepcopy(pack)
    too_deep["max_n"] = 2
    path.write_bytes(dump_json(too_deep))
    with pytest.raises(PackError, match="n: 3 is above the pack's max_n 2"):
        load_pack(path)


def test_cli_verify_dispatches_by_version(pack, tmp_path):
    path = tmp_path / "v2.json"
    path.write_bytes(dump_json(pack))
    result = run("pack", "verify", path)
    assert result.exit_code == 0, result.output
    assert "2 puzzles, 0 problems: OK" in result.output
    shown = run("pack", "show", path)
    assert shown.exit_code == 0 and "version 2" in shown.output and "deepest first" in shown.output
    unknown = copy.deepcopy(pack)
    unknown["rules"] = "schach"
    path.write_bytes(dump_json(unknown))
    line = assert_one_line_error(run("pack", "verify", path))
    assert "rules: 'schach' is not a game of fechtbuch" in line


def test_unknown_rules_is_an_input_error():
    assert issubclass(UnknownRulesError, InputError)


def test_play_takes_a_version_2_battleklinge_pack(pack, tmp_path, monkeypatch):
    """``fechtbuch play --pack`` re-proves with the pack's terms (here pruned) and plays."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    pruned = copy.deepcopy(pack)
    pruned["solution"] = SolutionMode.PRUNED.value
    deep = pruned["puzzles"][0]
    deep["solution"] = prune(deep["solution"])
    path = tmp_path / "pruned.json"
    path.write_bytes(dump_json(pruned))
    result = run("play", "--pack", path, "--puzzle", "1", input="\n".join(deep["line"][0::2]))
    assert result.exit_code == 0, result.output
    assert "Treffer! Exercise solved." in result.output
    # another game's pack (a relabelled one now fails that game's puzzle schema first)
    line = assert_one_line_error(run("play", "--pack", "touche-uebungen"))
    assert "touche-duell" in line


@settings(max_examples=25, deadline=None)
@given(
    picks=st.lists(
        st.integers(0, len(SHIPPED["puzzles"]) - 1), min_size=1, max_size=8, unique=True
    ),
    order=st.sampled_from(list(PackOrder)),
    swap=st.tuples(st.integers(0, 7), st.integers(0, 7)),
)
def test_built_packs_are_valid_and_in_their_declared_order(picks, order, swap):
    """Whatever puzzles and order: build_pack_v2 writes a pack whose envelope holds and
    whose order check passes; swapping two puzzles of different rank is caught."""
    puzzles = [SHIPPED["puzzles"][i] for i in picks]
    pack = build_pack_v2(KIND, puzzles, seed=0, command="property", max_n=3, order=order)
    assert envelope_problems(pack) == [] and order_problems(pack) == []
    i, j = (k % len(puzzles) for k in swap)
    listed = pack["puzzles"]
    listed[i], listed[j] = listed[j], listed[i]
    differ = order.sort_key(listed[i]) != order.sort_key(listed[j])
    assert bool(order_problems(pack)) == differ


def test_mined_by_must_name_a_registered_policy_of_the_game():
    """A pack records the frozen policy that mined it; pack verify knows every game's
    policies from the registry and refuses a name it does not know."""
    from fechtbuch.engines.registry import plugin
    from fechtbuch.puzzles.pack import policy_problems

    for slug in ("battleklinge", "touche-duell", "touche-pyramiden"):
        entry = plugin(slug)
        assert entry.policies, slug
        assert policy_problems({"rules": slug, "mined_by": entry.policies[0]}) == []
        [problem] = policy_problems({"rules": slug, "mined_by": "someone/else"})
        assert problem.startswith("mined_by: 'someone/else' is not a mining policy")
    assert policy_problems({"rules": "battleklinge"}) == []  # packs from before mined_by


def test_the_schema_of_a_pack_is_the_envelope_and_its_games_part():
    """Each game's puzzle fields come with its pack kind; the envelope names no game."""
    envelope = orjson.loads(data_path("schema", "pack-2.schema.json").read_bytes())
    assert "allOf" not in envelope and not any("battleklinge" in name for name in envelope["$defs"])
    composed = composed_schema(envelope, KIND)
    assert "battleklingeMove" in composed["$defs"] and len(composed["allOf"]) == 1
    assert composed_schema(envelope, None) is envelope
    assert composed_schema(envelope, dataclasses.replace(KIND, puzzle_schema=None)) is envelope
    clash = dataclasses.replace(KIND, puzzle_schema={"puzzle": {}, "$defs": {"node": {}}})
    with pytest.raises(ValueError, match="'node' is taken"):
        composed_schema(envelope, clash)
    # a Battleklinge puzzle in a version-2 pack meets Battleklinge's part: five cards
    pack = build_pack_v2(KIND, [copy.deepcopy(SHIPPED["puzzles"][0])], seed=0, command="c", max_n=3)
    assert schema_problems(pack) == []
    pack["puzzles"][0]["cards"] = pack["puzzles"][0]["cards"][:4]
    assert [p for p in schema_problems(pack) if "puzzles/0/cards" in p]
