"""The game loop of ``fechtbuch play``: one game in a terminal, any mode.

A :class:`Session` owns the game (start position, moves, positions), two
seats (a person, or a move chooser for the computer), the board options and
the commands.  It reads lines from any text stream, so tests drive it through
stdin exactly like a person.

Commands at the prompt: a move (``c1c3``, ``c1c3 ausfall``, ``ausfall:c1c3``,
``pass ausfall``), ``hint``, ``undo``, ``flip``, ``card ID`` (what the opponent
reaches with that card once you give it away), ``warnings on|off``, ``moves``,
``save FILE``, ``resign``, ``abort``, ``help``, ``quit``; in exercises also
``solution``.  They are one table, ``Session.commands``, which ``help`` lists.

An exercise whose tree is *pruned* (a version-2 pack with ``"solution": "pruned"``
keeps every winning move only up to the first few defences, then the main line) is
not judged by the tree past that cut: a move the tree does not hold there leaves
the stored part and is judged exactly by an :class:`ExactJudge` (the caller's
solver or endgame table; this layer imports neither), and so is every later move.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Protocol, TextIO

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import (
    CARDS,
    COLOR_CHARS,
    COLOR_NAMES,
    CardError,
    card_from_id,
)
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.terminal.moveinput import read_move
from fechtbuch.engines.battleklinge.terminal.warnings import card_gift_lines, warning_lines
from fechtbuch.engines.battleklinge.textboard import draw_position
from fechtbuch.engines.clock import GameClock
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Verdict
from fechtbuch.engines.gameloop import Command, PromptLoop

Chooser = Callable[[Position, list[Position]], Move]
Writer = Callable[..., None]
"""``write(text, newline=True)``: where the session prints."""

MOVE_HELP = """Type a move: 'c1c3', 'c1c3 ausfall' (name the card when two reach it),
'ausfall:c1c3', or 'pass ausfall' when no piece can move."""


@dataclass
class Outcome:
    """How a session ended: ``winner`` 0/1, or None with ``how`` in
    {"aborted", "quit", "resigned", "time"} (resigned/time also set winner)."""

    winner: int | None
    how: str
    helped: bool = False
    puzzle_solved: bool = False


@dataclass(frozen=True)
class Judgement:
    """An exact answer for the position after an attacker's move (defender to move)."""

    verdict: Verdict
    source: str
    """Who answered, for the message: "the endgame tables", "df-pn"."""
    defence: Move | None = None
    """When forced: the defender's reply that delays the hit longest."""


class ExactJudge(Protocol):
    """Exact answers off the stored tree (the ``play`` command passes the solver)."""

    def after_move(self, position: Position, own_moves_left: int) -> Judgement:
        """Is the side not to move in ``position`` hit within ``own_moves_left`` own
        moves of its opponent, whatever it does?"""
        ...

    def key(self, position: Position, own_moves_left: int) -> Move | None:
        """The fastest move that hits within ``own_moves_left`` own moves, if any."""
        ...


@dataclass(frozen=True)
class PuzzleStep:
    """What an exercise knows between two moves; ``undo`` restores one of these."""

    node: dict | str | None
    path_lost: bool
    beyond: bool
    defences: int
    own_moves_left: int
    defence: Move | None


@dataclass
class PuzzlePlay:
    """A pack exercise being played: the tree node that the attacker faces now.

    ``full_defences`` is ``None`` for a complete tree; for a pruned one, the number of
    defender moves up to which the tree holds every winning move (below that it is
    judged by ``judge``, see the module docstring)."""

    puzzle: dict
    full_defences: int | None = None
    judge: ExactJudge | None = None
    node: dict | str | None = None
    path_lost: bool = False
    beyond: bool = False
    """Past the stored part of a pruned tree: every move is judged exactly."""
    defences: int = 0
    """Defender moves played so far."""
    own_moves_left: int = 0
    """Own moves the attacker has left for the hit (N at the start)."""
    defence: Move | None = None
    """Beyond the stored part: the defender's next reply, from the last judgement."""
    history: list[PuzzleStep] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.node = self.puzzle["solution"]
        self.own_moves_left = self.puzzle["n"]

    def snapshot(self) -> PuzzleStep:
        return PuzzleStep(**{f.name: getattr(self, f.name) for f in fields(PuzzleStep)})

    def restore(self, step: PuzzleStep) -> None:
        for f in fields(PuzzleStep):
            setattr(self, f.name, getattr(step, f.name))

    def past_the_cut(self) -> bool:
        """True where a pruned tree no longer holds every winning move."""
        return self.full_defences is not None and self.defences >= self.full_defences


