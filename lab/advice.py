"""Move advice: every legal choice of the mover's, valued from one seat's knowledge.

For each choice the mover may make, every way the rules let it end (the
move's outcome completions, then the moves the rules oblige others to make
right after it that leave them nothing to choose but outcomes: a player
asked shows a card or says they cannot) is a *path*; a path is possible in
the worlds where every fact it lets anyone observe holds.  What the seat
observes of a path is the facts it sees.  The model: a world is drawn from
the seat's knowledge (the deal's prior, counted exactly by the solver), then
one of the paths possible in it, uniformly (an answer left to another
player's free choice is taken as drawn uniformly among those the rules
allow).  Then, per choice:

* ``answers`` — each distinct observation's probability and the worlds the
  seat would have left after it;
* ``bits`` — the expected information the observation gives about the
  hidden deal's worlds, I(world; observation) = H(observation) −
  H(observation | world), in bits; ``solution_bits`` the same about the
  solution (the content of the rule file's ``deal: solution:`` zones), when
  it can be counted (None otherwise);
* ``right`` / ``wrong`` — for a move that claims something (``claims:``),
  the chance the claim holds or not;
* ``worlds_left`` — the expected worlds left after the observation.

Choices are ranked: a certain claim first, then moves that observe something
by information (about the solution when every such move has it, else about
the deal), then uncertain claims by their chance of being right, then moves
that observe nothing (unranked, ``ranked_by: none``).  Nothing here names a
game.

A move whose paths are the values of one count (and a card shown among
those counted, or one drawn from the counted zones' whole content) is
valued from that count's marginal (:mod:`lab.outcomes`,
``counted_by: marginal``): one knowledge per value instead of one per
outcome; every other move by the reference path below (``paths``), which
``value_moves(marginals=False)`` uses for every move.

Work is bounded by a budget of solver counts (:data:`MAX_COUNTS`; each distinct
knowledge, the seat's facts plus a set of a path's facts, is counted once and
remembered).  The choices are valued in a seeded random order; when the budget
runs out the ones valued are a uniform random sample of them all, and the advice
says so (``sampled``, ``valued`` of ``choices``).  The information about the
solution is counted last, best moves by the deal's information first, with what
is left of the budget; when it does not reach every move, moves are ranked by
the deal's information and ``solution_counted`` says for how many it was counted.

One piece (over 800 lines): the ways a move may end, their values and the ranking share
the budget of counts, the seat's bases and the choices' classes; split, each part would
reach into the others' private helpers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from ..solver.engine import Knowledge
from ..solver.engines import rebuild
from ..solver.errors import SolverError
from ..solver.frame import project
from ..solver.marginal import table_of
from ..solver.refute import HOPELESS, Refuter
from ..solver.table import OwnerTable
from ..solver.weights import pattern_sizes, prior_mass
from ..spec.dealmodel import Deal
from ..spec.expr import evaluations
from ..spec.facts import FALSE, Fact, count
from ..spec.machine import Play, State
from .alike import FEW, class_key, first_completion, value_classes
from .alike import completions as alike_completions
from .bots import Turn
from .chain import MAX_CHAIN, chain_shared, shared_ways
from .chain import obliged as _obliged
from .engine import Lab, never
from .outcomes import count_shape, value_counted

__all__ = ["Advice", "MoveValue", "Answer", "AdviceError", "value_moves", "move_paths", "Path",
           "MAX_PATHS", "SOLUTION_LIMIT", "MAX_COUNTS", "SPECTATOR"]

#: Paths (ways a move may end) followed per choice at most (beyond: the choice is left out, truncated).
MAX_PATHS = 512
#: Nodes of the search over which paths a world allows, per choice, at most.
MAX_NODES = 20000
#: Solutions left at most for the information about the solution when answers split them.
SOLUTION_LIMIT = 32
#: Solutions times distinct conditions counted at most for that information, per choice.
SOLUTION_BUDGET = 64
#: Solver counts (distinct knowledges counted) one advice may ask for, by default.
MAX_COUNTS = 400
#: The seat of a spectator (no player's name): the public facts alone.
SPECTATOR = ""
#: Tolerance of a probability sum.
EPS = 1e-9


class AdviceError(ValueError):
    """Advice that cannot be given (no exact count of the seat's worlds, an ended game)."""


class _Spent(Exception):
    """The budget of solver counts would be exceeded by the next count."""


class _Budget:
    """Knowledges by the facts added to a base, each made and counted once; the counts asked of
    the solver, at most ``limit`` (:class:`_Spent` before one more)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._memo: dict[tuple[int, frozenset[str]], tuple[Knowledge, Knowledge]] = {}
        self._counted: dict[int, Knowledge] = {}  # kept alive: their ids stay theirs
        self._tables: dict[tuple[int, frozenset[str]], tuple[Knowledge, OwnerTable | None]] = {}

    def know(self, base: Knowledge, facts: Iterable[Fact], parent: Knowledge | None = None,
             more: Sequence[Fact] = ()) -> Knowledge:
        """``base`` with ``facts`` (made as ``parent`` with ``more`` when given: the same facts)."""
        facts = tuple(facts)
        key = (id(base), frozenset(repr(f.formula) for f in facts))
        if key not in self._memo:
            made = parent.with_facts(more) if parent is not None else base.with_facts(facts)
            self._memo[key] = (base, made)
        return self._memo[key][1]

    def table(self, base: Knowledge, zones: frozenset[str]) -> OwnerTable | None:
        """``base``'s joint of ``zones``' content and the solution (:func:`solver.marginal.table_of`),
        made once and counted once (None where the engine gives none)."""
        if not TABLES:
            return None
        key = (id(base), zones)
        if key not in self._tables:
            self._tables[key] = (base, table_of(base, zones))
        table = self._tables[key][1]
        if table is not None:
            self.charge(table)  # type: ignore[arg-type]
        return table

    def charge(self, k: Knowledge) -> Knowledge:
        """``k``, counted: one count of the budget the first time it is asked anything."""
        if id(k) not in self._counted:
            if self.used >= self.limit:
                raise _Spent
            self.used += 1
            self._counted[id(k)] = k
        return k


@dataclass(frozen=True)
class Path:
    """One way a move may end: its plays (the move, then the moves obliged right after it),
    every fact they let anyone observe, and what the seat sees of them."""

    plays: tuple[Play, ...]
    facts: tuple[Fact, ...]
    seen: tuple[Fact, ...]


@dataclass(frozen=True)
class Answer:
    says: tuple[str, ...]          # the observed facts in the rule file's words (empty: nothing seen)
    probability: float
    worlds_left: int

    def to_json(self) -> dict[str, Any]:
        return {"says": list(self.says), "probability": self.probability, "worlds_left": self.worlds_left}


@dataclass
class MoveValue:
    kind: str
    args: dict[str, Any]           # the mover's choices
    play: Play                     # a legal completion (for a bot to make the move)
    answers: list[Answer] = field(default_factory=list)
    bits: float | None = None
    solution_bits: float | None = None
    right: float | None = None
    wrong: float | None = None
    worlds_left: float | None = None
    legal: float = 1.0             # the chance the move is legal at all (a rule reading hidden cards)
    exact: bool = True             # False: the paths were too many to weigh by world (see model)
    world_kind: str = "deals"      # what worlds_left counts: whole deals or solutions
    ranked_by: str = "none"
    rank: int = 0
    counted_by: str = "paths"      # "marginal": from one count's marginal (lab.outcomes); "paths": per outcome

    @property
    def observes(self) -> bool:
        return self.bits is not None

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "kind": self.kind, "choices": self.args, "ranked_by": self.ranked_by,
                "bits": self.bits, "solution_bits": self.solution_bits, "right": self.right,
                "wrong": self.wrong, "worlds_left": self.worlds_left, "legal": self.legal,
                "exact": self.exact, "world_kind": self.world_kind, "counted_by": self.counted_by, "answers": [a.to_json() for a in self.answers]}


def _later(name: str) -> property:
    """A field of a choice valued as its class's first (:func:`_alike_value`) worked out when
    first read: ``_later`` holds what works it out."""
    own = "_" + name

    def get(self: MoveValue) -> Any:
        later = self.__dict__.get("_later")
        if later and name in later:
            self.__dict__[own] = later.pop(name)()
        return self.__dict__[own]

    def put(self: MoveValue, value: Any) -> None:
        later = self.__dict__.get("_later")
        if later:
            later.pop(name, None)
        self.__dict__[own] = value
    return property(get, put)


MoveValue.play = _later("play")  # type: ignore[assignment]
MoveValue.answers = _later("answers")  # type: ignore[assignment]


@dataclass
class Advice:
    seat: str
    mover: str
    worlds: int
    world_kind: str                # "deals" (or "solutions")
    solutions: int
    moves: list[MoveValue]
    truncated: bool
    ranked_by: str                 # how moves that observe something were ranked
    hopeless: int = 0              # claims that cannot be right, not listed
    valued: int = 0                # legal choices valued (a uniform sample of them when ``sampled``)
    choices: int = 0               # legal choices
    sampled: bool = False          # the budget of solver counts ran out before every choice was valued
    solution_uncounted: int = 0    # moves whose information about the solution the budget left uncounted
    counts: int = 0                # solver counts asked for
    budget: int = MAX_COUNTS

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "mover": self.mover, "worlds": self.worlds, "world_kind": self.world_kind,
                "solutions": self.solutions, "truncated": self.truncated, "ranked_by": self.ranked_by,
                "hopeless_claims": self.hopeless, "valued": self.valued, "choices": self.choices,
                "sampled": self.sampled, "solution_uncounted": self.solution_uncounted,
                "counts": self.counts, "budget": self.budget,
                "model": "a world drawn from the seat's knowledge (the deal's prior), then one of the ways "
                         "the rules let the move end in it, uniformly",
                "moves": [m.to_json() for m in self.moves]}


# -- the prior's weight -----------------------------------------------------------------------
class _Mass:
    """The prior mass of a knowledge's worlds (its count when every world weighs the same)."""

    def __init__(self, deal: Deal, budget: _Budget):
        self.sizes = pattern_sizes(deal)
        self.budget = budget

    def __call__(self, k: Knowledge) -> float:
        return prior_mass(k, self.sizes, self.budget.charge(k).count())


# -- paths ------------------------------------------------------------------------------------
@evaluations()  # its rule checks each an outermost run: the generated checks serve them, called alone too
def move_paths(lab: Lab, state: State, actor: str, kind: str, args: Mapping[str, Any], seat: str,
               limit: int = MAX_PATHS, memo: bool = True, chain: bool = True,
               deal: Deal | None = None) -> list[Path] | None:
    """Every way the move with these mover's choices may end, as far as the rules go (None:
    more than ``limit``); the moves obliged right after it are followed while they leave
    their player nothing to choose but outcomes.  Ways that differ only by those later
    moves, with the same facts for everyone (a draw by chance after the move, which tells
    nothing of the deal), are listed once: the values weigh facts, not moves.

    ``memo``: each observation's parts worked out once per the values of the parameters
    they read, for the endings from one state (:meth:`Lab.observations`); False: every
    ending's facts by the state machine (the reference, the same paths).  ``chain`` (with
    ``memo``): when the moves obliged after the move are the same after each of its endings
    (:func:`lab.chain.chain_shared`: nothing that decides them reads its outcomes), they are
    followed once, after the first ending, and each ending takes them as they are; False:
    followed after every ending (the reference, the same paths).  ``deal``: the ways with a fact
    that no deal of its shape satisfies (:func:`lab.engine.never`: a count beyond what the
    counted zones hold) left out, none worth anything to a seat (the same listing otherwise);
    with ``memo``, a value of the first outcome that such a fact rules out is not searched
    (:meth:`Lab.completions`' ``deal``) and an ending's facts after such a fact are not worked
    out, and the limits count the completions the search keeps (the reference's, every one)."""
    out: list[Path] = []
    listed: set[tuple[str, tuple[Fact, ...], tuple[Fact, ...]]] = set()  # (the move, facts, seen) of each way
    # memo: listed once per class of choices alike but for interchangeable items (lab/alike.py)
    first = (alike_completions(lab, state, actor, kind, args, deal) if memo
             else lab.completions(state, actor, kind, args, None, random.Random(0)))
    # id of a state -> (it, its memo), kept alive; the first state's memo serves every choice from it
    memos: dict[int, tuple[State, dict[Any, Any]]] = {id(state): (state, lab.observation_memo(state, actor))}
    if memo and chain and first and (not lab.has_due or (len(first) > 1 and chain_shared(lab, kind))):
        ways = shared_ways(lab, state, first, seat, limit, memos, deal)
        return None if ways is None else [Path(*w) for w in ways]
    stack = [(state, (p,), (), ()) for p in reversed(first)]
    while stack:
        before, plays, facts, seen = stack.pop()
        play = plays[-1]
        source = ("advice", len(plays))
        if memo:
            kept = memos.get(id(before))
            if kept is None or kept[0] is not before:
                kept = memos[id(before)] = (before, {})
            new = tuple(lab.observations(before, play, source, kept[1]))
        else:
            new = tuple(lab.machine.observations(before, play, source=source))
        facts = facts + new
        seen = seen + tuple(f for f in new if f.viewers is None or seat in f.viewers)
        nxt: list[Play] = []
        after = before
        if lab.has_due and len(plays) < MAX_CHAIN:  # a chain of obliged moves: only when rules have one
            after = lab.apply(before, play)[0].state
            nxt = _obliged(lab, after)
        if not nxt:
            key = (repr(plays[0]), facts, seen)
            if key not in listed:
                listed.add(key)
                out.append(Path(plays, facts, seen))
                if len(out) > limit:
                    return None
            continue
        for p in reversed(nxt):
            stack.append((after, plays + (p,), facts, seen))
        if len(stack) + len(out) > 4 * limit:
            return None
    if deal is not None:
        out = [p for p in out if not any(never(f.formula, deal) for f in p.facts)]
    return out


# -- values -----------------------------------------------------------------------------------
def _key(facts: Iterable[Fact], reprs: dict[int, tuple[Any, str]] | None = None) -> str:
    """The facts' formulas as one string (``repr`` of their list); ``reprs``: each formula's text
    kept by its id for one caller's paths (which share their facts' objects)."""
    if reprs is None:
        return repr([f.formula for f in facts])
    out = []
    for f in facts:
        found = reprs.get(id(f.formula))
        if found is None or found[0] is not f.formula:
            found = reprs[id(f.formula)] = (f.formula, repr(f.formula))
        out.append(found[1])
    return "[" + ", ".join(out) + "]"


class _Numbered:
    """Each formula as a small number, equal formulas (``==``: structurally, so true in the same
    worlds) the same one, found by the object's id after its first time (one move's paths share
    their facts' objects; each kept here, so that its id stays its own): a path's facts keyed by
    a tuple of numbers, the classes :func:`_key`'s texts give without writing any text.  0 is
    :data:`FALSE`.  One per move valued: kept no longer (formulas kept alive from move to move
    would lengthen every pass of Python's collector)."""

    def __init__(self) -> None:
        self._by_id: dict[int, int] = {}
        self._kept: list[Any] = []
        self._numbers: dict[Any, int] = {FALSE: 0}

    def __call__(self, facts: Sequence[Fact]) -> tuple[int, ...]:
        by_id = self._by_id
        out = []
        for f in facts:
            g = f.formula
            n = by_id.get(id(g))
            if n is None:
                self._kept.append(g)
                n = by_id[id(g)] = self._numbers.setdefault(g, len(self._numbers))
            out.append(n)
        return tuple(out)


def _entropy(ps: Iterable[float]) -> float:
    return max(0.0, -sum(p * math.log2(p) for p in ps if p > 0))  # never -0.0


def _distribution(base: Knowledge, mass: _Mass, paths: Sequence[Path],
                  conds: dict[str, Knowledge]) -> tuple[dict[str, float], float, float, bool] | None:
    """(P(observation) by the seat's key, H(observation | world), the mass of the worlds where
    some path is possible, exact) from ``base``; None when no world allows the move."""
    total = mass(base)
    if total == 0:
        return None
    reprs: dict[int, tuple[Any, str]] = {}
    ckeys = [_key(p.facts, reprs) for p in paths]
    distinct = list(dict.fromkeys(ckeys))
    masses = {}
    for c in distinct:
        if c not in conds:
            p = paths[ckeys.index(c)]
            conds[c] = mass.budget.know(base, p.facts)
        masses[c] = mass(conds[c])
    seat_key = [_key(p.seen, reprs) for p in paths]
    per_cond: dict[str, list[int]] = {}
    for i, c in enumerate(ckeys):
        per_cond.setdefault(c, []).append(i)
    covered = sum(masses.values())
    if abs(covered - total) <= EPS * max(1.0, total):
        # each world allows the paths of one condition: exact without a search
        dist: dict[str, float] = {}
        h_w = 0.0
        for c, m in masses.items():
            idx = per_cond[c]
            share: dict[str, float] = {}
            for i in idx:
                share[seat_key[i]] = share.get(seat_key[i], 0.0) + 1 / len(idx)
            for k, q in share.items():
                dist[k] = dist.get(k, 0.0) + m / total * q
            h_w += m / total * _entropy(share.values())
        return dist, h_w, total, True
    found = _by_allowed(base, mass, [paths[per_cond[c][0]].facts for c in distinct], [conds[c] for c in distinct])
    if found is None:  # too many ways to search: each condition weighed by its worlds
        norm = covered or 1.0
        dist = {}
        for c, m in masses.items():
            for i in per_cond[c]:
                dist[seat_key[i]] = dist.get(seat_key[i], 0.0) + m / norm / len(per_cond[c])
        return dist, 0.0, covered, False
    dist, h_w, legal = {}, 0.0, 0.0
    for allowed, m in found:
        idx = [i for c in allowed for i in per_cond[distinct[c]]]
        if not idx:
            continue
        legal += m
        share = {}
        for i in idx:
            share[seat_key[i]] = share.get(seat_key[i], 0.0) + 1 / len(idx)
        for k, q in share.items():
            dist[k] = dist.get(k, 0.0) + m * q
        h_w += m * _entropy(share.values())
    if legal == 0:
        return None
    return {k: v / legal for k, v in dist.items()}, h_w / legal, legal, True


def _by_allowed(base: Knowledge, mass: _Mass, conds: Sequence[Sequence[Fact]],
                alone: Sequence[Knowledge]) -> list[tuple[tuple[int, ...], float]] | None:
    """The worlds of ``base`` grouped by exactly which conditions they satisfy: (indexes, mass)
    for each group that has worlds; None beyond :data:`MAX_NODES` nodes of the search.

    Only conjunctions are counted (every engine takes them; a negated condition may move an
    engine to one that cannot count): the mass of the worlds satisfying at least the conditions
    of T, for every T that some world satisfies, then exactly S by inclusion and exclusion,
    exact(S) = sum over T containing S of (-1)^|T - S| at_least(T).  The sets are searched
    size by size, a set counted only when each of its subsets one smaller is consistent.
    ``alone``: ``base`` with each condition, counted already."""
    at_least: dict[tuple[int, ...], float] = {(): mass(base)}
    budget = mass.budget
    level: dict[tuple[int, ...], Knowledge] = {(): base}  # the consistent sets of one size
    while level:
        bigger: dict[tuple[int, ...], Knowledge] = {}
        for chosen, k in level.items():
            for i in range(chosen[-1] + 1 if chosen else 0, len(conds)):
                cand = chosen + (i,)
                # a set with an inconsistent subset is inconsistent: no count needed
                if any(cand[:m] + cand[m + 1:] not in level for m in range(len(chosen))):
                    continue
                inside = alone[i] if not chosen else \
                    budget.know(base, [f for j in cand for f in conds[j]], k, conds[i])
                if budget.charge(inside).consistent():
                    bigger[cand] = inside
                    at_least[cand] = mass(inside)
                    if len(at_least) > MAX_NODES:
                        return None
        level = bigger
    out = []
    for s_set in at_least:
        inner = set(s_set)
        exact = sum((-1) ** (len(t) - len(s_set)) * m for t, m in at_least.items() if inner <= set(t))
        if exact > EPS * max(1.0, at_least[()]):
            out.append((s_set, exact))
    return out


def _solution_fact(deal: Deal, solution: Iterable[str]) -> Fact:
    cards = sorted(solution)
    return Fact(count(cards, set(deal.solution)) == len(cards))


@dataclass
class _Pending:
    """A move whose information about the solution needs each solution's distribution."""

    mv: MoveValue
    base: Knowledge
    paths: list[Path]
    h_x: float
    solutions: list[frozenset[str]]


def _by_count(mv: MoveValue, base: Knowledge, mass: _Mass, paths: list[Path],
              solutions: list[frozenset[str]] | None, pending: list[_Pending]) -> MoveValue | None:
    """The move valued from the marginal of the one count its paths observe
    (:mod:`lab.outcomes`); None when they do not reduce to one (the reference path answers)."""
    # paths whose facts and view are the same are possible in the same worlds and look the same:
    # when each such class has as many paths, one path per class gives every look the same share
    classes: dict[tuple[tuple[int, ...], tuple[int, ...]], list[Path]] = {}
    numbered = _Numbered()
    for p in paths:
        facts = numbered(p.facts)
        if 0 not in facts:  # a path never possible (a fact FALSE) weighs nothing
            classes.setdefault((facts, facts if p.seen == p.facts else numbered(p.seen)), []).append(p)
    if len({len(c) for c in classes.values()}) > 1:
        return None  # unequal multiplicities weigh looks unequally: the reference path weighs them
    paths = [c[0] for c in classes.values()]
    shape = count_shape(paths)
    if shape is None:
        return None
    budget = mass.budget
    total = mass(base)
    if total == 0:
        return None

    def condition(k: Knowledge, facts: list[Fact]) -> Knowledge:
        return budget.charge(budget.know(k, facts))

    keys = [seen for _facts, seen in classes]
    each_its_own = base.solution_count() == base.count()  # each world its own solution
    table = budget.table(base, shape.zones) if not mass.sizes else None
    counted = value_counted(shape, paths, keys, base, total, mass.sizes, condition, solution=not each_its_own,
                            table=table, whole=[facts == seen for facts, seen in classes])
    if counted is None:
        return None
    says: dict[tuple[int, ...], tuple[str, ...]] = {}
    for p, k in zip(paths, keys):
        if k not in says:
            says[k] = tuple(dict.fromkeys([f.text or repr(f.formula) for f in p.seen]))
    h_x = _entropy(counted.dist.values())
    mv.bits = max(0.0, h_x - counted.h_given_world)
    mv.legal = counted.legal
    mv.answers = sorted((Answer(says[k], q, counted.left[k]) for k, q in counted.dist.items() if q > 0),
                        key=lambda a: -a.probability)
    mv.worlds_left = sum(a.probability * a.worlds_left for a in mv.answers)
    mv.counted_by = "marginal"
    if mv.bits <= EPS:
        mv.solution_bits = 0.0
    elif each_its_own:
        mv.solution_bits = mv.bits
    elif counted.solution_bits is not None:
        mv.solution_bits = counted.solution_bits
    elif solutions is not None and len(solutions) * len({facts for facts, _seen in classes}) <= SOLUTION_BUDGET:
        pending.append(_Pending(mv, base, paths, h_x, solutions))
    return mv


def _value(turn: Turn, base: Knowledge, mass: _Mass, kind: str, args: dict[str, Any], paths: list[Path],
           solutions: list[frozenset[str]] | None, claim: Any,
           pending: list[_Pending], marginals: bool = True) -> MoveValue | None:
    mv = MoveValue(kind, args, paths[0].plays[0], world_kind=base.worlds)
    budget = mass.budget
    if claim is not None:
        right = mass(budget.know(base, [Fact(claim)])) / mass(base)
        mv.right, mv.wrong = right, 1.0 - right
    if not any(p.seen for p in paths):
        return mv  # the seat observes nothing of it
    if marginals and _by_count(mv, base, mass, paths, solutions, pending) is not None:
        return mv
    conds: dict[str, Knowledge] = {}
    found = _distribution(base, mass, paths, conds)
    if found is None:
        return None  # no world the seat thinks possible allows the move
    dist, h_w, legal, exact = found
    says: dict[str, tuple[str, ...]] = {}
    posts: dict[str, Knowledge] = {}
    for p in paths:
        k = _key(p.seen)
        if k not in says:
            says[k] = tuple(dict.fromkeys(f.text or repr(f.formula) for f in p.seen))
            posts[k] = budget.charge(conds[k] if k in conds else budget.know(base, p.seen))
    h_x = _entropy(dist.values())
    mv.bits = max(0.0, h_x - h_w)
    mv.legal = legal / mass(base)
    mv.exact = exact
    mv.answers = sorted((Answer(says[k], q, posts[k].count()) for k, q in dist.items() if q > 0),
                        key=lambda a: -a.probability)
    mv.worlds_left = sum(a.probability * a.worlds_left for a in mv.answers)
    if not exact:
        return mv
    total = base.solution_count()
    if mv.bits <= EPS:
        mv.solution_bits = 0.0  # I(solution; observation) <= I(world; observation)
    elif total == base.count():
        mv.solution_bits = mv.bits  # each world its own solution: the same information
    elif sum(posts[k].solution_count() for k, q in dist.items() if q > 0) == total:
        mv.solution_bits = h_x  # the observation is a function of the solution
    elif solutions is not None and len(solutions) * len({_key(p.facts) for p in paths}) <= SOLUTION_BUDGET:
        pending.append(_Pending(mv, base, paths, h_x, solutions))
    return mv


def _solution_bits(item: _Pending, mass: _Mass) -> float | None:
    """I(solution; observation) from each solution's own distribution of the observation."""
    base = item.base
    h_s, whole = 0.0, mass(base)
    for sol in item.solutions:
        ks = mass.budget.know(base, [_solution_fact(base.deal, sol)])
        found = _distribution(ks, mass, item.paths, {})
        if found is None:
            continue
        d, _h, legal, ok = found
        if not ok:
            return None
        h_s += legal / whole * _entropy(d.values())
    return max(0.0, item.h_x - h_s)


def _solution_pass(pending: list[_Pending], mass: _Mass) -> int:
    """The information about the solution of the pending moves, the most informative about the
    deal first, while the budget lasts; how many were left uncounted."""
    order = sorted(pending, key=lambda it: -(it.mv.bits or 0.0))
    for i, item in enumerate(order):
        try:
            item.mv.solution_bits = _solution_bits(item, mass)
        except _Spent:
            return len(order) - i
    return 0


#: Whether a kind with more mover's choices than valued draws its sample among the legal ones
#: (:meth:`Lab.legal_sample`, on the staged listing of :meth:`Lab.legal_choices`); False: a
#: sample of every choice, legal or not, the illegal ones dropped later (often all of them).
#: Off: measured slower for greedy where few choices are legal (24 legal choices valued where
#: about none were; benchmarks/README.md, branch staged), no gain in strength shown.
LEGAL_SAMPLE = False
#: A move observing one count of one owner's cards is valued from one joint table of that
#: owner's cards and the solution (:meth:`_Budget.table`, solver/table.py); False: a knowledge
#: per value of the count (the reference the table is tested equal to; the same values).
TABLES = True
#: Of a kind whose every choice is listed, only those the mover's requirements allow are
#: listed (:meth:`Lab.legal_choices`); False: every choice, each found illegal by completing it
#: (the reference; the same values).
LISTED_LEGAL = True


def _choices(lab: Lab, state: State, actor: str, kind: str, max_choices: int,
             rng: random.Random, exclude: frozenset[str] = frozenset(),
             legal: bool | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The mover's choices of a kind naming no item of ``exclude`` (all, or ``max_choices``
    sampled when there are more: with ``legal`` (:data:`LEGAL_SAMPLE` when None), uniformly
    among the legal ones)."""
    listed = list(lab.mover_choices(state, actor, kind, limit=max_choices, exclude=exclude))
    if listed and LISTED_LEGAL and len(listed) > 1:
        # only those the mover's requirements allow (a staged search, in the same order): the
        # others have no way of ending, found by completing each otherwise
        allowed = lab.legal_choices(state, actor, kind, exclude)
        if allowed is not None:
            return allowed, False
    if listed or not lab.kinds[kind].mover:
        return listed or [{}], False
    if LEGAL_SAMPLE if legal is None else legal:
        # legal by the mover's requirements: one with no way of ending has no paths (dropped)
        legal = lab.legal_sample(state, actor, kind, max_choices, rng, exclude, complete=False)
        if legal is not None:
            return legal, len(legal) >= max_choices
    seen: dict[str, dict[str, Any]] = {}
    for _ in range(max_choices * 4):
        args = lab.sample_args(state, actor, kind, rng)
        seen.setdefault(repr(sorted(args.items())), args)
        if len(seen) >= max_choices:
            break
    return list(seen.values()), True


class _Bases:
    """The seat's knowledge in the engine each move needs: the one it has when it counts whole
    deals, or counts solutions and the move's facts are about the solution alone; else the
    same facts counted as whole deals (a fact pinning a card to one zone of the solution changes
    how many deals each solution stands for: counting solutions would give it the wrong chance)."""

    #: a claim found hopeless from the view's per-card statuses and chances is not counted
    #: (:class:`solver.refute.Refuter`); False: every claim counted (the reference)
    refute = True

    def __init__(self, view: Knowledge):
        self.view = view
        self.deal = view.deal
        self._deals: Knowledge | None = view if view.worlds == "deals" else None
        self.refuter = Refuter(view) if self.refute else None

    def deals(self) -> Knowledge:
        if self._deals is None:
            self._deals = rebuild(self.deal, tuple(getattr(self.view, "facts", ())))
        return self._deals

    def for_facts(self, facts: Iterable[Fact]) -> Knowledge:
        if self.view.worlds == "deals":
            return self.view
        for f in facts:
            p = project(self.deal, f)
            if p is None or p.pins:
                return self.deals()
        return self.view


def _bare_claim(lab: Lab, state: State, actor: str, kind: str, args: Mapping[str, Any]) -> Any:
    """What a claim with these mover's choices asserts, when its outcomes do not change it (None
    when it cannot be told without them): :meth:`Machine.claim`, read in the lab's environment
    of the state (made once per state: a bot reads the claims of many choices of one state)."""
    try:
        return lab.machine.claim(state, Play(kind, actor, dict(args)), lab.env(state))
    except Exception:  # noqa: BLE001 - the claim reads an outcome (or says nothing of the deal): told from a completion instead
        return None


@dataclass(frozen=True)
class _Choice:
    index: int
    kind: str
    args: dict[str, Any]
    paths: list[Path] | None       # None: alike to ``first``, its paths listed only when asked
    key: str | None = None         # its class of choices alike (lab/alike.py), when classes are used
    first: "_Choice | None" = None  # the choice of its class whose paths were listed


def _one(turn: Turn, c: _Choice, bases: _Bases, mass: _Mass,
         listed: dict[int, list[frozenset[str]] | None], pending: list[_Pending],
         marginals: bool = True) -> MoveValue | str | None:
    """One legal choice valued: its value, "hopeless" (a claim that cannot be right) or None (no
    world allows it); :class:`_Spent` when the budget runs out."""
    lab, state, kind, args, paths = turn.lab, turn.state, c.kind, c.args, c.paths
    claims = lab.kinds[kind].claims
    if claims:
        claim = _bare_claim(lab, state, turn.actor, kind, args)
        if claim is not None and bases.refuter is not None and bases.refuter.refutes(claim) == HOPELESS:
            return "hopeless"  # a card it names certainly not where it says: no count needed
        if claim is not None:
            b = bases.for_facts([Fact(claim)])
            if not mass.budget.charge(mass.budget.know(b, [Fact(claim)])).consistent():
                return "hopeless"
    facts = [f for p in paths for f in p.facts]
    claim = lab.machine.claim(state, paths[0].plays[0]) if claims else None
    base = bases.for_facts(facts + ([Fact(claim)] if claim is not None else []))
    if id(base) not in listed:
        listed[id(base)] = mass.budget.charge(base).solutions(SOLUTION_LIMIT)
    return _value(turn, base, mass, kind, dict(args), paths, listed[id(base)], claim, pending, marginals)


@evaluations()  # its many rule checks each an outermost run: the generated checks serve them
def value_moves(turn: Turn, max_choices: int = 5000, seat: str | None = None,
                kinds: Sequence[str] | None = None, silent_choices: int | None = None,
                budget: int | None = None, seed: int = 0, marginals: bool = True, memo: bool = True,
                alike: bool | None = None, chain: bool = True, legal: bool | None = None) -> Advice:
    """Every legal choice of ``turn.actor``'s, valued from ``seat``'s knowledge ``turn.view``
    (the mover's by default; :data:`SPECTATOR`: what everyone sees), ranked (see the module's docstring).  A claim that cannot be
    right is not weighed (counted in ``hopeless``; one naming a card the seat has ruled out
    of the solution is not even counted).  ``silent_choices``: of a kind that can tell the
    seat nothing (it observes nothing, claims nothing, and no move is obliged after it), only
    this many choices, sampled (a bot that only needs one of them).  ``budget``: solver counts
    at most (:data:`MAX_COUNTS` by default); past it, the choices valued are a uniform sample
    drawn with ``seed`` (``Advice.sampled``).  ``marginals``: a move whose outcomes are the values
    of one count is valued from that count's marginal (:mod:`lab.outcomes`); False: every move by
    the reference path, one count per outcome (the two give the same values).  ``memo``: as
    :func:`move_paths` (False: every ending's facts by the state machine, the same values);
    ``chain`` too (False: the moves obliged after a move followed after each of its endings).
    ``alike`` (``memo`` by default): of more than :data:`lab.alike.FEW` choices, those alike but
    for items interchangeable in the rules, the state and the seat's facts listed and valued once
    per class (:func:`lab.alike.value_classes`; the same values), the others' completion and
    answers' words worked out when first read.  ``legal``: a kind's sample drawn among its legal
    choices (:func:`_choices`; None: as :data:`LEGAL_SAMPLE` says)."""
    lab, state = turn.lab, turn.state
    alike = memo if alike is None else alike
    seat = turn.actor if seat is None else seat
    if turn.view is None:
        raise AdviceError("no knowledge of the deal to advise from")
    limit = MAX_COUNTS if budget is None else budget
    if limit < 1:
        raise AdviceError(f"a budget of {limit} solver counts: it must be at least 1")
    spent = _Budget(limit)
    moves: list[tuple[int, MoveValue]] = []
    truncated, hopeless, valued = False, 0, 0
    pending: list[_Pending] = []
    try:
        bases = _Bases(turn.view)
        mass = _Mass(bases.deal, spent)
        shape = bases.deal  # ways no deal of its shape allows are not listed (move_paths' deal)
        view = spent.charge(turn.view)
        if not view.consistent():
            raise AdviceError(f"no deal fits what {seat} saw")
        worlds, n_solutions = view.count(), view.solution_count()
        rng = turn.rng
        ruled_out = frozenset(c for c, v in view.status().items() if v == "out")
        every: list[_Choice] = []
        facts = getattr(turn.view, "facts", None)
        classes: list[tuple[str, ...]] | None = None  # found when a kind first has more than FEW choices
        for kind in kinds or turn.kinds:
            info = lab.kinds[kind]
            silent = not info.claims and not info.observes and not lab.has_due
            cap = min(max_choices, silent_choices) if silent and silent_choices else max_choices
            choices, cut = _choices(lab, state, turn.actor, kind, cap, rng, ruled_out if info.claims else frozenset(),
                                    legal)
            truncated |= cut
            if classes is None and len(choices) > FEW:
                classes = value_classes(lab, state, turn.actor, facts) if alike and facts is not None else []
            firsts: dict[str, _Choice | None] = {}  # class -> its first choice listed (None: not legal)
            cut_classes: set[str] = set()  # classes whose first had too many paths
            for args in choices:  # the legal ones: the rules alone tell, no count needed
                key = class_key(classes, kind, args) if classes and len(choices) > FEW else None
                if key is not None and key in firsts:  # alike to one listed: as legal, paths when asked
                    of = firsts[key]
                    if of is not None:
                        every.append(_Choice(len(every), kind, args, None, key, of))
                    elif key in cut_classes:
                        truncated = True
                    continue
                paths = move_paths(lab, state, turn.actor, kind, args, seat, memo=memo, chain=chain, deal=shape)
                first = _Choice(len(every), kind, args, paths, key) if paths else None
                if key is not None:
                    firsts[key] = first
                if paths is None:
                    truncated = True
                    if key is not None:
                        cut_classes.add(key)
                elif first is not None:
                    every.append(first)
        order = list(every)
        random.Random(seed).shuffle(order)  # a prefix of a random order: a uniform sample
        listed: dict[int, list[frozenset[str]] | None] = {}
        valued_as: dict[str, MoveValue | str | None] = {}  # class -> the value of its first listed
        copies: list[tuple[MoveValue, MoveValue]] = []

        def listing(kind: str, args: Mapping[str, Any]) -> list[Path]:  # a choice's paths, when asked
            return move_paths(lab, state, turn.actor, kind, args, seat, memo=memo, chain=chain, deal=shape) or []
        for c in order:
            got: MoveValue | str | None
            if c.key is not None and c.key in valued_as:
                got = _alike_value(c.first or c, valued_as[c.key], c, turn, listing)
            else:
                try:
                    got = _one(turn, c.first or c, bases, mass, listed, pending, marginals)
                except _Spent:
                    break
                if c.key is not None:
                    valued_as[c.key] = got
                    if c.first is not None:
                        got = _alike_value(c.first, got, c, turn, listing)
            if c.first is not None and isinstance(got, MoveValue):
                copies.append((got, valued_as[c.key]))  # type: ignore[arg-type,index]
            valued += 1
            if got == "hopeless":
                hopeless += 1
            elif isinstance(got, MoveValue):
                moves.append((c.index, got))
        uncounted = _solution_pass(pending, mass)
        for copy, of in copies:  # a choice valued as its class's first: the solution's share too
            copy.solution_bits = of.solution_bits
    except SolverError as exc:
        raise AdviceError(f"the solver cannot count these worlds exactly: {exc}") from None
    valued_moves = [mv for _i, mv in sorted(moves, key=lambda t: t[0])]  # the listing's order, whatever was drawn
    ranked_by = _rank(valued_moves)
    sampled = valued < len(every)
    return Advice(seat, turn.actor, worlds, view.worlds, n_solutions, valued_moves, truncated or sampled,
                  ranked_by, hopeless, valued=valued, choices=len(every), sampled=sampled,
                  solution_uncounted=uncounted, counts=spent.used, budget=limit)


def _alike_value(first: _Choice, value: MoveValue | str | None, c: _Choice, turn: Turn,
                 listing: Any) -> MoveValue | str | None:
    """The value of ``c``, alike to ``first`` but for interchangeable items (lab/alike.py):
    the same numbers, its own choices, completion and answers' words (its paths are the
    first's renamed, in the same order: each answer is the same paths').  The words are
    named when the answers are first read (``c``'s paths listed then, not before), its completion
    when it is first read."""
    if not isinstance(value, MoveValue) or c is first:
        return value
    answers = value.answers
    first_paths = first.paths or []

    def says(p: Path) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.text or repr(f.formula) for f in p.seen))

    def named() -> list[Answer]:
        words = {says(p): says(q) for p, q in zip(first_paths, c.paths or listing(c.kind, c.args))}
        return [Answer(words.get(a.says, a.says), a.probability, a.worlds_left) for a in answers]
    out = replace(value, args=dict(c.args), play=value.play, answers=[])
    out.__dict__["_later"] = {"answers": named,
                              "play": lambda: first_completion(turn.lab, turn.state, turn.actor, c.kind, c.args)}
    return out


def _rank(moves: list[MoveValue]) -> str:
    """Order the moves (see the module's docstring); the information they are ranked by."""
    informative = [m for m in moves if m.observes and m.right is None]
    on_solution = all(m.solution_bits is not None for m in informative)
    for m in moves:
        if m.right is not None:
            m.ranked_by = "chance right"
        elif m.observes:
            m.ranked_by = "information about the solution" if on_solution else "information about the deal"

    def key(m: MoveValue) -> tuple[int, float, float]:
        if m.right is not None and m.right >= 1 - EPS:
            return (0, -1.0, 0.0)
        if m.right is None and m.observes:
            bits = m.solution_bits if on_solution else m.bits
            return (1, -(bits or 0.0), -(m.bits or 0.0))
        if m.right is not None:
            return (2, -m.right, 0.0)
        return (3, 0.0, 0.0)

    moves.sort(key=key)
    for i, m in enumerate(moves):
        m.rank = i + 1
    return "information about the solution" if on_solution else "information about the deal"
