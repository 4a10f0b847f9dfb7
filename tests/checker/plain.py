"""A plain enumeration of a game's solutions, written for the tests (independent of solver/).

Lists every solution a deal's solution deck can hold (each pattern of its
group constraint, every choice of cards per group), gives each the prior of
the shuffle (a pattern uniformly, then its cards uniformly), and keeps those
for which some deal fits every fact: the solution's cards go into the
solution zones (cards a fact pins to a zone first), the rest into the other
zone.  Exact for facts that count cards in the solution's zones together
and pin cards to single zones, which is all a log of a game of this kind
holds; slow and obvious.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from ruleslawyer.spec.dealmodel import Deal
from ruleslawyer.spec.facts import Atom, Fact


def _pins(facts: list[Fact]) -> dict[str, str] | None:
    """card -> zone for every fact that is one card in one zone; None if two disagree."""
    pins: dict[str, str] = {}
    for f in facts:
        a = f.formula
        if isinstance(a, Atom) and len(a.lin.terms) == 1 and a.op == "==" and a.value == 1:
            card, zones, _w = a.lin.terms[0]
            if len(zones) == 1:
                zone = next(iter(zones))
                if pins.setdefault(card, zone) != zone:
                    return None
    return pins


def solutions(deal: Deal, facts: list[Fact]) -> dict[frozenset[str], Fraction]:
    """Every solution left with its prior weight (normalise to get probabilities)."""
    deck = deal.solution_deck
    g = deck.constraints[0]
    rest = next(z for z in deck.zones if z.id not in deal.solution)
    pins = _pins(facts)
    if pins is None:
        return {}
    # the same for every solution listed: each one's deal starts from copies of these
    everything_out = {c: rest.id for c in deck.cards}
    solution_places = [z for z in deal.solution for _ in range(deal.zone(z).size)]
    pinned_in = [c for c, z in pins.items() if z != rest.id]  # cards a fact puts in a solution zone
    out: dict[frozenset[str], Fraction] = {}
    for pattern in g.patterns:
        weight = Fraction(1, len(g.patterns))
        for group, k in zip(g.groups, pattern):
            weight /= comb(len(group), k)
        for parts in itertools.product(*(itertools.combinations(grp, k) for grp, k in zip(g.groups, pattern))):
            chosen = [c for part in parts for c in part]
            world = dict(everything_out)
            free = list(solution_places)
            ok = True
            for c in chosen:
                if c in pins:
                    if pins[c] not in free:
                        ok = False
                        break
                    free.remove(pins[c])
                    world[c] = pins[c]
            if not ok or any(c not in chosen for c in pinned_in):
                continue
            for c in (c for c in chosen if c not in pins):
                world[c] = free.pop()
            if all(f.holds(world) for f in facts):
                out[frozenset(chosen)] = weight
    return out


def answers(deal: Deal, facts: list[Fact]) -> tuple[int, dict[str, str], dict[str, Fraction]]:
    """Count, status and probability of every solution card."""
    left = solutions(deal, facts)
    total = sum(left.values(), Fraction(0))
    status, probs = {}, {}
    for card in deal.solution_cards:
        holding = [w for s, w in left.items() if card in s]
        status[card] = "in" if len(holding) == len(left) else "out" if not holding else "open"
        probs[card] = sum(holding, Fraction(0)) / total if total else Fraction(0)
    return len(left), status, probs
