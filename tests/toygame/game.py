"""Abzählen, a toy game that plugs into fechtbuch through this one folder.

Two players count a number down in turns.  A turn is ``take1`` or ``take2`` (the
number goes down by one or two), or ``push`` (up by one; twice per player and
game).  Once per game, while the number is above 2, a player may ``feint``: down
by one, and the same player acts again (a free action, like a Touché parry, so
proofs count turns, not plies).  Whoever brings the number to zero or below wins.

Every part a game offers lives here: the rules and notation (a :class:`Game`), the
proof view (an :class:`AndOrProblem`), players in two strengths, the pack kind and
the mining kind.  ``plugin.py`` names them; nothing in fechtbuch names this game.
Notation: ``<number> <A|B> <pushes left A><pushes left B> <feinted A><feinted B>``,
e.g. ``7 A 22 00``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from fechtbuch.engines.errors import InputError, NotationError
from fechtbuch.engines.game import AndOrProblem, Game, GameInfo, Outcome
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.puzzles.minekit import Candidate, MinePool, MiningKind, RoundYield
from fechtbuch.puzzles.pack import build_pack_v2
from fechtbuch.puzzles.packkind import PackKind, schema_part
from fechtbuch.puzzles.witness import replay_witness
from fechtbuch.solver.andor_solve import FOUND, solve_andor

ACTIONS = ("take1", "take2", "push", "feint")
SEATS = "AB"
START_LOW, START_HIGH = 5, 15
"""A game starts at a number in this range, A to move, two pushes each, no feints."""


class AbzaehlenError(NotationError):
    """Bad Abzählen notation (the field is named)."""


@dataclass(frozen=True)
class State:
    number: int
    mover: int
    pushes: tuple[int, int] = (2, 2)
    feinted: tuple[bool, bool] = (False, False)
    last: int | None = None
    """Who acted last (the winner once the number is at zero or below)."""


def _other(seat: int) -> int:
    return 1 - seat


class Abzaehlen(Game[State, str]):
    info = GameInfo(
        name="abzaehlen",
        title="Abzählen",
        min_players=2,
        max_players=2,
        hidden_information=False,
        chance=False,
    )

    def parse_state(self, text: str) -> State:
        fields = text.split()
        if len(fields) not in (4, 5):
            raise AbzaehlenError(f"position: expected 4 fields, got {text[:80]!r}")
        number_text, mover_text, pushes_text, feints_text = fields[:4]
        if not number_text.lstrip("-").isascii() or not number_text.lstrip("-").isdigit():
            raise AbzaehlenError(f"number: {number_text[:20]!r} is not a whole number")
        if mover_text not in SEATS:
            raise AbzaehlenError(f"mover: {mover_text[:20]!r} is not A or B")
        if len(pushes_text) != 2 or any(c not in "012" for c in pushes_text):
            raise AbzaehlenError(f"pushes: {pushes_text[:20]!r} is not two digits 0-2")
        if len(feints_text) != 2 or any(c not in "01" for c in feints_text):
            raise AbzaehlenError(f"feints: {feints_text[:20]!r} is not two digits 0-1")
        last = None
        if len(fields) == 5:
            if fields[4] not in SEATS:
                raise AbzaehlenError(f"last: {fields[4][:20]!r} is not A or B")
            last = SEATS.index(fields[4])
        number = int(number_text)
        if number <= 0 and last is None:
            raise AbzaehlenError("last: a finished game names who acted last")
        return State(
            number,
            SEATS.index(mover_text),
            (int(pushes_text[0]), int(pushes_text[1])),
            (feints_text[0] == "1", feints_text[1] == "1"),
            last if number <= 0 else None,
        )

    def format_state(self, state: State) -> str:
        text = (
            f"{state.number} {SEATS[state.mover]} {state.pushes[0]}{state.pushes[1]} "
            f"{int(state.feinted[0])}{int(state.feinted[1])}"
        )
        return text if state.number > 0 else f"{text} {SEATS[state.last]}"

    def parse_action(self, state: State, text: str) -> str:
        if text not in ACTIONS:
            raise AbzaehlenError(f"action: {text[:20]!r} is not one of {', '.join(ACTIONS)}")
        return text

    def format_action(self, state: State, action: str) -> str:
        return action

    def num_players(self, state: State) -> int:
        return 2

    def current_player(self, state: State) -> int:
        return state.mover

    def legal_actions(self, state: State) -> Sequence[str]:
        if state.number <= 0:
            return ()
        actions = ["take1", "take2"]
        if state.pushes[state.mover] > 0:
            actions.append("push")
        if not state.feinted[state.mover] and state.number > 2:
            actions.append("feint")
        return tuple(actions)

    def apply(self, state: State, action: str) -> State:
        if action not in self.legal_actions(state):
            raise AbzaehlenError(f"action: {action!r} is not legal in {self.format_state(state)!r}")
        me = state.mover
        if action == "feint":
            feinted = tuple(f or seat == me for seat, f in enumerate(state.feinted))
            return replace(state, number=state.number - 1, feinted=feinted, last=None)
        if action == "push":
            pushes = tuple(p - (seat == me) for seat, p in enumerate(state.pushes))
            return replace(state, number=state.number + 1, mover=_other(me), pushes=pushes)
        number = state.number - (1 if action == "take1" else 2)
        return replace(state, number=number, mover=_other(me), last=me if number <= 0 else None)

    def is_terminal(self, state: State) -> bool:
        return state.number <= 0

    def returns(self, state: State) -> tuple[float, ...]:
        return tuple(1.0 if seat == state.last else 0.0 for seat in range(2))

    def state_key(self, state: State) -> Hashable:
        return state

    def initial_state(self, seed: int) -> State:
        digest = hashlib.sha256(f"abzaehlen/{seed}".encode()).digest()
        return State(START_LOW + digest[0] % (START_HIGH - START_LOW + 1), 0)

    def start_problem(self, state: State) -> str | None:
        if not START_LOW <= state.number <= START_HIGH:
            return f"number: a game starts at {START_LOW} to {START_HIGH}"
        if state != State(state.number, 0):
            return "a game starts with A to move, two pushes each and no feints"
        return None


GAME = Abzaehlen()


class Race(AndOrProblem[State, str]):
    """``attacker`` wins within N own turns (a feint spends none)."""

    def __init__(self, attacker: int) -> None:
        self.attacker = attacker

    def attacker_to_act(self, state: State) -> bool:
        return state.mover == self.attacker

    def outcome(self, state: State) -> Outcome | None:
        if state.number > 0:
            return None
        return Outcome.WIN if state.last == self.attacker else Outcome.LOSS

    def children(self, state: State) -> Sequence[tuple[str, State]]:
        return [(a, GAME.apply(state, a)) for a in GAME.legal_actions(state)]

    def counts_turn(self, state: State, action: str) -> bool:
        return action != "feint"

    def needs_turn(self, state: State) -> bool:
        return False

    def key(self, state: State) -> Hashable:
        return state

    def format_state(self, state: State) -> str:
        return GAME.format_state(state)

    def format_action(self, state: State, action: str) -> str:
        return action


def proof_view(state: State) -> tuple[Race, State]:
    """The proof view of a position: the player to move attacks."""
    return Race(state.mover), state


# ---- players ----------------------------------------------------------------------
@cache
def _best(state: State) -> tuple[int, str]:
    """(value for the mover: +k wins in k plies, -k loses in k plies, action); plain
    negamax over the whole game, which is short."""
    if state.number <= 0:
        raise ValueError("decided")
    options = []
    for action in GAME.legal_actions(state):
        child = GAME.apply(state, action)
        if child.number <= 0:
            value = 1
        else:
            inner, _ = _best(child)
            same = child.mover == state.mover
            value = (
                (inner + 1 if inner > 0 else inner - 1)
                if same
                else (-inner + 1 if inner < 0 else -inner - 1)
            )
        options.append((value, action))
    wins = [(v, a) for v, a in options if v > 0]
    if wins:
        return min(wins)
    return min(options)  # the longest loss: the most negative value


class Player:
    """``zufall``: a seeded random action; ``perfekt``: the fastest win, else the
    longest defence."""

    def __init__(self, strength: str, seed: object = 0) -> None:
        self.strength = strength
        self.seed = seed
        self.moves = 0

    def choose(self, state: State) -> str:
        actions = GAME.legal_actions(state)
        self.moves += 1
        if self.strength == "perfekt":
            return _best(state)[1]
        digest = hashlib.sha256(f"{self.seed}/{self.moves}".encode()).digest()
        return actions[digest[0] % len(actions)]


PLAYERS = PlayerFactory(strengths=("zufall", "perfekt"), make=Player)


# ---- exercises ----------------------------------------------------------------------
RULES = "abzaehlen"
MAX_N = 6


def puzzle_of(state: State, max_n: int = MAX_N) -> dict | None:
    """The exercise at ``state`` (a win in exactly N with one key), or ``None``."""
    problem, root = proof_view(state)
    found = solve_andor(problem, root, max_n, verify=True)
    if found.status is not FOUND or len(found.keys) != 1 or not found.verified:
        return None
    return {
        "id": "abz-" + hashlib.sha256(GAME.format_state(state).encode()).hexdigest()[:10],
        "n": found.distance,
        "position": GAME.format_state(state),
        "key": found.keys[0],
        "line": found.main_line,
        "solution": found.tree,
        "tags": [],
        "difficulty": float(found.distance),
    }


def verify_puzzle(puzzle: dict, max_n: int) -> list[str]:
    try:
        state = GAME.parse_state(puzzle["position"])
    except InputError as err:
        return [f"position: {err}"]
    expected = puzzle_of(state, max_n)
    if expected is None:
        return ["n: no win in exactly N with one key"]
    return [f"{k}: differs" for k in expected if puzzle.get(k) != expected[k]]


def verify_witness(puzzle: dict) -> list[str]:
    """The witness game reaches the puzzle's position exactly."""
    reached, problems = replay_witness(GAME, puzzle.get("witness"))
    if problems:
        return problems
    if GAME.format_state(reached) != puzzle["position"]:
        return [f"witness: reaches {GAME.format_state(reached)!r}, not the position"]
    return []


