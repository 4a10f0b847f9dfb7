"""Is what the table observed consistent?  The solver, asked fact by fact.

The recorded cards of the players' zones (private records, cards shown at
the end) and every observation of a move are facts over the hidden deal
(:mod:`spec.facts`).  They are added in order; a fact after which no deal
fits is refused (and reported by the caller) with the few earlier facts that
clash with it, so that the facts after it are still checked against a
consistent set.

Consistency and each card's status need no count: when no counting engine
takes the deal (too many deals for enumeration, facts no faster engine
handles), :func:`knowledge_of` answers from Z3 alone (:class:`StatusKnowledge`:
consistency, status, determination, the solutions when few), and only a
question that needs a count or a chance says that counting is not available
(:class:`CountingUnavailable`).  So every game whose deal can be dealt is
checked, shown and played, however big its deal.

>>> from ruleslawyer.spec.deal import build_deal, pin
>>> from ruleslawyer.spec.facts import Fact, count
>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> rules = next(r for r in map(load_rules, map(str, sorted(rules_dir().glob("*.yaml")))) if r.tokens)
>>> deal = build_deal(rules, ("Ann", "Bob", "Cat", "Dan"))
>>> a, b = deal.decks[0].cards[:2]
>>> seen = Observations(deal)
>>> seen.add(pin(a, "hand:Ann", frozenset({"Ann"}), source="Ann's card")) is None
True
>>> clash = seen.add(Fact(count([a, b], deal.solution) == 0, source="an observation"))
>>> clash.sources
("Ann's card",)
>>> status = StatusKnowledge.initial(deal, "a test").with_fact(seen.facts[0])
>>> status.status()[a], status.determined(), status.counted
('in', False, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Mapping

from ..solver import queries
from ..solver.engine import Knowledge, Worlds
from ..solver.errors import Inconsistent, NotForced, SolverError
from ..spec.dealmodel import Deal
from ..spec.facts import Fact
from . import witness

__all__ = ["Observations", "Clash", "StatusKnowledge", "CountingUnavailable", "StatusResult", "knowledge_of",
           "with_fact", "counts", "solve_view", "first_determined", "first_inconsistent", "FEW"]


class CountingUnavailable(SolverError):
    """A count or a chance was asked of a deal no counting engine takes (status still answers)."""


def _beyond(exc: SolverError) -> bool:
    """A limit of the counting engines, not an answer (no world fits, nothing forced)."""
    return not isinstance(exc, (Inconsistent, NotForced))


@dataclass(frozen=True, eq=False)
class StatusKnowledge:
    """The :class:`~ruleslawyer.solver.engine.Knowledge` protocol from Z3 alone: no count.

    ``consistent``, ``status``, ``determined``, ``zone_status`` and
    ``solutions`` (when few) are exact; ``count``, ``solution_count``,
    ``probabilities`` and ``pattern_probabilities`` raise
    :class:`CountingUnavailable` with :attr:`why`; ``zone_probabilities`` is None.
    """

    z3k: "Z3Knowledge"
    why: str

    counted = False

    @classmethod
    def initial(cls, deal: Deal, why: str) -> "StatusKnowledge":
        from ..solver.z3engine import Z3Knowledge  # Z3 is loaded when a command needs it

        return cls(Z3Knowledge.initial(deal), why)

    @property
    def deal(self) -> Deal:
        return self.z3k.deal

    @property
    def facts(self) -> tuple[Fact, ...]:
        return self.z3k.facts

    @property
    def worlds(self) -> Worlds:
        return "deals"

    def with_fact(self, fact: Fact) -> "StatusKnowledge":
        return StatusKnowledge(self.z3k.with_fact(fact), self.why)

    def with_facts(self, facts: Iterable[Fact]) -> "StatusKnowledge":
        return StatusKnowledge(self.z3k.with_facts(facts), self.why)

    def _unavailable(self) -> CountingUnavailable:
        return CountingUnavailable(f"counting is not available for this deal: {self.why}")

    def count(self) -> int:
        raise self._unavailable()

    def solution_count(self) -> int:
        raise self._unavailable()

    def probabilities(self) -> Mapping[str, float]:
        raise self._unavailable()

    def pattern_probabilities(self) -> Mapping[tuple[int, ...], float]:
        raise self._unavailable()

    def zone_probabilities(self) -> None:
        return None

    def consistent(self) -> bool:
        return self._consistent

    @cached_property
    def _consistent(self) -> bool:
        return self.z3k.consistent()

    def status(self) -> dict[str, str]:
        return dict(self._status)

    @cached_property
    def _status(self) -> dict[str, str]:
        return self.z3k.status()

    def determined(self) -> bool:
        """One solution left: every card of the solution's deck is forced in or out."""
        return self.consistent() and all(v != "open" for v in self._status.values())

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        """The solutions left, None when more than ``limit`` (from Z3: no count)."""
        return self.z3k.solutions(limit)

    def zone_status(self) -> dict[str, dict[str, str]]:
        """Card -> zone -> "in" | "out" | "open", for every card of every deck (one ``consequences`` call)."""
        from ..solver.z3engine import Z3Knowledge

        full = Z3Knowledge.initial(self.deal, projected=False).with_facts(self.facts)
        engine = full.engine
        names = {str(v): key for key, v in engine.vars.items()}
        out: dict[str, dict[str, str]] = {c: dict.fromkeys(self.deal.deck_of(c).zone_ids(), "open")
                                          for c in self.deal.cards}
        forced = engine.forced(list(full.literals), list(engine.vars.values()))
        if forced is None:
            raise Inconsistent("no world fits the facts")
        for name, value in forced.items():
            card, zone = names[name]
            out[card][zone] = "in" if value else "out"
        for card, zones in out.items():  # a card forced into one zone is out of the others
            if "in" in zones.values():
                out[card] = {z: ("in" if v == "in" else "out") for z, v in zones.items()}
        return out


