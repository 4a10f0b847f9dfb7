"""Reference engine: plain Python, every solution listed, exact fractions.

Slow but obviously correct; the fast engines are tested against it.

>>> shape = DealShape(groups=(("a", "b"), ("c", "d", "e")), patterns=((1, 1),))
>>> k = BruteKnowledge.initial(shape).with_fact(Fact.count({"a", "c"}, "==", 0))
>>> k.count(), k.status()["b"], k.probabilities()["d"]
(2, 'in', Fraction(1, 2))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Iterable

from .errors import Inconsistent
from .facts import DealShape, Fact
from .shape import set_weight, validate

__all__ = ["Solution", "all_solutions", "BruteKnowledge"]


@dataclass(frozen=True)
class Solution:
    """One solution with the pattern it was drawn with and its prior."""

    cards: frozenset[str]
    pattern: tuple[int, ...]
    weight: Fraction


def all_solutions(shape: DealShape) -> list[Solution]:
    """Every solution the shape can draw."""
    validate(shape)
    solutions = []
    for pattern in shape.patterns:
        weight = set_weight(shape, pattern)
        per_group = [itertools.combinations(group, k)
                     for group, k in zip(shape.groups, pattern)]
        for parts in itertools.product(*per_group):
            cards = frozenset(card for part in parts for card in part)
            solutions.append(Solution(cards, pattern, weight))
    return solutions


@dataclass(frozen=True, eq=False)
class BruteKnowledge:
    """The solutions fitting ``facts``, filtered one fact at a time."""

    shape: DealShape
    remaining: tuple[Solution, ...]

    @classmethod
    def initial(cls, shape: DealShape) -> "BruteKnowledge":
        return cls(shape, tuple(all_solutions(shape)))

    def with_fact(self, fact: Fact) -> "BruteKnowledge":
        return BruteKnowledge(self.shape,
                              tuple(s for s in self.remaining if fact.holds(s.cards)))

    def with_facts(self, facts: Iterable[Fact]) -> "BruteKnowledge":
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    def count(self) -> int:
        return len(self.remaining)

    def consistent(self) -> bool:
        return bool(self.remaining)

    def determined(self) -> bool:
        return len(self.remaining) == 1

    @cached_property
    def _total(self) -> Fraction:
        if not self.remaining:
            raise Inconsistent("no solution fits the facts")
        return sum((s.weight for s in self.remaining), Fraction(0))

    def status(self) -> dict[str, str]:
        if not self.remaining:
            raise Inconsistent("no solution fits the facts")
        result = {}
        for card in self.shape.cards:
            holding = sum(1 for s in self.remaining if card in s.cards)
            result[card] = ("in" if holding == len(self.remaining)
                            else "out" if holding == 0 else "open")
        return result

    def probabilities(self) -> dict[str, Fraction]:
        mass = {card: Fraction(0) for card in self.shape.cards}
        for s in self.remaining:
            for card in s.cards:
                mass[card] += s.weight
        return {card: m / self._total for card, m in mass.items()}

    def pattern_probabilities(self) -> dict[tuple[int, ...], Fraction]:
        mass = {pattern: Fraction(0) for pattern in self.shape.patterns}
        for s in self.remaining:
            mass[s.pattern] += s.weight
        return {pattern: m / self._total for pattern, m in mass.items()}

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        if len(self.remaining) > limit:
            return None
        return [s.cards for s in self.remaining]
