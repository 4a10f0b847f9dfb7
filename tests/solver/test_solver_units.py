"""Tiny hand-made shapes whose answers are worked out by hand in the comments."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from ruleslawyer.solver import brute, enumerate as numpy_engine, queries, shape, z3engine
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import Knowledge
from ruleslawyer.solver.errors import Inconsistent, InvalidShape, NotForced
from ruleslawyer.solver.facts import DealShape, Fact
from ruleslawyer.solver.z3engine import Z3Knowledge

# Group 1 = a b c, group 2 = d e.  Pattern (1,1): 3*2 = 6 sets of prior
# 1/2 * 1/3 * 1/2 = 1/12 each; pattern (2,0): 3 sets of prior 1/2 * 1/3 = 1/6.
SMALL = DealShape(groups=(("a", "b", "c"), ("d", "e")), patterns=((1, 1), (2, 0)))
ENGINES = [Knowledge.initial, BruteKnowledge.initial]


def close(x, y) -> bool:
    return abs(float(x) - float(y)) < 1e-12


@pytest.mark.parametrize("initial", ENGINES)
def test_prior(initial):
    k = initial(SMALL)
    assert k.count() == 9 and k.consistent() and not k.determined()
    p = k.probabilities()
    # P(a) = 2 sets * 1/12 + 2 sets * 1/6 = 1/2 ; P(d) = 3 * 1/12 = 1/4
    assert close(p["a"], Fraction(1, 2)) and close(p["d"], Fraction(1, 4))
    assert close(p["e"], Fraction(1, 4))
    assert all(v == "open" for v in k.status().values())
    pp = k.pattern_probabilities()
    assert close(pp[(1, 1)], Fraction(1, 2)) and close(pp[(2, 0)], Fraction(1, 2))


@pytest.mark.parametrize("initial", ENGINES)
def test_pattern_forced_by_a_zero_count(initial):
    # d + e == 0 leaves pattern (2,0): {a,b} {a,c} {b,c}, equally likely.
    k = initial(SMALL).with_fact(Fact.count({"d", "e"}, "==", 0))
    assert k.count() == 3
    assert k.status() == {"a": "open", "b": "open", "c": "open", "d": "out", "e": "out"}
    assert close(k.probabilities()["a"], Fraction(2, 3))
    assert k.pattern_probabilities()[(1, 1)] == 0


@pytest.mark.parametrize("initial", ENGINES)
def test_weighted_fact(initial):
    # 2*[a] - [d] >= 2  <=>  a in and d out: {a,e} (1/12), {a,b} (1/6), {a,c} (1/6).
    k = initial(SMALL).with_fact(Fact((("a", 2), ("d", -1)), ">=", 2))
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
    assert initial(SMALL).with_fact(Fact.count({"b", "c"}, op, value)).count() == expected


@pytest.mark.parametrize("initial", ENGINES)
def test_unknown_card_counts_zero(initial):
    k = initial(SMALL)
    assert k.with_fact(Fact.count({"zz"}, "==", 0)).count() == 9
    assert k.with_fact(Fact.count({"zz", "a"}, "==", 1)).count() == 4


@pytest.mark.parametrize("initial", ENGINES)
def test_inconsistent_queries(initial):
    k = initial(SMALL).with_facts([Fact.count({"d"}, "==", 1), Fact.count({"e"}, "==", 1)])
    assert k.count() == 0 and not k.consistent() and not k.determined()
    assert k.solutions(5) == []
    for query in (k.status, k.probabilities, k.pattern_probabilities):
        with pytest.raises(Inconsistent):
            query()


# The log of the explanation tests.  After f0..f3 only {a,b} is left; f4
# contradicts it.  The only minimal core of the whole log is {f1, f2, f4}
# (a and b in leave no room for d); d is out after f1, f2 alone; c is out
# by f0 alone or by f1, f2.
LOG = [Fact.count({"c"}, "==", 0, source="f0"), Fact.count({"a"}, "==", 1, source="f1"),
       Fact.count({"b"}, "==", 1, source="f2"), Fact.count({"e"}, "==", 0, source="f3"),
       Fact.count({"d"}, "==", 1, source="f4")]


def test_z3_status_and_explanations():
    k = Z3Knowledge.initial(SMALL).with_facts(LOG[:4])
    assert k.consistent()
    assert k.status() == {"a": "in", "b": "in", "c": "out", "d": "out", "e": "out"}
    assert [f.source for f in k.explain_status("d")] == ["f1", "f2"]
    assert [f.source for f in k.explain_status("c")] in (["f0"], ["f1", "f2"])
    assert k.explain_inconsistency() is None
    bad = k.with_fact(LOG[4])
    assert not bad.consistent()
    assert [f.source for f in bad.explain_inconsistency()] == ["f1", "f2", "f4"]
    with pytest.raises(Inconsistent):
        bad.status()


def test_z3_not_forced_and_forced_by_shape():
    k = Z3Knowledge.initial(SMALL).with_fact(LOG[1])
    with pytest.raises(NotForced):
        k.explain_status("b")
    lone = DealShape(groups=(("a", "b"), ("c",)), patterns=((1, 0),))
    z = Z3Knowledge.initial(lone)
    assert z.status() == {"a": "open", "b": "open", "c": "out"}
    assert z.explain_status("c") == []


def test_z3_weighted_and_every_operator():
    z = Z3Knowledge.initial(SMALL)
    assert z.with_fact(Fact((("a", 2), ("d", -1)), ">=", 2)).status()["a"] == "in"
    for op, value in [("==", 1), ("!=", 1), ("<", 1), ("<=", 1), (">", 0), (">=", 2)]:
        fact = Fact.count({"b", "c"}, op, value)
        assert (z.with_fact(fact).status()
                == Knowledge.initial(SMALL).with_fact(fact).status())
    assert not z.with_fact(Fact.count({"b", "c"}, ">", 2)).consistent()


def test_queries_first_inconsistent_small():
    found = queries.first_inconsistent(SMALL, LOG)
    assert found is not None and found.index == 4 and found.core == (1, 2, 4)
    assert queries.first_inconsistent(SMALL, LOG[:4]) is None
    shifted = queries.first_inconsistent(SMALL, LOG[1:])  # the core starts the log
    assert shifted is not None and shifted.index == 3 and shifted.core == (0, 1, 3)


def test_queries_viewpoints_and_explain():
    private = [Fact.count({"d", "e"}, "==", 0, source="p", viewer="Helen"),
               Fact.count({"a"}, "==", 0, source="q")]
    spectator = queries.solve(SMALL, private)
    assert spectator.count == 5 and spectator.facts_seen == 1  # 9 sets minus the 4 with a
    helen = queries.solve(SMALL, private, queries.Viewpoint.of_player("Helen"))
    assert helen.determined and helen.solutions == [["b", "c"]]
    other = queries.solve(SMALL, private, queries.Viewpoint.of_player("Gordon"))
    assert other.count == 5
    why = queries.explain(SMALL, private, "b", queries.Viewpoint.parse("player:Helen"))
    assert why.status == "in" and why.core == (0, 1)
    assert queries.explain(SMALL, private, "b").status == "open"


@pytest.mark.parametrize("bad", [
    DealShape(groups=(("a", "b"), ("b",)), patterns=((1, 1),)),   # card twice
    DealShape(groups=(("a", "b"),), patterns=((1,), (1,))),      # pattern twice
    DealShape(groups=(("a", "b"),), patterns=((3,),)),           # too many drawn
    DealShape(groups=(("a", "b"),), patterns=((1, 0),)),         # wrong length
    DealShape(groups=(("a", "b"),), patterns=()),                # nothing to draw
])
def test_invalid_shapes(bad):
    for build in (Knowledge.initial, BruteKnowledge.initial, Z3Knowledge.initial):
        with pytest.raises(InvalidShape):
            build(bad)


@pytest.mark.parametrize("module", [shape, numpy_engine, brute, z3engine, queries])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_popcount_fallback_for_old_numpy():
    import numpy as np

    from ruleslawyer.solver.enumerate import _popcount_by_table

    words = np.array([[0, 1, 2**64 - 1], [2**63 + 5, 0xF0F0, 12345678901234]], dtype="<u8")
    expected = [[int(w).bit_count() for w in row] for row in words.tolist()]
    assert _popcount_by_table(words).tolist() == expected


def test_engine_answers_the_same_with_the_fallback(monkeypatch):
    from ruleslawyer.solver import enumerate as engine

    rich = DealShape(groups=(("a", "b", "c", "d"), ("e", "f", "g")), patterns=((2, 1), (1, 2)))
    facts = [Fact.count({"a", "e"}, "<=", 1), Fact.count({"b", "f", "g"}, ">=", 1)]

    def answers():
        k = Knowledge.initial(rich).with_facts(facts)
        return k.count(), k.status(), k.probabilities(), k.pattern_probabilities()

    native = answers()
    monkeypatch.setattr(engine, "_popcount", engine._popcount_by_table)
    assert answers() == native
    assert native[0] == BruteKnowledge.initial(rich).with_facts(facts).count()
