"""What the command line asks the solver, with JSON-friendly typed answers.

Every function takes a :class:`~ruleslawyer.spec.dealmodel.Deal` and the
facts in log order; a :class:`Viewpoint` picks which facts count.  Counting
and probabilities come from :func:`solver.engines.initial` (numpy),
explanations from Z3.  Fact indexes in answers are positions in the full
fact list (so a caller can map them to log lines).

>>> from ruleslawyer.spec.dealmodel import Deck, GroupCount, Zone
>>> from ruleslawyer.spec.facts import count
>>> hands = ("hand:Ann", "hand:Bob")
>>> deck = Deck("d", ("a", "b", "c", "d"), (Zone("hand:Ann", "hand", "Ann", 1, "owner"),
...     Zone("hand:Bob", "hand", "Bob", 1, "owner"), Zone("rest", "rest", None, 2)),
...     (GroupCount(hands, (("a", "b"), ("c", "d")), ((1, 1),)),))
>>> deal = Deal((deck,), solution=hands, players=("Ann", "Bob"))
>>> facts = [Fact(count(["a", "c"], hands) == 2, viewers=frozenset({"Helen"}))]
>>> solve(deal, facts, Viewpoint.spectator()).count
4
>>> solve(deal, facts, Viewpoint.of_player("Helen")).solutions
[['a', 'c']]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence

from ..spec.dealmodel import Deal
from ..spec.facts import And, Atom, Const, Fact, Formula, Not, member, negate
from .engine import Knowledge, Worlds
from .errors import NotForced

if TYPE_CHECKING:  # Z3 is imported by the questions that need it
    from .z3engine import Z3Knowledge

__all__ = [
    "Viewpoint", "SolveResult", "ViewState", "History", "Inconsistency", "Explanation",
    "solve", "history", "first_determined", "first_inconsistent", "explain",
    "fact_to_json", "formula_to_json",
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
        """Spectator: facts everyone learns; a player: those and the player's own; omniscient: all."""
        if self.kind == "omniscient":
            return True
        if self.kind == "spectator":
            return fact.viewers is None
        return fact.seen_by(self.player)  # type: ignore[arg-type]


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def formula_to_json(formula: Formula) -> Any:
    """A formula as nested JSON: ``{"sum": [...], "op", "value"}``, ``{"all": [...]}``,
    ``{"any": [...]}``, ``{"not": ...}`` or true / false.

    Terms with the same zones and weight are listed together:

    >>> from ruleslawyer.spec.facts import count
    >>> formula_to_json(count(["a", "b"], {"hand:Ann"}) >= 1)
    {'sum': [{'cards': ['a', 'b'], 'zones': ['hand:Ann'], 'weight': 1}], 'op': '>=', 'value': 1}
    """
    if isinstance(formula, Const):
        return formula.truth
    if isinstance(formula, Not):
        return {"not": formula_to_json(formula.part)}
    if not isinstance(formula, Atom):
        return {"all" if isinstance(formula, And) else "any": [formula_to_json(p) for p in formula.parts]}
    terms: dict[tuple[tuple[str, ...], int], list[str]] = {}
    for card, zones, weight in formula.lin.terms:
        terms.setdefault((tuple(sorted(zones)), weight), []).append(card)
    return {"sum": [{"cards": cards, "zones": list(zones), "weight": weight}
                    for (zones, weight), cards in terms.items()],
            "op": formula.op, "value": formula.value}


def fact_to_json(fact: Fact) -> Json:
    return {"formula": formula_to_json(fact.formula),
            "viewers": None if fact.viewers is None else sorted(fact.viewers),
            "source": _jsonable(fact.source), "text": fact.text}


def initial(deal: Deal, count: bool = True) -> Knowledge:
    """:func:`~ruleslawyer.solver.engines.initial`, imported when first asked: the counting
    engines load numpy, which a caller that only needs the answers' types does not."""
    from .engines import initial as first

    return first(deal, count)


