"""Pieces every fechtbuch command shares: click parameter types that take plain decimal
numbers only, JSON output, and the options that mean the same in every command of every
game (``--json``, ``-j/--jobs``, ``--seed``, ``--games``, ``--runs``).
"""

from __future__ import annotations

import re

import click
import orjson
from fechtbuch.engines.errors import quote

# Numbers on the command line: ASCII digits only, surrounding blanks allowed (a quoted
# ' 2 ' is still the number 2), no full-width digits, underscores, '+' or exponents that
# Python's int()/float() would quietly accept.
_INT_TEXT = re.compile(r"-?[0-9]+")
_FLOAT_TEXT = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


class StrictIntRange(click.IntRange):
    """``click.IntRange`` that takes only plain decimal integers (``' 2 '`` is 2;
    ``'２'``, ``'1_000'``, ``'+3'``, ``'2.0'`` are errors)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            text = value.strip()
            if not _INT_TEXT.fullmatch(text):
                self.fail(f"{quote(value)} is not a whole number in plain digits", param, ctx)
            value = int(text)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        # click writes "x<=None" for a range open on both sides; say nothing instead
        if self.min is None and self.max is None:
            return "any integer"
        return super()._describe_range()


class StrictFloatRange(click.FloatRange):
    """``click.FloatRange`` for plain decimals only: ``nan``, ``inf``, ``1e3`` and
    full-width digits are errors, so a range check can never be bypassed by NaN."""

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            text = value.strip()
            if not _FLOAT_TEXT.fullmatch(text):
                self.fail(f"{quote(value)} is not a plain decimal number", param, ctx)
            value = float(text)
        elif isinstance(value, float) and value != value:
            self.fail("NaN is not a number", param, ctx)
        return super().convert(value, param, ctx)


def int_range(minimum: int | None = None, maximum: int | None = None) -> StrictIntRange:
    """The integer type of every fechtbuch option (see :class:`StrictIntRange`)."""
    return StrictIntRange(minimum, maximum)


def float_range(minimum: float | None = None, maximum: float | None = None) -> StrictFloatRange:
    """The decimal type of every fechtbuch option (see :class:`StrictFloatRange`)."""
    return StrictFloatRange(minimum, maximum)


INT = StrictIntRange()


def emit_json(obj) -> None:
    """Print one JSON object (orjson, sorted keys, indented) on stdout."""
    click.echo(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode())


# One definition each, so the same idea has the same name, default and help everywhere.


def json_option(what: str = ""):
    """``--json``: one name and one help text for every command that can print JSON
    (``what``: what the object holds, where the command's help does not say).

    >>> json_option("the summary")(lambda as_json: None).__click_params__[0].help
    'Print one JSON object instead of text: the summary.'
    """
    detail = f": {what}" if what else ""
    return click.option(
        "--json", "as_json", is_flag=True, help=f"Print one JSON object instead of text{detail}."
    )


def jobs_option(command):
    """``-j/--jobs``: worker processes, all cores by default; results never depend on it."""
    return click.option(
        "-j",
        "--jobs",
        type=int_range(1, 256),
        default=None,
        help="Worker processes (default: all cores).  The result does not depend on it.",
    )(command)


def seed_option(default: int = 1, what: str = "the deals and the computer's choices"):
    """``--seed``: any integer; the same seed gives byte-identical results."""
    return click.option(
        "--seed",
        type=INT,
        default=default,
        show_default=True,
        help=f"Seed for {what} (SHA-256 derived; the same seed, the same result).",
    )


def games_option(default: int = 100):
    """``--games``: how many games a match or tuning run plays (deals played twice)."""
    return click.option(
        "--games",
        type=int_range(1, 100_000),
        default=default,
        show_default=True,
        help="Number of games; each deal is played twice with the sides swapped.",
    )


def runs_option(default: int, maximum: int):
    """``--runs``: repetitions of a benchmark; the median is reported."""
    return click.option(
        "--runs",
        type=int_range(1, maximum),
        default=default,
        show_default=True,
        help="Repetitions; the median is shown.",
    )


def log_options(with_force: bool = True):
    """``--log FILE``, ``--resume`` (and ``--force`` for the log), the same in every
    game's ``match``."""

    def decorate(command):
        if with_force:
            command = click.option("--force", is_flag=True, help="Overwrite --log.")(command)
        command = click.option(
            "--resume",
            is_flag=True,
            help="Continue the match in --log: play only the games not yet logged "
            "(with --games at most the logged number: summarize that many, play none).",
        )(command)
        return click.option(
            "--log",
            type=click.Path(dir_okay=False),
            help="Append each finished game to this JSON-lines file as it ends "
            "(a killed match keeps them).",
        )(command)

    return decorate
