"""Proof search: the compiled df-pn and minimax (specialised per game kernel), the
generic pure-Python prover and verifier for any AND/OR problem, and Battleklinge's
solve API.

``solve`` and ``SolveResult`` are loaded on first use, so that importing the
game-independent modules (``fechtbuch.solver.dfpn``, ``.andor_prover``, ...) does
not import Battleklinge.

>>> from fechtbuch.solver import solve
"""

from __future__ import annotations

__all__ = ["SolveResult", "solve"]


def __getattr__(name: str):
    if name in __all__:
        from fechtbuch.solver import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
