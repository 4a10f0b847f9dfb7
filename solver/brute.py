"""Reference engine: plain Python, every full deal listed, exact fractions.

Each deck is dealt every way there is (each zone in turn takes every
combination of the cards left); a deal is kept when it fits a pattern of
each of the deck's constraints, with the prior of :mod:`spec.dealmodel`:
``1 / (pattern choices * deals fitting the same patterns)``.  A world is one
deal of every deck.  Never projected, never vectorised: slow but obviously
correct, and the fast engines are tested against it.

>>> from ruleslawyer.spec.dealmodel import Deck, GroupCount, Zone
>>> from ruleslawyer.spec.facts import count
>>> hands = ("hand:Ann", "hand:Bob")
>>> deck = Deck("d", ("a", "b", "c", "d", "e"),
...             (Zone("hand:Ann", "hand", "Ann", 1, "owner"), Zone("hand:Bob", "hand", "Bob", 1, "owner"),
...              Zone("rest", "rest", None, 3)),
...             (GroupCount(hands, (("a", "b"), ("c", "d", "e")), ((1, 1),)),))
>>> k = BruteKnowledge.initial(Deal((deck,), solution=hands)).with_fact(Fact(count(["a", "c"], hands) == 0))
>>> k.deal_count(), k.solution_count(), k.status()["b"], k.probabilities()["d"]
(4, 2, 'in', Fraction(1, 2))
>>> k.zone_probabilities()["b"]
{'hand:Ann': Fraction(1, 2), 'hand:Bob': Fraction(1, 2), 'rest': Fraction(0, 1)}
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import prod
from typing import Iterable, Iterator

from ..spec.dealmodel import Deal, Deck, GroupCount, Zone
from ..spec.facts import Fact
from ..spec.tally import Tally
from .engine import add_facts
from .errors import Inconsistent
from .frame import validate

__all__ = ["World", "deck_deals", "all_worlds", "BruteKnowledge"]


@dataclass(frozen=True)
class World:
    """One deal of every deck: where each card is, its prior, its solution."""

    zones: dict[str, str]               # card -> zone id
    weight: Fraction
    pattern: tuple[int, ...] | None     # of the solution deck's first constraint
    solution: frozenset[str]


def _assignments(cards: tuple[str, ...], zones: tuple[Zone, ...]) -> Iterator[dict[str, str]]:
    """Every way to put ``cards`` into ``zones`` (sizes adding up to the cards)."""
    if not zones:
        yield {}
        return
    first, rest = zones[0], zones[1:]
    for chosen in itertools.combinations(cards, first.size):
        left = tuple(c for c in cards if c not in chosen)
        for tail in _assignments(left, rest):
            yield {**dict.fromkeys(chosen, first.id), **tail}


def _pattern(constraint: GroupCount, zones: dict[str, str]) -> tuple[int, ...]:
    """How many cards of each group the constraint's zones hold in this deal."""
    return tuple(sum(1 for c in group if zones[c] in constraint.zones) for group in constraint.groups)


def deck_deals(deck: Deck) -> list[tuple[dict[str, str], Fraction, tuple[tuple[int, ...], ...]]]:
    """Every deal of one deck fitting its constraints: (card -> zone, prior, patterns)."""
    kept = []
    for zones in _assignments(deck.cards, deck.zones):
        patterns = tuple(_pattern(g, zones) for g in deck.constraints)
        if all(p in g.patterns for p, g in zip(patterns, deck.constraints)):
            kept.append((zones, patterns))
    fitting = Tally(patterns for _zones, patterns in kept)
    choices = prod(len(g.patterns) for g in deck.constraints)
    return [(zones, Fraction(1, choices * fitting[patterns]), patterns) for zones, patterns in kept]


