"""The generic tree walk, terminal loop and page on a game that is not Battleklinge.

A toy AND/OR problem with what Battleklinge lacks and the Touché games have: a
solver action that spends no turn (a feint, as a parry is in Touché), so the
solver acts twice in a row, and leaves that name their rule (``win:zero``).  Its
solution trees are built here by brute force, independently of puzzles/packtree.py.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

import orjson
import pytest
from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.engines.plugin import GamePlugin
from fechtbuch.puzzles import pack as pack_module
from fechtbuch.puzzles.packkind import PackKind
from fechtbuch.puzzles.packpage import pack2_html
from fechtbuch.puzzles.packtree import PuzzleTree
from fechtbuch.puzzles.treeplay import play_puzzle

LEAF = "win:zero"


@dataclass(frozen=True)
class Count:
    """A counter the solver drives to zero; the adversary may push it back up."""

    value: int
    solver: bool
    feinted: bool = False


class Countdown(AndOrProblem[Count, str]):
    """Solver: take1, take2 (a turn each) or, once and above 2, feint (minus one, no
    turn, acts again).  Adversary: hold (nothing) or push (plus one).  Won at zero or below."""

    def attacker_to_act(self, state: Count) -> bool:
        return state.solver

    def outcome(self, state: Count) -> Outcome | None:
        return Outcome.WIN if state.value <= 0 else None

    def children(self, state: Count) -> Sequence[tuple[str, Count]]:
        if not state.solver:
            return [
                ("hold", Count(state.value, True, state.feinted)),
                ("push", Count(state.value + 1, True, state.feinted)),
            ]
        out = [
            ("take1", Count(state.value - 1, False, state.feinted)),
            ("take2", Count(state.value - 2, False, state.feinted)),
        ]
        if not state.feinted and state.value > 2:  # a feint never decides (as a parry)
            out.append(("feint", Count(state.value - 1, True, True)))
        return out

    def counts_turn(self, state: Count, action: str) -> bool:
        return action != "feint"

    def key(self, state: Count):
        return state

    def format_state(self, state: Count) -> str:
        return f"{state.value}{'s' if state.solver else 'a'}{'f' if state.feinted else ''}"

    def format_action(self, state: Count, action: str) -> str:
        return action


PROBLEM = Countdown()


def wins(state: Count, turns: int) -> bool:
    if PROBLEM.outcome(state) is Outcome.WIN:
        return True
    options = [
        (action, child, turns - (1 if PROBLEM.counts_turn(state, action) else 0))
        for action, child in PROBLEM.children(state)
    ]
    if state.solver:
        return any(left >= 0 and wins(child, left) for _, child, left in options if left >= 0)
    return all(wins(child, turns) for _, child, _ in options)


def full_tree(state: Count, turns: int):
    """Every solver action that keeps the win, every adversary reply (brute force)."""
    if PROBLEM.outcome(state) is Outcome.WIN:
        return LEAF
    node = {}
    for action, child in PROBLEM.children(state):
        left = turns - (1 if state.solver and PROBLEM.counts_turn(state, action) else 0)
        if state.solver and (left < 0 or not wins(child, left)):
            continue
        node[action] = full_tree(child, left)
    return node


def distance(state: Count) -> int:
    """Own turns to the win (0 when already won)."""
    return next(n for n in range(0, 10) if wins(state, n))


def brute_line(state: Count) -> list[str]:
    """Fastest solver action, longest defence, first by text among equals."""
    line = []
    while PROBLEM.outcome(state) is None:
        scored = []
        for action, child in PROBLEM.children(state):
            spent = int(state.solver and PROBLEM.counts_turn(state, action))
            if state.solver and not wins(child, distance(state) - spent):
                continue
            scored.append((spent + distance(child), action, child))
        pick = min if state.solver else max
        best = pick(score for score, _, _ in scored)
        _, action, state = min(item for item in scored if item[0] == best)[:3]
        line.append(action)
    return line


def puzzle_for(value: int) -> dict:
    root = Count(value, True)
    n = distance(root)
    line = brute_line(root)
    return {
        "id": f"countdown-{value}",
        "n": n,
        "position": str(value),
        "key": line[0],
        "line": line,
        "solution": full_tree(root, n),
        "tags": [],
        "difficulty": 1.0,
    }


def _verify(puzzle: dict, max_n: int) -> list[str]:
    expected = puzzle_for(int(puzzle["position"]))
    return [f"{k}: differs" for k in ("n", "solution") if puzzle[k] != expected[k]]


TOY = PackKind(
    rules="countdown",
    title="Countdown",
    version=2,
    max_n=9,
    verify_puzzle=_verify,
    duplicate_class=lambda puzzle: puzzle["position"],
    problem=lambda puzzle: (PROBLEM, Count(int(puzzle["position"]), True)),
    board_text=lambda state, colour: f"[counter {state.value}]",
    board_svg=lambda state: (
        f'<svg xmlns="http://www.w3.org/2000/svg"><text>{state.value}</text></svg>'
    ),
)

PLUGIN = GamePlugin(
    slug="countdown",
    title="Countdown",
    summary="The counter game of these tests.",
    game="toygame.game:GAME",  # the registry wants a Game; this test needs only the kind
    pack_kind=f"{__name__}:TOY",
)
"""What the registry finds once this module is named in FECHTBUCH_PLUGINS (the last test)."""


@pytest.mark.parametrize("value", range(1, 8))
def test_tree_distance_and_main_line_on_a_feint_game(value):
    puzzle = puzzle_for(value)
    tree = PuzzleTree(TOY, puzzle)
    assert tree.distance(tree.root) == puzzle["n"] == distance(Count(value, True))
    line = tree.main_line()
    assert line == puzzle["line"]
    # replay the line: it ends decided and spends exactly n turns; each defence is the
    # longest by brute force, the first by text among equals
    state, spent = Count(value, True), 0
    for action in line:
        if state.solver:
            spent += PROBLEM.counts_turn(state, action)
        else:
            delays = {a: distance(c) for a, c in PROBLEM.children(state)}
            longest = max(delays.values())
            assert action == min(a for a, d in delays.items() if d == longest)
        state = dict(PROBLEM.children(state))[action]
    assert PROBLEM.outcome(state) is Outcome.WIN and spent == puzzle["n"]


def test_terminal_loop_keeps_the_turn_after_a_feint():
    puzzle = puzzle_for(5)
    out: list[str] = []
    lines = ["feint", "take1", "take2", "take2", "take2"]
    result = play_puzzle(TOY, puzzle, io.StringIO("\n".join(lines) + "\n"), out.append)
    text = "\n".join(out)
    turns = re.findall(r"\((\d+) own turns left\)", text)
    assert turns[:2] == [str(puzzle["n"])] * 2  # the feint spent no turn
    assert result.solved and result.leaf == LEAF and f"Solved: {LEAF}." in text
    # 5 -feint-> 4: take1 leaves 3 turns too few (the tree lacks it); take2 keeps it
    assert puzzle["n"] == 3 and "The sure path is lost: after take1" in text
    assert result.mistakes == 1
    # the longest defences; at 1 hold and push delay alike, so the first by text
    assert result.actions == ["feint", "take2", "push", "take2", "hold", "take2"]


def test_pack_and_page_of_a_game_registered_at_run_time(monkeypatch, tmp_path):
    """A new game plugs in by one registration: load, verify and the page work."""
    monkeypatch.setenv("FECHTBUCH_PLUGINS", __name__)  # PLUGIN below: one registration
    data = pack_module.build_pack_v2(
        TOY, [puzzle_for(v) for v in (2, 4, 6)], seed=0, command="toy", max_n=9
    )
    path = tmp_path / "toy.json"
    path.write_bytes(orjson.dumps(data))
    loaded = pack_module.load_pack(path)
    assert pack_module.verify_pack(loaded) == []
    twice = dict(loaded, puzzles=[*loaded["puzzles"], dict(loaded["puzzles"][2], id="zz-again")])
    assert pack_module.verify_pack(twice) == [
        "puzzle 4 (zz-again): same as puzzle 3 (countdown-6) up to the game's symmetry"
    ]
    loaded["puzzles"][1]["solution"] = {"take1": LEAF}
    assert pack_module.verify_pack(loaded) == ["puzzle 2 (countdown-4): solution: differs"]
    page = pack2_html(data)
    shown = orjson.loads(
        re.search(r'id="fb-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</")
    )["puzzles"]
    index = [p["id"] for p in shown].index("countdown-6")
    nodes = shown[index]["nodes"]
    assert nodes[0]["turns"] == data["puzzles"][index]["n"]
    assert nodes[0]["best"] == data["puzzles"][index]["key"]
    assert {a["text"] for a in nodes[0]["actions"]} == {"take1", "take2", "feint"}