def _knowledge(deal: Deal, facts: Iterable[Fact], viewpoint: Viewpoint) -> Knowledge:
    return initial(deal).with_facts(f for f in facts if viewpoint.sees(f))


def _sorted_solutions(deal: Deal, solutions: list[frozenset[str]] | None) -> list[list[str]] | None:
    if solutions is None:
        return None
    order = {c: i for i, c in enumerate(deal.solution_cards)}
    return sorted(sorted(s, key=order.__getitem__) for s in solutions)


@dataclass(frozen=True)
class SolveResult:
    """Everything known from one viewpoint after all the facts it sees.

    ``count`` counts ``worlds`` ("solutions" or "deals", see
    :mod:`solver.engine`); ``solution_count`` the distinct solutions.
    ``status``, ``probabilities``, ``pattern_probabilities`` and
    ``zone_probabilities`` are empty when no world fits; ``solutions`` is
    None when more than the limit are left; ``zone_probabilities`` is None
    when the engine does not tell zones apart.  When no exact engine counts
    the deal (``estimate``), ``count`` and ``solution_count`` are None, the
    chances are estimates from ``samples`` sampled deals and each has its
    interval (``intervals``, ``zone_intervals``: 95 %, Wilson); the status
    is still exact.
    """

    viewpoint: str
    facts_seen: int
    worlds: Worlds
    count: int
    solution_count: int
    consistent: bool
    determined: bool
    status: dict[str, str]
    probabilities: dict[str, float]
    pattern_probabilities: dict[tuple[int, ...], float]
    zone_probabilities: dict[str, dict[str, float]] | None
    solutions: list[list[str]] | None
    estimate: bool = False
    samples: int | None = None
    intervals: dict[str, tuple[float, float]] | None = None
    zone_intervals: dict[str, dict[str, tuple[float, float]]] | None = None

    def to_json(self) -> Json:
        out = {
            "viewpoint": self.viewpoint, "facts_seen": self.facts_seen,
            "worlds": self.worlds, "count": self.count, "solution_count": self.solution_count,
            "consistent": self.consistent, "determined": self.determined,
            "status": dict(self.status), "probabilities": dict(self.probabilities),
            "pattern_probabilities": [{"pattern": list(p), "probability": q}
                                      for p, q in self.pattern_probabilities.items()],
            "solutions": self.solutions,
        }
        if self.zone_probabilities is not None:
            out["zone_probabilities"] = {c: dict(z) for c, z in self.zone_probabilities.items()}
        if self.estimate:
            out["estimate"] = {"samples": self.samples, "confidence": 0.95,
                               "intervals": {c: list(i) for c, i in (self.intervals or {}).items()},
                               "zone_intervals": {c: {z: list(i) for z, i in per.items()}
                                                  for c, per in (self.zone_intervals or {}).items()}}
        return out


def _plain(mapping: Mapping[Any, Any] | None) -> Any:
    """Nested mappings of numbers as dicts of floats (engines may answer Fractions)."""
    if mapping is None:
        return None
    return {k: _plain(v) if isinstance(v, Mapping) else float(v) for k, v in mapping.items()}


def solve(deal: Deal, facts: Sequence[Fact], viewpoint: Viewpoint | None = None,
          max_solutions: int = 20) -> SolveResult:
    """Count, status, probabilities and (when few) the solutions left."""
    viewpoint = viewpoint or Viewpoint.spectator()
    knowledge = _knowledge(deal, facts, viewpoint)
    consistent = knowledge.consistent()
    if getattr(knowledge, "estimate", False):
        return _estimated(knowledge, viewpoint, sum(1 for f in facts if viewpoint.sees(f)), consistent)
    return SolveResult(
        viewpoint=viewpoint.name,
        facts_seen=sum(1 for f in facts if viewpoint.sees(f)),
        worlds=knowledge.worlds,
        count=knowledge.count(),
        solution_count=knowledge.solution_count(),
        consistent=consistent,
        determined=knowledge.determined(),
        status=knowledge.status() if consistent else {},
        probabilities=_plain(knowledge.probabilities()) if consistent else {},
        pattern_probabilities=_plain(knowledge.pattern_probabilities()) if consistent else {},
        zone_probabilities=_plain(knowledge.zone_probabilities()) if consistent else {},
        solutions=_sorted_solutions(deal, knowledge.solutions(max_solutions)),
    )


