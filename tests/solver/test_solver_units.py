"""Tiny hand-made deals whose answers are worked out by hand in the comments."""

from __future__ import annotations

import doctest
import types
from fractions import Fraction

import numpy as np
import pytest

from ruleslawyer.solver import (brute, engine, engines, enumerate as numpy_engine, errors, frame, queries, weights,
                                z3engine, zonetable)
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import FullKnowledge, ProjectedKnowledge
from ruleslawyer.solver.errors import Inconsistent, NeedsCounting, NotForced, SolverError, TooBig
from ruleslawyer.solver.frame import SOLUTION, frame_of, pins_conflict, project
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.dealmodel import Deal, DealError, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import Fact, all_of, any_of, count, member, negate

from .solver_helpers import DEALS, close


def one_zone_deal(groups, patterns, size: int = 2, free: tuple[str, ...] = ()) -> Deal:
    """The solution is one zone ``sol`` of ``size`` cards (so deals and solutions
    are counted alike); the rest lies in ``rest``."""
    cards = tuple(c for g in groups for c in g) + free
    zones = (Zone("sol", "sol", None, size), Zone("rest", "rest", None, len(cards) - size))
    return Deal((Deck("d", cards, zones, (GroupCount(("sol",), groups, patterns),)),), solution=("sol",))


SOL = {"sol"}


def F(formula, **kw) -> Fact:
    return Fact(formula, **kw)


# Group 1 = a b c, group 2 = d e.  Pattern (1,1): 3*2 = 6 sets of prior
# 1/2 * 1/3 * 1/2 = 1/12 each; pattern (2,0): 3 sets of prior 1/2 * 1/3 = 1/6.
SMALL = one_zone_deal((("a", "b", "c"), ("d", "e")), ((1, 1), (2, 0)))
ENGINES = [ProjectedKnowledge.initial, FullKnowledge.initial, BruteKnowledge.initial, engines.initial]


@pytest.mark.parametrize("initial", ENGINES)
def test_prior(initial):
    k = initial(SMALL)
    assert k.count() == 9 and k.solution_count() == 9 and k.consistent() and not k.determined()
    p = k.probabilities()
    # P(a) = 2 sets * 1/12 + 2 sets * 1/6 = 1/2 ; P(d) = 3 * 1/12 = 1/4
    assert close(p["a"], Fraction(1, 2)) and close(p["d"], Fraction(1, 4))
    assert close(p["e"], Fraction(1, 4))
    assert all(v == "open" for v in k.status().values())
    pp = k.pattern_probabilities()
    assert close(pp[(1, 1)], Fraction(1, 2)) and close(pp[(2, 0)], Fraction(1, 2))
    zones = k.zone_probabilities()
    assert close(zones["a"]["sol"], Fraction(1, 2)) and close(zones["a"]["rest"], Fraction(1, 2))


@pytest.mark.parametrize("initial", ENGINES)
def test_pattern_forced_by_a_zero_count(initial):
    # d + e == 0 leaves pattern (2,0): {a,b} {a,c} {b,c}, equally likely.
    k = initial(SMALL).with_fact(F(count(["d", "e"], SOL) == 0))
    assert k.count() == 3
    assert k.status() == {"a": "open", "b": "open", "c": "open", "d": "out", "e": "out"}
    assert close(k.probabilities()["a"], Fraction(2, 3))
    assert k.pattern_probabilities()[(1, 1)] == 0


@pytest.mark.parametrize("initial", ENGINES)
def test_weighted_fact(initial):
    # 2*[a] - [d] >= 2  <=>  a in and d out: {a,e} (1/12), {a,b} (1/6), {a,c} (1/6).
    k = initial(SMALL).with_fact(F(count(["a"], SOL, 2) - count(["d"], SOL) >= 2))
    assert k.count() == 3
    s = k.status()
    assert (s["a"], s["d"], s["b"], s["e"]) == ("in", "out", "open", "open")
    assert close(k.probabilities()["b"], Fraction(2, 5))  # (1/6) / (5/12)
    assert close(k.pattern_probabilities()[(2, 0)], Fraction(4, 5))
    assert sorted(map(sorted, k.solutions(3))) == [["a", "b"], ["a", "c"], ["a", "e"]]
    assert k.solutions(2) is None


