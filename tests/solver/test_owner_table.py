"""``DPKnowledge.owner_table`` (deals by one owner's cards in some zones and the solution) and
``solution_given`` read from it, against the plain enumeration and against Z3.

The expectation is the list of deals (tests/solver/test_dp.py's enumeration), counted per (the
zones' content, the solution), or filtered by "the card lies there" and counted per solution card;
Z3 checks which solutions are possible with the same fact added.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.solver.dp import DPKnowledge
from ruleslawyer.solver.marginal import Slice, capacity, solution_given as shares_given
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.facts import Fact, count, member

from .test_dp import SETTINGS, games, hand, make_deal, surviving


def enumerated(deal, worlds, card: str, zones: frozenset[str]) -> tuple[int, dict[str, int]]:
    """(worlds with the card in the zones, solution card -> those of them with it in the solution)."""
    inside = [w for w in worlds if w[card] in zones]
    per = Counter(c for w in inside for c, z in w.items() if z in deal.solution)
    return len(inside), {c: per[c] for c in deal.solution_deck.cards}


def enumerated_table(deal, worlds, zones: frozenset[str]) -> Counter:
    """(the zones' cards, the solution's cards) -> deals."""
    return Counter((frozenset(c for c, z in w.items() if z in zones),
                    frozenset(c for c, z in w.items() if z in deal.solution)) for w in worlds)


def read_table(table) -> Counter:
    """The same from an OwnerTable (its nonzero entries), as worlds and as weights."""
    def cards(mask):
        return frozenset(c for i, c in enumerate(table.cards) if mask >> i & 1)
    out: Counter = Counter()
    for r, held in enumerate(table.held.tolist()):
        for j, sol in enumerate(table.solutions.tolist()):
            if table.worlds[r, j]:
                out[cards(held), cards(sol)] += int(table.worlds[r, j])
    return out


@settings(max_examples=60, **SETTINGS)
@given(games(), st.data())
def test_agrees_with_enumeration(game, data):
    """The table, and each card's solution counts read from it, as the deals left count them."""
    deal, _true, facts = game
    k = DPKnowledge.initial(deal).with_facts(facts)
    worlds = surviving(deal, facts)
    zones = hand(data.draw(st.sampled_from(deal.players)))
    cards = data.draw(st.lists(st.sampled_from(deal.solution_deck.cards), min_size=1, max_size=4, unique=True))
    table, got = k.owner_table(zones), k.solution_given(cards, zones)
    if table is None:
        assert got is None and len(deal.decks) > 1  # a second deck the parts do not each pin: chained
        return
    assert read_table(table) == enumerated_table(deal, worlds, zones)
    assert (table.weight == table.worlds).all()  # no weighted fact among these
    assert got == {c: enumerated(deal, worlds, c, zones) for c in cards}


def test_no_world_left_gives_zeros():
    deal = make_deal(3, 2, (2, 2, 1))
    k = DPKnowledge.initial(deal).with_fact(Fact(count(deal.cards, hand("Ann")) == 3))
    assert not k.consistent()
    assert k.solution_given(["L1-T1"], hand("Ann"))["L1-T1"] == (0, dict.fromkeys(deal.cards, 0))


def test_refuses_what_it_cannot_give_in_one_pass():
    deal = make_deal(3, 2, (2, 2, 1), tiles=3)
    k = DPKnowledge.initial(deal)
    assert k.solution_given(["L1-T1"], frozenset({"missing"})) is None  # the solution's own part
    assert k.solution_given(["L1-T1"], hand("Ann") | hand("Bob")) is None  # two owners
    assert k.solution_given(["t1"], frozenset({"tile:Ann"})) is None  # a card of the second deck
    assert k.solution_given(["L1-T1"], hand("Ann")) is None  # the tiles not yet pinned: chained
    pinned = k.with_facts([Fact(member(t, frozenset({f"tile:{p}"})) == 1)
                           for t, p in (("t1", "Ann"), ("t2", "Bob"), ("t3", "Cat"))])
    got = pinned.solution_given(["L1-T1"], hand("Ann"))  # every tile pinned: one pass again
    assert got == {"L1-T1": enumerated(deal, surviving(deal, list(pinned.facts)), "L1-T1", hand("Ann"))}


def test_z3_finds_the_same_solutions_possible():
    """Z3, given the same facts and "the card lies there", finds exactly the solutions counted above 0."""
    deal = make_deal(4, 2, (2, 2, 2), public=1)
    facts = [Fact(count([c for c in deal.cards if c.startswith("L1")], hand("Bob")) == 1),
             Fact(count([c for c in deal.cards if c.endswith("T2")], hand("Cat")) == 2),
             Fact(member("L2-T1", frozenset({"hand:Ann"})) == 1)]
    k = DPKnowledge.initial(deal).with_facts(facts)
    z3k = Z3Knowledge.initial(deal).with_facts(facts)
    for owner in ("Bob", "Cat"):
        got = k.solution_given(deal.cards, hand(owner))
        for c in deal.cards:
            worlds, per = got[c]
            z = z3k.with_fact(Fact(member(c, hand(owner)) == 1))
            assert (worlds > 0) == z.consistent()
            if worlds:
                possible = {next(iter(s)) for s in z.solutions(100)}
                assert possible == {s for s, n in per.items() if n > 0}


