"""Time the solver engines side by side on long random Lady Alice games.

Usage::

    .venv/bin/python benchmarks/solve_bench.py [--players 3 4 5] [--moves 60] [--seed N]
                                               [--brute-steps 10] [--repeat 15]

For each player count, one game is generated from a random true solution:
one private fact per player ("this evidence card is in the solution", seen
by that player only) then ``--moves`` public verdicts (one clue of each
category, or of three categories, with the true number of evidence cards
among them), so the log is consistent.  Each fact the first player sees is
timed as a step on every engine; the table shows the median over steps and
the ratio to the numpy engine on the same steps.  The whole history runs
over the full log for the spectator and every player.  See
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from typing import Callable

from ruleslawyer.solver import queries
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import Knowledge, Space
from ruleslawyer.solver.facts import DealShape, Fact
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.deal import deal_shape
from ruleslawyer.spec.loader import load_rules

PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Eve")


def lady_alice_shape(players: int) -> DealShape:
    """The deal shape as the rule file declares it for that many players."""
    return deal_shape(load_rules("lady-alice", variant=f"{players}p"))


def random_game(shape: DealShape, players: int, moves: int,
                rng: random.Random) -> tuple[frozenset[str], list[Fact]]:
    """A true solution, one private fact per player, then ``moves`` true verdicts."""
    pattern = rng.choice(shape.patterns)
    solution = frozenset(c for g, k in zip(shape.groups, pattern) for c in rng.sample(g, k))
    known = rng.sample(sorted(solution), len(solution))
    facts = [Fact.count({known[i % len(known)]}, "==", 1, source=f"setup {p}", viewer=p)
             for i, p in enumerate(PLAYERS[:players])]
    for move in range(1, moves + 1):
        groups = range(len(shape.groups))
        if rng.random() < 0.25:
            groups = sorted(rng.sample(groups, 3))
        cards = [rng.choice(shape.groups[g]) for g in groups]
        facts.append(Fact.count(cards, "==", len(solution & set(cards)), source=f"move {move}"))
    return solution, facts


def timed(action: Callable[[], object], repeat: int = 1) -> float:
    """Median wall time of ``action`` in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def numpy_steps(shape: DealShape, facts: list[Fact], repeat: int) -> list[float]:
    def update(before: Knowledge, fact: Fact) -> Knowledge:
        after = before.with_fact(fact)
        after.count(), after.status(), after.probabilities()
        return after

    knowledge, times = Knowledge.initial(shape), []
    for fact in facts:
        times.append(timed(lambda: update(knowledge, fact), repeat))
        knowledge = knowledge.with_fact(fact)
    return times


def brute_steps(shape: DealShape, facts: list[Fact]) -> list[float]:
    knowledge, times = BruteKnowledge.initial(shape), []
    for fact in facts:
        start = time.perf_counter()
        knowledge = knowledge.with_fact(fact)
        knowledge.count(), knowledge.status(), knowledge.probabilities()
        times.append(time.perf_counter() - start)
    return times


def z3_steps(shape: DealShape, facts: list[Fact]) -> tuple[list[float], list[float]]:
    """Per step: add the fact and get every card's status; explain one forced card."""
    knowledge, status_times, explain_times = Z3Knowledge.initial(shape), [], []
    for fact in facts:
        start = time.perf_counter()
        knowledge = knowledge.with_fact(fact)
        status = knowledge.status()
        status_times.append(time.perf_counter() - start)
        forced = [c for c, s in status.items() if s != "open"]
        if forced:
            card = forced[len(explain_times) % len(forced)]
            start = time.perf_counter()
            knowledge.explain_status(card)
            explain_times.append(time.perf_counter() - start)
    return status_times, explain_times


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms"


def report(players: int, moves: int, seed: int, brute_n: int, repeat: int) -> list[str]:
    shape = lady_alice_shape(players)
    _, log = random_game(shape, players, moves, random.Random(seed * 100 + players))
    # Engines are timed from the first player's viewpoint (public + own fact):
    # the omniscient one knows the answer after the private facts alone.
    facts = [f for f in log if queries.Viewpoint.of_player(PLAYERS[0]).sees(f)]
    build = timed(lambda: Space.build(shape))
    Space.of(shape)  # warm the cache the steps use

    numpy_all = numpy_steps(shape, facts, repeat)
    brute_n = min(brute_n, len(facts))
    brute = brute_steps(shape, facts[:brute_n])
    z3_status, z3_explain = z3_steps(shape, facts)
    views = [queries.Viewpoint.spectator(), *map(queries.Viewpoint.of_player, PLAYERS[:players])]
    history = timed(lambda: queries.history(shape, log, views), repeat)

    fast_all, fast_first = statistics.median(numpy_all), statistics.median(numpy_all[:brute_n])
    rows = [
        ("numpy full update (mask+count+status+probs)", f"1-{len(facts)}", numpy_all, fast_all),
        ("numpy full update, same steps as brute", f"1-{brute_n}", numpy_all[:brute_n],
         fast_first),
        ("brute force (Fractions), same", f"1-{brute_n}", brute, fast_first),
        ("z3 add fact + status (consequences)", f"1-{len(facts)}", z3_status, fast_all),
    ]
    if z3_explain:
        rows.append(("z3 minimal explanation of one forced card", f"{len(z3_explain)} steps",
                     z3_explain, fast_all))
    left, k = [], Knowledge.initial(shape)
    for fact in facts:
        k = k.with_fact(fact)
        left.append(k.count())
    marks = [n for n in (1, 2, 3, 5, 10, 20, 40, len(facts)) if n <= len(facts)]
    lines = [f"== {players} players: {Space.of(shape).n_sets:,} evidence sets; "
             f"{PLAYERS[0]}'s viewpoint: {len(facts)} facts (1 private + {moves} verdicts) ==",
             "   sets left after step " + ", ".join(f"{n}: {left[n - 1]:,}" for n in marks),
             f"   {'engine':<46}{'steps':>9}{'1st fact':>13}{'median':>13}   ratio"]
    for name, steps, times, reference in rows:
        value = statistics.median(times)
        lines.append(f"   {name:<46}{steps:>9}{ms(times[0])}{ms(value)}"
                     f"   {value / reference:8.1f}x")
    lines.append(f"   {'numpy space build (once per shape, cached)':<46}{'':>9}{ms(build)}")
    lines.append(f"   whole history: {len(log) + 1} steps x {len(views)} viewpoints "
                 f"(spectator + players): {ms(history).strip()} total, "
                 f"{history / ((len(log) + 1) * len(views)) * 1e6:.1f} us per step-view")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5],
                        choices=[3, 4, 5])
    parser.add_argument("--moves", type=int, default=60, help="public verdicts per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brute-steps", type=int, default=10,
                        help="brute force runs on the first N facts only (it is slow)")
    parser.add_argument("--repeat", type=int, default=15,
                        help="numpy steps and histories are timed this many times (median)")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}; seed {args.seed}; ratios are to the numpy "
          f"engine on the same steps")
    gc.disable()  # keep collector pauses out of sub-millisecond timings
    try:
        for players in args.players:
            print("\n".join(report(players, args.moves, args.seed, args.brute_steps,
                                   args.repeat)))
    finally:
        gc.enable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
