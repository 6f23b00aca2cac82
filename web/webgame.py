"""What a game gives the browser front end: its ``WebGame``, named by its plugin.

The server (:mod:`fechtbuch.web.server`) knows no game.  It reads the registry,
and for every plugin with a ``web`` reference it loads a :class:`WebGame`: the
game's way of turning a state into what one seat may see (JSON), of describing a
legal action so the page can draw it, and of setting up a new game from the
options the page offers.  Legality stays with the rules engine: the server asks
the plugin's :class:`~fechtbuch.engines.game.Game` for the legal actions, sends
their notation to the page and applies only an action the page names by that
notation.  The page draws; it never decides what is legal.

A seat's view must hold nothing that seat may not know (the other hands, the order
of a pile): the server sends each browser only ``view(state, seat)`` for its own
seat, or ``view(state, None)`` (the public part) between the turns of a hotseat
game, so a hidden hand never reaches a seat it does not belong to.

A game's assets (its board script, style sheet and texts) sit in the ``static``
folder next to the module its plugin's ``web`` reference names (:func:`game_static`);
:func:`page_texts` merges its texts with the generic ones for the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Protocol

import orjson
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.game import Game
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.plugin import GamePlugin

Chooser = Callable[[Any, Sequence[Any]], Any]
"""A computer seat: ``choose(state, earlier_states) -> action``."""


@dataclass(frozen=True)
class Start:
    """A new game: its first state, the seats people play, and the page's header."""

    state: Any
    people: tuple[int, ...]
    """The seats people play (all seats in a hotseat game)."""
    title: str
    facts: dict = field(default_factory=dict)
    """What the page shows beside the board (card set, who starts, ...)."""
    prelude: Any = None
    """Choices made before the first state exists (Battleklinge's Kartenwahl), or
    ``None``; ``state`` is then ``None`` until the prelude's ``result()``.  A prelude
    has ``to_choose()`` (the seat, ``None`` when done), ``choices()`` (text -> choice),
    ``choose(text)``, ``computer_choice()``, ``result()``, ``view()`` and
    ``action_view(text)``."""