@pytest.mark.parametrize("initial", ENGINES)
@pytest.mark.parametrize("op,value,expected", [
    # totals of [b] + [c] over the 9 sets: 0 in 2 sets ({a,d} {a,e}), 1 in 6, 2 in 1.
    ("==", 1, 6), ("!=", 1, 3), ("<", 1, 2), ("<=", 1, 8), (">", 0, 7), (">=", 2, 1),
])
def test_every_operator(initial, op, value, expected):
    from ruleslawyer.spec.facts import OPS
    assert initial(SMALL).with_fact(F(OPS[op](count(["b", "c"], SOL), value))).count() == expected


@pytest.mark.parametrize("initial", ENGINES)
def test_unknown_card_and_zone_count_zero(initial):
    k = initial(SMALL)
    assert k.with_fact(F(count(["zz"], SOL) == 0)).count() == 9
    assert k.with_fact(F(count(["zz", "a"], SOL) == 1)).count() == 4
    assert k.with_fact(F(count(["a"], {"sol", "nowhere"}) == 1)).count() == 4
    # a in sol or rest: always 1
    assert k.with_fact(F(count(["a"], {"sol", "rest"}) == 1)).count() == 9


@pytest.mark.parametrize("initial", ENGINES)
def test_rest_zone_and_connectives(initial):
    k = initial(SMALL)
    # a in rest <=> a out: 5 sets; (a in) or (d in): 4 + 3 - 1 = 6; not (b in and c in): 8
    assert k.with_fact(F(member("a", {"rest"}) == 1)).count() == 5
    assert k.with_fact(F(any_of([member("a", SOL) == 1, member("d", SOL) == 1]))).count() == 6
    assert k.with_fact(F(negate(all_of([member("b", SOL) == 1, member("c", SOL) == 1])))).count() == 8


@pytest.mark.parametrize("initial", ENGINES)
def test_inconsistent_queries(initial):
    k = initial(SMALL).with_facts([F(count(["d"], SOL) == 1), F(count(["e"], SOL) == 1)])
    assert k.count() == 0 and not k.consistent() and not k.determined()
    assert k.solutions(5) == []
    for query in (k.status, k.probabilities, k.pattern_probabilities, k.zone_probabilities):
        with pytest.raises(Inconsistent):
            query()


# Two hands of one card and a rest of two, no constraint: 4*3 = 12 deals, 6 solutions.
HANDS = ("hand:Ann", "hand:Bob")
TWO = Deal((Deck("d", tuple("abcd"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
                                     Zone("hand:Bob", "hand", "Bob", 1, "owner"),
                                     Zone("rest", "rest", None, 2))),),
           solution=HANDS, players=("Ann", "Bob"))


@pytest.mark.parametrize("initial", ENGINES)
def test_pins_and_zone_probabilities(initial):
    k = initial(TWO)
    assert k.solution_count() == 6 and k.count() == (12 if k.worlds == "deals" else 6)
    pinned = k.with_fact(F(member("a", {"hand:Ann"}) == 1, viewers=frozenset({"Ann"})))
    # a in Ann's hand: Bob holds b, c or d (3 deals, 3 solutions), each 1/3
    assert pinned.count() == 3 and pinned.status()["a"] == "in"
    z = pinned.zone_probabilities()
    assert z["a"] == {"hand:Ann": 1, "hand:Bob": 0, "rest": 0}
    assert close(z["b"]["hand:Bob"], Fraction(1, 3)) and close(z["b"]["rest"], Fraction(2, 3))
    assert z["b"]["hand:Ann"] == 0
    # >= 1 is a pin too; the same pin twice changes nothing
    assert pinned.with_fact(F(member("a", {"hand:Ann"}) >= 1)).count() == 3


