"""Exact counting and probabilities by enumerating every solution with numpy.

A :class:`Space` lists every solution a :class:`DealShape` can draw, once per
shape (cached).  A :class:`Knowledge` is the subset still fitting some facts,
kept as a packed bit mask over that list, so adding a fact is one vectorised
AND and every query is a popcount.

>>> shape = DealShape(groups=(("a", "b"), ("c", "d", "e")), patterns=((1, 1),))
>>> k = Knowledge.initial(shape).with_fact(Fact.count({"a", "c"}, "==", 0))
>>> k.count(), k.status()["b"], round(k.probabilities()["d"], 3)
(2, 'in', 0.5)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb, prod
from typing import Iterable

import numpy as np

from .errors import Inconsistent, SolverError
from .facts import DealShape, Fact, compare
from .shape import set_weight, validate

__all__ = ["Space", "Knowledge", "MAX_SETS"]

#: Refuse to enumerate more solutions than this (memory: ~cards bytes each).
MAX_SETS = 20_000_000

_WORD = 64
_LE64 = np.dtype("<u8")
_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def _popcount_by_table(words: np.ndarray) -> np.ndarray:
    """Set bits per 64-bit word, for numpy < 2.0 (no ``np.bitwise_count``)."""
    as_bytes = np.ascontiguousarray(words).view(np.uint8)
    return _BYTE_POPCOUNT[as_bytes].reshape(*words.shape, 8).sum(axis=-1, dtype=np.uint8)


_popcount = getattr(np, "bitwise_count", _popcount_by_table)


def _pack(flags: np.ndarray) -> np.ndarray:
    """Pack booleans (last axis a multiple of 64) into little-endian words."""
    return np.packbits(flags, axis=-1, bitorder="little").view(_LE64)


def _block(shape: DealShape, pattern: tuple[int, ...]) -> np.ndarray:
    """Every solution drawn with ``pattern``: (n, n_cards) uint8, in product order."""
    parts = []
    for group, k in zip(shape.groups, pattern):
        combos = list(itertools.combinations(range(len(group)), k))
        member = np.zeros((len(combos), len(group)), np.uint8)
        for row, chosen in enumerate(combos):
            member[row, list(chosen)] = 1
        parts.append(member)
    if not parts:
        return np.zeros((1, 0), np.uint8)
    grid = np.indices([len(p) for p in parts]).reshape(len(parts), -1)
    return np.concatenate([p[g] for p, g in zip(parts, grid)], axis=1)


@dataclass(frozen=True, eq=False)
class Space:
    """Every solution of a shape, as per-card columns.

    Solutions are grouped by pattern, each pattern's block padded with empty
    slots to a whole number of 64-bit words so that per-pattern counts are
    plain sums over word ranges.  Padding slots are never in a mask.
    """

    shape: DealShape
    cards: tuple[str, ...]
    index: dict[str, int]
    columns: np.ndarray      # uint8 (n_cards, n_slots): card in the slot's solution
    bits: np.ndarray         # <u8 (n_cards, n_words): the same, packed
    valid: np.ndarray        # <u8 (n_words,): slots holding a real solution
    block_start: np.ndarray  # intp (n_patterns,): first word of each pattern's block
    set_weight: np.ndarray   # float64 (n_patterns,): prior of one solution of each
    n_sets: int

    @classmethod
    def of(cls, shape: DealShape) -> "Space":
        """The (cached) space of ``shape``."""
        return _space_of(shape)

    @classmethod
    def build(cls, shape: DealShape) -> "Space":
        validate(shape)
        n_sets = sum(_n_sets(shape, p) for p in shape.patterns)
        if n_sets > MAX_SETS:
            raise SolverError(f"{n_sets} solutions are too many to enumerate")
        blocks, valid, starts, slots = [], [], [], 0
        for pattern in shape.patterns:
            block = _block(shape, pattern)
            pad = -len(block) % _WORD
            starts.append(slots // _WORD)
            blocks.append(np.pad(block, ((0, pad), (0, 0))))
            valid.append(np.arange(len(block) + pad) < len(block))
            slots += len(block) + pad
        columns = np.ascontiguousarray(np.concatenate(blocks).T)
        weights = np.array([float(set_weight(shape, p)) for p in shape.patterns])
        space = cls(
            shape=shape,
            cards=shape.cards,
            index={c: i for i, c in enumerate(shape.cards)},
            columns=columns,
            bits=np.ascontiguousarray(_pack(columns.astype(bool))),
            valid=_pack(np.concatenate(valid)),
            block_start=np.array(starts, dtype=np.intp),
            set_weight=weights,
            n_sets=n_sets,
        )
        for array in (columns, space.bits, space.valid, space.block_start, weights):
            array.flags.writeable = False
        return space

    def knowledge(self) -> "Knowledge":
        """Nothing known yet: every solution is possible."""
        return Knowledge(self, self.valid)

    def fact_mask(self, fact: Fact) -> np.ndarray:
        """Packed mask of the slots whose solution satisfies ``fact``."""
        terms = [(self.index[c], w) for c, w in fact.weights if w and c in self.index]
        if not terms:
            holds = bool(compare(fact.op, 0, fact.value))
            return np.full(self.valid.shape, np.iinfo(np.uint64).max if holds else 0, _LE64)
        if len(terms) < 256 and all(w == 1 for _, w in terms):
            total = self.columns[terms[0][0]].copy()  # uint8 cannot overflow here
            for i, _ in terms[1:]:
                total += self.columns[i]
        else:
            total = np.zeros(self.columns.shape[1], np.int64)
            for i, w in terms:
                total += self.columns[i].astype(np.int64) * w
        return _pack(compare(fact.op, total, fact.value))

    def decode(self, slot: int) -> frozenset[str]:
        """The solution held in one slot."""
        return frozenset(self.cards[i] for i in np.flatnonzero(self.columns[:, slot]))


def _n_sets(shape: DealShape, pattern: tuple[int, ...]) -> int:
    return prod(comb(len(group), k) for group, k in zip(shape.groups, pattern))


@lru_cache(maxsize=32)
def _space_of(shape: DealShape) -> Space:
    return Space.build(shape)


@dataclass(frozen=True, eq=False)
class Knowledge:
    """The solutions still fitting the facts added so far (immutable).

    Queries are cached on the instance; ``with_fact`` returns a new one.
    """

    space: Space
    mask: np.ndarray  # <u8 (n_words,)

    def __post_init__(self) -> None:
        self.mask.flags.writeable = False

    @classmethod
    def initial(cls, shape: DealShape) -> "Knowledge":
        return Space.of(shape).knowledge()

    def with_fact(self, fact: Fact) -> "Knowledge":
        return Knowledge(self.space, self.mask & self.space.fact_mask(fact))

    def with_facts(self, facts: Iterable[Fact]) -> "Knowledge":
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    def with_mask(self, mask: np.ndarray) -> "Knowledge":
        """AND a mask from :meth:`Space.fact_mask` (to reuse one across viewpoints)."""
        return Knowledge(self.space, self.mask & mask)

    @cached_property
    def _pattern_counts(self) -> np.ndarray:
        """Remaining solutions per pattern, int64 (n_patterns,)."""
        return np.add.reduceat(_popcount(self.mask), self.space.block_start,
                               dtype=np.int64)

    @cached_property
    def _card_counts(self) -> np.ndarray:
        """Remaining solutions per card and pattern, int64 (n_cards, n_patterns)."""
        counts = _popcount(self.space.bits & self.mask)
        return np.add.reduceat(counts, self.space.block_start, axis=1, dtype=np.int64)

    def count(self) -> int:
        """Number of solutions left."""
        return int(self._pattern_counts.sum())

    def consistent(self) -> bool:
        return bool(self.mask.any())

    def determined(self) -> bool:
        """Exactly one solution is left."""
        return self.count() == 1

    def _require_consistent(self) -> int:
        n = self.count()
        if n == 0:
            raise Inconsistent("no solution fits the facts")
        return n

    def status(self) -> dict[str, str]:
        """Card → "in" (in every solution left), "out" (in none) or "open"."""
        n = self._require_consistent()
        totals = self._card_counts.sum(axis=1).tolist()
        return {card: "in" if t == n else "out" if t == 0 else "open"
                for card, t in zip(self.space.cards, totals)}

    def probabilities(self) -> dict[str, float]:
        """Card → probability that it is in the solution, given the facts."""
        self._require_consistent()
        w = self.space.set_weight
        probs = (self._card_counts @ w) / (self._pattern_counts @ w)
        return dict(zip(self.space.cards, probs.tolist()))

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        """Pattern → probability that the solution was drawn with it."""
        self._require_consistent()
        mass = self._pattern_counts * self.space.set_weight
        return dict(zip(self.space.shape.patterns, (mass / mass.sum()).tolist()))

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        """Every solution left, or None when more than ``limit`` are left."""
        if self.count() > limit:
            return None
        flags = np.unpackbits(self.mask.view(np.uint8), bitorder="little")
        return [self.space.decode(slot) for slot in np.flatnonzero(flags)]
