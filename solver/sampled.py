"""When no exact engine counts a deal: status from Z3, chances estimated from samples.

:class:`SampledKnowledge` answers what needs no count exactly (consistency,
each card's status, whether the solution is determined: Z3) and labels
every chance it gives as an estimate (``estimate`` is True): the share of
sampled deals, drawn uniformly (under the deal's prior) among those fitting
the facts, with a Wilson interval at :data:`CONFIDENCE` per figure.  Counts
(``count``, ``solution_count``) raise :class:`NeedsCounting`, which says why
no exact engine fits.

Samples come from the prior itself when the facts accept enough of its
deals (rejection: independent, exact in distribution), otherwise from a
Markov chain started at a deal Z3 finds: each step swaps two cards of one
deck between zones and keeps the swap when the new deal fits the facts
(Metropolis on the prior: a symmetric proposal, so the chain's stationary
law is the prior restricted to the fitting deals).  A chain's samples are
correlated: its intervals count one sample per :data:`THIN` sweeps of the
deck and are marked ``method="chain"``.

A weighted fact (:attr:`Fact.likelihood`: a choice made at random among k)
weighs each deal by 1/k: rejection keeps a fitting deal with that chance
(still independent, exact in distribution), the chain's target is the prior
times the weights.

>>> from ruleslawyer.spec.dealmodel import Deck, Zone
>>> from ruleslawyer.spec.facts import member
>>> deck = Deck("d", tuple("abcd"), (Zone("x", "x", None, 1), Zone("y", "y", None, 3)))
>>> k = SampledKnowledge.initial(Deal((deck,), solution=("x",)), reason="a test")
>>> k = k.with_fact(Fact(member("a", {"x"}) == 0))
>>> k.status()["a"], k.estimate
('out', True)
>>> e = k.estimates(samples=400, seed=1)
>>> e.method, e.chance("b", "x") > 0.2, [round(x, 3) for x in e.interval("a", "x")]
('rejection', True, [0.0, 0.01])
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable

import z3

from ..spec.dealmodel import Deal, Deck
from ..spec.facts import Fact
from .enumerate import _limit
from .errors import Inconsistent, NeedsCounting
from .z3engine import Z3Knowledge

__all__ = ["SampledKnowledge", "Estimates", "wilson", "SAMPLES", "CONFIDENCE"]

#: Samples per estimate.
SAMPLES = _limit("SAMPLES", 4000)
#: Two-sided confidence of every interval.
CONFIDENCE = 0.95
#: Rejection is used while at least this share of the prior's deals fits the facts.
MIN_ACCEPTANCE = 0.02
#: A chain's sweeps (one proposal per card each) between two samples it keeps.
THIN = 2


def wilson(hits: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson's score interval for a proportion.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if n == 0:
        return 0.0, 1.0
    z = _normal_quantile(0.5 + confidence / 2)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if hits == 0 else lo), (1.0 if hits == n else hi)


def _normal_quantile(q: float) -> float:
    """The standard normal's quantile (bisection on erf; plenty for an interval)."""
    lo, hi = -10.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# -- drawing deals -------------------------------------------------------------------------------


def _draw_deck(deck: Deck, rng: random.Random) -> dict[str, str]:
    """One deal of a deck from its prior: a pattern uniformly, then a deal fitting it uniformly."""
    if not deck.constraints:
        cards = list(deck.cards)
        rng.shuffle(cards)
        return _fill(cards, deck.zones)
    (g,) = deck.constraints
    pattern = rng.choice(g.patterns)
    inside_zones = [z for z in deck.zones if z.id in g.zones]
    room = sum(z.size for z in inside_zones)
    grouped = {c for grp in g.groups for c in grp}
    inside = [c for grp, k in zip(g.groups, pattern) for c in rng.sample(grp, k)]
    free = [c for c in deck.cards if c not in grouped]
    inside += rng.sample(free, room - len(inside))
    outside = [c for c in deck.cards if c not in set(inside)]
    rng.shuffle(inside)
    rng.shuffle(outside)
    world = _fill(inside, inside_zones)
    world.update(_fill(outside, [z for z in deck.zones if z.id not in g.zones]))
    return world


