"""Projection: counting solutions instead of deals, exactly.

Some deals are made of one deck whose solution is the union U of a few
zones (say every player's hand) and whose other cards all go to one other
zone (the *rest*).  A fact that only asks whether cards are in U, whatever
zone of U they are in, is a formula over the solution S (the set of cards
in U).  A fact may also *pin* a card to one zone z of U ("this player holds
card c").  Then an engine may list the distinct solutions S instead of the
full deals, and count nothing wrong:

* The prior (see :mod:`spec.dealmodel`) picks a pattern uniformly, then a
  deal uniformly among those fitting it.  Every solution S of a pattern is
  dealt by the same number of deals, ``multinomial(|U|; sizes of U)`` (the
  rest zone takes the other cards in one way), so all solutions of a
  pattern are equally likely: ``1/patterns / solutions of the pattern``.
* Given pins P (card -> zone) and a solution S containing every pinned
  card, the deals of S fitting P place the ``|U| - |P|`` other cards of S in
  the places the pins leave free: ``multinomial(|U| - |P|; size(z) - pins in
  z)`` ways, *the same number for every such S*.  So conditioning on pins is
  keeping the solutions that hold the pinned cards, with unchanged relative
  weights: the chance of "card c is in the solution" is exact.
* Pins *conflict* when one card is pinned to two zones or a zone gets more
  pins than its size: then no deal fits, whatever S.
* Given S and P, the unpinned cards of S are spread uniformly over the free
  places, so the chance that such a card is in zone z is
  ``P(c in S) * free(z) / free places`` (see ``zone_probabilities``).

:func:`frame_of` decides whether a deal allows it: one deck, every solution
zone in it, exactly one other zone, at most one group constraint and it
covers exactly the solution zones.  :meth:`Frame.project` maps a formula to
its :class:`Projection` or says it does not project: every term's zone set
must contain all of U or none of U (then ``[zone(c) in Z]`` is ``[c in S]``,
``1 - [c in S]``, 1 or 0), except pins: an atom with the one term
``(c, {z}, 1)``, z in U, ``== 1`` or ``>= 1``, alone or as a conjunct of a
top-level ``And``.  Projected formulas are ordinary :mod:`spec.facts`
formulas whose terms all use the zone :data:`SOLUTION` ("in the solution"),
so a projected world is a mapping from the solution's cards to
:data:`SOLUTION`.

>>> from ruleslawyer.spec.facts import count, member
>>> deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
...     Zone("hand:Bob", "hand", "Bob", 1, "owner"), Zone("rest", "rest", None, 2)))
>>> frame = frame_of(Deal((deck,), solution=("hand:Ann", "hand:Bob")))
>>> p = frame.project(count(["a", "b"], {"hand:Ann", "hand:Bob"}) == 1)
>>> p.formula.holds({"a": SOLUTION}), p.pins
(True, frozenset())
>>> frame.project(all_of([member("a", {"hand:Ann"}) == 1, count(["c"], {"rest"}) == 1])).pins
frozenset({('a', 'hand:Ann')})
>>> frame.project(member("a", {"hand:Ann"}) == 0) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, prod
from typing import Iterable, Literal

from ..spec.dealmodel import Deal, DealError, Deck, GroupCount, Zone
from ..spec.facts import OPS, TRUE, And, Atom, Const, Fact, Formula, Lin, Not, all_of, any_of, negate
from ..spec.tally import Tally

__all__ = ["SOLUTION", "Pin", "Projection", "Frame", "frame_of", "project", "projects",
           "pins_conflict", "constraint_blocks", "validate"]

#: The zone of a projected term: ``[card in the solution]``.
SOLUTION = "(solution)"

Pin = tuple[str, str]  # (card, zone of the solution)
_Kind = Literal["in", "out", "always", "never", "split"]


@dataclass(frozen=True)
class Projection:
    """A fact as seen by a solution-counting engine: a formula over solution
    membership (terms in :data:`SOLUTION`) and the pins it adds."""

    formula: Formula
    pins: frozenset[Pin] = frozenset()


def pins_conflict(pins: Iterable[Pin], sizes: dict[str, int]) -> bool:
    """True when no deal fits ``pins``: a card in two zones, a zone over its size.

    >>> pins_conflict([("a", "x"), ("a", "y")], {"x": 1, "y": 1})
    True
    >>> pins_conflict([("a", "x"), ("b", "x")], {"x": 2})
    False
    """
    pins = set(pins)
    cards = Tally(card for card, _ in pins)
    zones = Tally(zone for _, zone in pins)
    return any(n > 1 for n in cards.values()) or any(n > sizes[z] for z, n in zones.items())


@dataclass(frozen=True, eq=False)
class Frame:
    """A deal that projects: its solution deck, zones and patterns.

    ``groups`` are the constraint's groups, then the cards in none of them
    (the *free* group) if any; ``blocks[i]`` gives how many cards of each of
    ``groups`` pattern ``i`` puts in the solution (None when the pattern
    cannot be dealt).  Without a constraint, one group holds every card and
    ``patterns`` is empty.
    """

    deal: Deal
    deck: Deck
    solution: tuple[str, ...]
    rest: str
    sizes: dict[str, int]                 # zone of the solution -> size
    groups: tuple[tuple[str, ...], ...]
    patterns: tuple[tuple[int, ...], ...]
    blocks: tuple[tuple[int, ...] | None, ...]
    _cards: frozenset[str] = field(default=frozenset(), repr=False)  # the deck's
    _kinds: dict[frozenset[str], _Kind] = field(default_factory=dict, repr=False)

    @property
    def cards(self) -> tuple[str, ...]:
        """The deck's cards, in group order."""
        return tuple(c for g in self.groups for c in g)

    @property
    def size(self) -> int:
        """Cards in the solution."""
        return sum(self.sizes.values())

    def solution_weight(self, block: int) -> Fraction:
        """Prior of one particular solution dealt with pattern (block) ``block``."""
        counts = self.blocks[block]
        assert counts is not None
        return Fraction(1, len(self.blocks) * prod(comb(len(g), k) for g, k in zip(self.groups, counts)))

    def _kind(self, zones: frozenset[str]) -> _Kind:
        kind = self._kinds.get(zones)
        if kind is None:
            inside = len(zones.intersection(self.solution))
            rest = self.rest in zones
            if inside == len(self.solution):
                kind = "always" if rest else "in"
            elif inside == 0:
                kind = "out" if rest else "never"
            else:
                kind = "split"
            self._kinds[zones] = kind
        return kind

    def _pin(self, formula: Formula) -> Pin | None:
        if not isinstance(formula, Atom) or len(formula.lin.terms) != 1:  # cheap test first
            return None
        card, zones, weight = formula.lin.terms[0]
        if weight != 1 or len(zones) != 1 or (formula.op, formula.value) not in (("==", 1), (">=", 1)):
            return None
        (zone,) = zones
        return (card, zone) if zone in self.sizes and card in self._cards else None

    def _atom(self, atom: Atom) -> Formula | None:
        """The atom over solution membership, or None if a term splits the solution."""
        terms, constant, kinds, known, previous, merged = [], 0, self._kinds, self._cards, None, True
        for card, zones, weight in atom.lin.terms:
            if card not in known:
                continue  # a card of no deck is in no zone
            kind = kinds.get(zones) or self._kind(zones)
            if kind == "in":
                terms.append((card, _SOLUTION_ZONES, weight))
            elif kind == "out":
                terms.append((card, _SOLUTION_ZONES, -weight))
                constant += weight
            elif kind == "always":
                constant += weight
                continue
            elif kind == "split":
                return None
            else:
                continue
            merged = merged and card != previous
            previous = card
        value = atom.value - constant
        if not terms:
            return Const(bool(OPS[atom.op](0, value)))
        if merged:
            # a Lin's terms are sorted by card, so these are sorted and distinct: no
            # Lin.of; no Atom.make either (an atom its bounds decide still evaluates right)
            return Atom(Lin(tuple(terms)), atom.op, value)
        return Atom.make(Lin.of(terms), atom.op, value)

    def _membership(self, formula: Formula) -> Formula | None:
        """The formula over solution membership, or None if a term splits the solution."""
        if isinstance(formula, Atom):
            return self._atom(formula)
        if isinstance(formula, Const):
            return formula
        if isinstance(formula, Not):
            part = self._membership(formula.part)
            return None if part is None else negate(part)
        parts = [self._membership(p) for p in formula.parts]
        if any(p is None for p in parts):
            return None
        return (all_of if isinstance(formula, And) else any_of)(parts)

    def project(self, formula: Formula) -> Projection | None:
        """The projected form of ``formula``, or None when it does not project exactly."""
        if isinstance(formula, Atom):  # the common case, in short
            pin = self._pin(formula)
            if pin is not None:
                return Projection(TRUE, frozenset((pin,)))
            projected = self._atom(formula)
            return None if projected is None else Projection(projected, _NO_PINS)
        pins: list[Pin] = []
        rest: list[Formula] = []
        for part in formula.parts if isinstance(formula, And) else (formula,):
            pin = self._pin(part)
            if pin is not None:
                pins.append(pin)
                continue
            projected = self._membership(part)
            if projected is None:
                return None
            rest.append(projected)
        return Projection(all_of(rest), frozenset(pins))


