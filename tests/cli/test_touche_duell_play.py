"""fechtbuch touche ... end to end: play through stdin in every mode, bad input exits 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.players import STRENGTHS, Player
from fechtbuch.engines.touche_duell.record import GameRecord, game_over, read_game
from fechtbuch.engines.touche_duell.state import PLAYER_CHARS, Ruleset, format_action, view_of


def run(*args, lines=()):
    result = CliRunner().invoke(
        cli.main, ["touche", *map(str, args)], input="".join(f"{line}\n" for line in lines)
    )
    assert "Traceback" not in result.output
    return result


def script(seed: str, ruleset: Ruleset, computer: dict[int, Player], pick=0):
    """The lines a person types to play the game of ``seed`` with the first (or
    last) legal action each time; two people press Enter at every hand-over."""
    record = GameRecord.new(ruleset, seed)
    positions = record.positions()
    lines: list[str] = []
    shown = None
    while not game_over(positions[-1]):
        pos = positions[-1]
        if pos.mover in computer:
            action = computer[pos.mover].choose(view_of(pos, pos.mover))
        else:
            if not computer and shown != pos.mover:
                lines.append("")
                shown = pos.mover
            legal = rules.legal_actions(pos)
            action = legal[0] if pick == 0 else legal[-1]
            lines.append(format_action(action))
        record = record.with_action(pos, action)
        after = rules.apply(pos, action)
        positions = record.positions() if after.phase.over else [*positions, after]
    return lines, record


@pytest.mark.parametrize("strength", STRENGTHS)
def test_play_against_every_strength_to_the_end(strength, tmp_path):
    seed, ruleset = f"e2e-{strength}", Ruleset(short=True)
    human = 1
    computer = {1 - human: Player(strength, seed)}
    lines, record = script(seed, ruleset, computer, pick=-1)
    game = tmp_path / "g.txt"
    result = run(
        "play",
        "--strength",
        strength,
        "--fencer",
        "B",
        "--short",
        "--seed",
        seed,
        "--save",
        game,
        lines=lines,
    )
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output and "(computer) plays" in result.output
    saved = read_game(game)
    assert saved.actions == record.actions and saved.result() == record.result()


@pytest.mark.parametrize("level", ["kinder", "standard", "fortgeschritten"])
def test_two_players_hand_over_and_hidden_hands(level, tmp_path):
    seed, ruleset = f"two-{level}", Ruleset.from_name(level + "-kurz")
    lines, record = script(seed, ruleset, {})
    game = tmp_path / "two.txt"
    result = run(
        "play",
        "--two-players",
        "--level",
        level,
        "--short",
        "--seed",
        seed,
        "--save",
        game,
        lines=lines,
    )
    assert result.exit_code == 0, result.output
    assert "Hand over to A" in result.output and "Hand over to B" in result.output
    assert "5 cards (hidden)" in result.output
    assert read_game(game).actions == record.actions


def test_commands_undo_hint_legal_help_save_resign(tmp_path):
    saved = tmp_path / "mid.txt"
    lines = [
        "help",
        "legal",
        "hint",
        "m+5",
        "undo",
        "nonsense",
        "m+9",
        "",
        f"save {saved}",
        "resign",
    ]
    result = run("play", "--seed", "3", "--strength", "leicht", lines=lines)
    out = result.output
    assert result.exit_code == 0, out
    assert "Commands:\n  legal" in out and "  undo " in out and "Hint: " in out
    assert "Undone: back to A's decision." in out
    assert "Not played: action:" in out and "resigns" in out
    assert read_game(saved).actions == ()


def test_quit_and_end_of_input_leave_cleanly():
    assert run("play", "--seed", "3", lines=["quit"]).exit_code == 0
    assert run("play", "--seed", "3", lines=[]).exit_code == 0


def test_warning_no_parry_at_this_distance():
    # A to move at distance 3 holds no 3; three 3s are unseen
    pos = "standard 10-13 0:0 A zug 11245/?5 00000 ?15"
    from fechtbuch.engines.touche_duell.notation import parse_view
    from fechtbuch.engines.touche_duell.textboard import warnings

    lines = warnings(parse_view(pos))
    assert any("can attack you at this distance (3) and you hold no parry" in x for x in lines)


def test_new_and_show_and_json():
    result = run("new", "--seed", "7", "--json")
    data = json.loads(result.output)
    assert data["shuffle"] == "7/1" and data["starter"] in "AB"
    shown = run("show", data["position"])
    assert "distance 22" in shown.output and "pile: 15 cards" in shown.output
    facts = json.loads(run("show", data["position"], "--json").output)
    assert facts["legal"] and facts["pile"]
    view = run("show", "standard 9-12 0:0 A zug 11223/?5 01000 ?14", "--json")
    assert json.loads(view.output)["unseen"] == [3, 2, 4, 5, 5]
    assert run("new", "--seed", "7", "--level", "fortgeschritten", "--short").output.startswith(
        "fortgeschritten-kurz 1-23 0:0 "
    )


def test_match_prints_a_summary():
    result = run("match", "stark", "leicht", "--games", "2", "--seed", "m", "--short", "--json")
    data = json.loads(result.output)
    assert data["games"] == 2 and data["wins"] + data["losses"] + data["draws"] == 2
    text = run("match", "mittel", "leicht", "--games", "2", "--progress").output
    assert "game 1:" in text and "mittel vs leicht" in text


@pytest.mark.parametrize(
    "args",
    [
        ["show", "standard 1-23"],
        ["show", "standard 1-23 0:0 A zug ?5/?5 00000 ?15"],
        ["new"],
        ["new", "--seed", "1", "--level", "profi"],
        ["play", "--level", "profi"],
        ["play", "--strength", "gott"],
        ["play", "--two-players", "--strength", "stark"],
        ["play", "--two-players", "--fencer", "B"],
        ["match", "stark", "gott"],
        ["match", "stark", "mittel", "--games", "0"],
        ["play", "--save", "/dev/null/x"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_save_refuses_to_overwrite(tmp_path):
    target = tmp_path / "exists.txt"
    target.write_text("x")
    result = run("play", "--save", target, lines=["quit"])
    assert result.exit_code == 2 and "--force" in result.output
    assert run("play", "--save", target, "--force", "--seed", "1", lines=["quit"]).exit_code == 0


@pytest.mark.parametrize("command", ["show", "new", "play", "match"])
def test_help_teaches_with_an_example(command):
    result = run(command, "--help")
    assert result.exit_code == 0 and "fechtbuch touche " + command in result.output


def test_every_player_letter_is_named():
    assert PLAYER_CHARS == "AB"


def test_undo_across_the_end_of_a_round(tmp_path):
    seed, ruleset = "undo-round", Ruleset(short=True)
    lines, record = script(seed, ruleset, {})
    # the person lines up to the action that ends round 1 (hand-over lines are "")
    from fechtbuch.engines.touche_duell.deal import new_round

    pos = new_round(record.shuffles[0], record.starter, ruleset)
    played = 0
    while not pos.phase.over:
        pos = rules.apply(pos, record.actions[played])
        played += 1
    typed, count = [], 0
    for line in lines:
        typed.append(line)
        count += line != ""
        if count == played:
            break
    last = typed[-1]
    saved = tmp_path / "u.txt"
    result = run(
        "play",
        "--two-players",
        "--short",
        "--seed",
        seed,
        "--save",
        saved,
        lines=[*typed, "undo", "", last, "quit"],
    )
    assert result.exit_code == 0, result.output
    assert "Round over" in result.output and "Undone" in result.output
    again = read_game(saved)
    assert again.actions == record.actions[:played] and len(again.shuffles) == 2
