"""Is what the table observed consistent?  The solver, asked fact by fact.

The recorded cards of the players' zones (private records, cards shown at
the end) and every observation of a move are facts over the hidden deal
(:mod:`spec.facts`).  They are added in order; a fact after which no deal
fits is refused (and reported by the caller) with the few earlier facts that
clash with it, so that the facts after it are still checked against a
consistent set.

>>> from ruleslawyer.spec.deal import build_deal, pin
>>> from ruleslawyer.spec.facts import Fact, count
>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> deal = build_deal(load_rules(str(sorted(rules_dir().glob("*.yaml"))[0])), ("Ann", "Bob", "Cat", "Dan"))
>>> a, b = deal.decks[0].cards[:2]
>>> seen = Observations(deal)
>>> seen.add(pin(a, "hand:Ann", frozenset({"Ann"}), source="Ann's card")) is None
True
>>> clash = seen.add(Fact(count([a, b], deal.solution) == 0, source="an observation"))
>>> clash.sources
("Ann's card",)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..solver.engine import Knowledge
from ..solver.engines import initial
from ..spec.dealmodel import Deal
from ..spec.facts import Fact

__all__ = ["Observations", "Clash"]


@dataclass(frozen=True)
class Clash:
    """A refused fact and the sources of the accepted facts it clashes with."""

    fact: Fact
    sources: tuple[Any, ...]


@dataclass
class Observations:
    """The accepted facts about the deal, and what they leave possible."""

    deal: Deal
    knowledge: Knowledge = field(init=False)
    facts: list[Fact] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.knowledge = initial(self.deal)

    def fits(self, fact: Fact) -> bool:
        """Whether some deal fits the accepted facts and this one."""
        return self.knowledge.with_fact(fact).consistent()

    def fits_all(self, facts: Iterable[Fact], without: Any = None) -> bool:
        """Whether some deal fits the accepted facts and all of these together (``without``:
        leaving out the accepted facts of this source, as :meth:`withdraw` would)."""
        base = self.knowledge
        if without is not None and any(f.source == without for f in self.facts):
            base = initial(self.deal).with_facts([f for f in self.facts if f.source != without])
        return base.with_facts(list(facts)).consistent()

    def add(self, fact: Fact) -> Clash | None:
        """Accept the fact, or refuse it and say which facts it clashes with."""
        after = self.knowledge.with_fact(fact)
        if after.consistent():
            self.knowledge = after
            self.facts.append(fact)
            return None
        from ..solver.queries import first_inconsistent  # Z3: only when explaining

        found = first_inconsistent(self.deal, [*self.facts, fact])
        core = found.core if found is not None else ()
        return Clash(fact, tuple(self.facts[i].source for i in core if i < len(self.facts)))

    def withdraw(self, source: Any) -> bool:
        """Take back the accepted facts of this source (the knowledge is rebuilt); whether there were any."""
        kept = [f for f in self.facts if f.source != source]
        if len(kept) == len(self.facts):
            return False
        self.facts = kept
        self.knowledge = initial(self.deal).with_facts(kept)
        return True

    def add_all(self, facts: Iterable[Fact]) -> list[Clash]:
        return [c for c in (self.add(f) for f in facts) if c is not None]

    def solution(self) -> frozenset[str] | None:
        """The solution, when the accepted facts leave exactly one."""
        if not self.knowledge.determined():
            return None
        found = self.knowledge.solutions(1)
        return frozenset(found[0]) if found else None
