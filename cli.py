"""fechtbuch: exercise packs, proofs and play for three fencing games.

The click entry point (console script ``fechtbuch``).  Every command turns bad
input into one line on stderr and exit status 2; see :class:`FechtbuchGroup`.
"""

from __future__ import annotations

import os
import sys

from fechtbuch.engines import interrupts

if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "fechtbuch":
    interrupts.install()  # first of all: Ctrl-C during the imports below is one clean line

import click  # noqa: E402
from fechtbuch.engines import __version__  # noqa: E402
from fechtbuch.engines.battleklinge.commands import COMMANDS as ENGINE_COMMANDS  # noqa: E402
from fechtbuch.engines.battleklinge.commands import bench_group  # noqa: E402
from fechtbuch.engines.battleklinge.enginebench import bench_engine_command  # noqa: E402
from fechtbuch.engines.battleklinge.perft import bench_perft_command, perft_command  # noqa: E402
from fechtbuch.engines.battleklinge.players import use_hit_oracle  # noqa: E402
from fechtbuch.engines.battleklinge.tbcommands import tb_group  # noqa: E402
from fechtbuch.engines.battleklinge.textboard import show_command  # noqa: E402
from fechtbuch.engines.battleklinge.tuning import bench_tune_eval_command  # noqa: E402
from fechtbuch.engines.errors import InputError  # noqa: E402
from fechtbuch.engines.touche_duell.commands import touche_group  # noqa: E402
from fechtbuch.engines.touche_duell.players import use_sure_win_oracle  # noqa: E402
from fechtbuch.engines.touche_pyramiden.commands import pyramiden_group  # noqa: E402
from fechtbuch.puzzles import render_commands  # noqa: E402
from fechtbuch.puzzles.daily_commands import daily_group  # noqa: E402
from fechtbuch.puzzles.mine_commands import bench_mine_command, mine_command  # noqa: E402
from fechtbuch.puzzles.pack_commands import pack  # noqa: E402
from fechtbuch.puzzles.play_commands import play_command  # noqa: E402
from fechtbuch.puzzles.pyramiden.mine_command import (  # noqa: E402
    mine_command as pyramiden_mine_command,
)
from fechtbuch.puzzles.pyramiden.play_command import with_pack_play  # noqa: E402
from fechtbuch.puzzles.pyramiden.render_command import (  # noqa: E402
    render_command as pyramiden_render_command,
)
from fechtbuch.puzzles.pyramiden.solve_command import (  # noqa: E402
    solve_command as pyramiden_solve_command,
)
from fechtbuch.puzzles.touche.mine_command import (  # noqa: E402
    mine_command as touche_mine_command,
)
from fechtbuch.puzzles.touche.play_command import with_pack_option  # noqa: E402
from fechtbuch.solver.bench import bench_solve_command  # noqa: E402
from fechtbuch.solver.commands import solve_command  # noqa: E402
from fechtbuch.solver.hits import SolverHits  # noqa: E402
from fechtbuch.solver.touche_commands import touche_solve_command  # noqa: E402
from fechtbuch.solver.touche_tactics import ProofTactics  # noqa: E402

# The composition root: the players and the analysis ask the solver for forced hits
# (engines/ cannot import solver/ itself; see engines/battleklinge/players.py).
use_hit_oracle(SolverHits)
# and the Touché duel's meister proves sure wins with the generic prover
use_sure_win_oracle(ProofTactics)


class FechtbuchGroup(click.Group):
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
input (:func:`fechtbuch.engines.clikit.quote`); this is the backstop for any that
does not (click's own messages, text from other libraries)."""


def _fail(message: str, status: int) -> None:
    one_line = " ".join(message.split())
    if len(one_line) > ERROR_LINE_LIMIT:
        one_line = one_line[: ERROR_LINE_LIMIT - 100] + " ... " + one_line[-95:]
    click.echo(f"fechtbuch: error: {one_line}", err=True)
    sys.exit(status)


@click.group(cls=FechtbuchGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fechtbuch")
def main() -> None:
    """Exercise packs, proofs and play for three fencing games.

    \b
    Battleklinge   the commands below without a game name (solve, mine, play, ...)
    Touché duel    fechtbuch touche ...      (fechtbuch touche --help)
    Pyramids       fechtbuch pyramiden ...   (fechtbuch pyramiden --help)
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


main.add_command(perft_command)
main.add_command(show_command)
main.add_command(bench_group)
for _command in (
    bench_perft_command,
    bench_solve_command,
    bench_mine_command,
    bench_engine_command,
    bench_tune_eval_command,
):
    bench_group.add_command(_command)
main.add_command(solve_command)
main.add_command(render_commands.render)
pack.add_command(render_commands.pack_html)
pack.add_command(render_commands.pack_svg)
main.add_command(mine_command)
main.add_command(pack)
for _command in ENGINE_COMMANDS:
    main.add_command(_command)
main.add_command(play_command)
main.add_command(daily_group)
touche_group.add_command(touche_solve_command)
touche_group.add_command(touche_mine_command)
touche_group.add_command(with_pack_option(touche_group.commands["play"]))
main.add_command(touche_group)
main.add_command(pyramiden_group)
pyramiden_group.add_command(with_pack_play(pyramiden_group.commands["play"]))
pyramiden_group.add_command(pyramiden_solve_command)
pyramiden_group.add_command(pyramiden_mine_command)
pyramiden_group.add_command(pyramiden_render_command)
main.add_command(tb_group)

if __name__ == "__main__":
    main()
