"""``fechtbuch show``: a Battleklinge position as a text diagram (or JSON)."""

from __future__ import annotations

import click
from fechtbuch.commands.battleklinge.params import POSITION
from fechtbuch.commands.options import emit_json, json_option
from fechtbuch.engines.battleklinge.cards import (
    COLOR_CHARS,
    card_id,
)
from fechtbuch.engines.battleklinge.position import (
    START_EINSTEIGER,
    Position,
)
from fechtbuch.engines.battleklinge.textboard import draw_position


@click.command("show")
@click.argument("position", type=POSITION, default=START_EINSTEIGER)
@click.option("--flip", is_flag=True, help="Draw from the other school's side.")
@json_option("the position's facts")
def show_command(position: Position, flip: bool, as_json: bool) -> None:
    """Draw POSITION: board with coordinates and banners, both hands, the side card.

    Drawn for the player to move (their school at the bottom); each card shows
    its 5x5 move grid with the piece 'o' in the middle and targets 'x'.
    """
    if as_json:
        from fechtbuch.engines.battleklinge import fast  # the compiled generator's move order

        winner = position.winner()
        emit_json(
            {
                "position": position.to_text(),
                "turn": COLOR_CHARS[position.turn],
                "cards": [card_id(c) for c in position.cards],
                "decided": winner is not None,
                "winner": None if winner is None else COLOR_CHARS[winner],
                "moves": [m.to_text() for m in fast.legal_moves(position)],
            }
        )
        return
    click.echo(draw_position(position, flip=flip))
