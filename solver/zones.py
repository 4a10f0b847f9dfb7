"""Exact counting when every fact speaks of one zone: inclusion–exclusion over the cards facts name.

A deal of one deck into zones of fixed sizes (a zone may hold a fixed number
of cards of each group: "one card of each category in the solution"), with
facts that each speak of one zone only ("this hand holds none of these
cards", "at least one of them", "the solution is not this triple").  A
world is a choice of content per zone, disjoint and covering the deck, each
allowed by its zone's facts.  By inclusion–exclusion over the subsets ``S``
of the cards in play:

    count = sum over S of (-1)**(n - |S|) * prod over zones z of zeta_z(S)

where ``zeta_z(S)`` counts the contents of ``z`` inside ``S`` its facts
allow (the sizes add up to ``n``, so covering means disjoint).  What makes
it cheap is that a zone's facts name few cards: ``zeta_z(S)`` depends only
on ``S`` restricted to the cards the zone's facts name (its *relevant*
cards, a small truth table over their subsets) and on how many other cards
it may hold lie in ``S`` (one count per group of the zone).  Cards no fact
names (after simplification) are interchangeable when they may lie in the
same zones and belong to the same groups: they are counted by number, a
binomial weight per *type*, never one subset at a time.  The sum runs over
the subsets of the relevant cards times the numbers of each free type (the
*terms*, at most :data:`MAX_TERMS`), each term a product of one gathered
table entry per zone.

Before counting, each zone's truth table is simplified one card at a time:
a card the zone's facts rule out leaves the zone's allowed cards, a card
they force is pinned (it leaves the deck, the zone is one card smaller),
and a card whose presence does not matter is no longer relevant.  A card
allowed in a single zone is pinned there.  This repeats until nothing
changes, so "cannot answer" facts and a player's own hand cost nothing.

The chance of a card in a zone comes from the zone's *cofactor* (the other
zones' product per term): aggregated over the zone's own table and summed
over supersets for its relevant cards, summed over the terms where the card
is in ``S`` for the others.  The solution zone keeps every relevant card it
may hold, so its contents (the solutions) are listed exactly: a content is
its relevant cards and, per free type, how many of its cards.  When the sets
of its cards it may hold are few beside its subsets (one card of each group),
its table and its answers go through those sets only
(:mod:`solver.smallsets`: a few passes over the terms where a table over
every subset took one per card), its sums made with the terms' signs
straight into the array over the terms.  The cofactors are prefix and
suffix products; a hand's table is read at the terms through a split of T
(:mod:`solver.termsplit`: a small table, then a row per high part), a block
of terms at a time into the product it multiplies or the sums it feeds, so
that no gathered array over the terms is written.  The count comes from the
last hand's sums by feature, and the first hand's answers by difference
(each card lies in one zone of every world, and every other zone that may
hold it gives its count).  Each term's sign is a product of three small
factors; the arrays over the terms are reused from one count to the next
(:data:`~solver.zonetable.BUFFERS`).

Sums and products are uint64, exact modulo 2**64, and every count is below
2**63 (the deal has fewer deals, :func:`applicable` checks), so each count
is exact.

One piece (over 800 lines): the reduction, the terms and the sides' tables
share one indexing of the cards and the terms.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
>>> from ruleslawyer.spec.facts import Fact, count
>>> deck = Deck("d", ("s1", "s2", "w1", "w2", "x"), (Zone("env", "env", None, 2),
...     Zone("hand:Ann", "hand", "Ann", 2), Zone("hand:Bob", "hand", "Bob", 1)),
...     (GroupCount(("env",), (("s1", "s2"), ("w1", "w2")), ((1, 1),)),))
>>> k = ZoneKnowledge.initial(Deal((deck,), solution=("env",), players=("Ann", "Bob")))
>>> k.count(), k.solution_count()
(12, 4)
>>> k = k.with_fact(Fact(count(["s1", "w1"], {"hand:Ann"}) == 0))
>>> k.count(), k.status()["s1"], k.zone_probabilities()["x"]["hand:Ann"]
(5, 'open', 0.8)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb, prod
from typing import Callable, Iterable, Sequence

import numpy as np

from ..spec.dealmodel import Deal, Deck, DealError
from ..spec.facts import Fact, Formula
from .enumerate import _limit
from .errors import Inconsistent, NeedsCounting, SolverError, TooBig
from .smallsets import SmallSets
from .termsplit import Split
from .zonetable import BUFFERS, weight_table, zone_table

__all__ = ["ZoneKnowledge", "applicable", "MAX_TERMS", "MAX_ZONE_CARDS", "NotLocal"]

#: Terms of the inclusion–exclusion: subsets of the relevant cards times the numbers of each
#: free type (memory: about 8 bytes times the zones, times this, at once).
MAX_TERMS = _limit("MAX_TERMS", 1 << 22)
#: Cards one zone's facts may name before simplification (its truth table has 2**this rows).
MAX_ZONE_CARDS = _limit("MAX_ZONE_CARDS", 20)

_U64 = np.uint64
#: The solution zone goes through its small sets (:class:`~solver.smallsets.SmallSets`) when it
#: has at least this many cards in the terms and its sets are at most 1/_SMALL_SHARE of its subsets
#: (else a table over every subset; the tests set both to force either way).
_SMALL_MIN_CARDS = 8
_SMALL_SHARE = 8
_ONES = np.uint64(2**64 - 1)
#: Numbers per block when a table read at every term multiplies an array (1 MiB: the block
#: read stays in the cache; on 2**21 terms, 1/4 to 4 MiB measured alike, 32 KiB slower).
_BLOCK = 1 << 17


class NotLocal(SolverError, ValueError):
    """A deal or fact this engine does not count (see :func:`applicable`)."""


def _limit_error(what: str, needed: int, name: str, value: int) -> TooBig:
    return TooBig(f"{what}: {needed:,} is more than RULESLAWYER_{name} ({value:,}) allows; "
                  f"set RULESLAWYER_{name}={needed} or more to count exactly (or ask for status only)")


# -- the deal's shape ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Shape:
    """The deck, its zones, and the groups each zone counts by."""

    deck: Deck
    zones: tuple[str, ...]
    sizes: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]       # zone -> card index -> group of the zone
    patterns: tuple[tuple[int, ...], ...]     # zone -> cards of each group it holds
    solution: int                             # the solution zone's index
    pattern: tuple[int, ...] | None           # the solution deck's constraint's one pattern
    zone_index: dict[str, int]
    card_index: dict[str, int]


def _shape_problem(deal: Deal) -> str | None:
    if len(deal.decks) != 1:
        return "the deal has several decks"
    if len(deal.solution) != 1:
        return "the solution is not one zone"
    deck = deal.decks[0]
    seen: set[str] = set()
    for g in deck.constraints:
        if len(g.zones) != 1 or g.zones[0] in seen:
            return "a group constraint spans several zones"
        if len(g.patterns) != 1:
            return "a group constraint draws one of several patterns"
        seen.add(g.zones[0])
    if len(deck.cards) >= 64:
        return "the deck has 64 cards or more"
    if deal.deals() >= 2**63:
        return "more than 2**63 deals"
    return None


@lru_cache(maxsize=16)
def _shape(deal: Deal) -> _Shape:
    problem = _shape_problem(deal)
    if problem:
        raise NotLocal(problem)
    deal.validate()
    deck = deal.decks[0]
    card_index = {c: i for i, c in enumerate(deck.cards)}
    zone_index = {z.id: i for i, z in enumerate(deck.zones)}
    by_zone = {g.zones[0]: g for g in deck.constraints}
    groups, patterns = [], []
    for z in deck.zones:
        g = by_zone.get(z.id)
        if g is None:
            groups.append((0,) * len(deck.cards))
            patterns.append((z.size,))
            continue
        of = [len(g.groups)] * len(deck.cards)
        for k, grp in enumerate(g.groups):
            for c in grp:
                of[card_index[c]] = k
        rest = z.size - sum(g.patterns[0])
        if rest < 0:
            raise DealError(f"zone {z.id}: its pattern takes more cards than it holds")
        groups.append(tuple(of))
        patterns.append((*g.patterns[0], rest))
    sol = zone_index[deal.solution[0]]
    first = deck.constraints[0] if deck.constraints else None
    return _Shape(deck, tuple(z.id for z in deck.zones), tuple(z.size for z in deck.zones), tuple(groups),
                  tuple(patterns), sol, first.patterns[0] if first else None, zone_index, card_index)


def _zone_of(shape: _Shape, formula: Formula) -> int | None:
    """The one zone a formula speaks of (None: none); :class:`NotLocal` if several."""
    zones: set[str] = set()
    for atom in formula.atoms():
        for card, zs, _w in atom.lin.terms:
            if card in shape.card_index:
                zones |= zs & shape.zone_index.keys()
    if len(zones) > 1:
        raise NotLocal(f"a fact ties several zones ({', '.join(sorted(zones))})")
    return shape.zone_index[zones.pop()] if zones else None


def _fact_zone(shape: _Shape, fact: Fact) -> int | None:
    """:func:`_zone_of` a fact, its likelihood (the count its weight divides by) included."""
    z = _zone_of(shape, fact.formula)
    if fact.likelihood is None:
        return z
    parts = fact.likelihood if isinstance(fact.likelihood, tuple) else (fact.likelihood == 0,)
    for part in parts:  # the choices, or an atom over the count's terms
        w = _zone_of(shape, part)
        if z is not None and w is not None and z != w:
            raise NotLocal("a fact weighed by a count in another zone")
        z = z if z is not None else w
    return z


def applicable(deal: Deal, facts: Iterable[Fact] = ()) -> bool:
    """True when :class:`ZoneKnowledge` counts this deal under these facts.

    One deck; the solution one zone; each group constraint on one zone with
    one pattern; every fact speaks of one zone (and a weighted fact's count too).
    """
    try:
        shape = _shape(deal)
        for fact in facts:
            _fact_zone(shape, fact)
    except (NotLocal, DealError):
        return False
    return True


# -- truth tables over the subsets of a zone's relevant cards ---------------------------------------


def _halves(table: np.ndarray, bit: int) -> tuple[np.ndarray, np.ndarray]:
    """The table without bit ``bit``: where the card is out, where it is in."""
    v = table.reshape(-1, 2, 1 << bit)
    return v[:, 0, :].reshape(-1), v[:, 1, :].reshape(-1)


@dataclass
class _Zone:
    """One zone while the facts are simplified: its relevant cards and their truth table."""

    size: int
    pattern: list[int]
    cards: list[int]          # relevant cards (deck indices), bit i of the table = cards[i]
    table: np.ndarray         # bool, 2**len(cards)

    def drop(self, card: int, inside: bool) -> None:
        bit = self.cards.index(card)
        out, into = _halves(self.table, bit)
        self.table = into if inside else out
        del self.cards[bit]


@dataclass(frozen=True)
class _Reduced:
    """The facts simplified: pinned cards, allowed zones, each zone's relevant cards and table."""

    pinned: dict[int, int]                # card -> zone
    allowed: dict[int, frozenset[int]]    # card in play -> zones it may lie in
    zones: tuple[_Zone, ...]


def _unit(formula: Formula, zone_id: str) -> tuple[bool, tuple[str, ...]] | None:
    """``(inside, cards)`` when a formula only says that these cards are all in the zone
    (``inside``) or all out of it ("cannot answer": ``count(cards, zone) == 0``); else None.

    >>> from ruleslawyer.spec.facts import count
    >>> _unit(count(["a", "b"], {"z"}) == 0, "z"), _unit(count(["a"], {"z"}) == 1, "z")
    ((False, ('a', 'b')), (True, ('a',)))
    >>> _unit(count(["a", "b"], {"z"}) >= 1, "z") is None
    True
    """
    atoms = list(formula.atoms())
    if len(atoms) != 1 or atoms[0] is not formula:
        return None
    atom = formula
    terms = atom.lin.terms  # type: ignore[attr-defined]
    if not terms or any(zs != frozenset({zone_id}) or w <= 0 for _c, zs, w in terms):
        return None
    top, op, value = sum(w for _c, _zs, w in terms), atom.op, atom.value  # type: ignore[attr-defined]
    cards = tuple(c for c, _zs, _w in terms)
    if (op == "==" and value == 0) or (op == "<=" and value == 0) or (op == "<" and value == 1):
        return False, cards
    if (op == "==" and value == top) or (op == ">=" and value == top) or (op == ">" and value == top - 1):
        return True, cards
    return None


def _reduce(shape: _Shape, facts: Sequence[Fact], weigh: bool = False) -> _Reduced | None:
    """Simplify the facts zone by zone (None: no world fits).

    Facts that only put cards in a zone or keep them out of it ("cannot answer", a
    player's own hand) are applied card by card, never as a truth table: a zone's table
    grows with the cards its other facts name only.  ``weigh``: a weighted fact's zone
    table holds whole-number weights (:func:`~solver.zonetable.weight_table`), the cards its
    likelihood counts among the zone's relevant cards; else weights are left out."""
    by_zone: dict[int, list[Formula]] = {}
    weights: dict[int, list] = {}
    units: list[tuple[int, bool, tuple[int, ...]]] = []
    for fact in facts:
        z = _fact_zone(shape, fact)
        if z is None:
            if not fact.formula.holds({}):
                return None
            continue
        if weigh and fact.likelihood is not None:
            weights.setdefault(z, []).append(fact.likelihood)
        else:
            unit = _unit(fact.formula, shape.zones[z])
            if unit is not None and all(c in shape.card_index for c in unit[1]):
                units.append((z, unit[0], tuple(shape.card_index[c] for c in unit[1])))
                continue
        by_zone.setdefault(z, []).append(fact.formula)
    cards = shape.deck.cards
    zones = []
    for z, zone_id in enumerate(shape.zones):
        lins = [a.lin for f in by_zone.get(z, ()) for a in f.atoms()]
        for lin in weights.get(z, []):
            lins += [a.lin for f in lin for a in f.atoms()] if isinstance(lin, tuple) else [lin]
        named = sorted({shape.card_index[c] for lin in lins
                        for c, zs, _w in lin.terms if zone_id in zs and c in shape.card_index})
        if len(named) > MAX_ZONE_CARDS:
            raise _limit_error(f"the facts about zone {zone_id} name {len(named)} cards", len(named),
                               "MAX_ZONE_CARDS", MAX_ZONE_CARDS)
        table = zone_table(zone_id, [cards[i] for i in named], by_zone.get(z, ()))
        if z in weights:
            try:
                table = weight_table(zone_id, [cards[i] for i in named], table, weights[z])
            except OverflowError as error:
                raise TooBig(f"zone {zone_id}: {error}") from None
        zones.append(_Zone(shape.sizes[z], list(shape.patterns[z]), named, table))
    everywhere = frozenset(range(len(shape.zones)))
    allowed = {c: everywhere for c in range(len(cards))}
    pinned: dict[int, int] = {}

    def pin(card: int, z: int) -> bool:
        pinned[card] = z
        del allowed[card]
        zone = zones[z]
        zone.size -= 1
        zone.pattern[shape.groups[z][card]] -= 1
        if zone.size < 0 or zone.pattern[shape.groups[z][card]] < 0:
            return False
        for q, other in enumerate(zones):
            if card in other.cards:
                other.drop(card, inside=q == z)
        return True

    for z, inside, named in units:
        for card in named:
            if card in pinned:
                if (pinned[card] == z) != inside:
                    return None
                continue
            if inside:
                if z not in allowed[card] or not pin(card, z):
                    return None
                continue
            allowed[card] = allowed[card] - {z}
            if card in zones[z].cards:
                zones[z].drop(card, inside=False)
    changed = True
    while changed:
        changed = False
        for z, zone in enumerate(zones):
            if not zone.table.any():
                return None
            for card in list(zone.cards):
                if card not in zone.cards:
                    continue
                out, into = _halves(zone.table, zone.cards.index(card))
                if not into.any():
                    zone.drop(card, inside=False)
                    allowed[card] = allowed[card] - {z}
                    changed = True
                elif not out.any():
                    if not pin(card, z):
                        return None
                    changed = True
                elif np.array_equal(out, into):
                    zone.drop(card, inside=False)
                    changed = True
        for card, zs in list(allowed.items()):
            if not zs:
                return None
            if len(zs) == 1:
                if not pin(card, next(iter(zs))):
                    return None
                changed = True
    return _Reduced(pinned, allowed, tuple(zones))


# -- the terms --------------------------------------------------------------------------------------


def _sum_over_subsets(a: np.ndarray, bits: int, supersets: bool = False) -> np.ndarray:
    """In place over the first axis (length 2**bits): sum over subsets (or supersets)."""
    rest = a.shape[1:]
    for b in range(bits):
        v = a.reshape((-1, 2, 1 << b) + rest)
        if supersets:
            v[:, 0] += v[:, 1]
        else:
            v[:, 1] += v[:, 0]
    return a


def _sum_out(x: np.ndarray, bits: Sequence[int], width: int = 1, room: np.ndarray | None = None) -> np.ndarray:
    """``x`` (2**r * ``width`` numbers: T's bits, then ``width`` per T) summed over the given
    bits of T, the others kept in order, as a flat array.  One halving per bit, the highest
    first (each step adds two contiguous halves of blocks, and the array shrinks before the
    low bits' short blocks are reached): about three times faster than numpy's ``sum`` over
    the same axes of a (2, 2, ..., width) view, which steps through them all at once.  With
    ``room`` (uint64, as many numbers as ``x`` or more, not ``x``'s memory) the halves are
    written there one after the other (fresh arrays over the terms cost page faults)."""
    flat = x.reshape(-1)
    free = None if room is None or room.size < flat.size else room.reshape(-1)
    for b in sorted(bits, reverse=True):
        pairs = flat.reshape(-1, 2, (1 << b) * width)
        out = None
        if free is not None:
            out, free = free[:flat.size // 2].reshape(pairs.shape[0], -1), free[flat.size // 2:]
        flat = np.add(pairs[:, 0], pairs[:, 1], out=out).reshape(-1)
    return flat


def _bit_sums(x: np.ndarray, bits: int) -> list[int]:
    """For each bit b of the index: the sum of ``x`` over indices with bit b set (mod 2**64)."""
    return [int(x.reshape(-1, 2, 1 << b)[:, 1, :].sum(dtype=_U64)) for b in range(bits)]


def _exact_bincount(index: np.ndarray, weights: np.ndarray, length: int) -> np.ndarray:
    """``bincount`` of uint64 weights, exact modulo 2**64: in slices of the weights' bits, each
    narrow enough that its sums stay below 2**53 (exact in float64); as few slices as the
    largest weight and the number of terms allow (one when the weights are small)."""
    if len(index) >= 2**31:  # pragma: no cover - MAX_TERMS keeps it far below
        raise SolverError("too many terms to aggregate exactly")
    out = np.zeros(length, _U64)
    w = weights.view(_U64)
    if not len(w):
        return out
    width = 53 - max(1, len(w).bit_length())  # a slice's sum: below len(w) * 2**width <= 2**53
    top = int(w.max()).bit_length()
    if top <= width:
        return np.bincount(index, weights=w.astype(np.float64), minlength=length).astype(_U64)
    for shift in range(0, top, width):
        part = ((w >> _U64(shift)) & _U64((1 << width) - 1)).astype(np.float64)
        summed = np.bincount(index, weights=part, minlength=length)
        out += summed.astype(_U64) << _U64(shift)
    return out


def _colsum(x: np.ndarray) -> np.ndarray:
    """``x.sum(axis=0)`` of a (N, M) uint64 array, exact mod 2**64.  With few columns numpy's
    sum along the first axis steps one short row at a time (several times slower than a pass):
    rows are first laid side by side, so that each step adds a row of about 256 numbers."""
    n, m = x.shape
    if m == 1:
        return x.sum(axis=0, dtype=_U64)
    k = 1
    while k * m < 256 and n % (2 * k) == 0:
        k *= 2
    return x.reshape(n // k, k * m).sum(axis=0, dtype=_U64).reshape(k, m).sum(axis=0, dtype=_U64)


def _rowdot(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x @ w`` of a (N, M) uint64 array and an (M,) vector, exact mod 2**64.  Integer matmul
    takes one short row at a time too: with few columns, a pass per column is faster."""
    m = x.shape[1]
    if m <= 3:
        out = x[:, 0] * w[0]
        for j in range(1, m):
            out += x[:, j] * w[j]
        return out
    return np.einsum("tm,m->t", x, w)


#: C(n, k) for n, k < 64 (every deck this engine takes is far smaller), as uint64, with a margin
#: of zeros all round: n and k from -65 to 128, 0 outside 0 <= k <= n < 64 (so that a lookup
#: needs no test, only its indices held within the table).
_PASCAL_OFF = 65
_PASCAL = np.pad(np.array([[comb(n, k) for k in range(64)] for n in range(64)], dtype=_U64), _PASCAL_OFF)
_PASCAL_LAST = len(_PASCAL) - 1


def _binoms(top: np.ndarray | int, bottom: np.ndarray | int) -> np.ndarray:
    """Elementwise C(top, bottom) as uint64 (0 outside 0 <= bottom <= top; ``top`` below 64).
    One lookup: the indices held within the table by minimum/maximum (numpy's ``clip`` costs
    microseconds per call in Python; this is called thousands of times per update)."""
    top, bottom = np.asarray(top, np.int64) + _PASCAL_OFF, np.asarray(bottom, np.int64) + _PASCAL_OFF
    return _PASCAL[np.minimum(np.maximum(top, 0), _PASCAL_LAST), np.minimum(np.maximum(bottom, 0), _PASCAL_LAST)]


def _every(sets: np.ndarray, k: int) -> bool:
    """True when ``sets`` is every subset of k cards in order (set i is the bit mask i)."""
    return len(sets) == 1 << k and bool((sets == np.arange(1 << k)).all())


def _gvecs(subs: np.ndarray, cards: Sequence[int], groups: Sequence[int], n_groups: int) -> np.ndarray:
    """(len(subs), n_groups): cards of each group in each subset."""
    out = np.zeros((len(subs), n_groups), np.int64)
    for i, c in enumerate(cards):
        out[:, groups[c]] += (subs >> i) & 1
    return out


def _all_gvecs(cards: Sequence[int], groups: Sequence[int], n_groups: int) -> np.ndarray:
    """:func:`_gvecs` of every subset of ``cards``, from a high and a low half (one pass)."""
    k = len(cards)
    low = k // 2
    lo = _gvecs(np.arange(1 << low, dtype=np.int64), cards[:low], groups, n_groups)
    hi = _gvecs(np.arange(1 << (k - low), dtype=np.int64), cards[low:], groups, n_groups)
    return (hi[:, None, :] + lo[None, :, :]).reshape(-1, n_groups)


@dataclass(frozen=True)
class _Terms:
    """The terms: subsets T of the relevant cards (bit i: ``relevant[i]``) times the numbers m
    of each free type's cards in S (mixed radix, the first type slowest)."""

    relevant: tuple[int, ...]
    types: tuple[tuple[int, ...], ...]              # free cards of each type
    keys: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # per type: its zones, its group in each
    mcomp: np.ndarray                               # (types, M): each type's number in each m
    bins: tuple[np.ndarray, ...]                    # per type, C(n, m) over m

    @property
    def r(self) -> int:
        return len(self.relevant)

    @property
    def M(self) -> int:
        return self.mcomp.shape[1]

    @cached_property
    def weight(self) -> np.ndarray:
        """prod over types of C(n, m): the subsets S each m stands for."""
        out = np.ones(self.M, _U64)
        for b in self.bins:
            out *= b
        return out

    def weight_with(self, i: int, fixed: int) -> np.ndarray:
        """The weight when ``fixed`` given cards of type ``i`` must be in S."""
        out = np.ones(self.M, _U64)
        for j, b in enumerate(self.bins):
            out *= _binoms(len(self.types[i]) - fixed, self.mcomp[i] - fixed) if j == i else b
        return out


@dataclass
class _Side:
    """One zone in the sum: its table over its features, and each term's part of them from m."""

    z: int
    zone: _Zone
    table: np.ndarray     # (2**len(zone.cards), K) uint64
    fm: np.ndarray        # (M,) the terms' feature index, its part from m


@dataclass
class _Hand(_Side):
    """A zone that is not the solution: features are its relevant subset and its numbers by group."""

    split: Split = field(repr=False, default=None)  # type: ignore[assignment]
    shape: _Shape = field(repr=False, default=None)  # type: ignore[assignment]
    others: tuple[int, ...] = ()                      # relevant cards of other zones it may hold
    type_group: dict[int, int] = field(default_factory=dict)
    radix: tuple[int, ...] = ()
    by_size: dict[tuple[int, ...], list[int]] = field(default_factory=dict)

    @staticmethod
    def build(shape: _Shape, red: _Reduced, z: int, zone: _Zone, terms: _Terms) -> "_Hand":
        groups = shape.groups[z]
        bit = {c: i for i, c in enumerate(terms.relevant)}
        others = tuple(c for c in terms.relevant if z in red.allowed[c] and c not in zone.cards)
        cap = [0] * len(zone.pattern)
        for c in others:
            cap[groups[c]] += 1
        type_group = {}
        for i, (zs, gs) in enumerate(terms.keys):
            if z in zs:
                type_group[i] = gs[zs.index(z)]
                cap[type_group[i]] += len(terms.types[i])
        radix = tuple(c + 1 for c in cap)
        kk = prod(radix)
        strides = [prod(radix[g + 1:]) for g in range(len(radix))]
        subs = np.arange(1 << len(zone.cards), dtype=np.int64)
        gv = _gvecs(subs, zone.cards, groups, len(zone.pattern))
        by_size: dict[tuple[int, ...], list[int]] = {}
        for row in np.flatnonzero(zone.table):
            by_size.setdefault(tuple(int(x) for x in gv[row]), []).append(int(row))
        weights = [0] * terms.r  # what each bit of T adds to the feature
        for i, c in enumerate(zone.cards):
            weights[bit[c]] = (1 << i) * kk
        for c in others:
            weights[bit[c]] = strides[groups[c]]
        fm = np.zeros(terms.M, np.int64)
        for i, g in type_group.items():
            fm += terms.mcomp[i] * strides[g]
        hand = _Hand(z, zone, np.zeros(0, _U64), fm, Split.of(weights, terms.M), shape, others, type_group,
                     radix, by_size)
        hand.table = hand.table_for(None)
        return hand

    def gather(self, table: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """``table`` (default: the side's) read at every term's feature, (2**r, M) (into ``out``),
        through the :class:`~solver.termsplit.Split`: the small table of the high parts' values, then a row each."""
        small, code = self.small(table), self.split.code
        rows = None if out is None else out.reshape(len(code), -1)
        return np.take(small, code, axis=0, out=rows, mode="clip").reshape(-1, len(self.fm))

    def small(self, table: np.ndarray | None = None) -> np.ndarray:
        """``table`` (default: the side's) at each high part's value and each (l, m): (U, 2**lo * M)."""
        flat = (self.table if table is None else table).reshape(-1)
        return np.take(flat, self.small_index, mode="clip")

    @cached_property
    def small_index(self) -> np.ndarray:
        """Where :meth:`small` reads a table (kept: every table of the zone is read there)."""
        split = self.split
        index = split.values[:, None, None] + split.low[None, :, None] + self.fm[None, None, :]
        return index.reshape(len(split.values), -1)

    def times(self, x: np.ndarray, out: np.ndarray, table: np.ndarray | None = None) -> np.ndarray:
        """``x`` (2**r, M) times :meth:`gather` of ``table``, into ``out`` (it may be ``x``): a block of
        rows at a time, so that the rows read stay in the cache (one pass over ``x``, none over a
        gathered array)."""
        small, code = self.small(table), self.split.code
        xs, outs = x.reshape(len(code), -1), out.reshape(len(code), -1)
        step = max(1, _BLOCK // small.shape[1])
        rows = np.empty((min(step, len(code)), small.shape[1]), _U64)
        for at in range(0, len(code), step):
            got = np.take(small, code[at:at + step], axis=0, out=rows[:len(code[at:at + step])], mode="clip")
            np.multiply(xs[at:at + step], got, out=outs[at:at + step])
        return out

    def marginals(self, cof: np.ndarray, table: np.ndarray, terms: _Terms, unit: bool) -> tuple[list[int], np.ndarray]:
        """With v = ``cof`` times ``table`` read at every term: for each bit b of T, the sum over
        the terms with b set of ``v[T] @ weight``; and the column sums of v.  A block of terms
        at a time (the product stays in the cache and is never written out: one pass over
        ``cof``), its sums split over a low and a high part of T's bits."""
        r, m_size, w = terms.r, terms.M, terms.weight
        lo, small, code, slo = min(r, 10), self.small(table), self.split.code, self.split.lo
        span = 1 << max(lo, slo)  # terms per block: whole rows of both splits of T
        while span * 2 * m_size <= _BLOCK and span * 2 <= 1 << r:
            span *= 2
        flat = cof.reshape(-1)
        high = np.empty(1 << (r - lo), _U64)
        low = np.zeros((1 << lo) * m_size, _U64)
        tiled = None if unit else np.tile(w, 1 << lo)
        rows = np.empty((span >> slo, small.shape[1]), _U64)
        for at in range(0, 1 << r, span):
            got = np.take(small, code[at >> slo:(at + span) >> slo], axis=0, out=rows, mode="clip").reshape(-1)
            np.multiply(got, flat[at * m_size:(at + span) * m_size], out=got)
            block = got.reshape(span >> lo, -1)
            high[at >> lo:(at + span) >> lo] = block.sum(axis=1, dtype=_U64) if unit else block @ tiled
            low += _colsum(block)
        low = low.reshape(1 << lo, m_size)
        return _bit_sums(_rowdot(low, w), lo) + _bit_sums(high, r - lo), low.sum(axis=0, dtype=_U64)

    @cached_property
    def kcomp(self) -> np.ndarray:
        return np.indices(self.radix).reshape(len(self.radix), -1)

    def coef(self, vec: tuple[int, ...], minus: int | None) -> np.ndarray:
        """prod over groups of C(k_g, pattern_g - vec_g), one card of group ``minus`` set aside."""
        out = np.ones(self.kcomp.shape[1], _U64)
        for g, (top, want) in enumerate(zip(self.kcomp, self.zone.pattern)):
            if g == minus:
                out *= _binoms(top - 1, want - vec[g] - 1)
            else:
                out *= _binoms(top, want - vec[g])
        return out

    def table_for(self, minus: int | None) -> np.ndarray:
        k = len(self.zone.cards)
        out = np.zeros((1 << k, self.kcomp.shape[1]), _U64)
        weighed = self.zone.table.dtype != bool
        for vec, rows in self.by_size.items():
            a = np.zeros(1 << k, _U64)
            a[rows] = self.zone.table[rows] if weighed else 1
            _sum_over_subsets(a, k)
            out += a[:, None] * self.coef(vec, minus)[None, :]
        return out

    def aggregate(self, x: np.ndarray, terms: _Terms, weight: np.ndarray | None = None,
                  room: np.ndarray | None = None) -> np.ndarray:
        """``x`` (2**r, M) summed over the terms at each of the zone's features (exact mod 2**64;
        ``weight``: each term also times ``weight[m]``, applied once the array is small;
        ``room``: an array over the terms it may overwrite, see :func:`_sum_out`).

        The same sums as a bincount over :meth:`index`, with the structure of a feature: the
        bits of T the zone never reads are summed out along their axes; the bits of the other
        zones' cards it may hold are folded, one at a time, into a count per group (each fold
        halves the array and lengthens the count by one: about four passes over ``x`` in
        all, where an exact bincount takes two float64 slices of every term); only the
        small array left (own cards x counts x M) is placed by a bincount."""
        r, m_size, groups = terms.r, x.shape[1], self.shape.groups[self.z]
        bit = {c: i for i, c in enumerate(terms.relevant)}
        own = [bit[c] for c in self.zone.cards]
        by_group: dict[int, list[int]] = {}
        for c in self.others:
            by_group.setdefault(groups[c], []).append(bit[c])
        used = set(own) | {b for bs in by_group.values() for b in bs}
        view = _sum_out(x, [b for b in range(r) if b not in used], m_size, room)
        view = view.reshape((2,) * len(used) + (m_size,))  # the bits of T left, highest first
        axes = sorted(used, reverse=True)  # T's bits, in the order of the axes left
        counted: list[int] = []
        for g, bs in sorted(by_group.items()):
            ahead = len(counted)
            at = [ahead + axes.index(b) for b in bs]
            view = np.moveaxis(view, at, range(ahead, ahead + len(bs)))
            axes = [b for b in axes if b not in bs]
            acc = np.expand_dims(view, 0)  # a count axis in front: (1, counts so far, 2, 2, ..., rest)
            acc = np.moveaxis(acc, 0, ahead)
            for _ in bs:
                cut = acc.shape[:ahead]
                lo = acc[(slice(None),) * ahead + (slice(None), 0)]
                hi = acc[(slice(None),) * ahead + (slice(None), 1)]
                grown = np.zeros(cut + (lo.shape[ahead] + 1,) + lo.shape[ahead + 1:], _U64)
                grown[(slice(None),) * ahead + (slice(0, -1),)] += lo
                grown[(slice(None),) * ahead + (slice(1, None),)] += hi
                acc = grown
            view = acc
            counted.append(g)
        # the axes now: one count per group of ``counted``, then the own bits (decreasing), then M
        ahead = len(counted)
        order = [ahead + axes.index(b) for b in reversed(own)]
        view = np.moveaxis(view, order, range(ahead, ahead + len(own)))
        kk = prod(self.radix)
        strides = [prod(self.radix[g + 1:]) for g in range(len(self.radix))]
        index = np.zeros(view.shape, np.int64)
        for n, g in enumerate(counted):
            shape = [1] * view.ndim
            shape[n] = view.shape[n]
            index += (np.arange(view.shape[n]) * strides[g]).reshape(shape)
        shape = [1] * view.ndim
        shape[ahead:ahead + len(own)] = (2,) * len(own)
        index += (np.arange(1 << len(own)) * kk).reshape(shape)
        index += self.fm.reshape([1] * (view.ndim - 1) + [m_size])
        if weight is not None:  # the last axis is m's
            view = view * weight
        return _exact_bincount(index.reshape(-1), np.ascontiguousarray(view).reshape(-1), self.table.size)

    def answer(self, cof: np.ndarray, terms: _Terms, counts: dict[str, dict[str, int]],
               scratch: np.ndarray | None = None, summed: np.ndarray | None = None) -> None:
        """Worlds with each card in this zone, from the zone's cofactor (``scratch``: an array of
        its shape this may overwrite; ``summed``: :meth:`sums` of ``cof`` if already made)."""
        cards, zid, groups = self.shape.deck.cards, self.shape.zones[self.z], self.shape.groups[self.z]
        k = len(self.zone.cards)
        unit = bool((terms.weight == 1).all())
        if k:
            w = self.sums(cof, terms, scratch) if summed is None else summed.copy()
            w = _sum_over_subsets(w.reshape(self.table.shape), k, supersets=True)
            val = np.zeros(1 << k, _U64)
            for vec, rows in self.by_size.items():
                val[rows] = w[rows] @ self.coef(vec, None)
            if self.zone.table.dtype != bool:  # each content's weight
                val *= self.zone.table
            for c, s in zip(self.zone.cards, _bit_sums(val, k)):
                counts[cards[c]][zid] = s
        bit = {c: i for i, c in enumerate(terms.relevant)}
        for g in sorted({groups[c] for c in self.others} | set(self.type_group.values())):
            sums, vm = self.marginals(cof, self.table_for(g), terms, unit)
            for c in self.others:
                if groups[c] == g:
                    counts[cards[c]][zid] = sums[bit[c]]
            for i, tg in self.type_group.items():
                if tg == g:
                    s = int((vm * terms.weight_with(i, 1)).sum(dtype=_U64))
                    for c in terms.types[i]:
                        counts[cards[c]][zid] = s

    def sums(self, cof: np.ndarray, terms: _Terms, room: np.ndarray | None = None) -> np.ndarray:
        """The cofactor times the terms' weights, summed at each feature (the table's shape, flat):
        its product with the table, summed, is the count (``room``: as in :meth:`aggregate`)."""
        unit = bool((terms.weight == 1).all())
        return self.aggregate(cof, terms, None if unit else terms.weight, room)

    def cards_held(self, terms: _Terms) -> list[int]:
        """The cards this zone may hold, whose counts :meth:`answer` gives."""
        return list(self.zone.cards) + list(self.others) + [c for i in self.type_group for c in terms.types[i]]


def _contents(sizes: tuple[int, ...], groups: tuple[int, ...], pattern: tuple[int, ...]) -> np.ndarray:
    """(types, V): every way to take some cards of each type, at most ``pattern[g]`` of group g.

    >>> _contents((2, 1), (0, 0), (2,)).T.tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]
    """
    rows: list[tuple[int, ...]] = [()]
    for size, g in zip(sizes, groups):
        rows = [row + (k,) for row in rows for k in range(size + 1)
                if sum(x for x, h in zip(row + (k,), groups) if h == g) <= pattern[g]]
    return np.array(rows, np.int64).reshape(len(rows), len(sizes)).T


@dataclass
class _Solution(_Side):
    """The solution zone: its relevant cards are every relevant card it may hold, and its features
    the numbers of each free type, so that each content (a solution) is counted on its own."""

    shape: _Shape = field(repr=False, default=None)  # type: ignore[assignment]
    mine: tuple[int, ...] = ()          # the free types it may hold
    kv: np.ndarray = field(default=None)  # type: ignore[assignment]  (mine, V): how many of each
    match: np.ndarray = field(default=None)  # type: ignore[assignment]  (subsets, V): a content

    @staticmethod
    def build(shape: _Shape, z: int, zone: _Zone, terms: _Terms) -> "_Solution":
        k = len(zone.cards)
        mine, kv, match = _Solution.contents(shape, z, zone, terms, np.arange(1 << k, dtype=np.int64))
        coef = _Solution.coef(terms, mine, kv)
        zeta = match.astype(_U64)
        if zone.table.dtype != bool:  # each content's weight
            zeta *= zone.table[:, None]
        zeta = _sum_over_subsets(zeta, k)
        return _Solution(z, zone, zeta @ coef, _Solution.features(terms, mine), shape, mine, kv, match)

    @staticmethod
    def contents(shape: _Shape, z: int, zone: _Zone, terms: _Terms, sets: np.ndarray
                 ) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
        """The free types the zone may hold, every content's numbers of each (mine, V), and
        which of ``sets`` (bit masks over the zone's cards) is the relevant part of which content."""
        gv = (_all_gvecs(zone.cards, shape.groups[z], len(zone.pattern)) if _every(sets, len(zone.cards))
              else _gvecs(sets, zone.cards, shape.groups[z], len(zone.pattern)))
        mine = tuple(i for i, key in enumerate(terms.keys) if z in key[0])
        group_of = [terms.keys[i][1][terms.keys[i][0].index(z)] for i in mine]
        kv = _contents(tuple(len(terms.types[i]) for i in mine), tuple(group_of), tuple(zone.pattern))
        kv_groups = np.zeros((kv.shape[1], len(zone.pattern)), np.int64)
        for row, i in enumerate(mine):
            zs, gs = terms.keys[i]
            kv_groups[:, gs[zs.index(z)]] += kv[row]
        need = np.array(zone.pattern, np.int64)[None, :] - gv
        # a subset matches a content when it needs, group by group, what the content holds: both
        # vectors as one number (mixed radix; a need below 0 or above any content: no match)
        top = int(kv_groups.max(initial=0)) + 1
        radix = top ** np.arange(len(zone.pattern), dtype=np.int64)
        fits = ((need >= 0) & (need < top)).all(axis=1)
        allowed = zone.table[sets] if zone.table.dtype == bool else zone.table[sets] != 0
        match = ((need @ radix)[:, None] == (kv_groups @ radix)[None, :]) & (fits & allowed)[:, None]
        return mine, kv, match

    @staticmethod
    def coef(terms: _Terms, mine: tuple[int, ...], kv: np.ndarray) -> np.ndarray:
        """(V, E): the ways each content's free cards lie among e cards of each type."""
        radix_e = [len(terms.types[i]) + 1 for i in mine]
        e_comp = np.indices(radix_e).reshape(len(mine), -1) if mine else np.zeros((0, 1), np.int64)
        coef = np.ones((kv.shape[1], e_comp.shape[1]), _U64)
        for row in range(len(mine)):
            coef *= _binoms(e_comp[row][None, :], kv[row][:, None])
        return coef

    @staticmethod
    def features(terms: _Terms, mine: tuple[int, ...]) -> np.ndarray:
        """``fm``: a term's feature is its low ``k`` bits (the table's row) and its numbers of
        ``mine`` (the column)."""
        fm = np.zeros(terms.M, np.int64)
        stride = 1
        for i in reversed(mine):
            fm += terms.mcomp[i] * stride
            stride *= len(terms.types[i]) + 1
        return fm

    def signed(self, signs: "_Signs", out: np.ndarray, spare: np.ndarray | None = None) -> np.ndarray:
        """The table read at every term, times the term's sign, into ``out`` (2**r, M), by
        broadcasting (the sign is a product of a factor per high part of T, per low part, per m;
        ``spare``: an array over the terms it may use, unused here)."""
        rows = self.table[:, self.fm] * signs.low[:, None] * signs.m[None, :]
        np.multiply(rows[None], signs.high[:, None, None], out=out.reshape(len(signs.high), *rows.shape))
        return out

    def answer(self, cof: np.ndarray | None, terms: _Terms, counts: dict[str, dict[str, int]], signs: "_Signs",
               spare: np.ndarray | None = None) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], int]], int]:
        """Worlds with each card in the solution, and every content with its worlds (``cof``: the
        other zones' product, unsigned, overwritten; None: there is none; ``spare``: an array
        over the terms it may use, unused here)."""
        k = len(self.zone.cards)
        by_mine, gamma = self.by_mine(cof, terms, signs), self.gamma(terms)
        y = _sum_over_subsets(by_mine @ gamma, k, supersets=True)
        worlds = np.where(self.match, y, _U64(0))
        if self.zone.table.dtype != bool:  # each content's weight
            worlds *= self.zone.table[:, None]
        return self.tally(worlds, np.arange(1 << k, dtype=np.int64), terms, counts)

    def by_mine(self, cof: np.ndarray | None, terms: _Terms, signs: "_Signs") -> np.ndarray:
        """The cofactor (unsigned; None: 1) times the terms' signs, summed over the terms at each
        subset of the zone's cards and each number of each free type it may hold, (2**k, E).
        ``cof`` is overwritten (the result may be a view of it)."""
        agg, scale = self.over_high(cof, terms, signs)
        # in place (``cof`` is not read again): fresh arrays over 2**21 terms cost page faults
        np.multiply(agg, signs.low[:, None], out=agg)
        if (scale != 1).any():
            np.multiply(agg, scale[None, :], out=agg)
        return self.to_e(agg, terms)

    def over_high(self, cof: np.ndarray | None, terms: _Terms, signs: "_Signs") -> tuple[np.ndarray, np.ndarray]:
        """The cofactor summed over the high parts of T with their signs, (2**k, M), and what each
        column is still to be multiplied by (its sign from m, the weights of the types the zone
        may not hold, the high parts' common sign): the rest of :meth:`by_mine`."""
        k = len(self.zone.cards)
        rest = np.ones(terms.M, _U64)
        for i, b in enumerate(terms.bins):
            if i not in self.mine:
                rest *= b
        scale = signs.m * rest
        if cof is None:
            agg = np.full((1 << k) * terms.M, signs.high.sum(dtype=_U64), _U64)
        else:  # the sum over the high parts h of (-1)**popcount(h) * cof[h], one bit at a time
            x = cof.reshape(len(signs.high), -1)
            while len(x) > 1:  # the high bit set: one more card out of S
                half = len(x) // 2
                x = np.subtract(x[:half], x[half:], out=x[:half])
            agg = x[0]
            scale = scale * signs.high[0]
        return agg.reshape(1 << k, terms.M), scale

    def to_e(self, agg: np.ndarray, terms: _Terms) -> np.ndarray:
        """Columns by m (M) to columns by the numbers of the zone's own free types (E)."""
        m_e = self.table.shape[1]
        if m_e == terms.M and (self.fm == np.arange(m_e)).all():
            return agg
        onehot = np.zeros((terms.M, m_e), _U64)
        onehot[np.arange(terms.M), self.fm] = 1
        return agg @ onehot

    def gamma(self, terms: _Terms) -> np.ndarray:
        """(E, V): the subsets of S's free cards, by number of each type, holding a content's."""
        radix_e = [len(terms.types[i]) + 1 for i in self.mine]
        e_comp = np.indices(radix_e).reshape(len(self.mine), -1) if self.mine else np.zeros((0, 1), np.int64)
        gamma = np.ones((e_comp.shape[1], self.kv.shape[1]), _U64)
        for row, i in enumerate(self.mine):
            n = len(terms.types[i])
            gamma *= _binoms(n - self.kv[row][None, :], e_comp[row][:, None] - self.kv[row][None, :])
        return gamma

    def tally(self, worlds: np.ndarray, sets: np.ndarray, terms: _Terms, counts: dict[str, dict[str, int]]
              ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], int]], int]:
        """From the worlds of each content (its relevant cards ``sets``, as bit masks over the
        zone's cards, by its numbers of each free type): the counts per card, the contents."""
        cards, zid = self.shape.deck.cards, self.shape.zones[self.z]
        k = len(self.zone.cards)
        contents = np.ones(self.kv.shape[1], _U64)
        for row, i in enumerate(self.mine):
            contents *= _binoms(len(terms.types[i]), self.kv[row])
        found, distinct = [], 0
        for row, v in zip(*np.nonzero(worlds)):
            sub = int(sets[row])
            held = tuple(self.zone.cards[i] for i in range(k) if sub >> i & 1)
            found.append((held, tuple(int(x) for x in self.kv[:, v]), int(worlds[row, v])))
            distinct += int(contents[v])
        mass = _rowdot(worlds, contents)
        sums = (_bit_sums(mass, k) if _every(sets, k) else
                [int(mass[(sets >> i) & 1 == 1].sum(dtype=_U64)) for i in range(k)])
        for c, s in zip(self.zone.cards, sums):
            counts[cards[c]][zid] = s
        for row, i in enumerate(self.mine):
            with_one = np.ones(self.kv.shape[1], _U64)
            for row2, i2 in enumerate(self.mine):
                n, kv = len(terms.types[i2]), self.kv[row2]
                with_one *= _binoms(n - 1, kv - 1) if row2 == row else _binoms(n, kv)
            s = int((worlds * with_one[None, :]).sum(dtype=_U64))
            for c in terms.types[i]:
                counts[cards[c]][zid] = s
        return found, distinct


