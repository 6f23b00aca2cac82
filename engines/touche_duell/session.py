"""The game loop of ``fechtbuch touche play``: one game to 5 (or 3) points in a terminal.

A :class:`Session` owns the game record (ruleset, shuffle seeds, actions), the seats
(a person, or a computer :class:`~fechtbuch.engines.touche_duell.players.Player`)
and the commands.  It reads lines from any text stream, so tests drive it through
stdin like a person.  With two people at one keyboard each hand is shown only
after a "hand over" prompt, and only to the player to act.

At the prompt: an action (``m+3``, ``m-2``, ``a3x2``, ``l4a2x1``, ``p``, ``r3``,
``-``) or a command: ``hint``, ``undo``, ``legal``, ``resign``, ``save FILE``,
``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TextIO

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.gameloop import Command, PromptLoop
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.notation import parse_action
from fechtbuch.engines.touche_duell.players import Player, stark_score
from fechtbuch.engines.touche_duell.record import GameRecord, game_over, write_game
from fechtbuch.engines.touche_duell.state import (
    NOBODY,
    PLAYER_CHARS,
    Position,
    format_action,
    view_of,
)
from fechtbuch.engines.touche_duell.textboard import draw, warnings

Writer = Callable[..., None]

ACTION_HELP = """Actions: m+3 / m-2 (move forward / back), a3x2 (attack with two 3s),
l4a2x1 (lunge: step 4, attack with one 2), p (parry), r3 (retreat 3), - (no last attack)."""


@dataclass
class Outcome:
    """How a session ended: ``winner`` 0/1 (None: quit or unfinished), ``how`` one of
    ``score``, ``resigned``, ``quit``."""

    winner: int | None
    how: str


class Session(PromptLoop[Outcome]):
    """The duel at the terminal on the shared prompt loop (:mod:`~fechtbuch.engines.gameloop`)."""

    action_help = ACTION_HELP

    def __init__(
        self,
        record: GameRecord,
        computer: dict[int, Player],
        inp: TextIO,
        write: Writer,
        *,
        show_warnings: bool = True,
        hinter: Player | None = None,
        save_to: str | None = None,
        force: bool = False,
    ) -> None:
        super().__init__(inp, write)
        self.record = record
        self.positions = record.positions()
        self.computer = computer
        self.show_warnings = show_warnings
        self.hinter = hinter or Player("stark", "hint")
        self.save_to = save_to
        self.force = force
        self.last_shown_to: int | None = None

    @property
    def position(self) -> Position:
        return self.positions[-1]

    def _humans(self) -> list[int]:
        return [p for p in (0, 1) if p not in self.computer]

    # ---- output -------------------------------------------------------------------
    def show(self) -> None:
        pos = self.position
        humans = self._humans()
        viewer = pos.mover if pos.mover in humans else humans[0]
        view = view_of(pos, viewer)
        self.write("")
        self.write(draw(view))
        if pos.phase.over:
            return
        if pos.mover == viewer:
            legal = " ".join(format_action(a) for a in rules.legal_actions(pos))
            self.write(f"legal: {legal}")
            if self.show_warnings:
                for line in warnings(view):
                    self.write(line)

    def hand_over(self, player: int) -> bool:
        """Two people: hide the board until the player to act presses Enter."""
        if len(self._humans()) < 2 or self.last_shown_to == player:
            return True
        self.write("")
        self.write(f"Hand over to {PLAYER_CHARS[player]}: press Enter (the other looks away).")
        line = self.inp.readline()
        if not line:
            return False
        self.last_shown_to = player
        return True

    # ---- the loop's hooks ----------------------------------------------------------
    def ended(self) -> Outcome | None:
        pos = self.position
        if not game_over(pos):
            return None
        winner = 0 if pos.score[0] > pos.score[1] else 1
        self.write(f"Game over: {PLAYER_CHARS[winner]} wins {pos.score[0]}:{pos.score[1]}.")
        return Outcome(winner, "score")

    def to_act(self) -> int:
        return self.position.mover

    def is_computer(self, seat: int) -> bool:
        return seat in self.computer

    def computer_turn(self, seat: int) -> None:
        action = self.computer[seat].choose(view_of(self.position, seat))
        self.write(f"{PLAYER_CHARS[seat]} (computer) plays {format_action(action)}")
        self._play(action)

    def before_prompt(self, seat: int) -> None:
        self.show()

    def prompt(self, seat: int) -> str:
        return f"{PLAYER_CHARS[seat]}> "

    def quit_outcome(self) -> Outcome:
        return Outcome(None, "quit")

    def play_text(self, text: str) -> None:
        try:
            action = parse_action(text)
            rules.apply(self.position, action)
        except InputError as err:
            self.write(f"Not played: {err}")
            return None
        self._play(action)
        return None

    def _play(self, action) -> None:
        pos = self.position
        self.record = self.record.with_action(pos, action)
        after = rules.apply(pos, action)
        self.positions.append(after)
        if after.phase.over:
            self._announce_round(after)
            if not game_over(after):
                self.positions = self.record.positions()

    def _announce_round(self, pos: Position) -> None:
        who = "nobody" if pos.winner == NOBODY else PLAYER_CHARS[pos.winner]
        how = {"treffer": "hit", "blockiert": "no legal move", "vergleich": "hand comparison"}
        self.write(
            f"Round over ({how[pos.phase.value]}): {who} wins the round; "
            f"score A {pos.score[0]} : {pos.score[1]} B"
        )

    # ---- commands (listed in Session.commands below) ---------------------------------
    def _legal(self, rest: str) -> None:
        legal = " ".join(format_action(a) for a in rules.legal_actions(self.position))
        self.write("legal: " + legal)

    def _hint(self, rest: str) -> None:
        view = view_of(self.position, self.position.mover)
        action = self.hinter.choose(view)
        self.write(
            f"Hint: {format_action(action)} (card-counting score {stark_score(view, action):+.2f})"
        )

    def _resign(self, rest: str) -> Outcome:
        winner = 1 - self.position.mover
        self.write(f"{PLAYER_CHARS[self.position.mover]} resigns.")
        self.record = replace(
            self.record,
            headers=(*self.record.headers, ("Resigned", PLAYER_CHARS[1 - winner])),
        )
        return Outcome(winner, "resigned")

    def _undo(self, rest: str = "") -> None:
        """Take back to the previous decision of a person (with two people: one action)."""
        actions = list(self.record.actions)
        if not actions:
            self.write("Nothing to undo.")
            return
        while actions:
            actions.pop()
            record = replace(self.record, actions=tuple(actions))
            pos = record.positions()[-1]
            if pos.mover not in self.computer:
                break
        self.record = _trim_shuffles(replace(self.record, actions=tuple(actions)))
        self.positions = self.record.positions()
        self.write(f"Undone: back to {PLAYER_CHARS[self.position.mover]}'s decision.")

    def _save(self, path: str) -> None:
        path = path.strip()
        if not path:
            self.write("Type 'save FILE'.")
            return
        try:
            write_game(path, self.record, force=self.force)
        except InputError as err:
            self.write(f"Not saved: {err}")
            return
        self.write(f"Saved to {path}.")

    def finish(self, outcome: Outcome) -> Outcome:
        if self.save_to:
            write_game(self.save_to, self.record, force=self.force)
            self.write(f"Game record saved to {self.save_to}.")
        return outcome


Session.commands = (
    Command("legal", "the legal actions here", Session._legal),
    Command("hint", "a suggested action with its card-counting score", Session._hint),
    Command("undo", "take back to your previous decision", Session._undo),
    Command("resign", "give up: the opponent wins", Session._resign),
    Command("save", "save the game record so far", Session._save, argument="FILE"),
    Command("help", "this list", PromptLoop.say_help),
    Command("quit", "leave the game", PromptLoop.quit, aliases=("exit",)),
)


def _trim_shuffles(record: GameRecord) -> GameRecord:
    """Drop the shuffle seeds of rounds the remaining actions no longer reach."""
    rounds = 1
    for pos in record.positions()[1:]:
        if pos.phase.over and not game_over(pos):
            rounds += 1
    return replace(record, shuffles=record.shuffles[: max(1, rounds)])
