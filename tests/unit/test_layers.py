"""Layers hold: the import-linter contracts of .importlinter, and no bare imports.

import-linter (rather than a grep) because it follows every import, including
those inside functions, through the whole package graph, so an upward import
such as engines -> puzzles shows with the chain that makes it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BARE = re.compile(
    r"^\s*(?:>>> |\.\.\. )?(?:from|import)\s+(engines|solver|puzzles|web|cli)\b", re.M
)


def test_import_contracts_hold():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(lint).exists():
        pytest.fail("lint-imports is missing: pip install -e '.[test]'")
    result = subprocess.run(
        [lint, "--config", str(ROOT / ".importlinter")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_no_bare_top_level_imports():
    """Imports (doctest examples included) say ``fechtbuch.engines``, never ``engines``."""
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[0] in {"build", "dist"}:
            continue
        for match in BARE.finditer(path.read_text(encoding="utf-8")):
            line = path.read_text(encoding="utf-8").count("\n", 0, match.start()) + 1
            offenders.append(f"{relative}:{line}: {match.group(0).strip()}")
    assert offenders == []


def test_every_generic_module_is_in_the_generic_contract():
    """A module at the top of solver/, puzzles/ or web/ is generic: the contract that forbids
    it to import a game must name it, so a new module cannot slip past."""
    config = (ROOT / ".importlinter").read_text()
    block = config.split("[importlinter:contract:generic]")[1].split("forbidden_modules")[0]
    listed = set(re.findall(r"fechtbuch\.(\w+\.\w+)", block))
    for layer in ("solver", "puzzles", "web"):
        for path in (ROOT / layer).glob("*.py"):
            if path.stem != "__init__":
                assert f"{layer}.{path.stem}" in listed, (
                    f"{layer}/{path.name} is not in the contract"
                )