@pytest.mark.parametrize("initial", ENGINES)
def test_conflicting_pins_leave_no_world(initial):
    k = initial(TWO).with_fact(F(member("a", {"hand:Ann"}) == 1))
    assert k.with_fact(F(member("a", {"hand:Bob"}) == 1)).count() == 0  # one card, two hands
    assert k.with_fact(F(member("b", {"hand:Ann"}) == 1)).count() == 0  # two cards, a hand of one
    both = k.with_fact(F(all_of([member("b", {"hand:Bob"}) == 1, count(["c"], HANDS) == 0])))
    assert both.count() == 1 and both.solutions(2) == [frozenset("ab")]


def test_zone_probabilities_spread_over_free_places():
    # hands of 1 and 2 (3 places), no pin: a card in the solution is in the
    # hand of 2 with chance 2/3.  P(a in solution) = 3/5.
    deal = Deal((Deck("d", tuple("abcde"), (Zone("x", "x", None, 1), Zone("y", "y", None, 2),
                                           Zone("r", "r", None, 2))),), solution=("x", "y"))
    for k in (ProjectedKnowledge.initial(deal), BruteKnowledge.initial(deal)):
        z = k.zone_probabilities()["a"]
        assert close(z["y"], Fraction(2, 5)) and close(z["x"], Fraction(1, 5))
        # pin b to y: a is in the solution with chance 1/2 (2 of the 4 others
        # join b), then in x or in y's other place alike
        z = k.with_fact(F(member("b", {"y"}) == 1)).zone_probabilities()["a"]
        assert close(z["x"], Fraction(1, 4)) and close(z["y"], Fraction(1, 4))


def test_projection_switches_to_full_mode():
    k = engines.initial(TWO)
    assert k.worlds == "solutions"
    # "a is not in Ann's hand" splits the hands: 12 - 3 = 9 deals, P(a in Bob's) = 3/9
    k = k.with_fact(F(count(["a", "b"], HANDS) >= 1)).with_fact(F(member("a", {"hand:Ann"}) == 0))
    assert k.worlds == "deals" and isinstance(k, FullKnowledge)
    # a or b in the hands (10 deals), minus a in Ann's (3): 7 deals
    assert k.count() == 7
    slow = BruteKnowledge.initial(TWO).with_facts(k.facts)
    assert k.count() == slow.count() == 7 and k.status() == slow.status()
    assert close(k.zone_probabilities()["a"]["hand:Bob"], slow.zone_probabilities()["a"]["hand:Bob"])


def test_too_big_to_count_still_answers_status_and_names_the_size_and_the_limit():
    big = DEALS[5]  # 5 hands: 6,881,280 deals
    k = engines.initial(big)
    assert k.worlds == "solutions" and k.count() == 57_344
    out = k.with_fact(F(member("suspect1", {"hand:Alice"}) == 0))
    assert out.estimate and out.consistent()
    slow_status = engines.initial(big).with_fact(F(member("suspect1", {"hand:Alice"}) == 0))
    assert out.status() == Z3Knowledge.initial(big).with_facts(slow_status.facts).status()
    with pytest.raises(NeedsCounting, match=r"6,881,280 deals.*RULESLAWYER_MAX_WORLDS.*1,000,000"):
        out.count()
    with pytest.raises(TooBig, match="6,881,280"):
        FullKnowledge.initial(big)


