"""Time the solver engines side by side on long random Lady Alice games.

Usage::

    .venv/bin/python benchmarks/solve_bench.py [--players 3 4 5] [--moves 60] [--seed N]
                                               [--brute-steps 10] [--brute-max-deals N]
                                               [--repeat 15]

For each player count, Lady Alice's deal is built from the rule file (one
deck of clues, one hand per player, the rest on the desk) and one game is
generated from a random true deal: one private fact per player ("this
evidence card is in my hand", seen by that player only) then ``--moves``
public verdicts (one clue of each category, or of three categories, with
the true number of evidence cards among them), so the log is consistent.
Each fact the first player sees is timed as a step on every engine; the
table shows the median over steps and the ratio to the numpy engine on the
same steps.  The whole history runs over the full log for the spectator and
every player.  See benchmarks/README.md.
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
from ruleslawyer.solver.engine import Knowledge
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.enumerate import Space
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.deal import build_deal
from ruleslawyer.spec.dealmodel import Deal
from ruleslawyer.spec.facts import Fact, count, member
from ruleslawyer.spec.loader import load_rules

PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Eve")


def lady_alice_deal(players: int) -> Deal:
    """The deal the rule file declares for that many players."""
    return build_deal(load_rules("lady-alice", variant=f"{players}p"), PLAYERS[:players])


def random_game(deal: Deal, rng: random.Random, moves: int) -> tuple[frozenset[str], list[Fact]]:
    """A true solution, one private fact per player, then ``moves`` true verdicts."""
    (constraint,) = deal.decks[0].constraints
    hands, groups = constraint.zones, constraint.groups
    pattern = rng.choice(constraint.patterns)
    solution = frozenset(c for g, k in zip(groups, pattern) for c in rng.sample(g, k))
    held = rng.sample(sorted(solution), len(solution))  # player i holds held[i]
    facts = [Fact(member(held[i], {hand}) == 1, viewers=frozenset({p}), source=f"setup {p}")
             for i, (p, hand) in enumerate(zip(deal.players, hands))]
    for move in range(1, moves + 1):
        picked = range(len(groups))
        if rng.random() < 0.25:
            picked = sorted(rng.sample(picked, 3))
        cards = [rng.choice(groups[g]) for g in picked]
        facts.append(Fact(count(cards, hands) == len(solution & set(cards)), source=f"move {move}"))
    return solution, facts


def timed(action: Callable[[], object], repeat: int = 1) -> float:
    """Median wall time of ``action`` in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def numpy_steps(deal: Deal, facts: list[Fact], repeat: int) -> list[float]:
    def update(before: Knowledge, fact: Fact) -> Knowledge:
        after = before.with_fact(fact)
        after.count(), after.status(), after.probabilities()
        return after

    knowledge, times = initial(deal), []
    for fact in facts:
        times.append(timed(lambda: update(knowledge, fact), repeat))
        knowledge = knowledge.with_fact(fact)
    return times


def brute_steps(deal: Deal, facts: list[Fact]) -> list[float]:
    knowledge, times = BruteKnowledge.initial(deal), []
    for fact in facts:
        start = time.perf_counter()
        knowledge = knowledge.with_fact(fact)
        knowledge.count(), knowledge.status(), knowledge.probabilities()
        times.append(time.perf_counter() - start)
    return times


def z3_steps(deal: Deal, facts: list[Fact]) -> tuple[list[float], list[float]]:
    """Per step: add the fact and get every card's status; explain one forced card."""
    knowledge, status_times, explain_times = Z3Knowledge.initial(deal), [], []
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


def report(players: int, moves: int, seed: int, brute_n: int, brute_max: int,
           repeat: int) -> list[str]:
    deal = lady_alice_deal(players)
    _, log = random_game(deal, random.Random(seed * 100 + players), moves)
    # Engines are timed from the first player's viewpoint (public + own fact):
    # the omniscient one knows the answer after the private facts alone.
    facts = [f for f in log if queries.Viewpoint.of_player(PLAYERS[0]).sees(f)]
    build = timed(lambda: Space.build(deal))
    Space.of(deal)  # warm the cache the steps use

    numpy_all = numpy_steps(deal, facts, repeat)
    brute_n = min(brute_n, len(facts))
    deals = deal.deals()
    brute = brute_steps(deal, facts[:brute_n]) if deals <= brute_max else None
    z3_status, z3_explain = z3_steps(deal, facts)
    views = [queries.Viewpoint.spectator(), *map(queries.Viewpoint.of_player, PLAYERS[:players])]
    history = timed(lambda: queries.history(deal, log, views), repeat)

    fast_all, fast_first = statistics.median(numpy_all), statistics.median(numpy_all[:brute_n])
    rows = [
        ("numpy full update (mask+count+status+probs)", f"1-{len(facts)}", numpy_all, fast_all),
        ("numpy full update, same steps as brute", f"1-{brute_n}", numpy_all[:brute_n],
         fast_first),
        ("brute force (Fractions, full deals), same", f"1-{brute_n}", brute, fast_first),
        ("z3 add fact + status (consequences)", f"1-{len(facts)}", z3_status, fast_all),
    ]
    if z3_explain:
        rows.append(("z3 minimal explanation of one forced card", f"{len(z3_explain)} steps",
                     z3_explain, fast_all))
    left, k = [], initial(deal)
    for fact in facts:
        k = k.with_fact(fact)
        left.append(k.count())
    marks = [n for n in (1, 2, 3, 5, 10, 20, 40, len(facts)) if n <= len(facts)]
    lines = [f"== {players} players: {Space.of(deal).n_sets:,} evidence sets ({deals:,} deals); "
             f"{PLAYERS[0]}'s viewpoint: {len(facts)} facts (1 private + {moves} verdicts) ==",
             "   sets left after step " + ", ".join(f"{n}: {left[n - 1]:,}" for n in marks),
             f"   {'engine':<46}{'steps':>9}{'1st fact':>13}{'median':>13}   ratio"]
    for name, steps, times, reference in rows:
        if times is None:
            lines.append(f"   {name:<46}{steps:>9}   skipped: {deals:,} deals > --brute-max-deals")
            continue
        value = statistics.median(times)
        lines.append(f"   {name:<46}{steps:>9}{ms(times[0])}{ms(value)}"
                     f"   {value / reference:8.1f}x")
    lines.append(f"   {'numpy space build (once per deal, cached)':<46}{'':>9}{ms(build)}")
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
    parser.add_argument("--brute-max-deals", type=int, default=100_000,
                        help="skip brute force when the deal has more full deals than this")
    parser.add_argument("--repeat", type=int, default=15,
                        help="numpy steps and histories are timed this many times (median)")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}; seed {args.seed}; ratios are to the numpy "
          f"engine on the same steps")
    gc.disable()  # keep collector pauses out of sub-millisecond timings
    try:
        for players in args.players:
            print("\n".join(report(players, args.moves, args.seed, args.brute_steps,
                                   args.brute_max_deals, args.repeat)))
    finally:
        gc.enable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
