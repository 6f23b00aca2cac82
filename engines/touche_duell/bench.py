"""Speed figures of the Touché duel: states per second of the rules, seconds per move
of each strength.  Printed by ``fechtbuch touche bench`` (docs/performance.md)."""

from __future__ import annotations

import time
from collections.abc import Callable

from fechtbuch.engines.touche_duell import reference, rules
from fechtbuch.engines.touche_duell.deal import HashStream, new_round
from fechtbuch.engines.touche_duell.players import SAMPLES, STRENGTHS, Player
from fechtbuch.engines.touche_duell.state import RULESETS, Position, view_of


def playouts(
    legal: Callable, apply: Callable, rounds: int, label: str = "bench"
) -> tuple[int, float]:
    """Random play of ``rounds`` rounds per rule set; (states made, seconds).

    Choices come from a fixed list of indexes (the hashing is not timed); the two
    implementations list actions in different orders, so their games differ a little.
    """
    stream = HashStream(label)
    picks = [stream.below(1 << 20) for _ in range(4096)]
    starts = [new_round(f"{label}/{i}", i % 2, r) for r in RULESETS for i in range(rounds)]
    states = 0
    began = time.perf_counter()
    for pos in starts:
        while not pos.phase.over:
            actions = legal(pos)
            pos = apply(pos, actions[picks[states % 4096] % len(actions)])
            states += 1
    return states, time.perf_counter() - began


def sample_positions(count: int, label: str = "bench-moves") -> list[Position]:
    """Positions from games of ``stark`` against itself, every third one kept."""
    out: list[Position] = []
    game = 0
    while len(out) < count:
        rules_ = RULESETS[game % len(RULESETS)]
        pos = new_round(f"{label}/{game}", game % 2, rules_)
        player = Player("stark", game)
        ply = 0
        while not pos.phase.over and len(out) < count:
            if ply % 3 == 0 and len(rules.legal_actions(pos)) > 1:
                out.append(pos)
            pos = rules.apply(pos, player.choose(view_of(pos, pos.mover)))
            ply += 1
        game += 1
    return out


def seconds_per_move(
    strength: str, positions: list[Position], samples: int = SAMPLES, make: Callable = Player
) -> tuple[float, float]:
    """Mean (wall, CPU) seconds per move; on a shared machine the CPU time is the
    figure that does not depend on the other processes.  ``make``: the player
    factory's ``make`` (the command line's meister proves sure wins)."""
    player = make(strength, "bench", samples)
    began, began_cpu = time.perf_counter(), time.process_time()
    for pos in positions:
        player.choose(view_of(pos, pos.mover))
    count = len(positions)
    return (time.perf_counter() - began) / count, (time.process_time() - began_cpu) / count


def run_bench(
    rounds: int, positions: int, write: Callable[[str], None], make: Callable = Player
) -> dict:
    result: dict = {}
    for name, legal, apply in (
        ("rules", rules.legal_actions, rules.apply_legal),
        ("reference", reference.legal_actions, reference.apply),
    ):
        states, seconds = playouts(legal, apply, rounds)
        result[name] = {
            "states": states,
            "seconds": round(seconds, 4),
            "states_per_second": round(states / seconds),
        }
        write(
            f"{name:9}: {states} states of random play in {seconds:.3f} s, "
            f"{states / seconds:,.0f} states/s (legal actions + apply)"
        )
    sample = sample_positions(positions)
    for strength in STRENGTHS:
        spm, cpu = seconds_per_move(strength, sample, make=make)
        result[strength] = {
            "seconds_per_move": spm,
            "cpu_seconds_per_move": cpu,
            "positions": len(sample),
        }
        write(
            f"{strength:9}: {spm * 1000:.3f} ms per move (CPU {cpu * 1000:.3f} ms) "
            f"over {len(sample)} positions"
        )
    return result
