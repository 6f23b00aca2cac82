"""Commands that draw: ``fechtbuch render`` (one SVG diagram), ``fechtbuch pack html``
(a page to browse a pack) and ``fechtbuch pack svg`` (diagrams of a pack's puzzles)."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES
from fechtbuch.engines.battleklinge.clitypes import MOVE, POSITION
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.svg import render_svg
from fechtbuch.engines.clikit import atomic_write, int_range
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles import viewer, viewer2
from fechtbuch.puzzles.pack import load_pack, pack_kind
from fechtbuch.puzzles.pack_commands import PACK_FILE
from fechtbuch.puzzles.pyramiden.render_command import is_pyramid_position, position_svg

OUTPUT = click.Path(dir_okay=False, writable=True)


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
    name and 5x5 move grid, oriented for its holder.  A position of the pyramid
    game (it starts with ``pyramiden-1``; a full state or a view) is drawn as its
    board: cards, free fields, pyramids, crowned fields.

    \b
      fechtbuch render 'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte' \\
          --move ausfall:c1c3 -o start.svg
      fechtbuch render "$(fechtbuch pyramiden new --players 2 --pattern linie)" -o p.svg
    """
    if is_pyramid_position(position):
        if move is not None or flip:
            raise click.UsageError("--move and --flip are for Battleklinge positions")
        svg = position_svg(position)
    else:
        svg = render_svg(POSITION.convert(position, None, click.get_current_context()), move, flip)
    if output == "-":
        click.echo(svg, nl=False)
        return
    atomic_write(output, svg.encode(), force)
    click.echo(f"wrote {output}")


@click.command("html")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@click.option(
    "-o",
    "--output",
    type=OUTPUT,
    default=None,
    help="The HTML file to write (default: PACK's name with .html, in this folder).",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
@click.option(
    "--no-verdicts",
    is_flag=True,
    help="Pruned packs: do not judge the actions past the cut (faster, a little smaller; "
    "the page then only says that they leave the stored solution).",
)
def pack_html(pack_file: Path, output: str | None, force: bool, no_verdicts: bool) -> None:
    """Write one self-contained HTML page to browse PACK and try its puzzles.

    No network and no other files: open it in any browser.  Any game: a
    version-1 (Battleklinge) pack gets the board you click on (a piece, then
    its target); a version-2 pack a page that offers the legal actions as
    buttons.  Either way the defence answers with the longest resistance and
    the page says at once whether the sure path still holds; past the cut of a
    pruned tree every other action carries its exact verdict, computed now.

    \b
      fechtbuch pack html fechtuebungen            # writes fechtuebungen.html
    """
    output = output or f"{Path(pack_file).stem}.html"
    data = load_pack(pack_file)
    if data["version"] == 1:
        page = viewer.pack_html(data)
    else:
        page = viewer2.pack2_html(data, verdicts=not no_verdicts)
    atomic_write(output, page.encode(), force)
    click.echo(f"wrote {output} ({len(data['puzzles'])} puzzles)")


@click.command("svg")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@click.option(
    "-d",
    "--directory",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="The folder to write the SVG files into (made if missing).",
)
@click.option("--first", "--count", "count", type=int_range(1), help="Only the first N puzzles.")
@click.option(
    "--puzzle",
    "--only",
    "numbers",
    type=int_range(1),
    multiple=True,
    metavar="NUMBER",
    help="Only puzzle NUMBER (from 1, in pack order); repeatable.",
)
@click.option("--key", is_flag=True, help="Draw the key as an arrow (gives the answer away).")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def pack_svg(
    pack_file: Path,
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
    if data["version"] == 1:
        viewer.check_pack(data)
    elif key:
        raise InputError("--key: only for version-1 (Battleklinge) packs")
    kind = pack_kind(data)
    for number, puzzle in _chosen(data["puzzles"], count, numbers):
        target = Path(directory) / f"puzzle-{puzzle['n']}-{number:02d}.svg"
        if data["version"] == 1:
            svg = _battleklinge_svg(puzzle, number, key)
        else:
            svg = kind.board_svg(kind.problem(puzzle)[1])  # any game: the start, no arrow
        atomic_write(target, svg.encode(), force)
        click.echo(f"wrote {target}")


def _chosen(puzzles: list, count: int | None, numbers: tuple[int, ...]):
    """(number, puzzle) of the first ``count`` puzzles, only ``numbers`` if given."""
    for number in numbers:
        if number > len(puzzles):
            raise InputError(f"--puzzle: puzzle {number} does not exist; PACK has {len(puzzles)}")
    for number, puzzle in enumerate(puzzles[:count], start=1):
        if not numbers or number in numbers:
            yield number, puzzle


def _battleklinge_svg(puzzle: dict, number: int, key: bool) -> str:
    """A version-1 puzzle's diagram with its caption (and the key's arrow)."""
    position = Position.from_text(puzzle["position"])
    move = Move.from_text(puzzle["key"]) if key else None
    school, n = COLOR_NAMES[position.turn], puzzle["n"]
    note = f"Puzzle {number}: {school} to move and hit in {n} (Treffer in {n})."
    if key:
        note += f" Key: {puzzle['key']}."
    return render_svg(position, move, note=note)
