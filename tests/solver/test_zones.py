"""The zone engine (solver/zones.py) against the plain enumeration and Z3, on Clue-shaped decks."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import FullKnowledge
from ruleslawyer.solver.errors import Inconsistent
from ruleslawyer.solver.termsplit import Split
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.solver.zones import ZoneKnowledge, applicable
from ruleslawyer.spec.dealmodel import multinomial
from ruleslawyer.spec.facts import Fact, count, member

from .clue_helpers import ENVELOPE, clue_deal, clue_games, hand, seen_by

SMALL = [clue_deal((3, 3, 3), 3), clue_deal((3, 3, 3), 4), clue_deal((2, 3, 4), 2, public=1)]
MEDIUM = [clue_deal((4, 4, 4), 3), clue_deal((4, 4, 4), 4), clue_deal((4, 4, 4), 2, public=1)]


def agree(deal, facts, reference=BruteKnowledge) -> None:
    """Every answer the same as the plain enumeration's (exact fractions, or numpy's full mode)."""
    slow = reference.initial(deal).with_facts(facts)
    fast = ZoneKnowledge.initial(deal).with_facts(facts)
    assert fast.count() == slow.count()
    assert fast.consistent() == slow.consistent()
    assert fast.solution_count() == slow.solution_count()
    if not slow.consistent():
        with pytest.raises(Inconsistent):
            fast.status()
        assert fast.solutions(10) == []
        return
    assert fast.status() == slow.status()
    exact = slow.zone_probabilities()
    fast_zones = fast.zone_counts()
    for card, zones in exact.items():
        for zone, chance in zones.items():
            assert fast_zones[card][zone] == pytest.approx(chance * slow.count(), abs=1e-6), (card, zone)
    for card, chance in slow.probabilities().items():
        assert fast.solution_counts()[card] == pytest.approx(chance * slow.count(), abs=1e-6)
    listed = fast.solutions(1000)
    assert listed is not None and sorted(map(sorted, listed)) == sorted(map(sorted, slow.solutions(1000)))
    assert fast.determined() == slow.determined()


SEATS = ("spectator", "omniscient", "Ann", "Bob")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_small_decks_agree_with_enumeration_from_every_seat(data):
    deal = data.draw(st.sampled_from(SMALL))
    _world, facts = data.draw(clue_games(deal, max_moves=10, corrupt=10))
    for seat in SEATS:
        agree(deal, seen_by(facts, seat))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_twelve_cards_agree_with_enumeration_from_every_seat(data):
    deal = data.draw(st.sampled_from(MEDIUM))
    _world, facts = data.draw(clue_games(deal, max_moves=8, corrupt=5))
    for seat in SEATS:
        agree(deal, seen_by(facts, seat), FullKnowledge)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_status_agrees_with_z3(data):
    deal = data.draw(st.sampled_from(SMALL + MEDIUM))
    _world, facts = data.draw(clue_games(deal, max_moves=12, corrupt=5))
    for seat in ("spectator", "Ann"):
        seen = seen_by(facts, seat)
        fast = ZoneKnowledge.initial(deal).with_facts(seen)
        z3k = Z3Knowledge.initial(deal).with_facts(seen)
        assert fast.consistent() == z3k.consistent()
        if fast.consistent():
            assert fast.status() == z3k.status()


def full_deck(players: int, public: int = 0):
    return clue_deal((6, 6, 9), players, public)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_full_deck_with_no_facts_is_the_closed_form(players):
    deal = full_deck(players)
    k = ZoneKnowledge.initial(deal)
    sizes = [deal.zone(hand(p)).size for p in deal.players]
    assert k.count() == 6 * 6 * 9 * multinomial(18, sizes)
    assert k.solution_count() == 324
    chances = k.zone_probabilities()
    assert chances["s1"][ENVELOPE] == pytest.approx(1 / 6)
    assert chances["r1"][ENVELOPE] == pytest.approx(1 / 9)
    for p, size in zip(deal.players, sizes):  # 5 of 6 suspects are dealt, a hand takes size of 18
        assert chances["s1"][hand(p)] == pytest.approx(5 / 6 * size / 18)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_full_deck_invariants(data):
    players = data.draw(st.sampled_from([3, 4, 6]))
    public = data.draw(st.sampled_from([0, 0, 18 % players]))
    deal = full_deck(players, public)
    world, facts = data.draw(clue_games(deal, max_moves=25))
    for seat in ("spectator", "Ann", "omniscient"):
        k = ZoneKnowledge.initial(deal).with_facts(seen_by(facts, seat))
        assert k.consistent()  # the facts come from a true deal
        counts = k.zone_counts()
        for card, zones in counts.items():
            assert sum(zones.values()) == k.count()
            assert counts[card][world[card]] > 0
        for zone in deal.zones:  # each zone holds its size on average
            assert sum(counts[c][zone.id] for c in deal.cards) == zone.size * k.count()
        status = k.status()
        assert all(status[c] != "out" for c, z in world.items() if z == ENVELOPE)
        if seat == "omniscient":
            assert k.count() == 1 and k.determined()


def test_a_fact_on_two_zones_is_not_local():
    deal = SMALL[0]
    assert applicable(deal, [Fact(count(["s1"], {hand("Ann")}) == 0)])
    assert not applicable(deal, [Fact(count(["s1"], {hand("Ann"), hand("Bob")}) == 0)])
    k = ZoneKnowledge.initial(deal, fallback=lambda d, fs: ("fallback", len(fs)))
    assert k.with_fact(Fact(member("s1", {hand("Ann"), hand("Bob")}) == 1)) == ("fallback", 1)


def test_uneven_hands_count_by_hand():
    deal = clue_deal((3, 3, 3), 4, hand_sizes=(2, 2, 1, 1))
    k = ZoneKnowledge.initial(deal)
    assert k.count() == 27 * multinomial(6, [2, 2, 1, 1])
    assert k.zone_probabilities()["s1"][hand("Ann")] == pytest.approx(2 / 3 * 2 / 6)
    assert comb(6, 2) * comb(4, 2) * 2 * 27 == k.count()



def test_facts_naming_every_card_of_one_hand_are_counted_exactly():
    """Found by the invariants test: Ann's own hand and her "cannot answer"s name all 21
    cards of one zone, past the 20 a zone's truth table takes.  Such facts are applied card
    by card, so the count is exact.  By hand: Ann holds s1 s2 w1 w2 r1 r2 and none of the
    15 others; the envelope takes one of the 4 suspects, 4 weapons and 7 rooms left, Bob and
    Cat share the other 12 cards, 6 each, Bob at least one of s3, w3, r3."""
    deal = full_deck(3)
    mine = ["s1", "s2", "w1", "w2", "r1", "r2"]
    others = [c for c in deal.cards if c not in mine]
    facts = [Fact(count(mine, {hand("Ann")}) == 6)]
    facts += [Fact(count(others[i:i + 3], {hand("Ann")}) == 0) for i in range(0, 15, 3)]
    facts.append(Fact(count(["s3", "w3", "r3"], {hand("Bob")}) >= 1))
    k = ZoneKnowledge.initial(deal).with_facts(facts)
    # for each envelope: the splits of the 12 cards left where Bob holds at least one of
    # s3, w3, r3 not in the envelope (all splits, less those where those cards all go to Cat)
    by_envelope = {}
    for s in ("s3", "s4", "s5", "s6"):
        for w in ("w3", "w4", "w5", "w6"):
            for r in ("r3", "r4", "r5", "r6", "r7", "r8", "r9"):
                named = {"s3", "w3", "r3"} - {s, w, r}
                by_envelope[s, w, r] = comb(12, 6) - comb(12 - len(named), 6)
    assert not k.estimate and k.count() == sum(by_envelope.values())
    assert k.zone_counts()["s3"][ENVELOPE] == sum(n for e, n in by_envelope.items() if "s3" in e)


SOLUTION_PATHS = {"small sets": (0, 0), "every subset": (64, 1)}  # (_SMALL_MIN_CARDS, _SMALL_SHARE)


@pytest.fixture(params=sorted(SOLUTION_PATHS))
def solution_path(request, monkeypatch):
    """The solution zone counted through its small sets only, or through a table of every subset."""
    from ruleslawyer.solver import zones

    least, share = SOLUTION_PATHS[request.param]
    monkeypatch.setattr(zones, "_SMALL_MIN_CARDS", least)
    monkeypatch.setattr(zones, "_SMALL_SHARE", share)
    return request.param


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_either_solution_path_agrees_with_enumeration_from_every_seat(solution_path, data):
    deal = data.draw(st.sampled_from(SMALL + MEDIUM))
    _world, facts = data.draw(clue_games(deal, max_moves=10, corrupt=5))
    for seat in SEATS:
        agree(deal, seen_by(facts, seat), BruteKnowledge if len(deal.cards) == 9 else FullKnowledge)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_full_deck_small_sets_agree_with_every_subset(data):
    """On the 21 cards the two ways of counting the envelope give the same counts per card and zone."""
    from ruleslawyer.solver import zones

    deal = full_deck(data.draw(st.sampled_from([3, 6])))
    _world, facts = data.draw(clue_games(deal, max_moves=12))
    seen = seen_by(facts, data.draw(st.sampled_from(["spectator", "Ann"])))
    small = ZoneKnowledge.initial(deal).with_facts(seen)
    answers = small.count(), small.zone_counts(), sorted(map(sorted, small.solutions(400) or []))
    saved = zones._SMALL_MIN_CARDS
    zones._SMALL_MIN_CARDS = 64
    try:
        dense = ZoneKnowledge.initial(deal).with_facts(seen)
        assert (dense.count(), dense.zone_counts(), sorted(map(sorted, dense.solutions(400) or []))) == answers
    finally:
        zones._SMALL_MIN_CARDS = saved


@pytest.mark.parametrize("seed", range(6))
def test_summing_out_bits_of_the_terms_matches_a_plain_sum(seed):
    """The halvings that sum out some bits of T (kept bits in order, ``width`` numbers per T)
    against Python's integers, summed term by term into the index of the bits kept."""
    import numpy as np

    from ruleslawyer.solver import zones

    rng = np.random.default_rng(seed)
    r, width = int(rng.integers(1, 9)), int(rng.integers(1, 4))
    drop = sorted(int(b) for b in rng.choice(r, int(rng.integers(0, r + 1)), replace=False))
    kept = [b for b in range(r) if b not in drop]
    x = rng.integers(0, 2**64, size=(1 << r, width), dtype=np.uint64, endpoint=False)
    expected = [[0] * width for _ in range(1 << len(kept))]
    for t in range(1 << r):
        at = sum(((t >> b) & 1) << i for i, b in enumerate(kept))
        for j in range(width):
            expected[at][j] = (expected[at][j] + int(x[t, j])) % 2**64
    got = zones._sum_out(x, drop, width).reshape(1 << len(kept), width)
    assert got.tolist() == expected
    room = np.zeros(x.size, np.uint64)  # the halves written there in turn: the same sums, x untouched
    before = x.copy()
    assert zones._sum_out(x, drop, width, room).reshape(1 << len(kept), width).tolist() == expected
    assert (x == before).all()


