"""How many worker processes a parallel job uses."""

from __future__ import annotations

import os


def resolve_jobs(jobs: int | None) -> int:
    """The number of workers for ``--jobs`` (``None``: every core)."""
    return jobs or os.cpu_count() or 1
