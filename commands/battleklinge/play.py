"""``fechtbuch play``: the playable front door (computer, exercises, daily duel, two players)."""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
from pathlib import Path

import click
from fechtbuch.commands.battleklinge.params import CARD_LIST, POSITION
from fechtbuch.commands.options import INT
from fechtbuch.commands.pack import PACK_FILE
from fechtbuch.commands.players import command_players
from fechtbuch.commands.playoptions import (
    attach,
    clock_option,
    force_option,
    given,
    hotseat_option,
    movetime_option,
    no_warnings_option,
    option_flag,
    pack_option,
    puzzle_option,
    save_option,
    seat_option,
    seed_option,
    strength_option,
)
from fechtbuch.engines.battleklinge.cards import CARDS, COLOR_CHARS, COLOR_NAMES, parse_card_list
from fechtbuch.engines.battleklinge.players import STRENGTH_NAMES
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.terminal.draft import DraftQuit, run_draft
from fechtbuch.engines.battleklinge.terminal.records import PlayerRecord
from fechtbuch.engines.battleklinge.terminal.session import (
    Exercise,
    Session,
    longest_defence,
    write_record,
)
from fechtbuch.engines.clock import GameClock
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import ensure_writable
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.puzzles.battleklinge.viewer import check_pack
from fechtbuch.puzzles.pack import FULL_DEFENCES, PackTerms, SolutionMode, find_puzzle


def _writer(text: str, newline: bool = True) -> None:
    click.echo(text, nl=newline)


def _computer(
    strength: str,
    seed: int,
    movetime: float | None = None,
    clock: GameClock | None = None,
    players: PlayerFactory | None = None,
):
    """The computer's move chooser; with a clock it thinks what the clock allows.
    ``players``: the factory (default: the one the command line was wired with)."""
    factory = players or command_players("battleklinge")
    player = factory.make(strength, seed=seed, movetime=movetime)

    def choose(pos: Position, earlier) -> Move:
        if clock is not None:
            player.movetime = clock.think_time(pos.turn)
        return player.choose(pos, earlier).move

    return choose


def _hinter(seed: int):
    player = command_players("battleklinge").make("stark", seed=seed)

    def hint(pos: Position) -> str:
        choice = player.choose(pos)
        return f"Hint: {choice.move.to_text()} (evaluation {choice.students:+.1f} for you)"

    return hint


def _pick_puzzle(pack: dict, ref: str, take_next: bool, record: PlayerRecord) -> tuple[int, dict]:
    puzzles = pack["puzzles"]
    if take_next:
        for number, p in enumerate(puzzles, 1):
            if p["id"] not in record.exercises:
                return number, p
        raise InputError("next: every exercise of this pack is solved already")
    return find_puzzle(pack, ref)


