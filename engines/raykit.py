"""Ray for the commands that offer ``--ray`` / ``--ray-address``: imported only when
asked for (Ray is the optional extra ``fechtbuch[ray]``), connected to a cluster or
started locally, every failure one line naming the option."""

from __future__ import annotations

import os
from typing import Any

from fechtbuch.engines.errors import InputError


def import_ray(option: str = "--ray"):
    """The ``ray`` module, imported only when asked for; one line naming ``option``
    when it is not installed."""
    try:
        import ray
    except ImportError:
        raise InputError(
            f"{option}: Ray is not installed; install it with pip install 'fechtbuch[ray]'"
        ) from None
    return ray


def connect_ray(address: str | None, jobs: int | None) -> bool:
    """Join the cluster at ``address``, or start a local Ray with ``jobs`` CPUs (all
    cores by default), unless this process is connected already.  True when this
    call started the connection (the caller shuts it down)."""
    ray = import_ray("--ray-address" if address is not None else "--ray")
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is None:
        options["num_cpus"] = jobs or os.cpu_count() or 1
    else:
        options["address"] = address
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InputError(f"--ray-address: cannot connect to Ray ({first})") from None
    return True
