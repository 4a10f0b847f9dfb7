"""The claims refuted without a count (solver/refute.py) against a plain enumeration: every
deal of a small deck listed (the brute engine's worlds), each claim tried in each.  A claim
called hopeless holds in no world, one called uncertain fails in some; in the solution's
zones (exact statuses) and in a deals engine (whose chances are exact on so small a deck)
a claim left untold is certain."""

from __future__ import annotations

import doctest
import itertools
import random

import pytest

from ruleslawyer.solver import refute
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.engines import initial, rebuild
from ruleslawyer.solver.refute import HOPELESS, UNCERTAIN, Refuter
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import Fact, count

HANDS = ("hand:Ann", "hand:Bob")
DECK = Deck("d", tuple("abcdef"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
                                   Zone("hand:Bob", "hand", "Bob", 2, "owner"),
                                   Zone("rest", "rest", None, 3)))
DEAL = Deal((DECK,), solution=HANDS)
ZONE_SETS = [frozenset(HANDS), frozenset({"hand:Bob"}), frozenset({"rest"}), frozenset({"hand:Ann", "rest"})]


def _facts(rng: random.Random) -> tuple[Fact, ...]:
    """A few facts: cards placed or kept out of zones, counts of pairs."""
    out = []
    for _ in range(rng.randrange(0, 4)):
        cards = rng.sample(DECK.cards, rng.choice([1, 2]))
        zones = rng.choice(ZONE_SETS)
        out.append(Fact(count(cards, zones) == rng.randrange(0, len(cards) + 1)))
    return tuple(out)


def _claims():
    for n in (1, 2, 3):
        for cards in itertools.combinations(DECK.cards, n):
            for zones in ZONE_SETS:
                yield count(cards, zones) == n       # every card there
                yield count(cards, zones) == 0       # none there
                yield count(cards, zones) >= n
                if n > 1:
                    yield (count(cards[:1], zones) == 1) & (count(cards[1:], zones) == 0)


def test_doctests():
    assert doctest.testmod(refute).failed == 0


@pytest.mark.parametrize("seed", range(12))
def test_refutations_against_every_deal(seed):
    rng = random.Random(seed)
    facts = _facts(rng)
    plain = BruteKnowledge.initial(DEAL).with_facts(facts)
    if not plain.consistent():
        return
    worlds = [w.zones for w in plain.remaining]
    told = 0
    for k in (initial(DEAL).with_facts(facts), rebuild(DEAL, facts), plain):
        r = Refuter(k)
        for claim in _claims():
            if isinstance(claim, bool) or not hasattr(claim, "holds"):
                continue
            holds = [claim.holds(w) for w in worlds]
            found = r.refutes(claim)
            if found == HOPELESS:
                assert not any(holds), (claim, facts)
                told += 1
            elif found == UNCERTAIN:
                assert not all(holds), (claim, facts)
                told += 1
            else:
                assert found is None
                zones = claim.zones()
                if zones == frozenset(HANDS) or k.worlds == "deals":
                    atoms = list(claim.atoms())
                    if len(atoms) == 1:  # one atom of the forms read: untold means certain
                        assert all(holds) or not _read(atoms[0]), (claim, facts, k)
    assert told


def _read(atom) -> bool:
    n = len(atom.lin.terms)
    return (atom.op in ("==", ">=") and atom.value == n) or (atom.op == "==" and atom.value == 0)


def test_a_card_ruled_out_makes_hopeless_and_a_card_open_uncertain():
    """By hand: Ann holds a (her one card); then b is in no solution zone but Bob's."""
    k = initial(DEAL).with_fact(Fact(count("a", {"hand:Ann"}) == 1))
    r = Refuter(k)
    assert r.refutes(count("a", HANDS) == 1) is None          # certain: left to the count
    assert r.refutes(count(["a", "b"], HANDS) == 2) == UNCERTAIN
    assert r.refutes(count(["b"], {"hand:Ann"}) == 1) is None  # not the solution's zones, not deals
    d = rebuild(DEAL, k.facts)
    assert Refuter(d).refutes(count(["b"], {"hand:Ann"}) == 1) == HOPELESS
    assert Refuter(d).refutes(count(["a"], HANDS) == 0) == HOPELESS


def test_an_estimate_from_samples_refutes_nothing_outside_the_solution():
    """A sampled knowledge's chances are estimates (a world the samples missed reads 0): a claim
    on zones other than the solution's is left to the exact count, never refuted from them."""
    from ruleslawyer.solver.sampled import SampledKnowledge

    k = SampledKnowledge.initial(DEAL).with_fact(Fact(count("a", {"hand:Ann"}) == 1))
    assert k.estimate
    r = Refuter(k)
    assert r.refutes(count("b", {"rest"}) == 1) is None
    assert r.refutes(count("b", {"rest"}) == 0) is None
