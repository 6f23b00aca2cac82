"""``fechtbuch pack``: tools for exercise packs of every game (verify, show, play)."""

from __future__ import annotations

from pathlib import Path

import click
from fechtbuch.commands.options import emit_json, json_option
from fechtbuch.commands.playoptions import attach, plain_option, puzzle_option
from fechtbuch.puzzles.pack import (
    PackOrder,
    PackTerms,
    SolutionMode,
    find_puzzle,
    load_pack,
    pack_kind,
    shipped_pack_path,
    verify_pack,
)
from fechtbuch.puzzles.packtree import PuzzleTree, count_nodes


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
    """Tools for exercise packs of every game: verify, show, play, html, svg, motifs, rate.

    PACK is a pack file or the name of a shipped pack: 'fechtuebungen'
    (data/packs/fechtuebungen.json).

    \b
      fechtbuch pack verify fechtuebungen
      fechtbuch pack show fechtuebungen --puzzle 1
    """


@pack.command("verify")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@json_option("the problems")
def pack_verify(pack_file: Path, as_json: bool) -> int:
    """Check PACK completely, with its game's independent verifier.

    Any version and game: the pack's 'rules' field names the game.  First the
    envelope (exit 2 if it fails): the schema of its version with strict types,
    a known game, every N within the declared max_n (version 1: at most 3) and
    max_n within what the game allows.  Then every derived field of every
    puzzle is re-derived and compared: re-proved (exactly N, one key); every
    solution tree correct and complete (or, for "solution": "pruned", complete
    for the first two defences and the main line below); the main line; the
    id and the game's own fields; tags and difficulty recomputed; duplicate
    ids and duplicates up to the game's symmetry; the declared order; the
    Touché duel's round (the view is replayed from the pack's seed); where the
    game checks witnesses, each puzzle's witness game is replayed with the
    reference rules and must reach its position exactly; mined_by must name a
    mining policy of the pack's game.  Every game's puzzle fields are fixed by
    the schema: an unknown field is an error.  One line per problem naming the
    puzzle and the field; exit 1 on any.  Not checked: generator, command and
    seed (informative; the duel's seed only through the replay of each
    puzzle's round).  mined_by (the policy that played the self-play) is
    printed first.

    Bounded: a Battleklinge claim deeper than the verifier searches without
    endgame tables (3 own moves; 6 with at most one student a side) that no
    built tables cover is reported as a problem, not searched.  A progress bar
    shows on a terminal; Ctrl-C stops verification within a second (exit 130).

    \b
      fechtbuch pack verify data/packs/fechtuebungen.json
    """
    from tqdm import tqdm

    data = load_pack(pack_file)  # the envelope first: a malformed pack is exit 2, before any search
    puzzles = data["puzzles"]
    with tqdm(total=len(puzzles), desc="verifying", unit=" puzzles", disable=None) as bar:
        problems = verify_pack(data, progress=lambda: bar.update(1))
    mined_by = data.get("mined_by")
    if as_json:
        emit_json(
            {
                "pack": str(pack_file),
                "puzzles": len(puzzles),
                "mined_by": mined_by,
                "problems": problems,
            }
        )
    else:
        if mined_by is not None:
            click.echo(f"mined by: {mined_by}")
        for line in problems:
            click.echo(line)
        verdict = "FAILED" if problems else "OK"
        click.echo(f"{pack_file}: {len(puzzles)} puzzles, {len(problems)} problems: {verdict}")
    return 1 if problems else 0


ORDER_WORDS = {PackOrder.BY_N: "by N", PackOrder.DEEPEST_FIRST: "deepest first"}


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
    """A readable summary of PACK (any game), or one puzzle drawn with its solution.

    \b
      fechtbuch pack show fechtuebungen
      fechtbuch pack show fechtuebungen --puzzle 1
    """
    data = load_pack(pack_file, reference=puzzle_ref)
    kind = pack_kind(data)
    terms = PackTerms.of(data)
    puzzles = data["puzzles"]
    if puzzle_ref is None:
        click.echo(f"{pack_file}: {len(puzzles)} exercises ({kind.title}), seed {data['seed']}")
        click.echo(
            f"format: version {terms.version}, N up to {terms.max_n}, "
            f"{ORDER_WORDS[terms.order]}, {terms.solution.value} solution trees"
        )
        click.echo(f"made by: {data['command']}")
        click.echo(f"{'#':>3}  {'id':14}  {'N':>2}  diff  tags")
        for number, p in enumerate(puzzles, 1):
            click.echo(
                f"{number:>3}  {p['id']:14}  {p['n']:>2}  {p['difficulty']:4.1f}  "
                + ", ".join(p["tags"])
            )
        return
    _, p = find_puzzle(data, puzzle_ref)
    tree = PuzzleTree(kind, p)
    click.echo(
        f"{p['id']}: the side to move wins within {p['n']} own turns, whatever the defence "
        f"(difficulty {p['difficulty']}; " + ", ".join(p["tags"]) + ")"
    )
    click.echo(p["position"])
    click.echo("")
    click.echo(kind.board_text(tree.root.state, False))
    click.echo("")
    click.echo(f"Solution: {p['key']}")
    click.echo("Main line: " + " ".join(p["line"]))
    inner, leaves = count_nodes(p["solution"])
    stored = (
        "pruned to the main line below the first two defences"
        if (terms.solution is SolutionMode.PRUNED)
        else "complete"
    )
    click.echo(f"Solution tree ({stored}): {inner} positions, {leaves} decided ends.")


@pack.command("play")
@click.argument("pack_file", metavar="PACK", type=PACK_FILE)
@attach(puzzle_option("PACK"))
@plain_option()
def pack_play(pack_file: Path, puzzle_ref: str, plain: bool) -> None:
    """Play one puzzle of PACK (any game) in the terminal, on its solution tree.

    You play the side that wins; the defence answers with its longest
    resistance from the stored tree, and an action that loses the sure path is
    refused at once.  Type an action in the game's notation, or legal,
    solution, undo, help, quit.  The puzzle is re-proved first.

    \b
      fechtbuch pack play fechtuebungen --puzzle 3
    """
    import sys

    from fechtbuch.puzzles.treeplay import play_pack_puzzle

    data = load_pack(pack_file, reference=puzzle_ref)
    colour = not plain and sys.stdout.isatty()
    result = play_pack_puzzle(data, puzzle_ref, sys.stdin, click.echo, colour=colour)
    if result.quit:
        click.echo("Stopped.")


def pack_group() -> click.Group:
    """``fechtbuch pack``: the commands above with the page and diagram writers
    (built anew on each call; no module-level group is changed)."""
    from fechtbuch.commands.pack_motifs import pack_motifs
    from fechtbuch.commands.pack_rate import pack_rate
    from fechtbuch.commands.pack_render import pack_html, pack_svg

    commands = [*pack.commands.values(), pack_html, pack_svg, pack_motifs, pack_rate]
    return click.Group(pack.name, commands=commands, help=pack.help)