@click.command("play")
@strength_option(STRENGTH_NAMES)
@seat_option(click.Choice(["g", "b"]), "g", "g Gold (bottom), b Blau", aliases=("--school",))
@click.option(
    "--cards",
    "cards_text",
    type=CARD_LIST,
    default="zufall",
    show_default=True,
    help="einsteiger, angriff, verteidigung, zufall, or five card ids joined by ','.",
)
@click.option("--draft", is_flag=True, help="Kartenwahl: pick cards alternately from eight.")
@click.option(
    "--position",
    "start_text",
    type=POSITION,
    default=None,
    help="Start from this position instead of a deal (computer or two players).",
)
@attach(pack_option(PACK_FILE, "fechtuebungen, meisterstudien"))
@attach(puzzle_option())
@click.option("--next", "take_next", is_flag=True, help="The first exercise not yet solved.")
@click.option(
    "--daily",
    "daily_date",
    is_flag=False,
    flag_value="today",
    default=None,
    metavar="[DATE]",
    help="The daily duel (today, UTC, or YYYY-MM-DD).",
)
@hotseat_option(aliases=("--two-players",))
@click.option("--rotate", is_flag=True, help="Two players: turn the board after every move.")
@clock_option(
    "A game clock with MINUTES per side: two players, you against the computer "
    "(it plans each move from the time it has left), or the daily duel (Stark keeps "
    "its fixed moves, its time is charged); who runs out loses."
)
@click.option("--flip", is_flag=True, help="Draw the board from the other side.")
@no_warnings_option()
@seed_option(INT)
@movetime_option()
@save_option()
@force_option()
def play_command(
    strength,
    seat,
    cards_text,
    draft,
    start_text,
    pack_file,
    puzzle_ref,
    take_next,
    daily_date,
    hotseat,
    rotate,
    clock,
    flip,
    no_warnings,
    seed,
    movetime,
    save_file,
    force,
):
    """Play Battleklinge in the terminal.

    \b
    Against the computer:  fechtbuch play --strength stark --seat b --cards angriff
    Card draft:            fechtbuch play --draft
    Exercises:             fechtbuch play --pack fechtuebungen --next
    Daily duel:            fechtbuch play --daily
    With a clock:          fechtbuch play --strength meister --clock 5
    Two players:           fechtbuch play --hotseat --rotate --clock 10

    At the prompt type a move ('c1c3', 'c1c3 ausfall', 'ausfall:c1c3',
    'pass ausfall') or a command: hint, undo, flip, card ID, warnings on|off,
    moves, save FILE, resign, abort, help, quit (and solution in exercises).
    Your record per strength, solved exercises and the daily streak are kept
    in $XDG_DATA_HOME/fechtbuch/record.json.
    """
    modes = [bool(pack_file), daily_date is not None, hotseat]
    if sum(modes) > 1:
        raise InputError("mode: choose one of --pack, --daily, --hotseat")
    if start_text is not None and (pack_file or daily_date is not None or draft):
        raise InputError("--position: only against the computer or with --hotseat")
    if start_text is not None and start_text.winner() is not None:
        raise InputError(f"position: the game is already decided in {start_text.to_text()!r}")
    if rotate and not hotseat:
        raise InputError("--rotate: only with --hotseat")
    if clock is not None and movetime is not None:
        raise InputError("--clock: the computer's time comes from the clock; drop --movetime")
    _reject_unused_options(click.get_current_context(), pack_file, daily_date, hotseat)
    if save_file:
        ensure_writable(save_file, force=force)
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    game_clock = None if clock is None else GameClock.minutes(clock)  # one game, one clock
    record = PlayerRecord.load()
    inp = sys.stdin
    common = dict(flip=flip, warnings=not no_warnings)

    if pack_file:
        from fechtbuch.puzzles.pack import load_pack, pack_kind

        pack = load_pack(pack_file)
        terms = PackTerms.of(pack)
        if terms.rules != "battleklinge":
            raise InputError(
                f"pack: a {terms.rules!r} pack; play it with that game's 'play --pack'"
            )
        if terms.version == 1:
            check_pack(pack)
        number, puzzle = _pick_puzzle(pack, puzzle_ref, take_next, record)
        kind = pack_kind(pack)
        verify = kind.verify_pruned if terms.solution is SolutionMode.PRUNED else None
        verify = verify or kind.verify_puzzle
        problems = verify(puzzle, terms.max_n)  # the game trusts the tree: re-prove it first
        if problems:
            raise InputError(f"pack: exercise {number} ({puzzle['id']}) is unsound: {problems[0]}")
        start = Position.from_text(puzzle["position"])
        attacker = start.turn
        click.echo(
            f"Exercise {number} of {len(pack['puzzles'])} ({puzzle['id']}): "
            f"{COLOR_NAMES[attacker]} to move hits in {puzzle['n']} at the latest, "
            "whatever the defence. Difficulty " + f"{puzzle['difficulty']}."
        )
        if terms.solution is SolutionMode.PRUNED:
            from fechtbuch.puzzles.battleklinge.exactjudge import SolverJudge

            click.echo(
                f"This pack's trees are pruned: past the first {FULL_DEFENCES} defences "
                "a move the tree does not hold is judged exactly (tables or solver)."
            )
            exercise = Exercise(puzzle, full_defences=FULL_DEFENCES, judge=SolverJudge())
        else:
            exercise = Exercise(puzzle)

        engine = None

        def defend(pos, earlier):
            # on the sure path: the longest defence from the tree (past a pruned tree's
            # stored part: from the exact judgement); off it, Stark plays on
            nonlocal engine
            if not exercise.path_lost and exercise.beyond and exercise.defence is not None:
                return exercise.defence
            if not exercise.path_lost and not exercise.beyond:
                return Move.from_text(longest_defence(exercise.node))
            engine = engine or _computer("stark", seed)
            return engine(pos, earlier)

        session = Session(
            start,
            {1 - attacker: defend},
            inp,
            _writer,
            exercise=exercise,
            names=_names(attacker, "You", "Computer"),
            **common,
        )
        outcome = session.run()
        if outcome.exercise_solved:
            with PlayerRecord.update() as record:  # another game may write it meanwhile
                record.count_exercise(puzzle["id"], outcome.helped)
            state = "solved with help (yellow)" if outcome.helped else "solved (green)"
            click.echo(f"Exercise {number} {state}.")
        _maybe_save(session, save_file, force)
        return 0

    if hotseat:
        start = start_text or _deal(cards_text, rng)
        session = Session(start, {}, inp, _writer, rotate=rotate, clock=game_clock, **common)
        session.run()
        _maybe_save(session, save_file, force)
        return 0

    if daily_date is not None:
        return _play_daily(daily_date, inp, record, seed, save_file, force, common, game_clock)

    me = COLOR_CHARS.index(seat)
    if start_text is not None:
        start = start_text
    else:
        try:
            start = run_draft(rng, inp, _writer, me) if draft else _deal(cards_text, rng)
        except DraftQuit:
            click.echo("Draft left; no game.")
            return 0
    click.echo(f"You play {COLOR_NAMES[me]} against the computer ({strength}), seed {seed}.")
    session = Session(
        start,
        {1 - me: _computer(strength, seed, movetime, game_clock)},
        inp,
        _writer,
        clock=game_clock,
        hinter=_hinter(seed),
        names=_names(me, "You", strength.capitalize()),
        **common,
    )
    outcome = session.run()
    if outcome.winner is not None:
        with PlayerRecord.update() as record:  # another game may write it meanwhile
            record.count_game(strength, won=outcome.winner == me, helped=outcome.helped)
        entry = record.computer[strength]
        click.echo(
            f"Your record against {strength}: {entry['wins']} wins "
            f"(with help {entry['wins_with_help']}), {entry['losses']} losses."
        )
    _maybe_save(session, save_file, force)
    return 0


