"""Proof-number search, minimax verification and the solve API for Battleklinge.

>>> from fechtbuch.solver import solve
"""

from fechtbuch.solver.api import SolveResult, solve

__all__ = ["SolveResult", "solve"]
