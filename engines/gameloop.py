"""One terminal play loop for every game: a prompt, commands, actions, computer seats.

:class:`PromptLoop` is the loop every game's terminal play runs on (Battleklinge's
session, the duel's session, the pyramids' table, an exercise on its solution tree
and the generic play of a plugin without commands of its own).  It owns what is the
same everywhere: whose turn it is, a computer seat acting by itself, a person's line
read from any text stream (end of input quits), the hand-over between two people at
one keyboard, the first word of a line looked up in the game's :class:`Command` table
(any case, aliases too, ``help`` generated from it) and anything else read as an
action.  What differs is a hook: how the state is shown, how a line becomes an action,
which commands there are, what ends the game.

:func:`play` is that loop on the :class:`~fechtbuch.engines.game.Game` seam alone, so
a new game plays in the terminal with no code of its own:

>>> from fechtbuch.engines.registry import game
>>> out = []
>>> result = play(game("battleklinge"), game("battleklinge").parse_state(
...     "2m2/5/2S2/5/2M2 g ausfall,volte bindung,stoss riposte"),
...     seats={1: lambda state: "bindung:c5c4"}, lines=iter(["ausfall:c3c5"]),
...     write=out.append)
>>> result.returns, result.actions
((1.0, 0.0), ['ausfall:c3c5'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game

Outcome = TypeVar("Outcome")
Loop = TypeVar("Loop", bound="PromptLoop")


@dataclass(frozen=True)
class Command(Generic[Loop]):
    """One command at the prompt: its word, what it does (for ``help``), the method
    that does it (``handler(loop, rest)``, ``rest`` the line after the word; a
    non-``None`` return ends the game with that outcome), the argument it takes (as
    ``help`` shows it), other words for it, and where it applies (``applies(loop)``;
    elsewhere the word is read as an action, as any unknown word is)."""

    name: str
    help: str
    handler: Callable[[Loop, str], Any]
    argument: str = ""
    aliases: tuple[str, ...] = ()
    applies: Callable[[Loop], bool] | None = None

    @property
    def usage(self) -> str:
        return f"{self.name} {self.argument}".strip()

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


class PromptLoop(Generic[Outcome]):
    """The loop (:meth:`run`) and the command table; a game's terminal play subclasses
    it and fills in the hooks below.  ``commands`` lists the table in the order
    ``help`` shows it; ``action_help`` says how to type an action."""

    commands: tuple[Command, ...] = ()
    action_help: str = ""

    def __init__(self, inp: Any, write: Callable[..., None]) -> None:
        self.inp = inp
        self.write = write

    # ---- hooks --------------------------------------------------------------------
    def ended(self) -> Outcome | None:
        """The outcome when the game is over (said here), else ``None``."""
        raise NotImplementedError

    def to_act(self) -> int:
        """The seat to act."""
        raise NotImplementedError

    def is_computer(self, seat: int) -> bool:
        return False

    def computer_turn(self, seat: int) -> Outcome | None:
        """A computer seat acts (and says so); an outcome ends the game."""
        raise NotImplementedError

    def hand_over(self, seat: int) -> bool:
        """Two people at one keyboard: hide the board until ``seat`` is ready; False
        when the input ended."""
        return True

    def turn_started(self, seat: int) -> None:
        """A person's turn begins (a game clock starts counting here)."""

    def turn_over(self, seat: int) -> Outcome | None:
        """A person's line has come: an outcome (their time ran out) ends the game."""
        return None

    def before_prompt(self, seat: int) -> None:
        """Show what ``seat`` needs before it types (the board, warnings)."""

    def prompt(self, seat: int) -> str:
        return "> "

    def read_line(self, seat: int) -> str | None:
        """A line for ``seat`` (stripped), ``None`` at the end of the input.  The clock
        of a game that has one runs around this call."""
        self.write(self.prompt(seat), newline=False)
        line = self.inp.readline()
        return line.strip() if line else None

    def empty_line(self) -> Outcome | None:
        return None

    def play_text(self, text: str) -> Outcome | None:
        """A line that names no command: an action in the game's notation."""
        raise NotImplementedError

    def quit_outcome(self) -> Outcome:
        """The outcome when a person quits or the input ends."""
        raise NotImplementedError

    def finish(self, outcome: Outcome) -> Outcome:
        """Said and saved once the game ends, whichever way."""
        return outcome

    # ---- the loop -----------------------------------------------------------------
    def run(self) -> Outcome:
        while True:
            outcome = self.ended()
            if outcome is not None:
                return self.finish(outcome)
            seat = self.to_act()
            if self.is_computer(seat):
                outcome = self.computer_turn(seat)
                if outcome is not None:
                    return self.finish(outcome)
                continue
            if not self.hand_over(seat):
                return self.finish(self.quit_outcome())
            self.before_prompt(seat)
            self.turn_started(seat)
            line = self.read_line(seat)
            outcome = self.turn_over(seat)
            if outcome is not None:
                return self.finish(outcome)
            if line is None:
                return self.finish(self.quit_outcome())
            outcome = self.handle(line)
            if outcome is not None:
                return self.finish(outcome)

    def handle(self, line: str) -> Outcome | None:
        """A command if the first word names one that applies here, else an action."""
        if not line:
            return self.empty_line()
        word, _, rest = line.partition(" ")
        command = self.command_named(word)
        if command is not None:
            return command.handler(self, rest.strip())
        return self.play_text(line)

    def command_named(self, word: str) -> Command | None:
        """The command that ``word`` names (any case, aliases too), if it applies here."""
        word = word.lower()
        for command in self.commands:
            if word in command.names():
                return command if command.applies is None or command.applies(self) else None
        return None

    def help_text(self) -> str:
        """What ``help`` prints: how to type an action, then every command that applies."""
        shown = [c for c in self.commands if c.applies is None or c.applies(self)]
        width = max(len(c.usage) for c in shown)
        lines = [self.action_help, "Commands:"] if self.action_help else ["Commands:"]
        for command in shown:
            others = ", ".join(f"'{alias}'" for alias in command.aliases)
            also = f" (also {others})" if others else ""
            lines.append(f"  {command.usage.ljust(width)}  {command.help}{also}")
        return "\n".join(lines)

    def say_help(self, rest: str = "") -> None:
        self.write(self.help_text())

    def quit(self, rest: str = "") -> Outcome:
        """The quit command of every game: it ends the game as the end of input does."""
        return self.quit_outcome()


