"""The tests' plain enumeration of a move's values over a table of deals: every deal the seat cannot rule out, as rows.

The tests' plain enumeration (``tests/lab/test_outcomes.py``: ``seat_worlds`` and
``plain_values``) lists every deal as a dictionary and tries each of a move's ways to end in
each, in Python: a few thousand deals at most.  This is the same enumeration and the same
definitions over a table of deals, one row per deal and one column per card (the zone it lies
in), so that the 2,016,000 deals a Perfect Alibi 5p seat cannot rule out are counted in seconds:

* the deals: every way to deal the cards the seat does not hold into the other zones (the
  seat's own zone's cards, which its facts pin, fixed), kept where every fact of the seat's
  holds;
* a fact: a boolean column over the deals (a count of cards in zones compared with a number,
  through ``and``, ``or`` and ``not``), each formula worked out once;
* a move: in each deal, each way to end the deal allows equally likely; each seat observation's
  chance, I(deal; observation), I(solution; observation), the deals left after each
  observation, and the share of deals that allow the move: ``plain_values``' definitions.

Nothing here reads the solver.  ``tests/lab/test_plain_table.py`` checks it against the tests'
own enumeration and values Perfect Alibi 5p's questions with it; ``benchmarks/advice_bench.py``
times it beside the advice.
"""

from __future__ import annotations

import itertools
import math
from math import comb
from typing import Any, Sequence

import numpy as np

from ruleslawyer.lab.advice import _key
from ruleslawyer.spec.dealmodel import Deal
from ruleslawyer.spec.facts import And, Atom, Const, Not, Or

#: Formulas' columns kept at most (a move's facts, and those several moves share).
KEPT = 256
OPS = {"==": np.equal, "!=": np.not_equal, "<=": np.less_equal, "<": np.less, ">=": np.greater_equal,
       ">": np.greater}


def _assign(n: int, sizes: Sequence[int]) -> np.ndarray:
    """Every way to put positions 0..n-1 into zones 0..k-1 of these sizes, as rows of labels."""
    if len(sizes) == 1:
        return np.zeros((1, n), dtype=np.uint8)
    sub = _assign(n - sizes[0], sizes[1:]) + 1
    out = np.empty((comb(n, sizes[0]) * len(sub), n), dtype=np.uint8)
    for j, chosen in enumerate(itertools.combinations(range(n), sizes[0])):
        block = out[j * len(sub):(j + 1) * len(sub)]
        block[:, list(chosen)] = 0
        block[:, [p for p in range(n) if p not in chosen]] = sub
    return out


