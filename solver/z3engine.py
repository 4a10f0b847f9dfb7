"""Reference encoding in Z3: consistency, forced cards and minimal explanations.

Two encodings of a deal, each fact a constraint guarded by its own tracking
literal, so a question is a ``check`` under assumptions and an unsat core
names facts.  Z3 never counts here (that is the numpy engine's job): it
only answers possible / forced and *why*.

* **full**: a Bool per (card, zone of its deck); each card in exactly one
  zone, each zone holding its size, each group constraint an Or over its
  patterns of per-group equalities; an atom is a pseudo-Boolean constraint
  (or a linear sum over Ints when a weight is negative) over the Bools of
  its terms' (card, zone) pairs; And / Or / Not as such.
* **projected** (when the deal projects, see :mod:`solver.frame`): a Bool
  per card, "in the solution"; the patterns as in the full encoding.  A pin
  "card c is in zone z" sets a Bool ``pin(c, z)`` implying the card is in
  the solution; no card has two pins, no zone more pins than its size, so
  conflicting pins are unsatisfiable together and show in cores.  A fact
  that does not project moves the knowledge to the full encoding.

Every card of the solution's deck has a Bool "in the solution" (the
projected Bool itself, or one defined as the Or of its solution zones):
their forced values are the status.

>>> from ruleslawyer.spec.dealmodel import Deck, GroupCount, Zone
>>> from ruleslawyer.spec.facts import count, member
>>> hands = ("hand:Ann", "hand:Bob")
>>> deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
...     Zone("hand:Bob", "hand", "Bob", 1, "owner"), Zone("rest", "rest", None, 2)),
...     (GroupCount(hands, (("a", "b"), ("c", "d")), ((1, 1),)),))
>>> k = Z3Knowledge.initial(Deal((deck,), solution=hands)).with_facts([
...     Fact(count(["a", "c"], hands) == 1, source="move 1"),
...     Fact(count(["c"], hands) == 0, source="move 2"),
...     Fact(member("d", {"hand:Bob"}) == 1, source="move 3")])
>>> k.status()["a"], k.projected
('in', True)
>>> [f.source for f in k.explain_status("a")]
['move 1', 'move 2']
>>> [f.source for f in k.explain_forced(member("a", {"hand:Ann"}) == 1)]
['move 1', 'move 3']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import z3

from ..spec.dealmodel import Deal
from ..spec.facts import OPS, And, Atom, Const, Fact, Formula, Lin, Not
from .engine import add_facts
from .errors import Inconsistent, NotForced, SolverError
from .frame import SOLUTION, Frame, frame_of, validate

__all__ = ["Z3Engine", "Z3Knowledge", "decided", "new_context"]


def new_context() -> z3.Context:
    """A fresh ``z3.Context`` that a Ctrl-C in its set-up cannot leave half-built.

    ``z3.Context.__init__`` can be interrupted before it sets ``ctx``; its
    ``__del__`` then fails inside the garbage collector with an error that
    hides the interrupt.  Pre-setting the attributes ``__del__`` reads makes
    that finaliser harmless.
    """
    ctx = z3.Context.__new__(z3.Context)
    ctx.ctx, ctx.eh, ctx.owner = None, None, False
    ctx.__init__()
    return ctx


def decided(solver: z3.Solver, result: z3.CheckSatResult) -> z3.CheckSatResult:
    """``result`` when Z3 decided; a check Z3 reports as interrupted or cancelled becomes
    ``KeyboardInterrupt``, any other unknown a :class:`SolverError`."""
    if result == z3.unknown:
        reason = solver.reason_unknown()
        if "interrupt" in reason or "cancel" in reason:
            raise KeyboardInterrupt
        raise SolverError(f"z3 gave up: {reason}")
    return result


class Z3Engine:
    """One incremental Z3 solver holding a deal; facts join it guarded.

    ``projected`` None picks the projected encoding whenever the deal allows it.
    """

    def __init__(self, deal: Deal, projected: bool | None = None) -> None:
        validate(deal)
        self.deal = deal
        self.frame: Frame | None = frame_of(deal) if projected is not False else None
        if projected and self.frame is None:
            raise SolverError("the deal does not project")
        self.ctx = new_context()
        self.solver = z3.Solver(ctx=self.ctx)
        # Z3's own Ctrl-C handler, installed for each check, takes a mutex inside the signal
        # handler: a Ctrl-C landing while a check installs or removes it hung the process for
        # good (tests/solver/test_z3_interrupts.py).  Python's handler stays, and the
        # interrupt is raised as soon as the check returns.
        self.solver.set("ctrl_c", False)
        self.vars: dict[tuple[str, str], z3.BoolRef] = {}  # (card, zone) -> Bool
        self.inside: dict[str, z3.BoolRef] = {}            # card -> "in the solution"
        if self.frame is not None:
            self._encode_projected(self.frame)
        else:
            self._encode_full()
        self._card_by_name = {str(v): c for c, v in self.inside.items()}
        self._pins: dict[tuple[str, str], z3.BoolRef] = {}
        self._tracked = 0

    @property
    def projected(self) -> bool:
        return self.frame is not None

    def _true(self, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value, self.ctx)

    def _exactly(self, bools: list[z3.BoolRef], k: int) -> z3.BoolRef:
        return z3.PbEq([(b, 1) for b in bools], k) if bools else self._true(k == 0)

    def _encode_projected(self, frame: Frame) -> None:
        for i, card in enumerate(frame.cards):
            self.inside[card] = self.vars[card, SOLUTION] = z3.Bool(f"in{i}", self.ctx)
        options = [z3.And([self._exactly([self.inside[c] for c in group], k)
                           for group, k in zip(frame.groups, counts)])
                   for counts in frame.blocks if counts is not None]
        self.solver.add(z3.Or(options))

    def _encode_full(self) -> None:
        deal = self.deal
        for i, card in enumerate(deal.cards):
            for j, zone in enumerate(deal.deck_of(card).zone_ids()):  # by number: a zone's id holds a player's name
                self.vars[card, zone] = z3.Bool(f"x{i}@{j}", self.ctx)
        for deck in deal.decks:
            for card in deck.cards:
                self.solver.add(self._exactly([self.vars[card, z] for z in deck.zone_ids()], 1))
            for zone in deck.zones:
                self.solver.add(self._exactly([self.vars[c, zone.id] for c in deck.cards], zone.size))
            for g in deck.constraints:
                self.solver.add(z3.Or([
                    z3.And([self._exactly([self.vars[c, z] for c in group for z in g.zones], k)
                            for group, k in zip(g.groups, pattern)])
                    for pattern in g.patterns]))
        for i, card in enumerate(deal.solution_cards):
            inside = z3.Bool(f"in{i}", self.ctx)
            self.solver.add(inside == z3.Or([self.vars[card, z] for z in deal.solution]))
            self.inside[card] = inside

    def _terms(self, lin: Lin) -> list[tuple[z3.BoolRef, int]]:
        return [(self.vars[c, z], w) for c, zones, w in lin.terms for z in zones if (c, z) in self.vars]

    def encode(self, formula: Formula) -> z3.BoolRef:
        """A formula as a constraint over this encoding's Bools (projected
        formulas for the projected encoding, see :mod:`solver.frame`)."""
        if isinstance(formula, Const):
            return self._true(formula.truth)
        if isinstance(formula, Not):
            return z3.Not(self.encode(formula.part))
        if not isinstance(formula, Atom):
            parts = [self.encode(p) for p in formula.parts]
            return z3.And(parts) if isinstance(formula, And) else z3.Or(parts)
        terms, op, v = self._terms(formula.lin), formula.op, formula.value
        if not terms:
            return self._true(bool(OPS[op](0, v)))
        if all(w > 0 for _, w in terms):
            pb = {"==": lambda: z3.PbEq(terms, v), "!=": lambda: z3.Not(z3.PbEq(terms, v)),
                  "<=": lambda: z3.PbLe(terms, v), "<": lambda: z3.PbLe(terms, v - 1),
                  ">=": lambda: z3.PbGe(terms, v), ">": lambda: z3.PbGe(terms, v + 1)}
            return pb[op]()
        total = z3.Sum([z3.If(b, z3.IntVal(w, self.ctx), z3.IntVal(0, self.ctx)) for b, w in terms])
        return OPS[op](total, z3.IntVal(v, self.ctx))

    def _pin(self, card: str, zone: str) -> z3.BoolRef:
        """The Bool "card is pinned to zone", created with its capacity constraints."""
        pin = self._pins.get((card, zone))
        if pin is not None:
            return pin
        assert self.frame is not None
        pin = z3.Bool(f"pin{len(self._pins)}", self.ctx)
        self.solver.add(z3.Implies(pin, self.inside[card]))
        for (other_card, other_zone), other in self._pins.items():
            if other_card == card:
                self.solver.add(z3.Not(z3.And(pin, other)))
        self._pins[card, zone] = pin
        in_zone = [(p, 1) for (_c, z), p in self._pins.items() if z == zone]
        self.solver.add(z3.PbLe(in_zone, self.frame.sizes[zone]))  # subsumes the earlier ones
        return pin

    def query(self, formula: Formula) -> z3.BoolRef | None:
        """A formula to ask about (not a fact), or None when this encoding
        cannot say it exactly (a projected encoding asked about zones)."""
        if self.frame is None:
            return self.encode(formula)
        projection = self.frame.project(formula)
        if projection is None or projection.pins:
            return None
        return self.encode(projection.formula)

    def track(self, fact: Fact) -> z3.BoolRef | None:
        """A fresh literal that, when assumed, imposes ``fact`` (None if it does not project)."""
        if self.frame is None:
            constraint = self.encode(fact.formula)
        else:
            projection = self.frame.project(fact.formula)
            if projection is None:
                return None
            constraint = z3.And([self.encode(projection.formula),
                                 *(self._pin(c, z) for c, z in sorted(projection.pins))])
        literal = z3.Bool(f"fact{self._tracked}", self.ctx)
        self._tracked += 1
        self.solver.add(z3.Implies(literal, constraint))
        return literal

    def knowledge(self) -> "Z3Knowledge":
        return Z3Knowledge(self)

    def check(self, *assumptions: z3.BoolRef) -> bool:
        """Whether the constraints hold together with ``assumptions`` (see :func:`decided`)."""
        return decided(self.solver, self.solver.check(*assumptions)) == z3.sat

    def forced(self, assumptions: list[z3.BoolRef], variables: list[z3.BoolRef]) -> dict[str, bool] | None:
        """Each of ``variables`` (by name) whose value the constraints and ``assumptions``
        force, with that value; None when they cannot hold (one ``consequences`` call)."""
        result, implied = self.solver.consequences(assumptions, variables)
        if decided(self.solver, result) == z3.unsat:
            return None
        out: dict[str, bool] = {}
        for implication in implied:
            literal = implication.arg(1) if z3.is_implies(implication) else implication
            value = not z3.is_not(literal)
            out[str(literal if value else literal.arg(0))] = value
        return out


@dataclass(frozen=True, eq=False)
class Z3Knowledge:
    """Facts known so far, each with its tracking literal (immutable)."""

    engine: Z3Engine
    facts: tuple[Fact, ...] = ()
    literals: tuple[z3.BoolRef, ...] = ()

    @classmethod
    def initial(cls, deal: Deal, projected: bool | None = None) -> "Z3Knowledge":
        return Z3Engine(deal, projected).knowledge()

    @property
    def deal(self) -> Deal:
        return self.engine.deal

    @property
    def projected(self) -> bool:
        return self.engine.projected

    def with_fact(self, fact: Fact) -> "Z3Knowledge":
        literal = self.engine.track(fact)
        if literal is None:  # the fact does not project: the full encoding takes every fact
            return Z3Knowledge.initial(self.deal, projected=False).with_facts(self.facts + (fact,))
        return Z3Knowledge(self.engine, self.facts + (fact,), self.literals + (literal,))

    def with_facts(self, facts: Iterable[Fact]) -> "Z3Knowledge":
        return add_facts(self, facts)

    @cached_property
    def _full(self) -> "Z3Knowledge":
        """The same facts in the full encoding (for questions about zones)."""
        if not self.projected:
            return self
        return Z3Knowledge.initial(self.deal, projected=False).with_facts(self.facts)

    def _query(self, formula: Formula) -> tuple["Z3Knowledge", z3.BoolRef]:
        """A knowledge whose encoding can ask ``formula``, and the question."""
        question = self.engine.query(formula)
        if question is not None:
            return self, question
        full = self._full
        question = full.engine.query(formula)
        assert question is not None
        return full, question

    def _check(self, positions: Iterable[int], *extra: z3.BoolRef) -> bool:
        """True when the facts at ``positions`` (and ``extra``) can all hold."""
        literals = [self.literals[i] for i in positions]
        return self.engine.check(*literals, *extra)

    def consistent(self) -> bool:
        return self._check(range(len(self.facts)))

    def status(self) -> dict[str, str]:
        """Card of the solution's deck → "in" | "out" | "open", from one ``consequences`` call."""
        variables = list(self.engine.inside.values())
        forced = self.engine.forced(list(self.literals), variables)
        if forced is None:
            raise Inconsistent("no world fits the facts")
        status = dict.fromkeys(self.engine.inside, "open")
        for name, value in forced.items():
            status[self.engine._card_by_name[name]] = "in" if value else "out"
        return status

    def solutions(self, limit: int) -> list[frozenset[str]] | None:
        """The solutions left (models told apart by the solution's cards), None when more than
        ``limit``: no count needed."""
        engine = self.engine
        found: list[frozenset[str]] = []
        engine.solver.push()
        try:
            while engine.check(*self.literals):
                model = engine.solver.model()
                inside = frozenset(c for c, v in engine.inside.items() if z3.is_true(model.eval(v, True)))
                found.append(inside)
                if len(found) > limit:
                    return None
                engine.solver.add(z3.Or([v != model.eval(v, True) for v in engine.inside.values()]))
        finally:
            engine.solver.pop()
        return found

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

    def _forced(self, question: z3.BoolRef, what: str) -> list[int]:
        everything = range(len(self.facts))
        if not self._check(everything):
            raise Inconsistent("no world fits the facts")
        if self._check(everything, z3.Not(question)):
            raise NotForced(f"the facts do not force {what}")
        return self._minimal_core(z3.Not(question))

    def possible(self, formula: Formula) -> bool:
        """Whether some world fitting the facts satisfies ``formula``."""
        knowledge, question = self._query(formula)
        return knowledge._check(range(len(knowledge.facts)), question)

    def forced_core(self, formula: Formula) -> list[int]:
        """Positions (in ``facts``) of a minimal set of facts forcing ``formula``.

        Minimal: without any one of them it would no longer be forced.  Empty
        when the deal alone forces it.  Raises :class:`NotForced` when some
        world fitting the facts contradicts it, :class:`Inconsistent` when no
        world fits.
        """
        knowledge, question = self._query(formula)
        return knowledge._forced(question, "it")

    def explain_forced(self, formula: Formula) -> list[Fact]:
        """The facts of :meth:`forced_core` (in fact order)."""
        return [self.facts[i] for i in self.forced_core(formula)]

    def status_core(self, card: str) -> tuple[str, list[int]]:
        """The card's forced status ("in" or "out" of the solution) and the
        positions (in ``facts``) forcing it."""
        var = self.engine.inside[card]
        can_be_in = self._check(range(len(self.facts)), var)
        can_be_out = self._check(range(len(self.facts)), z3.Not(var))
        if not (can_be_in or can_be_out):
            raise Inconsistent("no world fits the facts")
        if can_be_in and can_be_out:
            raise NotForced(f"{card} may or may not be in the solution")
        if can_be_in:
            return "in", self._minimal_core(z3.Not(var))
        return "out", self._minimal_core(var)

    def explain_status(self, card: str) -> list[Fact]:
        """A minimal list of facts forcing ``card`` in or out (in fact order).

        Minimal: without any one of them the card would no longer be forced.
        Empty when the deal alone forces it.  Raises :class:`NotForced`.
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
