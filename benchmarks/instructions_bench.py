"""Instructions, not seconds: the advice and greedy games counted by valgrind, for a machine whose speed varies.

    .venv/bin/python benchmarks/instructions_bench.py advice [--case alibi-5p] [--cache DIR|off]
    .venv/bin/python benchmarks/instructions_bench.py games [--game lady-alice] [--variant 4p] [--games 8]

The shared machine's speed varies by a third from minute to minute, more than the change
being measured; the instructions a process executes do not.  Each measure runs this file again
under ``valgrind --tool=callgrind`` (where valgrind is installed: it is no dependency of the
project), ``PYTHONHASHSEED=0``, and takes differences, so that what every run shares
(Python's start, the imports, the rule set's build, the log's replay) drops out:

* ``advice``: :func:`lab.advice.value_moves` over every legal choice of the case's kind
  (``advice_bench.py``'s cases), a lab of its own per run: the first run in the process
  (I(1) - I(0)) and each further one ((I(3) - I(1)) / 2).  ``--cache``: the rule-set cache's
  folder (``RULESLAWYER_CACHE``; ``off`` by default: every function generated in the process,
  as on a machine's first command; a folder: as the commands after it, once a first run of
  this file has filled it).
* ``games``: greedy games, every seat (``bots_bench.py``'s table ``greedy,greedy``, seed 1):
  (I(games) - I(0)) / games.

One measure takes a few minutes (valgrind runs Python about fifty times slower).  To compare
two builds, run this file in each one's tree (``git worktree add``), one after the other.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _advice_child(case: str, runs: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from advice_bench import CASES  # noqa: E402  (this folder's module)

    from ruleslawyer.checker.log import parse_log
    from ruleslawyer.checker.replay import replay
    from ruleslawyer.lab.advice import value_moves
    from ruleslawyer.lab.bots import Turn
    from ruleslawyer.lab.engine import MAX_ENUMERATE, Lab
    from ruleslawyer.lab.suggest import position
    from ruleslawyer.solver.engines import initial

    path, at, kind, _plain = CASES[case]
    log, rules = parse_log(str(ROOT / path))
    rep = replay(log, rules)
    for _ in range(runs):
        lab = Lab(rules)
        state, mover, kinds = position(rep, lab, at)
        facts = [f for f in rep.facts(at) if f.viewers is None or mover in f.viewers]
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, initial(rep.deal).with_facts(facts))
        value_moves(turn, max_choices=MAX_ENUMERATE, kinds=[kind], budget=10 ** 7)


def _games_child(game: str, variant: str | None, games: int) -> None:
    from ruleslawyer.lab.bots import parse_bots
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game
    from ruleslawyer.spec.loader import load_rules

    rules = load_rules(game, variant=variant)
    lab = Lab(rules)
    bot = parse_bots("greedy", 1, rules=rules)[0]
    for i in range(games):
        play_game(lab, [bot] * int(rules.param("players")), 1, i, 500, track=False)


def _instructions(args: list[str], cache: str) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0", "RULESLAWYER_CACHE": cache}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--child", *args], env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected\s*:\s*([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        what, *rest = sys.argv[2:]
        if what == "advice":
            _advice_child(rest[0], int(rest[1]))
        else:
            _games_child(rest[0], rest[1] or None, int(rest[2]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["advice", "games"])
    ap.add_argument("--case", default="alibi-5p", help="advice_bench.py's case, e.g. --case lady-4p-start")
    ap.add_argument("--cache", default="off", help="RULESLAWYER_CACHE for the runs, e.g. --cache /tmp/rl-cache")
    ap.add_argument("--game", default="lady-alice")
    ap.add_argument("--variant", default="4p")
    ap.add_argument("--games", type=int, default=8)
    args = ap.parse_args()
    if args.what == "advice":
        i0, i1, i3 = (_instructions(["advice", args.case, str(n)], args.cache) for n in (0, 1, 3))
        print(f"{args.case} (cache {args.cache}): first run {(i1 - i0) / 1e9:.3f} G instructions, "
              f"each further run {(i3 - i1) / 2e9:.3f} G")
    else:
        i0, ig = (_instructions(["games", args.game, args.variant, str(n)], args.cache) for n in (0, args.games))
        print(f"{args.game} {args.variant}: greedy, {args.games} games, seed 1: "
              f"{(ig - i0) / args.games / 1e9:.3f} G instructions a game")


if __name__ == "__main__":
    main()
