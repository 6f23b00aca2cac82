"""``fechtbuch pack``: tools for exercise packs (verify, show)."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.textboard import draw_position
from fechtbuch.engines.clikit import emit_json
from fechtbuch.puzzles.pack import find_puzzle, load_pack, shipped_pack_path, verify_pack


class PackFileType(click.ParamType):
    """A pack file, or the name of a shipped pack (``fechtuebungen``), so that an
    installed copy can reach its own packs from any folder."""

    name = "PACK"

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            return value
        path = Path(value)
        try:
            exists = path.exists()
        except OSError:  # a name too long and the like: the file reader says so
            return path
        if not exists:
            shipped = shipped_pack_path(value)
            if shipped is not None:
                return shipped
        return path


PACK_FILE = PackFileType()


@click.group("pack")
def pack() -> None:
    """Tools for exercise packs: verify, show, html, svg.

    PACK is a pack file or the name of a shipped pack: 'fechtuebungen'
    (data/packs/fechtuebungen.json).

    \b
      fechtbuch pack verify fechtuebungen
      fechtbuch pack show fechtuebungen --puzzle 1
    """


@pack.command("verify")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def pack_verify(pack_file: Path, as_json: bool) -> int:
    """Check PACK completely, with the independent minimax verifier.

    Schema first (exit 2 if it fails: strict types, N at most 3).  Then every
    derived field of every puzzle is re-derived and compared: re-proved
    (exactly N, one key); every solution tree complete and correct (every
    winning attacker alternative listed and none that fails, every defender
    reply present, every "hit" a real hit); the main line; id, attacker,
    cards; tags and difficulty recomputed; mirror duplicates; order.  One line
    per problem naming the puzzle and the field; exit 1 on any.  Only
    generator, seed and command are informative and not checked.

    \b
      fechtbuch pack verify data/packs/fechtuebungen.json
    """
    from tqdm import tqdm

    data = load_pack(pack_file)  # schema first: a malformed pack is exit 2, before any search
    puzzles = data["puzzles"]
    with tqdm(total=len(puzzles), desc="verifying", unit=" puzzles", disable=None) as bar:
        problems = verify_pack(data, progress=lambda: bar.update(1))
    if as_json:
        emit_json({"pack": str(pack_file), "puzzles": len(puzzles), "problems": problems})
    else:
        for line in problems:
            click.echo(line)
        verdict = "FAILED" if problems else "OK"
        click.echo(f"{pack_file}: {len(puzzles)} puzzles, {len(problems)} problems: {verdict}")
    return 1 if problems else 0


def _count_nodes(node) -> tuple[int, int]:
    """(attacker nodes, defender replies) in a solution tree."""
    if node == "hit":
        return 0, 0
    attackers, replies = 1, 0
    for defender in node.values():
        if defender == "hit":
            continue
        replies += len(defender)
        for sub in defender.values():
            a, r = _count_nodes(sub)
            attackers += a
            replies += r
    return attackers, replies


@pack.command("show")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@click.option(
    "--puzzle",
    "--id",
    "puzzle_ref",
    default=None,
    metavar="ID|NUMBER",
    help="Draw one puzzle (its id, or its number in the list) with its solution.",
)
def pack_show(pack_file: Path, puzzle_ref: str | None) -> None:
    """A readable summary of PACK, or one puzzle drawn with its solution."""
    data = load_pack(pack_file)
    puzzles = data["puzzles"]
    if puzzle_ref is None:
        click.echo(f"{pack_file}: {len(puzzles)} exercises, seed {data['seed']}")
        click.echo(f"made by: {data['command']}")
        click.echo(f"{'#':>3}  {'id':14}  N  side  diff  tags")
        for number, p in enumerate(puzzles, 1):
            side = "Gold" if p["attacker"] == "g" else "Blau"
            click.echo(
                f"{number:>3}  {p['id']:14}  {p['n']}  {side}  {p['difficulty']:4.1f}  "
                + ", ".join(p["tags"])
            )
        return
    _, p = find_puzzle(data, puzzle_ref)
    side = "Gold" if p["attacker"] == "g" else "Blau"
    click.echo(
        f"{p['id']}: {side} to move hits in {p['n']} (difficulty {p['difficulty']}; "
        + ", ".join(p["tags"])
        + ")"
    )
    click.echo(p["position"])
    click.echo("")
    click.echo(draw_position(Position.from_text(p["position"])))
    click.echo("")
    click.echo(f"Solution: {p['key']}")
    click.echo("Main line: " + " ".join(p["line"]))
    attackers, replies = _count_nodes(p["solution"])
    click.echo(
        f"Solution tree: {attackers} attacker positions, {replies} defender replies covered."
    )
