"""Players are wired explicitly: a library caller gets the command line's players.

The game plugin names each game's player factory; the command line reads it from
the registry, and so does a program that never imports ``fechtbuch.cli``.  Each test
runs a fresh interpreter twice (with and without importing the command line first)
and compares the choices, so no state set by one import can hide in the other.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

CHOICES = """
import sys
if sys.argv[1] == "with-cli":
    import fechtbuch.cli  # noqa: F401
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import plugin
{body}
"""

DUEL = """
from fechtbuch.engines.touche_duell.notation import parse_view
factory = load(plugin("touche-duell").players)
meister = factory.make("meister", seed="wiring")
print(type(meister.oracle).__name__)
# a sure win that only the proof finds: without it meister moves (m+5) instead of
# lunging (l2a5x1)
print(meister.choose(parse_view("fortgeschritten 14-21 0:0 A zug 12225/?5 12434 ?1")))
"""

BATTLEKLINGE = """
from fechtbuch.engines.battleklinge.position import Position
factory = load(plugin("battleklinge").players)
stark = factory.make("stark", seed=3)
print(type(stark.forced.hits).__name__)
pos = Position.from_text("1m3/3s1/1S2M/5/1s2S g terz,quint riposte,stoss volte")
print(stark.choose(pos).move.to_text())
"""


def _run(body: str, mode: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CHOICES.format(body=body), mode],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "body, oracle, choice",
    [(DUEL, "ProofTactics", "LUNGE"), (BATTLEKLINGE, "SolverHits", "quint:e3d4")],
    ids=["touche-duell", "battleklinge"],
)
def test_library_players_are_the_command_line_players(body, oracle, choice):
    alone, with_cli = _run(body, "alone"), _run(body, "with-cli")
    assert alone == with_cli
    assert alone.splitlines()[0] == oracle  # the solver's help, not a weaker player
    assert choice in alone.splitlines()[1]  # the forced hit's only key / the proved lunge


def test_the_command_line_plays_what_the_library_plays():
    """fechtbuch hint (the command line's wiring, through the click context) chooses
    what the plugin's factory chooses in a program without the command line."""
    import json

    position = "1m3/3s1/1S2M/5/1s2S g terz,quint riposte,stoss volte"
    done = subprocess.run(
        [sys.executable, "-m", "fechtbuch", "hint", position, "--strength", "stark", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    hint = json.loads(done.stdout)
    library = _run(BATTLEKLINGE, "alone").splitlines()[1]
    assert hint["move"] == library == "quint:e3d4" and hint["reason"] == "hit"


def test_every_plugin_names_a_player_factory_for_its_strengths():
    from fechtbuch.engines.players import PlayerFactory
    from fechtbuch.engines.plugin import load
    from fechtbuch.engines.registry import plugins

    for entry in plugins():
        factory = load(entry.players)
        assert isinstance(factory, PlayerFactory)
        assert factory.strengths and all(isinstance(s, str) for s in factory.strengths)


def test_engine_commands_outside_the_command_line_say_how_to_get_players():
    from fechtbuch.commands.players import command_players

    with pytest.raises(RuntimeError, match="plugin's factory"):
        command_players("battleklinge")
