"""Hostile input: every command answers bad files, packs, positions and
numbers with exit 2 and exactly one line on stderr, never a traceback or a hang.

In-process through click's runner (fast); the FIFO cases run as subprocesses with
a timeout, since a FIFO that blocks would block the test itself.  Mutations are a
seeded generator (SHA-256 of a label, as everywhere in fechtbuch), so a failure
names a case that can be replayed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.commands.options import StrictFloatRange, StrictIntRange
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from support.clirun import assert_one_line_error, run

START = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
SHIPPED = data_path("packs", "fechtuebungen.json")
GAME = '[Start "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"]\n\n1. ausfall:c1c3\n'


def file_commands(path: Path, tmp: Path) -> list[list[str]]:
    """Every command that reads a user file, reading ``path``."""
    p = str(path)
    return [
        ["pack", "verify", p],
        ["pack", "show", p],
        ["pack", "html", p, "-o", str(tmp / "out.html")],
        ["pack", "svg", p, "-d", str(tmp / "svg")],
        ["analyse", p],
        ["daily", "verify", "--file", p],
        ["daily", "vectors", "--schedule", p, "-o", str(tmp / "v.json")],
        ["play", "--pack", p],
        ["perft", "--suite", p],
        ["pack", "play", p],
        ["pack", "rate", p],
        ["pack", "motifs", p],
        ["touche", "play", "--pack", p],
        ["touche", "replay", p],
        ["pyramiden", "play", "--pack", p],
        ["pyramiden", "replay", p],
        ["db", "stats", "--db", p],
        ["db", "query", "--db", p],
        ["db", "verify", "--db", p, "-j", "1"],
        ["db", "rate", "--game", "battleklinge", "--db", p],
        ["db", "rate", "--game", "battleklinge", "--attempts", p],
        ["bench", "rating-start", "--db", p],
        ["touche-duell", "bench", "rating-start", "--db", p],
        ["serve", "--pack", p, "--port", "0", "--data", str(tmp / "web.sqlite3")],
        ["db", "export", "--game", "battleklinge", "--db", p, "-o", str(tmp / "db-pack.json")],
        ["tb", "bench", "--students", "0", "--against", p],
    ]


def os_level_cases(tmp: Path) -> dict[str, Path]:
    """Paths that fail in the operating system, not in the content."""
    (tmp / "loop").symlink_to(tmp / "loop")
    plain = tmp / "plain.txt"
    plain.write_text("x")
    binary = tmp / "latin1.json"
    binary.write_bytes('{"format": "fechtbuch-pack", "seed": "M\u00fcller"}'.encode("latin-1"))
    folder = tmp / "folder"
    folder.mkdir()
    return {
        "symlink loop": tmp / "loop",
        "long name": tmp / ("n" * 300 + ".json"),
        "path through a file": plain / "pack.json",
        "folder": folder,
        "non-UTF-8": binary,
        "missing": tmp / "missing.json",
        "empty": _write(tmp / "empty.json", b""),
    }


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_os_level_file_errors_are_one_line_for_every_command(tmp_path):
    cases = os_level_cases(tmp_path)
    for label, path in cases.items():
        for args in file_commands(path, tmp_path):
            line = assert_one_line_error(run(*args))
            assert "'n" * 3 not in line or "characters)" in line, (label, args, line)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder: EACCES cannot happen")
def test_a_file_in_a_folder_the_user_cannot_enter(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "pack.json").write_bytes(SHIPPED.read_bytes())
    locked.chmod(0)
    try:
        for args in file_commands(locked / "pack.json", tmp_path):
            assert "Permission denied" in assert_one_line_error(run(*args))
    finally:
        locked.chmod(0o755)


FIFO_SCRIPT = """
import json, sys
from click.testing import CliRunner
from fechtbuch import cli
for args in json.loads(sys.argv[1]):
    print(json.dumps(args), flush=True)
    result = CliRunner().invoke(cli.main, args)
    print(json.dumps([result.exit_code, result.stderr]), flush=True)
