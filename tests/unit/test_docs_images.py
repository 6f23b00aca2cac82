"""The docs' pictures neither go missing nor rot: every picture a doc shows (docs/*.md
and the README) is a file, and every file under docs/img is shown or linked by a doc.

A doc refers to a file by a Markdown image or link (``![alt](img/x.png)``,
``[text](img/x.png)``) or by HTML (``<img src="img/x.png">``, ``<a href="...">``), its
path taken from the doc's own folder; addresses of the web are not files.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
IMAGES = DOCS / "img"
PICTURE = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp")
MARKDOWN = re.compile(r"\]\(\s*<?([^)\s>]+)")
HTML = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)


def doc_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md")) + sorted(ROOT.glob("*.md"))


def references(page: Path) -> set[Path]:
    """The files of the repository that ``page`` shows or links to."""
    text = page.read_text(encoding="utf-8")
    found = set()
    for target in MARKDOWN.findall(text) + HTML.findall(text):
        target = target.split("#")[0].split("?")[0]
        if target and not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            found.add((page.parent / target).resolve())
    return found


def test_the_references_of_a_page_are_found_in_markdown_and_html(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "![a picture](img/a.png) and [a link](img/b.svg#top)\n"
        '| <a href="img/c.png"><img src="img/d.png" width="300" alt="d"></a> |\n'
        "![from the web](https://example.org/e.png) [mail](mailto:x@example.org)\n",
        encoding="utf-8",
    )
    assert references(page) == {
        (tmp_path / "img" / n).resolve() for n in "a.png b.svg c.png d.png".split()
    }


def test_every_picture_a_doc_shows_exists():
    missing = [
        f"{page.relative_to(ROOT)}: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}"
        for page in doc_pages()
        for target in sorted(references(page))
        if target.suffix.lower() in PICTURE and not target.is_file()
    ]
    assert missing == []


def test_every_file_under_docs_img_is_shown_by_a_doc():
    shown = set().union(*(references(page) for page in doc_pages()))
    files = sorted(path.resolve() for path in IMAGES.rglob("*") if path.is_file())
    assert files, "docs/img holds no file"
    unshown = [str(path.relative_to(ROOT)) for path in files if path not in shown]
    assert unshown == []
