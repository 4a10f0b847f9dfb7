"""Claims refuted from a knowledge's per-card chances, without a count.

Most claims a move makes are a conjunction "each of these cards lies in these zones" (an
atom ``count(cards, zones) == len(cards)``, weight 1 on each card, no constant), or "none of
these cards lies there" (``count(cards, zones) == 0``).  Such a claim is certain only when
each card is certainly where it says, and cannot hold at all (hopeless) when one card
certainly is not; both are read from what the knowledge already tells of each card, once
per knowledge, instead of a count with the claim added:

* zones that are exactly the solution's: the exact ``status()`` of each card (in every
  world, in none, or open);
* other zones, in an engine that counts whole deals exactly (not an estimate from
  samples, which may miss a world): ``zone_probabilities()``, where a
  chance below ``1 - SURE`` says "not certain" and a chance of exactly 0 "hopeless" (a
  float never says "certain": only the exact count does).

:meth:`Refuter.refutes` says :data:`HOPELESS`, :data:`UNCERTAIN` or None (not told: count).
Nothing here names a game.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
>>> from ruleslawyer.spec.facts import Fact, count
>>> from ruleslawyer.solver.engines import rebuild
>>> deck = Deck("d", tuple("abcd"), (Zone("x", "x", None, 1), Zone("h", "h", "Ann", 2, "owner"),
...                                  Zone("r", "r", None, 1)))
>>> k = rebuild(Deal((deck,), solution=("x",))).with_fact(Fact(count("a", {"h"}) == 1))
>>> r = Refuter(k)
>>> r.refutes(count("a", {"x"}) == 1), r.refutes(count("b", {"x"}) == 1), r.refutes(count("b", {"h"}) == 0)
('hopeless', 'uncertain', 'uncertain')
>>> r.refutes(count("a", {"h"}) == 1) is None  # certain: only a count says so
True
"""

from __future__ import annotations

from typing import Any, Mapping

from ..spec.facts import And, Atom
from .engine import Knowledge
from .errors import SolverError
from .marginal import counted_cards

__all__ = ["Refuter", "HOPELESS", "UNCERTAIN", "SURE"]

#: The claim cannot hold in any world of the knowledge.
HOPELESS = "hopeless"
#: The claim does not hold in every world (it may hold in some).
UNCERTAIN = "uncertain"
#: A float chance within this of 1 tells nothing (the exact count decides).
SURE = 1e-6


class Refuter:
    """One knowledge's per-card facts, read once, to refute claims with (see the module)."""

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self._solution = frozenset(knowledge.deal.solution)
        self._status: Mapping[str, str] | None = None
        self._zones: Mapping[str, Mapping[str, float]] | None = None
        self._failed = False

    def refutes(self, formula: Any) -> str | None:
        """:data:`HOPELESS`, :data:`UNCERTAIN`, or None when the per-card chances do not tell
        (the claim may be certain: only a count says)."""
        if isinstance(formula, And):
            found = [self.refutes(p) for p in formula.parts]
            return HOPELESS if HOPELESS in found else UNCERTAIN if UNCERTAIN in found else None
        if not isinstance(formula, Atom):
            return None
        counted = counted_cards(formula.lin)
        if counted is None:
            return None
        cards, zones = counted
        n, op, value = len(cards), formula.op, formula.value
        every = (op in ("==", ">=") and value == n) or (op == ">" and value == n - 1)
        none = (op in ("==", "<=") and value == 0) or (op == "<" and value == 1)
        if not (every or none):
            return None
        chances = [self._where(c, zones) for c in cards]
        if any(ch is None for ch in chances):
            return None
        # each chance: (certainly there, certainly not there, surely not certain there, surely not certain out)
        if every:
            if any(ch[1] for ch in chances):  # type: ignore[index]
                return HOPELESS
            return UNCERTAIN if any(ch[2] for ch in chances) else None  # type: ignore[index]
        if any(ch[0] for ch in chances):  # type: ignore[index]
            return HOPELESS
        return UNCERTAIN if any(ch[3] for ch in chances) else None  # type: ignore[index]

    def _where(self, card: str, zones: frozenset[str]) -> tuple[bool, bool, bool, bool] | None:
        """What is told of ``card`` lying in ``zones``: (in every world, in none, not in
        every world, not in none); None when nothing is."""
        if self._failed:
            return None
        try:
            if zones == self._solution:
                if self._status is None:
                    self._status = self.knowledge.status()
                s = self._status.get(card)
                if s is None:
                    return None
                return s == "in", s == "out", s != "in", s != "out"
            if self.knowledge.worlds != "deals" or getattr(self.knowledge, "estimate", False):
                return None  # a solutions engine spreads other zones' chances; a sample's are estimates
            if self._zones is None:
                self._zones = self.knowledge.zone_probabilities()
        except SolverError:
            self._failed = True
            return None
        by_zone = self._zones.get(card)  # type: ignore[union-attr]
        if by_zone is None:
            return None
        p = float(sum(by_zone.get(z, 0.0) for z in zones))
        return False, p == 0.0, p < 1.0 - SURE, p > SURE