_SOLUTION_ZONES = frozenset({SOLUTION})
_NO_PINS: frozenset[Pin] = frozenset()


def constraint_blocks(deck: Deck, constraint: GroupCount | None, room: int
                      ) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[int, ...] | None, ...]]:
    """The groups of a constraint (cards in no group last, if any) and, per
    pattern, how many cards of each group its zones take (None if it cannot
    be dealt: the pattern and the zones' ``room`` leave a number of ungrouped
    cards that the deck does not have).

    >>> deck = Deck("d", tuple("abcde"), (Zone("x", "x", None, 2), Zone("y", "y", None, 3)))
    >>> constraint_blocks(deck, GroupCount(("x",), (("a", "b"),), ((1,), (2,))), 2)
    ((('a', 'b'), ('c', 'd', 'e')), ((1, 1), (2, 0)))
    """
    if constraint is None:
        return (deck.cards,), ((room,),)
    grouped = {c for g in constraint.groups for c in g}
    free = tuple(c for c in deck.cards if c not in grouped)
    groups = constraint.groups + ((free,) if free else ())
    blocks: list[tuple[int, ...] | None] = []
    for pattern in constraint.patterns:
        need = room - sum(pattern)
        fits = 0 <= need <= len(free)
        blocks.append((pattern + ((need,) if free else ())) if fits else None)
    return groups, tuple(blocks)


