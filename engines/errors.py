"""Error types shared by every game and tool of fechtbuch.

:class:`InputError` marks bad input from a user or a file.  The CLI turns it
into one line on stderr and exit status 2; anything else is a bug and keeps
its traceback.  :func:`quote` is how a message quotes the bad text.
"""

QUOTE_LIMIT = 200
"""At most this many characters of bad input are quoted in an error line."""


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, so an error line stays readable
    when the bad input is a 40 MB file or a 10,000-character argument.

    >>> quote("x" * 300, 5)
    "'xxxxx'... (300 characters)"
    """
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


class InputError(ValueError):
    """Bad input; the message names the field and quotes the bad text."""


class NotationError(InputError):
    """Text that is not a state or an action in a game's notation (every game's
    notation errors derive from it, so a tool can catch them without naming a game)."""


class IllegalActionError(InputError):
    """An action that is well written but not legal in the state it is played in."""


class RecordError(InputError):
    """A game record that cannot be read (every game's record errors derive from it)."""
