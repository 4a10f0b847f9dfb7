"""What every counting engine answers: the :class:`Knowledge` protocol.

A knowledge is immutable: the facts added so far about one
:class:`~ruleslawyer.spec.dealmodel.Deal`.  Engines differ in how they hold
it (numpy masks over enumerated worlds, a dynamic program over subsets of
cards, plain Python lists) but answer the same questions, so each fast
engine is tested against the plain enumeration of :mod:`solver.brute`.

Worlds are weighted by the deal's prior (see :mod:`spec.dealmodel`): every
consistent world counts once, with the chance the shuffle gives it.

* ``count()`` — worlds left.  What a world is says :attr:`worlds`:
  ``"deals"`` (every deck dealt, every zone's content) or ``"solutions"``
  (an engine that only tells solutions apart, when the facts allow it
  exactly; see :mod:`solver.frame`).
* ``solution_count()`` — distinct solutions left (the content of the
  solution zones).
* ``status()`` — for each card of the solution's deck: ``"in"`` (in the
  solution in every world left), ``"out"`` (in none) or ``"open"``.
* ``probabilities()`` — for each card of the solution's deck, the chance
  it is in the solution.
* ``zone_probabilities()`` — card -> zone -> chance, for every card of
  every deck; None from an engine that does not tell zones apart.
* ``pattern_probabilities()`` — for the solution deck's group constraint
  (if any): pattern -> chance it was drawn.
* ``solutions(limit)`` — the solutions left, or None if more than ``limit``.

``status``, ``probabilities``, ``zone_probabilities`` and
``pattern_probabilities`` raise :class:`~ruleslawyer.solver.errors.Inconsistent`
when no world is left.
"""

from __future__ import annotations

from typing import Iterable, Literal, Mapping, Protocol, TypeVar

from ..spec.dealmodel import Deal
from ..spec.facts import Fact

__all__ = ["Knowledge", "Worlds", "add_facts"]

Worlds = Literal["deals", "solutions"]


class Knowledge(Protocol):
    deal: Deal

    @property
    def worlds(self) -> Worlds: ...

    def with_fact(self, fact: Fact) -> "Knowledge": ...

    def with_facts(self, facts: Iterable[Fact]) -> "Knowledge": ...

    def count(self) -> int: ...

    def solution_count(self) -> int: ...

    def consistent(self) -> bool: ...

    def determined(self) -> bool: ...

    def status(self) -> dict[str, str]: ...

    def probabilities(self) -> Mapping[str, float]: ...

    def zone_probabilities(self) -> Mapping[str, Mapping[str, float]] | None: ...

    def pattern_probabilities(self) -> Mapping[tuple[int, ...], float]: ...

    def solutions(self, limit: int) -> list[frozenset[str]] | None: ...


K = TypeVar("K")


def add_facts(knowledge: K, facts: Iterable[Fact]) -> K:
    """``knowledge.with_fact`` for each fact in turn (every engine's ``with_facts``)."""
    for fact in facts:
        knowledge = knowledge.with_fact(fact)  # type: ignore[attr-defined]
    return knowledge
