"""``fechtbuch render``: a position of any game as an SVG diagram, drawn by its plugin.

Each plugin that draws names a function ``(text, move, flip) -> SVG`` (its ``svg``
reference) that returns ``None`` for text in another game's notation; the command
asks the games in registry order (or only the one ``--game`` names, or the group's own
game in ``fechtbuch GAME render``) and writes the first drawing.
"""

from __future__ import annotations

import click
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import atomic_write
from fechtbuch.engines.plugin import GamePlugin, load
from fechtbuch.engines.registry import plugin, plugins


def drawing(text: str, games: list[GamePlugin], move: str | None, flip: bool) -> str:
    """The SVG of ``text`` by the first of ``games`` whose notation it is."""
    for entry in games:
        if entry.svg is not None:
            svg = load(entry.svg)(text, move=move, flip=flip)
            if svg is not None:
                return svg
    names = ", ".join(entry.title for entry in games if entry.svg is not None) or "none"
    raise InputError(f"position: {quote(text)} is in no notation of the games that draw ({names})")


def render_command(slug: str | None = None) -> click.Command:
    """The ``render`` command: of every game (``slug`` None, with ``--game``) or of one."""

    @click.command("render")
    @click.argument("position")
    @click.option("--move", help="Draw an arrow for this move (Battleklinge; must be legal).")
    @click.option("--flip", is_flag=True, help="Draw from the other side (Battleklinge).")
    @click.option(
        "-o", "--output", type=click.Path(dir_okay=False), required=True,
        help="The SVG file to write ('-' for standard output).",
    )  # fmt: skip
    @click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
    @click.option(
        "--game", "game", default=slug, hidden=slug is not None,
        help="The game whose notation POSITION is in (default: told by the notation).",
    )  # fmt: skip
    def render(
        position: str, move: str | None, flip: bool, output: str, force: bool, game: str | None
    ) -> None:
        """Draw POSITION as an SVG diagram, as its game draws it: Battleklinge's board,
        pieces, both hands and side card (the school to move at the bottom unless
        --flip; --move adds an arrow); the pyramid game's full states and views (which
        start with ``pyramiden-1``).  The game is told by the notation.

        \b
        Examples:
          fechtbuch render 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' \\
              --move ausfall:c1c3 -o start.svg
          fechtbuch render "$(fechtbuch pyramiden new --players 2 --pattern linie)" -o p.svg
        """
        games = [plugin(game)] if game else list(plugins())
        svg = drawing(position, games, move, flip)
        if output == "-":
            click.echo(svg, nl=False)
            return
        atomic_write(output, svg.encode(), force)
        click.echo(f"wrote {output}")

    return render
