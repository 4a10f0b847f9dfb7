"""The hidden deal and what is known about it, as plain data.

A :class:`DealShape` says how the solution is drawn: the cards come in
groups (a game's categories); one *pattern* is picked uniformly at random
and gives how many cards of each group go into the solution; the cards of a
group are then drawn uniformly.  A :class:`Fact` is a linear count over the
solution: "the number of solution cards among these cards, each with its
weight, compares so to this value".  Every observation of a rule file
compiles to facts (see ``spec.expr``), so the engines know no game.

>>> shape = DealShape(groups=(("a", "b"), ("c", "d")), patterns=((1, 1),))
>>> Fact.count({"a", "c"}, "==", 2).holds({"a", "c"})
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping

Op = Literal["==", "!=", "<=", ">=", "<", ">"]

_OPS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}


@dataclass(frozen=True)
class DealShape:
    """How the solution is drawn from groups of cards."""

    groups: tuple[tuple[str, ...], ...]
    patterns: tuple[tuple[int, ...], ...]
    group_names: tuple[str, ...] = ()

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for g in self.groups for c in g)

    def group_of(self, card: str) -> int:
        for i, g in enumerate(self.groups):
            if card in g:
                return i
        raise KeyError(card)


@dataclass(frozen=True)
class Fact:
    """``sum(weight[c] for c in solution if c in weights) <op> value``.

    ``source`` is opaque to the engines: the caller's handle for the move
    that produced the fact (used to name the moves of an explanation).
    ``viewer`` is None for a public fact, else the player who knows it.
    """

    weights: tuple[tuple[str, int], ...]
    op: Op
    value: int
    source: Any = field(default=None, compare=False)
    viewer: str | None = None

    @classmethod
    def count(cls, cards: Iterable[str], op: Op, value: int, source: Any = None,
              viewer: str | None = None) -> "Fact":
        counted: dict[str, int] = {}
        for card in cards:
            counted[card] = counted.get(card, 0) + 1
        return cls(tuple(sorted(counted.items())), op, value, source, viewer)

    def total(self, solution: Iterable[str] | Mapping[str, Any]) -> int:
        chosen = set(solution)
        return sum(w for c, w in self.weights if c in chosen)

    def holds(self, solution: Iterable[str]) -> bool:
        return _OPS[self.op](self.total(solution), self.value)


def compare(op: Op, left: Any, right: Any) -> Any:
    """Apply a comparison by name (works for ints, numpy arrays and Z3 terms)."""
    return _OPS[op](left, right)
