"""Headless Chromium for the viewer tests: load a page with a URL fragment, read its result.

Without Chromium the tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import urllib.parse

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail("CI=true but chromium is not installed (.ci/run installs it)")
    pytest.skip("chromium not installed (Debian: apt-get install chromium)")


def run_page(page_file, tmp_path, fragment: str, *extra: str, budget_ms=30_000) -> tuple[str, str]:
    """Load the page in headless Chromium with a URL fragment; return (stdout, stderr).

    Timers (the computer's reply delay, the self-test's polling) run in virtual
    time, so ``budget_ms`` of page time pass in a fraction of it."""
    binary = chromium()
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    profile.mkdir()
    url = page_file.as_uri() + "#" + urllib.parse.quote(fragment)
    done = subprocess.run(
        [
            binary,
            *CHROMIUM_FLAGS,
            f"--virtual-time-budget={budget_ms}",
            f"--user-data-dir={profile}",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # The page logs nothing; any console line of it is an error or a warning we caused.
    # Chromium's own pages (source chrome://...) log too, e.g. "Slow network is
    # detected" on a busy machine: not ours.
    console = [
        line
        for line in done.stderr.splitlines()
        if ":CONSOLE" in line and "source: chrome://" not in line
    ]
    assert console == [], console
    return done.stdout, done.stderr


def self_test(page_file, tmp_path, puzzle, actions=None, budget_ms=30_000):
    """Run the page's self-test for one puzzle, or for a list of {puzzle, actions} specs."""
    spec = json.dumps(puzzle if actions is None else {"puzzle": puzzle, "actions": actions})
    out, _ = run_page(page_file, tmp_path, "selftest=" + spec, "--dump-dom", budget_ms=budget_ms)
    match = re.search(r'<pre id="selftest-result" hidden="">(.*?)</pre>', out, re.S)
    assert match, out[-2000:]
    result = json.loads(
        match.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    )
    assert result["errors"] == []
    return result["value"]
