"""A pack page (``fechtbuch pack html``) opened in the browser tests: a fresh browser
context of the given language and size, the page loaded and its first exercise shown,
and no script error on it by the end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DESKTOP = {"width": 1280, "height": 900}

OPENED = "document.getElementById('title').textContent !== ''"
"""The page has worded its first exercise's title: its script has run."""


@contextmanager
def open_pack_page(browser, path: Path, locale: str, viewport: dict | None = None) -> Iterator:
    """The page of the file ``path`` in a browser that speaks ``locale`` ("de-DE",
    "en-US") at ``viewport`` (default: desktop size), once its first exercise is shown;
    when the block ends without a failure of its own, neither an uncaught error nor one
    the page collected (``fbErrors``, viewer_errors.js) may have happened."""
    context = browser.new_context(locale=locale, viewport=viewport or DESKTOP)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(path.as_uri())
        page.wait_for_function(OPENED)
        yield page
        assert errors == [], errors
        assert page.evaluate("fbErrors") == []
    finally:
        context.close()