"""


def test_a_fifo_never_blocks(tmp_path):
    """Every file-reading command on a FIFO (and mine's resume state as one), in one
    child process with a timeout: a command that blocks is named by the last line."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    os.mkfifo(tmp_path / "state.json.partial")
    commands = file_commands(fifo, tmp_path)
    commands.append(["mine", "--resume", "-o", str(tmp_path / "state.json")])
    try:
        done = subprocess.run(
            [sys.executable, "-c", FIFO_SCRIPT, json.dumps(commands)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"blocked on a FIFO: {(err.stdout or b'').decode().splitlines()[-1:]}")
    lines = done.stdout.splitlines()
    assert len(lines) == 2 * len(commands), done.stderr[-2000:]
    for args_line, result_line in zip(lines[::2], lines[1::2], strict=True):
        status, err = json.loads(result_line)
        assert status == 2 and len(err.splitlines()) == 1 and "FIFO" in err, (args_line, err)


def test_symlink_loop_and_fifo_as_resume_state(tmp_path):
    (tmp_path / "p.json.partial").symlink_to(tmp_path / "p.json.partial")
    line = assert_one_line_error(run("mine", "--resume", "-o", tmp_path / "p.json"))
    assert "symbolic links" in line


def test_a_failing_mine_removes_the_folders_it_created(tmp_path, monkeypatch):
    """mine -o new/folder/x creates the folders; a run that fails or is stopped before
    it keeps anything removes them again, and never a folder that was there.  --resume
    with no state to resume creates none."""
    from fechtbuch.puzzles.battleklinge.minekind import KIND

    for game in ([], ["touche"], ["pyramiden"]):
        target = tmp_path / "new" / "folder" / "x.json"
        line = assert_one_line_error(run(*game, "mine", "--resume", "-o", target))
        assert "resume" in line, (game, line)
        assert not (tmp_path / "new").exists(), game

    def fails() -> None:
        raise InputError("cards: a failure in the middle of the run")

    def stopped() -> None:
        raise KeyboardInterrupt

    for failure, status in ((fails, 2), (stopped, 130)):
        monkeypatch.setattr(KIND, "warm_up", failure)
        result = run("mine", "-j", "1", "-o", tmp_path / "new" / "folder" / "x.json")
        assert result.exit_code == status, result.output[-500:]
        assert "created the folder" in result.stderr and "Traceback" not in result.output
        assert not (tmp_path / "new").exists(), result.stderr
        there = tmp_path / "there"
        there.mkdir(exist_ok=True)
        assert run("mine", "-j", "1", "-o", there / "x.json").exit_code == status
        assert there.is_dir()


def _rng_ints(label: str, count: int, bound: int) -> list[int]:
    """``count`` numbers below ``bound`` from SHA-256 of ``label`` (reproducible)."""
    out, counter = [], 0
    while len(out) < count:
        digest = hashlib.sha256(f"{label}/{counter}".encode()).digest()
        out += [int.from_bytes(digest[i : i + 4], "big") % bound for i in range(0, 32, 4)]
        counter += 1
    return out[:count]


def _paths(node, prefix=()):
    """Every (path, value) inside a JSON value."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


WRONG_TYPES = {
    str: [None, 1, 2.0, [], {}, True],
    int: [2.0, None, "2", True, []],
    float: ["4.5", None, True, [], {}],
    list: [None, "x", {}, 3],
    dict: [None, [], "x", 1.5],
}


OPTIONAL_FIELDS = ("witness", "mined_by")
"""Fields the version-1 schema allows a pack to leave out (a puzzle without a witness
fails ``pack verify`` itself, exit 1, not the schema)."""


def mutated_packs(count: int) -> list[tuple[str, bytes]]:
    """Small packs (two shipped puzzles) with one value given a wrong JSON type, one key
    removed, or the bytes cut short: each is invalid under the schema."""
    base = json.loads(SHIPPED.read_bytes())
    base["puzzles"] = base["puzzles"][:2]
    paths = [p for p, _ in _paths(base) if p]
    picks = _rng_ints("hostile-packs", 3 * count, 1 << 30)
    out = []
    for i in range(count):
        pack = copy.deepcopy(base)
        path = paths[picks[3 * i] % len(paths)]
        parent = pack
        for key in path[:-1]:
            parent = parent[key]
        kind = picks[3 * i + 1] % 3
        # without an optional field the pack is still valid: those get a wrong type instead
        removable = path[-1] not in OPTIONAL_FIELDS
        if kind == 0 and isinstance(parent, dict) and "solution" not in path[:-1] and removable:
            del parent[path[-1]]
            label = f"remove {'/'.join(map(str, path))}"
        elif kind == 1:
            data = dump_json(pack)
            cut = picks[3 * i + 2] % (len(data) - 2) + 1
            out.append((f"cut at byte {cut}", data[:cut]))
            continue
        else:
            value = parent[path[-1]]
            options = WRONG_TYPES[type(value)]
            parent[path[-1]] = options[picks[3 * i + 2] % len(options)]
            label = f"{'/'.join(map(str, path))} = {parent[path[-1]]!r}"
        out.append((label, dump_json(pack)))
    return out


def test_mutated_packs_are_one_line_errors_in_every_pack_command(tmp_path):
    for label, data in mutated_packs(40):
        path = _write(tmp_path / "bad.json", data)
        for args in (
            ["pack", "verify", path],
            ["pack", "show", path],
            ["pack", "html", path, "-o", tmp_path / "x.html", "--force"],
            ["pack", "svg", path, "-d", tmp_path / "svg", "--force"],
            ["play", "--pack", path],
        ):
            result = run(*args)
            assert result.exit_code == 2, (label, args, result.output[-300:])
            assert_one_line_error(result)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda p: p["puzzles"][0].update(n=2.0), "puzzles/0/n: 2.0 is not of type 'integer'"),
        (lambda p: p.update(puzzles=None), "puzzles: None is not of type 'array'"),
        (lambda p: p.update(puzzles=[]), "puzzles: [] should be non-empty"),
        (lambda p: p["puzzles"][1].update(n=8), "puzzles/1/n: 8 is greater than the maximum of 3"),
        (lambda p: p.pop("seed"), "'seed' is a required property"),
        (lambda p: p["puzzles"][0].pop("attacker"), "'attacker' is a required property"),
        (lambda p: p.update(seed=True), "seed: True is not of type 'integer'"),
    ],
)
def test_schema_errors_name_the_json_path(tmp_path, change, fragment):
    pack = json.loads(SHIPPED.read_bytes())
    change(pack)
    path = _write(tmp_path / "p.json", dump_json(pack))
    for command in (["pack", "verify"], ["pack", "show"], ["play", "--pack"]):
        assert fragment in assert_one_line_error(run(*command, path))


def test_a_huge_bad_file_is_quoted_briefly(tmp_path):
    game = _write(tmp_path / "big.game", GAME.encode() + b"2. " + b"x" * 5_000_000 + b"\n")
    assert_one_line_error(run("analyse", game))
    suite = _write(tmp_path / "big.perft", b"id a\nposition " + b"y" * 1_000_000 + b"\n")
    assert_one_line_error(run("perft", "--suite", suite))
    pack = _write(tmp_path / "big.json", b'{"format": "' + b"z" * 1_000_000 + b'"}')
    assert_one_line_error(run("pack", "verify", pack))
    assert_one_line_error(run("show", "q" * 100_000))


def mutated_positions(count: int) -> list[str]:
    """The start position with one to three characters replaced, inserted or removed."""
    alphabet = "sSmM12345/ gb,:xX\u00e4\u00df\t" + "ausfallvoltebindung"
    picks = _rng_ints("hostile-positions", 7 * count, 1 << 30)
    out = []
    for i in range(count):
        text = list(START)
        for j in range(1 + picks[7 * i] % 3):
            at = picks[7 * i + 1 + 2 * j] % (len(text) + 1)
            char = alphabet[picks[7 * i + 2 + 2 * j] % len(alphabet)]
            action = (picks[7 * i + 1 + 2 * j] >> 20) % 3
            if action == 0 and at < len(text):
                text[at] = char
            elif action == 1:
                text.insert(at, char)
            elif at < len(text):
                del text[at]
        out.append("".join(text))
    return out


def test_mutated_positions_answer_or_fail_in_one_line():
    for text in mutated_positions(50):
        for args in (
            ["show", text],
            ["perft", text, "1"],
            ["solve", text, "--max", "1"],
            ["render", text, "-o", "-"],
        ):
            result = run(*args)
            if result.exit_code != 0:
                assert_one_line_error(result)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", START, "--max", "\uff12"],  # full-width 2
        ["solve", START, "--max", "1_0"],
        ["solve", START, "--max", "+2"],
        ["solve", START, "--max", "2.0"],
        ["solve", START, "--max", ""],
        ["solve", START, "--max", "9" * 400],
        ["solve", START, "--time-limit", "nan"],
        ["solve", START, "--time-limit", "inf"],
        ["solve", START, "--time-limit", "1e3"],
        ["perft", START, "11"],
        ["perft", START, "-1"],
        ["play", "--two-players", "--clock", "nan"],
        ["play", "--two-players", "--clock", "inf"],
        ["play", "--two-players", "--clock", "-0"],
        ["play", "--cards", ""],
        ["play", "--cards", "ausfall,,volte,bindung,stoss"],
        ["play", "--cards", "ausfall,volte,bindung,stoss,riposte,"],
        ["mine", "--cards", "", "-o", "/nonexistent/never.json"],
        ["mine", "--count", "\uff13", "-o", "/nonexistent/never.json"],
        ["daily", "export", "--from", "2027-01-01", "--days", "0x10", "-o", "/nonexistent/x"],
        ["match", "leicht", "leicht", "--seed", "\u0663"],  # Arabic-Indic digit 3
    ],
)
def test_lenient_numbers_and_card_lists_are_rejected(args):
    assert_one_line_error(run(*args))


def test_blanks_around_numbers_and_card_ids_are_accepted(tmp_path):
    """Documented leniency: ' 2 ' is 2, and blanks around card ids do not matter."""
    assert run("solve", START, "--max", " 1 ").exit_code in (0, 1)
    assert run("perft", START, " 2 ").output.strip() == "169"
    result = CliRunner().invoke(
        cli.main,
        ["play", "--cards", " Ausfall, volte ,bindung,stoss, riposte", "--seed", "3"],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output


def test_the_reader_refuses_specials_by_name(tmp_path):
    from fechtbuch.engines.errors import InputError
    from fechtbuch.engines.files import read_input_bytes

    os.mkfifo(tmp_path / "f")
    for path, fragment in [
        (tmp_path / "f", "FIFO"),
        (tmp_path, "folder"),
        ("/dev/null", "device"),
        ("a\0b", "bad file name"),
    ]:
        with pytest.raises(InputError, match=fragment):
            read_input_bytes(path, "--x")


def _state(**changes) -> dict:
    params = {"ns": [2, 3], "count": 6, "cards": None, "seed": 7}
    pool = {"candidates": [], "rounds": 16, "counts": {"positions:random": 40}}
    state = {
        "format": "fechtbuch-mine-state",
        "rules": "battleklinge",
        "params": params,
        "next_round": 16,
        "pool": pool,
    }
    for path, value in changes.items():
        node = state
        keys = path.split("__")
        for key in keys[:-1]:
            node = node[key]
        if value is KeyError:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return state


@pytest.mark.parametrize(
    "state",
    [
        _state(pool=KeyError),
        _state(pool=None),
        _state(pool__candidates=[{}]),
        _state(pool__candidates=[{"round": 0, "puzzle": {"n": 2}}]),
        _state(pool__counts={"positions:random": -1}),
        _state(pool__rounds="3"),
        _state(next_round=16.0),
        _state(next_round=-1),
        _state(format="other"),
        _state(rules="touche-duell"),
        [],
        "x",
    ],
)
def test_damaged_resume_state_is_one_line(tmp_path, state):
    (tmp_path / "p.json.partial").write_bytes(json.dumps(state).encode())
    args = ["mine", "--count", "6", "--seed", "7", "-o", tmp_path / "p.json", "--resume"]
    line = assert_one_line_error(run(*args))
    assert "--resume" in line and "damaged" in line
    assert (tmp_path / "p.json.partial").exists() and not (tmp_path / "p.json").exists()


def test_resume_state_with_other_options_is_refused(tmp_path):
    (tmp_path / "p.json.partial").write_bytes(json.dumps(_state(params={"seed": 1})).encode())
    args = ["mine", "--count", "6", "--seed", "7", "-o", tmp_path / "p.json", "--resume"]
    assert "other options" in assert_one_line_error(run(*args))


# ---- every writer of every game, and every number --------------------------------

DUEL_VIEW = "standard 9-12 0:0 A zug 13345/?5 00000 ?15"
PYRAMID_STATE = run("pyramiden", "new", "--seed", "1").output.strip()


def output_commands(path: Path) -> list[tuple[list[str], str | None]]:
    """Every command that writes a file or folder, writing ``path`` (with the input it
    reads from the terminal, if any).  A new writer must be added here."""
    p = str(path)
    return [
        (["solve", START, "--max", "1", "--tree", p], None),
        (["render", START, "-o", p], None),
        (["mine", "--count", "6", "-o", p], None),
        (["pack", "html", "fechtuebungen", "-o", p], None),
        (["pack", "svg", "fechtuebungen", "--puzzle", "1", "-d", p], None),
        (["match", "leicht", "leicht", "--games", "2", "--games-out", p], None),
        (["match", "leicht", "leicht", "--games", "2", "--log", p], None),
        (["touche", "match", "leicht", "leicht", "--games", "2", "--log", p], None),
        (["pyramiden", "match", "leicht", "leicht", "--games", "2", "--log", p], None),
        (["play", "--seed", "1", "--save", p], "quit\n"),
        (["daily", "export", "--from", "2027-01-01", "--days", "1", "-o", p], None),
        (["daily", "vectors", "--schedule", str(data_path("daily", "2027.json")), "-o", p], None),
        (["touche", "play", "--seed", "1", "--save", p], "quit\n"),
        (["touche", "solve", DUEL_VIEW, "--max", "1", "--tree", p], None),
        (["touche", "mine", "-o", p], None),
        (["pyramiden", "play", "--seed", "1", "--save", p], "q\n"),
        (["pyramiden", "mine", "-o", p], None),
        (["pyramiden", "render", PYRAMID_STATE, "-o", p], None),
        (["tb", "build", "--cards", "einsteiger", "--students", "0", "-o", p], None),
        (["tb", "studies", "-o", p], None),
        (
            ["db", "export", "--game", "battleklinge", "--db", "/nonexistent/db.sqlite", "-o", p],
            None,
        ),
    ]


def _command_name(args: list[str]) -> str:
    """'pack html' for ['pack', 'html', ...], 'render' for ['render', ...]; a game's
    alias is named by its slug ('touche play' -> 'touche-duell play')."""
    command = cli.main.get_command(click.Context(cli.main), args[0])
    if not isinstance(command, click.Group):
        return args[0]
    names = [command.name]
    for word in args[1:]:
        sub = command.get_command(click.Context(command), word)
        names.append(word)
        if not isinstance(sub, click.Group):
            break
        command = sub
    return " ".join(names)


WRITERS = {_command_name(args) for args, _ in output_commands(Path("x"))}


def test_every_writer_is_in_the_list():
    """A command with an output option that output_commands does not try fails here."""
    names = {"-o", "--output", "-d", "--directory", "--save", "--tree", "--games-out", "--log"}
    found = set()
    for path, command in _commands(cli.main):
        if any(set(p.opts) & names for p in command.params if isinstance(p, click.Option)):
            found.add(" ".join(path[:2]))
    assert found <= WRITERS | {"bench " + x for x in ("perft", "solve", "mine", "engine")}, (
        found - WRITERS
    )


def bad_output_cases(tmp: Path) -> dict[str, Path]:
    (tmp / "loop").symlink_to(tmp / "loop")
    (tmp / "plain.txt").write_text("x")
    os.mkfifo(tmp / "fifo")
    (tmp / "dangling").symlink_to(tmp / "nowhere")
    return {
        "long name": tmp / ("n" * 300 + ".json"),
        "path through a file": tmp / "plain.txt" / "out.json",
        "symlink loop": tmp / "loop",
        "a FIFO": tmp / "fifo",
        "a dangling link": tmp / "dangling",
        "through a symlink loop": tmp / "loop" / "out.json",
    }


def test_every_writer_refuses_bad_output_paths_in_one_line(tmp_path):
    for label, path in bad_output_cases(tmp_path).items():
        before = sorted(os.listdir(tmp_path))
        for args, stdin in output_commands(path):
            result = run(*args, input=stdin)
            assert not isinstance(result.exception, OSError), (label, args, result.exception)
            line = assert_one_line_error(result)
            assert "output:" in line or "log:" in line, (label, args, line)
            assert "Traceback" not in result.output
        assert sorted(os.listdir(tmp_path)) == before, label
    assert os.path.islink(tmp_path / "loop") and os.path.islink(tmp_path / "dangling")


def test_a_path_through_a_file_is_called_that(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "some-file.json").write_text("{}")
    for args in (
        ["tb", "build", "--cards", "einsteiger", "--students", "0", "-o", "some-file.json/x"],
        ["render", START, "-o", "some-file.json/x.svg"],
    ):
        result = CliRunner().invoke(cli.main, args, catch_exceptions=True)
        line = result.stderr.strip()
        assert result.exit_code == 2 and "is a file, not a folder" in line, line


def test_a_missing_output_folder_is_created_with_a_note(tmp_path):
    target = tmp_path / "new" / "deeper" / "start.svg"
    result = run("render", START, "-o", target)
    assert result.exit_code == 0 and target.exists()
    assert result.stderr.strip() == f"fechtbuch: note: created the folder {str(tmp_path / 'new')!r}"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_every_writer_refuses_a_read_only_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        for args, stdin in output_commands(locked / "out"):
            assert "Permission denied" in assert_one_line_error(run(*args, input=stdin))
    finally:
        locked.chmod(0o755)


def test_save_at_the_duel_prompt_reports_a_bad_name_and_plays_on(tmp_path):
    long_name = tmp_path / ("n" * 300 + ".txt")
    result = run("touche", "play", "--seed", "1", input=f"save {long_name}\nquit\n")
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )
    assert "Not saved: output: cannot write" in result.output


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    """Every command below ``group`` (lazy groups load theirs), by canonical path:
    Battleklinge's commands without the game's name, as the shortcuts run them."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        if prefix == () and name == "battleklinge":
            continue  # the same commands as the shortcuts at the top
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name), command


def test_every_number_option_of_every_command_takes_plain_digits_only():
    """Every int or float parameter uses the strict types of commands/options.py (the input rules of
    'fechtbuch --help'), so a new command cannot take '２' or 'nan'."""
    lenient = []
    for path, command in _commands(cli.main):
        for param in command.params:
            kind = param.type
            if isinstance(kind, click.types.IntParamType) and not isinstance(kind, StrictIntRange):
                lenient.append((" ".join(path), param.name))
            if isinstance(kind, click.types.FloatParamType) and not isinstance(
                kind, StrictFloatRange
            ):
                lenient.append((" ".join(path), param.name))
    assert lenient == []


def test_no_range_in_any_help_names_an_open_bound():
    """--help describes a number option's range by its bounds; an open one is not
    written as 'x<=None' (the float type as the int type: nothing for an open bound)."""
    for path, command in _commands(cli.main):
        ctx = click.Context(command, info_name=" ".join(path))
        for param in command.params:
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            assert record is None or "None" not in record[1], (path, param.name, record)
    assert StrictFloatRange()._describe_range() == "any number"
    assert StrictFloatRange(0)._describe_range() == "x>=0"
    assert StrictFloatRange(None, 1)._describe_range() == "x<=1"


@pytest.mark.parametrize(
    "args",
    [
        ["tb", "build", "--cards", "einsteiger", "--students", "\uff11"],
        ["tb", "studies", "--count", "\uff11", "-o", "/nonexistent/x.json"],
        ["touche", "show", "kinder \uff11-5 0:0 A zug ?5/13345 00000 ?15"],
        ["touche", "show", "kinder 1-5 0:0 A zug ?\uff15/13345 00000 ?15"],
        ["touche", "match", "leicht", "leicht", "--games", "\uff12"],
        ["pyramiden", "show", PYRAMID_STATE.replace("spieler=2", "spieler=\uff12")],
        ["pyramiden", "show", PYRAMID_STATE.replace("runde=1", "runde=\uff11")],
        ["pyramiden", "new", "--players", "\uff13"],
    ],
)
def test_full_width_digits_are_rejected_in_every_game(args):
    assert_one_line_error(run(*args))


def test_a_view_showing_five_jokers_is_refused_by_every_command():
    view = run("pyramiden", "show", PYRAMID_STATE, "--seat", "0", "--json").output
    text = json.loads(view)["view"]
    hand = text.split("hand=")[1].split("/")[0]
    five_jokers = text.replace(f"hand={hand}", "hand=XX,XX,XX,XX,XX")
    for args in (
        ["pyramiden", "show", five_jokers],
        ["pyramiden", "render", five_jokers, "-o", "-"],
        ["pyramiden", "solve", five_jokers],
    ):
        assert "more of a card than the deck holds" in assert_one_line_error(run(*args))


def test_a_study_no_table_covers_is_refused_not_searched(tmp_path, monkeypatch):
    """Puzzle 11 of the studies moved to a position with two Blau students (the K = 1
    tables the verifier builds do not cover it): refused with the reason, at once."""
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "no-tables"))
    pack = json.loads(data_path("packs", "meisterstudien.json").read_bytes())
    puzzle = pack["puzzles"][10]
    puzzle["position"] = "2m1s/1s3/2M2/2S2/5 g riposte,volte ausfall,bindung stoss"
    pack["puzzles"] = [puzzle]
    path = _write(tmp_path / "edited.json", dump_json(pack))
    result = run("pack", "verify", path)
    assert result.exit_code == 1, result.output[-500:]
    assert "beyond the verifier without endgame tables" in result.output
    assert "1 and 2 students" in result.output


