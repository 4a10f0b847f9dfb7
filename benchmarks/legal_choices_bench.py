"""The mover's legal choices listed by the staged search (``Lab.legal_choices``) against the
plain check of every choice (``staged=False``), on the states of a random game of each game.

    .venv/bin/python benchmarks/legal_choices_bench.py [--moves 40] [--every 3]

For every third state of a random 40-move game (``tests/lab/test_draw.game_states``), every
player and every kind open to them: both lists (asserted equal), CPU seconds of each summed,
within ``evaluations()`` as a simulated game runs them.  Nothing else is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ruleslawyer.lab.engine import Lab  # noqa: E402
from ruleslawyer.spec.expr import evaluations  # noqa: E402
from ruleslawyer.spec.loader import load_rules  # noqa: E402
from tests.lab.test_draw import game_states  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--every", type=int, default=3)
    args = ap.parse_args()
    for game, variant in [("perfect-alibi", "4p"), ("lady-alice", "4p"), ("clue", "4p")]:
        lab = Lab(load_rules(game, variant=variant))
        states, _world = game_states(lab, args.moves)
        staged = plain = 0.0
        lists = legal = 0
        for state in states[::args.every]:
            for actor, kinds in lab.actors(state).items():
                for kind in kinds:
                    with evaluations():
                        a = time.process_time()
                        s = lab.legal_choices(state, actor, kind)
                        b = time.process_time()
                        p = lab.legal_choices(state, actor, kind, staged=False, limit=10 ** 6)
                        c = time.process_time()
                    assert s == p, (game, kind)
                    staged += b - a
                    plain += c - b
                    lists += 1
                    legal += len(s or ())
        print(f"{game} {variant}: {lists} lists, {legal} legal choices; staged {staged:.3f} s, plain {plain:.3f} s")


if __name__ == "__main__":
    main()
