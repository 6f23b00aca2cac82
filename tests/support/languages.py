"""The page languages a browser test of one behaviour runs in.

Whether every text of a page comes from its language's catalogue is the page-language
tests' task (test_page_language.py, test_pack_page_language.py), in both languages.
A test of a behaviour (whose turn is said, what fits a phone) checks it in one of them
in the default run and in the other with the slow tests: each browser test costs
seconds of CPU, and the suite must fit a shared two-core machine.  The tests pick the
default language alternately, so that both are exercised by the default run.
"""

from __future__ import annotations

import pytest

LANGUAGES = ("de", "en")


def in_one_language(*case, default: str) -> list:
    """The parameters ``(*case, lang)`` for each page language: ``default`` in the
    default run, the other marked slow."""
    assert default in LANGUAGES, default
    return [
        pytest.param(*case, lang, marks=() if lang == default else pytest.mark.slow)
        for lang in LANGUAGES
    ]
