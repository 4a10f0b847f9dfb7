"""Time ``solve``'s answers after every move of the Perfect Alibi example games.

Usage::

    .venv/bin/python benchmarks/alibi_solve_bench.py [--games clean-3p clean-4p ...] [--seats 1]

For each example log of ``examples/perfect-alibi/``, the replay's facts are
taken after every move (``--at 0`` to the end) and answered as ``solve``
answers them (:func:`solver.queries.solve`: the worlds left, each card's
status, its chance in every zone, the Rival tiles' chances), from the
spectator's seat and the first ``--seats`` players'.  Printed per game and
seat: the median and the slowest move, and the whole game.  This is what a
player asking after every question waits for, in process (a fresh
``ruleslawyer solve`` adds Python's start-up and imports, about 0.7 s).
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["clean-3p", "clean-4p", "clean-5p", "rival-4p", "unforgiving-4p"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=GAMES, help="example logs, by name")
    parser.add_argument("--seats", type=int, default=1, help="players timed besides the spectator")
    args = parser.parse_args(argv)
    from ruleslawyer.checker.log import parse_log
    from ruleslawyer.checker.replay import replay
    from ruleslawyer.solver import queries

    print(f"{'game':15} {'seat':15} {'moves':>5} {'median':>10} {'slowest':>10} {'whole game':>11}")
    for name in args.games:
        log, rules = parse_log(str(ROOT / "examples" / "perfect-alibi" / f"{name}.yaml"))
        rep = replay(log, rules)
        moves = len(rep.steps)
        views = [queries.Viewpoint.spectator(), *(queries.Viewpoint.of_player(p) for p in rep.players[:args.seats])]
        for view in views:
            times = []
            for at in range(moves + 1):
                start = time.perf_counter()
                queries.solve(rep.deal, rep.facts(at), view)
                times.append(time.perf_counter() - start)
            print(f"{name:15} {view.name:15} {moves:5} {statistics.median(times) * 1000:8.1f} ms "
                  f"{max(times) * 1000:7.1f} ms {sum(times):9.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
