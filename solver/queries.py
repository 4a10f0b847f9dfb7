"""What the command line asks the solver, with JSON-friendly typed answers.

Every function takes a shape and the facts in log order; a
:class:`Viewpoint` picks which facts count.  Counting and probabilities come
from the numpy engine, explanations from Z3.  Fact indexes in answers are
positions in the full fact list (so a caller can map them to log lines).

>>> shape = DealShape(groups=(("a", "b"), ("c", "d")), patterns=((1, 1),))
>>> facts = [Fact.count({"a", "c"}, "==", 2, viewer="Helen")]
>>> solve(shape, facts, Viewpoint.spectator()).count
4
>>> solve(shape, facts, Viewpoint.of_player("Helen")).solutions
[['a', 'c']]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Sequence

from .enumerate import Knowledge, Space
from .errors import NotForced
from .facts import DealShape, Fact
from .z3engine import Z3Engine

__all__ = [
    "Viewpoint", "SolveResult", "ViewState", "History", "Inconsistency", "Explanation",
    "solve", "history", "first_determined", "first_inconsistent", "explain",
    "fact_to_json",
]

Json = dict[str, Any]


@dataclass(frozen=True)
class Viewpoint:
    """Whose knowledge: public facts only, public plus one player's, or all."""

    kind: Literal["spectator", "player", "omniscient"]
    player: str | None = None

    @classmethod
    def spectator(cls) -> "Viewpoint":
        return cls("spectator")

    @classmethod
    def omniscient(cls) -> "Viewpoint":
        return cls("omniscient")

    @classmethod
    def of_player(cls, player: str) -> "Viewpoint":
        return cls("player", player)

    @classmethod
    def parse(cls, text: str) -> "Viewpoint":
        """``"spectator"``, ``"omniscient"`` or ``"player:NAME"`` (as :attr:`name`)."""
        if text in ("spectator", "omniscient"):
            return cls(text)  # type: ignore[arg-type]
        if text.startswith("player:") and len(text) > len("player:"):
            return cls.of_player(text[len("player:"):])
        raise ValueError(f"unknown viewpoint {text!r}")

    @property
    def name(self) -> str:
        return f"player:{self.player}" if self.kind == "player" else self.kind

    def sees(self, fact: Fact) -> bool:
        if self.kind == "omniscient":
            return True
        return fact.viewer is None or (self.kind == "player" and fact.viewer == self.player)


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def fact_to_json(fact: Fact) -> Json:
    return {"weights": [[c, w] for c, w in fact.weights], "op": fact.op,
            "value": fact.value, "viewer": fact.viewer, "source": _jsonable(fact.source)}


def _facts_json(facts: Sequence[Fact], indexes: Iterable[int]) -> list[Json]:
    return [{"index": i, **fact_to_json(facts[i])} for i in indexes]


@dataclass(frozen=True)
class SolveResult:
    """Everything known from one viewpoint after all the facts it sees.

    ``status``, ``probabilities`` and ``pattern_probabilities`` are empty when
    no solution fits; ``solutions`` is None when more than the limit are left.
    """

    viewpoint: str
    facts_seen: int
    count: int
    consistent: bool
    determined: bool
    status: dict[str, str]
    probabilities: dict[str, float]
    pattern_probabilities: dict[tuple[int, ...], float]
    solutions: list[list[str]] | None

    def to_json(self) -> Json:
        return {
            "viewpoint": self.viewpoint, "facts_seen": self.facts_seen,
            "count": self.count, "consistent": self.consistent,
            "determined": self.determined, "status": dict(self.status),
            "probabilities": dict(self.probabilities),
            "pattern_probabilities": [{"pattern": list(p), "probability": q}
                                      for p, q in self.pattern_probabilities.items()],
            "solutions": self.solutions,
        }


def _knowledge(shape: DealShape, facts: Iterable[Fact], viewpoint: Viewpoint) -> Knowledge:
    return Knowledge.initial(shape).with_facts(f for f in facts if viewpoint.sees(f))


def solve(shape: DealShape, facts: Sequence[Fact], viewpoint: Viewpoint | None = None,
          max_solutions: int = 20) -> SolveResult:
    """Count, status, probabilities and (when few) the solutions left."""
    viewpoint = viewpoint or Viewpoint.spectator()
    knowledge = _knowledge(shape, facts, viewpoint)
    consistent = knowledge.consistent()
    order = {c: i for i, c in enumerate(shape.cards)}
    solutions = knowledge.solutions(max_solutions)
    return SolveResult(
        viewpoint=viewpoint.name,
        facts_seen=sum(1 for f in facts if viewpoint.sees(f)),
        count=knowledge.count(),
        consistent=consistent,
        determined=knowledge.determined(),
        status=knowledge.status() if consistent else {},
        probabilities=knowledge.probabilities() if consistent else {},
        pattern_probabilities=knowledge.pattern_probabilities() if consistent else {},
        solutions=None if solutions is None else sorted(
            sorted(s, key=order.__getitem__) for s in solutions),
    )


@dataclass(frozen=True)
class ViewState:
    """One viewpoint at one step of a history."""

    count: int
    determined: bool
    status: dict[str, str] | None = None  # only when asked for

    @property
    def consistent(self) -> bool:
        return self.count > 0

    def to_json(self) -> Json:
        out: Json = {"count": self.count, "consistent": self.consistent,
                     "determined": self.determined}
        if self.status is not None:
            out["status"] = dict(self.status)
        return out


