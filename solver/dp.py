"""Exact counting over deals by a dynamic program over subsets of cards.

When every fact is about one owner's zones (a player's hand, and that
player's zone of a second deck) or about the zones of the solution's deck
nobody owns (the solution, a face-up row), the worlds factorise.  A world is
one *configuration* per **part** — an owner's zones, or the unowned zones —
and the parts' cards are disjoint and cover the deck.  Each part keeps the
configurations its own facts allow; the worlds are the ways to pick one per
part, disjoint.  Over the subsets ``S`` of the deck's ``n`` cards:

    count = sum over S of (-1)**(n - |S|) * prod over parts of zeta_p(S)

where ``zeta_p(S)`` counts the part's allowed configurations inside ``S``:
the sizes add up to ``n``, so covering the deck means disjoint
(inclusion–exclusion).  The terms overflow 64 bits, the result does not;
numpy's unsigned arithmetic wraps modulo 2**64, so the count is exact.

Cards of the other decks (one zone per owner plus unowned rest zones, the
*hidden* cards) are carried as a small subset state: the parts are chained
by "which hidden cards are taken so far".  The chance a card is in a zone
comes from a part's *cofactor* (the other parts' product) summed over the
supersets of each configuration.  A new fact changes one part: only that
part's table is filtered and transformed again.  Cards every allowed
configuration of a part holds (a player's own hand, a shown card, face-up
cards) leave the subsets altogether, so a player's view runs on 2**13 subsets
or fewer.  Facts about several owners at once are refused
(:class:`NotExact`; :func:`applicable` says in advance).

A weighted fact (a choice made at random among k, k counted in one part)
gives the part's configurations whole-number weights (``L / k``, the
part's common factor taken out): its zeta columns sum weights, not
configurations, so the chances are weighted; the count of deals comes from
the same knowledge without weights.  Weights that could pass 2**63 in all
hand the facts on (:class:`NotExact`).

One piece (over 800 lines): the parts' tables, their transforms and the
cofactors are one computation over one layout of the subsets.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
>>> from ruleslawyer.spec.facts import Fact, count
>>> deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Ann", "hand", "Ann", 1),
...     Zone("hand:Bob", "hand", "Bob", 2), Zone("under", "under", None, 1)))
>>> k = DPKnowledge.initial(Deal((deck,), solution=("under",), players=("Ann", "Bob")))
>>> k.count()
12
>>> k = k.with_fact(Fact(count(["a", "b"], {"hand:Bob"}) == 2))
>>> k.count(), k.solution_count(), k.probabilities()["c"], k.status()["a"]
(2, 2, 0.5, 'out')
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, reduce
from math import gcd, lcm, prod
from operator import or_
from typing import Callable, Iterable, Sequence

import numpy as np

from ..spec.dealmodel import Deal, DealError, multinomial
from ..spec.facts import OPS, And, Atom, Const, Fact, FactError, Formula, Not, Or
from ..spec.tally import Tally
from .errors import Inconsistent, SolverError
from .table import OwnerTable

__all__ = ["DPKnowledge", "NotExact", "applicable", "MAX_CARDS", "MAX_HIDDEN_CARDS", "MAX_ROWS"]

#: The solution's deck is enumerated by subsets: 2**MAX_CARDS masks at most.
MAX_CARDS = 20
#: Cards of the other decks, carried as a subset state.
MAX_HIDDEN_CARDS = 10
#: Configurations of one part (e.g. 5 of 16 cards and 1 of 5 hidden cards: 21,840).
MAX_ROWS = 2_000_000

_U64 = np.uint64
#: Bytes of configuration indices a part keeps, by frame (:meth:`_Part.compressed`).
_COMPRESSED_BYTES = 8 << 20
#: Bytes of parts reduced in some frame that a deal's layout keeps for other knowledges
#: (:meth:`DPKnowledge._part`; their arrays stay alive as long as they are kept).
_REDUCED_BYTES = 32 << 20
#: Subsets per slice of the products over parts (16384 uint64: 128 KiB an array; the chain's
#: arrays of one slice stay in the 1 MiB of cache a core has, and numpy's cost per call is spread).
_BLOCK = 16384


class NotExact(SolverError, ValueError):
    """A deal or a fact this engine does not count exactly (see :func:`applicable`)."""


# -- subsets ----------------------------------------------------------------------


def _subsets(mask: int, size: int) -> list[int]:
    bits = [1 << b for b in range(mask.bit_length()) if mask >> b & 1]
    return [sum(chosen) for chosen in itertools.combinations(bits, size)]


def _configurations(zones: Sequence[tuple[int, int]]) -> np.ndarray:
    """Every way to fill zones (size, cards allowed as a mask) with disjoint cards.

    >>> _configurations([(1, 0b111), (1, 0b011)]).tolist()
    [[1, 2], [2, 1], [4, 1], [4, 2]]
    """
    rows: list[tuple[int, ...]] = [()]
    for size, allowed in zones:
        rows = [row + (sub,) for row in rows for sub in _subsets(allowed & ~sum(row), size)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(zones))


def _bits(masks: np.ndarray, n: int) -> np.ndarray:
    """(len(masks), n) int64 matrix: bit j of each mask."""
    return (masks[:, None] >> np.arange(n, dtype=np.int64)) & 1


def _compress(masks: np.ndarray, keep: int) -> np.ndarray:
    """Squeeze the bits of ``keep`` together (bit extraction): the masks' index in the kept universe.

    >>> _compress(np.array([0b1011, 0b0110]), 0b1010).tolist()
    [3, 1]
    """
    out = np.zeros(masks.shape, np.int64)
    for j, b in enumerate(b for b in range(keep.bit_length()) if keep >> b & 1):
        out |= ((masks >> b) & 1) << j
    return out


def _sum_over_subsets(a: np.ndarray, n: int, supersets: bool = False) -> np.ndarray:
    """In place: ``a[S] = sum(a[T] for T ⊆ S)`` (or ``T ⊇ S``), for ``a`` of length 2**n.

    >>> _sum_over_subsets(np.array([1, 2, 3, 4], np.uint64), 2).tolist()
    [1, 3, 4, 10]
    >>> _sum_over_subsets(np.array([1, 2, 3, 4], np.uint64), 2, supersets=True).tolist()
    [10, 6, 7, 4]
    """
    for b in range(n):
        v = a.reshape(-1, 2, 1 << b)
        if 1 <= b <= 3:  # numpy is slow on a short innermost axis: walk the long one instead
            v = v.transpose(2, 1, 0)
        lo, hi = v[:, 0, :], v[:, 1, :]
        if supersets:
            np.add(lo, hi, out=lo, order="C")
        else:
            np.add(hi, lo, out=hi, order="C")
    return a


class _Kept:
    """Values kept by key within a budget of bytes, the oldest dropped first (a value bigger than
    the whole budget is not kept)."""

    def __init__(self, budget: int):
        self.budget = budget
        self.used = 0
        self._items: dict = {}

    def get(self, key):
        found = self._items.get(key)
        return None if found is None else found[0]

    def put(self, key, value, size: int):
        """Keep ``value`` (``size`` bytes) under ``key``; returns it."""
        if size <= self.budget:
            old = self._items.pop(key, None)
            self.used -= old[1] if old is not None else 0
            while self._items and self.used + size > self.budget:
                oldest = next(iter(self._items))
                self.used -= self._items.pop(oldest)[1]
            self._items[key] = (value, size)
            self.used += size
        return value


@lru_cache(maxsize=32)
def _signs(n: int) -> np.ndarray:
    """(-1)**(n - |S|) for every subset S, as uint64 (-1 wraps to 2**64 - 1)."""
    odd = (n - np.bitwise_count(np.arange(1 << n, dtype=np.int64))) & 1
    return np.where(odd == 1, np.uint64(2**64 - 1), np.uint64(1)).astype(_U64)


def _exact(total: np.uint64 | int) -> int:
    """A wrapped 64-bit sum read back as the count it is (counts stay below 2**63)."""
    value = int(total) % 2**64
    if value >= 2**63:
        raise SolverError("a count overflowed 63 bits")  # applicable() rules this out
    return value


# -- the deal, cut into parts ---------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Part:
    """One owner's zones, or the solution deck's unowned zones: every configuration.

    Rows are main configurations (cards of the solution's deck, one mask per
    zone); columns are hidden configurations (cards of the other decks).
    """

    owner: str | None
    zones: tuple[str, ...]
    hidden_zones: tuple[str, ...]
    main: np.ndarray      # (m, len(zones)) masks over the solution deck's cards
    hidden: np.ndarray    # (h, len(hidden_zones)) masks over the hidden cards
    union: np.ndarray     # (m,) every main card of the configuration
    hunion: np.ndarray    # (h,)
    members: tuple[np.ndarray, ...]  # per zone, (m, n) 0/1 float64: card in that zone
    #: (main?, the frame's cards) -> the configurations' frame indices (:meth:`compressed`)
    _compressed: _Kept = field(default_factory=lambda: _Kept(_COMPRESSED_BYTES), repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.main), len(self.hidden)

    def compressed(self, main: bool, keep: int) -> np.ndarray:
        """Each configuration's cards (main or hidden) as an index in a frame keeping ``keep``:
        knowledges of one deal often share their frame, so the last ones are kept."""
        found = self._compressed.get((main, keep))
        if found is None:
            found = _compress(self.union if main else self.hunion, keep)
            self._compressed.put((main, keep), found, found.nbytes)
        return found


@dataclass(frozen=True, eq=False)
class _Layout:
    """What a deal looks like to the dynamic program (one per deal, cached)."""

    deal: Deal
    cards: tuple[str, ...]          # the solution's deck, bit i = cards[i]
    hidden_cards: tuple[str, ...]   # the other decks, bit i = hidden_cards[i]
    parts: tuple[_Part, ...]        # the unowned part first, then owners
    place: dict[str, tuple[int, int, bool]]  # zone -> (part, column, hidden?)
    card_bit: dict[str, tuple[bool, int]]    # card -> (hidden?, bit)
    solution: tuple[int, ...]       # columns of part 0 holding the solution
    rest: int                       # ways to deal the hidden cards no owner takes
    rest_zones: dict[str, tuple[tuple[str, int], ...]]  # hidden deck -> its unowned zones, sizes
    deck_zones: dict[str, frozenset[str]]   # card -> the zones of its deck

    _terms: dict = field(default_factory=dict, repr=False)
    #: the last parts reduced, by (part, its allowed configurations and weights, the frame):
    #: knowledges of one deal that differ in other parts share them (:meth:`DPKnowledge._part`)
    _reduced: _Kept = field(default_factory=lambda: _Kept(_REDUCED_BYTES), repr=False)

    def _term(self, card: str, zones: frozenset[str]) -> tuple[bool, int, dict[int, tuple[int, ...]]] | None:
        """Where a term can count: (hidden?, bit, part -> its columns); None if nowhere."""
        key = (card, zones)
        if key not in self._terms:
            info = None
            if card in self.card_bit:
                is_hidden, bit = self.card_bit[card]
                cols: dict[int, list[int]] = {}
                for z in zones & self.deck_zones[card]:
                    if z not in self.place:
                        raise NotExact(f"zone {z} holds the undealt rest of a second deck")
                    part, col, _h = self.place[z]
                    cols.setdefault(part, []).append(col)
                if cols:
                    info = (is_hidden, bit, {q: tuple(sorted(c)) for q, c in cols.items()})
            self._terms[key] = info
        return self._terms[key]

    def part_of(self, formula: Formula) -> int | None:
        """The one part a formula speaks of (None: no zone a card can be in)."""
        parts: set[int] = set()
        for atom in formula.atoms():
            for card, zones, _w in atom.lin.terms:
                info = self._term(card, zones)
                if info:
                    parts.update(info[2])
        if len(parts) > 1:
            owners = sorted(str(self.parts[p].owner or "the table") for p in parts)
            raise NotExact(f"a fact ties the zones of several owners ({', '.join(owners)})")
        return parts.pop() if parts else None

    def truth(self, p: int, formula: Formula, _memo: dict | None = None) -> np.ndarray:
        """(m, h) bool: the formula in every configuration of part ``p``."""
        part = self.parts[p]
        memo = {} if _memo is None else _memo  # a count often recurs (a lie: n - 1, n + 1, n)
        if isinstance(formula, Const):
            return np.full(part.shape, formula.truth)
        if isinstance(formula, Atom):
            terms = formula.lin.terms
            if terms not in memo:
                main = np.zeros(part.shape[0], np.int64)
                hidden = np.zeros(part.shape[1], np.int64)
                # terms grouped by (deck, columns, weight): one popcount per mask of cards; a card
                # counted twice (zones that differ only outside this part) goes to a second mask
                groups: dict[tuple[bool, tuple[int, ...], int], list[int]] = {}
                for card, zones, w in terms:
                    info = self._term(card, zones)
                    if info and p in info[2]:
                        masks, bit = groups.setdefault((info[0], info[2][p], w), []), 1 << info[1]
                        free = next((i for i, m in enumerate(masks) if not m & bit), None)
                        if free is None:
                            masks.append(bit)
                        else:
                            masks[free] |= bit
                for (is_hidden, cols, w), masks in groups.items():
                    table = part.hidden if is_hidden else part.main
                    content = (table[:, cols[0]] if len(cols) == 1
                               else np.bitwise_or.reduce(table[:, list(cols)], axis=1))
                    for cards in masks:
                        (hidden if is_hidden else main)[:] += w * np.bitwise_count(content & cards).astype(np.int64)
                memo[terms] = main[:, None] + hidden[None, :]
            return OPS[formula.op](memo[terms], formula.value)
        if isinstance(formula, And):
            return np.logical_and.reduce([self.truth(p, f, memo) for f in formula.parts])
        if isinstance(formula, Or):
            return np.logical_or.reduce([self.truth(p, f, memo) for f in formula.parts])
        if isinstance(formula, Not):
            return ~self.truth(p, formula.part, memo)
        raise TypeError(f"not a formula: {formula!r}")


def _shape_problem(deal: Deal) -> str | None:
    """Why the engine cannot count this deal exactly (None: it can)."""
    main = deal.solution_deck
    if main is None:
        return "the deal has no solution"
    if any(deal.zone(z).owner is not None or z not in main.zone_ids() for z in deal.solution):
        return "the solution lies in an owned zone or in two decks"
    if any(d.constraints for d in deal.decks):
        return "a deck constrains its deal by groups"
    if len(main.cards) > MAX_CARDS:
        return f"the solution's deck has more than {MAX_CARDS} cards"
    hidden = [c for d in deal.decks if d is not main for c in d.cards]
    if len(hidden) > MAX_HIDDEN_CARDS:
        return f"the other decks have more than {MAX_HIDDEN_CARDS} cards"
    if deal.deals() >= 2**63:
        return "more than 2**63 deals"
    return None


@lru_cache(maxsize=16)
def _layout(deal: Deal) -> _Layout:
    problem = _shape_problem(deal)
    if problem:
        raise NotExact(problem)
    deal.validate()
    main = deal.solution_deck
    assert main is not None
    others = [d for d in deal.decks if d is not main]
    cards = main.cards
    hidden_cards = tuple(c for d in others for c in d.cards)
    card_bit = {c: (False, i) for i, c in enumerate(cards)}
    card_bit |= {c: (True, i) for i, c in enumerate(hidden_cards)}
    deck_bits = {d.id: sum(1 << card_bit[c][1] for c in d.cards) for d in others}
    owners = [o for o in deal.players if any(z.owner == o for z in deal.zones)]
    owners += sorted({z.owner for z in deal.zones if z.owner is not None} - set(owners))
    parts, place = [], {}
    for owner in [None, *owners]:
        zones = tuple(z for z in main.zones if z.owner == owner)
        hidden = tuple((d, z) for d in others for z in d.zones if owner is not None and z.owner == owner)
        rows = (multinomial(len(cards), [z.size for z in zones] + [len(cards) - sum(z.size for z in zones)])
                * prod(multinomial(len(d.cards), [z.size, len(d.cards) - z.size]) for d, z in hidden))
        if rows > MAX_ROWS:
            raise NotExact(f"{rows} configurations for the zones of {owner or 'the table'}")
        table = _configurations([(z.size, (1 << len(cards)) - 1) for z in zones])
        htable = _configurations([(z.size, deck_bits[d.id]) for d, z in hidden])
        index = len(parts)
        place |= {z.id: (index, c, False) for c, z in enumerate(zones)}
        place |= {z.id: (index, c, True) for c, (_d, z) in enumerate(hidden)}
        parts.append(_Part(owner, tuple(z.id for z in zones), tuple(z.id for _d, z in hidden),
                           table, htable, np.bitwise_or.reduce(table, axis=1, initial=0),
                           np.bitwise_or.reduce(htable, axis=1, initial=0),
                           tuple(_bits(table[:, c], len(cards)).astype(np.float64) for c in range(len(zones)))))
    rest_zones = {d.id: tuple((z.id, z.size) for z in d.zones if z.owner is None) for d in others}
    rest = prod(multinomial(sum(s for _z, s in zs), [s for _z, s in zs]) for zs in rest_zones.values())
    solution = tuple(place[z][1] for z in deal.solution)
    deck_zones = {c: frozenset(d.zone_ids()) for d in deal.decks for c in d.cards}
    return _Layout(deal, cards, hidden_cards, tuple(parts), place, card_bit, solution, rest, rest_zones,
                   deck_zones)


def applicable(deal: Deal, facts: Iterable[Fact] = ()) -> bool:
    """True when :class:`DPKnowledge` counts this deal under these facts exactly.

    The solution lies in unowned zones of one deck (at most ``MAX_CARDS``
    cards); the other decks deal into one zone per owner plus unowned rest
    zones; no deck has group constraints; each fact speaks of one owner's
    zones (of any deck) or of the solution deck's unowned zones only.

    >>> from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
    >>> from ruleslawyer.spec.facts import Fact, member
    >>> deck = Deck("d", ("a", "b", "c"), (Zone("hand:Ann", "hand", "Ann", 1),
    ...     Zone("hand:Bob", "hand", "Bob", 1), Zone("under", "under", None, 1)))
    >>> deal = Deal((deck,), solution=("under",), players=("Ann", "Bob"))
    >>> applicable(deal, [Fact(member("a", {"hand:Ann"}) == 1)])
    True
    >>> applicable(deal, [Fact(member("a", {"hand:Ann", "hand:Bob"}) == 1)])
    False
    """
    try:
        layout = _layout(deal)
        for fact in facts:
            p = layout.part_of(fact.formula)
            if fact.weighted:
                _likelihood_part(layout, fact, p)
    except (NotExact, DealError):
        return False
    return True


def _likelihood_part(layout: _Layout, fact: Fact, p: int | None) -> int | None:
    """The one part a weighted fact speaks of, its likelihood included (:class:`NotExact` if several)."""
    lik = fact.likelihood
    for part in (lik if isinstance(lik, tuple) else (lik >= 1,)):
        q = layout.part_of(part)
        if p is not None and q is not None and p != q:
            raise NotExact("a fact weighed by a count in another owner's zones")
        p = q if p is None else p
    return p


def _divisors(layout: _Layout, p: int, lik) -> np.ndarray:
    """(m, h) int64: k of a likelihood in every configuration of part ``p`` (the choices that hold,
    or a count: the number of j >= 1 it reaches)."""
    if isinstance(lik, tuple):
        return sum(layout.truth(p, f).astype(np.int64) for f in lik)
    _lo, hi = lik.bounds()
    k = np.zeros(layout.parts[p].shape, np.int64)
    for j in range(1, hi + 1):
        k += layout.truth(p, lik >= j)
    return k


# -- one part under the universe of cards still in play --------------------------------


@dataclass(frozen=True, eq=False)
class _Frame:
    """The cards still in play: those no part holds in every configuration it allows."""

    keep: int          # solution-deck cards (bits)
    hidden_keep: int   # hidden cards (bits)
    fixed: tuple[tuple[int, int], ...]   # per part, the (main, hidden) cards it surely holds

    @property
    def n(self) -> int:
        return self.keep.bit_count()


@dataclass(frozen=True, eq=False)
class _Reduced:
    """A part's allowed configurations in a frame, summed over subsets.

    ``configs[j]`` is a hidden configuration still possible, with its hidden
    cards (frame bits) and the class of its column: configurations whose main
    rows are the same share a class, its zeta transform and, for the chances
    of main cards, one superset transform.
    """

    rows: np.ndarray       # (m,) int64: frame index of each main configuration
    allowed: np.ndarray    # (m, h) bool: valid and clear of cards other parts surely hold
    configs: tuple[tuple[int, int, int], ...]   # (hidden configuration, hidden union, class)
    zetas: tuple[np.ndarray, ...]               # per class, uint64 of length 2**n
    unions: tuple[int, ...]                     # the hidden unions still possible (): times one)
    offers: tuple[np.ndarray, ...]              # per union, the sum of its configurations' zetas
    settled: bool                               # one configuration left

    @staticmethod
    def of(part: _Part, valid: np.ndarray, frame: _Frame, index: int, weight: np.ndarray | None = None
           ) -> "_Reduced":
        others = [f for q, f in enumerate(frame.fixed) if q != index]
        foreign = sum(m for m, _h in others)
        hforeign = sum(h for _m, h in others)
        allowed = valid & ((part.union & foreign) == 0)[:, None] & ((part.hunion & hforeign) == 0)[None, :]
        rows = part.compressed(True, frame.keep)
        hrows = part.compressed(False, frame.hidden_keep)
        size = 1 << frame.n
        configs, zetas, seen = [], [], {}
        for j in np.flatnonzero(allowed.any(axis=0)):
            key = allowed[:, j].tobytes()
            if weight is not None:  # a configuration counts its weight (a class shares them too)
                key += weight[allowed[:, j], j].tobytes()
            if key not in seen:
                seen[key] = len(zetas)
                if weight is None:
                    column = np.bincount(rows[allowed[:, j]], minlength=size).astype(_U64)
                else:
                    column = np.zeros(size, _U64)
                    np.add.at(column, rows[allowed[:, j]], weight[allowed[:, j], j].astype(_U64))
                zetas.append(_sum_over_subsets(column, frame.n))
            configs.append((int(j), int(hrows[j]), seen[key]))
        offers: dict[int, np.ndarray] = {}
        for _j, u, c in configs:
            offers[u] = offers[u] + zetas[c] if u in offers else zetas[c]
        settled = int(allowed.sum()) == 1
        if settled and list(offers) == [0] and zetas[0][0] == 1:
            offers = {}  # its cards are all out of the frame: its zeta is all ones
        return _Reduced(rows, allowed, tuple(configs), tuple(zetas), tuple(offers), tuple(offers.values()),
                        settled)


# -- the parts chained over the hidden cards they take ------------------------------------------
#
# A world takes, in each part, a main configuration and a hidden one, all disjoint.  Over a
# subset S of the frame's main cards (elementwise in S, so a slice of subsets at a time), the
# parts are chained in some order by the hidden cards taken so far: level k holds one vector per
# set t of hidden cards the first k parts can take together,
#
#     state[k + 1][t | u] = sum over t, u disjoint of state[k][t] * offer_k[u],   state[0][{}] = sign,
#
# and the count sums the last level (its vectors are signed products of the parts' zetas: the
# inclusion-exclusion of the module docstring, hidden cards kept apart by construction).  A
# part's cofactor for union u (the other parts' signed product over the hidden cards u leaves
# free) is the derivative of that sum by offer_k[u]; one backward sweep gives them all:
#
#     adjoint[last level][t] = 1,
#     adjoint[k][t] = sum over u of offer_k[u] * adjoint[k + 1][t | u],
#     cofactor_k[u] = sum over t of state[k][t] * adjoint[k + 1][t | u],
#
# so every cofactor costs about twice the forward chain, whatever the number of parts.  Each step
# is one bilinear map of the same shape: ``out[g] = sum of x[a] * y[b] over the pairs (a, b) of
# group g``, its pairs listed once per sequence of unions (:func:`_plan`).  Sums and products are
# uint64, exact modulo 2**64, so each cofactor and each count is exact modulo 2**64; the counts
# are below 2**63 (``applicable`` requires fewer than 2**63 deals), so reading them back is exact.

Groups = tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True)
class _Plan:
    """Which hidden states meet which unions, for parts chained in a given order."""

    sizes: tuple[int, ...]          # states per level (level 0: nothing taken; empty: no world)
    forward: tuple[Groups, ...]     # per part k: per state of level k + 1, its (state of level k, union)
    cofactor: tuple[Groups, ...]    # per part k: per union, its (state of level k, state of level k + 1)
    backward: tuple[Groups, ...]    # per part k: per state of level k, its (union, state of level k + 1)


@lru_cache(maxsize=256)
def _plan(unions: tuple[tuple[int, ...], ...]) -> _Plan:
    """The plan of a chain: only the states on some way to the last part are kept.

    >>> plan = _plan(((0b001, 0b010, 0b100), (0b001, 0b010), (0b001,)))  # so the first part takes 0b100
    >>> plan.sizes, plan.forward[1], plan.cofactor[0]
    ((1, 1, 1, 1), (((0, 1),),), ((), (), ((0, 0),)))
    >>> _plan(((0b01, 0b10), (0b01, 0b10), (0b01,))).sizes  # three parts, two hidden cards: no world
    ()
    """
    levels: list[tuple[int, ...]] = [(0,)]
    steps: list[list[tuple[int, int, int]]] = []
    for us in unions:
        here = [(i, j, t | u) for i, t in enumerate(levels[-1]) for j, u in enumerate(us) if not t & u]
        keys = tuple(sorted({k for _i, _j, k in here}))
        index = {k: d for d, k in enumerate(keys)}
        steps.append([(i, j, index[k]) for i, j, k in here])
        levels.append(keys)
    alive = [set(range(len(levels[-1])))]
    for step in reversed(steps):
        alive.insert(0, {i for i, _j, d in step if d in alive[0]})
    new = [{old: i for i, old in enumerate(sorted(keep))} for keep in alive]
    steps = [[(new[k][i], j, new[k + 1][d]) for i, j, d in step if i in new[k] and d in new[k + 1]]
             for k, step in enumerate(steps)]
    sizes = tuple(len(n) for n in new) if 0 in alive[0] else ()

    def groups(step: list[tuple[int, int, int]], count: int, key) -> Groups:
        out: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        for pair in step:
            g, a, b = key(*pair)
            out[g].append((a, b))
        return tuple(tuple(g) for g in out)

    if not sizes:
        return _Plan((), (), (), ())
    return _Plan(sizes,
                 tuple(groups(s, sizes[k + 1], lambda i, j, d: (d, i, j)) for k, s in enumerate(steps)),
                 tuple(groups(s, len(unions[k]), lambda i, j, d: (j, i, d)) for k, s in enumerate(steps)),
                 tuple(groups(s, sizes[k], lambda i, j, d: (i, j, d)) for k, s in enumerate(steps)))


@dataclass(frozen=True, eq=False)
class _Chain:
    """The forward sweep over every subset: the count and what the backward sweep starts from."""

    order: tuple[int, ...]            # the parts chained (those not times one), in chain order
    plan: _Plan | None                # None: no part chained, or no world
    states: list[list[np.ndarray]]    # levels 1 .. last of the chain: per state, 2**n values
    last: list[np.ndarray]            # the last part's cofactors: per union, 2**n values
    total: int                        # the signed sum, before the rest's deals, modulo 2**64


#: Spare uint64 arrays by length, for the sweeps' big arrays: fresh pages cost more than the
#: arithmetic done on them, so arrays a sweep is done with are handed back and taken again.
_SPARE: dict[int, list[np.ndarray]] = {}
_SPARE_MAX = 64   # per length


def _take(size: int, count: int) -> list[np.ndarray]:
    """``count`` uint64 arrays of ``size`` (contents undefined), spares first."""
    spare = _SPARE.get(size, [])
    out = []
    for _ in range(count):
        try:
            out.append(spare.pop())
        except IndexError:
            out.append(np.empty(size, _U64))
    return out


def _give(arrays: Iterable[np.ndarray]) -> None:
    """Hand arrays back (each once, and used by nobody after)."""
    for a in arrays:
        spare = _SPARE.setdefault(len(a), [])
        if len(spare) < _SPARE_MAX:
            spare.append(a)


#: The forward sweep of the knowledge counted last (a weak reference to it, the sweep): its answers
#: usually follow, and they reuse it; one is kept at a time, its arrays being big.
_LAST_CHAIN: tuple[weakref.ref, _Chain] | None = None


def _bilinear(out: Sequence[np.ndarray], groups: Groups, x: Sequence[np.ndarray],
              y: Sequence[np.ndarray] | None, scratch: np.ndarray) -> None:
    """In place: ``out[g] = sum of x[a] * y[b]`` over the pairs ``(a, b)`` of ``groups[g]`` (``y`` None: ones)."""
    for o, pairs in zip(out, groups):
        if not pairs:
            o.fill(0)
        elif y is None:
            if len(pairs) == 1:
                np.copyto(o, x[pairs[0][0]])
                continue
            np.add(x[pairs[0][0]], x[pairs[1][0]], out=o)
            for a, _b in pairs[2:]:
                np.add(o, x[a], out=o)
        else:
            a, b = pairs[0]
            np.multiply(x[a], y[b], out=o)
            for a, b in pairs[1:]:
                np.multiply(x[a], y[b], out=scratch)
                np.add(o, scratch, out=o)


# -- the knowledge --------------------------------------------------------------------------


def _per_card(members: np.ndarray, weights: np.ndarray, total: int) -> list[int]:
    """``sum(weights[r] * members[r, card])`` for each card: worlds with the card in the zone."""
    if total < 2**53:  # every partial sum counts worlds, so float64 (BLAS) is exact
        return (weights.astype(np.float64) @ members).astype(np.int64).tolist()
    return [int(x) for x in weights @ members.astype(np.int64)]


@dataclass(frozen=True)
class _Counts:
    """Exact counts behind every answer (worlds where the card is in the zone)."""

    total: int
    zones: dict[str, dict[str, int]]     # card -> zone -> worlds
    solution: dict[str, int]             # card -> worlds where it is in the solution
    solutions: tuple[frozenset[str], ...]


@dataclass(frozen=True, eq=False)
class DPKnowledge:
    """The worlds (full deals of every deck) fitting the facts, counted by parts.

    Immutable: :meth:`with_fact` returns a new knowledge sharing every part
    the fact does not speak of.
    """

    deal: Deal
    facts: tuple[Fact, ...]
    _layout: _Layout = field(repr=False)
    _valid: tuple[np.ndarray, ...] = field(repr=False)
    _frame: _Frame | None = field(repr=False)          # None: no world is left
    _reduced: list = field(repr=False, compare=False)  # per part: _Reduced, filled on demand
    #: Where a fact this engine does not count sends every fact (None: :class:`NotExact` is raised).
    fallback: Callable[[Deal, tuple[Fact, ...]], object] | None = field(default=None, repr=False, compare=False)
    #: Per part, whole-number weights of its configurations (None: no weighted fact yet; see
    #: :meth:`_weigh`): the chances weigh them, the count of deals does not.
    _weight: tuple[np.ndarray | None, ...] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def initial(cls, deal: Deal, fallback: Callable[[Deal, tuple[Fact, ...]], object] | None = None
                ) -> "DPKnowledge":
        """Every deal, no fact yet; :class:`NotExact` if the deal is out of reach."""
        layout = _layout(deal)
        valid = tuple(np.ones(p.shape, bool) for p in layout.parts)
        frame = cls._frame_of(layout, valid, [(0, 0)] * len(valid), range(len(valid)))
        return cls(deal, (), layout, valid, frame, [None] * len(valid), fallback)

    @property
    def worlds(self) -> str:
        return "deals"

    @staticmethod
    def _frame_of(layout: _Layout, valid: Sequence[np.ndarray], fixed: list[tuple[int, int]],
                  changed: Iterable[int]) -> _Frame | None:
        for p in changed:
            part, ok = layout.parts[p], valid[p]
            used, hused = ok.any(axis=1), ok.any(axis=0)
            if not used.any():
                return None
            fixed[p] = (int(np.bitwise_and.reduce(part.union[used])),
                        int(np.bitwise_and.reduce(part.hunion[hused])))
        mains, hiddens = [m for m, _h in fixed], [h for _m, h in fixed]
        if sum(mains) != reduce(or_, mains, 0) or sum(hiddens) != reduce(or_, hiddens, 0):
            return None  # two parts each surely hold the same card
        return _Frame(((1 << len(layout.cards)) - 1) & ~sum(mains),
                      ((1 << len(layout.hidden_cards)) - 1) & ~sum(hiddens), tuple(fixed))

    def with_fact(self, fact: Fact) -> "DPKnowledge":
        """The knowledge after one more fact (:class:`NotExact` if it ties several owners)."""
        facts, weight = self.facts + (fact,), self._weight
        try:
            p = self._layout.part_of(fact.formula)
            if fact.weighted:
                p = _likelihood_part(self._layout, fact, p)
        except NotExact:
            if self.fallback is None:
                raise
            return self.fallback(self.deal, facts)  # type: ignore[return-value]
        if self._frame is None:
            return DPKnowledge(self.deal, facts, self._layout, self._valid, None, [], self.fallback, weight)
        if p is None:
            if fact.formula.holds({}):
                return DPKnowledge(self.deal, facts, self._layout, self._valid, self._frame, self._reduced,
                                   self.fallback, weight)
            return DPKnowledge(self.deal, facts, self._layout, self._valid, None, [], self.fallback, weight)
        ok = self._valid[p] & self._layout.truth(p, fact.formula)
        valid = self._valid[:p] + (ok,) + self._valid[p + 1:]
        if fact.weighted:
            try:
                weight = self._weigh(p, ok, fact)
            except NotExact:
                if self.fallback is None:
                    raise
                return self.fallback(self.deal, facts)  # type: ignore[return-value]
        frame = self._frame_of(self._layout, valid, list(self._frame.fixed), [p])
        if frame is None:
            return DPKnowledge(self.deal, facts, self._layout, valid, None, [], self.fallback, weight)
        if frame.keep == self._frame.keep and frame.hidden_keep == self._frame.hidden_keep \
                and frame.fixed == self._frame.fixed:
            reduced = list(self._reduced)
            reduced[p] = None
        else:
            reduced = [None] * len(valid)
        return DPKnowledge(self.deal, facts, self._layout, valid, frame, reduced, self.fallback, weight)

    def _weigh(self, p: int, ok: np.ndarray, fact: Fact) -> tuple[np.ndarray | None, ...]:
        """The parts' weights after a weighted fact about part ``p`` (``ok``: where the facts hold):
        each configuration's weight times ``L / k``, L the common multiple of k where ``ok``, then
        the part's common factor taken out; :class:`NotExact` when the weights could pass 2**63."""
        k = _divisors(self._layout, p, fact.likelihood)
        held = k[ok]
        if held.size and held.min() < 1:
            raise FactError("a choice among fewer than one possibility in a world where the fact holds")
        common = lcm(*np.unique(held).tolist()) if held.size else 1
        factor = np.where(ok, common // np.maximum(k, 1), 0).astype(object)
        old = None if self._weight is None else self._weight[p]
        table = factor if old is None else factor * old.astype(object)
        nonzero = table[table != 0]
        shared = gcd(*nonzero.tolist()) if nonzero.size else 1
        table = table // (shared or 1)
        weights = list(self._weight or [None] * len(self._valid))
        weights[p] = table
        top = self.deal.deals()
        for w in weights:
            if w is not None and w.size:
                top *= int(w.max())
        if top >= 2**63:
            raise NotExact(f"the weights of the choices seen may sum to {top:,}, beyond 2**63")
        weights[p] = table.astype(np.int64)
        return tuple(weights)

    def with_facts(self, facts: Iterable[Fact]) -> "DPKnowledge":
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    # -- the dynamic program ----------------------------------------------------------------

    def _part(self, p: int) -> _Reduced:
        assert self._frame is not None
        if self._reduced[p] is None:
            weight = None if self._weight is None else self._weight[p]
            valid, frame, kept = self._valid[p], self._frame, self._layout._reduced
            key = (p, id(valid), id(weight), frame.keep, frame.hidden_keep, frame.fixed)
            found = kept.get(key)  # the arrays kept alive with it: their ids are still theirs
            if found is None or found[0] is not valid or found[1] is not weight:
                red = _Reduced.of(self._layout.parts[p], valid, frame, p, weight)
                size = sum(z.nbytes for z in (*red.zetas, *red.offers)) + red.rows.nbytes + red.allowed.nbytes
                found = kept.put(key, (valid, weight, red), size)
            self._reduced[p] = found[2]
        return self._reduced[p]

    def _forward(self) -> _Chain:
        """The parts chained over the subsets, forward (see :func:`_plan`), a slice at a time.

        Keeps every level's states and the last part's cofactors: the backward sweep of
        :meth:`_backward` starts from them.
        """
        assert self._frame is not None
        n, count = self._frame.n, len(self._valid)
        reduced = [self._part(p) for p in range(count)]
        # parts that are times one drop out; few unions first keeps the levels small
        order = tuple(sorted((p for p in range(count) if reduced[p].unions), key=lambda p: len(reduced[p].unions)))
        if not order:
            return _Chain(order, None, [], [], int(_signs(n).sum(dtype=_U64)))
        plan = _plan(tuple(reduced[p].unions for p in order))
        if not plan.sizes:
            return _Chain(order, None, [], [], 0)
        size, last = 1 << n, len(order) - 1
        step = min(size, _BLOCK)
        offers = [reduced[p].offers for p in order]
        states = [_take(size, m) for m in plan.sizes[1:-1]]
        final = _take(size, len(offers[last]))
        scratch = np.empty(step, _U64)
        total = 0
        for lo in range(0, size, step):
            block = slice(lo, lo + step)
            offer = [[o[block] for o in os] for os in offers]
            state = [[_signs(n)[block]], *([s[block] for s in level] for level in states)]
            for k in range(last):
                _bilinear(state[k + 1], plan.forward[k], state[k], offer[k], scratch)
            grad = [g[block] for g in final]
            _bilinear(grad, plan.cofactor[last], state[last], None, scratch)
            for g, o in zip(grad, offer[last]):
                total += int(np.dot(g, o))
        return _Chain(order, plan, states, final, total)

    def _chain(self) -> _Chain:
        """The forward sweep, shared by the count and the answers that follow it (one kept at a time)."""
        global _LAST_CHAIN
        held = _LAST_CHAIN
        if held is not None and held[0]() is self:
            return held[1]
        chain = self._forward()
        _LAST_CHAIN = (weakref.ref(self), chain)
        return chain

    def _drop_chain(self, grads: Sequence[list[np.ndarray] | None]) -> None:
        """The answers are cached: the sweeps' arrays (the forward's, the cofactors) are spare again."""
        global _LAST_CHAIN
        held = _LAST_CHAIN
        if held is None or held[0]() is not self:
            return  # recomputed (another knowledge was counted in between): its arrays are its own
        _LAST_CHAIN = None
        chain = held[1]
        arrays = {id(a): a for a in [*(a for level in chain.states for a in level), *chain.last,
                                     *(a for g in grads if g for a in g)]}
        _give(arrays.values())

    def _backward(self, chain: _Chain) -> tuple[list[list[np.ndarray] | None], list[list[int] | None]]:
        """Every part's cofactors from the forward sweep (see :func:`_plan`).

        For every part not settled: its cofactor per union (uint64 over every subset) and, if it
        has hidden zones, the sum over subsets of cofactor x offer per union (the worlds through
        that union, before the rest's deals, modulo 2**64).
        """
        assert self._frame is not None
        n, count, plan, order = self._frame.n, len(self._valid), chain.plan, chain.order
        reduced = [self._part(p) for p in range(count)]
        grads: list[list[np.ndarray] | None] = [None] * count
        masses: list[list[int] | None] = [None] * count
        if plan is None:  # every part settled (or no world): nothing to share out
            return grads, masses
        size, last = 1 << n, len(order) - 1
        step = min(size, _BLOCK)
        offers = [reduced[p].offers for p in order]
        wanted = [not reduced[p].settled for p in order]
        for k, p in enumerate(order):
            if wanted[k]:
                grads[p] = _take(size, len(reduced[p].unions)) if k != last else list(chain.last)
                if self._layout.parts[p].hidden_zones:
                    masses[p] = [0] * len(reduced[p].unions)
        adjoints = [np.empty((m, step), _U64) for m in plan.sizes[1:-1]]
        scratch = np.empty(step, _U64)
        for lo in range(0, size, step):
            block = slice(lo, lo + step)
            offer = [[o[block] for o in os] for os in offers]
            state = [[_signs(n)[block]], *([s[block] for s in level] for level in chain.states)]
            grad = [[g[block] for g in grads[p]] if wanted[k] else None for k, p in enumerate(order)]
            adjoint = None  # the last level's: ones
            for k in reversed(range(last + 1)):
                if wanted[k] and k != last:
                    _bilinear(grad[k], plan.cofactor[k], state[k], adjoint, scratch)
                if masses[order[k]] is not None:
                    mass = masses[order[k]]
                    for j, (g, o) in enumerate(zip(grad[k], offer[k])):
                        mass[j] += int(np.dot(g, o))
                if k:
                    _bilinear(adjoints[k - 1], plan.backward[k], offer[k], adjoint, scratch)
                    adjoint = adjoints[k - 1]
        return grads, masses

    @cached_property
    def _total(self) -> int:
        if self._frame is None:
            return 0
        return _exact(self._chain().total * self._layout.rest)

    def count(self) -> int:
        """How many worlds (full deals of every deck) fit the facts (unweighted)."""
        return self._total if self._weight is None else self._plain._total

    @cached_property
    def _plain(self) -> "DPKnowledge":
        """This knowledge without weights: what counts the deals."""
        return DPKnowledge(self.deal, self.facts, self._layout, self._valid, self._frame,
                           [None] * len(self._valid), self.fallback)

    def consistent(self) -> bool:
        return self.count() > 0

    @cached_property
    def _counts(self) -> _Counts:
        total = self._total  # weighted, with weighted facts
        if total == 0:
            raise Inconsistent("no deal fits the facts")
        layout, parts = self._layout, self._layout.parts
        reduced = [self._part(p) for p in range(len(parts))]
        cofactors, masses = self._backward(self._chain())
        # one owner's chances follow from the others': the one with the most classes to transform
        single = [p for p in range(1, len(parts)) if len(parts[p].zones) == 1 and not reduced[p].settled]
        derived = max(single, key=lambda p: len(reduced[p].zetas), default=None)
        zones: dict[str, dict[str, int]] = {c: {} for c in layout.deal.cards}
        held = [0] * len(layout.cards)
        table_weights = np.zeros(0, np.int64)
        for p, part in enumerate(parts):
            weights, hidden_mass = self._weights(p, cofactors[p], masses[p], total, main=p != derived)
            if p == 0:
                table_weights = weights
            for col, zone in enumerate(part.zones if p != derived else ()):
                per_card = _per_card(part.members[col], weights, total)
                held = [a + b for a, b in zip(held, per_card)]
                for c, n in zip(layout.cards, per_card):
                    zones[c][zone] = n
            for col, zone in enumerate(part.hidden_zones):
                for c in self.deal.deck_of_zone(zone).cards:
                    bit = 1 << layout.card_bit[c][1]
                    zones[c][zone] = sum(n for j, n in hidden_mass.items() if part.hidden[j, col] & bit)
        if derived is not None:
            for c, n in zip(layout.cards, held):
                zones[c][parts[derived].zones[0]] = total - n
        self._rest_counts(zones, total)
        table = parts[0]
        solution = {c: 0 for c in layout.cards}
        for col in layout.solution:
            for c, n in zip(layout.cards, _per_card(table.members[col], table_weights, total)):
                solution[c] += n
        masks = np.bitwise_or.reduce(table.main[:, list(layout.solution)], axis=1, initial=0)
        found = np.unique(masks[table_weights > 0])
        solutions = tuple(frozenset(c for i, c in enumerate(layout.cards) if int(m) >> i & 1) for m in found)
        self._drop_chain(cofactors)
        return _Counts(total, zones, solution, solutions)

    def _weights(self, p: int, cofactor: Sequence[np.ndarray] | None, mass: Sequence[int] | None, total: int,
                 main: bool) -> tuple[np.ndarray, dict[int, int]]:
        """Part ``p``: worlds through each main configuration (if ``main``) and each hidden one."""
        red, rest = self._part(p), self._layout.rest
        weights = np.zeros(len(red.rows), np.int64)
        if red.settled:  # one configuration left: every world goes through it
            row, j = np.argwhere(red.allowed)[0]
            weights[row] = total
            return weights, {int(j): total}
        assert cofactor is not None
        index = {u: i for i, u in enumerate(red.unions)}
        sharing = Tally(u for _j, u, _c in red.configs)
        hidden_mass: dict[int, int] = {}
        for cls, zeta in enumerate(red.zetas):
            members = [(j, index[u]) for j, u, c in red.configs if c == cls]
            if mass is not None:
                for j, i in members:  # a union of one configuration: its mass came with the sweep
                    worlds = mass[i] if sharing[red.unions[i]] == 1 else int(np.dot(cofactor[i], zeta))
                    hidden_mass[j] = _exact(worlds * rest)
            if not main:
                continue
            acc, = _take(len(cofactor[0]), 1)
            np.copyto(acc, cofactor[members[0][1]])
            for _j, i in members[1:]:
                acc += cofactor[i]
            _sum_over_subsets(acc, self._frame.n, supersets=True)  # type: ignore[union-attr]
            rows = red.allowed[:, members[0][0]]  # the same for every member of the class
            through = acc[red.rows[rows]].view(np.int64) * rest
            if self._weight is not None and self._weight[p] is not None:  # the same weights too
                through = through * self._weight[p][rows, members[0][0]]
            weights[rows] += through
            _give([acc])
        return weights, hidden_mass

    def _rest_counts(self, zones: dict[str, dict[str, int]], total: int) -> None:
        """Hidden cards no owner holds are in the rest zones, shared by size (nothing speaks of them)."""
        for deck_id, rest in self._layout.rest_zones.items():
            room = sum(s for _z, s in rest)
            deck = next(d for d in self.deal.decks if d.id == deck_id)
            for c in deck.cards:
                left = total - sum(zones[c].values())
                for z, s in rest:
                    zones[c][z] = left * s // room if room else 0

    # -- answers ------------------------------------------------------------------------------

    def _require(self) -> _Counts:
        if self._frame is None:
            raise Inconsistent("no deal fits the facts")
        return self._counts

    def solution_count(self) -> int:
        """How many distinct solutions (contents of the solution zones) are left."""
        return len(self._require().solutions) if self.count() else 0

    def determined(self) -> bool:
        """True when exactly one solution is left."""
        return self.solution_count() == 1

    def status(self) -> dict[str, str]:
        counts = self._require()
        return {c: "in" if n == counts.total else "out" if n == 0 else "open"
                for c, n in counts.solution.items()}

    def probabilities(self) -> dict[str, float]:
        counts = self._require()
        return {c: n / counts.total for c, n in counts.solution.items()}

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        counts = self._require()
        return {c: {z: n / counts.total for z, n in per.items()} for c, per in counts.zones.items()}

    def zone_counts(self) -> dict[str, dict[str, int]]:
        """Card -> zone -> worlds where the card lies there (exact)."""
        return {c: dict(per) for c, per in self._require().zones.items()}

    def solution_counts(self) -> dict[str, int]:
        """Card -> worlds where it is in the solution (exact)."""
        return dict(self._require().solution)

    def solution_given(self, cards: Iterable[str], zones: frozenset[str]
                       ) -> dict[str, tuple[int, dict[str, int]]] | None:
        """For each of ``cards``: (worlds where it lies in ``zones``, card -> those of them with the
        card in the solution), exact, from :meth:`owner_table` (None where it gives none).  After a
        weighted fact the numbers are weights, as behind :meth:`probabilities` (only their ratios
        are chances).

        >>> from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
        >>> deck = Deck("d", ("a", "b", "c"), (Zone("hand:Ann", "hand", "Ann", 1),
        ...     Zone("hand:Bob", "hand", "Bob", 1), Zone("under", "under", None, 1)))
        >>> k = DPKnowledge.initial(Deal((deck,), solution=("under",), players=("Ann", "Bob")))
        >>> k.solution_given(["a"], frozenset({"hand:Ann"}))["a"]
        (2, {'a': 0, 'b': 1, 'c': 1})
        """
        cards = list(cards)
        if any(self._layout.card_bit.get(c, (True, 0))[0] for c in cards):
            return None  # a card of a second deck: its chances come through the hidden chain
        table = self.owner_table(zones)
        return None if table is None else table.solution_given(cards)

    def owner_table(self, zones: frozenset[str]) -> OwnerTable | None:
        """Deals by (the content of ``zones``, the solution), exact, in one pass over the subsets
        (:class:`~ruleslawyer.solver.table.OwnerTable`); None when this takes the chain over hidden
        cards, or ``zones`` are not main zones of one owner.

        The deals with owner t's configuration r and the table's r0 are the other owners'
        configurations covering the rest of the frame: with the signed product of their zetas
        summed over supersets (R), ``R[r | r0]`` times the ways of r and of r0 (zero when r and r0
        overlap: the others' sizes then cannot cover the rest).  One product, one transform, one
        gather per pair of rows: no knowledge per value or per card.
        """
        layout = self._layout
        places = {layout.place.get(z, (None, 0, True)) for z in zones}
        if not places or any(q is None or h for q, _c, h in places) or len({q for q, _c, _h in places}) != 1:
            return None
        t = next(iter(places))[0]
        if t == 0:
            return None
        part, table = layout.parts[t], layout.parts[0]
        held = np.bitwise_or.reduce(part.main[:, [layout.place[z][1] for z in zones]], axis=1)
        solution = np.bitwise_or.reduce(table.main[:, list(layout.solution)], axis=1, initial=0)
        if self._frame is None:
            empty = np.zeros((0, 0), np.int64)
            return OwnerTable(layout.cards, np.zeros(0, np.int64), np.zeros(0, np.int64), empty, empty, self.deal)
        counted = self._owner_counts(t, held, solution)
        if counted is None:
            return None
        rows, columns, weight = counted
        worlds = weight
        if self._weight is not None:  # the deals themselves, unweighted, on the same rows and columns
            plain = self._plain._owner_counts(t, held, solution)
            if plain is None or not (np.array_equal(plain[0], rows) and np.array_equal(plain[1], columns)):
                return None
            worlds = plain[2]
        return OwnerTable(layout.cards, rows, columns, worlds, weight, self.deal)

    def _owner_counts(self, t: int, held: np.ndarray, solution: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(the contents, the solutions, the (weighted) deals of each pair) of :meth:`owner_table`."""
        assert self._frame is not None
        reduced = [self._part(p) for p in range(len(self._valid))]
        if any(u for r in reduced for u in r.unions):
            return None  # hidden cards still in play: the parts are chained, not multiplied
        n, rest = self._frame.n, self._layout.rest
        cof = _signs(n).copy()
        for p, r in enumerate(reduced):
            if p not in (0, t) and r.offers:
                cof *= r.offers[0]
        _sum_over_subsets(cof, n, supersets=True)
        ways = []
        for p in (t, 0):
            w = None if self._weight is None else self._weight[p]
            red = reduced[p]
            ways.append((red.allowed if w is None else red.allowed * w).sum(axis=1).astype(np.int64))
        rt, r0 = np.flatnonzero(ways[0]), np.flatnonzero(ways[1])
        contents, row_of = np.unique(held[rt], return_inverse=True)
        columns, col_of = np.unique(solution[r0], return_inverse=True)
        # the table's rows summed by solution: (r0, s) uint64 of each row's ways in its column
        spread = np.zeros((len(r0), len(columns)), _U64)
        spread[np.arange(len(r0)), col_of] = ways[1][r0].astype(_U64)
        out = np.zeros((len(contents), len(columns)), _U64)
        frame_t, frame_0 = reduced[t].rows[rt], reduced[0].rows[r0]
        step = max(1, (1 << 20) // max(1, len(r0)))
        for lo in range(0, len(rt), step):
            block = slice(lo, lo + step)
            through = cof[frame_t[block, None] | frame_0[None, :]] @ spread  # (rows, s), modulo 2**64
            through *= ways[0][rt[block], None].astype(_U64)
            np.add.at(out, row_of[block], through)
        return contents, columns, (out * _U64(rest)).view(np.int64)

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        """No deck this engine counts draws a pattern: always empty (once consistent)."""
        self._require()
        return {}

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        if not self.count():
            return []
        found = self._require().solutions
        return list(found) if len(found) <= limit else None
