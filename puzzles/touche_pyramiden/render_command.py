"""The pyramid game's drawing for ``fechtbuch render`` (and ``fechtbuch pyramiden
render``): a full state or a view as SVG."""

from __future__ import annotations

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.state import RULESET
from fechtbuch.puzzles.touche_pyramiden.svg import board_svg


def is_pyramid_position(text: str) -> bool:
    """Whether ``text`` is in the pyramid game's notation (it starts with the ruleset)."""
    return text.strip().startswith(RULESET + " ")


def svg_if_pyramid(text: str, move: str | None = None, flip: bool = False) -> str | None:
    """The plugin's drawing: :func:`position_svg` for text in the pyramid game's
    notation, ``None`` for any other text.  The board has no moves to draw and one
    side only."""
    if not is_pyramid_position(text):
        return None
    if move is not None or flip:
        raise InputError("--move/--flip: a Touché pyramids board is drawn without them")
    return position_svg(text)


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
