"""Time ``ruleslawyer check`` on Perfect Alibi logs.

    .venv/bin/python benchmarks/alibi_check_bench.py [--players 3 4 5] [--turns 30] [--games 5] [--repeat 3]

For each player count, plays ``--games`` random legal games of ``--turns``
turns (tests/checker/alibi_games.py: every question answered from a random
deal, swaps, the Cook's draws, Priest answers, wrong guesses, a final
question and the right guess), and times ``check_text`` on each log: parse,
replay, every rule, and the consistency of every fact: against the deal the
recorded cards pin down when a log records them all (checker/witness.py), else
with the solver (the subset dynamic program of solver/dp.py, which counts the
1.2e7-2.7e9 deals exactly).  Three kinds of log: a referee's (every hand, the card under the
board: ``referee``), the same with the Rival variant and its tiles
(``rival``), and a spectator's (no private facts: ``spectator``).  Then the
bundled ``examples/perfect-alibi/clean-5p.yaml`` alone.  Medians over games
and repeats; nothing is asserted.
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
from tests.checker.alibi_games import play  # noqa: E402

KINDS = {"referee": {}, "rival": {"rival": True}, "spectator": {"private": False}}


def timed(text: str, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        report = check_text(text, "bench.yaml")
        out.append(time.perf_counter() - t0)
        assert report.status == 0, report.format_text()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=[3, 4, 5])
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    check_text(play(0, 3, turns=3), "warm.yaml")  # imports, rule file cache
    print(f"{'players':>7} {'log':>10} {'moves':>6} {'check ms':>9}")
    for n in args.players:
        for kind, flags in KINDS.items():
            times, moves = [], []
            for seed in range(args.games):
                text = play(seed, n, turns=args.turns, **flags)
                moves.append(text.split("moves:\n")[1].count("\n  - "))
                times.extend(timed(text, args.repeat))
            print(f"{n:>7} {kind:>10} {statistics.median(moves):>6.0f} {1000 * statistics.median(times):>9.0f}")
    example = ROOT / "examples" / "perfect-alibi" / "clean-5p.yaml"
    times = timed(example.read_text(), args.repeat * 3)
    print(f"examples/perfect-alibi/clean-5p.yaml: check {1000 * statistics.median(times):.0f} ms (median of "
          f"{len(times)}; {1000 * min(times):.0f}-{1000 * max(times):.0f})")


if __name__ == "__main__":
    main()
