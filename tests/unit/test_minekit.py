"""The generic mining loop's pieces: the pool keeps the first of each duplicate class
in round order and survives its JSON round trip; the three games' ``mine`` commands
share their options (one name, type and help per idea); the CP-SAT model's soft
constraints cost what they say."""

from __future__ import annotations

import click
import pytest
from fechtbuch import cli
from fechtbuch.puzzles.minekit import MinePool, RoundYield
from fechtbuch.puzzles.selection import PackModel, PoolTooSmall

SHARED = ("output", "seed", "max_rounds", "jobs", "resume", "force", "as_json")


def _parity(puzzle: dict) -> str:
    return str(puzzle["value"] % 2)


def test_pool_keeps_the_first_of_each_class_and_round_trips():
    pool = MinePool()
    pool.add(RoundYield(0, [{"n": 1, "value": 3}, {"n": 1, "value": 5}], {"views": 2}), _parity)
    pool.add(RoundYield(1, [{"n": 2, "value": 4}, {"n": 1, "value": 7}], {"views": 3}), _parity)
    assert [(c.round, c.puzzle["value"]) for c in pool.candidates] == [(0, 3), (1, 4)]
    assert pool.rounds == 2 and pool.counts == {"views": 5}
    assert pool.count(1) == 1 and pool.rounds_with(2) == 1
    again = MinePool.from_json(pool.to_json(), _parity)
    assert again == pool


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(cli.main)
    return {
        game: cli.main.get_command(ctx, game).get_command(ctx, "mine")
        for game in ("battleklinge", "touche-duell", "touche-pyramiden")
    }


def test_the_three_mine_commands_share_their_options():
    described = {}
    for game, command in _commands().items():
        params = {p.name: p for p in command.params}
        assert set(SHARED) <= set(params), game
        described[game] = {
            name: (
                tuple(params[name].opts),
                type(params[name].type),
                params[name].help.split("(")[0][:8],
            )
            for name in SHARED
        }
    battleklinge = described.pop("battleklinge")
    for game, options in described.items():
        for name in SHARED:
            opts, kind, help_start = options[name]
            assert kind is battleklinge[name][1] and help_start == battleklinge[name][2], name
            assert opts[: len(battleklinge[name][0])] == battleklinge[name][0], (game, name)


def test_pack_model_soft_constraints_cost_their_weight():
    for weight, chosen in ((1, [0, 2]), (10, [0, 1])):
        model = PackModel(4)
        model.exactly([0, 1, 2, 3], 2)
        model.at_least([0], 1, "want0", weight=100)  # 0 has the lowest score: taken anyway
        model.at_most_soft([2, 3], 0, "avoid23", weight=weight, upper=2)
        assert model.solve([1, 5, 9, 8], seed=1) == chosen, weight
    hard = PackModel(2)
    hard.exactly([0, 1], 3)
    with pytest.raises(PoolTooSmall):
        hard.solve([1, 1], seed=1)
