"""A fourth game plugs in through one folder and one registration line.

Abzählen (tests/toygame/) is registered only by naming its plugin module in
FECHTBUCH_PLUGINS; no file of fechtbuch names it.  The generic paths then run on it
unchanged: the conformance test's checks, ``solve`` with proof and independent
verification, mining a pack, ``pack verify``, terminal play through stdin, and a
match between two strengths.  Commands run as real processes, as a user runs them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parents[1]  # where toygame/ is
PLUGIN = "toygame.plugin"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["FECHTBUCH_PLUGINS"] = PLUGIN
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    return env


def fechtbuch(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fechtbuch", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=_env(),
        cwd=cwd,
        timeout=300,
    )


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setenv("FECHTBUCH_PLUGINS", PLUGIN)
    monkeypatch.syspath_prepend(str(TESTS))


def test_the_registry_lists_it_only_when_registered(registered, monkeypatch):
    from fechtbuch.engines.registry import game, plugins

    assert [p.slug for p in plugins()][-1] == "abzaehlen"
    assert game("abzaehlen").info.title == "Abzählen"
    monkeypatch.delenv("FECHTBUCH_PLUGINS")
    assert "abzaehlen" not in [p.slug for p in plugins()]


def test_the_conformance_test_runs_on_it_unchanged():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "-q",
            "-p",
            "no:cacheprovider",
            str(TESTS / "unit" / "test_conformance.py"),
            "-k",
            "abzaehlen",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        env=_env(),
        cwd=TESTS.parent,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))
    assert passed >= 5  # every check that a game without reference or kernel takes


def test_solve_proves_and_verifies():
    done = fechtbuch("abzaehlen", "solve", "4 A 00 11", "--max", "3", "--verify", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    # 4, no pushes or feints left: take1 leaves 3, whatever B does A finishes next turn
    assert (answer["status"], answer["distance"], answer["keys"]) == ("found", 2, ["take1"])
    assert answer["verified"] is True
    bad = fechtbuch("abzaehlen", "solve", "4 C 00 11")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "mover" in bad.stderr


def test_mine_a_pack_then_verify_and_play_it(tmp_path):
    pack = tmp_path / "abz.json"
    mined = fechtbuch(
        "abzaehlen", "mine", "--n", "1", "--n", "2", "--count", "2", "-o", str(pack), "-j", "2"
    )
    assert mined.returncode == 0, mined.stderr
    data = json.loads(pack.read_bytes())
    assert data["rules"] == "abzaehlen" and [p["n"] for p in data["puzzles"]] == [1, 1, 2, 2]
    again = tmp_path / "again.json"
    assert fechtbuch("abzaehlen", "mine", "--n", "1", "--n", "2", "--count", "2",
                     "-o", str(again), "-j", "1").returncode == 0  # fmt: skip
    assert again.read_bytes() == pack.read_bytes()  # the same bytes for any -j
    verified = fechtbuch("pack", "verify", str(pack))
    assert verified.returncode == 0 and "0 problems: OK" in verified.stdout, verified.stderr
    puzzle = data["puzzles"][0]
    played = fechtbuch("pack", "play", str(pack), "--puzzle", "1", stdin=puzzle["key"] + "\n")
    assert played.returncode == 0 and "Solved" in played.stdout, played.stdout + played.stderr
    broken = dict(data, puzzles=[dict(puzzle, key="push"), *data["puzzles"][1:]])
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    caught = fechtbuch("pack", "verify", str(tmp_path / "broken.json"))
    assert caught.returncode == 1 and "key: differs" in caught.stdout
    # every exercise carries the game that reached it; an edited witness is caught
    assert all(p["witness"]["start"].endswith(" A 22 00") for p in data["puzzles"])
    moves = puzzle["witness"]["moves"] + ["take1"]
    edited = dict(puzzle, witness={"start": puzzle["witness"]["start"], "moves": moves})
    (tmp_path / "edited.json").write_text(json.dumps(dict(data, puzzles=[edited])))
    caught = fechtbuch("pack", "verify", str(tmp_path / "edited.json"))
    assert caught.returncode == 1 and "witness: reaches" in caught.stdout
    # the game's own part of the pack schema (its pack kind's) is checked first
    (tmp_path / "notation.json").write_text(
        json.dumps(dict(data, puzzles=[dict(puzzle, key="skip")]))
    )
    caught = fechtbuch("pack", "verify", str(tmp_path / "notation.json"))
    assert (
        caught.returncode != 0
        and "puzzles/0/key: 'skip' is not one of" in caught.stdout + caught.stderr
    )


def test_play_in_the_terminal_through_stdin():
    # seed 1 deals 15; the perfect computer answers every take1 of ours
    done = fechtbuch(
        "abzaehlen", "play", "--strength", "perfekt", "--seed", "1", stdin="take1\n?\nnope\nq\n"
    )
    assert done.returncode == 0, done.stderr
    assert "15 A 22 00" in done.stdout and "Player 2 plays" in done.stdout
    assert "Legal: take1 take2 push feint" in done.stdout
    assert "Not understood: action: 'nope'" in done.stdout and "Player 1 quits." in done.stdout


def test_a_match_between_two_strengths():
    done = fechtbuch("abzaehlen", "match", "zufall", "perfekt", "--games", "40", "-j", "2",
                     "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 40 and report["deals"] == 20 and len(report["results"]) == 40
    assert report["score"] < 0.25  # perfect play wins nearly every deal
    serial = fechtbuch("abzaehlen", "match", "zufall", "perfekt", "--games", "40", "--json")
    games = [g["actions"] for g in json.loads(serial.stdout)["results"]]
    assert games == [g["actions"] for g in report["results"]]  # the same games for any -j


def test_a_killed_match_resumes_from_its_log(tmp_path):
    log = tmp_path / "m.jsonl"
    first = fechtbuch("abzaehlen", "match", "zufall", "perfekt", "--games", "6", "--log", str(log))
    assert first.returncode == 0, first.stderr
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])  # a kill tore game 4
    args = ["abzaehlen", "match", "zufall", "perfekt", "--games", "6", "--json"]
    resumed = fechtbuch(*args, "--log", str(log), "--resume")
    fresh = fechtbuch(*args)
    assert resumed.returncode == 0, resumed.stderr
    games = [
        [(g["outcome"], g["actions"]) for g in json.loads(out.stdout)["results"]]
        for out in (resumed, fresh)
    ]
    assert len(games[0]) == 6 and games[0] == games[1]
    again = fechtbuch(*args, "--log", str(log))
    assert again.returncode == 2 and "--resume" in again.stderr


@pytest.mark.parametrize(
    "plugins, fragment",
    [
        ("nosuch.plugin", "cannot import 'nosuch.plugin'"),
        ("json", "'json' has no PLUGIN"),
        ("toygame.plugin,toygame.plugin", "'abzaehlen' names both"),
    ],
)
def test_a_bad_plugin_registration_is_one_line(plugins, fragment):
    env = _env() | {"FECHTBUCH_PLUGINS": plugins}
    for args in (["--help"], ["solve", "x"]):
        done = subprocess.run(
            [sys.executable, "-m", "fechtbuch", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and fragment in done.stderr, done.stderr


def test_the_generic_play_takes_the_shared_play_options(registered):
    """--strength, --seat and --seed come from the one factory (commands/playoptions.py),
    so the generic play speaks as every game's play does; without --seed the seed is
    random and printed."""
    import click
    from fechtbuch.commands.generic import group
    from fechtbuch.commands.playoptions import PlayOption
    from fechtbuch.engines.registry import plugin

    play = group(plugin("abzaehlen")).get_command(click.Context(click.Group()), "play")
    ideas = {p.name: p for p in play.params if isinstance(p, PlayOption)}
    assert set(ideas) == {"strength", "seat", "seed"}
    done = fechtbuch("abzaehlen", "play", stdin="q\n")
    seed = int(done.stdout.split("Seed ", 1)[1].split(" ", 1)[0])
    again = fechtbuch("abzaehlen", "play", "--seed", str(seed), stdin="q\n")
    assert again.stdout == done.stdout


def test_a_wartesaal_table_plays_it_with_its_own_setup(registered, tmp_path):
    """Two members at a table of the toy game: its variants come from its TableSetup,
    the start from the variant's range, and the page's drawing from its WebGame."""
    import random

    from fechtbuch.wartesaal.games import catalogue
    from fechtbuch.web.server import web_games
    from fechtbuch.web.wartesaal_page import table_drawing
    from support.wartesaal_helpers import make_room, members, open_table, play_random

    [toy] = [g for g in catalogue() if g["game"] == "abzaehlen"]
    assert toy["variants"] == {"klein": "start at 5 to 9", "gross": "start at 10 to 15"}
    room = make_room(tmp_path / "room.db")
    ida, jan = members(room, "Ida", "Jan")
    table_id = open_table(room, ida, [jan], game="abzaehlen", variant="gross")
    seated = room.table_message(ida, table_id)
    mover = {"Ida": ida, "Jan": jan}[seated["seats"][seated["to_act"]]]
    message = room.table_message(mover, table_id)  # the seat to act gets the legal actions
    assert 10 <= int(message["view"].split()[0]) <= 15
    draw = table_drawing({slug: entry.web for slug, entry in web_games().items()})
    drawn = draw(message)
    assert drawn["board"]["view"]["number"] == int(message["view"].split()[0])
    assert [a["text"] for a in drawn["legal_views"]] == message["legal"] != []
    final = play_random(room, table_id, {"Ida": ida, "Jan": jan}, random.Random(4))
    assert final["status"] == "finished" and sorted(final["result"]) == [0.0, 1.0]
