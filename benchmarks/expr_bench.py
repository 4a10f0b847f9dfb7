"""Rule expressions: the generated functions against the closures, one evaluation each (Expr.run).

    .venv/bin/python benchmarks/expr_bench.py [--number 200000]
"""

from __future__ import annotations

import argparse
import dataclasses
import timeit

from ruleslawyer.spec.expr import Expr, Namespace, compile_expr, evaluations

CASES = ["move.covers is not none and move.smiles > 0", "actor == turn", "move.clue not in vars.covered",
         "[c for c in move.cards if c != 'b']", "sum(x for x in hand if x > k)", "f(k)"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--number", type=int, default=200_000)
    args = ap.parse_args()
    body = compile_expr("x + 1")
    env = {"move": Namespace(covers=["a"], smiles=2, cards=["a", "b", "c", "d"], clue="c"), "actor": "P1",
           "turn": "P2", "vars": Namespace(covered=frozenset({"a", "b"})), "hand": [1, 2, 3, 4, 5, 6, 7, 8], "k": 3}
    env["f"] = lambda x: body.run({**env, "x": x})  # a rule function: a run inside a run
    print(f"{'expression':48s} {'closures':>10s} {'generated':>10s} {'ratio':>6s}")
    with evaluations():
        for source in CASES:
            fast = compile_expr(source)
            assert fast.exact is not None
            slow = dataclasses.replace(fast, run_fn=fast.exact, exact=None)
            times = [min(timeit.repeat(lambda e=e: Expr.run(e, env), number=args.number, repeat=5)) / args.number * 1e9
                     for e in (slow, fast)]
            print(f"{source:48s} {times[0]:8.0f}ns {times[1]:8.0f}ns {times[0] / times[1]:5.1f}x")


if __name__ == "__main__":
    main()
