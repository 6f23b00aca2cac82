"""fechtbuch: exercise packs, proofs and play for three fencing games.

The click entry point (console script ``fechtbuch``).  Every command turns bad
input into one line on stderr and exit status 2; see :class:`FechtbuchGroup`.
"""

from __future__ import annotations

import os
import signal
import sys

from fechtbuch.engines import interrupts

if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "fechtbuch":
    interrupts.install()  # first of all: Ctrl-C during the imports below is one clean line

import click  # noqa: E402
from fechtbuch.commands.lazygroup import LazyEntry, LazyGroup  # noqa: E402
from fechtbuch.commands.players import PlayerSourcesBox  # noqa: E402
from fechtbuch.engines import __version__  # noqa: E402
from fechtbuch.engines.errors import InputError  # noqa: E402
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.plugin import load  # noqa: E402
from fechtbuch.engines.registry import plugin, plugins  # noqa: E402


class FechtbuchGroup(LazyGroup):
    """A click group whose errors are one line: ``fechtbuch: error: ...``.

    Exit status: 0 success, 1 a negative answer (unknown, failed verification),
    2 bad input (usage errors and :class:`InputError`), 130 interrupted.
    """

    def main(self, args=None, prog_name=None, **extra):  # type: ignore[override]
        interrupts.install()
        interrupts.started()
        try:
            result = super().main(args=args, prog_name=prog_name, standalone_mode=False, **extra)
        except click.exceptions.Exit as stop:
            sys.exit(stop.exit_code)
        except (KeyboardInterrupt, _Interrupted):
            interrupts.acknowledge()
            _fail("interrupted", 130)
        except click.Abort:
            interrupts.acknowledge()
            _fail("interrupted" if interrupts.received() else "stopped (end of input)", 130)
        except Exception as err:
            if interrupts.received():  # e.g. a C extension turned Ctrl-C into its own error
                interrupts.acknowledge()
                _fail("interrupted", 130)
            if isinstance(err, click.ClickException):
                status = 2 if isinstance(err, click.UsageError) else err.exit_code
                _fail(err.format_message(), status)
            if isinstance(err, InputError):
                _fail(str(err), 2)
            raise
        if args is None:  # the program itself (an embedding caller passes its args)
            # the work is done and said: a Ctrl-C from here on would only turn a
            # finished run into a killed one (Python re-raises it while shutting down)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context):
        # click would turn Ctrl-C into Abort after printing an empty line on stderr;
        # passing it through as another exception keeps the error to one line
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupts.acknowledge()
            raise _Interrupted() from None


class _Interrupted(Exception):
    """Ctrl-C on its way out of click (see :meth:`FechtbuchGroup.invoke`)."""


ERROR_LINE_LIMIT = 400
"""An error line is cut to this length: messages quote at most ~200 characters of bad
input (:func:`fechtbuch.engines.errors.quote`); this is the backstop for any that
does not (click's own messages, text from other libraries)."""


def _fail(message: str, status: int) -> None:
    one_line = " ".join(message.split())
    if len(one_line) > ERROR_LINE_LIMIT:
        one_line = one_line[: ERROR_LINE_LIMIT - 100] + " ... " + one_line[-95:]
    click.echo(f"fechtbuch: error: {one_line}", err=True)
    sys.exit(status)


def _plugin_entries() -> tuple[list[LazyEntry], dict[str, str], str | None]:
    """One entry per game (its group under its slug), the aliases, and the reference
    of the group whose commands also run without a game's name."""
    entries, aliases, shortcuts = [], {}, None
    for game in plugins():
        if game.cli is None:  # the group every game gets from its plugin alone
            entries.append(LazyEntry(game.slug, GENERIC_GROUP, game.summary, args=(game,)))
        else:
            entries.append(LazyEntry(game.slug, game.cli, game.summary))
        aliases.update({alias: game.slug for alias in game.aliases})
        if game.shortcuts:
            shortcuts = game.cli
    return entries, aliases, shortcuts


GENERIC_GROUP = "fechtbuch.commands.generic:group"

