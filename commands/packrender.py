"""``fechtbuch pack html`` (a page to browse a pack) and ``fechtbuch pack svg``
(diagrams of a pack's puzzles), for every game: a version-2 pack gets the generic
page and its kind's board drawings; a version-1 pack (Battleklinge's format) its
kind's own page and diagrams (:class:`~fechtbuch.puzzles.packkind.Version1Views`).
This module imports no game."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.commands.options import int_range
from fechtbuch.commands.packfile import PACK_FILE
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write
from fechtbuch.puzzles import packpage
from fechtbuch.puzzles.pack import load_pack, pack_kind
from fechtbuch.puzzles.packkind import PackKind, Version1Views
from fechtbuch.puzzles.pagekit import LANGUAGES

OUTPUT = click.Path(dir_okay=False, writable=True)


def _version_1(kind: PackKind) -> Version1Views:
    if kind.version_1 is None:
        raise InputError(f"version: {kind.title} packs have no version-1 format")
    return kind.version_1


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
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The language the page starts in (default: the browser's, German when it is "
    "neither); the page offers both.",
)
def pack_html(
    pack_file: Path, output: str | None, force: bool, no_verdicts: bool, lang: str | None
) -> None:
    """Write one self-contained HTML page to browse PACK and try its puzzles.

    No network and no other files: open it in any browser.  Any game: a
    version-1 (Battleklinge) pack gets the board you click on (a piece, then
    its target); a version-2 pack a page that offers the legal actions as
    buttons.  Either way the defence answers with the longest resistance and
    the page says at once whether the sure path still holds; past the cut of a
    pruned tree every other action carries its exact verdict, computed now.
    The page speaks German and English (a choice on the page); it starts in
    the language --lang names, else in the browser's, else in German.

    \b
      fechtbuch pack html fechtuebungen            # writes fechtuebungen.html
      fechtbuch pack html touche-uebungen --lang en
    """
    output = output or f"{Path(pack_file).stem}.html"
    data = load_pack(pack_file)
    kind = pack_kind(data)
    if data["version"] == 1:  # a version-1 pack has its game's own page
        page = _version_1(kind).page(data, lang)
    else:
        page = packpage.pack2_html(data, verdicts=not no_verdicts, lang=lang)
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
    kind = pack_kind(data)
    if data["version"] == 1:
        _version_1(kind).check(data)
    elif key:
        raise InputError("--key: only for version-1 packs (drawn by their game's own page)")
    for number, puzzle in _chosen(data["puzzles"], count, numbers):
        target = Path(directory) / f"puzzle-{puzzle['n']}-{number:02d}.svg"
        if data["version"] == 1:
            svg = _version_1(kind).diagram(puzzle, number, key)
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
