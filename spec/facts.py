"""The fact vocabulary: what can be said about a hidden deal.

A deal puts every card of each deck into exactly one zone (see
:mod:`spec.deal`).  A *fact* is a Boolean formula over linear counts of
card-in-zone memberships:

* :class:`Lin` — ``sum(w * [zone(c) in Z]) + k``: "how many of these cards
  lie in these zones", with weights;
* :class:`Atom` — a :class:`Lin` compared with a number (``==``, ``!=``,
  ``<=``, ``>=``, ``<``, ``>``): counts, membership ("card c is in zone Z" is
  ``[zone(c) in {Z}] == 1``) and bounds;
* :class:`And`, :class:`Or`, :class:`Not` and :class:`Const` combine them;
  :func:`implies` and :func:`if_then_else` build conditions.

Spec (the state machine emits facts) and the solver engines (which count,
decide and explain them) both read this module; it imports neither.

>>> hand = frozenset({"hand:Blue"})
>>> two = count(["bar-6", "bar-12", "cafe-6"], hand) == 2
>>> two.holds({"bar-6": "hand:Blue", "bar-12": "hand:Blue", "cafe-6": "missing"})
True
>>> lie = if_then_else(member("tile-a", frozenset({"tile:Blue"})) == 1,
...                    any_of([count(["bar-6"], hand) == 0, count(["bar-6"], hand) == 2]),
...                    count(["bar-6"], hand) == 1)
>>> sorted(lie.zones())
['hand:Blue', 'tile:Blue']
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, Union

__all__ = ["Lin", "Atom", "And", "Or", "Not", "Const", "Formula", "Fact", "FactError", "Zones", "is_formula",
           "count", "member", "all_of", "any_of", "negate", "implies", "if_then_else",
           "TRUE", "FALSE", "OPS"]

Op = Literal["==", "!=", "<=", ">=", "<", ">"]
Zones = frozenset  # of zone ids

OPS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<=": operator.le,
    ">=": operator.ge, "<": operator.lt, ">": operator.gt,
}
_NEGATED = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", ">=": "<", "<": ">="}
_FLIPPED = {"==": "==", "!=": "!=", "<=": ">=", ">=": "<=", "<": ">", ">": "<"}


class FactError(TypeError):
    """A fact built from values that are not counts of cards (a rule-file mistake)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Lin:
    """``sum(weight * [zone(card) in zones] for each term) + constant``.

    Terms are kept sorted and merged (same card and zones), zero weights dropped.

    >>> a = count(["x", "y"], frozenset({"z1"}))
    >>> (a + a - 1).terms, (a + a - 1).constant
    ((('x', frozenset({'z1'}), 2), ('y', frozenset({'z1'}), 2)), -1)
    """

    terms: tuple[tuple[str, frozenset[str], int], ...] = ()
    constant: int = 0

    @staticmethod
    def of(terms: Iterable[tuple[str, frozenset[str], int]], constant: int = 0) -> "Lin":
        merged: dict[tuple[str, frozenset[str]], int] = {}
        for card, zones, weight in terms:
            key = (card, zones)
            merged[key] = merged.get(key, 0) + weight
        ordered = sorted(((c, z, w) for (c, z), w in merged.items() if w and z), key=_term_key)
        return Lin(tuple(ordered), constant)

    def cards(self) -> frozenset[str]:
        return frozenset(c for c, _z, _w in self.terms)

    def zones(self) -> frozenset[str]:
        return frozenset(z for _c, zs, _w in self.terms for z in zs)

    def value(self, world: Mapping[str, str]) -> int:
        """The count in one world (card -> zone id)."""
        return self.constant + sum(w for c, zs, w in self.terms if world.get(c) in zs)

    def bounds(self) -> tuple[int, int]:
        """The least and greatest value the term can take in any world."""
        lo = hi = self.constant
        for _c, _z, w in self.terms:
            if w > 0:
                hi += w
            else:
                lo += w
        return lo, hi

    # -- arithmetic -------------------------------------------------------------
    def _combine(self, other: Any, sign: int) -> "Lin":
        if _is_int(other):
            return Lin(self.terms, self.constant + sign * other)
        if isinstance(other, Lin):
            return Lin.of([*self.terms, *((c, z, sign * w) for c, z, w in other.terms)],
                          self.constant + sign * other.constant)
        raise FactError(f"cannot add {type(other).__name__} to a count of cards")

    def __add__(self, other: Any) -> "Lin":
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> "Lin":
        return self._combine(other, -1)

    def __rsub__(self, other: Any) -> "Lin":
        return (-self)._combine(other, 1)

    def __neg__(self) -> "Lin":
        return Lin(tuple((c, z, -w) for c, z, w in self.terms), -self.constant)

    def __mul__(self, other: Any) -> "Lin":
        if not _is_int(other):
            raise FactError("a count of cards can only be multiplied by a whole number")
        return Lin.of(((c, z, w * other) for c, z, w in self.terms), self.constant * other)

    __rmul__ = __mul__

    # -- comparisons build atoms --------------------------------------------------
    def _cmp(self, op: str, other: Any) -> "Formula":
        if isinstance(other, Lin):
            return (self - other)._cmp(op, 0)
        if not _is_int(other):
            raise FactError(f"cannot compare a count of cards with {type(other).__name__}")
        return Atom.make(self, op, other - self.constant)  # (make drops the constant)

    def __eq__(self, other: Any) -> "Formula":  # type: ignore[override]
        return self._cmp("==", other)

    def __ne__(self, other: Any) -> "Formula":  # type: ignore[override]
        return self._cmp("!=", other)

    def __le__(self, other: Any) -> "Formula":
        return self._cmp("<=", other)

    def __ge__(self, other: Any) -> "Formula":
        return self._cmp(">=", other)

    def __lt__(self, other: Any) -> "Formula":
        return self._cmp("<", other)

    def __gt__(self, other: Any) -> "Formula":
        return self._cmp(">", other)

    def __hash__(self) -> int:
        return hash((self.terms, self.constant))

    def same(self, other: "Lin") -> bool:
        """Structural equality (``==`` builds an atom)."""
        return self.terms == other.terms and self.constant == other.constant

    def __bool__(self) -> bool:
        raise FactError("a count of cards is not known while the deal is hidden; compare it with a number")