def test_dynamic_programming_hook(monkeypatch):
    calls = []

    class FakeDP:
        @staticmethod
        def initial(deal, fallback=None):
            calls.append(deal)
            return BruteKnowledge.initial(TWO)

    fake = types.SimpleNamespace(applicable=lambda deal, facts: True, DPKnowledge=FakeDP)
    monkeypatch.setattr(engines, "_dp", fake)
    k = engines.initial(DEALS[5]).with_fact(F(member("suspect1", {"hand:Alice"}) == 0))
    assert calls == [DEALS[5]] and isinstance(k, BruteKnowledge)
    monkeypatch.setattr(engines, "_dp", types.SimpleNamespace(applicable=lambda d, f: False))
    k = engines.initial(DEALS[5]).with_fact(F(member("suspect1", {"hand:Alice"}) == 0))
    assert k.estimate  # no exact engine: estimates, and counts refused
    with pytest.raises(NeedsCounting):
        k.count()


def test_two_decks_weights_multiply():
    # deck 1: a b into x(1) + y(1), constrained: x holds a (pattern (1,) of group (a,))
    # or b (pattern (0,)): 1 deal each, each 1/2.  deck 2: p q r into t(1) + u(2): 3 deals.
    d1 = Deck("d1", ("a", "b"), (Zone("x", "x", None, 1), Zone("y", "y", None, 1)),
              (GroupCount(("x",), (("a",),), ((1,), (0,))),))
    d2 = Deck("d2", ("p", "q", "r"), (Zone("t", "t", "Ann", 1, "owner"), Zone("u", "u", None, 2)))
    deal = Deal((d1, d2), solution=("x",))
    assert frame_of(deal) is None
    for k in (engines.initial(deal), BruteKnowledge.initial(deal)):
        assert k.count() == 6 and k.solution_count() == 2
        assert close(k.pattern_probabilities()[(1,)], Fraction(1, 2))
        lie = k.with_fact(F(any_of([all_of([member("p", {"t"}) == 1, member("a", {"x"}) == 1]),
                                    member("b", {"x"}) == 1])))
        # a in x needs p in t (1 of 3 deals): mass 1/2*1/3 vs 1/2 for b in x
        assert lie.count() == 4 and close(lie.probabilities()["a"], Fraction(1, 4))
        assert close(lie.zone_probabilities()["p"]["t"], Fraction(1, 2))  # (1/6 + 1/6) / (4/6)


def test_free_cards_and_a_pattern_that_cannot_be_dealt():
    # groups (a b) and free (c d e): a solution zone of 2; pattern (2,) takes a and b,
    # (1,) one of them and one free card (2*3 = 6 sets), (3,) cannot be dealt.
    deck = Deck("d", tuple("abcde"), (Zone("sol", "s", None, 2), Zone("rest", "r", None, 3)),
                (GroupCount(("sol",), (("a", "b"),), ((2,), (1,), (3,))),))
    deal = Deal((deck,), solution=("sol",))
    with pytest.raises(DealError):
        deal.validate()  # the pattern (3,) draws 3 of 2 cards
    deck = Deck("d", tuple("abcde"), (Zone("sol", "s", None, 2), Zone("rest", "r", None, 3)),
                (GroupCount(("sol",), (("a", "b"),), ((2,), (1,), (0,))),))
    deal = Deal((deck,), solution=("sol",))
    for k in (ProjectedKnowledge.initial(deal), FullKnowledge.initial(deal), BruteKnowledge.initial(deal)):
        # (2,): {a,b}, 1/3; (1,): 6 sets, 1/18 each; (0,): 3 sets {c,d}.., 1/9 each
        assert k.count() == 10
        assert close(k.probabilities()["a"], Fraction(1, 3) + 3 * Fraction(1, 18))
        assert close(k.pattern_probabilities()[(0,)], Fraction(1, 3))
    one = Deck("d", tuple("abc"), (Zone("sol", "s", None, 1), Zone("rest", "r", None, 2)),
               (GroupCount(("sol",), (("a",),), ((1,),)),))
    assert ProjectedKnowledge.initial(Deal((one,), solution=("sol",))).count() == 1
    too_many = Deck("d", tuple("abc"), (Zone("sol", "s", None, 1), Zone("rest", "r", None, 2)),
                    (GroupCount(("sol",), (("a", "b"),), ((2,),)),))
    for build in (ProjectedKnowledge.initial, FullKnowledge.initial, BruteKnowledge.initial, Z3Knowledge.initial):
        with pytest.raises(DealError):
            build(Deal((too_many,), solution=("sol",)))