@dataclass
class _SmallSolution(_Solution):
    """The solution zone when the sets of its cards it may hold are few (one card of each
    group, say): its table and its answers go through those sets only
    (:class:`~solver.smallsets.SmallSets`), never a table per subset of its cards."""

    plan: SmallSets = field(default=None)  # type: ignore[assignment]

    @staticmethod
    def fits(shape: _Shape, z: int, zone: _Zone) -> SmallSets | None:
        """The plan of the zone's small sets, when they are few beside its subsets (else None)."""
        k, groups = len(zone.cards), shape.groups[z]
        if k < _SMALL_MIN_CARDS:
            return None
        few = np.zeros(zone.size + 1, dtype=object)  # sets by size, group by group (a generating function)
        few[0] = 1
        for g, cap in enumerate(zone.pattern):
            n = sum(1 for c in zone.cards if groups[c] == g)
            step = np.zeros(zone.size + 1, dtype=object)
            for j in range(min(cap, n) + 1):
                step[j:] += comb(n, j) * few[:zone.size + 1 - j]
            few = step
        if int(few.sum()) * _SMALL_SHARE > 1 << k:
            return None
        return SmallSets.plan([groups[c] for c in zone.cards], zone.pattern, zone.size)

    @staticmethod
    def build_small(shape: _Shape, z: int, zone: _Zone, terms: _Terms, plan: SmallSets) -> "_SmallSolution":
        mine, kv, match = _Solution.contents(shape, z, zone, terms, plan.sets)
        f = match.astype(_U64)
        if zone.table.dtype != bool:  # each content's weight
            f *= zone.table[plan.sets][:, None]
        coef = _Solution.coef(terms, mine, kv)
        # the table by small set; its sums over every subset are made into the terms (:meth:`signed`)
        return _SmallSolution(z, zone, f @ coef, _Solution.features(terms, mine), shape, mine, kv, match, plan)

    def signed(self, signs: "_Signs", out: np.ndarray, spare: np.ndarray | None = None) -> np.ndarray:
        """:meth:`_Solution.signed`, the table's sums over subsets made with their signs
        (``spare``: an array it may use in between).  When each term's column is its m and
        T has no high part, straight into ``out``; the factors per m and per high part first
        applied to the small table (the sums are linear)."""
        k, m_size, high = self.plan.k, len(self.fm), signs.high
        if self.table.shape[1] == m_size and (self.fm == np.arange(m_size)).all():
            small = self.table * signs.m[None, :]
            if len(high) == 1:
                small *= high[0]
                return self.plan.subset_sums(small, signed=True, out=out.reshape(1 << k, m_size), spare=spare)
            rows = self.plan.subset_sums(small, signed=True, spare=spare)
        else:
            rows = self.plan.subset_sums(self.table, signed=True, spare=spare)[:, self.fm] * signs.m[None, :]
        np.multiply(rows[None], high[:, None, None], out=out.reshape(len(high), *rows.shape))
        return out

    def answer(self, cof: np.ndarray | None, terms: _Terms, counts: dict[str, dict[str, int]], signs: "_Signs",
               spare: np.ndarray | None = None) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], int]], int]:
        """:meth:`_Solution.answer` through the small sets: the low signs taken in the sums over
        supersets, the factors per column applied to their result (``spare``: as in
        :meth:`SmallSets.superset_sums`, with ``cof``)."""
        agg, scale = self.over_high(cof, terms, signs)
        y = self.plan.superset_sums(agg, signed=True, spare=None if cof is None else spare)
        y = self.to_e(y * scale[None, :], terms) @ self.gamma(terms)
        worlds = np.where(self.match, y, _U64(0))
        if self.zone.table.dtype != bool:  # each content's weight
            worlds *= self.zone.table[self.plan.sets][:, None]
        return self.tally(worlds, self.plan.sets, terms, counts)