def test_shares_are_the_conditioned_knowledges_chances():
    """solver.marginal.solution_given: per card, the chances of the knowledge with the card there."""
    deal = make_deal(4, 2, (2, 2, 3))
    k = DPKnowledge.initial(deal).with_fact(Fact(count(deal.cards[:4], hand("Cat")) == 2))
    got = shares_given(Slice(2, k, k.count(), float(k.count())), frozenset(deal.cards[:5]), hand("Cat"))
    for c in deal.cards[:5]:
        kc = k.with_fact(Fact(member(c, hand("Cat")) == 1))
        if kc.consistent():
            assert got[c] == kc.probabilities()
        else:
            assert got[c] is None


def test_weighted_facts_weigh_as_the_chances_do():
    """A card seen, chosen at random among the k asked about that the hand holds, weighs a deal 1/k:
    the shares given a card in Cat's hand are the weighted enumeration's."""
    from fractions import Fraction
    deal = make_deal(4, 2, (2, 2, 3))
    asked = [c for c in deal.cards if c.startswith(("L1", "L2"))]
    seen = Fact(member("L1-T1", hand("Bob")) == 1, frozenset({"Ann"}), likelihood=count(asked, hand("Bob")))
    facts = [Fact(count(asked, hand("Bob")) >= 1), seen]
    k = DPKnowledge.initial(deal).with_facts(facts)
    got = k.solution_given(deal.cards, hand("Cat"))
    for c in deal.cards:
        mass: Counter = Counter()
        for w in surviving(deal, facts[:1]):
            if w["L1-T1"] == "hand:Bob" and w[c] == "hand:Cat":
                x = next(x for x, z in w.items() if z == "missing")
                mass[x] += Fraction(1, sum(w[a] == "hand:Bob" for a in asked))
        worlds, per = got[c]
        total = sum(mass.values())
        assert (worlds > 0) == (total > 0)
        if total:
            assert {x: Fraction(n, worlds) for x, n in per.items() if n} == {x: m / total for x, m in mass.items()}


def test_a_weighted_table_counts_deals_and_weighs_them_apart():
    """After a weighted fact the table's worlds are still the deals (the enumeration's count) while
    its weights are proportional to the weighted enumeration's."""
    from fractions import Fraction
    deal = make_deal(4, 2, (2, 2, 3))
    asked = [c for c in deal.cards if c.startswith(("L1", "L2"))]
    facts = [Fact(count(asked, hand("Bob")) >= 1),
             Fact(member("L1-T1", hand("Bob")) == 1, frozenset({"Ann"}), likelihood=count(asked, hand("Bob")))]
    table = DPKnowledge.initial(deal).with_facts(facts).owner_table(hand("Bob"))
    worlds = surviving(deal, facts)
    assert read_table(table) == enumerated_table(deal, worlds, hand("Bob"))
    weighed: Counter = Counter()
    for w in worlds:
        key = (frozenset(c for c, z in w.items() if z == "hand:Bob"), next(c for c, z in w.items() if z == "missing"))
        weighed[key] += Fraction(1, sum(w[a] == "hand:Bob" for a in asked))
    got = Counter()
    for r, held in enumerate(table.held.tolist()):
        for j, sol in enumerate(table.solutions.tolist()):
            if table.weight[r, j]:
                key = (frozenset(c for i, c in enumerate(table.cards) if held >> i & 1),
                       next(c for i, c in enumerate(table.cards) if sol >> i & 1))
                got[key] += Fraction(int(table.weight[r, j]))
    scale = sum(got.values()) / sum(weighed.values())
    assert {k: v / scale for k, v in got.items()} == dict(weighed)


@settings(max_examples=40, **SETTINGS)
@given(games(), st.data())
def test_sums_by_count_are_the_enumerations(game, data):
    """``OwnerTable.by_count``: per value of a count of some cards in the owner's zones, the deals,
    and per card those where it lies there, where it is the solution, and where a named card lies
    there with it the solution: counted from the list of deals."""
    deal, _true, facts = game
    k = DPKnowledge.initial(deal).with_facts(facts)
    zones = hand(data.draw(st.sampled_from(deal.players)))
    table = k.owner_table(zones)
    if table is None:
        return
    counted = data.draw(st.lists(st.sampled_from(deal.solution_deck.cards), min_size=1, max_size=5, unique=True))
    named = data.draw(st.lists(st.sampled_from(deal.solution_deck.cards), max_size=3, unique=True))
    sums = table.by_count(table.mask(counted), named)
    worlds = surviving(deal, facts)
    by_value: dict[int, list] = {}
    for w in worlds:
        by_value.setdefault(sum(w[c] in zones for c in counted), []).append(w)
    assert {v: int(n) for v, n in enumerate(sums.worlds.tolist()) if n} == {v: len(ws) for v, ws in by_value.items()}
    assert (sums.weight == sums.worlds).all()  # no weighted fact among these
    for v, ws in by_value.items():
        for i, c in enumerate(table.cards):
            assert sums.held[v, i] == sum(w[c] in zones for w in ws)
            assert sums.solution[v, i] == sum(w[c] in deal.solution for w in ws)
            for n, x in enumerate(named):
                assert sums.given[v, n, i] == sum(w[x] in zones and w[c] in deal.solution for w in ws)
    assert sums.one_card == (capacity(deal, frozenset(deal.solution)) == 1)  # the missing card


def test_doctests():
    import doctest

    from ruleslawyer.solver import marginal, table
    assert doctest.testmod(table).failed == 0 and doctest.testmod(marginal).failed == 0
