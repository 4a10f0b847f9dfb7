"""Exact counting and probabilities by enumerating worlds with numpy.

Two modes answer the :class:`~ruleslawyer.solver.engine.Knowledge` protocol:

* **projected** (:class:`ProjectedKnowledge`, ``worlds == "solutions"``):
  when the deal and the facts project (see :mod:`solver.frame`), a
  :class:`Space` lists every solution once per deal (cached), grouped by
  pattern, as bit-packed per-card columns.  A knowledge is the packed mask of
  the solutions still fitting, plus the pins; adding a fact is one
  vectorised AND and every query is a popcount.
* **full** (:class:`FullKnowledge`, ``worlds == "deals"``): a
  :class:`FullSpace` lists every deal of every deck as rows of zone
  indexes with its prior; a fact is evaluated on all of them at once.  Only
  for small spaces: above :data:`MAX_WORLDS` deals it raises
  :class:`~ruleslawyer.solver.errors.TooBig`.

A projected knowledge given a fact that does not project hands its facts to
its ``fallback`` (by default: full mode, see :mod:`solver.engines`).

>>> from ruleslawyer.spec.dealmodel import Deck, GroupCount, Zone
>>> from ruleslawyer.spec.facts import count, member
>>> hands = ("hand:Ann", "hand:Bob")
>>> deck = Deck("d", ("a", "b", "c", "d", "e"),
...             (Zone("hand:Ann", "hand", "Ann", 1, "owner"), Zone("hand:Bob", "hand", "Bob", 1, "owner"),
...              Zone("rest", "rest", None, 3)),
...             (GroupCount(hands, (("a", "b"), ("c", "d", "e")), ((1, 1),)),))
>>> deal = Deal((deck,), solution=hands)
>>> k = ProjectedKnowledge.initial(deal).with_fact(Fact(count(["a", "c"], hands) == 0))
>>> k.worlds, k.count(), k.status()["b"], round(k.probabilities()["d"], 3)
('solutions', 2, 'in', 0.5)
>>> full = k.with_fact(Fact(member("b", {"hand:Ann"}) == 0))
>>> full.worlds, full.count(), full.solution_count(), full.zone_probabilities()["b"]["hand:Bob"]
('deals', 2, 2, 1.0)
"""

from __future__ import annotations

import os

import itertools
from dataclasses import dataclass
from functools import cached_property, lru_cache, reduce
from math import comb, prod
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np

from ..spec.dealmodel import Deal, DealError, Deck
from ..spec.facts import OPS, And, Atom, Const, Fact, FactError, Formula, Lin, Not
from .engine import Knowledge, add_facts
from .errors import Inconsistent, SolverError, TooBig
from .frame import Frame, Pin, constraint_blocks, frame_of, pins_conflict, validate

__all__ = ["Space", "ProjectedKnowledge", "FullSpace", "FullKnowledge", "Prepared",
           "MAX_SETS", "MAX_WORLDS", "full_size", "full_knowledge"]

def _limit(name: str, default: int) -> int:
    """A limit, raised (or lowered) by the environment variable ``RULESLAWYER_<NAME>``."""
    raw = os.environ.get(f"RULESLAWYER_{name}")
    try:
        return max(1, int(raw)) if raw is not None else default
    except ValueError:
        return default


#: Refuse to enumerate more solutions than this (memory: ~cards bytes each; 2,000,000 of
#: 32 cards take about 80 MB and a second to build).
MAX_SETS = _limit("MAX_SETS", 2_000_000)
#: Refuse to enumerate more full deals than this (memory: ~cards bytes each, plus 16).
MAX_WORLDS = _limit("MAX_WORLDS", 1_000_000)

_WORD = 64
_LE64 = np.dtype("<u8")
_ONES = np.iinfo(np.uint64).max
_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], np.uint8)

Fallback = Callable[[Deal, tuple[Fact, ...]], Knowledge]


def _popcount_by_table(words: np.ndarray) -> np.ndarray:
    """Set bits per 64-bit word, for numpy < 2.0 (no ``np.bitwise_count``)."""
    as_bytes = np.ascontiguousarray(words).view(np.uint8)
    return _BYTE_POPCOUNT[as_bytes].reshape(*words.shape, 8).sum(axis=-1, dtype=np.uint8)


_popcount = getattr(np, "bitwise_count", _popcount_by_table)