def _estimated(knowledge: Any, viewpoint: Viewpoint, seen: int, consistent: bool) -> SolveResult:
    """What a knowledge no exact engine counts answers: exact status, estimated chances."""
    return SolveResult(
        viewpoint=viewpoint.name, facts_seen=seen, worlds=knowledge.worlds, count=None,  # type: ignore[arg-type]
        solution_count=None, consistent=consistent,  # type: ignore[arg-type]
        determined=knowledge.determined() if consistent else False,
        status=knowledge.status() if consistent else {},
        probabilities=_plain(knowledge.probabilities()) if consistent else {},
        pattern_probabilities={},
        zone_probabilities=_plain(knowledge.zone_probabilities()) if consistent else {},
        solutions=None, estimate=True,
        samples=knowledge.samples() if consistent else None,
        intervals=knowledge.intervals() if consistent else {},
        zone_intervals=knowledge.zone_intervals() if consistent else {})


@dataclass(frozen=True)
class ViewState:
    """One viewpoint at one step of a history (``count`` counts ``worlds``)."""

    count: int
    determined: bool
    status: dict[str, str] | None = None  # only when asked for
    solution_count: int | None = None
    worlds: Worlds | None = None

    @property
    def consistent(self) -> bool:
        return self.count > 0

    def to_json(self) -> Json:
        out: Json = {"count": self.count, "consistent": self.consistent,
                     "determined": self.determined, "solution_count": self.solution_count,
                     "worlds": self.worlds}
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


_UNSEEN = object()


def _add(knowledge: Knowledge, fact: Fact, prepared: dict[int, Any]) -> Knowledge:
    """``knowledge.with_fact(fact)``, sharing the fact's prepared mask between
    knowledges of one numpy space (``space.prepare`` / ``with_prepared``)."""
    with_prepared = getattr(knowledge, "with_prepared", None)
    if with_prepared is None:
        return knowledge.with_fact(fact)
    space = knowledge.space  # type: ignore[attr-defined]
    mask = prepared.get(id(space), _UNSEEN)
    if mask is _UNSEEN:
        mask = prepared[id(space)] = space.prepare(fact)
    return with_prepared(fact, mask)


def history(deal: Deal, facts: Sequence[Fact], viewpoints: Sequence[Viewpoint],
            with_status: bool = False) -> History:
    """Each viewpoint's count and determination after every prefix of ``facts``.

    Each fact's mask is computed once per engine space and shared by the
    viewpoints seeing it; a viewpoint that does not see a fact keeps its
    previous state.
    """
    names = tuple(v.name for v in viewpoints)
    if len(set(names)) != len(names):
        raise ValueError("a viewpoint is listed twice")

    def state(k: Knowledge) -> ViewState:
        status = (k.status() if k.consistent() else {}) if with_status else None
        solutions = k.solution_count()
        return ViewState(k.count(), solutions == 1, status, solutions, k.worlds)

    start = initial(deal)
    knowledge = {name: start for name in names}
    current = {name: state(start) for name in names}
    steps = [dict(current)]
    named = list(zip(viewpoints, names))
    for fact in facts:
        prepared: dict[int, Any] = {}
        for view, name in named:
            if view.sees(fact):
                k = knowledge[name] = _add(knowledge[name], fact, prepared)
                current[name] = state(k)
        steps.append(dict(current))
    return History(names, tuple(steps))


