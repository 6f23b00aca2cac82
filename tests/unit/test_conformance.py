"""The conformance test every registered game runs (engines/registry.py).

Seeded random playouts from ``game.initial_state(seed)`` (moves chosen by SHA-256,
so the same on every machine), and at every state:

* notation round trips of the state and of every legal action;
* every legal action applies, an action legal elsewhere but not here is refused
  with an ``InputError``; terminal states have no actions and one return per
  player (in 0..1);
* ``state_key`` is equal for equal states (re-parsed) and different for states
  with different notation; ``information_state`` is text for every player (the
  full notation where information is perfect);
* where the game has a reference implementation: the same actions (as a set; each
  implementation has its own fixed order), the same successors, terminal flags and
  returns;
* where the game has a compiled kernel: its move list, winner and successor
  hashes agree with the game.

A new game is picked up once its plugin is registered (engines/registry.py).
"""

from __future__ import annotations

import hashlib
import itertools

import pytest
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.kernel import NO_WINNER
from fechtbuch.engines.registry import game, plugin_modules, plugins

PLAYOUTS = 40
MAX_PLIES = 80
"""Per playout of the state checks; a game longer than this (the pyramid game's three
rounds) is also played to its end once, by ``test_a_whole_game_ends``."""
WHOLE_GAME_PLIES = 20_000
MIN_STATES = 1000
REFERENCE_STATES = 1000
"""States of the playouts (evenly spread) that the reference implementation replays: it
is many times slower than the game (the pyramids' a hundred times), and each game's own
agreement test compares the two on thousands of states more."""


def _names() -> list[str]:
    from fechtbuch.engines.registry import GAMES

    return list(GAMES)


