"""Time a full update (count, status, every card's chance per zone) on Clue-shaped deals.

Usage::

    .venv/bin/python benchmarks/clue_bench.py [--players 3 6] [--moves 20] [--seed N] [--reference-every K]
        [--baseline REV] [--repeat N] [--no-z3]

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

``--baseline REV`` (for example ``main``): the zone engine of that git
revision, extracted as a package of its own, answers every update too, in
the same process, alternately first and second; both must give the same
count and the same counts per card and zone at every step (checked).  Times
are CPU time of this process (``time.process_time``): with other jobs on the
machine, the ratio of the two holds better than either figure.  ``--repeat N``:
each update is made N times from the same knowledge (each time a new object,
nothing kept), the fastest kept.
"""

from __future__ import annotations

import argparse
import io
import pickle
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


class _Renamed(pickle.Unpickler):
    """Unpickles this tree's deals and facts as the classes of the package ``package``."""

    def __init__(self, data: bytes, package: str) -> None:
        super().__init__(io.BytesIO(data))
        self.package = package

    def find_class(self, module: str, name: str):
        if module.startswith("ruleslawyer."):
            module = self.package + module[len("ruleslawyer"):]
        return super().find_class(module, name)


def baseline_engine(rev: str):
    """The ZoneKnowledge of git revision ``rev`` and a converter of this tree's objects to its own."""
    from lab_bench import _extracted

    if _extracted(rev, ["spec", "solver"], "rl_zones_base") is None:
        raise SystemExit(f"git cannot give {rev}")
    from rl_zones_base.solver.zones import ZoneKnowledge as Base  # type: ignore[import-not-found]

    return Base, lambda obj: _Renamed(pickle.dumps(obj), "rl_zones_base").load()


def update(k, seen, repeat: int = 1):
    """One full update: the facts added, then count, status and every card's chance per zone
    (CPU ms, the fastest of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        new = k.with_facts(seen)
        new.count(), new.status(), new.zone_probabilities()
        best = min(best, (time.process_time() - t) * 1000)
    return new, best


def run(players: int, moves: int, seed: int, every: int, base=None, z3: bool = True, repeat: int = 1) -> None:
    deal, setup, plain, triples = game(players, moves, seed)
    for seat, weigh in (("spectator", False), (deal.players[0], False), (deal.players[0], True)):
        steps = [weighed(s, t) for s, t in zip(plain, triples)] if weigh else plain
        zk = ZoneKnowledge.initial(deal).with_facts(seen_by(setup, seat))
        z3k = Z3Knowledge.initial(deal).with_facts(seen_by(setup, seat))
        if base:
            engine, convert = base
            bk = engine.initial(convert(deal)).with_facts(convert(seen_by(setup, seat)))
        zt, z3t, bt = [], [], []
        for i, step in enumerate(steps):
            seen = seen_by(step, seat)
            if base and i % 2:
                bk, b_ms = update(bk, convert(seen), repeat)
            zk, z_ms = update(zk, seen, repeat)
            if base and not i % 2:
                bk, b_ms = update(bk, convert(seen), repeat)
            zt.append(z_ms)
            if base:
                bt.append(b_ms)
                assert bk.count() == zk.count() and bk.zone_counts() == zk.zone_counts(), (seat, i)
            if z3:
                t = time.process_time()
                z3k = z3k.with_facts(seen)
                z3k.consistent(), z3k.status()
                z3t.append((time.process_time() - t) * 1000)
            if every and i % every == 0:
                assert all(abs(sum(p.values()) - 1) < 1e-9 for p in zk.zone_probabilities().values())
                if z3:
                    assert zk.status() == z3k.status()
        name = seat + (" weighed" if weigh else "")
        line = (f"{players}p {name:<12}  zones (count+status+chances): median {statistics.median(zt):7.1f} ms, "
                f"max {max(zt):8.1f} ms")
        if base:
            line += (f" | baseline: median {statistics.median(bt):7.1f} ms, max {max(bt):8.1f} ms, "
                     f"ratio of medians {statistics.median(zt) / statistics.median(bt):.2f}, "
                     f"of sums {sum(zt) / sum(bt):.2f}")
        if z3:
            line += f" | z3 (status only): median {statistics.median(z3t):6.1f} ms, max {max(z3t):6.1f} ms"
        print(line + f" | {zk.count():,} deals left", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-every", type=int, default=5)
    parser.add_argument("--baseline", help="also time the zone engine of this git revision (e.g. main)")
    parser.add_argument("--no-z3", action="store_true", help="leave out Z3's status column")
    parser.add_argument("--repeat", type=int, default=1, help="times each update is made, the fastest kept")
    args = parser.parse_args()
    base = baseline_engine(args.baseline) if args.baseline else None
    for players in args.players:
        run(players, args.moves, args.seed, args.reference_every, base, not args.no_z3, args.repeat)


if __name__ == "__main__":
    main()