def _term_key(term: tuple[str, frozenset[str], int]) -> tuple[str, tuple[str, ...]]:
    return term[0], tuple(sorted(term[1]))


def _decide(op: str, lo: int, hi: int, value: int) -> bool | None:
    """True or False when every count from ``lo`` to ``hi`` gives the same answer."""
    if op == "==":
        always, never = lo == hi == value, value < lo or value > hi
    elif op == "!=":
        always, never = value < lo or value > hi, lo == hi == value
    elif op == "<=":
        always, never = hi <= value, lo > value
    elif op == "<":
        always, never = hi < value, lo >= value
    elif op == ">=":
        always, never = lo >= value, hi < value
    else:  # ">"
        always, never = lo > value, hi <= value
    return True if always else False if never else None


class _Node:
    """Shared behaviour of formulas: ``&``, ``|``, ``~`` and truth refused."""

    def __and__(self, other: "Formula") -> "Formula":
        return all_of([self, other])  # type: ignore[list-item]

    def __or__(self, other: "Formula") -> "Formula":
        return any_of([self, other])  # type: ignore[list-item]

    def __invert__(self) -> "Formula":
        return negate(self)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        raise FactError("a fact about the hidden deal has no truth value in the game's state")

    def zones(self) -> frozenset[str]:
        return frozenset(z for a in self.atoms() for z in a.lin.zones())

    def cards(self) -> frozenset[str]:
        return frozenset(c for a in self.atoms() for c in a.lin.cards())

    def atoms(self) -> Iterator["Atom"]:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True, eq=True)