GENERIC_ENTRIES = (
    LazyEntry(
        "pack",
        "fechtbuch.commands.pack:pack_group",
        "Exercise packs of every game: verify, show, play, html, svg, motifs, rate.",
    ),
    LazyEntry(
        "render",
        "fechtbuch.commands.render:render_command",
        "Draw a position of any game as an SVG diagram.",
    ),
    LazyEntry(
        "db",
        "fechtbuch.commands.db:db_group",
        "The puzzle database of every game: mine (local or Ray), stats, query, export, verify.",
    ),
    LazyEntry(
        "serve",
        "fechtbuch.web.serve_command:serve",
        "Play every game in the browser (local server).",
    ),
)


class RegistryPlayers:
    """Each game's player factory as its plugin names it (the command line's wiring)."""

    def players(self, slug: str) -> PlayerFactory:
        entry = plugin(slug)
        if entry.players is None:
            raise InputError(f"game: {entry.title} has no computer players")
        return load(entry.players)


class TopGroup(FechtbuchGroup):
    """``fechtbuch``: the games' groups, the commands of every game, and the commands
    of the game with shortcuts (Battleklinge) without its name."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shortcuts_ref: str | None = None
        self._shortcuts: LazyGroup | None = None
        self._wired = False

    def wire(self) -> None:
        """Read the registry on first use, inside ``main``: a bad FECHTBUCH_PLUGINS is
        then one error line, not a traceback at import."""
        if self._wired:
            return
        entries, aliases, shortcuts = _plugin_entries()
        self.entries = {entry.name: entry for entry in [*entries, *GENERIC_ENTRIES]}
        self.aliases = aliases
        self.shortcuts_ref = shortcuts
        self._wired = True

    def shortcut_group(self) -> LazyGroup | None:
        self.wire()
        if self.shortcuts_ref is not None and self._shortcuts is None:
            self._shortcuts = load(self.shortcuts_ref)()
        return self._shortcuts

    def invoke(self, ctx: click.Context):
        # the commands that build computer players find the registry's factories here
        ctx.obj = PlayerSourcesBox(RegistryPlayers())
        return super().invoke(ctx)

    def list_commands(self, ctx) -> list[str]:
        self.wire()
        own = super().list_commands(ctx)
        group = self.shortcut_group()
        extra = [] if group is None else group.list_commands(ctx)
        return own + [name for name in extra if name not in own]

    def get_command(self, ctx, cmd_name: str):
        self.wire()
        command = super().get_command(ctx, cmd_name)
        group = self.shortcut_group()
        if command is None and group is not None:
            command = group.get_command(ctx, cmd_name)
        return command

    def format_commands(self, ctx, formatter) -> None:
        self.wire()
        games = [(e.name, e.summary) for e in self.entries.values() if e not in GENERIC_ENTRIES]
        with formatter.section("Games (fechtbuch GAME --help)"):
            formatter.write_dl(games)
        with formatter.section("Every game"):
            formatter.write_dl([(e.name, e.summary) for e in GENERIC_ENTRIES])
        group = self.shortcut_group()
        if group is not None:
            with formatter.section(f"{group.name.capitalize()} commands, also without its name"):
                formatter.write_dl([(e.name, e.summary) for e in group.entries.values()])


@click.group(cls=TopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fechtbuch")
def main() -> None:
    """Exercise packs, proofs and play for three fencing games.

    \b
    Battleklinge      fechtbuch battleklinge ...  (or its commands without the name)
    Touché duel       fechtbuch touche-duell ...  (also: fechtbuch touche ...)
    Touché pyramids   fechtbuch touche-pyramiden ...  (also: fechtbuch pyramiden ...)
    Each game's commands use the same option names: --seed, -j/--jobs, -o/--output,
    --force, --json, --games, --strength, --max.

    \b
    Battleklinge positions are written '<board> <turn> <gold-hand> <blau-hand> <side>', e.g.
      'ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte'
    (ranks 5 to 1, M/S Gold master/student, m/s Blau, digits for empty runs).
    Moves are '<card>:<from><to>' such as 'ausfall:c1c3', or '<card>:pass'.
    Quote positions on the command line: they contain spaces.

    \b
    Input rules, the same for every command: numbers are plain ASCII digits
    (blanks around them are ignored; '２', '1_000', '+2', 'nan', 'inf', '1e3' are
    errors); card lists are five ids joined by ',' (blanks around ids and letter
    case are ignored; '' and empty items are errors).  Bad input is one line
    'fechtbuch: error: ...' and exit 2; Ctrl-C is one line and exit 130.
    """


if __name__ == "__main__":
    main()
