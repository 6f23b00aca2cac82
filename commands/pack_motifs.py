"""``fechtbuch pack motifs``: a pack's exercises tagged by their game's current motif
catalogue (the tags new mining stores), next to the tags the pack stores."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click
from fechtbuch.commands.options import emit_json, json_option
from fechtbuch.commands.pack import PACK_FILE
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import plugin
from fechtbuch.puzzles.pack import load_pack


@click.command("motifs")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@json_option("the catalogue, each exercise's tags and the counts")
def pack_motifs(pack_file: Path, as_json: bool) -> None:
    """Tag PACK's exercises with their game's current motif catalogue.

    Each exercise is tagged by the catalogue its game's mining kind names (the
    version new mining stores; docs/motifs.md); the tags stored in the pack
    (catalogue version 1 for the shipped packs) are printed beside them, the new
    motifs marked with '+'.  Then each motif's rule and how many exercises have it.

    \b
      fechtbuch pack motifs fechtuebungen
      fechtbuch pack motifs touche-uebungen --json
    """
    data = load_pack(pack_file)
    mining = plugin(data["rules"]).mining_kind
    catalogue = None if mining is None else load(mining).motifs
    if catalogue is None:
        raise InputError(f"rules: {data['rules']} has no motif catalogue")
    rows = [(p["id"], p.get("tags", []), catalogue.tags(p)) for p in data["puzzles"]]
    counts = Counter(tag for _, _, tags in rows for tag in tags)
    if as_json:
        emit_json(
            {
                "pack": str(pack_file),
                "rules": catalogue.rules,
                "version": catalogue.version,
                "catalogue": catalogue.table(),
                "puzzles": [{"id": i, "stored": s, "tags": t} for i, s, t in rows],
                "counts": {name: counts[name] for name in catalogue.names},
            }
        )
        return
    click.echo(f"{catalogue.rules} motifs, catalogue version {catalogue.version}")
    for puzzle_id, stored, tags in rows:
        marked = [tag if tag in stored else f"+{tag}" for tag in tags]
        click.echo(f"{puzzle_id}: {' '.join(marked)}")
    for motif in catalogue.motifs:
        click.echo(f"{counts[motif.name]:>5}  {motif.name}: {motif.rule}")
