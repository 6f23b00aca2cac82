"""A self-contained HTML page to browse a puzzle pack and try its puzzles.

:func:`pack_html` turns a pack (its JSON, already loaded) into one page:
inline CSS, inline JavaScript (``v1page.js``, ``v1page.css`` next to this
module), the pack's puzzles as JSON, and per puzzle the SVG diagram from
:func:`engines.battleklinge.svg.render_svg`.  Every word comes from the page's German
and English catalogues, embedded in it (the pack pages' own and this folder's
``packpage.de.json``, ``packpage.en.json``; fechtbuch.puzzles.pagekit), and
``packboard.js`` words the SVG's parts.  Nothing is fetched from the network or from
other files.

The page knows the rules (a small JavaScript transcription of the reference
rules, fed the card table from :mod:`engines.battleklinge.cards`) so it can show
legal targets; whether a move keeps the sure path comes only from the puzzle's
solution tree.

>>> from fechtbuch.engines.battleklinge.position import Position
>>> pos = "2m2/5/2S2/5/2M2 g ausfall,volte bindung,stoss riposte"
>>> pack = {"format": "fechtbuch-pack", "version": 1, "puzzles": [{
...     "id": "p1", "n": 1, "position": pos, "attacker": "g", "key": "ausfall:c3c5",
...     "line": ["ausfall:c3c5"], "solution": {"ausfall:c3c5": "hit"},
...     "tags": ["master-captured"], "difficulty": 1.0,
...     "cards": ["ausfall", "volte", "bindung", "stoss", "riposte"]}]}
>>> page = pack_html(pack)
>>> page.startswith("<!DOCTYPE html>") and '"key":"ausfall:c3c5"' in page
True
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARDS
from fechtbuch.engines.battleklinge.position import BANNER, Move, Position
from fechtbuch.engines.battleklinge.svg import render_svg
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.pagekit import asset, message, page, page_texts

PACK_FORMAT = "fechtbuch-pack"


class PackError(InputError):
    """A pack that cannot be shown; the message names the puzzle and the field."""


def _check_tree(tree, field: str, attacker_node: bool) -> None:
    """Shape of a solution tree: move-text keys, ``"hit"`` only in attacker nodes."""
    if not isinstance(tree, dict) or not tree:
        raise PackError(f"{field}: expected a non-empty object of moves, got {str(tree)[:60]!r}")
    for text, child in tree.items():
        try:
            Move.from_text(text)
        except InputError as err:
            raise PackError(f"{field}: {err}") from None
        if child == "hit" and attacker_node:
            continue
        _check_tree(child, f"{field}[{text!r}]", not attacker_node)


def check_puzzle(index: int, puzzle) -> None:
    """Raise :class:`PackError` naming the field when a puzzle cannot be shown."""
    where = f"pack: puzzle {index + 1}"
    if not isinstance(puzzle, dict):
        raise PackError(f"{where}: expected an object, got {str(puzzle)[:60]!r}")
    required = {"id": str, "n": int, "position": str, "attacker": str, "key": str}
    required |= {"line": list, "solution": dict, "tags": list, "difficulty": (int, float)}
    for name, kind in required.items():
        if name not in puzzle:
            raise PackError(f"{where}: missing field {name!r}")
        if not isinstance(puzzle[name], kind) or isinstance(puzzle[name], bool):
            raise PackError(f"{where}: field {name!r} has the wrong type: {puzzle[name]!r}")
    where += f" ({puzzle['id']})"
    try:
        position = Position.from_text(puzzle["position"])
        for text in puzzle["line"]:
            Move.from_text(text)
        _check_tree(puzzle["solution"], "solution", True)
    except PackError as err:
        raise PackError(f"{where}: {err}") from None
    except InputError as err:
        raise PackError(f"{where}: {err}") from None
    if puzzle["attacker"] != "gb"[position.turn]:
        raise PackError(
            f"{where}: field 'attacker' is {puzzle['attacker']!r} but "
            f"{'gb'[position.turn]!r} is to move in {puzzle['position']!r}"
        )
    if not puzzle["line"] or puzzle["line"][0] not in puzzle["solution"]:
        raise PackError(f"{where}: field 'line' must start with a winning move of 'solution'")


def check_pack(pack) -> None:
    """Raise :class:`PackError` when the pack's top level or a puzzle cannot be shown."""
    if not isinstance(pack, dict):
        raise PackError("pack: expected a JSON object at the top level")
    if pack.get("format") != PACK_FORMAT:
        raise PackError(f"pack: field 'format' must be {PACK_FORMAT!r}, got {pack.get('format')!r}")
    if not isinstance(pack.get("puzzles"), list):
        raise PackError(f"pack: field 'puzzles' must be a list, got {pack.get('puzzles')!r}")
    for index, puzzle in enumerate(pack["puzzles"]):
        check_puzzle(index, puzzle)


def pack_html(pack: dict, lang: str | None = None) -> str:
    """One self-contained HTML page that browses ``pack`` (see the module docstring),
    in the language ``lang`` at first (``None``: the browser's; pagekit.py)."""
    check_pack(pack)
    puzzles = []
    for puzzle in pack["puzzles"]:
        shown = {
            key: puzzle[key]
            for key in ("id", "n", "position", "attacker", "key", "line", "solution", "tags")
        }
        shown["difficulty"] = puzzle["difficulty"]
        shown["svg"] = render_svg(Position.from_text(puzzle["position"]))
        puzzles.append(shown)
    data = {
        "cards": [
            {"id": c.id, "name": c.name, "offsets": [list(o) for o in c.offsets], "mark": c.mark}
            for c in CARDS
        ],
        "banner": list(BANNER),
        "puzzles": puzzles,
    }
    generator = pack.get("generator")
    if isinstance(generator, dict):
        generator = " ".join(str(v) for v in generator.values())
    count = len(puzzles)
    facts = [message("pp.fact.count.one" if count == 1 else "pp.fact.count.other", count=count)]
    if generator:
        facts.append(message("pp.fact.made", generator=generator))
    if pack.get("seed") is not None:
        facts.append(message("pp.fact.seed", seed=pack["seed"]))
    if pack.get("command"):
        facts.append(message("pp.fact.command", command=pack["command"]))
    section = """<section id="view">
<h2 id="title"></h2>
<div id="diagram"></div>
<div id="status" data-state="play" role="status" aria-live="polite"></div>
<div id="choice"></div>
<div id="controls">
<button id="restart" type="button" data-i18n="pp.restart"></button>
<button id="takeback" type="button" data-i18n="pp.takeback"></button>
<button id="hint" type="button" data-i18n="pp.solution"></button>
<button id="step" type="button" data-i18n="pp.bk.step"></button>
</div>
<div id="moves"></div>
<div id="solution"></div>
</section>"""
    texts, board = page_texts(__package__, "Battleklinge")
    return page(
        heading=message("pp.title", game=message("pp.game"), count=count),
        facts=facts,
        section=section,
        data=data,
        css=[asset("v1page.css", __package__)],
        scripts=[board, asset("v1page.js", __package__)],
        texts=texts,
        lang=lang,
    )
