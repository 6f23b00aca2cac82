"""No generic page, script, style sheet, catalogue or module names a game.

The generic files (the top of ``web/`` with ``web/static/``, the top of ``puzzles/``
and ``wartesaal/``) reach every game through the registry; a game's own code, texts
and assets live in its folders (``web/<game>/``, ``puzzles/<game>/``, ...).  This test
reads those generic files for the built-in games' slugs, aliases, folder names and
titles and fails on any hit in code or data.  Allowed, with their reason:

* Python docstrings and bare string statements, and comments of every language: they
  document, and an example such as ``fechtbuch db export --game battleklinge`` in a
  command's help names a real game on purpose; they decide nothing.
* Nothing else: not the registry's list (``engines/registry.py`` is below these
  folders and not read here), not a default, not a help string of an option.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from fechtbuch.engines.registry import PLUGIN_MODULES, plugins

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = (".py", ".js", ".css", ".html", ".json")


def generic_files() -> list[Path]:
    """The generic folders' own files (not their game packages' folders)."""
    found = [p for p in (ROOT / "web").glob("*") if p.suffix in SUFFIXES]
    found += [p for p in (ROOT / "web" / "static").rglob("*") if p.suffix in SUFFIXES]
    found += [p for p in (ROOT / "puzzles").glob("*") if p.suffix in SUFFIXES]
    found += [p for p in (ROOT / "wartesaal").rglob("*") if p.suffix in SUFFIXES]
    return sorted(p for p in found if p.is_file())


def game_names() -> re.Pattern:
    """Every built-in game's slug, aliases, folder name, title and the title's words
    (the built-in games only: a game of FECHTBUCH_PLUGINS is nobody's business here)."""
    names: set[str] = set()
    for entry in plugins():
        if not any(entry.slug == m.rsplit(".", 2)[-2].replace("_", "-") for m in PLUGIN_MODULES):
            continue
        names |= {*entry.names, entry.package, entry.title, *entry.title.split()}
        names |= set(entry.slug.split("-"))
    names -= {"duell", "duel"}  # also the daily duel (Tagesduell), a mode of the page
    names |= {n.replace("é", "e") for n in names} | {n.replace("touche", "touché") for n in names}
    words = sorted((re.escape(n) for n in names), key=len, reverse=True)
    return re.compile(r"(?<![a-z0-9])(" + "|".join(words) + r")(?![a-z0-9])", re.IGNORECASE)


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each (start, end) span replaced by spaces (newlines kept)."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def python_code(text: str) -> str:
    """A module without its comments, docstrings and bare string statements."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    spans = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            if isinstance(node.value.value, str):
                spans.append(_byte_span(text, starts, node))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            (line, col), (end_line, end_col) = token.start, token.end
            spans.append((starts[line - 1] + col, starts[end_line - 1] + end_col))
    return _blank(text, spans)


def _byte_span(text: str, starts: list[int], node: ast.AST) -> tuple[int, int]:
    """An AST node's span in characters (the AST counts columns in UTF-8 bytes)."""
    lines = text.splitlines(keepends=True)

    def at(line: int, byte_col: int) -> int:
        return starts[line - 1] + len(lines[line - 1].encode()[:byte_col].decode())

    return at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)


def script_code(text: str, line_comments: bool = True) -> str:
    """JavaScript or CSS without comments (string literals are kept and skipped over,
    so a ``//`` inside a string is no comment)."""
    out, i, quote = [], 0, None
    while i < len(text):
        c = text[i]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1 : i + 2])
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
            out.append(c)
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        elif line_comments and text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            i = end
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def code_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return python_code(text)
    if path.suffix == ".js":
        return script_code(text)
    if path.suffix == ".css":
        return script_code(text, line_comments=False)
    if path.suffix == ".html":
        return re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return text  # JSON has no comments: every text of a catalogue counts


def hits(path: Path, pattern: re.Pattern) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}"
        for number, line in enumerate(code_of(path).splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_generic_file_names_a_game():
    pattern = game_names()
    files = generic_files()
    # the folders are where this test thinks they are
    known = ["web/server.py", "web/static/wartesaal.js", "web/static/app.css"]
    known += ["web/static/i18n/de.json", "puzzles/pack.py", "wartesaal/room.py"]
    assert {ROOT / name for name in known} <= set(files)
    found = [hit for path in files for hit in hits(path, pattern)]
    assert found == []


@pytest.mark.parametrize(
    ("suffix", "text", "named"),
    [
        (".py", 'GAME = "battleklinge"  # a default\n', True),
        (".py", '"""Battleklinge\'s page."""\n\n# touche-duell\nx = 1\n', False),
        (".py", 'def f():\n    """Für Touché."""\n    return "touche"\n', True),
        (".js", 'if (msg.game === "touche-duell") x(); // pyramiden\n', True),
        (".js", "// Battleklinge\nconst url = `ws://${host}`; /* pyramiden */\n", False),
        (".css", "/* Battleklinge board */\n.bk { }\n", False),
        (".html", "<!-- Touché -->\n<p>Touché pyramids</p>\n", True),
        (".json", '{"saal.variant.battleklinge.zufall": "Zufall"}\n', True),
    ],
)
def test_the_search_finds_a_name_in_code_and_skips_comments(tmp_path, suffix, text, named):
    target = tmp_path / f"probe{suffix}"
    target.write_text(text, encoding="utf-8")
    found = [line for line in code_of(target).splitlines() if game_names().search(line)]
    assert bool(found) is named, code_of(target)