@lru_cache(maxsize=4)
def all_worlds(deal: Deal) -> tuple[World, ...]:
    """Every world of the deal (one deal per deck), with its prior."""
    validate(deal)
    solution_zones = set(deal.solution)
    per_deck = [deck_deals(deck) for deck in deal.decks]
    first_pattern = [bool(d.constraints) and d is deal.solution_deck for d in deal.decks]
    worlds = []
    for combo in itertools.product(*per_deck):
        zones: dict[str, str] = {}
        pattern = None
        for (deck_zones, _weight, patterns), is_solution_deck in zip(combo, first_pattern):
            zones.update(deck_zones)
            if is_solution_deck:
                pattern = patterns[0]
        solution = frozenset(c for c, z in zones.items() if z in solution_zones)
        worlds.append(World(zones, prod((w for _z, w, _p in combo), start=Fraction(1)), pattern, solution))
    return tuple(worlds)


@dataclass(frozen=True, eq=False)
class BruteKnowledge:
    """The worlds fitting the facts so far, filtered one fact at a time.

    A weighted fact (:attr:`Fact.likelihood`) keeps a world with its weight divided by
    the fact's :meth:`~Fact.divisor` there: chances are weighted, counts are not.
    """

    deal: Deal
    remaining: tuple[World, ...]

    worlds = "deals"

    @classmethod
    def initial(cls, deal: Deal) -> "BruteKnowledge":
        return cls(deal, all_worlds(deal))

    def with_fact(self, fact: Fact) -> "BruteKnowledge":
        kept = tuple(w for w in self.remaining if fact.holds(w.zones))
        if fact.weighted:
            kept = tuple(World(w.zones, w.weight / fact.divisor(w.zones), w.pattern, w.solution) for w in kept)
        return BruteKnowledge(self.deal, kept)

    def with_facts(self, facts: Iterable[Fact]) -> "BruteKnowledge":
        return add_facts(self, facts)

    def count(self) -> int:
        """Deals left (worlds are full deals)."""
        return len(self.remaining)

    deal_count = count

    def solution_count(self) -> int:
        return len({w.solution for w in self.remaining})

    def consistent(self) -> bool:
        return bool(self.remaining)

    def determined(self) -> bool:
        return self.solution_count() == 1

    @cached_property
    def _total(self) -> Fraction:
        if not self.remaining:
            raise Inconsistent("no world fits the facts")
        return sum((w.weight for w in self.remaining), Fraction(0))

    def status(self) -> dict[str, str]:
        if not self.remaining:
            raise Inconsistent("no world fits the facts")
        result = {}
        for card in self.deal.solution_cards:
            holding = sum(1 for w in self.remaining if card in w.solution)
            result[card] = "in" if holding == len(self.remaining) else "out" if holding == 0 else "open"
        return result

    def probabilities(self) -> dict[str, Fraction]:
        """Card of the solution's deck -> chance it is in the solution."""
        mass = {card: Fraction(0) for card in self.deal.solution_cards}
        for w in self.remaining:
            for card in w.solution:
                mass[card] += w.weight
        return {card: m / self._total for card, m in mass.items()}

    def zone_probabilities(self) -> dict[str, dict[str, Fraction]]:
        """Card -> zone of its deck -> chance the card is there."""
        mass = {card: dict.fromkeys(self.deal.deck_of(card).zone_ids(), Fraction(0))
                for card in self.deal.cards}
        for w in self.remaining:
            for card, zone in w.zones.items():
                mass[card][zone] += w.weight
        return {card: {z: m / self._total for z, m in zones.items()} for card, zones in mass.items()}

    def pattern_probabilities(self) -> dict[tuple[int, ...], Fraction]:
        """Pattern of the solution deck's constraint -> chance it was drawn ({} without one)."""
        deck = self.deal.solution_deck
        if deck is None or not deck.constraints:
            self._total  # noqa: B018 - raises when inconsistent, like the other queries
            return {}
        mass = {pattern: Fraction(0) for pattern in deck.constraints[0].patterns}
        for w in self.remaining:
            mass[w.pattern] += w.weight
        return {pattern: m / self._total for pattern, m in mass.items()}

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        distinct = list(dict.fromkeys(w.solution for w in self.remaining))
        return None if len(distinct) > limit else distinct
