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
