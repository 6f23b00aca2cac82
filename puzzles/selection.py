"""Choosing a pack from a mined pool with OR-Tools CP-SAT, for any game.

One boolean per candidate (``pick[i]``).  The game states what it balances with
the few building blocks here: hard counts (:meth:`PackModel.exactly`,
:meth:`PackModel.at_most`), and soft ones whose every missing or surplus exercise
costs a weight in the objective (:meth:`PackModel.at_least`,
:meth:`PackModel.at_most_soft`, :meth:`PackModel.penalty`).  :meth:`PackModel.solve`
maximises the summed quality scores minus the weighted penalties with one worker,
a fixed random seed and a deterministic time limit, so the same pool gives the
same pack on every run and machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from fechtbuch.engines.errors import InputError

DETERMINISTIC_SECONDS = 20.0


class PoolTooSmall(InputError):
    """The pool cannot fill the requested pack."""


class PackModel:
    """A CP-SAT model with one boolean per candidate of a pool of ``size``."""

    def __init__(self, size: int) -> None:
        from ortools.sat.python import cp_model  # heavy: imported only when a pack is chosen

        self._cp_model = cp_model
        self.model = cp_model.CpModel()
        self.pick = [self.model.new_bool_var(f"x{i}") for i in range(size)]
        self.penalties: dict[int, list] = {}
        """Penalty variables by their weight in the objective, in creation order."""

    def total(self, members: Sequence[int]):
        return sum(self.pick[i] for i in members)

    def exactly(self, members: Sequence[int], count: int) -> None:
        self.model.add(self.total(members) == count)

    def at_most(self, members: Sequence[int], count: int) -> None:
        self.model.add(self.total(members) <= count)

    def penalty(self, upper: int, name: str, weight: int):
        """A new penalty variable 0..``upper`` costing ``weight`` per unit."""
        var = self.model.new_int_var(0, upper, name)
        self.penalties.setdefault(weight, []).append(var)
        return var

    def at_least(
        self, members: Sequence[int], want: int, name: str, weight: int, upper: int | None = None
    ) -> None:
        """Soft: at least ``want`` of ``members`` (each one short costs ``weight``).
        With ``upper`` None the shortfall is bounded by ``want`` and a ``want`` of
        0 or less adds nothing; else it is bounded by ``upper`` and always added."""
        if upper is None:
            if want <= 0:
                return
            upper = want
        short = self.penalty(upper, name, weight)
        self.model.add(self.total(members) + short >= want)

    def at_most_soft(
        self, members: Sequence[int], cap: int, name: str, weight: int, upper: int
    ) -> None:
        """Soft: at most ``cap`` of ``members`` (each one over costs ``weight``)."""
        over = self.penalty(upper, name, weight)
        self.model.add(self.total(members) - over <= cap)

    def solve(self, scores: Sequence[int], seed: int) -> list[int]:
        """Indices of the chosen candidates, in pool order; PoolTooSmall if the hard
        constraints cannot be met."""
        cp_model = self._cp_model
        objective = sum(s * p for s, p in zip(scores, self.pick, strict=True))
        for weight, variables in self.penalties.items():
            objective = objective - weight * sum(variables)
        self.model.maximize(objective)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed % (2**31)
        solver.parameters.max_deterministic_time = DETERMINISTIC_SECONDS
        # CP-SAT would catch Ctrl-C itself and return its best selection so far: a pack
        # that depends on when the key was pressed.  Left to Python, Ctrl-C stops mining
        # after the solve, the pool is kept, and --resume makes the same pack again.
        solver.parameters.catch_sigint_signal = False
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise PoolTooSmall("pool: no selection satisfies the pack's hard constraints")
        return [i for i, p in enumerate(self.pick) if solver.boolean_value(p)]