class Deals:
    """Every deal of a one-deck deal dealt uniformly (no constraint on its zones' groups) with the
    seat's own zone's cards fixed (``own``), that fits ``facts``: ``rows[d, i]`` the zone (an
    index into ``zones``) card ``cards[i]`` lies in."""

    def __init__(self, deal: Deal, facts: Sequence[Any], seat_zone: str):
        (deck,) = deal.decks
        if deck.constraints:  # a deal whose hands follow a pattern weighs its deals by it: not plain
            raise ValueError("a deck dealt under constraints (patterns of groups)")
        own = {a.lin.terms[0][0] for f in facts for a in [f.formula]
               if isinstance(a, Atom) and a.op == "==" and a.value == 1 and len(a.lin.terms) == 1
               and a.lin.terms[0][1] == frozenset({seat_zone})}
        if len(own) != next(z.size for z in deck.zones if z.id == seat_zone):
            raise ValueError("the seat's facts do not pin its own cards")
        self.zones = [z.id for z in deck.zones]
        self.cards = list(deck.cards)
        rest = [c for c in self.cards if c not in own]
        others = [z for z in deck.zones if z.id != seat_zone and z.size > 0]
        labels = _assign(len(rest), [z.size for z in others])
        self.rows = np.empty((len(labels), len(self.cards)), dtype=np.uint8)
        zone_at = np.array([self.zones.index(z.id) for z in others], dtype=np.uint8)
        for i, c in enumerate(self.cards):
            if c in own:
                self.rows[:, i] = self.zones.index(seat_zone)
            else:
                self.rows[:, i] = zone_at[labels[:, rest.index(c)]]
        self._masks: dict[Any, np.ndarray] = {}
        keep = np.ones(len(self.rows), dtype=bool)
        for f in facts:
            keep &= self.mask(f.formula)
        self.rows = self.rows[keep]
        self._masks.clear()

    def __len__(self) -> int:
        return len(self.rows)

    def mask(self, formula: Any) -> np.ndarray:
        """Whether the formula holds, per deal (kept for the last :data:`KEPT` formulas)."""
        key = repr(formula)
        found = self._masks.get(key)
        if found is None:
            found = self._masks[key] = self._evaluate(formula)
            if len(self._masks) > KEPT:  # the oldest first: a column per deal each (2 MB at 2 million)
                del self._masks[next(iter(self._masks))]
        return found

    def _evaluate(self, formula: Any) -> np.ndarray:
        if isinstance(formula, Const):
            return np.full(len(self.rows), formula.truth)
        if isinstance(formula, Atom):
            total = np.zeros(len(self.rows), dtype=np.int64)
            for card, zones, weight in formula.lin.terms:
                ids = [self.zones.index(z) for z in zones if z in self.zones]
                total += weight * np.isin(self.rows[:, self.cards.index(card)], ids)
            return OPS[formula.op](total + formula.lin.constant, formula.value)
        if isinstance(formula, And):
            return np.logical_and.reduce([self.mask(p) for p in formula.parts])
        if isinstance(formula, Or):
            return np.logical_or.reduce([self.mask(p) for p in formula.parts])
        if isinstance(formula, Not):
            return ~self.mask(formula.part)
        raise TypeError(f"not a formula: {formula!r}")

    def solution_ids(self, solution_zones: set[str]) -> np.ndarray:
        """Each deal's solution (the cards in the solution's zones), numbered."""
        inside = np.isin(self.rows, [self.zones.index(z) for z in solution_zones])
        _keys, ids = np.unique(np.packbits(inside, axis=1), axis=0, return_inverse=True)
        return ids.ravel()


def _entropy(ps: Any) -> float:
    return -sum(p * math.log2(p) for p in ps if p > 0)


def plain_values(deals: Deals, paths: Sequence[Any], solution: np.ndarray
                 ) -> tuple[dict[str, float], float, float, dict[str, int], float]:
    """``plain_values`` of the tests over ``deals`` (``solution``: :meth:`Deals.solution_ids`):
    each seat observation's chance, I(deal; obs), I(solution; obs), the deals left after each,
    the share of deals that allow the move.  One observation at a time (a column per deal)."""
    everywhere = np.ones(len(deals), dtype=bool)
    allowed = [np.logical_and.reduce([deals.mask(f.formula) for f in p.facts] or [everywhere]) for p in paths]
    n = np.sum(allowed, axis=0)
    legal = n > 0
    count = int(legal.sum())
    inverse = 1.0 / n[legal]
    sol = solution[legal]
    by_key: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        by_key.setdefault(_key(p.seen), []).append(i)
    dist: dict[str, float] = {}
    h_w = 0.0
    joint = []  # per observation, its share summed per solution
    for k, members in by_key.items():
        share = np.sum([allowed[i][legal] for i in members], axis=0) * inverse
        if not share.any():
            continue
        dist[k] = float(share.sum()) / count
        kept = share[share > 0]
        h_w -= float((kept * np.log2(kept)).sum())
        joint.append(np.bincount(sol, weights=share, minlength=int(solution.max()) + 1))
    h = _entropy(dist.values())
    per = np.stack(joint)  # (observations, solutions)
    h_s = 0.0
    for column in per.T:
        total = column.sum()
        if total > 0:
            h_s += total / count * _entropy(column / total)
    left = {k: int(np.logical_and.reduce([deals.mask(f.formula) for f in paths[by_key[k][0]].seen]
                                         or [everywhere]).sum()) for k in dist}
    return dist, h - h_w / count, h - h_s, left, count / len(deals)