class WebGame(Protocol):
    """A game's web play (see the module docstring); one object per game, stateless."""

    slug: str
    script: str
    """The file name of the game's board drawing script in its ``static`` folder."""
    style: str | None
    """The file name of the board's style sheet in its ``static`` folder (both pages
    load it with the script), or ``None`` when the board needs only the page's styles."""
    modes: tuple[str, ...]
    """Which of ``computer``, ``hotseat``, ``exercise``, ``daily`` it offers."""
    hint_strength: str | None
    """The computer strength that gives hints ("Rat"), or ``None`` for no hints."""
    analysis: bool
    """Whether :meth:`analyse` gives a report after a game (the end screen offers
    "Auswertung" only then)."""

    def setup(self, factory: PlayerFactory | None) -> dict:
        """The options of a new game the page offers (strengths, seats, card sets)."""
        ...

    def start(self, game: Game, mode: str, options: dict, seed: str) -> Start:
        """A new game from the page's ``options`` (an ``InputError`` naming the field
        for an option it does not know)."""
        ...

    def view(self, game: Game, state: Any, seat: int | None) -> dict:
        """What ``seat`` sees in ``state`` (``None``: what everybody sees)."""
        ...

    def action_view(self, game: Game, state: Any, action: Any) -> dict:
        """How the page draws a legal action (for Battleklinge: card, from, to)."""
        ...

    def explain(self, game: Game, state: Any, action: Any, names: Sequence[str]) -> dict:
        """The line above the board after ``action`` in ``state``: ``{"key": message
        key of the page's catalogue, "args": {...}}`` (so it is said in the page's
        language)."""
        ...

    def seat_names(self, state: Any) -> tuple[str, ...]:
        """The names of the seats (Gold/Blau, A/B, players 1..n)."""
        ...

    def next_round(self, game: Game, states: Sequence[Any], seed: str) -> Any | None:
        """After a terminal state (the last of ``states``, the game so far): the next
        round's state, or ``None`` when the game is over (the duel plays rounds to its
        target score); ``seed`` is the game's."""
        ...

    def result(self, game: Game, state: Any) -> tuple[float, ...]:
        """The game's result per seat once it is over (``None`` from ``next_round``)."""
        ...

    def computer(self, factory: PlayerFactory, strength: str, seed: str) -> Chooser:
        """The computer seat of ``strength``, as the command line makes it."""
        ...

    def analyse(self, game: Game, states: Sequence[Any], actions: Sequence[str]) -> dict | None:
        """The analysis of a finished game (``states``: the state each action was played
        in, then the last state)
        as ``{"moves": [{"number", "mark", "better", ...}], "turning": {...}}``, or
        ``None`` when the game has none.

        ``turning`` is the turning point, or ``None``: ``number`` (the decision, 1-based),
        ``move`` and ``better`` (notation), ``mark`` and ``view`` (the view before the
        decision as the board draws it, which the page shows with ``better`` as the
        board's hint).  Either the evaluation ``before`` and ``after`` (the page words
        them with ``play.turning.text``), or ``move_words`` and ``better_words`` (message
        keys and arguments, as ``{"label_key", "args"}``; ``play.turning.missed``).  A
        game whose seats see different things names the seat of ``view`` (``seat``), and
        ``better_action`` gives the better action's parts as ``action_view`` does, so the
        board can light them; the page hands the turning point to the board script as
        the message's ``turning``."""
        ...

    def problem_view(self, kind: Any, state: Any, texts: Sequence[str]) -> tuple[dict, list[dict]]:
        """An exercise's state (the pack kind's AND/OR problem state) for the page, and
        its legal actions ``texts`` as the page draws them (each with its ``text``)."""
        ...

    # Optional: ``history_view(game, states, view) -> dict``, what the board shows that
    # no single state holds, from the game so far (``states``, the last one the view's),
    # merged into a seat's ``view`` at the table, in a replay and at the turning point
    # (the pyramids: who crowned each crowned field).  A game without it is drawn from
    # the state alone, as an exercise and a Wartesaal table always are.
    #
    # Optional: ``problem_explain(kind, state, text) -> dict | None``, an exercise's
    # action ``text`` played in ``state`` (the pack kind's problem state, the defence's
    # replies and draws too) in the words of the game's move list, as ``explain`` gives
    # them (``{"key", "args"}``), or ``None`` where it has no words; the page shows the
    # notation beside them.

    def room_board(self, variant: str, view: str, seat: int | None) -> dict:
        """A Wartesaal table as the board script draws it, from the notation the room
        sent: ``view`` is a seat's information state (``seat``) or the public view
        (``seat`` is ``None``), so the drawing holds nothing its receiver may not see.
        The keys are merged into the message the script is given (``view``, and
        Battleklinge's ``prelude`` during the Kartenwahl)."""
        ...

    def room_action(self, action: str) -> dict:
        """An action of a Wartesaal table (its notation) as the board draws it."""
        ...


def strength_setup(factory: PlayerFactory | None, default: str = "mittel") -> dict:
    """The menu's strength choice: every strength of the game's player factory."""
    return {"choices": list(factory.strengths) if factory is not None else [], "default": default}


def seat_chooser(factory: PlayerFactory, strength: str, seed: object) -> Chooser:
    """The plain computer seat from a player factory (earlier states unused)."""
    act = factory.seat(strength, seed)
    return lambda state, earlier: act(state)


# ---- a game's assets: its static folder and its texts ------------------------------
# Both pages (the single-player page and the Wartesaal's) word every text from one
# JSON catalogue per language (docs/web.md, "Messages").  ``web/static/i18n/<lang>.json``
# holds only what every game shares (menus, the room, results); a game's texts (its
# board's words, its variants' and options' names) ship with its web package,
# ``<package of its WebGame>/static/i18n/<lang>.json``, and the server merges them for
# the page (``/i18n/<lang>.json``).  A key two catalogues both define is an error, so
# no game can re-word another's or the generic texts.

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
