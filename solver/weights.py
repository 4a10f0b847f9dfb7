"""The prior mass of a knowledge's worlds, when the deal's worlds are not equally likely.

A deck with one group constraint whose patterns stand for different numbers
of deals (a shuffle that picks a pattern uniformly, then the cards) makes a
world of pattern p weigh 1/sizes[p]; the mass of a knowledge is then its
count divided by sum_p P(p | k) * sizes[p] (up to a factor common to every
knowledge of the deal).  When every world weighs the same, the mass is the
count.

>>> from ruleslawyer.spec.dealmodel import Deck, Zone
>>> deal = Deal((Deck("d", tuple("ab"), (Zone("x", "x", None, 1), Zone("y", "y", None, 1))),), solution=("x",))
>>> pattern_sizes(deal) is None
True
"""

from __future__ import annotations

from math import comb, prod

from ..spec.dealmodel import Deal
from .engine import Knowledge
from .errors import NeedsCounting

__all__ = ["pattern_sizes", "prior_mass"]


def pattern_sizes(deal: Deal) -> dict[tuple[int, ...], int] | None:
    """Deals per pattern of the solution deck's group constraint, up to a common factor, when
    they differ (then worlds are not equally likely); None when every world weighs the same."""
    constrained = [d for d in deal.decks if d.constraints]
    if not constrained:
        return None
    if len(constrained) > 1 or len(constrained[0].constraints) > 1 or constrained[0] is not deal.solution_deck:
        raise NeedsCounting("a deal with several group constraints: its worlds' weights are not counted here")
    g = constrained[0].constraints[0]
    sizes = {p: prod(comb(len(cards), n) for cards, n in zip(g.groups, p)) for p in g.patterns}
    return None if len(set(sizes.values())) <= 1 else sizes


def prior_mass(k: Knowledge, sizes: dict[tuple[int, ...], int] | None, n: int | None = None) -> float:
    """The prior mass of ``k``'s worlds (``sizes``: :func:`pattern_sizes` of its deal; ``n``: its
    count when known already)."""
    n = k.count() if n is None else n
    if sizes is None or n == 0:
        return float(n)
    # each world of pattern p weighs 1/sizes[p]: count / mass = sum_p P(p | k) * sizes[p]
    probs = k.pattern_probabilities()
    return n / sum(q * sizes[p] for p, q in probs.items())
