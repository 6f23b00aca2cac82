"""The command line speaks one language: every option explained, the same idea
under the same name in every command, shipped packs reachable by name."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from fechtbuch import cli
from support.clirun import run


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        path = (*prefix, name)
        if isinstance(command, click.Group):
            yield from _commands(command, path)
        else:
            yield " ".join(path), command


COMMANDS = dict(_commands(cli.main))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_has_help_and_the_command_an_example(name):
    command = COMMANDS[name]
    missing = [
        "/".join(p.opts)
        for p in command.params
        if isinstance(p, click.Option) and not p.help and p.name != "help"
    ]
    assert missing == [], f"fechtbuch {name}: options without help: {missing}"
    assert (command.help or "").strip(), f"fechtbuch {name} has no help text"


def test_cli_py_registers_commands_and_defines_none():
    """Each command lives next to the code it drives; cli.py only wires, from the
    registry, and changes no group of another module."""
    in_cli = [name for name, c in COMMANDS.items() if c.callback.__module__ == cli.__name__]
    assert in_cli == []
    assert "add_command" not in Path(cli.__file__).read_text()


def test_shared_options_mean_the_same_everywhere():
    """-j/--jobs, --seed, --games, --json, --force: one name, one kind of value."""
    seen: dict[str, set[str]] = {}
    for command in COMMANDS.values():
        for p in command.params:
            if isinstance(p, click.Option) and p.name in ("jobs", "force", "as_json"):
                seen.setdefault(p.name, set()).add(" ".join(sorted(p.opts)))
    assert seen["jobs"] == {"--jobs -j"}
    assert seen["force"] == {"--force"}
    assert seen["as_json"] == {"--json"}
    json_helps = {
        p.help.split(":")[0].rstrip(".")
        for c in COMMANDS.values()
        for p in c.params
        if p.name == "as_json"
    }
    assert json_helps == {"Print one JSON object instead of text"}  # one factory, json_option
    jobs_defaults = {
        name: p.default for name, c in COMMANDS.items() for p in c.params if p.name == "jobs"
    }
    assert set(jobs_defaults.values()) == {None}, jobs_defaults  # None: all cores


def test_shipped_pack_by_name_and_puzzle_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one = run("pack", "show", "fechtuebungen", "--puzzle", "1")
    assert one.exit_code == 0, one.output
    assert run("pack", "show", "fechtuebungen", "--id", "1").output == one.output
    missing = run("pack", "show", "fechtuebungen", "--puzzle", "99")
    assert missing.exit_code == 2 and "puzzle: no puzzle '99'" in missing.stderr
    assert run("pack", "show", "no-such-pack").exit_code == 2
    html = run("pack", "html", "fechtuebungen")
    assert html.exit_code == 0, html.output
    assert (tmp_path / "fechtuebungen.html").read_text().startswith("<!DOCTYPE html>")
    svg = run("pack", "svg", "fechtuebungen", "--puzzle", "2")
    assert svg.exit_code == 0, svg.output
    assert [p.name for p in tmp_path.glob("*.svg")] == ["puzzle-2-02.svg"]


def test_daily_export_writes_a_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("daily", "export", "--from", "2027-01-01", "--days", "1")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "daily-2027-01-01-1.json").is_file()
    again = run("daily", "export", "--from", "2027-01-01", "--days", "1")
    assert again.exit_code == 2  # never overwritten without --force


# ---- the play commands: one name per idea (commands/playoptions.py) ------------------

PLAY_COMMANDS = ("play", "touche-duell play", "touche-pyramiden play", "pack play")

SYNONYMS = {
    "--strength": {"--strength", "--level-of-play", "--engine", "--computer", "--opponent"},
    "--seat": {"--seat", "--school", "--fencer", "--colour", "--color", "--side", "--player"},
    "--seed": {"--seed"},
    "--hotseat": {"--hotseat", "--two-players", "--people", "--humans"},
    "--save": {"--save", "--record", "--output", "-o", "--write"},
    "--plain": {"--plain", "--no-colour", "--no-color", "--no-colours", "--mono"},
    "--puzzle": {"--puzzle", "--id", "--exercise", "--only"},
    "--pack": {"--pack", "--pack-file"},
    "--movetime": {"--movetime", "--time", "--think"},
    "--clock": {"--clock", "--minutes", "--time-control", "--tc"},
    "--no-warnings": {"--no-warnings", "--no-threats", "--quiet"},
    "--force": {"--force"},
}
"""Every spelling of an idea that a play command might come up with: only the first
(the :class:`~fechtbuch.commands.playoptions.PlayIdea` name) may be visible."""


def _visible_names(option: click.Option) -> set[str]:
    from fechtbuch.commands.playoptions import PlayOption

    hidden = set(option.aliases) if isinstance(option, PlayOption) else set()
    return {o for o in option.opts + option.secondary_opts if o not in hidden}


def test_play_commands_name_every_shared_idea_the_same_way():
    """Two play commands that call one idea by different names fail here: every visible
    spelling in SYNONYMS must be the idea's one name, and made by the one factory."""
    from fechtbuch.commands.playoptions import PlayIdea, PlayOption

    canonical = {idea.value for idea in PlayIdea}
    assert canonical == set(SYNONYMS)
    used: dict[str, dict[str, str]] = {}
    for name in PLAY_COMMANDS:
        for option in COMMANDS[name].params:
            if not isinstance(option, click.Option) or option.name == "help":
                continue
            for idea, spellings in SYNONYMS.items():
                visible = _visible_names(option) & spellings
                if not visible:
                    continue
                assert visible == {idea}, f"fechtbuch {name}: {sorted(visible)} is {idea} here"
                assert isinstance(option, PlayOption) and option.idea.value == idea, (
                    f"fechtbuch {name}: {idea} is not made by commands/playoptions.py"
                )
                used.setdefault(idea, {})[name] = " / ".join(
                    f"{getattr(option, key)}" for key in ("help", "default")
                )
    # the same idea reads the same in every game: one default everywhere
    for idea in ("--strength", "--seed", "--hotseat", "--save", "--force", "--plain", "--puzzle"):
        defaults = {
            p.default
            for n in PLAY_COMMANDS
            for p in COMMANDS[n].params
            if isinstance(p, PlayOption) and p.idea.value == idea
        }
        assert len(defaults) == 1, (idea, defaults)
    # the ideas every game's play has
    for idea in ("--strength", "--seat", "--seed", "--hotseat", "--save", "--pack", "--puzzle"):
        assert set(used[idea]) >= {"play", "touche-duell play", "touche-pyramiden play"}, (
            idea,
            used[idea],
        )


