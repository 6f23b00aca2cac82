"""``fechtbuch tb studies``: mine the Meisterstudien pack from endgame tables.

It lives in the puzzle layer (it writes a pack and verifies with df-pn) and is
registered on the engines' ``tb`` group in cli.py.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click
from fechtbuch.commands.battleklinge.tablebase import CARDS_OPTION, TABLES_HELP
from fechtbuch.commands.options import emit_json, int_range, json_option, seed_option
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.files import atomic_write, ensure_writable


@click.command("studies")
@CARDS_OPTION
@click.option(
    "--tables",
    type=click.Path(path_type=Path),
    default=None,
    help=TABLES_HELP + "  Without tables of the card set there, K = 1 tables are built "
    "into a temporary folder.",
)
@click.option(
    "--count",
    type=int_range(1, 200),
    default=24,
    show_default=True,
    help="How many studies.",
)
@click.option(
    "--deep",
    type=int_range(0, 50),
    default=0,
    show_default=True,
    help="Also this many deep studies of three students against one (split 3,1), one "
    "each at the longest distances past 10; the tables must hold split 3,1 (else they "
    "are built into a temporary folder: minutes).",
)
@seed_option(default=17, what="the order in which candidates are visited")
@click.option(
    "-o",
    "--output",
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    required=True,
    help="The pack file to write (version 2).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@json_option("the summary")
def studies_command(
    cards,
    tables: Path | None,
    count: int,
    deep: int,
    seed: int,
    out_file: str,
    force: bool,
    as_json: bool,
) -> None:
    """Mine deep studies from the tables: one student a side, a unique key and a forced
    hit in 10 down to 4 own moves, deepest first, with solution trees pruned to every
    defence at the first two defender moves and the main line below; each confirmed by
    df-pn where it reaches, each with a witness game from a legal start deal that
    reaches it (a candidate without one is passed over).  Writes a version-2 pack
    (`pack verify`, `play --pack`).

    \b
      fechtbuch tb studies --cards einsteiger --count 24 --seed 17 -o meisterstudien.json
      fechtbuch tb studies --cards einsteiger --count 24 --deep 6 --seed 17 -o studien.json
      fechtbuch play --pack meisterstudien.json --next
    """
    from fechtbuch.engines.battleklinge.cards import card_id
    from fechtbuch.engines.battleklinge.tablebase import Tablebase, build, table_folder
    from fechtbuch.engines.battleklinge.tablebase.build import MANIFEST
    from fechtbuch.puzzles.battleklinge.studies import DEEP_SPLIT, SPLIT, mine_pack
    from fechtbuch.puzzles.pack import pack_bytes

    ensure_writable(out_file, force)
    cards = tuple(sorted(cards))
    command = (
        f"fechtbuch tb studies --cards {','.join(card_id(c) for c in cards)} "
        f"--count {count} {f'--deep {deep} ' if deep else ''}--seed {seed}"
    )
    needed = [SPLIT, DEEP_SPLIT] if deep else [SPLIT]
    with tempfile.TemporaryDirectory(prefix="fechtbuch-studies-") as scratch:
        folder = table_folder(cards, tables)
        if tables is None and not os.path.lexists(folder / MANIFEST):
            folder = Path(scratch) / "tables"
            build(cards, max(max(s) for s in needed), folder, only=needed)
        base = Tablebase.open(folder)
        if base.cards != cards:
            raise InputError(f"tables: {quote(folder)} holds another card set")
        for split in needed:
            if split not in base.splits:
                raise InputError(f"tables: {quote(folder)} has no split {split}")
        pack = mine_pack(base, count=count, seed=seed, command=command, deep=deep)
    atomic_write(out_file, pack_bytes(pack), force=force)
    summary = {
        "file": out_file,
        "studies": len(pack["puzzles"]),
        "n": [p["n"] for p in pack["puzzles"]],
    }
    if as_json:
        emit_json(summary)
    else:
        click.echo(f"{len(pack['puzzles'])} studies (n = {summary['n']}) written to {out_file}")
