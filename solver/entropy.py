"""How uncertain the solution still is, in bits, from a viewpoint's chances per card.

The exact entropy of the solution needs the chance of every solution set;
a solve gives the chance of each card (its marginal).  From those:

* a solution of one card: ``-sum p log2 p`` over the cards, exact;
* a solution holding one card of each group of its deck's constraint (a
  single pattern of ones and zeros): the sum of each group's entropy.  It
  is exact when at most one group is still open; with two or more open
  groups the facts may link them (a card shown from one of three named
  cards), and the sum is an upper bound of the joint entropy;
* any other solution: the sum of each card's binary entropy, an upper bound.

``log2`` of the number of solutions left bounds every entropy too (all of
them equally likely): the smaller of the two is given, with ``exact``
saying whether it is the entropy itself or an upper bound of it.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
>>> deck = Deck("d", ("a", "b", "x", "y"), (Zone("s", "s", None, 2), Zone("r", "r", None, 2)),
...             (GroupCount(("s",), (("a", "b"), ("x", "y")), ((1, 1),)),))
>>> deal = Deal((deck,), ("s",))
>>> solution_entropy(deal, {"a": .5, "b": .5, "x": 1.0, "y": 0.0}, 2)   # one open group: a coin
(1.0, True)
>>> solution_entropy(deal, {"a": .5, "b": .5, "x": .5, "y": .5}, 4)     # two open groups: at most 2 bits
(2.0, False)
>>> solution_entropy(deal, {"a": .5, "b": .5, "x": .5, "y": .5}, 2)     # two sets left: at most 1 bit
(1.0, False)
"""

from __future__ import annotations

from math import log2
from typing import Mapping

from ..spec.dealmodel import Deal

__all__ = ["solution_entropy"]

_EPS = 1e-12


def _h(ps: list[float]) -> float:
    """The entropy of a distribution given by its chances (those at 0 or below add nothing)."""
    return max(0.0, -sum(p * log2(p) for p in ps if p > _EPS))


def _binary(p: float) -> float:
    return _h([p, 1.0 - p])


def solution_entropy(deal: Deal, probabilities: Mapping[str, float],
                     solutions: int | None = None) -> tuple[float, bool]:
    """``(bits, exact)``: the entropy of the solution given each card's chance of being in it
    (``probabilities``) and the number of ``solutions`` left (None: not counted)."""
    if solutions == 1:
        return 0.0, True
    deck = deal.solution_deck
    cards = deck.cards if deck is not None else ()
    p = {c: float(probabilities.get(c, 0.0)) for c in cards}
    size = sum(deal.zone(z).size for z in deal.solution)
    groups: list[list[str]] | None = None
    if size == 1:
        groups = [list(cards)]
    elif deck is not None:
        for g in deck.constraints:
            ones = len(g.patterns) == 1 and set(g.patterns[0]) <= {0, 1} and sum(g.patterns[0]) == size
            if ones and set(g.zones) == set(deal.solution):
                groups = [list(grp) for grp, k in zip(g.groups, g.patterns[0]) if k == 1]
                break
    if groups is not None:
        each = [_h([p[c] for c in grp]) for grp in groups]
        bits, exact = sum(each), sum(1 for h in each if h > 1e-9) <= 1
    else:
        bits, exact = sum(_binary(q) for q in p.values()), False
    if solutions is not None and solutions > 0 and log2(solutions) < bits - 1e-9:
        return log2(solutions), False
    return bits, exact
