"""The hidden-counter search against brute force over every assignment."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.checker.hidden import CounterLedger

SUPPLY = {0: 2, 1: 1, 2: 2}
OWNERS = ("A", "B", "C")


def brute(owners: dict[int, str], known: dict[int, int], groups: list[tuple[tuple[int, ...], tuple[int, ...]]],
          supply: dict[int, int]) -> list[dict[int, int]]:
    """Every assignment of values to counters that fits, by enumeration."""
    keys = sorted(owners)
    fits = []
    for values in product(sorted(supply), repeat=len(keys)):
        a = dict(zip(keys, values))
        if any(a[k] != v for k, v in known.items()):
            continue
        if any(Counter(a[k] for k in ks) != Counter(vs) for ks, vs in groups):
            continue
        used = Counter((owners[k], a[k]) for k in keys if k in known or any(k in ks for ks, _ in groups))
        if any(n > supply[v] for (_o, v), n in used.items()):
            continue
        fits.append(a)
    return fits


@st.composite
def ledgers(draw):
    n = draw(st.integers(1, 6))
    owners = {k: draw(st.sampled_from(OWNERS)) for k in range(n)}
    known = {k: draw(st.sampled_from(sorted(SUPPLY))) for k in range(n) if draw(st.booleans()) and draw(st.booleans())}
    groups = []
    for _ in range(draw(st.integers(0, 3))):
        keys = tuple(draw(st.lists(st.sampled_from(range(n)), min_size=1, max_size=3, unique=True)))
        values = tuple(draw(st.sampled_from(sorted(SUPPLY))) for _ in keys)
        groups.append((keys, values))
    return owners, known, groups


@settings(max_examples=300, deadline=None)
@given(ledgers())
def test_search_agrees_with_brute_force(case):
    owners, known, groups = case
    ledger = CounterLedger(SUPPLY)
    for k, o in owners.items():
        ledger.place(k, o)
    for k, v in known.items():
        ledger.record(k, v, None, "placed")
    accepted = groups
    for i, (keys, values) in enumerate(groups):
        if ledger.reveal(keys, values, None) is not None:
            accepted = groups[:i]  # a record contradicted: the ledger keeps nothing of it
            break
    fits = brute(owners, known, list(accepted), SUPPLY)
    assert ledger.feasible() == bool(fits)
    if fits:
        forced = ledger.forced()
        for k, v in forced.items():
            assert all(a[k] == v for a in fits)
        grouped = {k for ks, _ in accepted for k in ks}
        for k in grouped - set(known):
            if len({a[k] for a in fits}) == 1:
                assert k in forced or ledger.value(k) is not None


def test_a_contradicting_reveal_is_a_conflict_and_records_nothing():
    ledger = CounterLedger(SUPPLY)
    ledger.place(1, "A")
    ledger.place(2, "B")
    ledger.record(1, 2, None, "placed")
    conflict = ledger.reveal((1, 2), (0, 0), None)
    assert conflict is not None and conflict.earlier.value == 2
    assert ledger.groups == [] and ledger.value(2) is None