@dataclass(frozen=True)
class _Counts:
    """Exact counts behind every answer."""

    total: int
    zones: dict[str, dict[str, int]]       # card -> zone -> worlds with it there
    contents: tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]  # solution: relevant cards, per type, worlds
    solution_count: int
    pinned: tuple[int, ...]                # cards pinned to the solution zone
    types: tuple[tuple[int, ...], ...]     # the free types a content counts by (its second part)


@dataclass(frozen=True)
class _Signs:
    """The sign of a term, (-1)**(n - |S|), as a product of three factors (uint64, 1 or 2**64 - 1):
    one per high part of T (the bits above the solution's cards, with (-1)**n), one per low part
    (the solution's cards), one per m."""

    high: np.ndarray
    low: np.ndarray
    m: np.ndarray

    @staticmethod
    def of(n: int, r: int, k: int, mcomp: np.ndarray) -> "_Signs":
        return _Signs(_parity_signs(r - k, n & 1), _parity_signs(k, 0),
                      np.where(mcomp.sum(axis=0) & 1, _ONES, _U64(1)).astype(_U64))


@lru_cache(maxsize=4)
def _parity_signs(bits: int, flip: int) -> np.ndarray:
    """(-1)**(popcount(T) + flip) for every T < 2**bits, as uint64 (read-only, kept: from one
    update to the next the terms' bits rarely change, and 2**20 signs take 10 ms to build)."""
    odd = np.bitwise_count(np.arange(1 << bits, dtype=np.int64)).astype(np.int64) + flip
    out = np.where(odd & 1, _ONES, _U64(1)).astype(_U64)
    out.flags.writeable = False
    return out


