"""Commands that draw: ``fechtbuch render`` (one SVG diagram), ``fechtbuch pack html``
(a page to browse a pack) and ``fechtbuch pack svg`` (diagrams of a pack's puzzles)."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.svg import render_svg
from fechtbuch.engines.clikit import MOVE, POSITION, atomic_write, int_range
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles import viewer
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.pack_commands import pack

OUTPUT = click.Path(dir_okay=False, writable=True)


@click.command()
@click.argument("position", type=POSITION)
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
def render(position: Position, move: Move | None, flip: bool, output: str, force: bool) -> None:
    """Draw POSITION as an SVG diagram: board, pieces, both hands, the side card.

    The school to move is at the bottom unless --flip.  Each card shows its
    name and 5x5 move grid, oriented for its holder.

    \b
      fechtbuch render 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' \\
          --move ausfall:c1c3 -o start.svg
    """
    svg = render_svg(position, move, flip)
    if output == "-":
        click.echo(svg, nl=False)
        return
    atomic_write(output, svg.encode(), force)
    click.echo(f"wrote {output}")


@pack.command("html")
@click.argument("pack_file", metavar="PACK", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=OUTPUT, required=True, help="The HTML file to write.")
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def pack_html(pack_file: str, output: str, force: bool) -> None:
    """Write one self-contained HTML page to browse PACK and try its puzzles.

    No network and no other files: open it in any browser.  Click a piece,
    then its target; the page says at once whether the sure path still holds.
    """
    data = load_pack(pack_file)
    atomic_write(output, viewer.pack_html(data).encode(), force)
    click.echo(f"wrote {output} ({len(data['puzzles'])} puzzles)")


@pack.command("svg")
@click.argument("pack_file", metavar="PACK", type=click.Path(dir_okay=False))
@click.option("-d", "--directory", type=click.Path(file_okay=False), required=True)
@click.option("--count", type=int_range(1), help="Only the first COUNT puzzles.")
@click.option(
    "--only",
    "numbers",
    type=int_range(1),
    multiple=True,
    help="Only puzzle NUMBER (from 1, in pack order); repeatable.",
)
@click.option("--key", is_flag=True, help="Draw the key as an arrow (gives the answer away).")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def pack_svg(
    pack_file: str,
    directory: str,
    count: int | None,
    numbers: tuple[int, ...],
    key: bool,
    force: bool,
) -> None:
    """Write an SVG diagram of each puzzle of PACK into DIRECTORY.

    Files are named puzzle-<N>-<number>.svg (N the hit distance, numbers from 1
    in pack order), so the README's links stay put when a pack is re-made.
    """
    data = load_pack(pack_file)
    viewer.check_pack(data)
    puzzles = data["puzzles"]
    for number in numbers:
        if number > len(puzzles):
            raise InputError(f"--only: puzzle {number} does not exist; PACK has {len(puzzles)}")
    for number, puzzle in enumerate(puzzles[:count], start=1):
        if numbers and number not in numbers:
            continue
        position = Position.from_text(puzzle["position"])
        move = Move.from_text(puzzle["key"]) if key else None
        target = Path(directory) / f"puzzle-{puzzle['n']}-{number:02d}.svg"
        school, n = COLOR_NAMES[position.turn], puzzle["n"]
        note = f"Puzzle {number}: {school} to move and hit in {n} (Treffer in {n})."
        if key:
            note += f" Key: {puzzle['key']}."
        atomic_write(target, render_svg(position, move, note=note).encode(), force)
        click.echo(f"wrote {target}")
