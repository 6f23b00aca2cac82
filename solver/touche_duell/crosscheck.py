"""Cross-check of the Touché duel's sure wins: prover, verifier and the definition agree.

    fechtbuch touche bench crosscheck
    fechtbuch touche bench crosscheck --set xcheck14:300:3 --n 1 2

Three deciders answer "does the player to move win the round within N own turns
whatever the opponent holds and the pile brings?" on the same seeded views:

* the prover: generic df-pn (:mod:`fechtbuch.solver.andor_prover`) over the
  public-state problem (:mod:`fechtbuch.engines.touche_duell.public`);
* the verifier: plain memoised recursion (:mod:`fechtbuch.solver.andor_verifier`)
  over the same problem;
* the brute force (:mod:`fechtbuch.engines.touche_duell.bruteforce`): the
  definition itself, over every concrete opponent hand and distinct pile order,
  with a strategy of the player that may use only its observations.

Views: every view of the player to move with at most ``max_pile`` pile cards, from
seeded random rounds of standard and fortgeschritten (the moves are SHA-256 picks
of ``label``), so a set is named by ``label:count:max_pile`` and always the same.
The brute force is exponential in the unseen cards, so the sets stay late in the
round (a pile of at most 4).  It prints one line per N (decisions, sure wins,
disagreements, CPU seconds), every disagreement with the view, and a summary;
exit 1 when any decider disagrees.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import orjson
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.bruteforce import BruteForce
from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import format_view
from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.engines.touche_duell.state import Level, Ruleset, View, view_of
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck

DEFAULT_SETS = ("xcheck14:300:3", "xcheck14b:200:4")
"""The sets of the figure in docs/performance.md (300 views with a pile of at most 3,
200 with at most 4)."""
DEFAULT_NS = (1, 2, 3)


def _pick(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "little")


def random_views(label: str, count: int, max_pile: int = 15) -> list[View]:
    """``count`` distinct views of the player to move with at most ``max_pile`` cards
    in the pile, from seeded random rounds (odd rounds standard, even rounds
    fortgeschritten; every move a SHA-256 pick of ``label``, round and ply)."""
    views: dict[View, None] = {}
    game = 0
    while len(views) < count:
        level = Level.STANDARD if game % 2 else Level.FORTGESCHRITTEN
        position = new_round(f"{label}/{game}", game % 2, Ruleset(level))
        ply = 0
        while not position.phase.over and len(views) < count:
            if len(position.pile) <= max_pile:
                views.setdefault(view_of(position, position.mover))
            actions = rules.legal_actions(position)
            position = rules.apply_legal(position, actions[_pick(label, game, ply) % len(actions)])
            ply += 1
        game += 1
    return list(views)


@dataclass(frozen=True)
class ViewSet:
    """``label:count:max_pile``: which seeded views to check."""

    label: str
    count: int
    max_pile: int

    @classmethod
    def parse(cls, text: str) -> ViewSet:
        try:
            label, count, max_pile = text.rsplit(":", 2)
            parsed = cls(label, int(count), int(max_pile))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected LABEL:COUNT:MAX_PILE such as xcheck14:300:3, got {text!r}"
            ) from None
        if not parsed.label or parsed.count < 1 or not 0 <= parsed.max_pile <= 4:
            raise argparse.ArgumentTypeError(
                f"{text!r}: a non-empty label, a count of at least 1, a pile of 0..4 "
                "(the brute force enumerates every deal)"
            )
        return parsed

    def views(self) -> list[View]:
        return random_views(self.label, self.count, self.max_pile)


@dataclass(frozen=True)
class Disagreement:
    """One view and N on which the three deciders do not all agree."""

    view: str
    n: int
    prover: bool
    verifier: bool
    brute_force: bool


@dataclass
class NResult:
    """The decisions at one N."""

    n: int
    decisions: int = 0
    sure_wins: int = 0
    """Sure wins by the definition (the brute force)."""
    false_claims: int = 0
    """The prover or the verifier said "sure win" and the brute force refuted it."""
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: float = 0.0
    """CPU seconds of all three deciders."""

    def row(self) -> dict:
        return {
            "n": self.n,
            "decisions": self.decisions,
            "sure_wins": self.sure_wins,
            "not": self.decisions - self.sure_wins,
            "disagreements": len(self.disagreements),
            "false_claims": self.false_claims,
            "cpu_seconds": round(self.seconds, 2),
        }


def decide(view: View, n: int, brute: BruteForce) -> tuple[bool, bool, bool]:
    """Prover, verifier and brute force on one view (fresh searches, one shared
    brute force per view so its memo serves every N)."""
    problem = SureWinProblem(view.viewer)
    return (
        ProofSearch(problem).wins(view, n),
        ProofCheck(SureWinProblem(view.viewer)).wins(view, n),
        brute.wins(view, n),
    )


def crosscheck(views: Sequence[View], ns: Sequence[int]) -> list[NResult]:
    """Every view at every N; the results per N."""
    results = {n: NResult(n) for n in ns}
    for view in views:
        brute = BruteForce(view.viewer)
        for n in ns:
            started = time.process_time()
            prover, verifier, truth = decide(view, n, brute)
            result = results[n]
            result.seconds += time.process_time() - started
            result.decisions += 1
            result.sure_wins += truth
            if (prover or verifier) and not truth:
                result.false_claims += 1
            if not prover == verifier == truth:
                result.disagreements.append(
                    Disagreement(format_view(view), n, prover, verifier, truth)
                )
    return list(results.values())


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fechtbuch touche bench crosscheck",
        description="Prover, verifier and brute force on seeded late-round views.",
        epilog="example: crosscheck --set xcheck14:300:3 --set xcheck14b:200:4 --n 1 2 3",
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        type=ViewSet.parse,
        help=f"LABEL:COUNT:MAX_PILE, repeatable (default: {' '.join(DEFAULT_SETS)})",
    )
    parser.add_argument(
        "--n", nargs="+", type=int, choices=(1, 2, 3, 4), default=list(DEFAULT_NS), help="turns"
    )
    args = parser.parse_args(list(argv))
    sets = args.sets or [ViewSet.parse(text) for text in DEFAULT_SETS]
    views: dict[View, None] = {}
    for view_set in sets:
        views.update(dict.fromkeys(view_set.views()))
    results = crosscheck(list(views), sorted(set(args.n)))
    for result in results:
        print(orjson.dumps(result.row()).decode(), flush=True)
    disagreements = [d for r in results for d in r.disagreements]
    for item in disagreements:
        print("DISAGREE " + orjson.dumps(item.__dict__).decode())
    summary = {
        "views": len(views),
        "sets": [f"{s.label}:{s.count}:{s.max_pile}" for s in sets],
        "decisions": sum(r.decisions for r in results),
        "sure_wins": sum(r.sure_wins for r in results),
        "disagreements": len(disagreements),
        "false_claims": sum(r.false_claims for r in results),
        "cpu_seconds": round(sum(r.seconds for r in results), 1),
    }
    print(orjson.dumps(summary).decode())
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
