"""Time a full update (count, status, every card's chance per zone) on Clue-shaped deals.

Usage::

    .venv/bin/python benchmarks/clue_bench.py [--players 3 6] [--moves 20] [--seed N] [--reference-every K]

The deck: 6 + 6 + 9 cards in three categories, an envelope with one card of
each (a group constraint on one zone), the other 18 dealt to the players as
evenly as possible.  A random game of ``--moves`` suggestions is made from a
random true deal (each answered clockwise: "cannot" for everyone, "at least
one" for everyone and the card for the suggester when a card is shown).  Each
suggestion is one step: the facts a seat sees are added and every answer is
computed.  Timed from the spectator's seat and the first player's, for the
zone engine (solver/zones.py) and, side by side, the next best engine that
answers the same deal: Z3 for the status only (solver/z3engine.py: no exact
counting engine other than the zone engine takes a group constraint on 21
cards).  Every ``--reference-every`` steps, the zone engine's invariants are
checked (chances per card summing to 1 over the zones).  The first player's
seat is timed twice: as the rules say by default, and weighed (the card
shown taken as drawn at random among the named cards held: Clue's option
``shown_card: uniform``; the zone engine counts both the deals and their
weights).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ruleslawyer.solver.z3engine import Z3Knowledge  # noqa: E402
from ruleslawyer.solver.zones import ZoneKnowledge  # noqa: E402
from ruleslawyer.spec.facts import Fact, count  # noqa: E402
from tests.solver.clue_helpers import ENVELOPE, clue_deal, hand, seen_by, suggestion_facts  # noqa: E402


def game(players: int, moves: int, seed: int):
    rng = random.Random(seed)
    deal = clue_deal((6, 6, 9), players)
    groups = deal.decks[0].constraints[0].groups
    secret = [rng.choice(g) for g in groups]
    rest = [c for c in deal.cards if c not in secret]
    rng.shuffle(rest)
    world, at = dict.fromkeys(secret, ENVELOPE), 0
    for z in deal.decks[0].zones[1:]:
        world.update(dict.fromkeys(rest[at:at + z.size], z.id))
        at += z.size
    setup = [Fact(count([c for c, z in world.items() if z == hand(p)], {hand(p)}) == deal.zone(hand(p)).size,
                  frozenset({p})) for p in deal.players]
    triples = [[rng.choice(g) for g in groups] for _ in range(moves)]
    steps = [suggestion_facts(deal, world, deal.players[i % players], t) for i, t in enumerate(triples)]
    return deal, setup, steps, triples


def weighed(step: list[Fact], triple: list[str]) -> list[Fact]:
    """The step with the card shown taken as drawn at random among the named cards held
    (Clue's option shown_card: uniform): the suggester's fact weighed by 1/count."""
    return [replace(f, likelihood=count(triple, f.zones())) if f.viewers is not None and len(f.viewers) == 2 else f
            for f in step]


def run(players: int, moves: int, seed: int, every: int) -> None:
    deal, setup, plain, triples = game(players, moves, seed)
    for seat, weigh in (("spectator", False), (deal.players[0], False), (deal.players[0], True)):
        steps = [weighed(s, t) for s, t in zip(plain, triples)] if weigh else plain
        zk = ZoneKnowledge.initial(deal).with_facts(seen_by(setup, seat))
        z3k = Z3Knowledge.initial(deal).with_facts(seen_by(setup, seat))
        zt, z3t = [], []
        for i, step in enumerate(steps):
            seen = seen_by(step, seat)
            t = time.perf_counter()
            zk = zk.with_facts(seen)
            zk.count(), zk.status(), zk.zone_probabilities()
            zt.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            z3k = z3k.with_facts(seen)
            z3k.consistent(), z3k.status()
            z3t.append((time.perf_counter() - t) * 1000)
            if every and i % every == 0:
                assert all(abs(sum(p.values()) - 1) < 1e-9 for p in zk.zone_probabilities().values())
                assert zk.status() == z3k.status()
        name = seat + (" weighed" if weigh else "")
        print(f"{players}p {name:<12}  zones (count+status+chances): median {statistics.median(zt):7.1f} ms, "
              f"max {max(zt):8.1f} ms | z3 (status only): median {statistics.median(z3t):6.1f} ms, "
              f"max {max(z3t):6.1f} ms | {zk.count():,} deals left")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-every", type=int, default=5)
    args = parser.parse_args()
    for players in args.players:
        run(players, args.moves, args.seed, args.reference_every)


if __name__ == "__main__":
    main()
