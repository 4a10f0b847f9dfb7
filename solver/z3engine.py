"""Reference encoding in Z3: consistency, forced cards and minimal explanations.

One Bool per card; the shape is an Or over its patterns of per-group
cardinality constraints; each fact is a pseudo-Boolean constraint guarded by
its own tracking literal, so a question is a ``check`` under assumptions and
an unsat core names facts.  Z3 never counts here (that is the numpy engine's
job): it only answers possible / forced and *why*.

>>> shape = DealShape(groups=(("a", "b"), ("c", "d")), patterns=((1, 1),))
>>> k = Z3Engine(shape).knowledge().with_facts([
...     Fact.count({"a", "c"}, "==", 1, source="move 1"),
...     Fact.count({"c"}, "==", 0, source="move 2"),
...     Fact.count({"b", "d"}, ">=", 0, source="move 3")])
>>> k.status()["a"]
'in'
>>> [f.source for f in k.explain_status("a")]
['move 1', 'move 2']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import z3

from .errors import Inconsistent, NotForced
from .facts import DealShape, Fact, compare
from .shape import validate

__all__ = ["Z3Engine", "Z3Knowledge"]


class Z3Engine:
    """One incremental Z3 solver holding a shape; facts join it guarded."""

    def __init__(self, shape: DealShape) -> None:
        validate(shape)
        self.shape = shape
        self.ctx = z3.Context()
        self.vars = {card: z3.Bool(f"card{i}", self.ctx)
                     for i, card in enumerate(shape.cards)}
        self._card_by_name = {str(v): c for c, v in self.vars.items()}
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.add(self.shape_constraint())
        self._tracked = 0

    def _true(self, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value, self.ctx)

    def shape_constraint(self) -> z3.BoolRef:
        """Or over patterns of "group i holds exactly pattern[i] solution cards"."""
        options = []
        for pattern in self.shape.patterns:
            counts = []
            for group, k in zip(self.shape.groups, pattern):
                bools = [(self.vars[c], 1) for c in group]
                counts.append(z3.PbEq(bools, k) if bools else self._true(k == 0))
            options.append(z3.And(counts) if counts else self._true(True))
        return z3.Or(options)

    def encode(self, fact: Fact) -> z3.BoolRef:
        """The fact as a constraint over the card Bools."""
        terms = [(self.vars[c], w) for c, w in fact.weights if w and c in self.vars]
        if not terms:
            return self._true(bool(compare(fact.op, 0, fact.value)))
        if all(w > 0 for _, w in terms):
            v = fact.value
            pb = {"==": lambda: z3.PbEq(terms, v), "!=": lambda: z3.Not(z3.PbEq(terms, v)),
                  "<=": lambda: z3.PbLe(terms, v), "<": lambda: z3.PbLe(terms, v - 1),
                  ">=": lambda: z3.PbGe(terms, v), ">": lambda: z3.PbGe(terms, v + 1)}
            return pb[fact.op]()
        total = z3.Sum([z3.If(b, z3.IntVal(w, self.ctx), z3.IntVal(0, self.ctx))
                        for b, w in terms])
        return compare(fact.op, total, z3.IntVal(fact.value, self.ctx))

    def track(self, fact: Fact) -> z3.BoolRef:
        """A fresh literal that, when assumed, imposes ``fact``."""
        literal = z3.Bool(f"fact{self._tracked}", self.ctx)
        self._tracked += 1
        self.solver.add(z3.Implies(literal, self.encode(fact)))
        return literal

    def knowledge(self) -> "Z3Knowledge":
        return Z3Knowledge(self)


@dataclass(frozen=True, eq=False)
class Z3Knowledge:
    """Facts known so far, each with its tracking literal (immutable)."""

    engine: Z3Engine
    facts: tuple[Fact, ...] = ()
    literals: tuple[z3.BoolRef, ...] = ()

    @classmethod
    def initial(cls, shape: DealShape) -> "Z3Knowledge":
        return Z3Engine(shape).knowledge()

    def with_fact(self, fact: Fact) -> "Z3Knowledge":
        return Z3Knowledge(self.engine, self.facts + (fact,),
                           self.literals + (self.engine.track(fact),))

    def with_facts(self, facts: Iterable[Fact]) -> "Z3Knowledge":
        knowledge = self
        for fact in facts:
            knowledge = knowledge.with_fact(fact)
        return knowledge

    def _check(self, positions: Iterable[int], *extra: z3.BoolRef) -> bool:
        """True when the facts at ``positions`` (and ``extra``) can all hold."""
        literals = [self.literals[i] for i in positions]
        result = self.engine.solver.check(*literals, *extra)
        if result == z3.unknown:  # pragma: no cover - pure PB over Bools
            raise RuntimeError(f"z3 gave up: {self.engine.solver.reason_unknown()}")
        return result == z3.sat

    def consistent(self) -> bool:
        return self._check(range(len(self.facts)))

    def status(self) -> dict[str, str]:
        """Card → "in" | "out" | "open", from one ``consequences`` call."""
        variables = list(self.engine.vars.values())
        result, implied = self.engine.solver.consequences(list(self.literals), variables)
        if result == z3.unsat:
            raise Inconsistent("no solution fits the facts")
        status = dict.fromkeys(self.engine.shape.cards, "open")
        for implication in implied:
            literal = implication.arg(1) if z3.is_implies(implication) else implication
            value = "in"
            if z3.is_not(literal):
                literal, value = literal.arg(0), "out"
            status[self.engine._card_by_name[str(literal)]] = value
        return status

    def _minimal_core(self, *extra: z3.BoolRef) -> list[int]:
        """Positions of a subset-minimal set of facts that, with ``extra``, cannot hold.

        Deletion-based: starting from Z3's unsat core, try dropping each fact,
        latest first (so the explanation names the earliest moves that force
        it), keeping the drop whenever the rest is still unsatisfiable.
        """
        position = {str(lit): i for i, lit in enumerate(self.literals)}

        def core_of_last_check() -> list[int]:
            named = (position.get(str(lit)) for lit in self.engine.solver.unsat_core())
            return sorted(i for i in named if i is not None)

        if self._check(range(len(self.facts)), *extra):
            raise ValueError("the facts are satisfiable")
        core = core_of_last_check()
        necessary: list[int] = []
        while core:
            candidate = core.pop()
            if self._check(core + necessary, *extra):
                necessary.append(candidate)
            else:  # still unsat without it: shrink to the new core
                kept = set(core_of_last_check())
                core = [i for i in core if i in kept]
        return sorted(necessary)

    def status_core(self, card: str) -> tuple[str, list[int]]:
        """The card's forced status and the positions (in ``facts``) forcing it."""
        var = self.engine.vars[card]
        can_be_in = self._check(range(len(self.facts)), var)
        can_be_out = self._check(range(len(self.facts)), z3.Not(var))
        if not (can_be_in or can_be_out):
            raise Inconsistent("no solution fits the facts")
        if can_be_in and can_be_out:
            raise NotForced(f"{card} may or may not be in the solution")
        if can_be_in:
            return "in", self._minimal_core(z3.Not(var))
        return "out", self._minimal_core(var)

    def explain_status(self, card: str) -> list[Fact]:
        """A minimal list of facts forcing ``card`` in or out (in fact order).

        Minimal: without any one of them the card would no longer be forced.
        Empty when the shape alone forces it.  Raises :class:`NotForced`.
        """
        return [self.facts[i] for i in self.status_core(card)[1]]

    def inconsistency_core(self) -> list[int] | None:
        """Positions of a minimal set of facts that cannot all hold, or None."""
        if self.consistent():
            return None
        return self._minimal_core()

    def explain_inconsistency(self) -> list[Fact] | None:
        """A minimal list of facts that cannot all hold, or None when consistent."""
        core = self.inconsistency_core()
        return None if core is None else [self.facts[i] for i in core]
