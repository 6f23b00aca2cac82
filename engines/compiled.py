"""Compiled kernels: the one ``njit`` of fechtbuch, with a cache that never goes stale.

numba's on-disk cache (``cache=True``) keys a function by its own source file only.
A kernel that inlines another module's function or global array (dfpn.py calls
fast.py, fast.py reads the card table of cards.py) would keep running machine code
built from the old source after an edit or an upgrade.  So every fechtbuch kernel
is cached in a folder named by a fingerprint of *all* fechtbuch sources (every
``.py`` file of engines/, solver/ and puzzles/), of the name the package was
imported under, and of the numba and Python versions: change any byte and the
cache is a new, empty folder.

The folder is ``$FECHTBUCH_CACHE_DIR`` if set, else
``$XDG_CACHE_HOME/fechtbuch/numba/<fingerprint>`` (``~/.cache/...`` by default).
Every kernel module imports :func:`njit` from here instead of from numba, so the
cache folder is set before the first kernel is decorated.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numba
from numba.core import config as numba_config

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("engines", "solver", "puzzles")


QUICK_COMPILE = "FECHTBUCH_QUICK_COMPILE"
"""Set to 1: the table kernels' helpers are called, not inlined (:func:`table_inline`)."""


def table_inline() -> str:
    """numba's ``inline`` for the helpers of the table sweeps: ``"always"`` (the sweeps
    run fastest), or ``"never"`` with ``FECHTBUCH_QUICK_COMPILE=1``: numba's inlining
    of them is most of the tables' compile time, which a run that builds only small
    tables (the test suite) pays for nothing.  The same results either way; the mode
    is part of :func:`source_fingerprint`, so the two never share cached code."""
    return "never" if os.environ.get(QUICK_COMPILE) == "1" else "always"


@cache
def source_fingerprint() -> str:
    """SHA-256 over every fechtbuch source file (path and bytes) and the toolchain."""
    digest = hashlib.sha256()
    # The module name too: a clone also imports as ``engines.…`` from its root, and
    # numba's cached code records the module it was built in.
    toolchain = (
        f"{__name__}; numba {numba.__version__}; python {sys.version}; {platform.machine()};"
        f" table helpers inlined {table_inline()}"
    )
    digest.update(toolchain.encode())
    for folder in SOURCE_FOLDERS:
        for path in sorted((PACKAGE_ROOT / folder).rglob("*.py")):
            digest.update(path.relative_to(PACKAGE_ROOT).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def cache_dir() -> Path:
    """Where the compiled kernels of this exact source tree are cached."""
    override = os.environ.get("FECHTBUCH_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fechtbuch" / "numba" / source_fingerprint()


def _use_fingerprinted_cache() -> None:
    # numba reads CACHE_DIR when a cached function is created, so setting it here,
    # before any fechtbuch kernel is decorated, is enough.
    numba_config.CACHE_DIR = str(cache_dir())


_use_fingerprinted_cache()


def njit(*args, **kwargs) -> Callable:
    """``numba.njit`` with ``cache=True`` by default, cached under :func:`cache_dir`."""
    kwargs.setdefault("cache", True)
    return numba.njit(*args, **kwargs)
