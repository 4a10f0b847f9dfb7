"""The distribution of one count of cards over a knowledge's worlds: a marginal, by value.

What a question lets the table observe is often one number: how many of a
set of cards lie in a set of zones (a :class:`~ruleslawyer.spec.facts.Lin`
with weight 1 on each card, no constant).  Its distribution over the worlds
a knowledge leaves, jointly with where each named card lies and with the
solution, is what a move's value needs; :func:`by_value` gives it with one
engine pass per value the count can take (the knowledge with the count
fixed), in whichever engine answers the knowledge, instead of one count per
answer of every way a move may end; or, where the engine gives it
(:func:`table_of`), from one table of the zones' content jointly with the
solution, every value a sum over its rows.

* :func:`by_value` — each value the count takes in some world: the
  knowledge with the count fixed there, its worlds and its prior mass.
* :func:`card_shares` — for one value, each named card's chance of lying in
  the zones (None when the engine does not tell zones apart).
* :func:`fills` — for one value, whether the named cards are every card that
  can lie in the zones (then each world has the zones' :func:`capacity` of
  them there: a card drawn from the zones' whole content names one of them).
* :func:`solution_shares` — for one value, each card's chance of being in the
  solution.
* :func:`solution_given` — for one value and each of some cards, the
  solution's shares in the worlds where that card lies in the zones, in one
  pass where the engine gives it (None otherwise: the caller conditions).

Nothing here names a game.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
>>> from ruleslawyer.spec.facts import count
>>> from ruleslawyer.solver.engines import rebuild
>>> deck = Deck("d", tuple("abcd"), (Zone("x", "x", None, 1), Zone("h", "h", "Ann", 2, "owner"),
...                                  Zone("r", "r", None, 1)))
>>> k = rebuild(Deal((deck,), solution=("x",)))
>>> [(s.value, s.count) for s in by_value(k, count("ab", {"h"}))]
[(0, 2), (1, 8), (2, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from ..spec.dealmodel import Deal
from ..spec.facts import Fact, Lin
from .dp import DPKnowledge
from .engine import Knowledge
from .table import OwnerTable
from .weights import prior_mass

__all__ = ["Slice", "counted_cards", "capacity", "value_range", "table_of", "by_value", "card_shares", "fills",
           "solution_shares", "solution_given"]

#: How a caller makes (and remembers) a knowledge with facts added: (base, facts) -> knowledge.
Condition = Callable[[Knowledge, list[Fact]], Knowledge]


@dataclass(frozen=True)
class Slice:
    """The worlds of a knowledge where the count takes one value: the knowledge with the count
    fixed, or the rows of an :class:`~ruleslawyer.solver.table.OwnerTable` where it takes it."""

    value: int
    knowledge: Knowledge | None   # None: read from ``table``
    count: int        # worlds (of the knowledge's kind: deals or solutions)
    mass: float       # their prior mass (the count when every world weighs the same)
    table: OwnerTable | None = None
    rows: np.ndarray | None = None   # the table's rows where the count takes the value


def counted_cards(lin: Lin) -> tuple[frozenset[str], frozenset[str]] | None:
    """(cards, zones) when ``lin`` is "how many of these cards lie in these zones" (weight 1
    each, one set of zones, no constant); else None."""
    if lin.constant != 0 or not lin.terms:
        return None
    zones = lin.terms[0][1]
    if any(w != 1 or z != zones for _c, z, w in lin.terms):
        return None
    return frozenset(c for c, _z, _w in lin.terms), zones


def capacity(deal: Deal, zones: frozenset[str]) -> int:
    """How many cards ``zones`` hold together in every deal."""
    return sum(z.size for d in deal.decks for z in d.zones if z.id in zones)


def value_range(lin: Lin, deal: Deal) -> tuple[int, int]:
    """The least and most ``lin`` can be in a deal of ``deal``'s shape: its terms' bounds, and
    for a count of cards no more than the counted zones hold together."""
    lo, hi = lin.bounds()
    counted = counted_cards(lin)
    if counted is not None:
        hi = min(hi, capacity(deal, counted[1]))
    return lo, hi


def _plain(base: Knowledge, facts: list[Fact]) -> Knowledge:
    return base.with_facts(facts)


def table_of(k: Knowledge, zones: frozenset[str]) -> OwnerTable | None:
    """The joint of ``zones``' content and the solution over ``k``'s worlds in one pass, where the
    engine gives it (:meth:`~ruleslawyer.solver.dp.DPKnowledge.owner_table`); else None."""
    return k.owner_table(zones) if isinstance(k, DPKnowledge) else None


def by_value(k: Knowledge, lin: Lin, sizes: Mapping[tuple[int, ...], int] | None = None,
             condition: Condition | None = None, table: OwnerTable | None = None) -> list[Slice]:
    """Every value ``lin`` takes in some world of ``k``, with its worlds (``sizes``: the deal's
    :func:`~ruleslawyer.solver.weights.pattern_sizes`, for the prior mass; ``condition``: how a
    knowledge with a fact added is made, ``k.with_facts`` by default; ``table``: ``k``'s
    :func:`table_of` the count's zones, read instead of a knowledge per value when every world
    weighs the same)."""
    counted = counted_cards(lin)
    if table is not None and counted is not None and not sizes:
        values = table.holding(table.mask(counted[0]))
        out = []
        for v in np.unique(values).tolist():
            rows = values == v
            n = int(table.worlds[rows].sum())
            if n:
                out.append(Slice(v, None, n, float(n), table, rows))
        return out
    make = condition or _plain
    lo, hi = value_range(lin, k.deal)
    out = []
    for v in range(lo, hi + 1):
        kv = make(k, [Fact(lin == v)])
        n = kv.count()
        if n:
            out.append(Slice(v, kv, n, prior_mass(kv, dict(sizes) if sizes else None, n)))
    return out


def card_shares(s: Slice, cards: frozenset[str], zones: frozenset[str]) -> dict[str, float] | None:
    """Each of ``cards``' chance of lying in ``zones`` in the worlds of ``s`` (None: the engine
    does not tell these zones apart)."""
    if s.table is not None:
        total, held = s.table.card_weights(s.rows)  # type: ignore[arg-type]
        return {c: held[c] / total for c in cards}
    zp = s.knowledge.zone_probabilities()
    if zp is None:
        return None
    out = {}
    for c in cards:
        where = zp.get(c)
        if where is None or any(z not in where for z in zones):
            return None
        out[c] = float(sum(where[z] for z in zones))
    return out


def fills(s: Slice, shares: Mapping[str, float], zones: frozenset[str]) -> bool:
    """Whether the cards of ``shares`` (each one's chance of lying in ``zones`` in the worlds of
    ``s``, :func:`card_shares`) are every card that can lie there: no other card has a chance
    of lying there, and theirs add up to what the zones hold (so that every world of ``s`` has
    exactly :func:`capacity` of them there)."""
    if s.table is not None:
        t = s.table
        some = s.rows & (t.weight.sum(axis=1) > 0)
        if np.any(t.held[some] & ~t.mask(shares)):
            return False
        held = capacity(t.deal, zones)  # type: ignore[arg-type]
        return abs(sum(shares.values()) - held) <= 1e-9 * max(1, held)
    zp = s.knowledge.zone_probabilities()
    if zp is None:
        return False
    for c, where in zp.items():
        if c not in shares and any(where.get(z, 0) > 0 for z in zones):
            return False
    held = capacity(s.knowledge.deal, zones)
    return abs(sum(shares.values()) - held) <= 1e-9 * max(1, held)


def solution_shares(s: Slice) -> dict[str, float]:
    """Each card's chance of being in the solution, in the worlds of ``s``."""
    if s.table is not None:
        sums = s.table.weight[s.rows].sum(axis=0)
        total = int(sums.sum())
        return {c: n / total for c, n in s.table.per_solution_card(sums).items()}
    return {c: float(p) for c, p in s.knowledge.probabilities().items()}


def solution_given(s: Slice, cards: frozenset[str], zones: frozenset[str]
                   ) -> dict[str, dict[str, float] | None] | None:
    """For each of ``cards``: each card's chance of being in the solution in the worlds of ``s``
    where that card lies in ``zones`` (None for a card that lies there in none), from one pass of
    the engine (:meth:`~ruleslawyer.solver.dp.DPKnowledge.solution_given`); None when the engine
    does not give it so (the caller conditions on each card: the same shares)."""
    k = s.knowledge
    if s.table is not None:
        got = s.table.solution_given(sorted(cards), s.rows)
    else:
        got = k.solution_given(sorted(cards), zones) if isinstance(k, DPKnowledge) else None
    if got is None:
        return None
    return {c: {x: n / worlds for x, n in per.items()} if worlds else None for c, (worlds, per) in got.items()}
