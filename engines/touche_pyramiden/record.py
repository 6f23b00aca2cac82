"""Game records of the pyramid game: headers, then one action per line.

Format (UTF-8, ``\\n`` line ends)::

    # fechtbuch pyramiden game record
    Ruleset: pyramiden-1
    Players: 4
    Teams: 2
    Rounds: 3
    Pattern: -                      <- the fixed pattern, or '-' (chosen every round)
    Seed: demo
    Dealer-Draw: demo/geber0        <- every shuffle label, in the order used
    Shuffle-1: demo/runde1
    Shuffle-2: demo/runde2
    Shuffle-3: demo/runde3
    Seat-0: mensch                  <- optional: who sat where
    Result: 2,1                     <- points per team at the end, or '*'
                                    <- one blank line ends the header
    muster:linie
    7H:c3
    ...

The game is replayed from ``new_game`` with the seed (or from ``Start:``, a full state
in notation, when present); every action must be legal.  The shuffle labels are
derived from the seed; the record states them so that a reader can deal by hand, and
a record whose labels disagree with its seed is refused.  Unknown headers are kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from fechtbuch.engines import errors
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, read_text_file
from fechtbuch.engines.recordtext import split_record
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.state import RULESET, Action, Config, Phase, State

HEADER_COMMENT = "# fechtbuch pyramiden game record"
KNOWN = ("Ruleset", "Players", "Teams", "Rounds", "Pattern", "Seed", "Start", "Result")


class RecordError(errors.RecordError):
    """A malformed or inconsistent game record; names the line."""


@dataclass(frozen=True)
class GameRecord:
    """A start (config + seed, or a full state) and the actions played from it."""

    config: Config
    seed: str
    actions: tuple[Action, ...] = ()
    start: State | None = None
    """A start position other than the seed's first deal (exercises); ``None``: new game."""
    headers: tuple[tuple[str, str], ...] = field(default=())
    """Extra headers (``Seat-0`` …), kept in order."""

    def initial(self) -> State:
        return self.start if self.start is not None else rules.new_game(self.config, self.seed)

    def states(self) -> list[State]:
        """The start and the state after each action (legality checked)."""
        out = [self.initial()]
        for action in self.actions:
            out.append(rules.apply(out[-1], action))
        return out

    def result(self) -> str:
        final = self.states()[-1]
        return ",".join(str(s) for s in final.scores) if final.phase is Phase.OVER else "*"

    def to_text(self) -> str:
        cfg = self.config
        lines = [
            HEADER_COMMENT,
            f"Ruleset: {RULESET}",
            f"Players: {cfg.players}",
            f"Teams: {cfg.teams}",
            f"Rounds: {cfg.rounds}",
            f"Pattern: {cfg.fixed_pattern.value if cfg.fixed_pattern else '-'}",
            f"Seed: {self.seed}",
        ]
        if self.start is not None:
            lines.append(f"Start: {notation.format_state(self.start)}")
        else:
            _, draws = rules.dealer_labels(self.seed, cfg.players)
            lines.append(f"Dealer-Draw: {','.join(draws)}")
        first = self.initial().round
        for r in range(first, cfg.rounds + 1):
            lines.append(f"Shuffle-{r}: {rules.round_label(self.seed, r)}")
        lines += [f"{k}: {v}" for k, v in self.headers]
        lines.append(f"Result: {self.result()}")
        lines.append("")
        lines += [notation.format_action(a) for a in self.actions]
        return "\n".join(lines) + "\n"

    def write(self, path: str | os.PathLike, force: bool = False) -> None:
        """Write atomically; refuses to overwrite without ``force``."""
        atomic_write(path, self.to_text().encode(), force=force)

    @classmethod
    def from_text(cls, text: str, source: str = "record") -> GameRecord:
        parts = split_record(text, source, RecordError)
        values: dict[str, tuple[int, str]] = {}
        extra: list[tuple[str, str]] = []
        for header in parts.headers:
            i, key, value = header.line, header.key, header.value
            if key in values:
                raise RecordError(f"{source}: line {i}: a second {key!r} header")
            if key in KNOWN:
                values[key] = (i, value)
            elif key == "Dealer-Draw" or key.startswith("Shuffle-"):
                values[key] = (i, value)
            else:
                extra.append((key, value))

        def need(key: str) -> tuple[int, str]:
            if key not in values:
                raise RecordError(f"{source}: no '{key}:' header")
            return values[key]

        line, ruleset = need("Ruleset")
        if ruleset != RULESET:
            raise RecordError(
                f"{source}: line {line}: Ruleset: expected {RULESET!r}, got {ruleset!r}"
            )
        try:
            players = int(need("Players")[1])
            teams = int(need("Teams")[1])
            rounds = int(need("Rounds")[1])
        except ValueError as err:
            raise RecordError(f"{source}: Players/Teams/Rounds must be numbers ({err})") from None
        pattern_text = need("Pattern")[1]
        try:
            fixed = None if pattern_text == "-" else Pattern(pattern_text)
        except ValueError:
            raise RecordError(f"{source}: Pattern: unknown pattern {pattern_text!r}") from None
        try:
            config = Config(players, teams, rounds, fixed)
        except InputError as err:
            raise RecordError(f"{source}: {err}") from None
        seed = need("Seed")[1]
        start = None
        if "Start" in values:
            line, value = values["Start"]
            try:
                start = notation.parse_state(value)
            except InputError as err:
                raise RecordError(f"{source}: line {line}: Start: {err}") from None
            if start.config != config or start.seed != seed:
                raise RecordError(f"{source}: line {line}: Start disagrees with the headers")
        else:
            _, draws = rules.dealer_labels(seed, players) if _seed_ok(seed) else (0, [])
            if "Dealer-Draw" in values and values["Dealer-Draw"][1] != ",".join(draws):
                raise RecordError(
                    f"{source}: line {values['Dealer-Draw'][0]}: Dealer-Draw does not match Seed"
                )
        for key, (line, value) in values.items():
            if key.startswith("Shuffle-"):
                number = key[len("Shuffle-") :]
                if not (number.isascii() and number.isdigit()) or value != rules.round_label(
                    seed, int(number)
                ):
                    raise RecordError(f"{source}: line {line}: {key} does not match Seed {seed!r}")
        actions: list[Action] = []
        try:
            state = start if start is not None else rules.new_game(config, seed)
        except InputError as err:
            raise RecordError(f"{source}: {err}") from None
        for number, text in parts.body:
            if state.phase is Phase.OVER:
                raise RecordError(f"{source}: line {number}: action {text!r} after the game ended")
            try:
                action = notation.parse_action(text)
                state = rules.apply(state, action)
            except InputError as err:
                raise RecordError(f"{source}: line {number}: {err}") from None
            actions.append(action)
        record = cls(config, seed, tuple(actions), start, tuple(extra))
        if "Result" in values:
            line, result = values["Result"]
            played = ",".join(str(s) for s in state.scores) if state.phase is Phase.OVER else "*"
            if result != played:
                raise RecordError(
                    f"{source}: line {line}: Result {result!r} does not match the actions "
                    f"(they give {played!r})"
                )
        return record


def _seed_ok(seed: str) -> bool:
    from fechtbuch.engines.touche_pyramiden.shuffle import SEED_RE

    return bool(SEED_RE.fullmatch(seed))


def read_record(path: str | os.PathLike) -> GameRecord:
    """Read a record file; a missing or malformed file is an InputError."""
    target = Path(path)
    text = read_text_file(target, "record")  # one reader: FIFOs, loops, bad UTF-8 are one line
    return GameRecord.from_text(text, source=f"record {str(target)!r}")