def initial(deal: Deal, count: bool = True) -> Knowledge:
    """:func:`~ruleslawyer.solver.engines.initial`, imported when a replay first needs a solver
    (the counting engines load numpy: a log whose facts a witness deal fits never does)."""
    from ..solver.engines import initial as first

    return first(deal, count)


def counts(knowledge: Any) -> bool:
    """Whether the knowledge counts worlds (False for :class:`StatusKnowledge`)."""
    return getattr(knowledge, "counted", True)


def knowledge_of(deal: Deal, facts: Iterable[Fact] = (), count: bool = True) -> Knowledge:
    """Nothing known yet but ``facts``: the fastest exact counting engine, else Z3 alone
    (``count=False``: consistency and status only, see :func:`~ruleslawyer.solver.engines.initial`)."""
    facts = tuple(facts)
    try:
        return initial(deal, count).with_facts(facts)
    except SolverError as exc:
        if not _beyond(exc):
            raise
        return StatusKnowledge.initial(deal, str(exc)).with_facts(facts)


def with_fact(knowledge: Knowledge, fact: Fact) -> Knowledge:
    """``knowledge.with_fact(fact)``; a counting engine that cannot take the fact hands every fact to Z3."""
    try:
        return knowledge.with_fact(fact)
    except SolverError as exc:
        if not _beyond(exc):
            raise
        facts = tuple(getattr(knowledge, "facts", ()) or ())
        return StatusKnowledge.initial(knowledge.deal, str(exc)).with_facts((*facts, fact))


@dataclass(frozen=True)
class Clash:
    """A refused fact and the sources of the accepted facts it clashes with."""

    fact: Fact
    sources: tuple[Any, ...]


