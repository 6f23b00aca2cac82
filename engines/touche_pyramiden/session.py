"""The game loop of ``fechtbuch pyramiden play``: one game at a terminal table.

A :class:`Table` seats people and computer players (each computer seat sees only
``view_of(state, seat)``), reads a person's action from any text stream on the shared
prompt loop (:mod:`~fechtbuch.engines.gameloop`) and keeps the actions for the game
record.  With several people at one keyboard (``hotseat``) the screen is cleared and
the next seat presses Enter before its hand is shown.

At the prompt: an action (``7H:c3``, ``XX:-c3``, ``tausch:7H``, ``muster:kvadrat``),
a number from the list, ``?`` (the numbered list of legal actions) or ``q`` (give up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.gameloop import Command, PromptLoop
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.board import field_name
from fechtbuch.engines.touche_pyramiden.patterns import mask_fields
from fechtbuch.engines.touche_pyramiden.state import Phase, State
from fechtbuch.engines.touche_pyramiden.textboard import render

OVER = "over"
RESIGNED = "resigned"


class Table(PromptLoop[str]):
    """One game at the terminal (see the module docstring); :meth:`run` returns
    ``"over"`` or ``"resigned"``."""

    action_help = "Type an action (e.g. 7H:c3) or a number from the list that '?' prints."

    def __init__(
        self,
        state: State,
        humans: set[int],
        computers: dict[int, Any],
        inp: TextIO,
        write: Callable[..., None],
        *,
        strength: str,
        plain: bool,
        hotseat: bool,
    ) -> None:
        super().__init__(inp, write)
        self.state = state
        self.humans = humans
        self.computers = computers
        self.strength = strength
        self.plain = plain
        self.hotseat = hotseat
        self.actions: list = []
        self.last_human: int | None = None
        self.shown: State | None = None

    # ---- the loop's hooks ---------------------------------------------------------
    def ended(self) -> str | None:
        return OVER if self.state.phase is Phase.OVER else None

    def to_act(self) -> int:
        return self.state.to_move

    def is_computer(self, seat: int) -> bool:
        return seat not in self.humans

    def computer_turn(self, seat: int) -> None:
        choice = self.computers[seat].choose(notation.view_of(self.state, seat))
        self.play(choice.action, f"Seat {seat} ({self.strength})")

    def hand_over(self, seat: int) -> bool:
        if not self.hotseat or self.last_human == seat:
            self.last_human = seat
            return True
        self.write("\033[2J\033[H" if not self.plain else "\n" * 30)
        team = self.state.config.team_of(seat) + 1
        self.write(f"Pass the keyboard to seat {seat} (team {team}), then Enter ", newline=False)
        if not self.inp.readline():
            return False
        self.last_human = seat
        return True

    def before_prompt(self, seat: int) -> None:
        if self.shown is not self.state:  # once a turn, not again after a refused line
            self.shown = self.state
            self.write(render(notation.view_of(self.state, seat), colour=not self.plain))

    def prompt(self, seat: int) -> str:
        state, team = self.state, self.state.config.team_of(seat) + 1
        if state.phase is Phase.CHOOSE:
            hint = "Choose the pattern: muster:linie|kvadrat|t-form|kors|kombination"
        elif state.phase is Phase.LEAD:
            members = ", ".join(f"beginnt:{a.field}" for a in rules.legal_actions(state))
            hint = f"Who begins for team {team}? {members}"
        else:
            hint = "Action (e.g. 7H:c3), ? all actions, a number from the list, q resigns"
        return f"Seat {seat}: {hint}\n> "

    def quit_outcome(self) -> str:
        return RESIGNED

    def play_text(self, text: str) -> None:
        legal = rules.legal_actions(self.state)
        try:
            if text.isascii() and text.isdigit():
                number = int(text)
                if not 1 <= number <= len(legal):
                    raise InputError(f"action: number 1-{len(legal)} expected, got {text!r}")
                action = legal[number - 1]
            else:
                action = notation.parse_action(text)
                if not rules.is_legal(self.state, action):
                    raise InputError(f"action: {text!r} is not legal here (? lists the legal ones)")
        except InputError as err:
            self.write(f"Error: {err}")
            return None
        self.play(action, f"Seat {self.state.to_move}")
        return None

    # ---- commands -----------------------------------------------------------------
    def _legal(self, rest: str) -> None:
        self.write(numbered(rules.legal_actions(self.state)))

    def play(self, action, who: str) -> None:
        before = self.state
        after = rules.apply(before, action)
        self.actions.append(action)
        self.write(f"{who}: {notation.format_action(action)}")
        if after.round != before.round:
            won = [
                t for t, (a, b) in enumerate(zip(before.scores, after.scores, strict=True)) if b > a
            ]
            if won:
                fields = " ".join(
                    field_name(f) for f in mask_fields(after.crowned & ~before.crowned)
                )
                self.write(f"Touché! Team {won[0] + 1} completes {before.pattern.value}: {fields}")
            else:
                self.write("The round ends without a point.")
            self.write(
                "Points: " + ", ".join(f"team {t + 1}: {s}" for t, s in enumerate(after.scores))
            )
        self.state = after

    def finish(self, outcome: str) -> str:
        scores = self.state.scores
        if outcome == RESIGNED:
            self.write("Game resigned.")
            return outcome
        best = max(scores)
        winners = [str(t + 1) for t, s in enumerate(scores) if s == best]
        self.write(
            "Game over. Points: "
            + ", ".join(f"Team {t + 1}: {s}" for t, s in enumerate(scores))
            + f". Winner: team {' and '.join(winners)}."
        )
        return outcome


Table.commands = (
    Command("?", "the legal actions, numbered", Table._legal, aliases=("legal", "hilfe", "zuege")),
    Command("help", "this list", PromptLoop.say_help),
    Command("q", "give up", PromptLoop.quit, aliases=("quit", "aufgeben")),
)


def numbered(actions) -> str:
    """The legal actions as a numbered list, eight to a line."""
    items = [f"{i}) {notation.format_action(a)}" for i, a in enumerate(actions, start=1)]
    rows = []
    for i in range(0, len(items), 8):
        rows.append("  ".join(f"{x:<12}" for x in items[i : i + 8]).rstrip())
    return "\n".join(rows)