KIND = PackKind(
    rules=RULES,
    title="Abzählen",
    version=2,
    max_n=MAX_N,
    verify_puzzle=verify_puzzle,
    duplicate_class=lambda puzzle: puzzle["position"],
    problem=lambda puzzle: proof_view(GAME.parse_state(puzzle["position"])),
    board_text=lambda state, colour: f"[{GAME.format_state(state)}]",
    board_svg=lambda state: (
        f'<svg xmlns="http://www.w3.org/2000/svg"><text>{state.number}</text></svg>'
    ),
    verify_witness=verify_witness,
    puzzle_schema=schema_part(__package__),  # pack.schema.json next to this module
)


class Mining(MiningKind):
    """A round: one seeded game between two ``zufall`` players; every position on
    the way whose mover wins in exactly N with one key is a candidate."""

    rules = RULES
    command = "fechtbuch abzaehlen mine"
    batch_rounds = 4

    def task(self, params: dict, round_number: int, pool: MinePool) -> tuple:
        return (params["seed"], round_number, tuple(params["ns"]))

    def examine_round(self, task: tuple) -> RoundYield:
        seed, round_number, ns = task
        state = GAME.initial_state(seed * 100_000 + round_number)
        start, moves = GAME.format_state(state), []
        seats = [Player("zufall", f"{seed}/{round_number}/{s}") for s in (0, 1)]
        found = []
        while not GAME.is_terminal(state):
            puzzle = puzzle_of(state)
            if puzzle is not None and puzzle["n"] in ns:
                found.append(puzzle | {"witness": {"start": start, "moves": list(moves)}})
            action = seats[state.mover].choose(state)
            moves.append(action)
            state = GAME.apply(state, action)
        return RoundYield(round_number, found, {"positions": len(found)})

    def duplicate_class(self, puzzle: dict) -> str:
        return puzzle["position"]

    def pool_full(self, pool: MinePool, params: dict) -> bool:
        return all(pool.count(n) >= params["count"] for n in self.ns(params))

    def select(self, pool: MinePool, params: dict) -> list[Candidate]:
        chosen = []
        for n in self.ns(params):
            chosen += [c for c in pool.candidates if c.puzzle["n"] == n][: params["count"]]
        return chosen

    def build_pack(self, chosen: list[Candidate], params: dict, command: str) -> dict:
        return build_pack_v2(
            KIND, [c.puzzle for c in chosen], seed=params["seed"], command=command, max_n=MAX_N
        )

    def command_text(self, params: dict, output, max_rounds: int) -> str:
        ns = " ".join(f"--n {n}" for n in self.ns(params))
        return f"{self.command} {ns} --count {params['count']} --seed {params['seed']}"


MINING = Mining()
