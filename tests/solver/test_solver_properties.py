"""The three engines agree on random Lady Alice games (3, 4 and 5 players).

numpy vs brute force: count, status, probabilities (exact fractions, 1e-9).
Z3 vs numpy: consistency and status.  Z3's explanations are checked with
numpy: sufficient (the core alone forces the same answer) and minimal
(dropping any one fact of the core loses it).
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .solver_helpers import PLAYERS, SHAPES, games, viewpoint_filter

from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import Knowledge
from ruleslawyer.solver.facts import DealShape, Fact
from ruleslawyer.solver.z3engine import Z3Knowledge

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def brute_initial(shape: DealShape) -> BruteKnowledge:
    return BruteKnowledge.initial(shape)


@st.composite
def viewed_games(draw, players: tuple[int, ...], max_facts: int = 12, corrupt: int = 10):
    """(shape, the facts one random viewpoint sees)."""
    n = draw(st.sampled_from(players))
    shape = SHAPES[n]
    _, facts = draw(games(shape, n, max_facts=max_facts, corrupt=corrupt))
    kind = draw(st.sampled_from(("spectator", "player", "omniscient")))
    sees = viewpoint_filter(kind, draw(st.sampled_from(PLAYERS[:n])))
    return shape, [f for f in facts if sees(f)]


def assert_numpy_matches_brute(shape: DealShape, facts: list[Fact]) -> None:
    fast = Knowledge.initial(shape).with_facts(facts)
    slow = brute_initial(shape).with_facts(facts)
    assert fast.count() == slow.count()
    assert fast.consistent() == slow.consistent()
    assert fast.determined() == slow.determined()
    assert fast.solutions(40) == slow.solutions(40) or (
        set(fast.solutions(40)) == set(slow.solutions(40)))
    if not slow.consistent():
        return
    assert fast.status() == slow.status()
    exact = slow.probabilities()
    for card, p in fast.probabilities().items():
        assert abs(p - exact[card]) < 1e-9, card
    exact_patterns = slow.pattern_probabilities()
    for pattern, p in fast.pattern_probabilities().items():
        assert abs(p - exact_patterns[pattern]) < 1e-9, pattern


@settings(max_examples=120, **SETTINGS)
@given(viewed_games((3, 4)), st.data())
def test_numpy_matches_brute(game, data):
    shape, facts = game
    cut = data.draw(st.integers(0, len(facts)), label="prefix")
    assert_numpy_matches_brute(shape, facts[:cut])
    assert_numpy_matches_brute(shape, facts)


@settings(max_examples=8, **SETTINGS)  # 57,344 sets in plain Python: a few only
@given(viewed_games((5,), max_facts=8))
def test_numpy_matches_brute_5_players(game):
    assert_numpy_matches_brute(*game)


@settings(max_examples=80, **SETTINGS)
@given(viewed_games((3, 4, 5)))
def test_z3_matches_numpy(game):
    shape, facts = game
    fast = Knowledge.initial(shape).with_facts(facts)
    z3k = Z3Knowledge.initial(shape).with_facts(facts)
    assert z3k.consistent() == fast.consistent()
    if fast.consistent():
        assert z3k.status() == fast.status()


def status_of(shape: DealShape, facts: list[Fact], card: str) -> str:
    return Knowledge.initial(shape).with_facts(facts).status()[card]


@settings(max_examples=80, **SETTINGS)
@given(viewed_games((3, 4, 5), max_facts=14, corrupt=0), st.data())
def test_status_explanations_are_sufficient_and_minimal(game, data):
    shape, facts = game
    status = Knowledge.initial(shape).with_facts(facts).status()
    forced = sorted(c for c, s in status.items() if s != "open")
    event(f"forced cards: {'none' if not forced else 'some'}")
    if not forced:
        return
    card = data.draw(st.sampled_from(forced), label="card")
    core = Z3Knowledge.initial(shape).with_facts(facts).explain_status(card)
    assert all(any(f is g for g in facts) for f in core)
    assert status_of(shape, core, card) == status[card]
    for i in range(len(core)):
        assert status_of(shape, core[:i] + core[i + 1:], card) == "open"


@settings(max_examples=80, **SETTINGS)
@given(viewed_games((3, 4, 5), max_facts=14, corrupt=25))
def test_inconsistency_explanations_are_sufficient_and_minimal(game):
    shape, facts = game
    core = Z3Knowledge.initial(shape).with_facts(facts).explain_inconsistency()
    consistent = Knowledge.initial(shape).with_facts(facts).consistent()
    event(f"consistent: {consistent}")
    if consistent:
        assert core is None
        return
    assert core is not None
    assert Knowledge.initial(shape).with_facts(core).count() == 0
    for i in range(len(core)):
        assert Knowledge.initial(shape).with_facts(core[:i] + core[i + 1:]).count() > 0


@st.composite
def tiny_shapes(draw) -> DealShape:
    """1-3 groups of 0-4 cards, 1-4 distinct patterns (uneven priors)."""
    sizes = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    groups = tuple(tuple(f"g{g}c{i}" for i in range(n)) for g, n in enumerate(sizes))
    pattern = st.tuples(*(st.integers(0, n) for n in sizes))
    patterns = draw(st.lists(pattern, min_size=1, max_size=4, unique=True))
    return DealShape(groups=groups, patterns=tuple(patterns))


@st.composite
def tiny_facts(draw, shape: DealShape) -> Fact:
    """Any linear fact: weights in -2..3 (an unknown card too), any operator."""
    names = list(shape.cards) + ["stranger"]
    cards = draw(st.lists(st.sampled_from(names), max_size=4, unique=True))
    weights = tuple((c, draw(st.integers(-2, 3))) for c in sorted(cards))
    op = draw(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]))
    return Fact(weights, op, draw(st.integers(-2, 5)), source=len(cards))


@settings(max_examples=250, **SETTINGS)
@given(st.data())
def test_engines_agree_on_tiny_shapes(data):
    shape = data.draw(tiny_shapes(), label="shape")
    facts = data.draw(st.lists(tiny_facts(shape), max_size=5), label="facts")
    assert_numpy_matches_brute(shape, facts)
    fast = Knowledge.initial(shape).with_facts(facts)
    z3k = Z3Knowledge.initial(shape).with_facts(facts)
    assert z3k.consistent() == fast.consistent()
    if not fast.consistent():
        core = z3k.explain_inconsistency()
        assert Knowledge.initial(shape).with_facts(core).count() == 0
        for i in range(len(core)):
            assert Knowledge.initial(shape).with_facts(core[:i] + core[i + 1:]).count() > 0
        return
    status = fast.status()
    assert z3k.status() == status
    for card in (c for c, s in status.items() if s != "open"):
        core = z3k.explain_status(card)
        assert status_of(shape, core, card) == status[card]
        for i in range(len(core)):
            assert status_of(shape, core[:i] + core[i + 1:], card) == "open"