def _pick(name: str, playout: int, ply: int, count: int) -> int:
    digest = hashlib.sha256(f"conformance/{name}/{playout}/{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "little") % count


def playout_states(name: str):
    """(playout, state) for every state of the seeded playouts of one game."""
    g = game(name)
    seen = 0
    for playout in itertools.count():
        if playout >= PLAYOUTS and seen >= MIN_STATES:  # short games (a Touché round) play more
            return
        state = g.initial_state(playout)
        for ply in range(MAX_PLIES + 1):
            seen += 1
            yield playout, state
            if g.is_terminal(state):
                break
            actions = g.legal_actions(state)
            state = g.apply(state, actions[_pick(name, playout, ply, len(actions))])


@pytest.fixture(scope="module", params=_names())
def states(request):
    return request.param, list(playout_states(request.param))


def test_every_listed_module_is_registered():
    assert len(_names()) == len(plugin_modules())


def test_each_game_answers_to_its_slug_everywhere():
    """One slug and one title per game: its Game's name and title, its packs' ``rules``
    and title, its command group."""
    from fechtbuch.engines.plugin import load
    from fechtbuch.puzzles.packkinds import kind_for

    for entry in plugins():
        assert game(entry.slug).info.name == entry.slug
        assert game(entry.slug).info.title == entry.title
        for alias in entry.aliases:
            assert game(alias) is game(entry.slug)
        if entry.pack_kind is not None:
            assert kind_for(entry.slug) is load(entry.pack_kind)
            assert kind_for(entry.slug).title == entry.title
        if entry.cli is not None:
            assert load(entry.cli)().name == entry.slug


def test_playouts_reach_many_states(states):
    name, sample = states
    assert len(sample) >= MIN_STATES


@pytest.mark.parametrize("name", _names())
def test_a_whole_game_ends(name):
    """Seeded random play reaches a terminal state with one return per player."""
    g = game(name)
    for playout in range(3):
        state = g.initial_state(playout)
        for ply in range(WHOLE_GAME_PLIES):
            if g.is_terminal(state):
                break
            actions = g.legal_actions(state)
            state = g.apply(state, actions[_pick(name, playout, ply, len(actions))])
        assert g.is_terminal(state), f"{name}: no end after {WHOLE_GAME_PLIES} plies"
        returns = g.returns(state)
        assert len(returns) == g.num_players(state)
        assert all(0.0 <= r <= 1.0 for r in returns)


def test_notation_round_trips(states):
    name, sample = states
    g = game(name)
    for _, state in sample:
        text = g.format_state(state)
        again = g.parse_state(text)
        assert again == state and g.format_state(again) == text, text
        if g.is_terminal(state):
            continue
        for action in g.legal_actions(state):
            action_text = g.format_action(state, action)
            parsed = g.parse_action(state, action_text)
            assert parsed == action and g.format_action(state, parsed) == action_text


def test_actions_apply_and_outcomes(states):
    name, sample = states
    g = game(name)
    elsewhere = []
    for _, state in sample:
        players = g.num_players(state)
        assert g.info.min_players <= players <= g.info.max_players
        if g.is_terminal(state):
            assert list(g.legal_actions(state)) == []
            returns = g.returns(state)
            assert len(returns) == players and all(0.0 <= r <= 1.0 for r in returns)
            continue
        assert 0 <= g.current_player(state) < players
        actions = list(g.legal_actions(state))
        assert actions, g.format_state(state)
        for action in actions:
            g.apply(state, action)
        illegal = [a for a in elsewhere if a not in actions]
        if illegal:
            with pytest.raises(InputError):
                g.apply(state, illegal[0])
        elsewhere = actions


def test_state_keys_and_information_states(states):
    name, sample = states
    g = game(name)
    notation_of_key = {}
    for _, state in sample:
        text = g.format_state(state)
        key = g.state_key(state)
        assert g.state_key(g.parse_state(text)) == key
        assert notation_of_key.setdefault(key, text) == text, "two states share a key"
        for player in range(g.num_players(state)):
            seen = g.information_state(state, player)
            assert isinstance(seen, str) and seen
            if not g.info.hidden_information:
                assert seen == text


def test_fast_rules_agree_with_the_reference(states):
    name, sample = states
    g = game(name)
    ref = g.reference()
    if ref is None:
        pytest.skip(f"{name} has no separate reference implementation")
    every = -(-len(sample) // REFERENCE_STATES)
    for _, state in sample[::every]:
        assert ref.is_terminal(state) == g.is_terminal(state)
        if g.is_terminal(state):
            assert ref.returns(state) == g.returns(state)
            continue
        actions = list(g.legal_actions(state))

        # the same set of actions (each game fixes its own order; the reference may list
        # them as the rulebook does), and the same successor for each
        def text(action, state=state):
            return g.format_action(state, action)

        ref_actions = sorted(ref.legal_actions(state), key=text)
        assert ref_actions == sorted(actions, key=text), g.format_state(state)
        for action in actions:
            assert ref.apply(state, action) == g.apply(state, action)


def test_compiled_kernel_agrees_with_the_game(states):
    import numpy as np

    name, sample = states
    g = game(name)
    kernel = g.kernel()
    if kernel is None:
        pytest.skip(f"{name} has no compiled kernel")
    out = np.empty(kernel.max_moves, dtype=np.int32)
    child = np.empty(kernel.state_size, dtype=np.int64)
    for _, state in sample:
        st = kernel.encode_state(state)
        assert int(kernel.state_hash(st)) == g.state_key(state)
        winner = int(kernel.winner(st))
        if g.is_terminal(state):
            assert winner != NO_WINNER and g.returns(state)[winner] == 1.0
            continue
        assert winner == NO_WINNER and int(kernel.side_to_move(st)) == g.current_player(state)
        n = kernel.gen_moves(st, out)
        actions = list(g.legal_actions(state))
        assert [kernel.decode_move(code) for code in out[:n]] == actions
        wins = set()
        for code, action in zip(out[:n], actions, strict=True):
            assert kernel.encode_move(action) == code
            kernel.make_move(st, code, child)
            after = g.apply(state, action)
            assert int(kernel.state_hash(child)) == g.state_key(after)
            if kernel.is_winning_move(st, code):
                wins.add(action)
        assert wins == {
            a for a in actions if g.returns(g.apply(state, a))[g.current_player(state)] == 1.0
        }
        assert bool(kernel.has_immediate_win(st)) == bool(wins)


@pytest.mark.parametrize("name", _names())
def test_bad_notation_raises_the_shared_error(name):
    """Every game's notation errors derive from one base, so generic tools catch them."""
    from fechtbuch.engines.errors import NotationError

    for text in ("x", "", "a b c d e f g h i"):
        with pytest.raises(NotationError):
            game(name).parse_state(text)


def test_unknown_game_names_the_known_ones():
    with pytest.raises(InputError, match=r"game: unknown game 'schach'; known: battleklinge"):
        game("schach")


@pytest.mark.parametrize("name", _names())
def test_the_generic_match_and_play_loop_run_every_game(name):
    """Every game's player factory serves the generic match and the generic terminal
    loop: computers on every seat play seeded games to their end."""
    from fechtbuch.engines.gameloop import play
    from fechtbuch.engines.gamematch import run_match
    from fechtbuch.engines.plugin import load
    from fechtbuch.engines.registry import plugin

    factory = load(plugin(name).players)
    weak, other = factory.strengths[0], factory.strengths[1]
    report, results = run_match(name, factory, weak, other, 2, seed=5)
    assert report.games == 2 and len(results) == 2
    assert all(r.outcome in ("win", "loss", "draw") for r in results), results
    g = game(name)
    state = g.initial_state(3)
    seats = {p: factory.seat(weak, p) for p in range(g.num_players(state))}
    lines: list[str] = []
    result = play(g, state, seats, iter(()), lines.append)
    assert g.is_terminal(result.state) and result.returns == g.returns(result.state)
    assert len(result.actions) == sum(1 for line in lines if " plays " in line)
