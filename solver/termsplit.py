"""Where each term of a count reads a table whose index is additive over the bits of T.

The zone engine (:mod:`solver.zones`) sums over terms: subsets T of a few
cards (bit b of T: one card) times numbers m.  A zone's table is read at a
feature of each term that adds a weight per bit of T set (and a part from
m).  Reading it through an index array over the terms costs a 16 MB index
per table and a slow element-by-element read; instead T is split into a
high and a low part: the table is read first at every value the high part
takes (few) and every low part (a small table), then each term takes its
row whole (a copy of ``2**lo * M`` numbers per high part).

>>> import numpy as np
>>> split = Split.of([1, 4, 4], 1)      # bit 0 adds 1, bits 1 and 2 add 4 each
>>> table = np.arange(20) * 10
>>> small = table[split.values[:, None] + split.low[None, :]]
>>> small[split.code].reshape(-1).tolist()   # T = 0..7: features 0, 1, 4, 5, 4, 5, 8, 9
[0, 10, 40, 50, 40, 50, 80, 90]
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence

import numpy as np

__all__ = ["Split", "subset_sums_of"]

#: Terms (times M) at most for which a table is read as one row (the split's cost is Python's).
_WHOLE = 1 << 12


def subset_sums_of(weights: Sequence[int]) -> np.ndarray:
    """For every T < 2**len(weights): the sum of ``weights[b]`` over the bits b of T (int64)."""
    out = np.zeros(1, np.int64)
    for w in weights:
        out = np.concatenate((out, out + w))
    return out


@dataclass(frozen=True)
class Split:
    """Where each term reads a side whose feature is additive over T's bits: T is a high part h
    and a low part l (``lo`` bits), and the feature ``values[code[h]] + low[l] + fm[m]``.  A
    gather first reads the small table of every high value seen times every (l, m), then each
    term's row whole (a copy of ``2**lo * M`` numbers per high part, no index per term)."""

    lo: int
    values: np.ndarray    # (U,) the distinct features of the high parts
    code: np.ndarray      # (2**(r - lo),) intp: each high part's value, an index into ``values``
    low: np.ndarray       # (2**lo,) the feature of each low part

    @staticmethod
    def of(weights: Sequence[int], m_size: int) -> "Split":
        """The split for a feature adding ``weights[b]`` (0 or more) when bit b of T is set: the low bits
        chosen to make the small table and the rows' count both small (distinct high values
        counted as if equal weights were interchangeable and different ones independent)."""
        r = len(weights)
        if m_size << r <= _WHOLE:  # few terms: one row, read through a plain index
            return Split(r, np.zeros(1, np.int64), np.zeros(1, np.intp), subset_sums_of(weights))

        def high_values(lo: int) -> int:
            seen: dict[int, int] = {}
            for w in weights[lo:]:
                if w:
                    seen[w] = seen.get(w, 0) + 1
            return prod(n + 1 for n in seen.values())

        # measured on 2**21 terms: an entry of the small table costs about four times as much as
        # a row copied (rows of 32 numbers are fine; a large small table is not)
        lo = min(range(r + 1), key=lambda lo: 4 * high_values(lo) * (m_size << lo) + (1 << (r - lo)))
        high = subset_sums_of(weights[lo:])
        seen = np.zeros(int(high.max()) + 1, bool)  # features are small numbers: no sort
        seen[high] = True
        rank = np.cumsum(seen, dtype=np.intp) - 1
        return Split(lo, np.flatnonzero(seen), rank[high], subset_sums_of(weights[:lo]))
