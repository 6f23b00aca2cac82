"""``fechtbuch pyramiden render``: a full state or a view as an SVG file."""

from __future__ import annotations

import click
from fechtbuch.engines.clikit import atomic_write
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.puzzles.pyramiden.svg import board_svg


@click.command("render")
@click.argument("position")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="SVG file.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT.")
def render_command(position, output, force):
    """Draw POSITION (a full state or a view) as SVG: cards, free fields, pyramids
    (team colour and shape), crowned fields, coordinates.

    \b
    Example:
      fechtbuch pyramiden render "$(fechtbuch pyramiden new --players 2)" -o board.svg
    """
    if " sicht=" in position:
        view = notation.parse_view(position)
        own, crowned, pattern = view.own, view.crowned, view.pattern
    else:
        state = notation.parse_state(position)
        own, crowned, pattern = state.own, state.crowned, state.pattern
    title = f"Touché, {pattern.value if pattern else 'pattern to choose'}"
    atomic_write(output, board_svg(own, crowned, title).encode(), force=force)
    return 0
