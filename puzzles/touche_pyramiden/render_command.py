"""``fechtbuch pyramiden render``: a full state or a view as an SVG file (``fechtbuch
render`` draws a pyramid position through :func:`position_svg` too)."""

from __future__ import annotations

import click
from fechtbuch.engines.clikit import atomic_write
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.state import RULESET
from fechtbuch.puzzles.touche_pyramiden.svg import board_svg


def is_pyramid_position(text: str) -> bool:
    """Whether ``text`` is in the pyramid game's notation (it starts with the ruleset)."""
    return text.strip().startswith(RULESET + " ")


def svg_if_pyramid(text: str) -> str | None:
    """The plugin's drawing: :func:`position_svg` for text in the pyramid game's
    notation, ``None`` for any other text."""
    return position_svg(text) if is_pyramid_position(text) else None


def position_svg(text: str) -> str:
    """The SVG of a full state or a view (``sicht=``) of the pyramid game."""
    if " sicht=" in text:
        view = notation.parse_view(text)
        own, crowned, pattern = view.own, view.crowned, view.pattern
    else:
        state = notation.parse_state(text)
        own, crowned, pattern = state.own, state.crowned, state.pattern
    title = f"Touché, {pattern.value if pattern else 'pattern to choose'}"
    return board_svg(own, crowned, title)


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
    atomic_write(output, position_svg(position).encode(), force=force)
    return 0
