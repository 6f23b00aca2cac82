"""The package installs as one namespace, ``fechtbuch``, with all its code and data."""

from __future__ import annotations

import ast
from pathlib import Path

import fechtbuch
import pytest
from fechtbuch.engines.paths import data_file, data_path

ROOT = Path(fechtbuch.__file__).resolve().parent
TOP_LEVEL = ("engines", "solver", "puzzles", "data")


def _listed_packages() -> set[str]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {"fechtbuch": "."}
    return set(config["packages"])


def test_every_package_folder_is_listed_in_pyproject():
    found = {"fechtbuch"}
    for top in TOP_LEVEL:
        for init in (ROOT / top).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            found.add(".".join(("fechtbuch", *parts)))
    assert found == _listed_packages()


def test_no_module_imports_the_bare_top_level_names():
    """Installed, only ``fechtbuch.*`` exists; a bare ``import engines`` works only in a clone."""
    offenders = []
    sources = [ROOT / "cli.py", *(p for top in TOP_LEVEL for p in (ROOT / top).rglob("*.py"))]
    sources += list((ROOT / "tests").rglob("*.py"))
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in ("engines", "solver", "puzzles", "cli", "data"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
        text = path.read_text()
        for lineno, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith((">>> from ", ">>> import ")):
                name = stripped.split()[2]
                if name.split(".")[0] in ("engines", "solver", "puzzles", "cli"):
                    offenders.append(f"{path.relative_to(ROOT)}:{lineno} doctest {name}")
    assert offenders == []


def test_shipped_data_is_read_through_the_package():
    assert data_file("packs", "fechtuebungen.json").read_bytes().startswith(b"{")
    assert data_path("schema", "pack.schema.json").is_file()
    assert fechtbuch.__version__