class Atom(_Node):
    """``lin <op> value`` with the constant of ``lin`` folded into ``value``."""

    lin: Lin
    op: Op
    value: int

    @staticmethod
    def make(lin: Lin, op: str, value: int) -> "Formula":
        if op not in OPS:
            raise FactError(f"unknown comparison {op!r}")
        if lin.constant:
            lin = Lin(lin.terms)
        lo, hi = lin.bounds()
        decided = _decide(op, lo, hi, value)
        if decided is not None:  # the bounds alone decide it (e.g. 2 cards counted == 5)
            return Const(decided)
        return Atom(lin, op, value)  # type: ignore[arg-type]

    def holds(self, world: Mapping[str, str]) -> bool:
        return bool(OPS[self.op](self.lin.value(world), self.value))

    def atoms(self) -> Iterator["Atom"]:
        yield self

    def __hash__(self) -> int:
        return hash((self.lin, self.op, self.value))

    def __eq__(self, other: Any) -> bool:  # structural
        return isinstance(other, Atom) and self.op == other.op and self.value == other.value and \
            self.lin.same(other.lin)


@dataclass(frozen=True)
class And(_Node):
    parts: tuple["Formula", ...]

    def holds(self, world: Mapping[str, str]) -> bool:
        return all(p.holds(world) for p in self.parts)

    def atoms(self) -> Iterator[Atom]:
        for p in self.parts:
            yield from p.atoms()


@dataclass(frozen=True)
class Or(_Node):
    parts: tuple["Formula", ...]

    def holds(self, world: Mapping[str, str]) -> bool:
        return any(p.holds(world) for p in self.parts)

    def atoms(self) -> Iterator[Atom]:
        for p in self.parts:
            yield from p.atoms()


@dataclass(frozen=True)
class Not(_Node):
    part: "Formula"

    def holds(self, world: Mapping[str, str]) -> bool:
        return not self.part.holds(world)

    def atoms(self) -> Iterator[Atom]:
        yield from self.part.atoms()


@dataclass(frozen=True)
class Const(_Node):
    truth: bool

    def holds(self, world: Mapping[str, str]) -> bool:
        return self.truth

    def atoms(self) -> Iterator[Atom]:
        return iter(())


TRUE, FALSE = Const(True), Const(False)
Formula = Union[Atom, And, Or, Not, Const]


def _formula(value: Any) -> Formula:
    if isinstance(value, bool):
        return Const(value)
    if isinstance(value, (Atom, And, Or, Not, Const)):
        return value
    raise FactError(f"{type(value).__name__} is not a fact about the deal")


def all_of(parts: Iterable[Any]) -> Formula:
    """Conjunction; constants folded, nested conjunctions flattened."""
    out: list[Formula] = []
    for p in map(_formula, parts):
        if isinstance(p, Const):
            if not p.truth:
                return FALSE
            continue
        out.extend(p.parts if isinstance(p, And) else (p,))
    return out[0] if len(out) == 1 else And(tuple(out)) if out else TRUE


def any_of(parts: Iterable[Any]) -> Formula:
    """Disjunction; constants folded, nested disjunctions flattened."""
    out: list[Formula] = []
    for p in map(_formula, parts):
        if isinstance(p, Const):
            if p.truth:
                return TRUE
            continue
        out.extend(p.parts if isinstance(p, Or) else (p,))
    return out[0] if len(out) == 1 else Or(tuple(out)) if out else FALSE


def negate(part: Any) -> Formula:
    """Negation, pushed into atoms (``not a == 1`` is ``a != 1``)."""
    p = _formula(part)
    if isinstance(p, Const):
        return Const(not p.truth)
    if isinstance(p, Atom):
        return Atom(p.lin, _NEGATED[p.op], p.value)  # type: ignore[arg-type]
    if isinstance(p, Not):
        return p.part
    return Not(p)


def implies(condition: Any, then: Any) -> Formula:
    return any_of([negate(condition), then])


def if_then_else(condition: Any, then: Any, otherwise: Any) -> Formula:
    return all_of([implies(condition, then), implies(negate(condition), otherwise)])


def count(cards: Iterable[str], zones: Iterable[str], weight: int = 1) -> Lin:
    """How many of ``cards`` lie in ``zones`` (a card named twice counts twice)."""
    zs = frozenset(zones)
    cards = list(cards)
    if weight and zs and len(set(cards)) == len(cards):  # nothing to merge: Lin.of's terms, by card
        return Lin(tuple((c, zs, weight) for c in sorted(cards)), 0)
    return Lin.of((c, zs, weight) for c in cards)


