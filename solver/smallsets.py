"""Sums over the supersets (or subsets) of the small sets only: what a zone of few cards needs.

A zone that holds ``size`` cards, at most ``caps[g]`` of each group ``g``,
reads an array over every subset T of ``k`` cards only through the sets U
it may hold: ``R(U) = sum over T containing U of A(T)`` for those U, and,
the other way, ``F(T) = sum over U inside T of f(U)``.  The full transforms
take ``k`` passes over all ``2**k`` subsets; here the bits are taken one at
a time (the highest first), keeping one array per small set of the bits
taken so far, over the bits not yet taken: each step halves the arrays, so
the work is a few passes in all when few sets are small (a zone holding one
card of each of three groups of 6, 6 and 9 cards: 7 x 7 x 10 sets of 21
cards, not 2**21).  Exact modulo
2**64 on uint64 (additions only).

>>> import numpy as np
>>> plan = SmallSets.plan((0, 0, 1), (1, 1), 2)     # 3 cards: groups 0, 0, 1; one of each group
>>> [sorted(i for i in range(3) if u >> i & 1) for u in plan.sets.tolist()]
[[], [2], [1], [1, 2], [0], [0, 2]]
>>> a = np.arange(8, dtype=np.uint64).reshape(8, 1)
>>> plan.superset_sums(a)[:, 0].tolist()                # e.g. {0, 2}: a[0b101] + a[0b111]
[28, 22, 18, 13, 16, 12]
>>> f = np.ones((6, 1), np.uint64)
>>> plan.subset_sums(f)[:, 0].tolist()                  # small sets inside each T
[1, 2, 2, 3, 2, 4, 4, 6]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["SmallSets"]


def _len(sel: np.ndarray | slice) -> int:
    return sel.stop - sel.start if isinstance(sel, slice) else len(sel)

_U64 = np.uint64


@dataclass(frozen=True)
class SmallSets:
    """The small sets of ``k`` cards and the steps that reach them (see the module docstring)."""

    k: int
    sets: np.ndarray                     # (n,) int64: each small set as a bit mask
    steps: tuple[tuple[int, np.ndarray | slice], ...]  # per bit taken: sets before it, those that may add it
    work: int                            # array entries written by one transform

    @staticmethod
    def plan(groups: Sequence[int], caps: Sequence[int], size: int) -> "SmallSets":
        """The sets with at most ``caps[g]`` cards of group ``g`` (card i: ``groups[i]``) and at
        most ``size`` cards; bit i of a set is card i."""
        k = len(groups)
        sets = [0]
        held = [(0,) * len(caps)]
        steps = []
        work = 0
        for bit in reversed(range(k)):
            g = groups[bit]
            sel = [i for i, h in enumerate(held) if h[g] < caps[g] and sum(h) < size]
            # a run of sets (as with cards sorted by group) is a slice: no fancy indexing
            run = not sel or sel == list(range(sel[0], sel[0] + len(sel)))
            steps.append((len(sets), slice(sel[0], sel[0] + len(sel)) if sel and run else
                          slice(0, 0) if run else np.array(sel, np.int64)))
            sets = sets + [sets[i] | 1 << bit for i in sel]
            held = held + [tuple(x + (j == g) for j, x in enumerate(held[i])) for i in sel]
            work += len(sets) << bit
        return SmallSets(k, np.array(sets, np.int64), tuple(steps), work)

    def superset_sums(self, a: np.ndarray, signed: bool = False, spare: np.ndarray | None = None) -> np.ndarray:
        """``a`` (2**k, E) -> (len(sets), E): for each small set U, the sum of ``a`` over T containing U
        (``signed``: each T weighed by (-1)**|T|, as a subtraction at each halving and a sign per
        set at the end).  With ``spare`` (an array of as many numbers or more) the steps write
        into it and into ``a`` in turn (``a`` is overwritten; no fresh array over the terms)."""
        e = a.shape[1]
        x = a.reshape(1, 1 << self.k, e)
        room, turn = (a, spare), 1
        sign = np.zeros(1, bool)  # per set so far: its stored sum is the negated one
        for n, sel in self.steps:
            half = x.shape[1] // 2
            x = x.reshape(n, 2, half, e)
            out = _room(room[turn] if spare is not None else None, (n + _len(sel), half, e))
            (np.subtract if signed else np.add)(x[:, 0], x[:, 1], out=out[:n])
            out[n:] = x[sel, 1]
            if signed:  # the sets with the bit: only T holding it, one card more
                sign = np.concatenate((sign, ~sign[sel]))
            x, turn = out, 1 - turn
        got = x.reshape(len(self.sets), e)
        if signed and sign.any():
            got = got * np.where(sign, _U64(2**64 - 1), _U64(1))[:, None]
        return got

    def subset_sums(self, f: np.ndarray, signed: bool = False, out: np.ndarray | None = None,
                    spare: np.ndarray | None = None) -> np.ndarray:
        """``f`` (len(sets), E) -> (2**k, E): for each T, the sum of ``f`` over the small sets inside it
        (the transpose of :meth:`superset_sums`; ``signed``: times (-1)**|T|, a negation at each
        doubling).  With ``out`` (2**k, E) the result is written there, and with ``spare`` too the
        steps write into the two in turn."""
        e = f.shape[1]
        y = f.reshape(len(self.sets), 1, e).astype(_U64, copy=False)
        room = (out, spare)
        for left, (n, sel) in zip(range(len(self.steps) - 1, -1, -1), reversed(self.steps)):
            half = y.shape[1]
            nxt = _room(room[left % 2], (n, 2, half, e))
            nxt[:, 0] = y[:n]
            if signed:
                np.negative(y[:n], out=nxt[:, 1])
                nxt[sel, 1] -= y[n:]
            else:
                nxt[:, 1] = y[:n]
                nxt[sel, 1] += y[n:]
            y = nxt.reshape(n, 2 * half, e)
        got = y.reshape(1 << self.k, e)
        if out is not None and not np.shares_memory(got, out):
            out[...] = got
            return out
        return got


def _room(buffer: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The first numbers of ``buffer`` (contiguous uint64) as an array of this shape, when it
    holds enough; else a fresh array."""
    size = int(np.prod(shape))
    if buffer is not None and buffer.size >= size:
        return buffer.reshape(-1)[:size].reshape(shape)
    return np.empty(shape, _U64)