def tree_depth(node) -> int:
    """Own moves the attacker still needs from an attacker node (longest defence)."""
    if node == "hit":
        return 0
    best = None
    for sub in node.values():
        need = 1 if sub == "hit" else 1 + max(tree_depth(a) for a in sub.values())
        best = need if best is None else min(best, need)
    return best


def longest_defence(defender_node: dict) -> str:
    """The defender reply that delays the hit longest; ties by notation text."""
    return max(sorted(defender_node), key=lambda reply: tree_depth(defender_node[reply]))


def fastest_key(attacker_node: dict) -> str:
    """A right move: the one that hits soonest (ties by notation text)."""

    def need(move):
        sub = attacker_node[move]
        return 0 if sub == "hit" else 1 + max(tree_depth(a) for a in sub.values())

    return min(sorted(attacker_node), key=need)


class Session(PromptLoop[Outcome]):
    """Battleklinge at the terminal on the shared prompt loop
    (:mod:`~fechtbuch.engines.gameloop`)."""

    action_help = MOVE_HELP

    def __init__(
        self,
        start: Position,
        computer: dict[int, Chooser],
        inp: TextIO,
        write: Writer,
        *,
        flip: bool = False,
        rotate: bool = False,
        clock: GameClock | None = None,
        warnings: bool = True,
        exercise: PuzzlePlay | None = None,
        hinter: Callable[[Position], str] | None = None,
        names: tuple[str, str] = ("Gold", "Blau"),
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(inp, write)
        self.start = start
        self.moves: list[Move] = []
        self.positions = [start]
        self.computer = computer
        self.flip = flip
        self.rotate = rotate
        self.warnings = warnings
        self.exercise = exercise
        self.hinter = hinter
        self.names = names
        self.helped = False
        self.now = now
        self.clock = clock
        """Both sides' time; the computer's chooser plans from the same object."""
        self.repetition_offered: set = set()
        self.outcome: Outcome | None = None

    # ---- state ---------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.positions[-1]

    def _push(self, move: Move) -> None:
        self.moves.append(move)
        self.positions.append(fast.play(self.position, move))

    def _pop(self) -> None:
        self.moves.pop()
        self.positions.pop()

    def _viewer_flipped(self) -> bool:
        """Draw for the person to move; with one person, always from their side."""
        humans = [c for c in (0, 1) if c not in self.computer]
        if self.rotate:
            viewer = self.position.turn
        else:
            viewer = humans[0] if len(humans) == 1 else 0  # two people: Gold's side
        flipped = viewer != self.position.turn
        return flipped != self.flip

    # ---- output --------------------------------------------------------------
    def show(self) -> None:
        pos = self.position
        self.write("")
        self.write(draw_position(pos, flip=self._viewer_flipped()))
        if self.moves:
            self.write("Moves: " + " ".join(m.to_text() for m in self.moves))
        if self.clock is not None:
            self.write(f"Clock: {self.clock.text(COLOR_NAMES)}")
        if self.rotate and self.moves:
            self.write("\a", newline=False)  # the rulebook's short tone at each turn of the board
        if self.warnings and pos.winner() is None and pos.turn not in self.computer:
            lines, bell = warning_lines(pos, pos.turn)
            for line in lines:
                self.write(line)
            if bell:
                self.write("\a", newline=False)

    # ---- the loop's hooks -----------------------------------------------------
    def run(self) -> Outcome:
        self.show()
        return super().run()

    def ended(self) -> Outcome | None:
        pos = self.position
        winner = pos.winner()
        if winner is not None:
            if self._take_back_after_hit(winner):
                return self.ended()
            return Outcome(winner, "hit", self.helped)
        key = pos.key()
        if [p.key() for p in self.positions].count(key) >= 3 and key not in self.repetition_offered:
            self.repetition_offered.add(key)
            self.write(
                "This position has stood on the board three times. "
                "Type 'abort' to end without a result, or play on."
            )
        return None

    def to_act(self) -> int:
        return self.position.turn

    def is_computer(self, seat: int) -> bool:
        return seat in self.computer

    def computer_turn(self, seat: int) -> Outcome | None:
        pos = self.position
        started = self.now()
        move = self.computer[seat](pos, self.positions[:-1])
        if self._time_is_up(seat, started):
            return Outcome(1 - seat, "time", self.helped)
        self.write(f"{self.names[seat]} plays {move.to_text()}")
        self._push(move)
        self._after_move(move, by_person=False)
        if self.position.winner() is None:
            self.show()
        return None

    def turn_started(self, seat: int) -> None:
        self.turn_began = self.now()

    def turn_over(self, seat: int) -> Outcome | None:
        if self._time_is_up(seat, self.turn_began):
            return Outcome(1 - seat, "time", self.helped)
        return None

    def prompt(self, seat: int) -> str:
        return f"{self.names[seat]}> "

    def quit_outcome(self) -> Outcome:
        return Outcome(None, "quit", self.helped)

    def play_text(self, text: str) -> Outcome | None:
        try:
            move = read_move(self.position, text)
        except InputError as err:
            self.write(f"Not played: {err}")
            return None
        self._push(move)
        self._after_move(move, by_person=True)
        if self.position.winner() is None:
            self.show()
        return None

    def _time_is_up(self, seat: int, started: float) -> bool:
        """Charge ``seat`` the time since ``started``; True (and said) when it ran out."""
        if self.clock is None or not self.clock.spend(seat, self.now() - started):
            return False
        self.write(f"{COLOR_NAMES[seat]}'s time is up.")
        return True

    def _take_back_after_hit(self, winner: int) -> bool:
        """ "Zug zurück" at any time: after a hit a person may still take moves back
        (not after solving an exercise).  True if they did and play goes on."""
        solved = (
            self.exercise is not None and not self.exercise.path_lost and winner == self.start.turn
        )
        if solved or len(self.computer) == 2:
            return False
        self.show()
        self.write(
            f"Treffer: {COLOR_NAMES[winner]} wins. Type 'undo' to take back, "
            "or press Enter to finish."
        )
        line = self.read_line(self.position.turn)
        if line is None or line.lower() != "undo":
            return False
        self._undo()
        return True

    # ---- commands (listed in Session.commands below) --------------------------
    def in_puzzle(self) -> bool:
        return self.exercise is not None

    def _flip(self, rest: str) -> Outcome | None:
        self.flip = not self.flip
        self.show()
        return None

    def _moves(self, rest: str) -> Outcome | None:
        self.write("Moves: " + (" ".join(m.to_text() for m in self.moves) or "none yet"))
        legal = ", ".join(m.to_text() for m in fast.legal_moves(self.position))
        self.write("Legal now: " + legal)
        return None

    def _warnings(self, rest: str) -> Outcome | None:
        if rest not in ("on", "off"):
            self.write("Type 'warnings on' or 'warnings off'.")
            return None
        self.warnings = rest == "on"
        self.write(f"Warnings {rest}.")
        return None

    def _card(self, rest: str) -> Outcome | None:
        try:
            card = card_from_id(rest)
        except CardError as err:
            self.write(f"{err}")
            return None
        if card not in self.position.hands[self.position.turn]:
            self.write(f"{CARDS[card].name} is not in your hand.")
            return None
        for text in card_gift_lines(self.position, card):
            self.write(text)
        return None

    def _resign(self, rest: str) -> Outcome | None:
        self.write(f"{COLOR_NAMES[self.position.turn]} resigns.")
        return Outcome(1 - self.position.turn, "resigned", self.helped)

    def _abort(self, rest: str) -> Outcome | None:
        return Outcome(None, "aborted", self.helped)

    def _after_move(self, move: Move, by_person: bool) -> None:
        ex = self.exercise
        if ex is None:
            return
        ex.history.append(ex.snapshot())  # restored by undo, one entry per move
        if ex.path_lost:
            return
        text = move.to_text()
        if by_person:
            ex.own_moves_left -= 1
            if ex.beyond:
                self._judge_exactly(text)
            elif isinstance(ex.node, dict) and text in ex.node:
                ex.node = ex.node[text]
                if ex.node == "hit":
                    self.write("Treffer! Exercise solved.")
                else:
                    left = tree_depth_after(ex.node)
                    self.write(
                        f"Good: the sure path holds ({left} more own move"
                        f"{'s' if left != 1 else ''} to the hit)."
                    )
            elif ex.past_the_cut() and ex.judge is not None:
                ex.beyond, ex.node = True, None
                self.write(
                    f"{text} leaves the stored part: past the first {ex.full_defences} "
                    "defences this pack keeps only the main line, so it is judged exactly."
                )
                self._judge_exactly(text)
            else:
                ex.path_lost = True
                self.write(
                    f"The sure path is lost: {text} does not force the hit. "
                    "Type 'undo' to try again or 'solution' to see a right move."
                )
        else:
            ex.defences += 1
            if ex.beyond:
                ex.defence = None  # played; the next judgement names the next one
            else:
                assert isinstance(ex.node, dict)
                ex.node = ex.node[text]

    def _judge_exactly(self, text: str) -> None:
        """Beyond the stored tree: does the attacker's move ``text`` still force the hit?"""
        ex = self.exercise
        assert ex is not None and ex.judge is not None
        pos = self.position
        if pos.winner() == self.start.turn:
            self.write("Treffer! Exercise solved (off the stored part, by the rules).")
            return
        left = ex.own_moves_left
        if left == 0:
            judgement = Judgement(Verdict.LOSES, "the rules")
        else:
            judgement = ex.judge.after_move(pos, left)
        if judgement.verdict is Verdict.KEEPS:
            ex.defence = judgement.defence
            self.write(
                f"Exact ({judgement.source}): {text} still forces the hit "
                f"({left} more own move{'s' if left != 1 else ''} at most)."
            )
            return
        ex.path_lost = True
        if judgement.verdict is Verdict.LOSES:
            self.write(
                f"Exact ({judgement.source}): the sure path is lost: {text} does not "
                f"force the hit within the {left} own move{'s' if left != 1 else ''} left. "
                "Type 'undo' to try again or 'solution' to see a right move."
            )
        else:
            self.write(
                f"{text} could not be judged within the limits of {judgement.source}, "
                "so the exercise cannot count it. Type 'undo' to try again."
            )

    def _undo(self, rest: str = "") -> Outcome | None:
        person = self.position.turn
        has_own_move = any(self.positions[i].turn == person for i in range(len(self.moves)))
        if not self.moves or (self.computer and not has_own_move):
            self.write("Nothing to take back.")
            return None
        self.helped = True
        while self.moves:
            mover = self.positions[-2].turn
            self._pop()
            if self.exercise:
                self.exercise.restore(self.exercise.history.pop())
            if mover == person or not self.computer:  # two people: one move back
                break
        self.write("Taken back.")
        self.show()
        return None

    def _hint(self, rest: str = "") -> Outcome | None:
        if self.exercise:
            return self._solution()
        if self.hinter is None:
            self.write("No hint available here.")
            return None
        self.helped = True
        self.write(self.hinter(self.position))
        return None

    def _solution(self, rest: str = "") -> Outcome | None:
        ex = self.exercise
        assert ex is not None
        if not ex.path_lost and ex.beyond and ex.judge is not None:
            key = ex.judge.key(self.position, ex.own_moves_left)
            if key is not None:
                self.helped = True
                self.write(f"Solution (exact, off the stored part): {key.to_text()}")
                return None
        if ex.path_lost or not isinstance(ex.node, dict):
            self.write("The sure path is lost here: 'undo' first to get back on it.")
            return None
        self.helped = True
        self.write(f"Solution: {fastest_key(ex.node)}")
        return None

    def _save(self, rest: str) -> Outcome | None:
        words = rest.split()
        force = "--force" in words
        words = [w for w in words if w != "--force"]
        if len(words) != 1:
            self.write("Type 'save FILE' (add --force to replace an existing file).")
            return None
        try:
            write_record(self, words[0], force=force)
        except InputError as err:
            self.write(f"Not saved: {err}")
            return None
        self.write(f"Saved to {words[0]}.")
        return None

    def finish(self, outcome: Outcome) -> Outcome:
        self.outcome = outcome
        if outcome.how == "hit":
            self.write(f"Treffer: {COLOR_NAMES[outcome.winner]} wins.")
        elif outcome.how == "aborted":
            self.write("Game aborted without a result.")
        if self.exercise and outcome.how == "hit" and not self.exercise.path_lost:
            outcome.puzzle_solved = outcome.winner == self.start.turn
        return outcome


Session.commands = (
    Command(
        "hint", "a suggested move (in an exercise: a right move); counts as help", Session._hint
    ),
    Command("undo", "take back your last move (and the reply); counts as help", Session._undo),
    Command("flip", "turn the board around", Session._flip),
    Command(
        "card",
        "what the opponent reaches once you give that card away",
        Session._card,
        argument="ID",
    ),
    Command("warnings", "threat warnings below the board", Session._warnings, argument="on|off"),
    Command("moves", "the moves so far and the legal moves now", Session._moves),
    Command(
        "save",
        "save the game as a record (add --force to replace a file)",
        Session._save,
        argument="FILE",
    ),
    Command(
        "solution",
        "a right move of the exercise; counts as help",
        Session._solution,
        applies=Session.in_puzzle,
    ),
    Command("resign", "give up: the opponent wins", Session._resign),
    Command("abort", "end the game without a result", Session._abort),
    Command("help", "this list", PromptLoop.say_help),
    Command("quit", "leave the program", PromptLoop.quit, aliases=("exit",)),
)
"""Every command at the prompt, in the order ``help`` lists them; a word that names
no command that applies (``solution`` outside an exercise) is read as a move."""


def game_record(session: Session):
    """The session's game as a record; resignation and time go into a header, since
    the format's result must agree with the moves."""
    from fechtbuch.engines.battleklinge.record import GameRecord

    winner = session.position.winner()
    outcome = session.outcome
    result = COLOR_CHARS[winner] if winner is not None else "*"
    headers = [("Gold", session.names[0]), ("Blau", session.names[1])]
    if outcome is not None and outcome.how == "aborted":
        result = "abgebrochen"
    elif outcome is not None and outcome.how in ("resigned", "time"):
        loser = COLOR_NAMES[1 - outcome.winner]
        how = "resigned" if outcome.how == "resigned" else "lost on time"
        headers.append(("Termination", f"{loser} {how}"))
    return GameRecord(
        start=session.start, moves=tuple(session.moves), result=result, headers=tuple(headers)
    )


def write_record(session: Session, path: str, force: bool = False) -> None:
    from fechtbuch.engines.battleklinge.record import write_game

    write_game(os.path.expanduser(path), game_record(session), force=force)


def tree_depth_after(defender_node: dict) -> int:
    return max(tree_depth(a) for a in defender_node.values())
