"""``solve`` after every move, this tree beside an earlier one, in one process.

Usage::

    .venv/bin/python benchmarks/regress_bench.py [--baseline REV] [--repeat 3] [--games lady-alice/clean-4p ...]

The earlier tree (default ``3ac8580^``, main when Clue and the general engine
were asked for: "no worse than 1.2x today's on every row") is extracted with
``git archive`` as a package of its own (``rl_base``).  Each example log is
replayed by each tree (not timed); then for every move the same ``solve``
(worlds left, status, every card's chance in every zone) is timed in both,
alternately (which one goes first swaps each step), ``--repeat`` times, the
fastest kept: the load of the machine falls on both alike, so the ratio holds
where the absolute figures do not.  Both trees must give the same number of
worlds at every step (checked; a difference stops the run).

Printed per game and seat: the median and the slowest step of each tree and
the ratio of the medians (this tree / the earlier; below 1.2 is the goal).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BASELINE = "3ac8580^"
GAMES = ["lady-alice/clean-3p", "lady-alice/clean-4p", "lady-alice/clean-5p", "lady-alice/rulebook-deductions",
         "perfect-alibi/clean-3p", "perfect-alibi/clean-4p", "perfect-alibi/clean-5p",
         "perfect-alibi/rival-4p", "perfect-alibi/unforgiving-4p"]


def extracted(rev: str) -> Path:
    """The tree of ``rev`` as the package ``rl_base`` of a temporary folder on the import path."""
    from lab_bench import _extracted

    pkg = _extracted(rev, ["spec", "solver", "checker", "rules", "examples"], "rl_base")
    if pkg is None:
        raise SystemExit(f"git cannot give {rev}")
    return pkg


class Tree:
    """One tree's log reader, replay and solve."""

    def __init__(self, package: str, examples: Path) -> None:
        self.log = importlib.import_module(f"{package}.checker.log")
        self.replay = importlib.import_module(f"{package}.checker.replay")
        self.queries = importlib.import_module(f"{package}.solver.queries")
        self.examples = examples

    def prepare(self, game: str, seats: int):
        log, rules = self.log.parse_log(str(self.examples / f"{game}.yaml"))
        rep = self.replay.replay(log, rules)
        q = self.queries
        views = [q.Viewpoint.spectator(), *(q.Viewpoint.of_player(p) for p in rep.players[:seats])]
        return rep, views

    def solve(self, rep, at: int, view) -> int:
        return self.queries.solve(rep.deal, rep.facts(at), view).count


def timed(tree: Tree, rep, at: int, view) -> tuple[float, int]:
    start = time.perf_counter()
    n = tree.solve(rep, at, view)
    return time.perf_counter() - start, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help="the earlier tree (a git revision)")
    parser.add_argument("--games", nargs="+", default=GAMES, help="example logs, as GAME/NAME")
    parser.add_argument("--seats", type=int, default=1, help="players timed besides the spectator")
    parser.add_argument("--repeat", type=int, default=3, help="tries per step and tree (the fastest kept)")
    args = parser.parse_args(argv)
    base = Tree("rl_base", extracted(args.baseline) / "examples")
    now = Tree("ruleslawyer", ROOT / "examples")
    print(f"baseline {args.baseline}; medians and slowest step in ms; ratio = this tree / baseline")
    print(f"{'game':32} {'seat':10} {'steps':>5} {'base med':>9} {'now med':>9} {'ratio':>6} "
          f"{'base max':>9} {'now max':>9}")
    worst = 0.0
    for game in args.games:
        b_rep, b_views = base.prepare(game, args.seats)
        n_rep, n_views = now.prepare(game, args.seats)
        steps = len(n_rep.steps)
        for b_view, n_view in zip(b_views, n_views):
            bt, nt = [], []
            for at in range(steps + 1):
                b_best = n_best = float("inf")
                for r in range(args.repeat):
                    order = ((base, b_rep, b_view), (now, n_rep, n_view))
                    results = {}
                    for tree, rep, view in (order if (at + r) % 2 == 0 else order[::-1]):
                        results[tree is now] = timed(tree, rep, at, view)
                    (b_t, b_n), (n_t, n_n) = results[False], results[True]
                    if b_n != n_n:
                        raise SystemExit(f"{game} {n_view.name} move {at}: {b_n} worlds before, {n_n} now")
                    b_best, n_best = min(b_best, b_t), min(n_best, n_t)
                bt.append(b_best * 1000)
                nt.append(n_best * 1000)
            ratio = statistics.median(nt) / statistics.median(bt)
            worst = max(worst, ratio)
            print(f"{game:32} {n_view.name:10} {steps:5} {statistics.median(bt):9.2f} {statistics.median(nt):9.2f} "
                  f"{ratio:6.2f} {max(bt):9.2f} {max(nt):9.2f}")
    print(f"worst ratio of medians: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