def _solution_side(shape: _Shape, z: int, zone: _Zone, terms: _Terms) -> _Solution:
    plan = _SmallSolution.fits(shape, z, zone)
    if plan is None:
        return _Solution.build(shape, z, zone, terms)
    return _SmallSolution.build_small(shape, z, zone, terms, plan)


def _count(shape: _Shape, red: _Reduced) -> _Counts:
    """Every count behind the answers (see the module docstring)."""
    cards, sol = shape.deck.cards, shape.solution
    counts: dict[str, dict[str, int]] = {c: dict.fromkeys(shape.zones, 0) for c in cards}
    pinned_sol = tuple(c for c, z in red.pinned.items() if z == sol)
    in_play = sorted(red.allowed)
    relevant0 = sorted({c for zone in red.zones for c in zone.cards})
    zones = list(red.zones)
    szone = zones[sol]
    # by group (few small sets at each step); in a group, the cards fewer zones may hold higher:
    # a zone sums out the bits of the cards it may not hold, which is slow for low bits
    extra = sorted((c for c in relevant0 if sol in red.allowed[c] and c not in szone.cards),
                   key=lambda c: (shape.groups[sol][c], -len(red.allowed[c])))
    zones[sol] = _Zone(szone.size, szone.pattern, szone.cards + extra, np.tile(szone.table, 1 << len(extra)))
    relevant = tuple(zones[sol].cards) + tuple(c for c in relevant0 if c not in zones[sol].cards)
    free: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for c in in_play:
        if c not in relevant:
            zs = tuple(sorted(red.allowed[c]))
            free.setdefault((zs, tuple(shape.groups[z][c] for z in zs)), []).append(c)
    keys = tuple(free)
    types = tuple(tuple(free[k]) for k in keys)
    radix = [len(t) + 1 for t in types]
    size = (1 << len(relevant)) * prod(radix)
    if size > MAX_TERMS:
        raise _limit_error(f"{len(relevant)} cards that facts name and {len(in_play) - len(relevant)} others "
                           f"of {len(types)} kinds make terms of the count", size, "MAX_TERMS", MAX_TERMS)
    mcomp = np.indices(radix).reshape(len(radix), -1) if radix else np.zeros((0, 1), np.int64)
    terms = _Terms(relevant, types, keys, mcomp,
                   tuple(_binoms(len(t), mcomp[i]) for i, t in enumerate(types)))
    sides: list[_Side] = [
        _solution_side(shape, z, zone, terms) if z == sol else _Hand.build(shape, red, z, zone, terms)
        for z, zone in enumerate(zones)]
    signs = _Signs.of(len(in_play), terms.r, len(zones[sol].cards), mcomp)
    # each zone's cofactor (the others' product) from prefix and suffix products: the solution
    # first (read by broadcasting), then the hands; in place wherever an array is not needed again
    taken: list[np.ndarray] = []
    try:
        return _sums(shape, red, sides, terms, signs, counts, pinned_sol, taken)
    finally:
        BUFFERS.give(taken)