@dataclass
class LoopResult:
    """How a game in the loop ended: ``returns`` at its end (``None`` when a person
    quit), the actions in notation, the final state."""

    state: Any
    actions: list[str] = field(default_factory=list)
    returns: tuple[float, ...] | None = None
    quit_by: int | None = None


def _lines_as_stream(lines: Iterator[str]):
    """An iterator of lines with the ``readline`` of a text stream ('' at the end)."""

    class Stream:
        def readline(self) -> str:
            line = next(lines, None)
            return "" if line is None else line + "\n"

    return Stream()


class SeamLoop(PromptLoop[LoopResult]):
    """The loop on the :class:`Game` seam alone: each seat sees its information state
    (a hidden hand stays hidden from the other seats); ``?`` lists the legal actions."""

    action_help = "Type an action in the game's notation."

    def __init__(
        self,
        game: Game,
        state: Any,
        seats: dict[int, Callable[[Any], Any]],
        lines: Iterator[str],
        write: Callable[[str], None],
        render: Callable[[Any, int], str] | None = None,
        max_plies: int = 10_000,
    ) -> None:
        super().__init__(_lines_as_stream(lines), lambda text, newline=True: write(text))
        self.game = game
        self.state = state
        self.seats = seats
        self.say = write
        self.draw = render or (lambda s, p: game.information_state(s, p))
        self.plies_left = max_plies
        self.result = LoopResult(state)

    def ended(self) -> LoopResult | None:
        if self.game.is_terminal(self.state):
            self.result.returns = self.game.returns(self.state)
            self.say(f"Game over: {', '.join(f'{r:g}' for r in self.result.returns)}")
            return self.result
        return self.result if self.plies_left <= 0 else None

    def to_act(self) -> int:
        return self.game.current_player(self.state)

    def is_computer(self, seat: int) -> bool:
        return seat in self.seats

    def computer_turn(self, seat: int) -> None:
        action = self.seats[seat](self.state)
        self.say(f"Player {seat + 1} plays {self.game.format_action(self.state, action)}")
        self._apply(action)

    def turn_started(self, seat: int) -> None:
        """A person's turn begins (a game clock starts counting here)."""

    def turn_over(self, seat: int) -> Outcome | None:
        """A person's line has come: an outcome (their time ran out) ends the game."""
        return None

    def before_prompt(self, seat: int) -> None:
        self.say(self.draw(self.state, seat))

    def read_line(self, seat: int) -> str | None:
        self.say(f"Player {seat + 1} to act (an action in notation, 'help' for more):")
        line = self.inp.readline()
        return line.strip() if line else None

    def legal(self) -> dict[str, Any]:
        return {
            self.game.format_action(self.state, a): a for a in self.game.legal_actions(self.state)
        }

    def play_text(self, text: str) -> None:
        try:
            parsed = self.game.format_action(self.state, self.game.parse_action(self.state, text))
        except InputError as err:
            self.say(f"Not understood: {err}")
            return None
        legal = self.legal()
        if parsed not in legal:
            self.say(f"Not legal here: {parsed}")
            return None
        self._apply(legal[parsed])
        return None

    def _apply(self, action: Any) -> None:
        self.result.actions.append(self.game.format_action(self.state, action))
        self.state = self.result.state = self.game.apply(self.state, action)
        self.plies_left -= 1

    def _legal(self, rest: str) -> None:
        self.say("Legal: " + " ".join(self.legal()))

    def quit_outcome(self) -> LoopResult:
        seat = self.to_act()
        self.result.quit_by = seat
        self.say(f"Player {seat + 1} quits.")
        return self.result

    commands = (
        Command("legal", "list the legal actions here", _legal, aliases=("?",)),
        Command("help", "this list", PromptLoop.say_help),
        Command("quit", "stop the game", PromptLoop.quit, aliases=("q", "exit")),
    )


def play(
    game: Game,
    state: Any,
    seats: dict[int, Callable[[Any], Any]],
    lines: Iterator[str],
    write: Callable[[str], None],
    render: Callable[[Any, int], str] | None = None,
    max_plies: int = 10_000,
) -> LoopResult:
    """Play from ``state``: ``seats`` maps a player to a computer (full state ->
    action); every other player is a person typing lines.  ``render(state, player)``
    draws what that player sees (default: the information state's notation)."""
    return SeamLoop(game, state, seats, lines, write, render, max_plies).run()