def _pack(flags: np.ndarray) -> np.ndarray:
    """Pack booleans (last axis a multiple of 64) into little-endian words."""
    return np.packbits(flags, axis=-1, bitorder="little").view(_LE64)


def _evaluate(formula: Formula, atom: Callable[[Atom], np.ndarray],
              constant: Callable[[bool], np.ndarray]) -> np.ndarray:
    """A formula over every world at once: atoms by ``atom``, connectives by ``& | ~``."""
    if isinstance(formula, Atom):
        return atom(formula)
    if isinstance(formula, Const):
        return constant(formula.truth)
    if isinstance(formula, Not):
        return ~_evaluate(formula.part, atom, constant)
    parts = [_evaluate(p, atom, constant) for p in formula.parts]
    return reduce(np.bitwise_and if isinstance(formula, And) else np.bitwise_or, parts)


def _weighted_sum(columns: Sequence[np.ndarray], weights: Sequence[int], size: int) -> np.ndarray:
    """``sum(w * column)`` of 0/1 columns (uint8 when every weight is 1 and it cannot overflow)."""
    if not columns:
        return np.zeros(size, np.uint8)
    if len(columns) < 256 and all(w == 1 for w in weights):
        total = columns[0].astype(np.uint8, copy=True)
        for column in columns[1:]:
            total += column
        return total
    total = np.zeros(size, np.int64)
    for column, w in zip(columns, weights):
        total += column.astype(np.int64) * w
    return total


def _subsets(groups: Sequence[Sequence[str]], counts: Sequence[int]) -> np.ndarray:
    """Every choice of ``counts[i]`` cards of each group: (n, cards) uint8, in product order.

    >>> _subsets([("a", "b"), ("c",)], [1, 1]).tolist()
    [[1, 0, 1], [0, 1, 1]]
    """
    parts = []
    for group, k in zip(groups, counts):
        combos = list(itertools.combinations(range(len(group)), k))
        member = np.zeros((len(combos), len(group)), np.uint8)
        for row, chosen in enumerate(combos):
            member[row, list(chosen)] = 1
        parts.append(member)
    if not parts:
        return np.zeros((1, 0), np.uint8)
    grid = np.indices([len(p) for p in parts]).reshape(len(parts), -1)
    return np.concatenate([p[g] for p, g in zip(parts, grid)], axis=1)


# -- projected mode -------------------------------------------------------------------


class Prepared(NamedTuple):
    """A fact ready to AND into any knowledge of one space (shared by viewpoints)."""

    mask: np.ndarray
    pins: frozenset[Pin]


