"""Private network namespaces for the Ray tests: Ray binds to the machine's interface by
default, so its clusters run under ``unshare -n`` with the loopback up, where they can
only use 127.0.0.1."""

from __future__ import annotations

import shutil
import subprocess


def namespace_problem() -> str | None:
    """Why a private network namespace cannot be made here, or None."""
    if shutil.which("unshare") is None:
        return "no unshare command"
    try:
        probe = subprocess.run(
            ["unshare", "-n", "sh", "-c", "ip link set lo up"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"unshare -n failed: {err}"
    if probe.returncode != 0:
        return f"unshare -n is not permitted here: {probe.stderr.strip()[:200]}"
    return None