@dataclass(frozen=True)
class History:
    """``steps[s][name]``: the viewpoint's state after the first ``s`` facts.

    ``steps[0]`` is before any fact, so there are ``len(facts) + 1`` steps.
    """

    viewpoints: tuple[str, ...]
    steps: tuple[dict[str, ViewState], ...]

    def first_determined(self) -> dict[str, int | None]:
        """Viewpoint → index of the fact after which it first knows the solution.

        None if it never does; -1 if it did before any fact.
        """
        first: dict[str, int | None] = dict.fromkeys(self.viewpoints)
        for step, states in enumerate(self.steps):
            for name, state in states.items():
                if first[name] is None and state.determined:
                    first[name] = step - 1
        return first

    def to_json(self) -> Json:
        return {"viewpoints": list(self.viewpoints),
                "steps": [{"step": s, "fact": s - 1 if s else None,
                           "views": {n: v.to_json() for n, v in states.items()}}
                          for s, states in enumerate(self.steps)]}


def history(shape: DealShape, facts: Sequence[Fact], viewpoints: Sequence[Viewpoint],
            with_status: bool = False) -> History:
    """Each viewpoint's count and determination after every prefix of ``facts``.

    Each fact's mask is computed once and shared by the viewpoints seeing it;
    a viewpoint that does not see a fact keeps its previous state.
    """
    space = Space.of(shape)
    names = tuple(v.name for v in viewpoints)
    if len(set(names)) != len(names):
        raise ValueError("a viewpoint is listed twice")

    def state(k: Knowledge) -> ViewState:
        status = (k.status() if k.consistent() else {}) if with_status else None
        return ViewState(k.count(), k.determined(), status)

    knowledge = {v.name: space.knowledge() for v in viewpoints}
    current = {name: state(k) for name, k in knowledge.items()}
    steps = [dict(current)]
    for fact in facts:
        mask = None
        for view in viewpoints:
            if view.sees(fact):
                if mask is None:
                    mask = space.fact_mask(fact)
                knowledge[view.name] = knowledge[view.name].with_mask(mask)
                current[view.name] = state(knowledge[view.name])
        steps.append(dict(current))
    return History(names, tuple(steps))


def first_determined(shape: DealShape, facts: Sequence[Fact],
                     viewpoints: Sequence[Viewpoint]) -> dict[str, int | None]:
    """Hindsight: for each viewpoint, the fact after which the solution was known.

    See :meth:`History.first_determined`.
    """
    return history(shape, facts, viewpoints).first_determined()


@dataclass(frozen=True)
class Inconsistency:
    """``facts[index]`` is the first fact after which no solution fits;
    ``core`` (indexes, ascending, ending with ``index``) is a minimal set of
    facts that cannot all hold."""

    index: int
    core: tuple[int, ...]
    facts: tuple[Fact, ...]  # the core's facts

    def to_json(self) -> Json:
        by_index = dict(zip(self.core, self.facts))
        return {"index": self.index,
                "core": [{"index": i, **fact_to_json(by_index[i])} for i in self.core]}


def first_inconsistent(shape: DealShape, facts: Sequence[Fact],
                       viewpoint: Viewpoint | None = None) -> Inconsistency | None:
    """The first fact that no solution fits together with the facts before it.

    None when every fact fits.  By default all facts count (omniscient).
    """
    viewpoint = viewpoint or Viewpoint.omniscient()
    seen = [i for i, f in enumerate(facts) if viewpoint.sees(f)]
    knowledge = Knowledge.initial(shape)
    for n, i in enumerate(seen):
        knowledge = knowledge.with_fact(facts[i])
        if not knowledge.consistent():
            prefix = seen[: n + 1]
            z3k = Z3Engine(shape).knowledge().with_facts(facts[j] for j in prefix)
            core = tuple(prefix[p] for p in z3k.inconsistency_core() or ())
            return Inconsistency(i, core, tuple(facts[j] for j in core))
    return None


@dataclass(frozen=True)
class Explanation:
    """Why a card is in or out for a viewpoint: the few facts forcing it.

    ``status`` is "open" (and ``core`` empty) when nothing forces the card.
    """

    card: str
    viewpoint: str
    status: str
    core: tuple[int, ...]
    facts: tuple[Fact, ...]  # the core's facts

    def to_json(self) -> Json:
        by_index = dict(zip(self.core, self.facts))
        return {"card": self.card, "viewpoint": self.viewpoint, "status": self.status,
                "core": [{"index": i, **fact_to_json(by_index[i])} for i in self.core]}


def explain(shape: DealShape, facts: Sequence[Fact], card: str,
            viewpoint: Viewpoint | None = None) -> Explanation:
    """A minimal set of the viewpoint's facts forcing ``card`` in or out.

    Raises :class:`~ruleslawyer.solver.errors.Inconsistent` if no solution fits.
    """
    viewpoint = viewpoint or Viewpoint.spectator()
    if card not in shape.cards:
        raise KeyError(card)
    seen = [i for i, f in enumerate(facts) if viewpoint.sees(f)]
    z3k = Z3Engine(shape).knowledge().with_facts(facts[i] for i in seen)
    try:
        status, positions = z3k.status_core(card)
    except NotForced:
        return Explanation(card, viewpoint.name, "open", (), ())
    core = tuple(seen[p] for p in positions)
    return Explanation(card, viewpoint.name, status, core, tuple(facts[i] for i in core))