def _fill(cards: list[str], zones) -> dict[str, str]:
    out, at = {}, 0
    for z in zones:
        out.update(dict.fromkeys(cards[at:at + z.size], z.id))
        at += z.size
    return out


def _prior_weight(deal: Deal, world: dict[str, str]) -> float:
    """The prior of a deal up to a constant: 1 / (deals fitting each deck's pattern)."""
    weight = 1.0
    for deck in deal.decks:
        for g in deck.constraints:
            pattern = tuple(sum(1 for c in grp if world[c] in g.zones) for grp in g.groups)
            if pattern not in g.patterns:
                return 0.0
            weight /= _fitting(deck, pattern)
    return weight


def _fitting(deck: Deck, pattern: tuple[int, ...]) -> int:
    single = Deck(deck.id, deck.cards, deck.zones,
                  (type(deck.constraints[0])(deck.constraints[0].zones, deck.constraints[0].groups, (pattern,)),))
    return single.deals()


#: Batches a chain's samples are cut into to measure how much they repeat one another.
BATCHES = 20
#: The batch means' spread is itself estimated from BATCHES - 1 degrees of freedom: Student's t
#: at 97.5 % for 19 of them (a table value) widens the interval where the normal's 1.96 would
#: be too sure (measured: 93-94 % of intervals held the exact chance with 1.96, for 95 % stated).
_T_BATCHES = 2.093


def effective_size(series: list[bool], batches: int = BATCHES) -> float:
    """How many independent samples a chain's 0/1 ``series`` is worth for its mean (batch means:
    the spread of the batches' means against what independent samples would give), at most its
    length and at least one sample per batch.

    >>> effective_size([True, False] * 50)   # alternating: the batches agree, worth every sample
    100.0
    >>> effective_size([True] * 50 + [False] * 50)   # two runs: worth about one sample a batch
    20.0
    """
    n = len(series)
    size = n // batches
    if size < 2:
        return float(n)
    p = sum(series) / n
    if p in (0.0, 1.0):
        return float(batches)  # never moved: as sure as one sample a batch, not as n samples
    means = [sum(series[b * size:(b + 1) * size]) / size for b in range(batches)]
    mean = sum(means) / batches
    spread = sum((m - mean) ** 2 for m in means) / (batches - 1) / batches  # the variance of the mean
    if spread == 0:
        return float(n)
    worth = p * (1 - p) / spread * (_normal_quantile(0.5 + CONFIDENCE / 2) / _T_BATCHES) ** 2
    return max(float(batches), min(float(n), worth))


@dataclass(frozen=True)
class Estimates:
    """Chances estimated from ``n`` samples: card -> zone -> hits, with Wilson intervals.

    A chain's samples repeat one another: each figure's interval then counts the samples it is
    worth (:func:`effective_size`, in ``effective``), not ``n``."""

    n: int
    hits: dict[str, dict[str, int]]
    solution_hits: dict[str, int]
    method: str                      # "rejection" or "chain"
    confidence: float = CONFIDENCE
    accepted: float | None = None    # rejection: the share of the prior's deals kept
    effective: dict[str, dict[str, float]] | None = None  # chain: card -> zone -> samples worth
    solution_effective: dict[str, float] | None = None

    def _wilson(self, hits: int, worth: float | None) -> tuple[float, float]:
        if worth is None or worth >= self.n:
            return wilson(hits, self.n, self.confidence)
        return wilson(hits * worth / self.n, worth, self.confidence)  # type: ignore[arg-type]

    def chance(self, card: str, zone: str) -> float:
        return self.hits[card][zone] / self.n

    def interval(self, card: str, zone: str) -> tuple[float, float]:
        return self._wilson(self.hits[card][zone], self.effective[card][zone] if self.effective else None)

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        return {c: {z: h / self.n for z, h in per.items()} for c, per in self.hits.items()}

    def zone_intervals(self) -> dict[str, dict[str, tuple[float, float]]]:
        return {c: {z: self.interval(c, z) for z in per} for c, per in self.hits.items()}

    def probabilities(self) -> dict[str, float]:
        return {c: h / self.n for c, h in self.solution_hits.items()}

    def intervals(self) -> dict[str, tuple[float, float]]:
        worth = self.solution_effective or {}
        return {c: self._wilson(h, worth.get(c)) for c, h in self.solution_hits.items()}


