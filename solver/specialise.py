"""Compiled solver code written once, specialised per game kernel.

The compiled df-pn (:mod:`fechtbuch.solver.dfpn`) and minimax
(:mod:`fechtbuch.solver.minimax`) are *templates*: plain Python functions whose
game calls (``gen_moves``, ``make_move``, ``state_hash``, ...) are free names.
:func:`specialise` makes a copy of each template whose globals bind those names to
one game's :class:`~fechtbuch.engines.kernel.CompiledKernel` and compiles it with
``fechtbuch.engines.compiled.njit``.  To numba the kernel functions are then
ordinary globals, so the calls are direct and inlined, exactly as when the solver
imported Battleklinge's fast.py (the bench signature and speed did not move).

Why not pass the kernel as an argument?  numba 0.68 can take dispatchers (or a
tuple of them) as arguments, but it cannot find such a specialisation in its
on-disk cache again in a new process (the dispatcher type is part of the key),
so every run would recompile the solver for seconds.  Copies with their own
globals and their own name (``search__battleklinge``) are cached like any
function; the fingerprinted cache folder of ``engines/compiled.py`` keeps them
from going stale.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from functools import cache

from fechtbuch.engines.compiled import njit
from fechtbuch.engines.kernel import NO_WINNER, CompiledKernel


def template(**options) -> Callable:
    """Mark a function as solver code to be specialised; ``options`` go to ``njit``."""

    def mark(function: Callable) -> Callable:
        function.__kernel_template__ = options  # type: ignore[attr-defined]
        return function

    return mark


def unbound(*_args):
    """What a template's kernel names are before :func:`specialise` binds them."""
    raise RuntimeError("solver template called without a kernel: use specialise()")


def kernel_names(kernel: CompiledKernel) -> dict[str, object]:
    return {
        "gen_moves": kernel.gen_moves,
        "make_move": kernel.make_move,
        "side_to_move": kernel.side_to_move,
        "state_hash": kernel.state_hash,
        "winner": kernel.winner,
        "has_immediate_win": kernel.has_immediate_win,
        "is_winning_move": kernel.is_winning_move,
        "STATE_SIZE": kernel.state_size,
        "MAX_MOVES": kernel.max_moves,
        "NO_WINNER": NO_WINNER,
    }


@cache
def specialise(module: types.ModuleType, kernel: CompiledKernel) -> types.SimpleNamespace:
    """Every template of ``module``, compiled against ``kernel``, by name.

    Templates are bound in the order the module defines them, and each one sees the
    specialised versions of the templates before it (``search`` calls the
    specialised ``_leaf_values``).  Each copy is named ``<name>__<kernel.name>`` so
    that numba caches each game's copy separately.
    """
    names = dict(vars(module)) | kernel_names(kernel)
    compiled = {}
    for name, function in vars(module).items():
        options = getattr(function, "__kernel_template__", None)
        if options is None or not isinstance(function, types.FunctionType):
            continue
        copy = types.FunctionType(
            function.__code__, names, function.__name__, function.__defaults__
        )
        copy.__qualname__ = f"{function.__qualname__}__{kernel.name}"
        copy.__module__ = function.__module__
        copy.__doc__ = function.__doc__
        jitted = njit(**({"cache": True} | options))(copy)
        names[name] = jitted
        compiled[name] = jitted
    return types.SimpleNamespace(**compiled)
