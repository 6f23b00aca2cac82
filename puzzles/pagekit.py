"""The shell shared by the pack pages (a game's own page for its version-1 packs,
packpage.py for version 2).

One self-contained HTML document: the shell's CSS (``pack_page.css``) and the page's
own CSS and JavaScript inline (each page reads its assets from its own package with
:func:`asset`: a game's page from the game's folder), the page's data as JSON in
a ``<script>`` element, the puzzle list on the left and the game's ``section`` on
the right.  ``viewer_errors.js`` runs first (it collects errors for the browser
tests) and ``viewer_common.js`` offers the puzzle list and the tests' helpers
(``window.fbCommon``) to the page script.
"""

from __future__ import annotations

from html import escape
from importlib import resources

import orjson


def asset(name: str, package: str = __package__) -> str:
    """A file (CSS, JavaScript) shipped in ``package`` (default: next to this module)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def script_json(data) -> str:
    """JSON safe inside a <script> element: '</' cannot close it early."""
    return orjson.dumps(data).decode().replace("</", "<\\/")


def page(
    title: str, heading: str, subtitle: str, section: str, data, css: list[str], script: str
) -> str:
    """The whole document; ``section`` is trusted HTML, the texts are escaped; ``css``
    (the page's style sheets) and ``script`` are the texts of the page's own assets."""
    styles = asset("pack_page.css") + "".join(css)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<script>
{asset("viewer_errors.js")}{asset("viewer_common.js")}</script>
<style>
{styles}</style>
</head>
<body>
<header><h1>{escape(heading)}</h1>
<p>{escape(subtitle)}</p></header>
<main>
<nav id="list"><table><thead><tr><th>#</th><th>N</th><th>Tags</th><th>Difficulty</th><th></th>
</tr></thead><tbody id="list-body"></tbody></table></nav>
{section}
</main>
<script type="application/json" id="fb-data">{script_json(data)}</script>
<script>
{script}</script>
</body>
</html>
"""
