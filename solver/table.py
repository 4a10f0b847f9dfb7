"""One owner's cards in some zones jointly with the solution, as a table of exact counts.

Row r is a content the zones can have (a set of cards, as a mask), column j a
solution (a mask too); ``worlds[r, j]`` counts the deals with that content and
that solution, and ``weight[r, j]`` weighs them as a knowledge's chances do
(the same numbers unless a weighted fact weighs its worlds: see
:mod:`solver.dp`).  Every question about "how many of these cards lie there",
"does this card lie there" and "what is the solution then" is a sum over rows:
a move that observes such a count is valued from one table instead of one
count per value and per card (:mod:`solver.marginal`).

>>> import numpy as np
>>> t = OwnerTable(("a", "b", "c"), np.array([1, 2, 4]), np.array([2, 4]),
...                np.array([[1, 1], [0, 1], [1, 0]]), np.array([[1, 1], [0, 1], [1, 0]]), None)
>>> t.holding(t.mask(["a", "b"])).tolist()
[1, 1, 0]
>>> t.solution_given(["a"])
{'a': (2, {'a': 0, 'b': 1, 'c': 1})}

:meth:`OwnerTable.by_count` sums the same rows by the value of one count, every value and card
at once (arrays, not a dictionary per card): what a move observing that count is valued from.

>>> s = t.by_count(t.mask(["a", "b"]), ["a", "b"])
>>> s.worlds.tolist(), s.held.tolist(), s.given[1, 0].tolist()
([1.0, 3.0], [[0.0, 0.0, 1.0], [2.0, 1.0, 0.0]], [0.0, 1.0, 1.0])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, NamedTuple

import numpy as np

from ..spec.dealmodel import Deal

__all__ = ["OwnerTable", "CountSums"]

#: Sums of whole numbers in float64 are exact below 2**53: :meth:`OwnerTable.by_count` sums in
#: float64 (one matrix product) only when the table's total weight is below this, else in int64.
EXACT = 2 ** 52


class CountSums(NamedTuple):
    """A table's rows summed by the value of one count (index v: the rows where it is v): see
    :meth:`OwnerTable.by_count`.  Whole numbers (float64 where exact, else int64)."""

    worlds: np.ndarray       # (values,): deals
    weight: np.ndarray       # (values,): their weight
    held: np.ndarray         # (values, cards): the weight of those whose zones hold card i
    solution: np.ndarray     # (values, cards): the weight of those with card i in the solution
    given: np.ndarray | None  # (values, named, cards): holding the named card n, with card i in the solution
    one_card: bool = False   # every solution of the table is one card (each value's solution shares add up to 1)


@dataclass(frozen=True, eq=False)
class OwnerTable:
    """Deals by (the zones' content, the solution): see the module's docstring."""

    cards: tuple[str, ...]   # bit i = cards[i]
    held: np.ndarray         # (m,) int64: the zones' content of each row
    solutions: np.ndarray    # (s,) int64: the solution of each column
    worlds: np.ndarray       # (m, s) int64: deals
    weight: np.ndarray       # (m, s) int64: their weight (``worlds`` when nothing weighs them)
    deal: Deal | None

    @cached_property
    def index(self) -> dict[str, int]:
        """card -> its bit (its column in :meth:`by_count`'s sums)."""
        return {c: i for i, c in enumerate(self.cards)}

    @cached_property
    def _holds(self) -> np.ndarray:
        """(m, cards) int64: row r holds card i."""
        return (self.held[:, None] >> np.arange(len(self.cards))) & 1

    @cached_property
    def _row_weight(self) -> np.ndarray:
        return self.weight.sum(axis=1)

    @cached_property
    def _in_solution(self) -> np.ndarray:
        """(s, cards) int64: card i in solution j."""
        return (self.solutions[:, None] >> np.arange(len(self.cards))) & 1

    @cached_property
    def _sums(self) -> np.ndarray:
        """(m, 2 + 2 cards): per row its deals, their weight, the weight of those holding each card
        (``_holds`` times the row's weight) and of those with each card in the solution; float64
        when every sum of them is exact so (:data:`EXACT`), else int64."""
        kind = np.float64 if int(self.weight.sum()) < EXACT and int(self.worlds.sum()) < EXACT else np.int64
        n = len(self.cards)
        out = np.empty((len(self.held), 2 + 2 * n), kind)
        out[:, 0] = self.worlds.sum(axis=1)
        out[:, 1] = self._row_weight
        out[:, 2:2 + n] = self._holds * self._row_weight[:, None]
        out[:, 2 + n:] = self._solution_weight
        return out

    @cached_property
    def _solution_weight(self) -> np.ndarray:
        """(m, cards): per row, the weight of its deals with card i in the solution."""
        return self.weight @ self._in_solution

    def by_count(self, mask: int, named: Iterable[str] = ()) -> CountSums:
        """Every row summed by how many cards of ``mask`` it holds (:meth:`holding`), in one matrix
        product: per value, the deals, their weight, and per card the weight of those holding it
        and of those with it in the solution; for each of ``named`` also those holding it, per
        card in the solution (:meth:`solution_given` of every value at once)."""
        values = self.holding(mask)
        top = int(values.max()) + 1 if len(values) else 0
        sums = self._sums
        by = (values == np.arange(top)[:, None]).astype(sums.dtype)        # (values, m)
        got = by @ sums
        n = len(self.cards)
        given = None
        named = [self.index[c] for c in named]
        if named:
            picked = self._holds_by_card[named]                                          # (k, m)
            rows = (by[:, None, :] * picked[None, :, :]).reshape(top * len(named), len(values))  # (values * k, m)
            given = (rows @ sums[:, 2 + n:]).reshape(top, len(named), n)
        return CountSums(got[:, 0], got[:, 1], got[:, 2:2 + n], got[:, 2 + n:], given, self._one_card)

    @cached_property
    def _holds_by_card(self) -> np.ndarray:
        """(cards, m), of :meth:`by_count`'s type: row r holds card i."""
        return self._holds.T.astype(self._sums.dtype)

    @cached_property
    def _one_card(self) -> bool:
        return bool(np.all(self._in_solution.sum(axis=1) == 1))

    def outside(self, mask: int, values_mask: int) -> np.ndarray:
        """Per value of the count of ``values_mask``'s cards (:meth:`by_count`'s index), whether some
        row of that value with weight holds a card not in ``mask``."""
        values = self.holding(values_mask)
        top = int(values.max()) + 1 if len(values) else 0
        out = np.zeros(top, bool)
        some = (self.held & ~mask) != 0
        some &= self._row_weight > 0
        out[values[some]] = True
        return out

    def mask(self, cards: Iterable[str]) -> int:
        return sum(1 << self.index[c] for c in set(cards))

    def holding(self, mask: int) -> np.ndarray:
        """Per row, how many cards of ``mask`` it holds."""
        return np.bitwise_count(self.held & mask).astype(np.int64)

    def has(self, card: str) -> np.ndarray:
        """Per row, whether it holds ``card``."""
        return self._holds[:, self.index[card]] == 1

    def card_weights(self, rows: np.ndarray) -> tuple[int, dict[str, int]]:
        """Among ``rows`` (a bool mask): (their weight, card -> the weight of those holding it)."""
        weight = self._row_weight[rows]
        return int(weight.sum()), dict(zip(self.cards, (weight @ self._holds[rows]).tolist()))

    def per_solution_card(self, column_sums: np.ndarray) -> dict[str, int]:
        """Column sums (per solution) spread to each card of the solution: card -> total."""
        return dict(zip(self.cards, (column_sums.astype(np.int64) @ self._in_solution).tolist()))

    def solution_given(self, cards: Iterable[str], rows: np.ndarray | None = None
                       ) -> dict[str, tuple[int, dict[str, int]]]:
        """For each of ``cards`` (among ``rows``, a bool mask; every row by default): (the weight of
        the deals where the zones hold it, card -> that of them with the card in the solution)."""
        cards = list(cards)
        holds, weight = (self._holds, self.weight) if rows is None else (self._holds[rows], self.weight[rows])
        picked = holds[:, [self.index[c] for c in cards]]        # (rows, k)
        joint = picked.T @ weight                                # (k, s): per card, per solution
        per_card = joint @ self._in_solution                     # (k, cards)
        return {c: (int(joint[i].sum()), dict(zip(self.cards, per_card[i].tolist()))) for i, c in enumerate(cards)}
