"""The terminal loop that plays one pack puzzle, for every game.

The solver's side is the person at the keyboard; the adversary answers from the
puzzle's solution tree with the longest defence (docs/solver.md's tie-breaks), so
no engine is needed and the game only supplies its
:class:`~fechtbuch.puzzles.packkind.PackKind` (``problem`` and ``board_text``).
An action that is legal but not in the tree is refused at once: the sure path would
be lost (in a pruned pack, past the first two defences, it only leaves the stored
part).  Commands: an action in the game's notation, ``legal``, ``solution`` (shows
a key; the puzzle then counts as solved with help), ``undo``, ``help``, ``quit``.

Input is any text stream (one command per line; end of input quits) and output
goes through a writer, so a game's ``play --pack`` command passes ``sys.stdin`` and
``click.echo`` and tests pass strings.  Entry points: :func:`play_puzzle` (a puzzle
and its kind) and :func:`play_pack_puzzle` (a loaded pack and a puzzle reference,
re-proved before play).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.pack import (
    FULL_DEFENCES,
    PackTerms,
    SolutionMode,
    find_puzzle,
    pack_kind,
)
from fechtbuch.puzzles.packkind import PackKind, Puzzle
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode

Writer = Callable[[str], None]

HELP = """Commands:
  ACTION     play an action in the game's notation (type legal to list them)
  legal      list the legal actions here
  solution   show a key (the puzzle then counts as solved with help)
  undo       take back your last action and the defence to it
  help       this list
  quit       stop"""


@dataclass
class TreePlayResult:
    """How a puzzle went."""

    solved: bool = False
    helped: bool = False
    """``solution`` was asked for at least once."""
    mistakes: int = 0
    """Actions refused because they lost the sure path."""
    quit: bool = False
    actions: list[str] = field(default_factory=list)
    """The actions of both sides on the way to the end (after any undo)."""
    leaf: str | None = None
    """The rule that decided (the tree's leaf), when solved."""


@dataclass(frozen=True)
class _Step:
    """A solver node the person acted at, for ``undo``."""

    node: TreeNode
    turns_left: int
    actions: int


class TreePlay:
    """One puzzle played in the terminal (see the module docstring)."""

    def __init__(
        self,
        kind: PackKind,
        puzzle: Puzzle,
        inp: TextIO,
        write: Writer,
        *,
        pruned: bool = False,
        colour: bool = False,
    ):
        self.kind = kind
        self.puzzle = puzzle
        self.tree = PuzzleTree(kind, puzzle)
        self.inp = inp
        self.write = write
        self.pruned = pruned
        self.colour = colour
        self.result = TreePlayResult()
        self.history: list[_Step] = []
        self.turns_left: int = puzzle["n"]

    def run(self) -> TreePlayResult:
        puzzle = self.puzzle
        self.write(
            f"{self.kind.title} exercise {puzzle['id']}: win within {puzzle['n']} own "
            "turns, whatever the defence.  Type help for the commands."
        )
        node = self.tree.root
        while True:
            node = self._defend(node)
            if node.is_leaf:
                self.result.solved, self.result.leaf = True, node.tree
                help_note = " with help" if self.result.helped else ""
                self.write(f"Solved{help_note}: {node.tree}.")
                return self.result
            self.write("")
            self.write(self.kind.board_text(node.state, self.colour))
            self.write(f"Your action ({self.turns_left} own turns left):")
            line = self.inp.readline()
            if not line:
                self.result.quit = True
                return self.result
            node = self._command(node, line.strip())
            if node is None:
                self.result.quit = True
                return self.result

    def _defend(self, node: TreeNode) -> TreeNode:
        """The adversary's longest defences until the person is to act (or it is decided)."""
        while not node.is_leaf and not self.tree.solver_to_act(node):
            reply = self.tree.longest_defence(node)
            self.write(f"Defence: {reply}")
            self.result.actions.append(reply)
            node = self.tree.step(node, reply)
        return node

    def _command(self, node: TreeNode, text: str) -> TreeNode | None:
        """The node after one command line; ``None`` to stop."""
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return None
        if word in ("help", "?", ""):
            self.write(HELP)
            return node
        legal = self.tree.legal(node)
        if word == "legal":
            self.write("Legal: " + ", ".join(sorted(legal)))
            return node
        if word == "solution":
            self.result.helped = True
            self.write(f"A key: {self.tree.best_action(node)}")
            return node
        if word == "undo":
            if not self.history:
                self.write("Nothing to take back.")
                return node
            step = self.history.pop()
            self.turns_left = step.turns_left
            del self.result.actions[step.actions :]
            self.write("Taken back.")
            return step.node
        action = text if text in legal else _match(legal, text)
        if action is None:
            self.write(f"Not a legal action here: {text!r} (type legal for the list).")
            return node
        after = self.tree.step(node, action)
        if after.tree is None:
            self.result.mistakes += 1
            self.write(self._off_tree_note(node, action))
            return node
        self.history.append(_Step(node, self.turns_left, len(self.result.actions)))
        if self.tree.problem.counts_turn(node.state, legal[action][0]):
            self.turns_left -= 1
        self.result.actions.append(action)
        return after

    def _off_tree_note(self, node: TreeNode, action: str) -> str:
        if self.pruned and node.adversary_moves >= FULL_DEFENCES:
            return (
                f"{action} leaves the stored solution: past the first two defences this "
                "pack keeps only the main line, so it cannot say whether it still wins. "
                "Take another action (solution shows the stored one)."
            )
        return (
            f"The sure path is lost: after {action} the defence holds out beyond your "
            f"{self.turns_left} own turns. Take another action (solution shows a key)."
        )


def _match(legal: dict, text: str) -> str | None:
    """The legal action written ``text`` up to case and spaces, if exactly one."""
    wanted = "".join(text.split()).lower()
    found = [a for a in legal if "".join(a.split()).lower() == wanted]
    return found[0] if len(found) == 1 else None


def play_puzzle(
    kind: PackKind,
    puzzle: Puzzle,
    inp: TextIO,
    write: Writer,
    *,
    pruned: bool = False,
    colour: bool = False,
) -> TreePlayResult:
    """Play one puzzle of ``kind`` on its stored tree (see the module docstring)."""
    return TreePlay(kind, puzzle, inp, write, pruned=pruned, colour=colour).run()


def play_pack_puzzle(
    pack: dict,
    reference: str,
    inp: TextIO,
    write: Writer,
    *,
    colour: bool = False,
    verify: bool = True,
) -> TreePlayResult:
    """Play puzzle ``reference`` (id or number) of a loaded pack: what a game's
    ``play --pack`` calls.  With ``verify`` the puzzle is re-proved first (play trusts
    the tree); an unsound puzzle is an :class:`InputError`."""
    kind = pack_kind(pack)
    terms = PackTerms.of(pack)
    number, puzzle = find_puzzle(pack, reference)
    pruned = terms.solution is SolutionMode.PRUNED
    if verify:
        check = kind.verify_pruned if pruned else kind.verify_puzzle
        problems = ["solution: pruned trees are not supported"] if check is None else []
        problems = problems or check(puzzle, terms.max_n)
        if problems:
            raise InputError(f"pack: exercise {number} ({puzzle['id']}) is unsound: {problems[0]}")
    write(f"Exercise {number} of {len(pack['puzzles'])}.")
    return play_puzzle(kind, puzzle, inp, write, pruned=pruned, colour=colour)