@dataclass
class Observations:
    """The accepted facts about the deal, and what they leave possible.

    A fact that holds in the witness (:mod:`checker.witness`: one deal fitting every
    accepted fact, first the one the pinned cards leave) is accepted without a solver;
    the solver's knowledge is built when a question needs it.  The first fact the
    solver accepts but the witness does not fit retires the witness: from then on
    every fact goes to the solver.
    """

    deal: Deal
    facts: list[Fact] = field(default_factory=list)
    _knowledge: Knowledge | None = field(default=None, init=False, repr=False)
    _witness: dict[str, str] | None = field(default=None, init=False, repr=False)
    _retired: bool = field(default=False, init=False, repr=False)  # no witness any more: the solver answers

    @property
    def knowledge(self) -> Knowledge:
        """What the accepted facts leave, from the solver (built when first asked)."""
        if self._knowledge is None:
            self._knowledge = knowledge_of(self.deal, self.facts, count=False)
        return self._knowledge

    @knowledge.setter
    def knowledge(self, value: Knowledge) -> None:
        self._knowledge = value

    def _witnessed(self, facts: list[Fact]) -> bool:
        """Whether a witness deal fits the accepted facts and these (a new witness tried when needed)."""
        if self._retired:
            return False
        if self._witness is not None and all(witness.fits(f, self._witness) for f in facts):
            return True
        every = [*self.facts, *facts]
        world = witness.pinned_world(self.deal, every)
        if world is None or not all(witness.fits(f, world) for f in every):
            return False
        self._witness = world
        return True

    def _accept(self, fact: Fact, after: Knowledge | None) -> None:
        self.facts.append(fact)
        self._knowledge = after

    def _after(self, fact: Fact) -> Knowledge:
        if counts(self.knowledge):
            try:
                return self.knowledge.with_fact(fact)
            except SolverError as exc:
                if not _beyond(exc):
                    raise
                self.knowledge = StatusKnowledge.initial(self.deal, str(exc)).with_facts(self.facts)
        return self.knowledge.with_fact(fact)

    def fits(self, fact: Fact) -> bool:
        """Whether some deal fits the accepted facts and this one."""
        return self._witnessed([fact]) or self._after(fact).consistent()

    def fits_all(self, facts: Iterable[Fact], without: Any = None) -> bool:
        """Whether some deal fits the accepted facts and all of these together (``without``:
        leaving out the accepted facts of this source, as :meth:`withdraw` would)."""
        facts = list(facts)
        if self._witnessed(facts):  # it fits every accepted fact, so any fewer too
            return True
        base = self.knowledge
        if without is not None and any(f.source == without for f in self.facts):
            base = initial(self.deal, count=False).with_facts([f for f in self.facts if f.source != without])
        return base.with_facts(facts).consistent()

    def add(self, fact: Fact) -> Clash | None:
        """Accept the fact, or refuse it and say which facts it clashes with."""
        if self._witnessed([fact]):
            self._accept(fact, None)  # the solver's knowledge, if asked for, is built again
            return None
        after = self._after(fact)
        if after.consistent():
            self._accept(fact, after)
            self._witness, self._retired = None, True
            return None
        # The accepted facts fit, this one does not: a minimal core from Z3 names the clash.
        from ..solver.z3engine import Z3Knowledge

        core = Z3Knowledge.initial(self.deal).with_facts([*self.facts, fact]).inconsistency_core() or []
        return Clash(fact, tuple(self.facts[i].source for i in core if i < len(self.facts)))

    def withdraw(self, source: Any) -> bool:
        """Take back the accepted facts of this source (the knowledge is rebuilt); whether there were any."""
        kept = [f for f in self.facts if f.source != source]
        if len(kept) == len(self.facts):
            return False
        self.facts = kept
        self._knowledge = None  # built again from the facts kept when asked for (a witness still fits them)
        return True

    def add_all(self, facts: Iterable[Fact]) -> list[Clash]:
        return [c for c in (self.add(f) for f in facts) if c is not None]

    def solution(self) -> frozenset[str] | None:
        """The solution, when the accepted facts leave exactly one."""
        if not self.knowledge.determined():
            return None
        found = self.knowledge.solutions(1)
        return frozenset(found[0]) if found else None