def test_several_constraints_on_one_deck():
    # x(1) holds one of (a b) and, separately, zero or one of (a c): brute and Z3 handle it
    deck = Deck("d", tuple("abc"), (Zone("x", "x", None, 1), Zone("r", "r", None, 2)),
                (GroupCount(("x",), (("a", "b"),), ((1,),)), GroupCount(("x",), (("a", "c"),), ((0,), (1,)))))
    deal = Deal((deck,), solution=("x",))
    slow = BruteKnowledge.initial(deal)
    # patterns (1,)&(1,): a in x (1 deal, 1/2); (1,)&(0,): b in x (1 deal, 1/2)
    assert slow.count() == 2 and slow.probabilities() == {"a": Fraction(1, 2), "b": Fraction(1, 2), "c": 0}
    z = Z3Knowledge.initial(deal)
    assert not z.projected and z.status()["c"] == "out"
    k = engines.initial(deal)  # no engine counts it: status from Z3, counts and estimates refused
    assert k.status() == z.status() and k.consistent()
    with pytest.raises(NeedsCounting):
        k.count()
    with pytest.raises(NeedsCounting, match="several group constraints"):
        k.probabilities()


# The log of the explanation tests.  After f0..f3 only {a,b} is left; f4
# contradicts it.  The only minimal core of the whole log is {f1, f2, f4}
# (a and b in leave no room for d); d is out after f1, f2 alone; c is out
# by f0 alone or by f1, f2.
LOG = [F(count(["c"], SOL) == 0, source="f0"), F(count(["a"], SOL) == 1, source="f1"),
       F(count(["b"], SOL) == 1, source="f2"), F(count(["e"], SOL) == 0, source="f3"),
       F(count(["d"], SOL) == 1, source="f4")]


@pytest.mark.parametrize("projected", [True, False])
def test_z3_status_and_explanations(projected):
    k = Z3Knowledge.initial(SMALL, projected).with_facts(LOG[:4])
    assert k.projected == projected and k.consistent()
    assert k.status() == {"a": "in", "b": "in", "c": "out", "d": "out", "e": "out"}
    assert [f.source for f in k.explain_status("d")] == ["f1", "f2"]
    assert [f.source for f in k.explain_status("c")] in (["f0"], ["f1", "f2"])
    assert k.explain_inconsistency() is None
    bad = k.with_fact(LOG[4])
    assert not bad.consistent()
    assert [f.source for f in bad.explain_inconsistency()] == ["f1", "f2", "f4"]
    with pytest.raises(Inconsistent):
        bad.status()
    with pytest.raises(Inconsistent):
        bad.forced_core(member("a", SOL) == 1)


@pytest.mark.parametrize("projected", [True, False])
def test_z3_not_forced_and_forced_by_the_deal(projected):
    k = Z3Knowledge.initial(SMALL, projected).with_fact(LOG[1])
    with pytest.raises(NotForced):
        k.explain_status("b")
    lone = one_zone_deal((("a", "b"), ("c",)), ((1, 0),), size=1)
    z = Z3Knowledge.initial(lone, projected)
    assert z.status() == {"a": "open", "b": "open", "c": "out"}
    assert z.explain_status("c") == []


