"""Run the doctests of every fechtbuch module, imported under its installed name.

(pytest's ``--doctest-modules`` would import the folders under their repository
names, ``engines.…``, a second copy of every module.)
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import fechtbuch
import pytest


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(fechtbuch.__path__, "fechtbuch."):
        if info.name in ("fechtbuch.__main__",) or info.name.startswith("fechtbuch.tests"):
            continue
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
