"""Sums over the small sets only (solver/smallsets.py) against a plain loop over every subset."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.solver.smallsets import SmallSets


@st.composite
def plans(draw):
    k = draw(st.integers(0, 7))
    n_groups = draw(st.integers(1, 3))
    groups = draw(st.lists(st.integers(0, n_groups - 1), min_size=k, max_size=k))
    if draw(st.booleans()):
        groups = sorted(groups)  # as the engine lays them out: runs of one group
    caps = draw(st.lists(st.integers(0, 2), min_size=n_groups, max_size=n_groups))
    return tuple(groups), tuple(caps), draw(st.integers(0, 4))


@settings(max_examples=150, deadline=None)
@given(plans(), st.integers(0, 2**32))
def test_small_sets_and_their_sums_are_those_of_a_plain_loop(plan_args, seed):
    groups, caps, size = plan_args
    k = len(groups)
    plan = SmallSets.plan(groups, caps, size)
    small = [u for u in range(1 << k) if bin(u).count("1") <= size
             and all(sum(1 for i in range(k) if u >> i & 1 and groups[i] == g) <= cap for g, cap in enumerate(caps))]
    assert sorted(plan.sets.tolist()) == small
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2**63, (1 << k, 2), dtype=np.uint64) * np.uint64(3)  # wraps: sums are mod 2**64
    got = plan.superset_sums(a)
    for row, u in enumerate(plan.sets.tolist()):
        for e in range(2):
            assert int(got[row, e]) == sum(int(a[t, e]) for t in range(1 << k) if t & u == u) % 2**64
    f = rng.integers(0, 2**63, (len(plan.sets), 2), dtype=np.uint64) * np.uint64(5)
    back = plan.subset_sums(f)
    for t in range(1 << k):
        for e in range(2):
            assert int(back[t, e]) == sum(int(f[row, e]) for row, u in enumerate(plan.sets.tolist())
                                          if t & u == u) % 2**64


@settings(max_examples=100, deadline=None)
@given(plans(), st.integers(0, 2**32), st.booleans())
def test_signed_sums_in_given_arrays_are_those_of_a_plain_loop(plan_args, seed, spare):
    """With each T weighed by (-1)**|T| (the terms' signs), written into arrays given (``spare``,
    ``out``) or fresh ones: the same as a plain loop in Python's integers."""
    groups, caps, size = plan_args
    k = len(groups)
    plan = SmallSets.plan(groups, caps, size)
    sign = [(-1) ** bin(t).count("1") for t in range(1 << k)]
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2**63, (1 << k, 2), dtype=np.uint64) * np.uint64(3)
    plain = a.copy()
    room = np.full(2 << k, 7, np.uint64) if spare else None
    got = plan.superset_sums(a, signed=True, spare=room)
    for row, u in enumerate(plan.sets.tolist()):
        for e in range(2):
            assert int(got[row, e]) == sum(sign[t] * int(plain[t, e]) for t in range(1 << k) if t & u == u) % 2**64
    f = rng.integers(0, 2**63, (len(plan.sets), 2), dtype=np.uint64) * np.uint64(5)
    out = np.full((1 << k, 2), 9, np.uint64)
    back = plan.subset_sums(f, signed=True, out=out, spare=room)
    assert np.shares_memory(back, out)
    for t in range(1 << k):
        for e in range(2):
            assert int(out[t, e]) == sign[t] * sum(int(f[row, e]) for row, u in enumerate(plan.sets.tolist())
                                                   if t & u == u) % 2**64


def test_clue_envelope_has_seven_by_seven_by_ten_small_sets():
    groups = (0,) * 6 + (1,) * 6 + (2,) * 9
    plan = SmallSets.plan(groups, (1, 1, 1), 3)
    assert len(plan.sets) == 7 * 7 * 10
    assert plan.work < 6 << 21  # a few passes over the 2**21 subsets, not one per card
