"""Move advice: every legal choice of one kind valued from a seat, three ways side by side.

    .venv/bin/python benchmarks/advice_bench.py [--case NAME]... [--no-plain] [--reference-paths] [--no-chain]
        [--every-ending] [--repeat N] [--json]

For each case (a bundled log, a move, the kind of move valued), the CPU time
(this process, ``time.process_time``) of:

* ``paths`` — listing every legal choice and every way it may end
  (:func:`lab.advice.move_paths`: completions through the rule checks), as the advice
  lists them: the ways no deal of the table's shape allows left out (``deal=``;
  ``--every-ending``: all of them, the listing before that);
* ``marginal`` — :func:`lab.advice.value_moves` as shipped: a move whose
  outcomes are the values of one count valued from that count's marginal
  (:mod:`lab.outcomes`; one knowledge per value of the count);
* ``per value`` — the same with the joint tables off (``lab.advice.TABLES =
  False``): one knowledge per value of the count, the solution's shares given
  each card shown in one pass where the engine gives them (``marginal`` reads
  one table of the owner's cards and the solution instead, solver/table.py);
* ``reference`` — the same with ``marginals=False``: one solver count per
  outcome (and per solution for the information about the solution);
* ``plain`` — a plain enumeration of the same values: every deal the seat
  cannot rule out listed (with itertools, the tests' own, where they are a few
  thousand; else as a table of deals, one row each, ``tests/lab/plain_table.py``), each
  move's paths tried in each (``plain_worlds``: the deals).

``--reference-paths``: every way to end listed with its facts from the
state machine, per ending (``move_paths(memo=False)``, the reference of
:meth:`lab.engine.Lab.observations`).  ``--no-chain``: the moves obliged
after a move followed after each of its endings (``move_paths(chain=False)``,
the reference of :mod:`lab.chain`'s once per choice).  Each of the three timed runs starts
from a lab of its own (no memo carried from one to the next).
Both advice runs have an unbounded budget (every choice valued); the solver
counts each asked for are printed.  ``paths`` is timed last, from a lab of
its own (the paths of every choice it keeps alive would lengthen every pass of
Python's collector in a run timed after it); the advice runs list a choice's
paths as they need them (once per class of choices alike, lab/alike.py).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from unittest.mock import patch

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab import advice
from ruleslawyer.lab.advice import move_paths, value_moves
from ruleslawyer.lab.bots import Turn
from ruleslawyer.lab.engine import MAX_ENUMERATE, Lab
from ruleslawyer.lab.suggest import position
from ruleslawyer.solver.engines import initial

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.lab.plain_table import Deals, plain_values as numpy_values  # noqa: E402  (the same, a table of deals)
from tests.lab.test_outcomes import plain_values, seat_worlds  # noqa: E402  (the tests' plain enumeration)
#: name -> (log, after move, kind valued, the plain enumeration's deals, the seat's hand pinned: "hand"
#: (the tests' enumeration, in Python) or "numpy" (the same over a table of deals, tests/lab/plain_table.py))
CASES = {
    "alibi-5p": ("examples/perfect-alibi/clean-5p.yaml", 13, "ask", "numpy"),
    "alibi-3p": ("examples/perfect-alibi/clean-3p.yaml", 24, "ask", "hand"),
    # Yellow holds the Cook: a question answered 2 or more ends with a card drawn from the whole hand
    "alibi-3p-cook": ("examples/perfect-alibi/clean-3p.yaml", 16, "ask", "hand"),
    # (a hand of each category, the categories shuffled: deals weighed by the pattern, not plain)
    "lady-4p-start": ("examples/lady-alice/clean-4p.yaml", 0, "suspect", None),
    "lady-4p": ("examples/lady-alice/clean-4p.yaml", 4, "accuse", None),
}


def run(name: str, plain: bool, memo: bool = True, chain: bool = True, every: bool = False,
        repeat: int = 0) -> dict:
    path, at, kind, plain_kind = CASES[name]
    log, rules = parse_log(str(ROOT / path))
    rep = replay(log, rules)
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    facts = [f for f in rep.facts(at) if f.viewers is None or mover in f.viewers]
    out: dict = {"case": name, "log": path, "after_move": at, "seat": mover, "kind": kind}
    values = {}
    runs = [("marginal", True, True)] + [(f"again{i}", True, True) for i in range(1, repeat + 1)] + \
        [("per_value", True, False), ("reference", False, True)]
    for label, marginals, tables in runs:
        lab = Lab(rules)  # a lab of its own
        state, mover, kinds = position(rep, lab, at)
        view = initial(rep.deal).with_facts(facts)
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)
        t = time.process_time()
        with patch.object(advice, "TABLES", tables):
            adv = value_moves(turn, max_choices=MAX_ENUMERATE, kinds=[kind], budget=10 ** 7, marginals=marginals,
                              memo=memo, chain=chain)
        if label.startswith("again"):  # the same advice again, in the same process
            out.setdefault("marginal_again_s", []).append(round(time.process_time() - t, 3))
            continue
        out[f"{label}_s"] = round(time.process_time() - t, 3)
        out[f"{label}_counts"] = adv.counts
        out[f"{label}_solution_counted"] = sum(m.solution_bits is not None for m in adv.moves)
        if marginals:
            out["by_marginal"] = sum(m.counted_by == "marginal" for m in adv.moves)
            values = {repr(m.args): (m.bits, m.solution_bits) for m in adv.moves}
    # listed after the advice runs: the paths of every choice kept alive make the collector's
    # every pass longer (the advice runs would pay for a heap that is not theirs)
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    t = time.process_time()
    listed = [c for c in lab.mover_choices(state, mover, kind, limit=MAX_ENUMERATE)]
    shape = None if every else rep.deal
    legal = [(c, p) for c in listed
             for p in [move_paths(lab, state, mover, kind, c, mover, memo=memo, chain=chain, deal=shape)] if p]
    out["paths_s"] = round(time.process_time() - t, 3)
    out["choices"] = len(legal)
    if plain and plain_kind is not None:
        t = time.process_time()
        if plain_kind == "hand":
            worlds = seat_worlds(rep.deal, facts, f"hand:{mover}")
            values_of = lambda paths: plain_values(worlds, paths, set(rep.deal.solution))  # noqa: E731
        else:
            worlds = Deals(rep.deal, facts, f"hand:{mover}")
            solution = worlds.solution_ids(set(rep.deal.solution))
            values_of = lambda paths: numpy_values(worlds, paths, solution)  # noqa: E731
        worst = 0.0
        for c, paths in legal:
            _dist, bits, sbits, _left, _legal = values_of(paths)
            got = values.get(repr(c))
            if got is not None and got[1] is not None:
                worst = max(worst, abs(got[0] - bits), abs(got[1] - sbits))
        out["plain_s"] = round(time.process_time() - t, 3)
        out["plain_worlds"] = len(worlds)
        out["plain_worst_difference_bits"] = worst
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="a case (all by default)")
    ap.add_argument("--no-plain", action="store_true", help="skip the plain enumeration")
    ap.add_argument("--reference-paths", action="store_true",
                    help="list the ways to end with the state machine's facts per ending (move_paths(memo=False))")
    ap.add_argument("--no-chain", action="store_true",
                    help="follow the moves obliged after a move after each of its endings, not once per choice "
                         "(move_paths(chain=False)), e.g. --case alibi-5p --no-plain --no-chain")
    ap.add_argument("--every-ending", action="store_true",
                    help="list every way to end in the paths column, those no deal allows too (move_paths without "
                         "deal=), e.g. --case alibi-5p --no-plain --every-ending")
    ap.add_argument("--repeat", type=int, default=0, metavar="N",
                    help="time the shipped advice (marginal) N more times in the same process, a lab of its "
                         "own each (the first run also generates the rule checks' code), e.g. --repeat 4")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [run(n, not args.no_plain, not args.reference_paths, not args.no_chain, args.every_ending, args.repeat)
            for n in (args.case or list(CASES))]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for r in rows:
        plain = (f"; plain {r['plain_s']} s over {r['plain_worlds']} deals (worst difference "
                 f"{r['plain_worst_difference_bits']:.1e} bits)" if "plain_s" in r else "")
        print(f"{r['case']} ({r['log']} after move {r['after_move']}, {r['seat']}, {r['choices']} {r['kind']}): "
              f"paths {r['paths_s']} s; marginal {r['marginal_s']} s ({r['marginal_counts']} counts, "
              f"{r['by_marginal']} by marginal, solution bits for {r['marginal_solution_counted']}"
              f"{'; again ' + ', '.join(map(str, r['marginal_again_s'])) + ' s' if 'marginal_again_s' in r else ''}); "
              f"per value {r['per_value_s']} s ({r['per_value_counts']} counts); "
              f"reference {r['reference_s']} s ({r['reference_counts']} counts, solution bits for "
              f"{r['reference_solution_counted']}){plain}")


if __name__ == "__main__":
    main()
