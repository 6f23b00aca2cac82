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
from fechtbuch.engines.registry import PLUGIN_MODULES

ROOT = Path(__file__).resolve().parents[2]
BARE = re.compile(
    r"^\s*(?:>>> |\.\.\. )?(?:from|import)\s+(engines|solver|puzzles|web|cli)\b", re.M
)


LAYERS = ("engines", "solver", "puzzles", "commands", "web")
"""The layers that hold a folder per game (``<layer>/<game>/``); ``wartesaal`` holds none."""


def game_packages() -> dict[str, list[str]]:
    """Each built-in game's packages in every layer, from the registry (a game's folder
    in a layer is its plugin's ``package`` name)."""
    from fechtbuch.engines.plugin import load

    packages = {}
    for module in PLUGIN_MODULES:
        package = load(f"{module}:PLUGIN").package
        packages[package] = [
            f"fechtbuch.{layer}.{package}"
            for layer in LAYERS
            if (ROOT / layer / package / "__init__.py").exists()
        ]
    return packages


def generic_modules() -> list[str]:
    """Every module or package at the top of a layer that is not a game's folder, and the
    whole Wartesaal: the code that is the same for every game."""
    games = set(game_packages())
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).iterdir()):
            name = path.stem if path.suffix == ".py" else path.name
            is_package = path.is_dir() and (path / "__init__.py").exists()
            if name == "__init__" or name in games or not (path.suffix == ".py" or is_package):
                continue
            found.append(f"fechtbuch.{layer}.{name}")
    return [*found, "fechtbuch.wartesaal"]


def game_contracts() -> str:
    """The contracts that name games, in import-linter's format: generic code imports no
    game, and each game's packages import no other game's."""
    packages = game_packages()
    every_game = [name for names in packages.values() for name in names]
    lines = ["[importlinter:contract:generic]"]
    lines.append("name = Generic modules of every layer import no game (from the registry)")
    lines += ["type = forbidden", "source_modules ="]
    lines += [f"    {name}" for name in generic_modules()]
    lines += ["forbidden_modules ="] + [f"    {name}" for name in every_game]
    for game, own in packages.items():
        others = [name for name in every_game if name not in own]
        lines += ["", f"[importlinter:contract:game-{game}]"]
        lines.append(f"name = Every package of {game} (each layer) imports no other game")
        lines += ["type = forbidden", "source_modules ="] + [f"    {name}" for name in own]
        lines += ["forbidden_modules ="] + [f"    {name}" for name in others]
    return "\n".join(lines) + "\n"


def test_import_contracts_hold(tmp_path):
    """.importlinter's contracts plus those derived from the registry all hold."""
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(lint).exists():
        pytest.fail("lint-imports is missing: pip install -e '.[test]'")
    config = tmp_path / "importlinter.ini"
    config.write_text((ROOT / ".importlinter").read_text() + "\n" + game_contracts())
    result = subprocess.run(
        [lint, "--config", str(config)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout
    for game in game_packages():
        assert f"Every package of {game}" in result.stdout


def test_the_game_contracts_cover_every_game_and_layer():
    """Each game has its engines package in the contracts, and every top-level module of
    every layer is generic (so a new module or game cannot slip past a hand-kept list)."""
    packages = game_packages()
    assert set(packages) == {"battleklinge", "touche_duell", "touche_pyramiden"}
    assert all(f"fechtbuch.engines.{game}" in names for game, names in packages.items())
    generic = generic_modules()
    assert "fechtbuch.engines.registry" in generic and "fechtbuch.commands.options" in generic
    assert not any(name.endswith(tuple(packages)) for name in generic)


def test_no_import_cycles():
    """No two modules of the package import each other, directly or through others (an
    import inside a function counts): a cycle is a name living in the wrong module."""
    import grimp

    graph = grimp.build_graph("fechtbuch")
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if graph.chain_exists(imported=module, importer=imported):
                chain = graph.find_shortest_chain(importer=imported, imported=module)
                cycles.append(f"{module} -> {' -> '.join(chain)}")
    assert cycles == [], "\n".join(cycles[:40])


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