@dataclass(frozen=True, eq=False)
class Space:
    """Every solution of a projecting deal, as per-card columns.

    Solutions are grouped by pattern, each pattern's block padded with empty
    slots to a whole number of 64-bit words so that per-pattern counts are
    plain sums over word ranges.  Padding slots are never in a mask.
    """

    frame: Frame
    cards: tuple[str, ...]
    index: dict[str, int]
    columns: np.ndarray      # uint8 (n_cards, n_slots): card in the slot's solution
    bits: np.ndarray         # <u8 (n_cards, n_words): the same, packed
    valid: np.ndarray        # <u8 (n_words,): slots holding a real solution
    block_start: np.ndarray  # intp (n_blocks,): first word of each pattern's block
    block_pattern: np.ndarray  # intp (n_blocks,): its pattern (patterns that cannot be dealt have none)
    set_weight: np.ndarray   # float64 (n_blocks,): prior of one solution of each
    n_sets: int

    @classmethod
    def of(cls, deal: Deal) -> "Space":
        """The (cached) space of a deal that projects."""
        return _space_of(deal)

    @classmethod
    def build(cls, deal: Deal) -> "Space":
        validate(deal)
        frame = frame_of(deal)
        if frame is None:
            raise SolverError("the deal does not project: count its deals in full mode")
        feasible = [p for p, c in enumerate(frame.blocks) if c is not None]
        n_sets = sum(prod(comb(len(g), k) for g, k in zip(frame.groups, frame.blocks[p])) for p in feasible)
        if n_sets > MAX_SETS:
            raise TooBig(f"{n_sets:,} solutions are more than the numpy engine enumerates ({MAX_SETS:,})")
        blocks, valid, starts, slots = [], [], [], 0
        for p in feasible:
            block = _subsets(frame.groups, frame.blocks[p])
            pad = -len(block) % _WORD
            starts.append(slots // _WORD)
            blocks.append(np.pad(block, ((0, pad), (0, 0))))
            valid.append(np.arange(len(block) + pad) < len(block))
            slots += len(block) + pad
        columns = np.ascontiguousarray(np.concatenate(blocks).T)
        weights = np.array([float(frame.solution_weight(p)) for p in feasible])
        space = cls(
            frame=frame,
            cards=frame.cards,
            index={c: i for i, c in enumerate(frame.cards)},
            columns=columns,
            bits=np.ascontiguousarray(_pack(columns.astype(bool))),
            valid=_pack(np.concatenate(valid)),
            block_start=np.array(starts, dtype=np.intp),
            block_pattern=np.array(feasible, dtype=np.intp),
            set_weight=weights,
            n_sets=n_sets,
        )
        for array in (columns, space.bits, space.valid, space.block_start, space.block_pattern, weights):
            array.flags.writeable = False
        return space

    def knowledge(self, fallback: Fallback | None = None) -> "ProjectedKnowledge":
        """Nothing known yet: every solution is possible."""
        return ProjectedKnowledge(self.frame.deal, self, self.valid, frozenset(), (),
                                  fallback or full_knowledge)

    def _atom_mask(self, atom: Atom) -> np.ndarray:
        terms, columns, index = atom.lin.terms, self.columns, self.index
        if len(terms) < 256 and all(w == 1 for _c, _z, w in terms):  # the hot path, inlined
            total = columns[index[terms[0][0]]].copy()
            for card, _zones, _w in terms[1:]:
                total += columns[index[card]]
        else:
            total = _weighted_sum([columns[index[c]] for c, _z, _w in terms], [w for _c, _z, w in terms],
                                  columns.shape[1])
        return _pack(OPS[atom.op](total, atom.value))

    def formula_mask(self, formula: Formula) -> np.ndarray:
        """Packed mask of the slots whose solution satisfies a projected formula."""
        if isinstance(formula, Atom):  # the common case, without the recursion
            return self._atom_mask(formula)
        return _evaluate(formula, self._atom_mask,
                         lambda truth: np.full(self.valid.shape, _ONES if truth else 0, _LE64))

    def prepare(self, fact: Fact) -> Prepared | None:
        """The fact's mask and pins, or None when it does not project (a weighted fact never
        does: solutions are counted, not the deals a weight depends on)."""
        if fact.weighted:
            return None
        projection = self.frame.project(fact.formula)
        if projection is None:
            return None
        mask = self.formula_mask(projection.formula)
        for card, _zone in projection.pins:
            mask = mask & self.bits[self.index[card]]
        return Prepared(mask, projection.pins)

    def decode(self, slot: int) -> frozenset[str]:
        """The solution held in one slot."""
        return frozenset(self.cards[i] for i in np.flatnonzero(self.columns[:, slot]))


@lru_cache(maxsize=32)
def _space_of(deal: Deal) -> Space:
    return Space.build(deal)


def _require(count: int) -> int:
    if count == 0:
        raise Inconsistent("no world fits the facts")
    return count


@dataclass(frozen=True, eq=False)
class ProjectedKnowledge:
    """The solutions still fitting the facts added so far, and the pins (immutable).

    Queries are cached on the instance; ``with_fact`` returns a new one.
    ``facts`` are kept so that a fact that does not project can rebuild the
    knowledge elsewhere (``fallback``).
    """

    deal: Deal
    space: Space
    mask: np.ndarray  # <u8 (n_words,)
    pins: frozenset[Pin]
    facts: tuple[Fact, ...]
    fallback: Fallback

    worlds = "solutions"

    def __post_init__(self) -> None:
        self.mask.flags.writeable = False

    @classmethod
    def initial(cls, deal: Deal, fallback: Fallback | None = None) -> "ProjectedKnowledge":
        return Space.of(deal).knowledge(fallback)

    def with_fact(self, fact: Fact) -> Knowledge:
        return self.with_prepared(fact, self.space.prepare(fact))

    def with_prepared(self, fact: Fact, prepared: Prepared | None) -> Knowledge:
        """Add a fact whose :meth:`Space.prepare` is ``prepared`` (to share it)."""
        facts = self.facts + (fact,)
        if prepared is None:
            return self.fallback(self.deal, facts)
        mask, pins = self.mask & prepared.mask, self.pins
        if prepared.pins:
            pins = pins | prepared.pins
            if pins_conflict(pins, self.space.frame.sizes):
                mask = np.zeros_like(mask)
        return ProjectedKnowledge(self.deal, self.space, mask, pins, facts, self.fallback)

    def with_facts(self, facts: Iterable[Fact]) -> Knowledge:
        return add_facts(self, facts)

    @cached_property
    def _pattern_counts(self) -> np.ndarray:
        """Remaining solutions per pattern, int64 (n_patterns,)."""
        return np.add.reduceat(_popcount(self.mask), self.space.block_start, dtype=np.int64)

    @cached_property
    def _card_counts(self) -> np.ndarray:
        """Remaining solutions per card and pattern, int64 (n_cards, n_patterns)."""
        counts = _popcount(self.space.bits & self.mask)
        return np.add.reduceat(counts, self.space.block_start, axis=1, dtype=np.int64)

    @cached_property
    def _count(self) -> int:
        return int(_popcount(self.mask).sum(dtype=np.int64))

    def count(self) -> int:
        """Number of solutions left."""
        return self._count

    solution_count = count

    def consistent(self) -> bool:
        return bool(self.mask.any())

    def determined(self) -> bool:
        """Exactly one solution is left."""
        return self.count() == 1

    def status(self) -> dict[str, str]:
        """Card → "in" (in every solution left), "out" (in none) or "open"."""
        n = _require(self.count())
        totals = self._card_counts.sum(axis=1).tolist()
        return {card: "in" if t == n else "out" if t == 0 else "open"
                for card, t in zip(self.space.cards, totals)}

    def probabilities(self) -> dict[str, float]:
        """Card → probability that it is in the solution, given the facts."""
        _require(self.count())
        w = self.space.set_weight
        probs = (self._card_counts @ w) / (self._pattern_counts @ w)
        return dict(zip(self.space.cards, probs.tolist()))

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        """Card → zone → probability: pinned cards where pinned, the others of the
        solution spread over the places the pins leave free (see :mod:`solver.frame`)."""
        frame = self.space.frame
        inside = self.probabilities()
        pinned = dict(self.pins)
        free = {z: size - sum(1 for p in pinned.values() if p == z) for z, size in frame.sizes.items()}
        places = sum(free.values())
        out = {}
        for card in self.space.cards:
            p = inside[card]
            if card in pinned:
                spread = {z: float(z == pinned[card]) for z in frame.sizes}
            else:
                spread = {z: p * free[z] / places if places else 0.0 for z in frame.sizes}
            out[card] = {z.id: spread.get(z.id, 1 - p) for z in frame.deck.zones}
        return out

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        """Pattern → probability that the solution was drawn with it ({} without a constraint)."""
        _require(self.count())
        if not self.space.frame.patterns:
            return {}
        mass = np.zeros(len(self.space.frame.patterns))
        mass[self.space.block_pattern] = self._pattern_counts * self.space.set_weight
        return dict(zip(self.space.frame.patterns, (mass / mass.sum()).tolist()))

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        """Every solution left, or None when more than ``limit`` are left."""
        if self.count() > limit:
            return None
        flags = np.unpackbits(self.mask.view(np.uint8), bitorder="little")
        return [self.space.decode(slot) for slot in np.flatnonzero(flags)]

    def sample_solutions(self, n: int, rng: Any) -> list[frozenset[str]]:
        """``n`` solutions drawn (with replacement) by their chance given the facts;
        ``rng`` is a :class:`random.Random` (the draw depends on it alone)."""
        if not self.consistent():
            return []
        flags = np.unpackbits(self.mask.view(np.uint8), bitorder="little")
        slots = np.flatnonzero(flags)
        block = np.searchsorted(self.space.block_start * _WORD, slots, side="right") - 1
        weights = self.space.set_weight[block].tolist()
        return [self.space.decode(int(s)) for s in rng.choices(slots.tolist(), weights, k=n)]


# -- full mode ------------------------------------------------------------------------


def _arrangements(sizes: Sequence[int]) -> np.ndarray:
    """Every way to deal ``sum(sizes)`` labelled cards into zones of these sizes.

    Rows are deals, columns cards, values zone indexes:

    >>> _arrangements([1, 2]).tolist()
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    """
    n = sum(sizes)
    rows = np.full((1, n), -1, np.int16)
    for zone, size in enumerate(sizes):
        free = np.nonzero(rows == -1)[1].reshape(len(rows), -1)
        choices = list(itertools.combinations(range(free.shape[1]), size))
        combos = np.array(choices, np.intp).reshape(len(choices), size)
        grown = np.repeat(rows[:, None, :], len(combos), axis=1)
        np.put_along_axis(grown, free[:, combos], zone, axis=2)
        rows = grown.reshape(len(rows) * len(combos), n)
    return rows


def _deck_deals(deck: Deck) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every deal of one deck: zone index per card (n, cards), prior (n,), pattern index (n,).

    With a constraint: per pattern, every choice of the cards its zones take
    (``_subsets``) times every arrangement of them inside, times every
    arrangement of the others outside.
    """
    sizes = [z.size for z in deck.zones]
    if not deck.constraints:
        rows = _arrangements(sizes)
        return rows, np.full(len(rows), 1 / len(rows)), np.full(len(rows), -1, np.intp)
    if len(deck.constraints) > 1:
        raise SolverError(f"deck {deck.id}: several group constraints are not enumerated in full mode")
    (constraint,) = deck.constraints
    inside = np.array([i for i, z in enumerate(deck.zones) if z.id in constraint.zones], np.intp)
    outside = np.array([i for i, z in enumerate(deck.zones) if z.id not in constraint.zones], np.intp)
    groups, blocks = constraint_blocks(deck, constraint, sum(sizes[i] for i in inside))
    position = {c: i for i, c in enumerate(deck.cards)}
    order = np.array([position[c] for grp in groups for c in grp], np.intp)
    a_in = inside[_arrangements([sizes[i] for i in inside])]
    a_out = outside[_arrangements([sizes[i] for i in outside])]
    parts, weights, patterns = [], [], []
    for p, counts in enumerate(blocks):
        if counts is None:
            continue
        picks = _subsets(groups, counts)
        chosen = np.zeros_like(picks)
        chosen[:, order] = picks  # back to deck order
        k, n = chosen.shape
        pos_in = np.nonzero(chosen)[1].reshape(k, -1)
        pos_out = np.nonzero(chosen == 0)[1].reshape(k, -1)
        rows = np.empty((k, len(a_in), len(a_out), n), np.int16)
        ks = np.arange(k)[:, None, None, None]
        ins = np.arange(len(a_in))[None, :, None, None]
        outs = np.arange(len(a_out))[None, None, :, None]
        rows[ks, ins, outs, pos_in[:, None, None, :]] = a_in[None, :, None, :]
        rows[ks, ins, outs, pos_out[:, None, None, :]] = a_out[None, None, :, :]
        rows = rows.reshape(k * len(a_in) * len(a_out), n)
        parts.append(rows)
        weights.append(np.full(len(rows), 1 / (len(blocks) * len(rows))))
        patterns.append(np.full(len(rows), p, np.intp))
    return np.concatenate(parts), np.concatenate(weights), np.concatenate(patterns)


def full_size(deal: Deal) -> int:
    """How many deals full mode would enumerate."""
    try:
        return deal.deals()
    except DealError as error:  # several constraints on a deck
        raise SolverError(str(error)) from None


@dataclass(frozen=True, eq=False)
class FullSpace:
    """Every deal of every deck, as one column of zone indexes per card.

    ``table[card, world]`` is the index (in ``zones``) of the card's zone;
    ``weight`` the world's prior; ``pattern`` the index of the solution
    deck's pattern (-1 without a constraint); ``inside[i, world]`` whether
    ``solution_cards[i]`` is in the solution.
    """

    deal: Deal
    cards: tuple[str, ...]
    index: dict[str, int]
    zones: tuple[str, ...]
    zone_index: dict[str, int]
    table: np.ndarray        # uint8 (n_cards, n_worlds)
    weight: np.ndarray       # float64 (n_worlds,)
    pattern: np.ndarray      # intp (n_worlds,)
    solution_cards: tuple[str, ...]
    inside: np.ndarray       # bool (n_solution_cards, n_worlds)

    @classmethod
    def of(cls, deal: Deal) -> "FullSpace":
        """The (cached) full space of a deal."""
        return _full_space_of(deal)

    @classmethod
    def build(cls, deal: Deal) -> "FullSpace":
        validate(deal)
        size = full_size(deal)
        if size > MAX_WORLDS:
            raise TooBig(f"{size:,} deals are more than the numpy engine enumerates "
                         f"in full mode ({MAX_WORLDS:,})")
        zones = tuple(z.id for z in deal.zones)
        if len(zones) > 255:
            raise SolverError(f"{len(zones)} zones are more than full mode indexes (255)")
        dealt = [_deck_deals(d) for d in deal.decks]
        grid = np.indices([len(rows) for rows, _w, _p in dealt]).reshape(len(dealt), -1)
        table, weight, offset = [], np.ones(grid.shape[1]), 0
        pattern = np.full(grid.shape[1], -1, np.intp)
        for deck, (rows, w, p), pick in zip(deal.decks, dealt, grid):
            table.append((rows[pick] + offset).T.astype(np.uint8))
            weight = weight * w[pick]
            if deal.solution and deck is deal.solution_deck:
                pattern = p[pick]
            offset += len(deck.zones)
        table_all = np.ascontiguousarray(np.concatenate(table)) if table else np.zeros((0, 1), np.uint8)
        index = {c: i for i, c in enumerate(deal.cards)}
        zone_index = {z: i for i, z in enumerate(zones)}
        in_solution = np.zeros(len(zones), bool)
        in_solution[[zone_index[z] for z in deal.solution]] = True
        solution_cards = deal.solution_cards
        inside = in_solution[table_all[np.array([index[c] for c in solution_cards], np.intp)]]
        space = cls(deal, deal.cards, index, zones, zone_index, table_all, weight, pattern,
                    solution_cards, inside)
        for array in (table_all, weight, pattern, inside):
            array.flags.writeable = False
        return space

    def knowledge(self) -> "FullKnowledge":
        return FullKnowledge(self.deal, self, np.ones(self.weight.shape, bool), ())

    def _atom_mask(self, atom: Atom) -> np.ndarray:
        columns, weights = [], []
        for card, zones, w in atom.lin.terms:
            row = self.index.get(card)
            places = [self.zone_index[z] for z in zones if z in self.zone_index]
            if row is None or not places:
                continue
            if len(places) == 1:
                columns.append(self.table[row] == places[0])
            else:
                lookup = np.zeros(len(self.zones), bool)
                lookup[places] = True
                columns.append(lookup[self.table[row]])
            weights.append(w)
        total = _weighted_sum([c.view(np.uint8) for c in columns], weights, len(self.weight))
        return OPS[atom.op](total, atom.value)

    def prepare(self, fact: Fact) -> np.ndarray:
        """The worlds where the fact holds (bool, shared by viewpoints)."""
        return _evaluate(fact.formula, self._atom_mask, lambda truth: np.full(self.weight.shape, truth))

    def divisors(self, fact: Fact, where: np.ndarray) -> np.ndarray:
        """A weighted fact's divisor k in every world (1 where the fact does not hold)."""
        lin = fact.likelihood
        assert lin is not None
        if isinstance(lin, tuple):  # the choices open: those whose formula holds
            total = np.zeros(self.weight.shape, np.int64)
            for choice in lin:
                total += self.prepare(Fact(choice))
            lin = Lin(())
        else:
            total = np.full(self.weight.shape, lin.constant, np.int64)
        for card, zones, w in lin.terms:
            row = self.index.get(card)
            places = [self.zone_index[z] for z in zones if z in self.zone_index]
            if row is None or not places:
                continue
            lookup = np.zeros(len(self.zones), np.int64)
            lookup[places] = w
            total += lookup[self.table[row]]
        if (total[where] < 1).any():
            raise FactError("a choice among fewer than one possibility in a world where the fact holds")
        return np.where(where, total, 1)

    def decode(self, world: int) -> frozenset[str]:
        """The solution of one world."""
        return frozenset(c for c, inside in zip(self.solution_cards, self.inside[:, world]) if inside)


@lru_cache(maxsize=8)
def _full_space_of(deal: Deal) -> FullSpace:
    return FullSpace.build(deal)


def full_knowledge(deal: Deal, facts: tuple[Fact, ...] = ()) -> "FullKnowledge":
    """Full mode after ``facts`` (raises :class:`TooBig` above :data:`MAX_WORLDS`)."""
    return FullSpace.of(deal).knowledge().with_facts(facts)


@dataclass(frozen=True, eq=False)
class FullKnowledge:
    """The deals still fitting the facts added so far (immutable)."""

    deal: Deal
    space: FullSpace
    mask: np.ndarray  # bool (n_worlds,)
    facts: tuple[Fact, ...]
    likelihood: np.ndarray | None = None  # float64 (n_worlds,): product of 1/k of weighted facts

    worlds = "deals"

    def __post_init__(self) -> None:
        self.mask.flags.writeable = False

    @classmethod
    def initial(cls, deal: Deal) -> "FullKnowledge":
        return FullSpace.of(deal).knowledge()

    def with_fact(self, fact: Fact) -> "FullKnowledge":
        return self.with_prepared(fact, self.space.prepare(fact))

    def with_prepared(self, fact: Fact, prepared: np.ndarray) -> "FullKnowledge":
        """Add a fact whose :meth:`FullSpace.prepare` is ``prepared``."""
        mask, likelihood = self.mask & prepared, self.likelihood
        if fact.weighted:
            factor = 1.0 / self.space.divisors(fact, mask)
            likelihood = factor if likelihood is None else likelihood * factor
        return FullKnowledge(self.deal, self.space, mask, self.facts + (fact,), likelihood)

    def with_facts(self, facts: Iterable[Fact]) -> "FullKnowledge":
        return add_facts(self, facts)

    @cached_property
    def _count(self) -> int:
        return int(np.count_nonzero(self.mask))

    @cached_property
    def _weights(self) -> np.ndarray:
        """Prior of the worlds left, normalised (raises when none is left)."""
        _require(self._count)
        w = np.where(self.mask, self.space.weight, 0.0)
        if self.likelihood is not None:
            w = w * self.likelihood
        return w / w.sum()

    @cached_property
    def _solutions(self) -> list[frozenset[str]]:
        inside = self.space.inside[:, self.mask]
        if not len(inside):  # no solution zones: one (empty) solution
            return [frozenset()] if self._count else []
        _keys, first = np.unique(np.packbits(inside, axis=0).T, axis=0, return_index=True)
        worlds = np.flatnonzero(self.mask)[np.sort(first)]
        return [self.space.decode(w) for w in worlds]

    def count(self) -> int:
        """Number of deals left."""
        return self._count

    def solution_count(self) -> int:
        return len(self._solutions)

    def consistent(self) -> bool:
        return self._count > 0

    def determined(self) -> bool:
        """Exactly one solution is left."""
        return self.solution_count() == 1

    def status(self) -> dict[str, str]:
        n = _require(self._count)
        held = np.count_nonzero(self.space.inside[:, self.mask], axis=1).tolist()
        return {card: "in" if t == n else "out" if t == 0 else "open"
                for card, t in zip(self.space.solution_cards, held)}

    def probabilities(self) -> dict[str, float]:
        probs = self.space.inside @ self._weights
        return dict(zip(self.space.solution_cards, probs.tolist()))

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        """Card → zone of its deck → probability."""
        w, n_zones, out = self._weights, len(self.space.zones), {}
        for card, row in self.space.index.items():
            mass = np.bincount(self.space.table[row], weights=w, minlength=n_zones)
            out[card] = {z: float(mass[self.space.zone_index[z]])
                         for z in self.deal.deck_of(card).zone_ids()}
        return out

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        w = self._weights
        deck = self.deal.solution_deck
        if deck is None or not deck.constraints:
            return {}
        patterns = deck.constraints[0].patterns
        mass = np.bincount(self.space.pattern[self.mask], weights=w[self.mask], minlength=len(patterns))
        return dict(zip(patterns, mass.tolist()))

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        if self._count == 0:
            return []
        return None if len(self._solutions) > limit else list(self._solutions)

    def sample_solutions(self, n: int, rng: Any) -> list[frozenset[str]]:
        """``n`` solutions of deals drawn (with replacement) by their chance given the facts."""
        if self._count == 0:
            return []
        worlds = np.flatnonzero(self.mask)
        picked = rng.choices(worlds.tolist(), self._weights[worlds].tolist(), k=n)
        return [self.space.decode(int(w)) for w in picked]