@pytest.mark.parametrize("projected", [True, False])
def test_z3_weighted_and_every_operator(projected):
    from ruleslawyer.spec.facts import OPS
    z = Z3Knowledge.initial(SMALL, projected)
    assert z.with_fact(F(count(["a"], SOL, 2) - count(["d"], SOL) >= 2)).status()["a"] == "in"
    for op, value in [("==", 1), ("!=", 1), ("<", 1), ("<=", 1), (">", 0), (">=", 2)]:
        fact = F(OPS[op](count(["b", "c"], SOL), value))
        assert z.with_fact(fact).status() == BruteKnowledge.initial(SMALL).with_fact(fact).status()
    assert not z.with_fact(F(count(["b", "c"], SOL) > 2)).consistent()
    assert not z.with_fact(F(count(["b", "c"], SOL) > 1)).with_fact(F(count(["a"], SOL) == 1)).consistent()


def test_queries_first_inconsistent_small():
    found = queries.first_inconsistent(SMALL, LOG)
    assert found is not None and found.index == 4 and found.core == (1, 2, 4)
    assert queries.first_inconsistent(SMALL, LOG[:4]) is None
    shifted = queries.first_inconsistent(SMALL, LOG[1:])  # the core starts the log
    assert shifted is not None and shifted.index == 3 and shifted.core == (0, 1, 3)


def test_queries_viewpoints_and_explain():
    private = [F(count(["d", "e"], SOL) == 0, source="p", viewers=frozenset({"Helen"})),
               F(count(["a"], SOL) == 0, source="q")]
    spectator = queries.solve(SMALL, private)
    assert spectator.count == 5 and spectator.facts_seen == 1  # 9 sets minus the 4 with a
    helen = queries.solve(SMALL, private, queries.Viewpoint.of_player("Helen"))
    assert helen.determined and helen.solutions == [["b", "c"]]
    other = queries.solve(SMALL, private, queries.Viewpoint.of_player("Gordon"))
    assert other.count == 5
    why = queries.explain(SMALL, private, "b", queries.Viewpoint.parse("player:Helen"))
    assert why.status == "in" and why.core == (0, 1)
    assert queries.explain(SMALL, private, "b").status == "open"


def test_z3_conflicting_pins_are_in_the_core():
    pins = [F(member("a", {"hand:Ann"}) == 1, source="p0"), F(count(["c"], HANDS) == 0, source="p1"),
            F(member("b", {"hand:Ann"}) == 1, source="p2")]
    k = Z3Knowledge.initial(TWO).with_facts(pins)
    assert k.projected and not k.consistent()
    assert [f.source for f in k.explain_inconsistency()] == ["p0", "p2"]
    same_card = Z3Knowledge.initial(TWO).with_facts([pins[0], F(member("a", {"hand:Bob"}) == 1, source="p3")])
    assert [f.source for f in same_card.explain_inconsistency()] == ["p0", "p3"]


@pytest.mark.parametrize("projected", [None, False])
def test_z3_possible_and_forced_memberships(projected):
    facts = [F(member("a", {"hand:Ann"}) == 1, source="pin"), F(count(["b", "c"], HANDS) == 0, source="bc")]
    k = Z3Knowledge.initial(TWO, projected).with_facts(facts)
    assert k.possible(member("d", {"hand:Bob"}) == 1)
    assert not k.possible(member("d", {"hand:Ann"}) == 1)
    # d is the only card left for Bob: forced by both facts
    assert [f.source for f in k.explain_forced(member("d", {"hand:Bob"}) == 1)] == ["pin", "bc"]
    assert k.forced_core(member("a", {"hand:Ann"}) == 1) == [0]
    assert k.forced_core(count(["b"], HANDS) == 0) == [1]
    with pytest.raises(NotForced):
        Z3Knowledge.initial(TWO, projected).forced_core(member("a", {"hand:Ann"}) == 1)


