"""Record what `touche solve` and `pyramiden solve` print on many views, to compare two
versions of the AND/OR solve layer byte for byte (docs/performance.md).

    python tests/support/andor_solve_record.py touche OUT.jsonl       # or: pyramiden
    git archive f72a6a3 | tar -x -C /tmp/old/fechtbuch
    PYTHONPATH=/tmp/old python tests/support/andor_solve_record.py touche OLD.jsonl
    python tests/support/andor_solve_record.py compare OLD.jsonl OUT.jsonl

One JSON line per command: its arguments, exit status, output (JSON without
``seconds``, or the text with its seconds blanked) and the ``--tree`` file.  The
views: the Touché pack's positions at N and N + 1 and the duel bench set
(data/bench/touche-sure.jsonl) at N = 1..3, all verified, with trees; the pyramid
pack's positions at N (verified, with trees at N = 1: a grouped tree at N = 2 takes
minutes) and N + 1, and 30 views of the pyramid proof bench at N = 1 and 2; text
output and node limits for both.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator

from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.state import Phase
from fechtbuch.puzzles.touche_pyramiden.mining import jokers_seen, random_trails


def touche_calls() -> Iterator[list[str]]:
    pack = json.load(open("data/packs/touche-uebungen.json"))
    for p in pack["puzzles"]:
        for m in (p["n"], p["n"] + 1):
            yield ["touche", "solve", p["position"], "--max", str(m), "--json", "--verify"]
    views = [json.loads(line)["view"] for line in open("data/bench/touche-sure.jsonl")]
    for v in views:
        for m in ("1", "2", "3"):
            yield ["touche", "solve", v, "--max", m, "--json", "--verify", "--max-nodes", "300000"]
    yield ["touche", "solve", views[0], "--max", "2"]
    yield ["touche", "solve", views[2], "--max", "3", "--max-nodes", "50", "--json"]
    yield ["touche", "solve", "standard 1-23 0:0 B zug ?5/23444 00000 ?15", "--max", "1", "--json"]


def pyramiden_calls() -> Iterator[list[str]]:
    pack = json.load(open("data/packs/pyramiden-uebungen.json"))
    for p in pack["puzzles"]:
        n, position = p["n"], p["position"]
        extra = ["--verify"] if n == 1 else ["--no-tree"]
        yield ["pyramiden", "solve", position, "--max", str(n), "--json", *extra]
        extra = [] if n == 1 else ["--no-tree"]
        yield [
            "pyramiden",
            "solve",
            position,
            "--max",
            str(n + 1),
            "--json",
            "--max-nodes",
            "200000",
            *extra,
        ]
        yield ["pyramiden", "solve", position, "--max", str(n)]
    views = []
    for s, trail in random_trails(60, "proofbench"):
        if s.phase is Phase.PLAY:
            variant = jokers_seen(s, trail)
            v = s if variant is None else variant.replay()
            views.append(notation.format_view(notation.view_of(v, v.to_move)))
    for v in views[:30]:
        yield ["pyramiden", "solve", v, "--max", "1", "--json", "--verify"]
        yield ["pyramiden", "solve", v, "--max", "2", "--json", "--max-nodes", "200000"]
        yield ["pyramiden", "solve", v, "--max", "2", "--json", "--verify", "--max-nodes", "20000"]
    yield ["pyramiden", "solve", views[0], "--max", "2", "--max-nodes", "50", "--json"]


def record(args: list[str], runner: CliRunner) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tree_file = os.path.join(tmp, "tree.json")
        tree_args = ["--tree", tree_file] if args[0] == "touche" and "--json" in args else []
        result = runner.invoke(cli.main, args + tree_args)
        tree = open(tree_file).read() if os.path.exists(tree_file) else None
    try:
        out = json.loads(result.stdout)
        out.pop("seconds", None)
    except ValueError:
        out = re.sub(r"\d+\.\d+ s\b", "<t> s", result.stdout)
    return {"args": args, "exit": result.exit_code, "out": out, "tree": tree}


def compare(old_file: str, new_file: str) -> int:
    old = [json.loads(line) for line in open(old_file)]
    new = [json.loads(line) for line in open(new_file)]
    differ = [a["args"] for a, b in zip(old, new, strict=False) if a != b]
    for args in differ:
        print("differs:", args)
    print(f"{len(old)} / {len(new)} commands, {len(differ)} differ")
    return 1 if differ or len(old) != len(new) else 0


def main(argv: list[str]) -> int:
    if argv[0] == "compare":
        return compare(argv[1], argv[2])
    calls = touche_calls() if argv[0] == "touche" else pyramiden_calls()
    runner = CliRunner()
    with open(argv[1], "w") as sink:
        for count, args in enumerate(calls, 1):
            row = record(args, runner)
            sink.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
            print(count, row["exit"], " ".join(args[3:]), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