def _z3_world(z3k: Z3Knowledge) -> dict[str, str]:
    """A deal fitting every fact, found by Z3 (full encoding)."""
    full = Z3Knowledge.initial(z3k.deal, projected=False).with_facts(z3k.facts)
    engine = full.engine
    if not engine.check(*full.literals):
        raise Inconsistent("no deal fits the facts")
    model = engine.solver.model()
    return {c: z for (c, z), v in engine.vars.items() if z3.is_true(model.eval(v, model_completion=True))}


def sample(deal: Deal, facts: tuple[Fact, ...], samples: int, seed: int,
           force: str | None = None) -> tuple[list[dict[str, str]], str, float | None]:
    """``samples`` deals fitting the facts, drawn uniformly under the prior; the method; the acceptance."""
    if any(len(d.constraints) > 1 for d in deal.decks):
        raise NeedsCounting("estimating chances of a deck with several group constraints is not supported")
    rng = random.Random(seed)
    weighted = [f for f in facts if f.weighted]

    def fits(w: dict[str, str]) -> bool:
        if not all(f.holds(w) for f in facts):
            return False
        return not weighted or rng.random() < _likelihood(weighted, w)

    if force != "chain":
        pilot = max(200, samples // 4)
        kept = [w for w in (_draw(deal, rng) for _ in range(pilot)) if fits(w)]
        rate = len(kept) / pilot
        if force == "rejection" or rate >= MIN_ACCEPTANCE:
            tries = pilot
            while len(kept) < samples:
                if rate == 0 and tries >= pilot * 50:
                    raise Inconsistent("no sampled deal fits the facts")
                w = _draw(deal, rng)
                tries += 1
                if fits(w):
                    kept.append(w)
            return kept[:samples], "rejection", len(kept) / tries
    return _chain(deal, facts, samples, rng), "chain", None


def _likelihood(weighted: list[Fact], world: dict[str, str]) -> float:
    """The product of 1/k of the weighted facts in a deal where they hold."""
    return 1.0 / math.prod(f.divisor(world) for f in weighted)


def _draw(deal: Deal, rng: random.Random) -> dict[str, str]:
    world: dict[str, str] = {}
    for deck in deal.decks:
        world.update(_draw_deck(deck, rng))
    return world


def _chain(deal: Deal, facts: tuple[Fact, ...], samples: int, rng: random.Random) -> list[dict[str, str]]:
    world = _z3_world(Z3Knowledge.initial(deal).with_facts(facts))
    by_card: dict[str, list[Fact]] = {}
    for f in facts:
        for c in f.cards():
            by_card.setdefault(c, []).append(f)
    weighted = [f for f in facts if f.weighted]
    decks = [d for d in deal.decks if len(d.zones) > 1]
    cards = [c for d in decks for c in d.cards]

    def target(w: dict[str, str]) -> float:
        prior = _prior_weight(deal, w)
        return prior * _likelihood(weighted, w) if weighted and prior else prior

    weight = target(world)
    sweep = max(1, len(cards))
    out = []
    for step in range(sweep * THIN * (samples + 50)):  # 50 samples' worth of burn-in
        deck = deal.deck_of(rng.choice(cards))
        a, b = rng.sample(deck.cards, 2)
        if world[a] != world[b]:
            world[a], world[b] = world[b], world[a]
            touched = {id(f): f for f in by_card.get(a, []) + by_card.get(b, [])}
            fit = all(f.holds(world) for f in touched.values())
            new_weight = target(world) if fit else 0
            if new_weight == 0 or rng.random() >= min(1.0, new_weight / weight):
                world[a], world[b] = world[b], world[a]
            else:
                weight = new_weight
        if step >= sweep * THIN * 50 and (step + 1) % (sweep * THIN) == 0:
            out.append(dict(world))
    return out[:samples]


# -- the knowledge -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SampledKnowledge:
    """Facts about a deal no exact engine counts: exact status (Z3), estimated chances."""

    deal: Deal
    facts: tuple[Fact, ...] = ()
    reason: str = "no exact engine counts this deal"
    z3: Z3Knowledge | None = field(default=None, repr=False)

    worlds = "deals"
    estimate = True

    @classmethod
    def initial(cls, deal: Deal, reason: str = "no exact engine counts this deal") -> "SampledKnowledge":
        return cls(deal, (), reason, Z3Knowledge.initial(deal))

    def with_fact(self, fact: Fact) -> "SampledKnowledge":
        return SampledKnowledge(self.deal, self.facts + (fact,), self.reason, self._z3.with_fact(fact))

    def with_facts(self, facts: Iterable[Fact]) -> "SampledKnowledge":
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    @property
    def _z3(self) -> Z3Knowledge:
        return self.z3 if self.z3 is not None else Z3Knowledge.initial(self.deal).with_facts(self.facts)

    def consistent(self) -> bool:
        return self._z3.consistent()

    def status(self) -> dict[str, str]:
        return self._z3.status()

    def determined(self) -> bool:
        """Every card of the solution's deck certainly in or out (no count needed)."""
        return self.consistent() and all(s != "open" for s in self.status().values())

    def _needs(self, what: str) -> NeedsCounting:
        return NeedsCounting(f"{what} needs an exact count, and {self.reason}; chances can only be estimated")

    def count(self) -> int:
        raise self._needs("the number of deals left")

    def solution_count(self) -> int:
        raise self._needs("the number of solutions left")

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        return self._z3.solutions(limit)

    def estimates(self, samples: int = SAMPLES, seed: int = 0, force: str | None = None) -> Estimates:
        """Chances from ``samples`` deals drawn uniformly among those fitting the facts."""
        if not self.consistent():
            raise Inconsistent("no deal fits the facts")
        worlds, method, rate = sample(self.deal, self.facts, samples, seed, force)
        hits = {c: dict.fromkeys(self.deal.deck_of(c).zone_ids(), 0) for c in self.deal.cards}
        solution = set(self.deal.solution)
        solution_hits = dict.fromkeys(self.deal.solution_cards, 0)
        for w in worlds:
            for c, z in w.items():
                hits[c][z] += 1
                if z in solution:
                    solution_hits[c] += 1
        effective = solution_effective = None
        if method == "chain":
            effective = {c: {z: effective_size([w[c] == z for w in worlds]) for z in per} for c, per in hits.items()}
            solution_effective = {c: effective_size([w[c] in solution for w in worlds]) for c in solution_hits}
        return Estimates(len(worlds), hits, solution_hits, method, CONFIDENCE, rate, effective, solution_effective)

    @cached_property
    def _estimates(self) -> Estimates:
        return self.estimates()

    def samples(self) -> int:
        """How many sampled deals the chances come from."""
        return self._estimates.n

    def probabilities(self) -> dict[str, float]:
        """Estimated: see :meth:`intervals`."""
        return self._estimates.probabilities()

    def intervals(self) -> dict[str, tuple[float, float]]:
        return self._estimates.intervals()

    def zone_probabilities(self) -> dict[str, dict[str, float]]:
        """Estimated: see :meth:`zone_intervals`."""
        return self._estimates.zone_probabilities()

    def zone_intervals(self) -> dict[str, dict[str, tuple[float, float]]]:
        return self._estimates.zone_intervals()

    def pattern_probabilities(self) -> dict[tuple[int, ...], float]:
        """Not estimated: empty (the status and the chances per card say what is known)."""
        if not self.consistent():
            raise Inconsistent("no deal fits the facts")
        return {}