def _small_pack(name: str, count: int) -> dict:
    pack = json.loads(data_path("packs", f"{name}.json").read_bytes())
    pack["puzzles"] = pack["puzzles"][:count]
    return pack


@pytest.mark.parametrize(
    "name, change, fragment",
    [
        ("touche-uebungen", lambda z: z.pop("round"), "'round' is a required property"),
        ("touche-uebungen", lambda z: z.update(round="3"), "is not of type 'integer'"),
        ("touche-uebungen", lambda z: z.update(extra=1), "'extra' was unexpected"),
        ("pyramiden-uebungen", lambda z: z.update(extra=1), "'extra' was unexpected"),
        ("pyramiden-uebungen", lambda z: z.pop("pattern"), "'pattern' is a required property"),
        ("meisterstudien", lambda z: z.update(extra=1), "'extra' was unexpected"),
    ],
)
def test_every_game_s_puzzle_fields_are_fixed_by_the_schema(tmp_path, name, change, fragment):
    pack = _small_pack(name, 1)
    change(pack["puzzles"][0])
    path = _write(tmp_path / "p.json", dump_json(pack))
    assert fragment in assert_one_line_error(run("pack", "verify", path))


def test_a_changed_duel_round_is_found(tmp_path):
    pack = _small_pack("touche-uebungen", 1)
    pack["puzzles"][0]["round"] += 1
    result = run("pack", "verify", _write(tmp_path / "p.json", dump_json(pack)))
    assert result.exit_code == 1 and "round: the view does not occur in round" in result.output