def test_frame_rules():
    f = frame_of(TWO)
    assert f is not None and f.rest == "rest" and f.size == 2
    anywhere = frozenset(HANDS)
    assert f.project(count(["a", "b"], anywhere) == 1).formula == (count(["a", "b"], {SOLUTION}) == 1)
    # a in rest == 1  <=>  [a in S] == 0
    out = f.project(member("a", {"rest"}) == 1).formula
    assert out.holds({}) and not out.holds({"a": SOLUTION})
    assert f.project(count(["a"], {"hand:Ann"}) == 0) is None          # splits the hands
    assert f.project(count(["a"], {"hand:Ann"}, 2) == 2) is None       # weight 2: not a pin
    assert f.project(any_of([member("a", {"hand:Ann"}) == 1, member("b", anywhere) == 1])) is None
    assert f.project(member("a", {"hand:Ann"}) >= 1).pins == {("a", "hand:Ann")}
    assert f.project(member("zz", {"hand:Ann"}) == 1).formula.holds({}) is False  # no such card
    both = f.project(all_of([member("a", {"hand:Ann"}) == 1, member("b", {"hand:Bob"}) == 1,
                             count(["c"], anywhere) == 0]))
    assert both.pins == {("a", "hand:Ann"), ("b", "hand:Bob")}
    assert both.formula == (member("c", {SOLUTION}) == 0)
    assert project(DEALS[3], Fact(count(["suspect1"], {"hand:Alice", "hand:Bob", "hand:Carol", "x"}) == 1))
    assert pins_conflict([("a", "hand:Ann"), ("b", "hand:Ann")], f.sizes)
    # deals that do not project
    rest2 = Deck("d", tuple("abcd"), (Zone("h", "h", None, 1), Zone("r1", "r", None, 1), Zone("r2", "r", None, 2)))
    assert frame_of(Deal((rest2,), solution=("h",))) is None                 # two other zones
    assert frame_of(Deal((rest2,), solution=())) is None                     # no solution
    partial = Deck("d", tuple("abcd"), TWO.decks[0].zones, (GroupCount(("hand:Ann",), (("a",),), ((1,),)),))
    assert frame_of(Deal((partial,), solution=HANDS)) is None                # constraint on one hand only


def grouped_twice() -> Deal:
    zones = (Zone("sol", "s", None, 1), Zone("rest", "r", None, 1))
    return Deal((Deck("d", ("a", "b"), zones, (GroupCount(("sol",), (("a", "b"), ("b",)), ((1, 0),)),)),),
                solution=("sol",))


@pytest.mark.parametrize("bad", [
    grouped_twice,                                                          # card in two groups
    lambda: Deal((Deck("d", ("a", "a"), (Zone("x", "x", None, 2),)),), solution=("x",)),  # card twice
    lambda: one_zone_deal((("a", "b"),), ((1,), (1,)), size=1),             # pattern twice
    lambda: one_zone_deal((("a", "b"),), ((3,),), size=1),                  # too many drawn
    lambda: one_zone_deal((("a", "b"),), ((1, 0),), size=1),                # wrong length
    lambda: one_zone_deal((("a", "b"),), (), size=1),                       # nothing to draw
    lambda: Deal((Deck("d", tuple("ab"), (Zone("x", "x", None, 1),)),), solution=("x",)),  # sizes
])
def test_invalid_deals(bad):
    for build in (ProjectedKnowledge.initial, FullKnowledge.initial, BruteKnowledge.initial,
                  Z3Knowledge.initial, engines.initial):
        with pytest.raises(DealError):
            build(bad())


@pytest.mark.parametrize("module", [frame, numpy_engine, engines, brute, z3engine, queries, engine, errors, zonetable,
                                    weights])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_popcount_fallback_for_old_numpy():
    from ruleslawyer.solver.enumerate import _popcount_by_table

    words = np.array([[0, 1, 2**64 - 1], [2**63 + 5, 0xF0F0, 12345678901234]], dtype="<u8")
    expected = [[int(w).bit_count() for w in row] for row in words.tolist()]
    assert _popcount_by_table(words).tolist() == expected


