"""The terminal loop that plays one pack puzzle, for every game.

The solver's side is the person at the keyboard; the adversary answers from the
puzzle's solution tree with the longest defence (docs/solver.md's tie-breaks), so
no engine is needed and the game only supplies its
:class:`~fechtbuch.puzzles.packkind.PackKind` (``problem`` and ``board_text``).
An action that is legal but not in the tree is refused at once where the tree holds
every winning action: the sure path would be lost.  In a pruned pack, past the cut
(``PackKind.full_defences``), such an action is judged exactly by the game's
``PackKind.judge``: one that keeps the win is accepted and play goes on beyond the
stored tree (the adversary answers from the judge's line: the longest defence; where
no line is known the exercise ends there and says so); one that loses is refused; one
the judge cannot settle within its node limit is refused as not judged.

Commands: an action in the game's notation, ``legal``, ``solution`` (shows
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
from fechtbuch.engines.game import Outcome
from fechtbuch.engines.gameloop import Command, PromptLoop
from fechtbuch.puzzles.pack import PackTerms, SolutionMode, find_puzzle, pack_kind
from fechtbuch.puzzles.packkind import JUDGE_NODES, PackKind, Puzzle, Verdict
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode

Writer = Callable[[str], None]


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
    open_end: bool = False
    """Play went beyond the stored tree with a win proved, but no defence was known
    to go on with, so the exercise ended there (not counted as solved)."""


@dataclass(frozen=True)
class _Step:
    """A solver node the person acted at, for ``undo``."""

    node: TreeNode
    turns_left: int
    actions: int
    line: tuple[str, ...]


class TreePlay(PromptLoop[TreePlayResult]):
    """One puzzle played in the terminal (see the module docstring), on the shared
    prompt loop: the defence is the computer seat, the person the solver's."""

    def __init__(
        self,
        kind: PackKind,
        puzzle: Puzzle,
        inp: TextIO,
        write: Writer,
        *,
        pruned: bool = False,
        colour: bool = False,
        judge_nodes: int = JUDGE_NODES,
    ):
        super().__init__(inp, lambda text, newline=True: write(text))
        self.kind = kind
        self.judge_nodes = judge_nodes
        self.puzzle = puzzle
        self.tree = PuzzleTree(kind, puzzle)
        self.node: TreeNode = self.tree.root
        self.pruned = pruned
        self.colour = colour
        self.result = TreePlayResult()
        self.history: list[_Step] = []
        self.turns_left: int = puzzle["n"]
        self.line: tuple[str, ...] = ()
        """Beyond the stored tree: the rest of the last exact judgement's main line."""

    def run(self) -> TreePlayResult:
        puzzle = self.puzzle
        self.write(
            f"{self.kind.title} exercise {puzzle['id']}: win within {puzzle['n']} own "
            "turns, whatever the defence.  Type help for the commands."
        )
        return super().run()

    # ---- the loop's hooks ---------------------------------------------------------
    def ended(self) -> TreePlayResult | None:
        if self.result.open_end:
            return self.result
        leaf = self._decided(self.node)
        if leaf is None:
            return None
        self.result.solved, self.result.leaf = True, leaf
        help_note = " with help" if self.result.helped else ""
        self.write(f"Solved{help_note}: {leaf}.")
        return self.result

    def to_act(self) -> int:
        """0: the solver's side (the person), 1: the defence."""
        return 0 if self.tree.solver_to_act(self.node) else 1

    def is_computer(self, seat: int) -> bool:
        return seat == 1

    def computer_turn(self, seat: int) -> None:
        """The adversary's longest defence; beyond the stored tree the rest of the
        judged line, and where none is known the exercise ends open."""
        node = self.node
        if node.tree is not None:
            reply = self.tree.longest_defence(node)
        elif self.line and self.line[0] in self.tree.legal(node):
            reply, self.line = self.line[0], self.line[1:]
        else:
            self.write(
                "The win is proved, but no defence is known here beyond the stored "
                "solution, so the exercise ends without a verdict on the rest."
            )
            self.result.open_end = True
            return None
        self.write(f"Defence: {reply}")
        self.result.actions.append(reply)
        self.node = self.tree.step(node, reply)
        return None

    def before_prompt(self, seat: int) -> None:
        self.write("")
        self.write(self.kind.board_text(self.node.state, self.colour))
        self.write(f"Your action ({self.turns_left} own turns left):")

    def read_line(self, seat: int) -> str | None:
        line = self.inp.readline()
        return line.strip() if line else None

    def empty_line(self) -> None:
        self.say_help()

    def quit_outcome(self) -> TreePlayResult:
        self.result.quit = True
        return self.result

    def _decided(self, node: TreeNode) -> str | None:
        """The rule that decided at ``node`` (a leaf, or a win beyond the stored tree)."""
        if node.is_leaf:
            return node.tree
        if node.tree is None and self.tree.problem.outcome(node.state) is Outcome.WIN:
            return "win (beyond the stored solution)"
        return None

    # ---- commands -----------------------------------------------------------------
    def _legal(self, rest: str) -> None:
        self.write("Legal: " + ", ".join(sorted(self.tree.legal(self.node))))

    def _solution(self, rest: str) -> None:
        node = self.node
        if node.tree is None and not self.line:
            self.write("No key is known here beyond the stored solution.")
            return None
        self.result.helped = True
        key = self.line[0] if node.tree is None else self.tree.best_action(node)
        self.write(f"A key: {key}")
        return None

    def _undo(self, rest: str) -> None:
        if not self.history:
            self.write("Nothing to take back.")
            return None
        step = self.history.pop()
        self.turns_left, self.line = step.turns_left, step.line
        del self.result.actions[step.actions :]
        self.write("Taken back.")
        self.node = step.node
        return None

    def play_text(self, text: str) -> None:
        node = self.node
        legal = self.tree.legal(node)
        action = text if text in legal else _match(legal, text)
        if action is None:
            self.write(f"Not a legal action here: {text!r} (type legal for the list).")
            return None
        after = self.tree.step(node, action)
        line: tuple[str, ...] = ()
        if after.tree is None:
            if node.tree is None and self.line[:1] == (action,):
                line = self.line[1:]  # the judged line goes on: nothing new to judge
            else:
                judged = self._judge(node, action, legal[action][0])
                if judged is None:
                    self.result.mistakes += 1
                    return None
                line = judged
        self.history.append(_Step(node, self.turns_left, len(self.result.actions), self.line))
        if self.tree.problem.counts_turn(node.state, legal[action][0]):
            self.turns_left -= 1
        self.line = line
        self.result.actions.append(action)
        self.node = after
        return None

    def _judge(self, node: TreeNode, text: str, action) -> tuple[str, ...] | None:
        """An action the stored tree does not hold: its line when it keeps the win
        (the exact judge says so), else ``None`` after saying why it is refused."""
        turns = self.turns_left
        within = f"your {turns} own turn{'s' if turns != 1 else ''}"
        complete = node.tree is not None and node.adversary_moves < self.kind.full_defences
        if not self.pruned or complete:
            self.write(
                f"The sure path is lost: after {text} the defence holds out beyond "
                f"{within}. Take another action (solution shows a key)."
            )
            return None
        if self.kind.judge is None:
            self.write(
                f"{text} leaves the stored solution: past the cut this pack keeps only the "
                "main line, and this game has no exact judge, so it cannot say whether it "
                "still wins. Take another action (solution shows the stored one)."
            )
            return None
        judgement = self.kind.judge(self.tree.problem, node.state, action, turns, self.judge_nodes)
        if judgement.verdict is Verdict.KEEPS:
            self.write(
                f"Exact ({judgement.source}): {text} keeps the win within {within}; "
                "play goes on beyond the stored solution."
            )
            return judgement.line
        if judgement.verdict is Verdict.LOSES:
            self.write(
                f"Exact ({judgement.source}): the sure path is lost: after {text} the "
                f"defence holds out beyond {within}. Take another action."
            )
            return None
        self.write(
            f"{text} leaves the stored solution and could not be judged within the limits "
            f"of {judgement.source} ({judgement.note or 'a limit'}), so it cannot count. "
            "Take another action (solution shows the stored one)."
        )
        return None


TreePlay.commands = (
    Command("legal", "list the legal actions here", TreePlay._legal),
    Command(
        "solution", "show a key (the puzzle then counts as solved with help)", TreePlay._solution
    ),
    Command("undo", "take back your last action and the defence to it", TreePlay._undo),
    Command("help", "this list", PromptLoop.say_help, aliases=("?",)),
    Command("quit", "stop", PromptLoop.quit, aliases=("exit", "q")),
)
TreePlay.action_help = "Type an action in the game's notation (legal lists them)."


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
    judge_nodes: int = JUDGE_NODES,
) -> TreePlayResult:
    """Play one puzzle of ``kind`` on its stored tree (see the module docstring)."""
    play = TreePlay(kind, puzzle, inp, write, pruned=pruned, colour=colour, judge_nodes=judge_nodes)
    return play.run()


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