def member(card: str, zones: Iterable[str]) -> Lin:
    """1 when ``card`` lies in ``zones``, else 0 (compare it: ``member(c, Z) == 1``)."""
    return count([card], zones)


@dataclass(frozen=True)
class Fact:
    """A formula with who learns it and where it came from.

    ``viewers`` is None when everyone learns it, else the players who do.
    ``likelihood`` (None: every world counts once) gives a number k of the world:
    what was seen was one of k equally likely choices, so each world the fact keeps
    is weighed by 1/k.  Either a count (:class:`Lin`: a player who shows one of the
    k named cards they hold) or the choices as formulas, k those that hold in the
    world (a liar who may add or take away one, when each is open).
    ``source`` is opaque to the engines (the caller's handle on the move or
    record behind the fact); ``text`` says it in the game's words.

    >>> f = Fact(count(["a"], {"hand:Ann"}) == 1, viewers=frozenset({"Ann"}))
    >>> f.seen_by("Ann"), f.seen_by("Bob"), f.public
    (True, False, False)
    """

    formula: Formula
    viewers: frozenset[str] | None = None
    source: Any = field(default=None, compare=False)
    text: str | None = field(default=None, compare=False)
    likelihood: "Lin | tuple[Formula, ...] | None" = None

    @property
    def public(self) -> bool:
        return self.viewers is None

    @property
    def weighted(self) -> bool:
        """True when the fact weighs each world it keeps (see :meth:`divisor`)."""
        return self.likelihood is not None

    def seen_by(self, player: str) -> bool:
        return self.viewers is None or player in self.viewers

    def holds(self, world: Mapping[str, str]) -> bool:
        return self.formula.holds(world)

    def divisor(self, world: Mapping[str, str]) -> int:
        """k: the chance of what was seen in this world is 1/k (1 for an unweighted fact).

        A weighted fact says what a player chose uniformly at random among k
        possibilities, k counted in the world (``likelihood``); k >= 1 wherever the
        fact holds (:class:`FactError` otherwise).

        >>> f = Fact(member("a", {"h"}) == 1, likelihood=count(["a", "b", "c"], {"h"}))
        >>> f.divisor({"a": "h", "b": "h", "c": "x"}), Fact(TRUE).divisor({})
        (2, 1)
        >>> g = Fact(TRUE, likelihood=(member("a", {"h"}) == 1, member("b", {"h"}) == 1, TRUE))
        >>> g.divisor({"a": "h", "b": "x"})
        2
        """
        if self.likelihood is None:
            return 1
        if isinstance(self.likelihood, tuple):  # the choices open: those whose formula holds
            k = sum(1 for f in self.likelihood if f.holds(world))
        else:
            k = self.likelihood.value(world)
        if k < 1:
            raise FactError(f"a choice among {k} possibilities in a world where the fact holds")
        return k

    def zones(self) -> frozenset[str]:
        """The zones the formula speaks of, and those its likelihood counts in."""
        zones = self.formula.zones()
        if isinstance(self.likelihood, tuple):
            return zones.union(*(f.zones() for f in self.likelihood))
        return zones if self.likelihood is None else zones | self.likelihood.zones()

    def cards(self) -> frozenset[str]:
        cards = self.formula.cards()
        if isinstance(self.likelihood, tuple):
            return cards.union(*(f.cards() for f in self.likelihood))
        return cards if self.likelihood is None else cards | self.likelihood.cards()


class Zones(frozenset):
    """A set of zone ids, as rule expressions see them (``hand(actor)``).

    ``card in zones`` in a rule expression is the membership fact
    ``member(card, zones) == 1`` (see :mod:`spec.expr`).
    """

    def __repr__(self) -> str:
        return "Zones(" + ", ".join(sorted(self)) + ")"


def is_formula(value: Any) -> bool:
    return isinstance(value, _Node)
