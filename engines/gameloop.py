"""One terminal play loop for any game on the seam.

People and computer players take seats; the loop shows the state as the seat to
act sees it (the game's information state, so a hidden hand stays hidden from the
other seats), reads an action in the game's notation, checks it with the rules and
applies it, until the game ends or a person quits.  What differs between games is
passed in: how a state is drawn (``render``) and how a line becomes an action
(the game's ``parse_action``), so a new game plays in the terminal with no code of
its own.

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
from typing import Any

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game

HELP = "an action in notation, '?' to list the legal ones, 'q' to quit"


@dataclass
class LoopResult:
    """How a game in the loop ended: ``returns`` at its end (``None`` when a person
    quit), the actions in notation, the final state."""

    state: Any
    actions: list[str] = field(default_factory=list)
    returns: tuple[float, ...] | None = None
    quit_by: int | None = None


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
    draw = render or (lambda s, p: game.information_state(s, p))
    result = LoopResult(state)
    for _ in range(max_plies):
        if game.is_terminal(state):
            result.returns = game.returns(state)
            write(f"Game over: {', '.join(f'{r:g}' for r in result.returns)}")
            break
        player = game.current_player(state)
        if player in seats:
            action = seats[player](state)
            text = game.format_action(state, action)
            write(f"Player {player + 1} plays {text}")
        else:
            write(draw(state, player))
            action = _read_action(game, state, player, lines, write)
            if action is None:
                result.quit_by = player
                write(f"Player {player + 1} quits.")
                break
            text = game.format_action(state, action)
        state = game.apply(state, action)
        result.actions.append(text)
    result.state = state
    return result


def _read_action(game: Game, state: Any, player: int, lines: Iterator[str], write) -> Any:
    legal = {game.format_action(state, a): a for a in game.legal_actions(state)}
    while True:
        write(f"Player {player + 1} to act ({HELP}):")
        line = next(lines, None)
        if line is None or line.strip() in ("q", "quit"):
            return None
        text = line.strip()
        if text == "?":
            write("Legal: " + " ".join(legal))
            continue
        try:
            parsed = game.format_action(state, game.parse_action(state, text))
        except InputError as err:
            write(f"Not understood: {err}")
            continue
        if parsed not in legal:
            write(f"Not legal here: {parsed}")
            continue
        return legal[parsed]
