"""The package installs as one namespace, ``fechtbuch``, with all its code and data."""

from __future__ import annotations

from pathlib import Path

import fechtbuch
import pytest
from fechtbuch.engines.paths import data_file, data_path

ROOT = Path(fechtbuch.__file__).resolve().parent
TOP_LEVEL = ("engines", "solver", "puzzles", "commands", "wartesaal", "web", "data")


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


def test_shipped_data_is_read_through_the_package():
    assert data_file("packs", "fechtuebungen.json").read_bytes().startswith(b"{")
    assert data_path("schema", "pack.schema.json").is_file()
    assert fechtbuch.__version__
