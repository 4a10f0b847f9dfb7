"""spec/tally.py's Tally against the standard library's multiset (collections.Counter)."""

from __future__ import annotations

import collections

from hypothesis import given, strategies as st

from ruleslawyer.spec.tally import Tally

ITEMS = st.lists(st.sampled_from("abcde"), max_size=12)


@given(ITEMS, ITEMS, st.sampled_from("abcdez"))
def test_tally_counts_as_the_standard_library_does(items, less, probe):
    mine, theirs = Tally(items), collections.Counter(items)
    assert dict(mine) == dict(theirs) and mine[probe] == theirs[probe]
    assert (probe in mine) == (probe in theirs)  # reading a missing thing does not add it
    mine.subtract(less)
    theirs.subtract(less)
    assert {k: v for k, v in mine.items() if v} == {k: v for k, v in theirs.items() if v}
    assert sorted(mine.elements()) == sorted(theirs.elements())
