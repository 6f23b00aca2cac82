"""A click group whose commands are imported only when one of them runs.

``fechtbuch --help`` and small commands such as ``show`` should not pay for numba,
jsonschema and every game's kernels: a :class:`LazyGroup` lists its commands from a
table of references and one-line summaries, and imports a command's module only
when that command is asked for (to run it or to show its own help).

>>> group = LazyGroup("demo", entries=[
...     LazyEntry("startup", "fechtbuch.commands.startupbench:bench_startup_command", "Time it."),
... ], aliases={"st": "startup"})
>>> group.list_commands(None)
['startup']
>>> group.get_command(None, "st").name
'startup'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import click
from fechtbuch.engines.plugin import load


@dataclass(frozen=True)
class LazyEntry:
    """A command by reference: ``ref`` names a ``click.Command`` or a callable that
    builds one from ``args``; ``summary`` is its line in the group's help."""

    name: str
    ref: str
    summary: str
    hidden: bool = False
    args: tuple = ()


class LazyGroup(click.Group):
    """A group of :class:`LazyEntry` commands (plus any added the usual way), with
    aliases: other names that run the same command and are not listed."""

    def __init__(
        self,
        name: str | None = None,
        entries: Iterable[LazyEntry] = (),
        aliases: dict[str, str] | None = None,
        **kwargs,
    ) -> None:
        super().__init__(name=name, **kwargs)
        self.entries = {entry.name: entry for entry in entries}
        self.aliases = dict(aliases or {})
        self._loaded: dict[str, click.Command] = {}

    def list_commands(self, ctx) -> list[str]:
        listed = [n for n, e in self.entries.items() if not e.hidden]
        return listed + [n for n in super().list_commands(ctx) if n not in self.entries]

    def get_command(self, ctx, cmd_name: str) -> click.Command | None:
        name = self.aliases.get(cmd_name, cmd_name)
        if name in self.entries:
            if name not in self._loaded:
                entry = self.entries[name]
                found = load(entry.ref)
                command = found if isinstance(found, click.Command) else found(*entry.args)
                self._loaded[name] = command
            return self._loaded[name]
        return super().get_command(ctx, name)

    def resolve_command(self, ctx, args):
        # click would name the alias, not the command, in the usage line of its help
        name, command, rest = super().resolve_command(ctx, args)
        return (command.name if command is not None else name), command, rest

    def format_commands(self, ctx, formatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            entry = self.entries.get(name)
            if entry is not None:
                rows.append((name, entry.summary))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def extended(name: str, base: click.Group, entries: Iterable[LazyEntry]) -> LazyGroup:
    """A new lazy group called ``name``: ``base``'s commands (an engine's group, left
    unchanged) with ``entries`` added or put in their place, and ``base``'s help."""
    entries = tuple(entries)
    own = {entry.name for entry in entries}
    return LazyGroup(
        name,
        entries=entries,
        commands=[c for key, c in base.commands.items() if key not in own],
        help=base.help,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


def passthrough(name: str, ref: str, summary: str) -> click.Command:
    """A tool with a parser of its own (a click command or ``main(argv) -> int``),
    reached as a fechtbuch command: every argument goes to it unchanged, its own
    ``--help`` included, so each game's benchmarks are found the same way
    (``fechtbuch GAME bench NAME ...``)."""

    @click.command(
        name,
        help=f"{summary}  The arguments go to the tool; its own --help lists them.",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=False,
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def run(args: tuple[str, ...]) -> int:
        tool = load(ref)
        if isinstance(tool, click.Command):
            return tool.main(args=list(args), prog_name=name, standalone_mode=False) or 0
        return tool(list(args))

    return run
