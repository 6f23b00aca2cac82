"""The options of every game's ``play`` command, made in one place.

``fechtbuch play`` (Battleklinge), ``fechtbuch touche play``, ``fechtbuch pyramiden
play`` and ``fechtbuch pack play`` share ideas: the computer's strength, the seat
the person takes, the seed, several people at one keyboard, the game record, plain
output, the pack and the puzzle in it.  Each idea is made here by one factory, so it
has the same name, help style and default in every game; a game passes only what is
its own (its strengths, its seats).  An old name stays accepted as a hidden alias
(``--school``, ``--fencer``, ``--two-players``, ``--record``, ``--id``): it parses as
before but ``--help`` shows only the one name.

Every option made here is a :class:`PlayOption` and names its :class:`PlayIdea`, so
tests/cli/test_cli_options.py can check that no play command spells an idea its own way.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from fechtbuch.commands.options import float_range


class PlayIdea(enum.Enum):
    """An idea that more than one play command has; the value is its option name."""

    STRENGTH = "--strength"
    SEAT = "--seat"
    SEED = "--seed"
    HOTSEAT = "--hotseat"
    SAVE = "--save"
    FORCE = "--force"
    NO_WARNINGS = "--no-warnings"
    PLAIN = "--plain"
    MOVETIME = "--movetime"
    CLOCK = "--clock"
    PACK = "--pack"
    PUZZLE = "--puzzle"


DEFAULT_STRENGTH = "mittel"
"""The computer's strength when none is asked for, in every game."""
FIRST_PUZZLE = "1"
"""``--puzzle``'s default: the first exercise of the pack."""


class PlayOption(click.Option):
    """A click option made by this module: it knows its idea and hides its aliases."""

    def __init__(self, *args: Any, idea: PlayIdea, aliases: Sequence[str] = (), **kwargs: Any):
        self.idea = idea
        self.aliases = tuple(aliases)
        super().__init__(*args, **kwargs)

    def get_help_record(self, ctx: click.Context):
        shown, self.opts = self.opts, [o for o in self.opts if o not in self.aliases]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown

    @property
    def primary(self) -> str:
        """The option's one visible name."""
        return next(o for o in self.opts if o not in self.aliases)


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _option(idea: PlayIdea, dest: str, aliases: Sequence[str] = (), **kwargs: Any) -> Decorator:
    return click.option(
        idea.value, *aliases, dest, cls=PlayOption, idea=idea, aliases=aliases, **kwargs
    )


def strength_option(
    strengths: Sequence[str], what: str = "the computer", default: str = DEFAULT_STRENGTH
) -> Decorator:
    """``--strength``: the computer's strength, ``mittel`` unless asked (a game without
    a ``mittel`` names its own default)."""
    if default not in strengths:
        raise ValueError(f"strengths must include {default!r}: {strengths}")
    return _option(
        PlayIdea.STRENGTH,
        "strength",
        type=click.Choice(list(strengths)),
        default=default,
        show_default=True,
        help=f"Strength of {what}.",
    )


def seat_option(
    type_: click.ParamType, default: Any, seats: str, aliases: Sequence[str] = ()
) -> Decorator:
    """``--seat``: the side the person takes against the computer; ``seats`` says what
    the values mean in this game."""
    return _option(
        PlayIdea.SEAT,
        "seat",
        aliases,
        type=type_,
        default=default,
        show_default=True,
        help=f"Your seat against the computer: {seats}.",
    )


def seed_option(
    type_: click.ParamType | type = str, what: str = "the deal and the computer"
) -> Decorator:
    """``--seed``: random (and printed) unless given, so a game can be replayed."""
    return _option(
        PlayIdea.SEED,
        "seed",
        type=type_,
        default=None,
        help=f"Seed of {what} (default: a random one; the game prints it).",
    )


def hotseat_option(aliases: Sequence[str] = ()) -> Decorator:
    """``--hotseat``: every seat is a person at this keyboard."""
    return _option(
        PlayIdea.HOTSEAT,
        "hotseat",
        aliases,
        is_flag=True,
        help="Every seat is a person at this keyboard (hands are hidden between turns).",
    )


def save_option(aliases: Sequence[str] = ()) -> Decorator:
    """``--save FILE``: the game record, written when the game ends."""
    return _option(
        PlayIdea.SAVE,
        "save_file",
        aliases,
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the game record to this file when the game ends.",
    )


def force_option() -> Decorator:
    """``--force``: an existing ``--save`` file may be replaced."""
    return _option(PlayIdea.FORCE, "force", is_flag=True, help="Overwrite an existing --save file.")


def no_warnings_option() -> Decorator:
    """``--no-warnings``: no danger warnings under the board."""
    return _option(
        PlayIdea.NO_WARNINGS, "no_warnings", is_flag=True, help="Hide the danger warnings."
    )


def plain_option() -> Decorator:
    """``--plain``: no colours, also on a terminal."""
    return _option(
        PlayIdea.PLAIN, "plain", is_flag=True, help="No colours (plain text, also on a terminal)."
    )


def movetime_option() -> Decorator:
    """``--movetime SECONDS``: the computer thinks this long instead of its node budget."""
    return _option(
        PlayIdea.MOVETIME,
        "movetime",
        type=float_range(0.01, 600),
        default=None,
        metavar="SECONDS",
        help="The computer thinks this long per move instead of its strength's budget.",
    )


def clock_option(help: str) -> Decorator:
    """``--clock MINUTES``: a game clock, the same minutes for every side."""
    return _option(
        PlayIdea.CLOCK,
        "clock",
        type=float_range(0.05, 600),
        default=None,
        metavar="MINUTES",
        help=help,
    )


def pack_option(type_: click.ParamType, shipped: str) -> click.Option:
    """``--pack PACK``: play an exercise of a pack instead of a game (for the puzzle
    layer's wrappers, which add it to a game's command; ``type_`` finds shipped packs)."""
    return PlayOption(
        [PlayIdea.PACK.value, "pack_file"],
        idea=PlayIdea.PACK,
        type=type_,
        default=None,
        help=f"Play an exercise of this pack instead of a game: a file or a shipped "
        f"pack's name ({shipped}).",
    )


def puzzle_option(argument_of: str = "--pack") -> click.Option:
    """``--puzzle ID|NUMBER`` (alias ``--id``): which exercise of the pack."""
    return PlayOption(
        [PlayIdea.PUZZLE.value, "--id", "puzzle_ref"],
        idea=PlayIdea.PUZZLE,
        aliases=("--id",),
        default=FIRST_PUZZLE,
        show_default=True,
        metavar="ID|NUMBER",
        help=f"Which exercise of {argument_of}: its id, or its number in the list.",
    )


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was typed on the command line (not a default)."""
    return ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE


def option_flag(ctx: click.Context, name: str) -> str:
    """The visible flag of parameter ``name`` (for an error message)."""
    for param in ctx.command.params:
        if param.name == name:
            return param.primary if isinstance(param, PlayOption) else param.opts[0]
    return f"--{name.replace('_', '-')}"


def attach(option: click.Option) -> Decorator:
    """``option`` as a decorator, for a command written with ``@click.option``."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if not hasattr(func, "__click_params__"):
            func.__click_params__ = []  # type: ignore[attr-defined]
        func.__click_params__.append(option)  # type: ignore[attr-defined]
        return func

    return decorate
