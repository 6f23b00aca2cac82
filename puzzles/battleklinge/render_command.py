"""``fechtbuch render``: one Battleklinge position as an SVG diagram (a position of
another game is drawn by that game's plugin), and the diagrams of version-1 pack
puzzles."""

from __future__ import annotations

import click
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES
from fechtbuch.engines.battleklinge.clitypes import MOVE, POSITION
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.svg import render_svg
from fechtbuch.engines.clikit import atomic_write
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import plugins

OUTPUT = click.Path(dir_okay=False, writable=True)


def _other_game_svg(text: str) -> str | None:
    """The drawing of ``text`` by the first other game whose notation it is (its
    errors are that game's), or ``None``."""
    for entry in plugins():
        if entry.slug != "battleklinge" and entry.svg is not None:
            svg = load(entry.svg)(text)
            if svg is not None:
                return svg
    return None


@click.command()
@click.argument("position")
@click.option("--move", type=MOVE, help="Draw an arrow for this move (must be legal).")
@click.option("--flip", is_flag=True, help="Draw from the other school's side.")
@click.option(
    "-o",
    "--output",
    type=OUTPUT,
    required=True,
    help="The SVG file to write ('-' for standard output).",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def render(position: str, move: Move | None, flip: bool, output: str, force: bool) -> None:
    """Draw POSITION as an SVG diagram: board, pieces, both hands, the side card.

    The school to move is at the bottom unless --flip.  Each card shows its
    name and 5x5 move grid, oriented for its holder.  A position of another game
    whose plugin draws SVG (the pyramid game's full states and views, which start
    with ``pyramiden-1``) is drawn as that game draws it.

    \b
      fechtbuch render 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' \\
          --move ausfall:c1c3 -o start.svg
      fechtbuch render "$(fechtbuch pyramiden new --players 2 --pattern linie)" -o p.svg
    """
    other = _other_game_svg(position)
    if other is not None:
        if move is not None or flip:
            raise click.UsageError("--move and --flip are for Battleklinge positions")
        svg = other
    else:
        svg = render_svg(POSITION.convert(position, None, click.get_current_context()), move, flip)
    if output == "-":
        click.echo(svg, nl=False)
        return
    atomic_write(output, svg.encode(), force)
    click.echo(f"wrote {output}")


def puzzle_svg(puzzle: dict, number: int, key: bool) -> str:
    """A version-1 puzzle's diagram with its caption (and the key's arrow)."""
    position = Position.from_text(puzzle["position"])
    move = Move.from_text(puzzle["key"]) if key else None
    school, n = COLOR_NAMES[position.turn], puzzle["n"]
    note = f"Puzzle {number}: {school} to move and hit in {n} (Treffer in {n})."
    if key:
        note += f" Key: {puzzle['key']}."
    return render_svg(position, move, note=note)