def first_determined(deal: Deal, facts: Sequence[Fact],
                     viewpoints: Sequence[Viewpoint]) -> dict[str, int | None]:
    """Hindsight: for each viewpoint, the fact after which the solution was known.

    See :meth:`History.first_determined`.
    """
    return history(deal, facts, viewpoints).first_determined()


def _core_json(core: tuple[int, ...], facts: tuple[Fact, ...]) -> list[Json]:
    return [{"index": i, **fact_to_json(f)} for i, f in zip(core, facts)]


@dataclass(frozen=True)
class Inconsistency:
    """``facts[index]`` is the first fact after which no world fits;
    ``core`` (indexes, ascending, ending with ``index``) is a minimal set of
    facts that cannot all hold."""

    index: int
    core: tuple[int, ...]
    facts: tuple[Fact, ...]  # the core's facts

    def to_json(self) -> Json:
        return {"index": self.index, "core": _core_json(self.core, self.facts)}


def first_inconsistent(deal: Deal, facts: Sequence[Fact],
                       viewpoint: Viewpoint | None = None) -> Inconsistency | None:
    """The first fact that no world fits together with the facts before it.

    None when every fact fits.  By default all facts count (omniscient).
    """
    viewpoint = viewpoint or Viewpoint.omniscient()
    seen = [i for i, f in enumerate(facts) if viewpoint.sees(f)]
    knowledge = initial(deal)
    for n, i in enumerate(seen):
        knowledge = knowledge.with_fact(facts[i])
        if not knowledge.consistent():
            prefix = seen[: n + 1]
            from .z3engine import Z3Knowledge

            z3k = Z3Knowledge.initial(deal).with_facts(facts[j] for j in prefix)
            core = tuple(prefix[p] for p in z3k.inconsistency_core() or ())
            return Inconsistency(i, core, tuple(facts[j] for j in core))
    return None


@dataclass(frozen=True)
class Explanation:
    """Why a card is in or out (of the solution, or of ``zone``) for a
    viewpoint: the few facts forcing it.

    ``status`` is "open" (and ``core`` empty) when nothing forces the card.
    """

    card: str
    viewpoint: str
    status: str
    core: tuple[int, ...]
    facts: tuple[Fact, ...]  # the core's facts
    zone: str | None = None

    def to_json(self) -> Json:
        out = {"card": self.card, "viewpoint": self.viewpoint, "status": self.status,
               "core": _core_json(self.core, self.facts)}
        if self.zone is not None:
            out["zone"] = self.zone
        return out


def explain(deal: Deal, facts: Sequence[Fact], card: str, viewpoint: Viewpoint | None = None,
            zone: str | None = None) -> Explanation:
    """A minimal set of the viewpoint's facts forcing ``card`` in or out of
    the solution (or of ``zone``, when given).

    Raises :class:`~ruleslawyer.solver.errors.Inconsistent` if no world fits.
    """
    viewpoint = viewpoint or Viewpoint.spectator()
    if card not in (deal.cards if zone else deal.solution_cards):
        raise KeyError(card)
    if zone is not None and zone not in deal.deck_of(card).zone_ids():
        raise KeyError(zone)
    seen = [i for i, f in enumerate(facts) if viewpoint.sees(f)]
    from .z3engine import Z3Knowledge

    z3k = Z3Knowledge.initial(deal).with_facts(facts[i] for i in seen)
    try:
        if zone is None:
            status, positions = z3k.status_core(card)
        else:
            status, positions = _zone_core(z3k, card, zone)
    except NotForced:
        return Explanation(card, viewpoint.name, "open", (), (), zone)
    core = tuple(seen[p] for p in positions)
    return Explanation(card, viewpoint.name, status, core, tuple(facts[i] for i in core), zone)


def _zone_core(z3k: Z3Knowledge, card: str, zone: str) -> tuple[str, list[int]]:
    there = member(card, {zone}) == 1
    try:
        return "in", z3k.forced_core(there)
    except NotForced:
        return "out", z3k.forced_core(negate(there))
