"""The shell shared by the pack pages (a game's own page for its version-1 packs,
packpage.py for version 2).

One self-contained HTML document: the shell's CSS (``pack_page.css``) and the page's
own CSS and JavaScript inline (each page reads its assets from its own package with
:func:`asset`: a game's page from the game's folder), the page's data as JSON in
a ``<script>`` element, the puzzle list on the left and the game's ``section`` on
the right (on a phone the section first, scaled to the width, and the list under
it).  ``viewer_errors.js`` runs first (it collects errors for the browser tests) and
``viewer_common.js`` offers the puzzle list, the page's texts (``window.fbI18n``)
and the tests' helpers (``window.fbCommon``) to the page script.

Every text the page shows comes from its catalogues, German and English, embedded
in the page (``#fb-texts``): the shell's and the version-2 page's own
(``packpage.de.json``, ``packpage.en.json`` next to this module) merged with the
game's (``packpage.de.json``, ``packpage.en.json`` in the folder of the game's pack
kind: its name ``pp.game``, its motifs ``pp.tag.<name>``, how an exercise ends
``pp.leaf.<end>``, the words of its drawing).  Python hands the page keys and
arguments (:data:`Message`), never words.  The language is a choice in the page's
header; it starts as ``lang`` (``pack html --lang``), else as the browser's
language, German when that is neither.  A game's drawing carries its words as
``data-i18n`` (a key) and ``data-i18n-args`` (its arguments as JSON) on the SVG
element that shows them (``data-i18n-label`` for an ``aria-label``); a game whose
drawing cannot (Battleklinge's SVG comes from its engine) ships ``packboard.js`` in
the same folder, which words it (``window.fbBoard.word(svg, t)``).  The version-2
page also embeds the game's click-mapper ``packplay.js`` from that folder
(:func:`game_asset`; docs/puzzles.md, "Playing a pack").
"""

from __future__ import annotations

import importlib
from html import escape
from importlib import resources
from typing import Any

import orjson
from fechtbuch.engines.registry import plugin

LANGUAGES = ("de", "en")
"""The languages of the pack pages, the default first."""

AUTONYMS = {"de": "Deutsch", "en": "English"}
"""Each language named in itself (the language menu)."""

Message = dict[str, Any]
"""``{"key": ..., "args": {...}}``: a text the page words from its catalogue; an
argument may itself be a message."""

Texts = dict[str, dict[str, str]]
"""A catalogue per language: ``{"de": {key: text}, "en": {...}}``."""


def message(key: str, **args: Any) -> Message:
    return {"key": key, "args": args}


def words_of(key: str, label: bool = False, **args: Any) -> str:
    """The attributes of a drawing's element that let the page word it: ``data-i18n``
    (its text; with ``label`` ``data-i18n-label``: its ``aria-label``) and the
    arguments as JSON in ``data-i18n-args`` (an argument may be a message)."""
    words = f' data-i18n{"-label" if label else ""}="{key}"'
    if args:
        quoted = escape(orjson.dumps(args).decode(), quote=False).replace("'", "&#x27;")
        words += f" data-i18n-args='{quoted}'"
    return words


def asset(name: str, package: str = __package__) -> str:
    """A file (CSS, JavaScript) shipped in ``package`` (default: next to this module)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def game_asset(package: str | None, name: str) -> str:
    """A game's page asset ``name`` shipped next to its pack kind, ``""`` if it has none."""
    if package and resources.files(package).joinpath(name).is_file():
        return asset(name, package)
    return ""


def texts_of(package: str) -> Texts:
    """The pack page's catalogues shipped in ``package`` (empty where it has none)."""
    found: Texts = {}
    for lang in LANGUAGES:
        path = resources.files(package).joinpath(f"packpage.{lang}.json")
        found[lang] = orjson.loads(path.read_bytes()) if path.is_file() else {}
    return found


def game_package(rules: str) -> str | None:
    """The package of the pack kind of the game a pack's ``rules`` name (its page
    texts and board script live there), or ``None`` for a kind in a bare module."""
    module = plugin(rules).pack_kind.partition(":")[0]
    return importlib.import_module(module).__package__ or None


def page_texts(package: str | None, title: str) -> tuple[Texts, str]:
    """The merged catalogues of a pack page of the game whose page parts live in
    ``package`` (:func:`game_package`), and the game's board script (``""`` if it has
    none).  A game without texts of its own is named by its kind's ``title`` in both
    languages; a key in both catalogues is an error."""
    texts = texts_of(__package__)
    game = texts_of(package) if package else {lang: {} for lang in LANGUAGES}
    script = game_asset(package, "packboard.js")
    for lang in LANGUAGES:
        twice = texts[lang].keys() & game[lang].keys()
        if twice:
            raise ValueError(
                f"packpage.{lang}.json: {sorted(twice)} in {package} and {__package__}"
            )
        texts[lang] = {"pp.game": title, **texts[lang], **game[lang]}
    return texts, script


def script_json(data) -> str:
    """JSON safe inside a <script> element: '</' cannot close it early."""
    return orjson.dumps(data).decode().replace("</", "<\\/")


def page(
    *,
    heading: Message,
    facts: list[Message],
    section: str,
    data,
    css: list[str],
    scripts: list[str],
    texts: Texts,
    lang: str | None = None,
) -> str:
    """The whole document; ``section`` is trusted HTML whose words are ``data-i18n``
    keys, ``heading`` (the title too) and ``facts`` (the line under it) are messages;
    ``css`` (the page's style sheets) and ``scripts`` are the texts of its own assets;
    ``lang`` the language it starts in (``None``: the browser's)."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGUAGES)}")
    styles = asset("pack_page.css") + "".join(css)
    shell = {"heading": heading, "facts": facts}
    options = "".join(
        f'<option value="{code}" lang="{code}">{name}</option>' for code, name in AUTONYMS.items()
    )
    code = "\n".join(scripts)
    return f"""<!DOCTYPE html>
<html lang="{lang or LANGUAGES[0]}" data-start-lang="{lang or ""}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title></title>
<script>
{asset("viewer_errors.js")}{asset("viewer_common.js")}</script>
<style>
{styles}</style>
</head>
<body>
<header><div><h1 id="heading"></h1>
<p id="facts"></p></div>
<label id="lang-choice"><span data-i18n="pp.lang"></span>
<select id="lang">{options}</select></label></header>
<main>
<nav id="list" data-i18n-label="pp.list"><table><thead><tr><th data-i18n="pp.col.number"></th>
<th data-i18n="pp.col.n"></th><th data-i18n="pp.col.tags"></th>
<th data-i18n="pp.col.difficulty"></th><th></th>
</tr></thead><tbody id="list-body"></tbody></table></nav>
{section}
</main>
<script type="application/json" id="fb-texts">{script_json(texts)}</script>
<script type="application/json" id="fb-shell">{script_json(shell)}</script>
<script type="application/json" id="fb-data">{script_json(data)}</script>
<script>
{code}</script>
</body>
</html>
"""