@pytest.mark.parametrize(
    "args, old",
    [
        (["play", "--school", "x"], "--seat"),
        (["touche", "play", "--fencer", "C"], "--seat"),
        (["touche", "play", "--two-players", "--strength", "stark"], "--strength"),
        (["pyramiden", "play", "--record", "x.txt", "--pack", "pyramiden-uebungen"], "--save"),
        (["pack", "show", "fechtuebungen", "--id", "0"], "puzzle"),
    ],
)
def test_old_option_names_still_parse(args, old):
    """Renamed options keep their old names as hidden aliases (README history, scripts)."""
    result = run(*args)
    assert result.exit_code == 2 and old in result.output + result.stderr, result.output
    assert "--school" not in run("play", "--help").output
    assert "--record" not in run("pyramiden", "play", "--help").output


def test_every_game_s_benchmarks_are_reached_the_same_way():
    """fechtbuch GAME bench [NAME ...] for every game with a command group: the
    developer tools that had only 'python -m' are subcommands there."""
    from fechtbuch.engines.registry import plugins

    ctx = click.Context(cli.main)
    for entry in plugins():
        group = cli.main.get_command(ctx, entry.slug)
        bench = group.get_command(ctx, "bench")
        assert bench is not None, entry.slug
    nested = {
        "battleklinge": {"meister", "eval-fit", "tactics-suite", "solve", "perft"},
        "touche-duell": {"proof", "crosscheck", "mine"},
    }
    for slug, names in nested.items():
        bench = cli.main.get_command(ctx, slug).get_command(ctx, "bench")
        assert names <= set(bench.list_commands(ctx)), slug


def test_a_tool_behind_bench_gets_its_arguments_unchanged():
    out = run("touche", "bench", "crosscheck", "--set", "tiny:12:2", "--n", "1")
    assert out.exit_code == 0, out.output
    bad = run("touche", "bench", "crosscheck", "--n", "9")
    assert bad.exit_code == 2