def test_a_missing_exercise_is_named_before_the_pack_is_validated():
    """The schema check of a large pack takes seconds; a wrong --puzzle is known at once."""
    import time

    for args in (
        ["touche", "play", "--pack", "touche-uebungen", "--puzzle", "999"],
        ["pyramiden", "play", "--pack", "pyramiden-uebungen", "--puzzle", "999"],
        ["pack", "show", "touche-uebungen", "--puzzle", "999"],
        ["pack", "play", "touche-uebungen", "--puzzle", "999"],
    ):
        started = time.process_time()
        assert "no puzzle '999'" in assert_one_line_error(run(*args))
        assert time.process_time() - started < 1.0, args


def test_every_reader_is_in_the_list(tmp_path):
    """A command that reads a user's file (a path or pack argument or option) and that
    file_commands does not try fails here; --tables folders have their own test."""
    listed = {_command_name(args) for args in file_commands(tmp_path / "x", tmp_path)}
    outputs = {"-o", "--output", "-d", "--directory", "--save", "--tree", "--games-out", "--log"}
    outputs.add(
        "--data"
    )  # serve's SQLite store is created when missing: tests/cli/test_web_serve.py
    readers = set()
    for path, command in _commands(cli.main):
        for param in command.params:
            if isinstance(param, click.Option) and set(param.opts) & (outputs | {"--tables"}):
                continue
            if path == ("db", "mine") and param.name == "db_path":
                continue  # creates a missing database: tests/cli/test_db.py tries its odd paths
            if isinstance(param.type, click.Path) or type(param.type).__name__ == "PackFileType":
                readers.add(" ".join(path))
    assert readers <= listed, readers - listed