@dataclass(frozen=True)
class StatusResult(queries.SolveResult):
    """A :class:`~ruleslawyer.solver.queries.SolveResult` without counts: Z3's status only.

    ``count`` is 0 and means nothing (its JSON is null), ``solution_count``
    is the number of solutions when they were few enough to list (else None);
    the chances are empty and ``why`` says why nothing counts.  ``zone_status``
    gives, for every card, each zone it is certainly in or out of.
    """

    why: str = ""
    zone_status: dict[str, dict[str, str]] = field(default_factory=dict)
    few: int | None = None  # the number of solutions, when at most the limit asked

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out.update(count=None, solution_count=self.few, counted=False, counting=self.why,
                   probabilities={}, pattern_probabilities=[])
        out["zone_status"] = {c: dict(z) for c, z in self.zone_status.items()}
        return out


#: How many solutions a viewpoint without counts lists at most, to say how many are left.
FEW = 20


def solve_view(deal: Deal, facts: list[Fact], viewpoint: "queries.Viewpoint",
               max_solutions: int = 20) -> queries.SolveResult:
    """:func:`~ruleslawyer.solver.queries.solve`, or Z3's answer (:class:`StatusResult`) when nothing counts."""
    try:
        return queries.solve(deal, facts, viewpoint, max_solutions=max_solutions)
    except SolverError as exc:
        if not _beyond(exc):
            raise
        why = str(exc)
    seen = [f for f in facts if viewpoint.sees(f)]
    k = StatusKnowledge.initial(deal, why).with_facts(seen)
    consistent = k.consistent()
    few = k.solutions(max(max_solutions, FEW)) if consistent else []
    listed = few if few is not None and len(few) <= max_solutions else None
    order = {c: i for i, c in enumerate(deal.solution_cards)}
    return StatusResult(
        viewpoint=viewpoint.name, facts_seen=len(seen), worlds="deals", count=0,
        solution_count=len(few) if few is not None else 0, consistent=consistent,
        determined=consistent and k.determined(), status=k.status() if consistent else {},
        probabilities={}, pattern_probabilities={}, zone_probabilities=None,
        solutions=None if listed is None else sorted(sorted(x, key=order.__getitem__) for x in listed),
        why=why, zone_status=k.zone_status() if consistent else {}, few=None if few is None else len(few))


def first_determined(deal: Deal, facts: list[Fact], viewpoints: list["queries.Viewpoint"]) -> dict[str, int | None]:
    """:func:`~ruleslawyer.solver.queries.first_determined`, from Z3 when nothing counts the deal."""
    try:
        return queries.first_determined(deal, facts, viewpoints)
    except SolverError as exc:
        if not _beyond(exc):
            raise
        why = str(exc)
    out: dict[str, int | None] = {}
    for view in viewpoints:
        k = StatusKnowledge.initial(deal, why)
        out[view.name] = -1 if k.determined() else None
        for i, fact in enumerate(facts):
            if out[view.name] is not None:
                break
            if view.sees(fact):
                k = k.with_fact(fact)
                if k.determined():
                    out[view.name] = i
    return out


def first_inconsistent(deal: Deal, facts: list[Fact],
                       viewpoint: "queries.Viewpoint") -> "queries.Inconsistency | None":
    """:func:`~ruleslawyer.solver.queries.first_inconsistent`, from Z3 when nothing counts the deal."""
    try:
        return queries.first_inconsistent(deal, facts, viewpoint)
    except SolverError as exc:
        if not _beyond(exc):
            raise
    seen = [i for i, f in enumerate(facts) if viewpoint.sees(f)]
    from ..solver.z3engine import Z3Knowledge

    k = Z3Knowledge.initial(deal)
    for n, i in enumerate(seen):
        k = k.with_fact(facts[i])
        if not k.consistent():
            prefix = seen[: n + 1]
            core = tuple(prefix[p] for p in k.inconsistency_core() or ())
            return queries.Inconsistency(i, core, tuple(facts[j] for j in core))
    return None
