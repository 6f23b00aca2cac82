"""Where the shipped data lives: the package ``fechtbuch.data`` (``data/`` in the repository).

Read through :mod:`importlib.resources`, so an installed wheel finds its own data
from any folder.  :func:`data_file` gives a traversable resource; :func:`data_path`
a real file on disk for callers that must hand a path to another program (for a zip
install it is extracted for the life of the process).
"""

from __future__ import annotations

import atexit
from contextlib import ExitStack
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


def data_file(*parts: str) -> Traversable:
    """The shipped resource ``data/<parts...>`` (read it with ``read_bytes``)."""
    node = resources.files("fechtbuch.data")
    for part in parts:
        node = node / part
    return node


@cache
def data_path(*parts: str) -> Path:
    """The shipped file ``data/<parts...>`` as a path on disk."""
    stack = ExitStack()
    atexit.register(stack.close)
    return Path(stack.enter_context(resources.as_file(data_file(*parts))))
