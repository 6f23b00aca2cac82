"""Error types shared by every game and tool of fechtbuch.

:class:`InputError` marks bad input from a user or a file.  The CLI turns it
into one line on stderr and exit status 2; anything else is a bug and keeps
its traceback.
"""


class InputError(ValueError):
    """Bad input; the message names the field and quotes the bad text."""