def test_engine_answers_the_same_with_the_fallback(monkeypatch):
    rich = one_zone_deal((("a", "b", "c", "d"), ("e", "f", "g")), ((2, 1), (1, 2)), size=3)
    facts = [F(count(["a", "e"], SOL) <= 1), F(count(["b", "f", "g"], SOL) >= 1)]

    def answers():
        k = ProjectedKnowledge.initial(rich).with_facts(facts)
        return k.count(), k.status(), k.probabilities(), k.pattern_probabilities()

    native = answers()
    monkeypatch.setattr(numpy_engine, "_popcount", numpy_engine._popcount_by_table)
    assert answers() == native
    assert native[0] == BruteKnowledge.initial(rich).with_facts(facts).count()


def test_arrangements_count_every_deal():
    from math import factorial
    from ruleslawyer.solver.enumerate import _arrangements
    rows = _arrangements([2, 0, 1, 3])
    assert len(rows) == factorial(6) // (2 * 6) and len({tuple(r) for r in rows.tolist()}) == len(rows)
    assert all(sorted(r) == [0, 0, 2, 3, 3, 3] for r in rows.tolist())



def test_zone_tables_are_built_once_read_only_and_within_their_budget(monkeypatch):
    monkeypatch.setattr(zonetable, "_TABLES", zonetable._Tables(budget=3 * 16))  # three 16-row tables
    built = []
    real = zonetable.truth
    monkeypatch.setattr(zonetable, "truth", lambda *a: built.append(a[1]) or real(*a))
    cards = ("a", "b", "c", "d")
    fact = count(["a", "b"], {"z"}) >= 1
    first = zonetable.zone_table("z", cards, (fact,))
    assert zonetable.zone_table("z", cards, (fact,)) is first and built == ["z"]
    assert not first.flags.writeable
    # by hand: a or b among the 16 subsets of (a, b, c, d), bit i for cards[i]
    assert first.tolist() == [bool(s & 0b11) for s in range(16)]
    for zone in ("y", "x", "w"):  # three more: the first goes out
        zonetable.zone_table(zone, cards, (fact,))
    assert zonetable._TABLES.used <= 3 * 16
    assert zonetable.zone_table("z", cards, (fact,)) is not first and built.count("z") == 2


@pytest.mark.parametrize("seed", range(6))
def test_the_exact_bincount_is_exact_modulo_2_64(seed):
    """Against Python's integers, summed one by one, for small and for huge weights."""
    from ruleslawyer.solver import zones

    rng = np.random.default_rng(seed)
    n, length = int(rng.integers(1, 3000)), int(rng.integers(1, 40))
    top = [8, 30, 52, 53, 63, 64][seed]
    weights = rng.integers(0, 2**63, n, dtype=np.uint64, endpoint=True) >> np.uint64(64 - top)
    if seed % 2:
        weights[0] = np.uint64(2**top - 1)  # the largest weight of its width
    index = rng.integers(0, length, n)
    expected = [0] * length
    for i, w in zip(index.tolist(), weights.tolist()):
        expected[i] = (expected[i] + w) % 2**64
    assert zones._exact_bincount(index, weights, length).tolist() == expected


@pytest.mark.parametrize("columns", [1, 2, 3, 4, 7, 300])
def test_the_column_sums_and_row_products_are_exact_modulo_2_64(columns):
    """Against Python's integers, for shapes that take each path (few columns, rows laid side by side)."""
    from ruleslawyer.solver import zones

    rng = np.random.default_rng(columns)
    for rows in (1, 2, 6, 64, 1000, 1024):
        x = rng.integers(0, 2**64, size=(rows, columns), dtype=np.uint64, endpoint=False)
        w = rng.integers(0, 2**64, size=columns, dtype=np.uint64, endpoint=False)
        assert zones._colsum(x).tolist() == [sum(int(v) for v in x[:, j]) % 2**64 for j in range(columns)]
        assert zones._rowdot(x, w).tolist() == [sum(int(a) * int(b) for a, b in zip(x[i], w)) % 2**64
                                                for i in range(rows)]