def _play_daily(
    daily_date, inp, record, seed, save_file, force, common, clock: GameClock | None = None
) -> int:
    from fechtbuch.puzzles.battleklinge.daily import duel_for_date, parse_date

    today = utc_today()
    date = today if daily_date == "today" else parse_date(daily_date)
    duel = duel_for_date(date)
    start = Position.from_text(duel["position"])
    me = COLOR_CHARS.index(duel["school"])
    # only today's first game counts; it is booked as lost until it ends, so leaving a
    # losing game (quit, Ctrl-C, a closed terminal) cannot buy a second try
    counted = False
    if date == today:  # checked and booked under the lock: of two sessions one counts
        with PlayerRecord.update() as locked:
            counted = locked.count_daily(date, "lost")
    if counted:
        note = "This game counts for your streak (leaving it counts as a loss)."
    elif date != today:
        note = "Only today's duel counts for the streak; this one is for practice."
    else:
        note = "Today's counted game is played already; this one is for practice."
    click.echo(
        f"Daily duel {date.isoformat()}: cards {', '.join(duel['cards'])}; "
        f"you play {COLOR_NAMES[me]} against Stark. {note}"
    )
    # with a clock Stark keeps its node budget (its moves stay the same for a date);
    # the clock charges both sides their time
    session = Session(
        start,
        {1 - me: _computer("stark", seed)},
        inp,
        _writer,
        hinter=_hinter(seed),
        names=_names(me, "You", "Stark"),
        clock=clock,
        **common,
    )
    outcome = session.run()
    if counted and outcome.how != "quit":
        result = (
            "aborted" if outcome.winner is None else ("won" if outcome.winner == me else "lost")
        )
        with PlayerRecord.update() as locked:
            locked.daily[date.isoformat()] = result
    record = PlayerRecord.load()
    click.echo(f"Streak: {record.streak(today)} day(s) in a row with a win.")
    _maybe_save(session, save_file, force)
    return 0


def _names(me: int, mine: str, theirs: str) -> tuple[str, str]:
    return (mine, theirs) if me == 0 else (theirs, mine)


def _deal(cards_text: str, rng: random.Random) -> Position:
    if cards_text.strip().lower() == "zufall":
        cards = rng.sample(range(len(CARDS)), 5)
    else:
        cards = list(parse_card_list(cards_text))
    rng.shuffle(cards)
    return Position.start(cards[:2], cards[2:4], cards[4])


def _maybe_save(session: Session, save_file: Path | None, force: bool) -> None:
    if save_file is None:
        return
    write_record(session, str(save_file), force=force)
    click.echo(f"Game saved to {save_file}; analyse it with: fechtbuch analyse {save_file}")


def utc_today() -> dt.date:
    """Today's date in UTC (the daily duel's calendar)."""
    return dt.datetime.now(dt.timezone.utc).date()


MODE_OPTIONS = {
    "computer": {"strength", "seat", "cards_text", "draft", "start_text", "movetime", "clock"},
    "pack": {"puzzle_ref", "take_next"},
    "hotseat": {"cards_text", "start_text", "rotate", "clock"},
    "daily": {"clock"},
}


def _reject_unused_options(ctx: click.Context, pack_file, daily_date, hotseat) -> None:
    """Options that the chosen mode would ignore are errors, not silent no-ops."""
    mode = (
        "pack"
        if pack_file
        else "daily"
        if daily_date is not None
        else ("hotseat" if hotseat else "computer")
    )
    allowed = MODE_OPTIONS.get(mode, set())
    specific = set().union(*MODE_OPTIONS.values())
    for name in sorted(specific - allowed):
        if given(ctx, name):
            flag = option_flag(ctx, name)
            label = {
                "pack": "--pack",
                "daily": "--daily",
                "hotseat": "--hotseat",
                "computer": "a game against the computer",
            }[mode]
            raise InputError(f"{flag}: not used with {label}")
