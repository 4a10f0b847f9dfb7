"""A zone's truth table over the subsets of the cards its facts name, built once.

From one step of a game to the next most zones' facts do not change (a
question answered speaks of one hand), so :func:`zone_table` keeps the
tables it built, by zone, named cards and facts, within a byte budget
(:data:`TABLE_BYTES`); a table is read-only, so it can be shared.  The
counting engine's arrays over its terms are taken from :data:`BUFFERS` and
given back, so that one count writes into memory the last one mapped
(within :data:`BUFFER_BYTES`): a fresh array of 16 MB costs thousands of
page faults, about as much time as a pass over it.

>>> from ruleslawyer.spec.facts import count
>>> zone_table("hand:Ann", ("a", "b"), (count(["a", "b"], {"hand:Ann"}) == 1,)).tolist()
[False, True, True, False]
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from math import gcd, lcm
from typing import Sequence

import numpy as np

from ..spec.facts import OPS, And, Atom, Const, FactError, Formula, Lin, Not, Or
from .enumerate import _limit

__all__ = ["truth", "zone_table", "weight_table", "TABLE_BYTES", "BUFFER_BYTES", "BUFFERS"]

#: Bytes of truth tables kept between calls (least recently used first out).
TABLE_BYTES = _limit("TABLE_BYTES", 64 << 20)
#: Bytes of uint64 arrays kept from one count to the next (least recently given first out).
BUFFER_BYTES = _limit("BUFFER_BYTES", 128 << 20)


def truth(formula: Formula, zone: str, cards: Sequence[str], subs: np.ndarray) -> np.ndarray:
    """The formula for each subset (bit i: ``cards[i]`` in the zone)."""
    if isinstance(formula, Const):
        return np.full(subs.shape, formula.truth)
    if isinstance(formula, Atom):
        index = {c: i for i, c in enumerate(cards)}
        value = np.zeros(subs.shape, np.int64)
        for card, zs, w in formula.lin.terms:
            if zone in zs and card in index:
                value += w * ((subs >> index[card]) & 1)
        return OPS[formula.op](value, formula.value)
    if isinstance(formula, And):
        return np.logical_and.reduce([truth(f, zone, cards, subs) for f in formula.parts])
    if isinstance(formula, Or):
        return np.logical_or.reduce([truth(f, zone, cards, subs) for f in formula.parts])
    if isinstance(formula, Not):
        return ~truth(formula.part, zone, cards, subs)
    raise TypeError(f"not a formula: {formula!r}")


class _Tables:
    """Least recently used tables, within a byte budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.tables: OrderedDict[tuple, np.ndarray] = OrderedDict()

    def get(self, key: tuple) -> np.ndarray | None:
        table = self.tables.get(key)
        if table is not None:
            self.tables.move_to_end(key)
        return table

    def put(self, key: tuple, table: np.ndarray) -> None:
        if table.nbytes > self.budget:
            return
        self.tables[key] = table
        self.used += table.nbytes
        while self.used > self.budget:
            _, old = self.tables.popitem(last=False)
            self.used -= old.nbytes


_TABLES = _Tables(TABLE_BYTES)


class _Buffers:
    """uint64 arrays given back after use, kept within a byte budget for the next taker.

    >>> pool = _Buffers(1 << 20)
    >>> a = pool.take((4, 2)); pool.give([a]); pool.take((2, 4)) is not None
    True
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.free: list[np.ndarray] = []
        self.lock = threading.Lock()

    def take(self, shape: tuple[int, ...]) -> np.ndarray:
        """An array of this shape (its content undefined)."""
        size = int(np.prod(shape))
        with self.lock:
            fits = [i for i, a in enumerate(self.free) if a.size >= size]
            if fits:  # the smallest that is large enough, its first ``size`` numbers
                i = min(fits, key=lambda i: self.free[i].size)
                return self.free.pop(i)[:size].reshape(shape)
        return np.empty(shape, np.uint64)

    def give(self, arrays: list[np.ndarray]) -> None:
        """Arrays from :meth:`take`, no longer used."""
        with self.lock:
            self.free.extend((a if a.base is None else a.base).reshape(-1) for a in arrays)
            while self.free and sum(a.nbytes for a in self.free) > self.budget:
                self.free.pop(0)


BUFFERS = _Buffers(BUFFER_BYTES)


def zone_table(zone: str, cards: Sequence[str], formulas: Sequence[Formula]) -> np.ndarray:
    """The conjunction of ``formulas`` for each subset of ``cards`` (bit i: ``cards[i]`` in
    ``zone``), as a read-only bool array of ``2**len(cards)`` rows."""
    key = (zone, tuple(cards), tuple(formulas))
    table = _TABLES.get(key)
    if table is None:
        subs = np.arange(1 << len(cards), dtype=np.int64)
        table = np.ones(len(subs), bool)
        for f in formulas:
            table &= truth(f, zone, cards, subs)
        table.flags.writeable = False
        _TABLES.put(key, table)
    return table


def weight_table(zone: str, cards: Sequence[str], table: np.ndarray,
                 likelihoods: Sequence["Lin | tuple[Formula, ...]"]) -> np.ndarray:
    """``table`` (bool) with each allowed subset weighed by the product of ``1/k`` over the
    likelihoods (a count, or choices as formulas: k those that hold), scaled to whole numbers:
    uint64, the common multiple of each ``k``'s values taken out, then the entries' greatest
    common divisor (a factor every world shares).

    >>> from ruleslawyer.spec.facts import count
    >>> t = np.array([False, True, True, True])
    >>> weight_table("h", ("a", "b"), t, (count(["a", "b"], {"h"}),)).tolist()
    [0, 2, 2, 1]
    >>> weight_table("h", ("a", "b"), t, ((count(["a"], {"h"}) == 1, count(["b"], {"h"}) == 1),)).tolist()
    [0, 2, 2, 1]
    """
    subs = np.arange(len(table), dtype=np.int64)
    index = {c: i for i, c in enumerate(cards)}
    out = [1] * len(table)
    for lin in likelihoods:
        if isinstance(lin, tuple):
            k = np.zeros(len(table), np.int64)
            for choice in lin:
                k += truth(choice, zone, cards, subs)
        else:
            k = np.full(len(table), lin.constant, np.int64)
            for card, zs, w in lin.terms:
                if zone in zs and card in index:
                    k += w * ((subs >> index[card]) & 1)
        held = k[table]
        if len(held) and held.min() < 1:
            raise FactError("a choice among fewer than one possibility in a world where the fact holds")
        common = lcm(*(int(v) for v in np.unique(held))) if len(held) else 1
        out = [o * (common // int(v)) if t else 0 for o, v, t in zip(out, k.tolist(), table.tolist())]
    shared = gcd(*out) or 1
    top = max(out) // shared
    if top >= 2**63:
        raise OverflowError("a zone's weights are too large to count exactly")
    return np.array([o // shared for o in out], np.uint64)