def validate(deal: Deal) -> None:
    """Raise :class:`~ruleslawyer.spec.dealmodel.DealError` unless every deck
    can be dealt (:meth:`Deal.validate`, and some pattern of each constraint fits).
    """
    deal.validate()
    for deck in deal.decks:
        for g in deck.constraints:
            room = sum(z.size for z in deck.zones if z.id in g.zones)
            if all(b is None for b in constraint_blocks(deck, g, room)[1]):
                raise DealError(f"deck {deck.id}: no pattern of a constraint can be dealt")


@lru_cache(maxsize=64)
def frame_of(deal: Deal) -> Frame | None:
    """The deal's frame when it projects (see the module docstring), else None."""
    if not deal.solution or len(deal.decks) != 1:
        return None
    (deck,) = deal.decks
    solution = tuple(dict.fromkeys(deal.solution))
    if not set(solution) <= set(deck.zone_ids()):
        return None
    others: list[Zone] = [z for z in deck.zones if z.id not in solution]
    if len(others) != 1 or len(deck.constraints) > 1:
        return None
    constraint = deck.constraints[0] if deck.constraints else None
    if constraint is not None and set(constraint.zones) != set(solution):
        return None
    sizes = {z.id: z.size for z in deck.zones if z.id in solution}
    groups, blocks = constraint_blocks(deck, constraint, sum(sizes.values()))
    return Frame(deal, deck, solution, others[0].id, sizes, groups,
                 constraint.patterns if constraint else (), blocks, frozenset(deck.cards))


def project(deal: Deal, fact: Fact | Formula) -> Projection | None:
    """``fact`` projected for ``deal``, or None when the deal or the fact does not allow it."""
    frame = frame_of(deal)
    formula = fact.formula if isinstance(fact, Fact) else fact
    return None if frame is None else frame.project(formula)


def projects(deal: Deal, fact: Fact | Formula) -> bool:
    """Whether a solution-counting engine answers exactly for ``deal`` after ``fact``."""
    return project(deal, fact) is not None
