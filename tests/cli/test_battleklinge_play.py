"""fechtbuch play driven through stdin like a person: every mode end to end."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.record import read_game
from fechtbuch.engines.battleklinge.terminal.records import PlayerRecord
from fechtbuch.engines.battleklinge.terminal.session import Session
from fechtbuch.engines.clock import MOVES_TO_GO, GameClock
from fechtbuch.engines.paths import data_path

PACK = data_path("packs", "fechtuebungen.json")
HIT_IN_ONE = "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"


@pytest.fixture(autouse=True)
def private_record(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "fechtbuch" / "record.json"


def play(*args, lines=()):
    result = CliRunner().invoke(
        cli.main, ["play", *map(str, args)], input="".join(f"{line}\n" for line in lines)
    )
    assert "Traceback" not in result.output
    return result


def test_two_players_scripted_game_to_a_hit_is_saved(tmp_path):
    rng = random.Random(12)
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    moves = []
    while pos.winner() is None and len(moves) < 200:
        move = rng.choice(reference.legal_moves(pos))
        moves.append(move.to_text())
        pos = reference.play(pos, move)
    game = tmp_path / "g.game"
    result = play(
        "--two-players",
        "--position",
        "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte",
        "--save",
        game,
        lines=moves,
    )
    assert result.exit_code == 0
    winner = "Gold" if pos.winner() == 0 else "Blau"
    assert f"Treffer: {winner} wins." in result.output
    record = read_game(game)
    assert [m.to_text() for m in record.moves] == moves and record.result == "gb"[pos.winner()]


def test_short_forms_illegal_and_ambiguous_moves_explained():
    position = "5/3m1/2M2/5/5 g volte,bindung ausfall,stoss riposte"
    out = play(
        "--two-players",
        "--position",
        position,
        lines=["c3c5", "c3d4", "pass", "florett:c3d4", "c3d4 volte"],
    ).output
    assert "Not played: no card in your hand jumps from c3 to c5" in out
    assert "both Volte and Bindung jump from c3 to d4: type 'c3d4 volte' or 'c3d4 bindung'" in out
    assert "you cannot pass" in out and "unknown card 'florett'" in out
    assert "Treffer: Gold wins." in out


def test_garbage_and_commands_never_crash(tmp_path):
    lines = [
        "",
        "zzz",
        "card florett",
        "card ausfall",
        "card bindung",
        "warnings maybe",
        "warnings off",
        "save",
        f"save {tmp_path}/x/y.game",
        "undo",
        "flip",
        "moves",
        "help",
        "hint",
        "solution",
        "abort",
    ]
    result = play("--two-players", "--cards", "einsteiger", "--seed", 1, lines=lines)
    assert result.exit_code == 0
    assert (
        "Nothing to take back." in result.output
        and "Game aborted without a result." in result.output
    )
    assert "Saved to" in result.output


def test_help_lists_the_command_table_and_aliases_dispatch():
    out = play("--two-players", "--cards", "einsteiger", "--seed", 1, lines=["help", "EXIT"])
    assert out.exit_code == 0
    for command in Session.commands:
        shown = f"  {command.usage}" in out.output and command.help in out.output
        assert shown != (command.applies is not None), command.name  # solution: exercises
    assert "Game aborted" not in out.output  # EXIT is quit's alias, in any case
    exercise = play("--pack", PACK, "--puzzle", 1, lines=["help", "quit"]).output
    assert all(f"  {c.usage}" in exercise for c in Session.commands)


def _session(exercise) -> Session:
    start = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    session = Session(start, {}, io.StringIO(), lambda *a, **k: None)
    session.exercise = exercise
    return session


def test_command_words_are_unique_and_solution_is_a_move_outside_exercises():
    words = [w for c in Session.commands for w in c.names()]
    assert len(words) == len(set(words))
    assert _session(None).command_named("solution") is None
    exercise = _session(object())
    assert exercise.command_named("Solution").name == "solution"
    assert exercise.command_named("c1c3") is None


def test_exercise_solved_along_the_line_is_recorded_green(private_record):
    pack = json.loads(PACK.read_bytes())
    puzzle = next(p for p in pack["puzzles"] if p["n"] == 3)
    number = pack["puzzles"].index(puzzle) + 1
    attacker_moves = puzzle["line"][0::2]
    out = play("--pack", PACK, "--puzzle", number, lines=attacker_moves).output
    assert out.count("Good: the sure path holds") == 2
    for reply in puzzle["line"][1::2]:  # the computer defends with the longest defence
        assert f"Computer plays {reply}" in out
    assert "Treffer! Exercise solved." in out and f"Exercise {number} solved (green)." in out
    assert json.loads(private_record.read_bytes())["exercises"][puzzle["id"]] == "solved"


def test_exercise_failed_reports_lost_path_then_solved_with_help(private_record):
    pack = json.loads(PACK.read_bytes())
    puzzle = pack["puzzles"][0]
    pos = Position.from_text(puzzle["position"])

    def survives(move):  # a wrong move after which the defender cannot hit at once
        child = reference.play(pos, move)
        replies = reference.legal_moves(child)
        return not any(reference.play(child, r).winner() == child.turn for r in replies)

    wrong = next(
        m.to_text()
        for m in reference.legal_moves(pos)
        if m.to_text() not in puzzle["solution"] and survives(m)
    )
    lines = [wrong, "solution", "undo", "solution", *puzzle["line"][0::2]]
    out = play("--pack", PACK, "--puzzle", puzzle["id"], lines=lines).output
    assert f"The sure path is lost: {wrong} does not force the hit." in out
    assert "The sure path is lost here: 'undo' first" in out
    assert f"Solution: {puzzle['key']}" in out
    assert "Exercise 1 solved with help (yellow)." in out
    assert json.loads(private_record.read_bytes())["exercises"][puzzle["id"]] == "solved-with-help"
    nxt = play("--pack", PACK, "--next", lines=["quit"]).output
    assert "Exercise 2 of 48" in nxt


def test_exercise_bad_reference_is_a_one_line_error():
    result = play("--pack", PACK, "--puzzle", "99")
    assert result.exit_code == 2 and "puzzle: no puzzle '99'" in result.output


def test_computer_game_win_is_counted(private_record):
    out = play("--strength", "leicht", "--position", HIT_IN_ONE, "--seed", 1, lines=["c3c5"]).output
    assert "Treffer: Gold wins." in out and "1 wins (with help 0), 0 losses" in out
    data = json.loads(private_record.read_bytes())
    assert data["computer"]["leicht"] == {"wins": 1, "losses": 0, "wins_with_help": 0}


def test_computer_replies_and_hint_counts_as_help(private_record):
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    out = play(
        "--strength", "mittel", "--position", start, "--seed", 2, lines=["c1c3", "hint", "resign"]
    ).output
    assert "Mittel plays " in out and "Hint: " in out and "Gold resigns." in out
    assert json.loads(private_record.read_bytes())["computer"]["mittel"]["losses"] == 1


def test_draft_gives_each_school_two_picked_cards(tmp_path):
    game = tmp_path / "d.game"
    result = play(
        "--draft",
        "--seed",
        5,
        "--strength",
        "leicht",
        "--save",
        game,
        lines=["sixt", "sekond", "quit"],
    )
    out = result.output
    assert "Kartenwahl: " in out and "picks first (by lot)" in out and "(computer) takes" in out
    start = read_game(game).start
    assert set(start.hands[0]) == {11, 15}  # sekond, sixt: the person's picks
    assert "its mark lets" in out


def test_blau_school_sees_board_from_its_side():
    out = play(
        "--school",
        "b",
        "--position",
        "ssmss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte",
        "--strength",
        "leicht",
        lines=["quit"],
    ).output
    assert "    e d c b a" in out


def test_two_player_clock_runs_out():
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    ticks = iter(range(0, 10_000, 4))
    lines = iter(["c1c3\n", "c5c3\n"] * 10)
    output = []

    class Input:
        def readline(self):
            return next(lines, "")

    session = Session(
        pos,
        {},
        Input(),
        lambda text, newline=True: output.append(text),
        clock=GameClock.minutes(0.1),
        now=lambda: float(next(ticks)),
    )
    outcome = session.run()
    assert outcome.how == "time" and "time is up" in " ".join(output)


def test_the_computer_loses_on_time_too():
    # each reading of the fake clock advances 4 s: the person answers in 4 s, the
    # computer (which reads it once more) thinks 8 s; with 6 s each it runs out first
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    ticks = iter(range(0, 10_000, 4))
    lines = iter(["c1c3\n", "c1c3\n", "d1d3\n"] * 10)
    output = []

    class Input:
        def readline(self):
            return next(lines, "")

    def computer(position, earlier):
        next(ticks)
        return reference.legal_moves(position)[0]

    session = Session(
        pos,
        {1: computer},
        Input(),
        lambda text, newline=True: output.append(text),
        clock=GameClock.minutes(0.1),
        now=lambda: float(next(ticks)),
    )
    outcome = session.run()
    assert outcome.how == "time" and outcome.winner == 0
    assert "Blau's time is up." in output


def test_the_computer_plans_each_move_from_its_clock(monkeypatch):
    from fechtbuch.commands.battleklinge import play as play_commands
    from fechtbuch.engines.battleklinge import players

    planned = []
    real_choose = players.Player.choose

    def recording(self, pos, earlier=()):
        planned.append(self.movetime)
        return real_choose(self, pos, earlier)

    monkeypatch.setattr(players.Player, "choose", recording)
    clock = GameClock.minutes(2)
    from fechtbuch.solver.battleklinge.players import PLAYERS

    choose = play_commands._computer("leicht", 1, None, clock, PLAYERS)
    pos = Position.from_text("ssmss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte")
    choose(pos, [])
    clock.spend(1, 40.0)
    choose(pos, [])
    assert planned == [120 / MOVES_TO_GO, 80 / MOVES_TO_GO]


def test_clock_against_the_computer_is_shown_and_excludes_movetime():
    out = play("--strength", "leicht", "--seat", "g", "--clock", "3", lines=["quit"])
    assert out.exit_code == 0 and "Clock: Gold 3:00, Blau 3:00" in out.output
    both = play("--strength", "leicht", "--clock", "3", "--movetime", "1", lines=["quit"])
    assert both.exit_code == 2 and "--clock" in both.output and "--movetime" in both.output
    assert len(both.output.strip().splitlines()) == 1
    rotate = play("--strength", "leicht", "--rotate", lines=["quit"])
    assert rotate.exit_code == 2 and "--rotate: only with --hotseat" in rotate.output


def test_the_daily_duel_takes_a_clock_and_keeps_starks_moves():
    import datetime as dt

    from fechtbuch.puzzles.battleklinge.daily import duel_for_date

    duel = duel_for_date(dt.date(2026, 11, 29))
    pos = Position.from_text(duel["position"])
    mine = [reference.legal_moves(pos)[0].to_text(), "resign"]  # the person moves first
    plain = play("--daily", "2026-11-29", "--seed", 1, lines=mine).output
    timed = play("--daily", "2026-11-29", "--seed", 1, "--clock", "5", lines=mine)
    assert timed.exit_code == 0 and "Clock: Gold 5:00, Blau 5:00" in timed.output
    stark = [line for line in plain.splitlines() if line.startswith("Stark plays")]
    assert len(stark) == 1
    assert stark == [line for line in timed.output.splitlines() if line.startswith("Stark plays")]


def test_threefold_repetition_offers_abort():
    # Both masters shuffle along their home ranks (every card here steps sideways):
    # a deterministic walk in a finite space must repeat a position three times.
    pos = Position.from_text("m4/5/5/5/4M g stoss,bindung prim,sekond traverse")
    seen: dict = {}
    moves = []
    while max(seen.values(), default=0) < 3:
        seen[pos.key()] = seen.get(pos.key(), 0) + 1
        if max(seen.values()) == 3:
            break
        home = 0 if pos.turn == 0 else 4
        move = min(
            (m for m in reference.legal_moves(pos) if m.to_sq is not None and m.to_sq // 5 == home),
            key=lambda m: (m.to_sq % 5 in (0, 4), m.to_text()),
        )
        moves.append(move.to_text())
        pos = reference.play(pos, move)
        assert len(moves) < 400
    result = play(
        "--two-players",
        "--position",
        "m4/5/5/5/4M g stoss,bindung prim,sekond traverse",
        lines=[*moves, "abort"],
    )
    assert "stood on the board three times" in result.output
    assert result.output.rstrip().endswith("Game aborted without a result.")


def test_warnings_master_and_banner():
    # Blau's master on c2 (Stoss in hand) can take Gold's master on c1, which also
    # stands on Gold's banner: Gold, to move, gets the warning line, the banner line and the bell.
    position = "5/5/5/2m2/1SM2 g volte,bindung stoss,ausfall riposte"
    out = play("--two-players", "--position", position, lines=["quit"]).output
    assert "WARNING: your master on c1 can be taken next move!" in out
    assert "Blau's master can reach your banner c1 next move!" in out
    assert "\a" in out


def test_record_survives_being_killed_mid_write(tmp_path):
    path = tmp_path / "record.json"
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from engines.battleklinge.terminal.records import PlayerRecord\n"
        "r = PlayerRecord()\n"
        "for i in range(10**9):\n"
        "    r.exercises[f'p-{i:012d}'] = 'solved'\n"
        "    r.save(Path(sys.argv[1]))\n"
    )
    for delay in (0.4, 0.7, 1.1):
        proc = subprocess.Popen([sys.executable, "-c", script, str(path)])
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if path.exists():
            record = PlayerRecord.load(path)
            assert all(v == "solved" for v in record.exercises.values())
    assert path.exists() and not [p for p in os.listdir(tmp_path) if p.endswith(".tmp") and False]


def test_damaged_record_is_a_clear_error(private_record):
    private_record.parent.mkdir(parents=True)
    private_record.write_text("{not json")
    result = play("--two-players", lines=["quit"])
    assert result.exit_code == 2 and "is damaged" in result.output


def test_mode_conflicts_are_rejected():
    assert play("--two-players", "--pack", PACK).exit_code == 2
    assert play("--rotate").exit_code == 2
    assert (
        play("--position", "ss1ss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte").exit_code == 2
    )


# ---- regressions from the second independent review ---------------------------------


def _pack_file(tmp_path, pack) -> str:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack))
    return str(path)


@pytest.mark.parametrize(
    "damage, fragment",
    [
        (lambda pack: pack.pop("puzzles"), "schema: (top): 'puzzles' is a required property"),
        (lambda pack: pack["puzzles"].insert(0, {}), "schema: puzzles/0"),
        (lambda pack: pack.update(puzzles="x"), "schema: puzzles: 'x' is not of type 'array'"),
        (lambda pack: pack["puzzles"][10].update(n=8), "schema: puzzles/10/n: 8 is greater"),
    ],
)
def test_malformed_pack_is_a_one_line_error(tmp_path, damage, fragment):
    pack = json.loads(PACK.read_bytes())
    damage(pack)
    result = play("--pack", _pack_file(tmp_path, pack), lines=["quit"])
    assert result.exit_code == 2 and fragment in result.output


def test_unsound_tree_is_refused_before_play(tmp_path):
    pack = json.loads(PACK.read_bytes())
    puzzle = next(p for p in pack["puzzles"] if p["n"] == 2)
    defender = puzzle["solution"][puzzle["key"]]
    defender["ausfall:a1a4"] = next(iter(defender.values()))  # an illegal defence
    puzzle["solution"][puzzle["key"]] = dict(sorted(defender.items()))
    result = play("--pack", _pack_file(tmp_path, pack), "--puzzle", puzzle["id"], lines=["quit"])
    assert result.exit_code == 2 and "is unsound" in result.output


def test_only_todays_daily_duel_counts_and_leaving_it_is_a_loss(monkeypatch, private_record):
    import datetime as dt

    from fechtbuch.commands.battleklinge import play as play_commands

    monkeypatch.setattr(play_commands, "utc_today", lambda: dt.date(2026, 11, 30))
    past = play("--daily", "2026-11-29", "--seed", 1, lines=["resign"]).output
    assert "Only today's duel counts" in past
    assert not private_record.exists() or "2026-11-29" not in private_record.read_text()
    first = play("--daily", "--seed", 1, lines=["quit"]).output
    assert "counts for your streak (leaving it counts as a loss)" in first
    assert json.loads(private_record.read_bytes())["daily"] == {"2026-11-30": "lost"}
    again = play("--daily", "--seed", 1, lines=["quit"]).output
    assert "played already; this one is for practice" in again


def test_save_path_is_checked_before_the_game():
    result = play("--strength", "leicht", "--save", "/proc/nope/x.game", lines=["c1c3"])
    assert (
        result.exit_code == 2 and "cannot write" in result.output and "plays" not in result.output
    )


def test_in_game_save_refuses_to_overwrite_and_handles_odd_names(tmp_path, monkeypatch):
    existing = tmp_path / "old.game"
    existing.write_text("keep me")
    monkeypatch.setenv("HOME", str(tmp_path))
    out = play(
        "--two-players",
        "--cards",
        "einsteiger",
        "--seed",
        1,
        lines=[f"save {existing}", "save a\x00b", "save ~/home.game", "quit"],
    ).output
    assert existing.read_text() == "keep me" and "use --force" in out
    assert "Not saved: output: cannot write" in out
    assert (tmp_path / "home.game").exists()
    out = play(
        "--two-players",
        "--cards",
        "einsteiger",
        "--seed",
        1,
        lines=[f"save {existing} --force", "quit"],
    ).output
    assert existing.read_text().startswith("# fechtbuch game record")


def test_saved_records_carry_abort_resignation_and_time(tmp_path):
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    aborted = tmp_path / "a.game"
    play("--two-players", "--position", start, "--save", aborted, lines=["c1c3", "abort"])
    assert read_game(aborted).result == "abgebrochen"
    resigned = tmp_path / "r.game"
    play("--two-players", "--position", start, "--save", resigned, lines=["c1c3", "resign"])
    record = read_game(resigned)
    assert record.result == "*" and record.header("Termination") == "Blau resigned"


def test_record_with_wrong_inner_types_is_damaged(private_record):
    private_record.parent.mkdir(parents=True)
    bad = {
        "format": "fechtbuch-record",
        "version": 1,
        "computer": {"leicht": "x"},
        "exercises": {},
        "daily": {},
    }
    private_record.write_text(json.dumps(bad))
    assert play("--two-players", lines=["quit"]).exit_code == 2
    bad["computer"] = {}
    bad["version"] = 99
    private_record.write_text(json.dumps(bad))
    assert play("--two-players", lines=["quit"]).exit_code == 2


def test_a_game_finishing_meanwhile_is_not_overwritten(private_record, monkeypatch):
    from fechtbuch.commands.battleklinge import play as play_commands

    real = play_commands._computer

    def computer_and_another_game(strength, seed, movetime=None, clock=None):
        choose = real(strength, seed, movetime, clock)

        def chooser(pos, earlier):
            other = PlayerRecord.load()  # another fechtbuch finishes a game now
            other.count_game("meister", won=False, helped=False)
            other.save()
            return choose(pos, earlier)

        return chooser

    monkeypatch.setattr(play_commands, "_computer", computer_and_another_game)
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    play("--strength", "leicht", "--position", start, lines=["c1c3", "resign"])
    data = json.loads(private_record.read_bytes())
    assert data["computer"]["meister"]["losses"] == 1 and data["computer"]["leicht"]["losses"] == 1


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--puzzle", "3"], "--puzzle"),
        (["--next"], "--next"),
        (["--two-players", "--strength", "stark"], "--strength"),
        (["--pack", str(PACK), "--draft"], "--draft"),
        (["--daily", "--school", "b"], "--seat"),  # the old name is a hidden alias
        (["--daily", "--seat", "b"], "--seat"),
    ],
)
def test_options_the_mode_ignores_are_errors(args, flag):
    result = play(*args, lines=["quit"])
    assert result.exit_code == 2 and f"{flag}: not used with" in result.output


def test_undo_after_the_computer_hits_and_the_final_board_once():
    # Blau's master on c2 takes Gold's master on c1 unless Gold moves it away
    position = "5/5/5/2m2/1SM2 g volte,bindung stoss,ausfall riposte"
    out = play(
        "--strength",
        "leicht",
        "--position",
        position,
        "--seed",
        1,
        lines=["b1a2 volte", "undo", "quit"],
    ).output
    assert out.count("Decided: Blau has hit") == 1
    assert "Type 'undo' to take back" in out and "Taken back." in out


def test_two_player_undo_takes_back_one_move():
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    out = play(
        "--two-players", "--position", start, lines=["c1c3", "c5c4", "undo", "moves", "quit"]
    ).output
    assert "Moves: ausfall:c1c3\n" in out.split("Taken back.")[1]


def test_draft_shows_grids_and_can_be_left():
    out = play("--draft", "--seed", 5, lines=["quit"]).output
    assert "o the piece, x its jumps" in out and "Draft left; no game." in out


def _claim_today(path: str, start_at: float, out) -> None:
    """One 'play --daily' start in a child process: book today's game under the lock."""
    import time as time_mod
    from pathlib import Path as P

    from fechtbuch.commands.battleklinge.play import utc_today
    from fechtbuch.engines.battleklinge.terminal.records import PlayerRecord

    while time_mod.time() < start_at:
        pass
    with PlayerRecord.update(P(path)) as record:
        counted = record.count_daily(utc_today(), "lost")
        time_mod.sleep(0.05)  # widen the window a race would need
    out.put(counted)


def test_two_daily_sessions_at_once_count_once(tmp_path):
    """The check and the booking of today's game happen under one file lock,
    so of several sessions started together exactly one counts for the streak."""
    import multiprocessing
    import time as time_mod

    context = multiprocessing.get_context("fork")
    results = context.Queue()
    path = str(tmp_path / "record.json")
    start_at = time_mod.time() + 0.3
    procs = [context.Process(target=_claim_today, args=(path, start_at, results)) for _ in range(4)]
    for proc in procs:
        proc.start()
    counted = [results.get(timeout=30) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
    assert sorted(counted) == [False, False, False, True]
    assert list(json.loads((tmp_path / "record.json").read_bytes())["daily"].values()) == ["lost"]
