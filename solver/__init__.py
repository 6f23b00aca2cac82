"""Proof-number search, minimax verification and the solve API for Battleklinge.

>>> from solver import solve
"""

from solver.api import SolveResult, solve

__all__ = ["SolveResult", "solve"]
