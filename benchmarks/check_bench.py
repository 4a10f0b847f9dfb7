"""Time a whole log check plus its solution-space history.

    .venv/bin/python benchmarks/check_bench.py [--players 3 4 5] [--moves 60] [--games 5] [--repeat 5]

For each player count, simulates ``--games`` random games of ``--moves``
moves (tests/checker/games.py: random legal moves from the state machine,
accusations rare), writes each as a log with private facts, then times:

- check: ``check_text`` on the log (parse, replay, every rule, consistency of
  each verdict, hidden counter values, scoring when the game ended);
- history: what ``solve --hindsight`` does after reading the log: the one
  replay (the same as check's) and the solution space after every move for
  the spectator and for every player (count and determined);
- total: both, the figure behind "a 5-player 60-move log checked with its
  whole solution-space history in under one second".

Medians over games and repeats; nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ruleslawyer.checker.check import check_text  # noqa: E402
from ruleslawyer.checker.log import parse_log_text  # noqa: E402
from ruleslawyer.checker.replay import replay  # noqa: E402
from ruleslawyer.solver.queries import Viewpoint, history  # noqa: E402
from tests.checker.games import simulate  # noqa: E402

VARIANTS = {3: "3p", 4: "4p", 5: "5p"}


def one(text: str) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    report = check_text(text, "bench.yaml")
    t1 = time.perf_counter()
    log, rules = parse_log_text(text, "bench.yaml")
    rep = replay(log, rules)
    views = [Viewpoint.spectator(), *(Viewpoint.of_player(p) for p in rep.players)]
    history(rep.deal, rep.facts(), views)
    t2 = time.perf_counter()
    assert report.status == 0, report.format_text()
    return t1 - t0, t2 - t1, len(rep.steps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=[3, 4, 5])
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'players':>7} {'moves':>6} {'check ms':>9} {'history ms':>11} {'total ms':>9}")
    for n in args.players:
        checks, hists, totals, lengths = [], [], [], []
        seed = 0
        while len(lengths) < args.games:
            seed += 1
            game = simulate(VARIANTS[n], seed, max_moves=args.moves, solve_rate=0.0)
            if len(game.plays) < args.moves:
                continue  # ended early: keep only full-length games
            text = game.log()
            for _ in range(args.repeat):
                c, h, k = one(text)
                checks.append(c)
                hists.append(h)
                totals.append(c + h)
            lengths.append(k)
        print(f"{n:>7} {statistics.median(lengths):>6.0f} {statistics.median(checks) * 1e3:>9.1f} "
              f"{statistics.median(hists) * 1e3:>11.1f} {statistics.median(totals) * 1e3:>9.1f}")


if __name__ == "__main__":
    main()