@pytest.mark.parametrize("seed", range(8))
def test_a_hand_s_table_read_at_every_term_matches_a_plain_index(seed, monkeypatch):
    """A hand's table read through the split of T (small table of the high parts' values, a
    row each) and multiplied a block at a time, against each term's feature computed plainly:
    the sum of the weights of T's bits plus the part from m, times ``x`` in Python's integers."""
    import numpy as np

    from ruleslawyer.solver import zones

    rng = np.random.default_rng(seed)
    r, m_size = int(rng.integers(0, 11)), int(rng.integers(1, 4))
    weights = [int(w) for w in rng.choice([0, 1, 1, 3, 7, 12, 40], r)]  # zeros and repeats, as in a hand
    fm = np.sort(rng.integers(0, 5, m_size)).astype(np.int64)
    table = rng.integers(0, 2**64, size=sum(weights) + 5, dtype=np.uint64, endpoint=False)
    x = rng.integers(0, 2**64, size=(1 << r, m_size), dtype=np.uint64, endpoint=False)
    side = zones._Hand(0, None, table, fm, Split.of(weights, m_size))  # type: ignore[arg-type]
    feature = [[sum(w for b, w in enumerate(weights) if t >> b & 1) + int(fm[m]) for m in range(m_size)]
               for t in range(1 << r)]
    assert side.gather().tolist() == [[int(table[f]) for f in row] for row in feature]
    monkeypatch.setattr(zones, "_BLOCK", 4)  # several blocks, a short last one
    out = np.zeros_like(x)
    side.times(x, out)
    assert out.tolist() == [[int(x[t, m]) * int(table[f]) % 2**64 for m, f in enumerate(row)]
                            for t, row in enumerate(feature)]
    weight = rng.integers(1, 2**64, size=m_size, dtype=np.uint64, endpoint=False)
    for unit in (True, False):  # unit: every weight is 1
        terms = type("Terms", (), {"r": r, "M": m_size, "weight": np.ones_like(weight) if unit else weight})()
        w = [1] * m_size if unit else [int(v) for v in weight]
        v = [[int(x[t, m]) * int(table[f]) for m, f in enumerate(row)] for t, row in enumerate(feature)]
        by_bit, columns = side.marginals(x, table, terms, unit)
        assert by_bit == [sum(sum(a * b for a, b in zip(v[t], w)) for t in range(1 << r) if t >> b & 1) % 2**64
                          for b in range(r)]
        assert columns.tolist() == [sum(v[t][m] for t in range(1 << r)) % 2**64 for m in range(m_size)]
    other = rng.integers(0, 2**64, size=table.size, dtype=np.uint64, endpoint=False)
    before = x.copy()
    side.times(x, x, other)  # in place, another table
    assert x.tolist() == [[int(before[t, m]) * int(other[f]) % 2**64 for m, f in enumerate(row)]
                          for t, row in enumerate(feature)]


def test_termsplit_docstring_examples():
    """(zones' and smallsets' run with the other modules' in tests/checker/test_codes_and_docs.py)"""
    import doctest

    from ruleslawyer.solver import termsplit

    assert doctest.testmod(termsplit).failed == 0


def test_binomials_are_python_s_in_and_out_of_range():
    """C(n, k) for n, k from -140 to 200 against math.comb (0 where k < 0, k > n, or n < 0; the
    engine's decks are far below 64 cards, and n >= 64 gives 0 as before)."""
    import numpy as np

    from ruleslawyer.solver import zones

    n = np.arange(-140, 201)[:, None]
    k = np.arange(-140, 201)[None, :]
    got = zones._binoms(n, k)
    expected = [[comb(a, b) if 0 <= b <= a < 64 else 0 for b in range(-140, 201)] for a in range(-140, 201)]
    assert got.tolist() == expected
    assert int(zones._binoms(6, 2)) == 15 and int(zones._binoms(np.array([5]), 6)[0]) == 0