def _sums(shape: _Shape, red: _Reduced, sides: list[_Side], terms: _Terms, signs: "_Signs",
          counts: dict[str, dict[str, int]], pinned_sol: tuple[int, ...], taken: list[np.ndarray]) -> _Counts:
    """The sum over the terms, and each zone's answers from its cofactor (arrays over the
    terms taken from :data:`~solver.zonetable.BUFFERS`, listed in ``taken``)."""
    cards, sol, types = shape.deck.cards, shape.solution, terms.types

    def buffer() -> np.ndarray:
        taken.append(BUFFERS.take((1 << terms.r, terms.M)))
        return taken[-1]

    solution = sides[sol]
    hands = [sides[z] for z in range(len(sides)) if z != sol]
    scratch = buffer()
    prefix = [solution.signed(signs, buffer(), scratch)]  # type: ignore[attr-defined]
    for side in hands[:-1]:
        prefix.append(side.times(prefix[-1], buffer()))  # type: ignore[attr-defined]
    suffix = hands[-1].gather(out=buffer()) if hands else None
    summed = None
    if hands:  # the last hand's sums by feature give the count (and its own answers)
        summed = hands[-1].sums(prefix[-1], terms, scratch)  # type: ignore[attr-defined]
        total = int((summed * hands[-1].table.reshape(-1)).sum(dtype=_U64))
    else:
        total = int((_colsum(prefix[-1]) * terms.weight).sum(dtype=_U64))
    if total >= 2**63:  # pragma: no cover - applicable() rules it out
        raise SolverError("a count overflowed 63 bits")
    if total == 0:
        return _Counts(0, counts, (), 0, pinned_sol, types)
    for c, z in red.pinned.items():
        counts[cards[c]][shape.zones[z]] = total
    # the first hand is answered last, by difference: each card it may hold lies in one zone
    # of every world, and every other zone that may hold it gives its count
    for at in reversed(range(len(hands))):
        cof = prefix.pop()
        if at:
            if at != len(hands) - 1:
                cof *= suffix
            hands[at].answer(cof, terms, counts, scratch, summed if at == len(hands) - 1 else None)  # type: ignore[union-attr]
        if at != len(hands) - 1:
            hands[at].times(suffix, suffix)  # type: ignore[attr-defined]
    del prefix
    contents, distinct = solution.answer(suffix, terms, counts, signs, scratch)  # type: ignore[attr-defined]
    if hands:
        zid = shape.zones[hands[0].z]
        for c in hands[0].cards_held(terms):  # type: ignore[attr-defined]
            counts[cards[c]][zid] = total - sum(n for z, n in counts[cards[c]].items() if z != zid)
    content_types = tuple(types[i] for i in solution.mine)  # type: ignore[attr-defined]
    return _Counts(total, counts, tuple(contents), distinct, pinned_sol, content_types)