TABLE_POSITION = "2m2/5/1s3/1S3/2M2 g ausfall,volte bindung,stoss riposte"


def test_odd_tables_folders_are_one_line_or_a_warning(tmp_path):
    """--tables means the tables root everywhere: an unusable one is one line in tb probe
    and tb studies, and a warning in solve, which then searches."""
    cases = dict(os_level_cases(tmp_path))
    os.mkfifo(tmp_path / "fifo")
    cases["a FIFO"] = tmp_path / "fifo"
    for label, root in cases.items():
        for args in (
            ["tb", "probe", TABLE_POSITION, "--tables", root],
            ["tb", "studies", "--tables", root, "-o", tmp_path / "s.json", "--force"],
        ):
            assert "tables" in assert_one_line_error(run(*args)), (label, args)
        result = run("solve", TABLE_POSITION, "--tables", root, "--max", "1")
        assert result.exit_code in (0, 1), (label, result.output[-300:])
        assert result.stderr.startswith("fechtbuch: warning: tables:"), (label, result.stderr)
        assert len(result.stderr.splitlines()) == 1, (label, result.stderr)
        if label != "folder":  # an empty folder is a tables root with no tables yet
            line = assert_one_line_error(run("tb", "info", "--tables", root))
            assert "tables" in line and ("'n" * 3 not in line or "characters)" in line), line


def test_an_empty_tables_path_is_refused_naming_it(tmp_path):
    """'--tables ""' is not the current folder: every command refuses it in one line."""
    for args in (
        ["tb", "info"],
        ["tb", "probe", TABLE_POSITION],
        ["tb", "studies", "-o", tmp_path / "s.json"],
        ["solve", TABLE_POSITION, "--max", "1"],
    ):
        line = assert_one_line_error(run(*args, "--tables", ""))
        assert "--tables" in line and "empty" in line, (args, line)
    assert not (tmp_path / "s.json").exists()


def test_full_width_digits_in_files_and_bench_options(tmp_path):
    suite = _write(tmp_path / "s.perft", f"id a\nposition {START}\nperft \uff11 10\n".encode())
    assert "perft <depth> <count>" in assert_one_line_error(run("perft", "--suite", suite))
    line = assert_one_line_error(run("bench", "tune-eval", "--candidate", "mobility=\uff12"))
    assert "--candidate" in line
