"""``fechtbuch bench tactics-suite``: build the tactics suite from decided games."""

from __future__ import annotations

import json

import click
from fechtbuch.commands.options import INT
from fechtbuch.puzzles.battleklinge.tacticsuite import build_suite


@click.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--per-distance", type=INT, default=25, show_default=True)
@click.option("--seed", type=INT, default=1, show_default=True)
@click.option("--games-per-round", type=INT, default=60, show_default=True)
@click.option("--max-nodes", type=INT, default=3_000_000, show_default=True)
@click.option("--force", is_flag=True)
def main(output, per_distance, seed, games_per_round, max_nodes, force):
    """Generate the tactics suite (one JSON object a line)."""
    from fechtbuch.engines.files import atomic_write

    suite = build_suite(per_distance, seed, games_per_round, max_nodes, click.echo)
    text = "".join(json.dumps(row, sort_keys=True) + "\n" for row in suite)
    atomic_write(output, text.encode(), force=force)
    click.echo(f"{len(suite)} positions written to {output}")


if __name__ == "__main__":
    main()
