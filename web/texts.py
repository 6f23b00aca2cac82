"""The page's texts: the generic catalogue and each game's own, merged per language.

Both pages (the single-player page and the Wartesaal's) word every text from one
JSON catalogue per language (docs/web.md, "Messages").  The catalogue of
``web/static/i18n/<lang>.json`` holds only what every game shares (menus, the room,
results); a game's texts (its board's words, its variants' and options' names) ship
with its web package, ``<package of its WebGame>/static/i18n/<lang>.json``, and the
server merges them for the page (``/i18n/<lang>.json``).  A key that two catalogues
both define is an error, so no game can re-word another's or the generic texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable

import orjson
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.plugin import GamePlugin

LANGUAGES = ("de", "en")
"""The languages of the page, German first."""


def game_static(entry: GamePlugin) -> Traversable:
    """The ``static`` folder next to the module of a game's WebGame (its board script,
    its texts)."""
    if entry.web is None:
        raise ValueError(f"{entry.slug} offers no web play")
    module = entry.web.partition(":")[0]
    return resources.files(module.rpartition(".")[0]) / "static"


def _catalogue(folder: Traversable, lang: str) -> dict[str, str]:
    path = folder / "i18n" / f"{lang}.json"
    return orjson.loads(path.read_bytes()) if path.is_file() else {}


def generic_texts(lang: str) -> dict[str, str]:
    """The generic catalogue of ``lang``."""
    return _catalogue(resources.files("fechtbuch.web") / "static", check_language(lang))


def game_texts(entry: GamePlugin, lang: str) -> dict[str, str]:
    """A game's own texts in ``lang`` (``{}`` for a game without a catalogue)."""
    return _catalogue(game_static(entry), check_language(lang))


def page_texts(lang: str, games: Iterable[GamePlugin]) -> dict[str, str]:
    """The catalogue the page reads: the generic texts and those of every game in
    ``games``; a key defined twice is a ``ValueError`` naming it and both owners."""
    merged = generic_texts(lang)
    owner = dict.fromkeys(merged, "the generic catalogue")
    for entry in games:
        for key, text in game_texts(entry, lang).items():
            if key in owner:
                raise ValueError(f"text {key!r} of {entry.slug} is {owner[key]}'s already")
            owner[key] = entry.slug
            merged[key] = text
    return merged


def check_language(lang: str) -> str:
    """``lang`` if the page speaks it, else an :class:`InputError` naming ``lang``."""
    if lang not in LANGUAGES:
        raise InputError(f"lang: {quote(lang, 20)} is not one of {', '.join(LANGUAGES)}")
    return lang