# -- the knowledge -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ZoneKnowledge:
    """The deals fitting facts that each speak of one zone, counted exactly (immutable).

    A fact that speaks of several zones hands every fact to ``fallback``
    (by default :func:`solver.engines.rebuild`), which picks another engine.
    """

    deal: Deal
    facts: tuple[Fact, ...] = ()
    fallback: Callable[[Deal, tuple[Fact, ...]], object] | None = field(default=None, repr=False)

    worlds = "deals"

    @classmethod
    def initial(cls, deal: Deal, fallback: Callable[[Deal, tuple[Fact, ...]], object] | None = None
                ) -> "ZoneKnowledge":
        """Every deal, no fact yet; :class:`NotLocal` if the deal is not of this engine's shape."""
        _shape(deal)
        return cls(deal, (), fallback)

    def with_fact(self, fact: Fact):  # -> Knowledge
        try:
            _fact_zone(_shape(self.deal), fact)
        except NotLocal:
            if self.fallback is None:
                raise
            return self.fallback(self.deal, self.facts + (fact,))
        return ZoneKnowledge(self.deal, self.facts + (fact,), self.fallback)

    def with_facts(self, facts: Iterable[Fact]):  # -> Knowledge
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    @cached_property
    def _weighted(self) -> bool:
        return any(f.weighted for f in self.facts)

    @cached_property
    def _reduced(self) -> _Reduced | None:
        return _reduce(_shape(self.deal), self.facts, weigh=self._weighted)

    @cached_property
    def _counts(self) -> _Counts | None:
        """The counts (None: no deal fits); :class:`TooBig` past a limit.  With weighted
        facts, weighted sums of deals (the chances), each deal's weight a whole number: at
        most the deals left times the largest weight of each zone, below 2**63 or refused."""
        if not self._weighted:
            return self._plain
        if self._plain is None or self._reduced is None:
            return None
        top = self._plain.total
        for zone in self._reduced.zones:
            if zone.table.dtype != bool:
                shared = np.gcd.reduce(zone.table[zone.table != 0]) if zone.table.any() else 1
                if shared > 1:  # a factor every deal of the zone shares (left by the simplification)
                    zone.table = zone.table // shared
                top *= int(zone.table.max())
        if top >= 2**63:
            raise TooBig(f"the weights of the choices seen may sum to {top:,}, beyond 2**63")
        counts = _count(_shape(self.deal), self._reduced)
        return counts if counts.total else None

    @cached_property
    def _plain(self) -> _Counts | None:
        """The counts of deals, unweighted (:attr:`_counts` without weighted facts)."""
        reduced = _reduce(_shape(self.deal), self.facts) if self._weighted else self._reduced
        if reduced is None:
            return None
        counts = _count(_shape(self.deal), reduced)
        return counts if counts.total else None

    @cached_property
    def _plain_over(self) -> TooBig | None:
        """The limit counting the deals reaches, if any (then counts come from :attr:`_beyond`)."""
        try:
            self._plain  # noqa: B018 - computed once, kept
        except TooBig as error:
            return error
        return None

    @cached_property
    def _over(self) -> TooBig | None:
        """The limit counting reaches, if any (then the chances come from :attr:`_beyond`)."""
        if self._plain_over is not None:
            return self._plain_over
        try:
            self._counts  # noqa: B018 - computed once, kept
        except TooBig as error:
            return error
        return None

    @cached_property
    def _beyond(self):  # -> SampledKnowledge
        from .sampled import SampledKnowledge  # the fallback imports this module's siblings only
        return SampledKnowledge.initial(self.deal, reason=str(self._over)).with_facts(self.facts)

    @property
    def estimate(self) -> bool:
        """True when the chances are estimates (counting reached a limit)."""
        return self._over is not None

    def count(self) -> int:
        """How many deals fit the facts (unweighted)."""
        if self._plain_over is not None:
            return self._beyond.count()
        return self._plain.total if self._plain else 0

    def consistent(self) -> bool:
        if self._plain_over is not None:
            return self._beyond.consistent()
        return self._plain is not None

    def _require(self) -> _Counts:
        if self._over is not None:
            raise NeedsCounting(str(self._over))
        if self._counts is None:
            raise Inconsistent("no deal fits the facts")
        return self._counts

    def solution_count(self) -> int:
        if self._plain_over is not None:
            return self._beyond.solution_count()
        return self._plain.solution_count if self._plain else 0

    def determined(self) -> bool:
        if self._plain_over is not None:
            return self._beyond.determined()
        return self.solution_count() == 1

    def _solution_zone(self) -> str:
        return self.deal.solution[0]

    def solution_counts(self) -> dict[str, int]:
        """Card -> deals where it is in the solution (exact; weighted sums with weighted facts)."""
        counts, zone = self._require(), self._solution_zone()
        return {c: counts.zones[c][zone] for c in self.deal.solution_cards}

    def zone_counts(self) -> dict[str, dict[str, int]]:
        """Card -> zone -> deals where the card lies there (exact; weighted sums with weighted facts)."""
        return {c: dict(z) for c, z in self._require().zones.items()}

    def status(self) -> dict[str, str]:
        if self._plain_over is not None:
            return self._beyond.status()
        if self._plain is None:
            raise Inconsistent("no deal fits the facts")
        total, zone = self._plain.total, self._solution_zone()  # deals: weights change no status
        return {c: "in" if n == total else "out" if n == 0 else "open"
                for c, n in ((c, self._plain.zones[c][zone]) for c in self.deal.solution_cards)}

    def probabilities(self) -> dict[str, float]:
        if self._over is not None:
            return self._beyond.probabilities()
        total = self._require().total
        return {c: n / total for c, n in self.solution_counts().items()}

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        if self._over is not None:
            return self._beyond.zone_probabilities()
        counts = self._require()
        return {c: {z: n / counts.total for z, n in per.items()} for c, per in counts.zones.items()}

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        """The solution deck's constraint has one pattern: it is drawn for certain."""
        self._require()
        pattern = _shape(self.deal).pattern
        return {} if pattern is None else {pattern: 1.0}

    def intervals(self) -> dict[str, tuple[float, float]]:
        """The chances' intervals: only when they are estimates (see :attr:`estimate`)."""
        return self._beyond.intervals() if self._over is not None else {}

    def zone_intervals(self) -> dict[str, dict[str, tuple[float, float]]]:
        return self._beyond.zone_intervals() if self._over is not None else {}

    def samples(self) -> int | None:
        """How many sampled deals estimated chances come from (None: they are exact)."""
        return self._beyond.samples() if self._over is not None else None

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        if self._plain_over is not None:
            return self._beyond.solutions(limit)
        counts = self._plain
        if counts is None:
            return []
        if counts.solution_count > limit:
            return None
        cards = self.deal.decks[0].cards
        out = []
        for held, per_type, _worlds in counts.contents:
            choices = [itertools.combinations(t, k) for t, k in zip(counts.types, per_type)]
            for pick in itertools.product(*choices):
                chosen = [*counts.pinned, *held, *(c for p in pick for c in p)]
                out.append(frozenset(cards[c] for c in chosen))
        return out
