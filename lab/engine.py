"""Moves for simulation and exploration, from the rule file alone.

:class:`Lab` wraps a :class:`~ruleslawyer.spec.machine.Machine` with what a
bot or an exhaustive search needs and the machine does not keep:

* which requirements of each move read the move's own parameters (the others
  are decided per state and player once, for every candidate move);
* who decides each parameter (:func:`~ruleslawyer.spec.model.decided_by`):
  the mover's choices are sampled or enumerated, the *outcomes* (a count the
  table observes, a card another player shows, the table's choice of which
  items get covered) are completed generically — every value the
  parameter's type allows is tried, and a completion is kept when the move
  is then legal and, given the true deal, every fact it lets anyone observe
  is true.  :meth:`Lab.completions` lists them all (the informed bot and
  ``prove`` need them); :meth:`Lab.draw`, what a simulated move uses, finds
  one without listing the others: each outcome in order takes a value drawn
  uniformly among those that leave a completion (a search that stops at the
  first completion).
* one environment per state (the one the move that made the state used),
  and requirements that the rule set's constants settle dropped once.

Candidate values of an outcome: a ``count`` from 0 to its ``max:`` (or the
number of cards dealt), except that when its observation is an equality of
a count of cards with the parameter (``count(hand(), move.cards) ==
move.seen``) the true count is the only completion; ``flag`` true or
false; ``choice`` its values; ``item`` every item of its components; a list
without a size every subset of the items the move already names (a table's
choice among them, e.g. which of the named cards get covered); a player; a token
value.  An optional outcome is left out only when no value fits.

One piece (over 800 lines): the completions, the draw and the per-state
memos share one view of which requirement reads which parameter; split,
each part would need the others' private tables.

Nothing here names a game: moves, parameters and facts are the rule file's.
"""

from __future__ import annotations

import ast
import functools
import itertools
import random
import weakref
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ..solver.marginal import value_range
from ..spec.deal import pin
from ..spec.dealmodel import Deal
from ..spec.expr import Expr, Namespace, first_failing, holding
from ..spec.diagnostics import RuleError
from ..spec.facts import And, Atom, Const, Fact, Or, is_formula
from ..spec.machine import Machine, Outcome, Play, State, _groups, _viewers
from ..spec.model import Effect, Move, MoveParam, Ruleset, decided_by

__all__ = ["Lab", "KindInfo", "start_facts", "solution_of", "declared_ends", "never", "MAX_COMPLETIONS"]

#: Outcome completions tried for one move at most (beyond: a uniform sample of them).
MAX_COMPLETIONS = 4096
#: Beyond MAX_COMPLETIONS (or when a check can prune before the last outcome), combinations
#: searched with pruning up to this many (beyond: sampled).
MAX_STAGED = 1_000_000
#: Mover choices enumerated for one move kind at most (beyond: sampled).
MAX_ENUMERATE = 20000


@dataclass
class KindInfo:
    """What the lab knows of one move kind."""

    move: Move
    mover: tuple[MoveParam, ...]
    outcome: tuple[MoveParam, ...]
    reveals: MoveParam | None             # a token_reveals parameter, filled after the move is applied
    free: tuple[tuple[Expr | None, Expr, str], ...]   # requirements that read no move parameter
    bound: tuple[tuple[Expr | None, Expr, str], ...]  # the others
    claims: bool
    observes: bool
    due: Expr | None = None  # who the rules oblige to make this move now (a simulated game makes it first)
    may_score: bool = True  # writes something the scoring reads
    needs_env: bool = True  # a mover's parameter has a size or maximum to compute
    equality: frozenset[str] = field(default_factory=frozenset)  # counts observed by an equality
    blank: dict[str, None] = field(default_factory=dict)  # every outcome, then every mover's parameter: None
    zeros: dict[str, int] = field(default_factory=dict)  # every count outcome: 0
    # count -> the fact of its equality when that reads no other outcome (see Lab._outcome_values)
    settling: dict[str, Expr] = field(default_factory=dict)
    # requirements (when, expr, where) by the outcomes they read: none, one, several
    mover_reqs: tuple[Any, ...] = ()
    single_reqs: dict[str, list[Any]] = field(default_factory=dict)
    joint_reqs: tuple[Any, ...] = ()
    # observations (when, fact, where), the same way
    obs_mover: tuple[Any, ...] = ()
    obs_single: dict[str, list[Any]] = field(default_factory=dict)
    obs_joint: tuple[Any, ...] = ()
    # the joint requirements and observations by the outcome (index) after which all they read is known
    joint_stages: tuple[tuple[Any, ...], ...] = ()
    obs_stages: tuple[tuple[Any, ...], ...] = ()
    # every observation with the parameters its condition, fact and viewers read (None: the whole move)
    obs_reads: tuple[Any, ...] = ()
    # the same order: the parameters each observation's text and chosen_among read (None: the whole move)
    obs_more_reads: tuple[Any, ...] = ()
    # ``free`` as one function of the environment: the index of the first that fails, or -1
    # (requirements that "the game has not ended" settles left out)
    free_failing: Any = None
    # rule functions (not pure) that read none of the outcomes: within one choice of the mover's
    # from one state, a call's value depends on its arguments alone (see Lab._combined)
    choice_fns: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.move.name


def _components(p: MoveParam) -> tuple[str, ...]:
    comps = tuple(getattr(p, "components", ()) or ())
    return comps or ((p.of,) if p.of else ())


class Lab:
    """Legal moves of a rule set for bots and searches (one per rule set; cached)."""

    def __init__(self, rules: Ruleset, machine: Machine | None = None, verify: bool = False,
                 reference: bool = False):
        """``verify``: check every completed move in full once more (the staged checks
        of :meth:`completions` already cover every requirement).  ``reference``:
        :meth:`completions` checks every combination of outcome values in turn, each
        requirement and fact by the state machine (the reference the pruned search that
        serves otherwise is tested equal to)."""
        self.rules = rules
        self.verify = verify
        self.reference = reference
        self.machine = machine or Machine(rules)
        self._req_ok = self.machine.holds  # (when, expr, env, where) -> bool
        self._obs_ok = self.machine.fact_holds  # (when, fact, env, where, world) -> bool
        functions = {name: fn.expr for name, fn in rules.functions.items()}
        memo: dict[str, frozenset[str]] = {}

        def attrs(expr: Expr | None, seen: frozenset[str] = frozenset()) -> frozenset[str]:
            """The move parameters an expression reads, through the rule functions it calls."""
            if expr is None:
                return frozenset()
            found = {a for b, a, _c in expr.attributes if b == "move"}
            if "move" in expr.names and not found:
                found.add("*")  # reads move as a whole
            for name in expr.names:
                if name in functions and name not in seen:
                    if name not in memo:
                        memo[name] = attrs(functions[name], seen | {name})
                    found |= memo[name]
            return frozenset(found)

        # rule functions that read no move parameter nor who moves: within one state, a
        # call's value depends on its arguments alone (kept while the state is explored)
        self._pure = tuple(name for name, e in functions.items() if not attrs(e, frozenset({name}))
                           and not _reads_name(e, "actor", functions))
        #: rule function -> per argument, the keys it reads of it as a record (None: not only that)
        self._fields = {name: tuple(_fields_read(rules.functions, name, i) for i in range(len(fn.args)))
                        for name, fn in rules.functions.items()}
        self._envs: tuple[Any, dict[str, Any]] | None = None  # (state, its environment)
        self._obs_memo: tuple[Any, str, dict[Any, Any]] | None = None  # see observation_memo()
        self._live: dict[str, Any] = {}  # the environment the lab renews per state (see env())
        self._wrapped: dict[str, tuple[Any, Any, dict[str, Any]]] = {}  # see _adopt()
        self._checks: dict[tuple[str, bool, frozenset[str]], list[_Stage]] = {}  # see _checks_of()
        self._joint: dict[tuple[Any, ...], list[_Stage]] = {}  # see _joint_checks(), _single_checks()
        self._firsts: dict[tuple[tuple[int, int, str], ...], Any] = {}  # see _first_failing()
        self.kinds: dict[str, KindInfo] = {}
        self._reads: dict[tuple[int, int], tuple[str, ...] | None] = {}  # a requirement -> the parameters it reads
        self._kept: tuple[Any, Any, dict[Any, bool]] = (None, None, {})  # per state and player: requirements' values
        self._passes: tuple[Any, Any, dict[Any, Any]] = (None, None, {})  # per state and player: see _stage_memo()
        self._attrs = attrs
        self._constants: dict[int, tuple[Any] | None] = {}  # see _constant()
        self._failed: tuple[Any, Any, str] | None = None  # see failed_alike()
        for kind, move in rules.moves.items():
            params = [p for p in move.params if p.type != "token_reveals"]
            outcome = tuple(p for p in params if decided_by(p) == "outcome")
            names = {p.name for p in outcome} | {"*"}
            info = KindInfo(
                move, tuple(p for p in params if decided_by(p) == "mover"), outcome,
                next((p for p in move.params if p.type == "token_reveals"), None),
                (), (), move.claims is not None, bool(move.observe), move.due)
            free, mover, joint = [], [], []
            order = {p.name: i for i, p in enumerate(outcome)}
            last = max(len(outcome) - 1, 0)
            joint_stages: list[list[Any]] = [[] for _ in range(last + 1)]
            obs_stages: list[list[Any]] = [[] for _ in range(last + 1)]

            def stage(hit: frozenset[str]) -> int:
                return last if "*" in hit else max(order[n] for n in hit)

            def reads(expr: Expr | None) -> tuple[str, ...] | None:
                """The outcomes an expression reads, in order (None: the whole move)."""
                hit = attrs(expr) & names
                return None if "*" in hit else tuple(sorted(hit, key=order.__getitem__))
            single: dict[str, list[Any]] = {p.name: [] for p in outcome}
            for req in (*rules.flow.requires, *move.requires):
                simple = self._settled(req.when, req.expr)
                if simple is True:
                    continue  # holds whatever the state and the move (the rule set's constants decide)
                when = None if simple == "always" else req.when
                entry = (when, req.expr, f"{kind}/{req.id}")
                read = attrs(when) | attrs(req.expr)
                hit = read & names
                if not read:
                    free.append(entry)
                elif not hit:
                    mover.append(entry)
                elif len(hit) == 1 and "*" not in hit:
                    single[next(iter(hit))].append(entry)
                else:
                    joint.append(entry)
                    joint_stages[stage(hit)].append((*entry, reads(when), reads(req.expr)))
            obs_mover, obs_joint = [], []
            obs_single: dict[str, list[Any]] = {p.name: [] for p in outcome}
            for ob in move.observe:
                hit = (attrs(ob.when) | attrs(ob.fact)) & names
                entry = (ob.when, ob.fact, f"{kind} observe")
                if not hit:
                    obs_mover.append(entry)
                elif len(hit) == 1 and "*" not in hit:
                    obs_single[next(iter(hit))].append(entry)
                else:
                    obs_joint.append(entry)
                    obs_stages[stage(hit)].append((*entry, reads(ob.when), reads(ob.fact)))
            info.free, info.bound = tuple(free), tuple(mover + joint + [e for v in single.values() for e in v])
            info.mover_reqs, info.joint_reqs, info.single_reqs = tuple(mover), tuple(joint), single
            info.obs_mover, info.obs_joint, info.obs_single = tuple(obs_mover), tuple(obs_joint), obs_single
            info.joint_stages = tuple(tuple(x) for x in joint_stages)
            every = {p.name for p in move.params}

            def reads_all(expr: Expr | None) -> tuple[str, ...] | None:
                if expr is None:
                    return ()
                hit = attrs(expr)
                return None if "*" in hit else tuple(sorted(hit & every))
            info.obs_reads = tuple((ob, reads_all(ob.when), reads_all(ob.fact), reads_all(ob.seen_by))
                                   for ob in move.observe)

            def reads_many(exprs: Iterable[Expr | None]) -> tuple[str, ...] | None:
                found: set[str] = set()
                for e in exprs:
                    r = reads_all(e)
                    if r is None:
                        return None
                    found.update(r)
                return tuple(sorted(found))
            info.obs_more_reads = tuple(
                (reads_many(ob.says.expressions() if ob.says is not None else ()), reads_all(ob.chosen_among))
                for ob in move.observe)
            for entries in single.values():
                for w, e, _where in entries:
                    both = (reads_all(w) or ()) + (reads_all(e) or ()) if None not in (reads_all(w), reads_all(e)) \
                        else None
                    self._reads[(id(w), id(e))] = None if both is None else tuple(sorted(set(both)))
            info.obs_stages = tuple(tuple(x) for x in obs_stages)
            info.needs_env = any(self._constant(e) is None for p in info.mover for e in (p.size, p.max) if e is not None)
            facts = {p.name: self._equality_observed(move, p) for p in outcome if p.type == "count"}
            facts = {name: fact for name, fact in facts.items() if fact is not None}
            info.equality = frozenset(facts)
            mover_names = {p.name for p in info.mover}
            info.settling = {name: fact for name, fact in facts.items() if attrs(fact) <= mover_names | {name}}
            info.blank = {**{p.name: None for p in outcome}, **{p.name: None for p in info.mover}}
            info.choice_fns = tuple(name for name, e in functions.items() if name not in self._pure
                                    and not attrs(e, frozenset({name})) & names)
            info.zeros = {p.name: 0 for p in outcome if p.type == "count"}
            self.kinds[kind] = info
        self.end_labels = declared_ends(rules)
        #: kind -> (parameter, its default) whose values the rules weigh (play: random: values:), counted per game
        self.counted_values: dict[str, list[tuple[str, Any]]] = {}
        for kind, name in (rules.play.values if rules.play is not None else {}):
            default = next((p.default for p in rules.moves[kind].params if p.name == name), None)
            self.counted_values.setdefault(kind, []).append((name, default))
        #: whether some kind is due when the rules say so (else :meth:`due` always answers nothing)
        self.has_due = any(info.due is not None for info in self.kinds.values())
        free_open = []
        for info in self.kinds.values():
            # :meth:`actors` answers nothing once the game has ended: what that settles is dropped
            reqs = [(w, e, where) for w, e, where in info.free if self._settled(w, e, {"ended": False}) is not True]
            info.free_failing = self._first_failing(reqs)
            free_open.append([(w, e) for w, e, _where in reqs])
        infos = list(self.kinds.values())
        # the kinds whose free requirements hold, all checked as one function (each kind's own the exact way)
        self._open = holding(free_open, lambda env: [i for i, info in enumerate(infos) if info.free_failing(env) < 0])
        self._kind_names = list(self.kinds)
        self._claiming = frozenset(kind for kind, info in self.kinds.items() if info.claims)
        scoring = rules.scoring
        self.scores = scoring is not None and any(st.kind == "points" for st in scoring.steps)
        if scoring is not None:
            exprs = [st.expr for st in scoring.steps if st.expr is not None]
            exprs += [e for _n, e in scoring.define] + [scoring.winners]
            read = set()
            for e in exprs:
                read |= _state_read(e, functions)
            for info in self.kinds.values():
                info.may_score = bool(_state_written(info.move.effects) & read)
        self._items_cache: dict[tuple[str, ...], list[str]] = {}
        self._samplers: dict[int, Any] = {}  # see _sampler()
        self._item_sets: dict[tuple[str, ...], frozenset[str]] = {}
        self._tidying: dict[tuple[str, str], Any] = {}  # see _tidy()
        self._groups_cache: dict[tuple[Any, ...], list[list[str]]] = {}
        self._option_counts: dict[tuple[Any, ...], int] = {}  # see _option_count()
        self.n_cards = sum(len(rules.components[d.cards].items) for d in (rules.deal.decks if rules.deal else ()))

    def _settled(self, when: Expr | None, expr: Expr, known: Mapping[str, Any] | None = None) -> bool | str | None:
        """What the rule set's constants (parameters, options, components), and the names
        ``known`` gives, settle of a requirement: True when it always holds (its condition
        is false, or its expression true), "always" when its condition is true, else None."""
        names = {**self.machine.static, **(known or {})}

        def value(e: Expr) -> bool | None:
            found = self.machine.evaluated(e, names)
            return None if found is None or is_formula(found[0]) else bool(found[0])
        if when is not None and value(when) is False:
            return True
        if value(expr) is True:
            return True
        return "always" if when is not None and value(when) is True else None

    # -- what is open -------------------------------------------------------------
    def open_kinds(self, state: State, actor: str) -> list[str]:
        """Kinds whose requirements that read no move parameter hold for ``actor`` now."""
        return self.actors(state, [actor]).get(actor, [])

    def actors(self, state: State, players: Sequence[str] | None = None) -> dict[str, list[str]]:
        """Player -> kinds open to them now: the requirements that read no move parameter
        hold (players with none left out).  One environment per state; the requirements of
        every kind are checked as one function (:func:`~ruleslawyer.spec.expr.holding`)."""
        if state.ended:
            return {}
        env = self.env(state)
        env["move"] = _EMPTY
        names, open_ = self._kind_names, self._open
        out: dict[str, list[str]] = {}
        for p in players if players is not None else state.players:
            env["actor"] = p
            found = open_(env)
            if found:
                out[p] = [names[i] for i in found]
        return out

    def env(self, state: State) -> dict[str, Any]:
        """The environment of a state (kept for the last state asked: a bot asks of one
        state many times).  Callers set ``actor`` and ``move`` before they evaluate;
        calls of the rule functions in :attr:`_pure` are kept by their arguments.

        The lab has one environment, made the environment of each state it is asked of
        (:meth:`Machine.renew`): one it gives out serves until it is asked of another state
        (callers already set ``actor`` and ``move`` in it: none may keep it longer)."""
        kept = self._envs
        if kept is not None and kept[0] is state:
            return kept[1]
        self._envs = None  # until it is this state's
        return self._adopt(state, self.machine.renew(self._live, state))

    def _adopt(self, state: State, env: dict[str, Any]) -> dict[str, Any]:
        """Make ``env`` (the lab's one environment, just renewed) the kept environment of
        ``state``, the calls of pure rule functions kept (what was kept of another state's
        calls forgotten)."""
        wrapped = self._wrapped
        for name in self._pure:
            fn = env[name]
            found = wrapped.get(name)
            if found is None or found[0] is not fn:
                found = wrapped[name] = (fn, *_remembered(fn, self._fields.get(name)))
            else:
                found[2].clear()
            env[name] = found[1]
        self._envs = (state, env)
        return env

    def _actor_env(self, state: State, actor: str | None) -> dict[str, Any]:
        """:meth:`env` with ``actor`` set and no move parameter chosen."""
        env = self.env(state)
        env["actor"], env["move"] = actor, _EMPTY
        return env

    def due(self, state: State) -> list[tuple[str, str]]:
        """The moves the rules oblige someone to make now (``due:`` of the rule file), as
        (player, kind), when the kind is open to that player."""
        if state.ended or not self.has_due:
            return []
        out: list[tuple[str, str]] = []
        env: dict[str, Any] | None = None
        for kind, info in self.kinds.items():
            if info.due is None:
                continue
            if env is None:
                env = self._actor_env(state, None)
            who = self.machine._run(info.due, env, f"{kind} due")
            if isinstance(who, str) and who in state.players and kind in self.open_kinds(state, who):
                out.append((who, kind))
        return out

    def mover(self, state: State, open_: Mapping[str, list[str]], rng: random.Random) -> str | None:
        """Who moves next when several could: the player whose turn it is if a move is
        open to them that claims nothing, else one drawn among the players with
        such a move, else among those with any (a claim is never forced on anyone)."""
        if not open_:
            return None
        turn = open_.get(state.turn)
        if turn is not None and not self.claims_only(turn):
            return state.turn
        plain = [p for p, kinds in open_.items() if not self.claims_only(kinds)]
        if plain:
            return plain[0] if len(plain) == 1 else rng.choice(plain)
        if state.turn in open_:
            return state.turn
        return rng.choice(sorted(open_))

    def claims_only(self, kinds: Iterable[str]) -> bool:
        """Whether every one of these kinds claims something (none, too, for no kind)."""
        return self._claiming.issuperset(kinds)

    # -- the mover's choices ------------------------------------------------------------
    def items(self, p: MoveParam) -> list[str]:
        comps = _components(p)
        found = self._items_cache.get(comps)
        if found is None:
            found = self._items_cache[comps] = [i for c in comps for i in self.rules.components[c].items]
        return found

    def _item_set(self, p: MoveParam) -> frozenset[str]:
        comps = _components(p)
        found = self._item_sets.get(comps)
        if found is None:
            found = self._item_sets[comps] = frozenset(self.items(p))
        return found

    def _size(self, p: MoveParam, env: Mapping[str, Any]) -> int | None:
        if p.size is None:
            return None
        return self._value(p.size, env, p.name)

    def _value(self, expr: Expr, env: Mapping[str, Any], where: str) -> Any:
        """A parameter's size or maximum: computed once when the rule set's constants settle it."""
        found = self._constant(expr)
        return self.machine._run(expr, env, where) if found is None else found[0]

    def _constant(self, expr: Expr) -> tuple[Any] | None:
        """(value,) of an expression that reads only the rule set's constants, else None."""
        key = id(expr)
        if key not in self._constants:
            self._constants[key] = self.machine.evaluated(expr, self.machine.static)
        return self._constants[key]

    def options(self, state: State, actor: str, p: MoveParam, named: Sequence[str] = (),
                exclude: frozenset[str] | set[str] = frozenset(), env: Mapping[str, Any] | None = None) -> list[Any]:
        """Every value of a parameter (for enumeration); ``named``: the items the move names;
        ``exclude``: items left out of the values."""
        t = p.type
        if t == "item":
            return [i for i in self.items(p) if i not in exclude]
        if t == "player":
            return list(state.players)
        if t == "token_value":
            return sorted(self.machine.supply)
        if t == "choice":
            return list(getattr(p, "values", ()))
        if t == "flag":
            return [False, True]
        if t == "count":
            if p.max is None:
                return list(range(0, self.n_cards + 1))
            env = env if env is not None else self._actor_env(state, actor)
            return list(range(0, int(self._value(p.max, env, p.name)) + 1))
        if t == "items":
            if decided_by(p) == "outcome" and p.size is None:
                among = self._item_set(p)
                pool = [c for c in dict.fromkeys(named) if c in among]
                return [list(c) for k in range(len(pool) + 1) for c in itertools.combinations(pool, k)]
            if p.size is not None and env is None:
                env = self._actor_env(state, actor)
            size = self._size(p, env) if p.size is not None else None  # type: ignore[arg-type]
            out: list[list[str]] = []
            for pool in self._pools(p):
                pool = [i for i in pool if i not in exclude]
                sizes = [size] if size is not None else range(1, len(pool) + 1)
                for k in sizes:
                    if p.distinct:
                        groups = self._grouped(pool, p.distinct)
                        for chosen in itertools.combinations(groups, k):
                            out.extend(list(c) for c in itertools.product(*chosen))
                    else:
                        out.extend(list(c) for c in itertools.combinations(pool, k))
            return out
        return []

    def _grouped(self, pool: list[str], attr: str) -> list[list[str]]:
        """Items grouped by an attribute's value (kept per pool and attribute)."""
        key = (tuple(pool), attr)
        found = self._groups_cache.get(key)
        if found is None:
            found = self._groups_cache[key] = _groups(self.rules, pool, attr)
        return found

    def _pools(self, p: MoveParam) -> list[list[str]]:
        """The item lists one items parameter draws from (one per component when they may not mix)."""
        if getattr(p, "one_component", False) and len(_components(p)) > 1:
            return [list(self.rules.components[c].items) for c in _components(p)]
        return [self.items(p)]

    def sample_value(self, state: State, actor: str, p: MoveParam, rng: random.Random,
                     env: Mapping[str, Any]) -> Any:
        """One value of a mover's parameter, uniformly (a list: its size, then its items)."""
        return self._sampler(p)(state, rng, env)

    def _sampler(self, p: MoveParam) -> Any:
        """:meth:`sample_value` of one parameter as a function ``(state, rng, env)``, what does
        not change worked out once (a random bot samples at every move)."""
        found = self._samplers.get(id(p))
        if found is None:
            found = self._samplers[id(p)] = self._make_sampler(p)
        return found

    def _make_sampler(self, p: MoveParam) -> Any:
        t = p.type
        if t in ("item", "token_value", "choice"):
            values = self.items(p) if t == "item" else sorted(self.machine.supply) if t == "token_value" \
                else list(getattr(p, "values", ()))
            return lambda state, rng, env: rng.choice(values)
        if t == "player":
            return lambda state, rng, env: rng.choice(state.players)
        if t == "flag":
            return lambda state, rng, env: rng.random() < 0.5
        if t == "count":
            return lambda state, rng, env: rng.randint(
                0, int(self._value(p.max, env, p.name) if p.max is not None else self.n_cards))
        if t != "items":
            return lambda state, rng, env: None
        pools = self._pools(p)
        grouped = [self._grouped(pool, p.distinct) for pool in pools] if p.distinct else None

        def items(state: State, rng: random.Random, env: Mapping[str, Any]) -> list[str]:
            k = 0 if len(pools) == 1 else rng.randrange(len(pools))  # rng.choice(pools), the same draw
            pool = pools[k]
            size = self._size(p, env)
            if size is None:
                size = rng.randint(1, len(pool))
            if grouped is not None:
                groups = grouped[k]
                size = min(size, len(groups))
                # one item of every group: nothing to draw for which groups (a random bot's usual case)
                chosen = range(size) if size == len(groups) else sorted(rng.sample(range(len(groups)), size))
                return [rng.choice(groups[g]) for g in chosen]
            return rng.sample(pool, min(size, len(pool)))
        return items

    def sample_args(self, state: State, actor: str, kind: str, rng: random.Random) -> dict[str, Any]:
        info = self.kinds[kind]
        env = self._actor_env(state, actor) if info.needs_env else {}
        return {p.name: self._sampler(p)(state, rng, env) for p in info.mover}

    @staticmethod
    def may_leave_out(p: MoveParam) -> bool:
        """Whether a mover in the lab may leave this parameter out: an optional one, but for a
        token's value, which is its owner's to know (a log leaves it out only when its writer
        did not see it; a lab writes every value, and a revealed value left unknown is no
        log's, LG116)."""
        return p.optional and p.type != "token_value"

    def mover_choices(self, state: State, actor: str, kind: str, limit: int = MAX_ENUMERATE,
                      exclude: frozenset[str] | set[str] = frozenset()) -> Iterator[dict[str, Any]]:
        """Every assignment of the mover's parameters (required ones; optional ones as given or
        left out), naming no item of ``exclude``; nothing when there are more than ``limit``."""
        info = self.kinds[kind]
        if self._choice_count(state, actor, info, exclude) > limit:
            return  # counted without listing them (a bot's turn asks this of thousands of choices)
        axes = self._mover_axes(state, actor, info, exclude)
        names = [p.name for p in info.mover]
        for combo in itertools.product(*axes):
            yield {n: v for n, v in zip(names, combo) if v is not None}

    def _mover_axes(self, state: State, actor: str, info: KindInfo,
                    exclude: frozenset[str] | set[str]) -> list[list[Any]]:
        """Every value of each mover's parameter, in the rule file's order (None last for one the
        mover may leave out): :meth:`mover_choices` lists their combinations."""
        axes = []
        for p in info.mover:
            values = self.options(state, actor, p, exclude=exclude)
            axes.append(values + [None] if self.may_leave_out(p) else values)
        return axes

    def legal_choices(self, state: State, actor: str, kind: str, exclude: frozenset[str] | set[str] = frozenset(),
                      limit: int = MAX_STAGED, staged: bool = True) -> list[dict[str, Any]] | None:
        """The mover's choices (as :meth:`mover_choices` lists them, in its order) that pass the
        requirements of the mover's choices alone; None when the search would try more than
        ``limit`` of them.  A search over the mover's parameters in the rule file's order: each
        requirement (and its ``when:``) checked as soon as every mover's parameter it reads has a
        value (:meth:`_mover_stages`, one generated function per parameter), so a prefix that
        fails is never extended.  ``staged`` False: the reference, every choice of
        :meth:`mover_choices` checked in turn as :meth:`draw` checks it (the same list)."""
        info = self.kinds[kind]
        if not staged:
            every = list(self.mover_choices(state, actor, kind, limit=limit, exclude=exclude))
            if not every and info.mover:
                return None if self._choice_count(state, actor, info, exclude) > limit else []
            return [a for a in every if self._mover_checked(state, actor, info, a, None) is not None]
        axes = self._mover_axes(state, actor, info, exclude)
        stages = self._mover_stages(kind)
        full = dict(info.blank)
        env = self.env(state)
        env["actor"], env["move"] = actor, Namespace.of(full)  # follows the values given
        if not info.mover:
            return [{}] if stages[0].first(env) < 0 else []
        names = [p.name for p in info.mover]
        out: list[dict[str, Any]] = []
        try:
            self._list_legal(0, names, axes, full, stages, env, out, [0, limit])
        except _TooBig:
            return None
        return out

    def _list_legal(self, i: int, names: list[str], axes: list[list[Any]], full: dict[str, Any],
                    stages: list["_Stage"], env: dict[str, Any], out: list[dict[str, Any]],
                    tried: list[int]) -> None:
        """:meth:`legal_choices`' search from the mover's parameter ``i`` on (a method: a closure
        that calls itself would be a cycle for the garbage collector)."""
        name, first = names[i], stages[i].first
        last = i == len(names) - 1
        for v in axes[i]:
            tried[0] += 1
            if tried[0] > tried[1]:
                raise _TooBig
            full[name] = v
            if first(env) >= 0:
                continue
            if last:
                out.append({n: full[n] for n in names if full[n] is not None})
            else:
                self._list_legal(i + 1, names, axes, full, stages, env, out, tried)
        full[name] = None

    def _choice_count(self, state: State, actor: str, info: KindInfo, exclude: frozenset[str] | set[str]) -> int:
        """How many choices :meth:`mover_choices` would list (with no limit)."""
        total = 1
        for p in info.mover:
            total *= max(1, self._option_count(state, actor, p, exclude) + self.may_leave_out(p))
        return total

    def _option_count(self, state: State, actor: str, p: MoveParam, exclude: frozenset[str] | set[str]) -> int:
        """``len(self.options(state, actor, p, exclude=exclude))``; an items parameter's kept by
        what its list depends on (its size and the items left out), not listed again."""
        if p.type != "items" or decided_by(p) == "outcome":
            return len(self.options(state, actor, p, exclude=exclude))
        env = self._actor_env(state, actor) if p.size is not None else None
        key = (id(p), self._size(p, env) if env is not None else None, frozenset(exclude))
        found = self._option_counts.get(key)
        if found is None:
            found = self._option_counts[key] = len(self.options(state, actor, p, exclude=exclude, env=env))
        return found

    def _mover_stages(self, kind: str) -> list["_Stage"]:
        """Per mover's parameter (the rule file's order), the requirements of the mover's choices
        alone for which it is the last mover's parameter read, as one generated function (a
        requirement that reads the move as a whole, or a parameter not the mover's, with the last
        parameter); a kind without mover's parameters: every such requirement in one stage."""
        key = (kind, False, frozenset({"mover stages"}))
        found = self._checks.get(key)
        if found is None:
            info = self.kinds[kind]
            order = {p.name: i for i, p in enumerate(info.mover)}
            last = max(len(order) - 1, 0)
            per: list[list[tuple[Any, Any, str]]] = [[] for _ in range(last + 1)]
            for entry in info.mover_reqs:
                when, expr, _where = entry
                read = self._attrs(when) | self._attrs(expr)
                at = max((order[n] for n in read), default=last) if read <= set(order) else last
                per[at].append(entry)
            found = self._checks[key] = [self._stage(reqs, ()) for reqs in per]
        return found

    def legal_sample(self, state: State, actor: str, kind: str, size: int, rng: random.Random,
                     exclude: frozenset[str] | set[str] = frozenset(), tries: int | None = None,
                     complete: bool = True) -> list[dict[str, Any]] | None:
        """``size`` of the mover's choices naming no item of ``exclude`` that some way of ending
        makes legal, drawn uniformly without replacement (all of them when there are fewer),
        in the drawn order; None when the search of :meth:`legal_choices` is too big.

        First by rejection: ``tries`` (4 x ``size`` by default) choices drawn uniformly among
        every choice :meth:`mover_choices` lists, each kept when it is legal and not drawn
        before (while the legal choices are many, a few checks give the sample).  When these
        draws find fewer than ``size``, the draws are dropped and the choices the mover's
        requirements allow are listed (:meth:`legal_choices`, a staged search), then gone
        through in a random order.  Either way a choice is legal when the mover's requirements
        hold and :meth:`draw` finds it a completion (with no deal: by the rules alone); each
        way's sample is uniform whatever the labels of the legal choices, so the sample is too.
        ``complete`` False: legal when the mover's requirements hold (no completion looked for:
        a caller that lists each choice's ways of ending drops those without one)."""
        info = self.kinds[kind]
        probe = random.Random(0)  # which completion draw finds does not matter: only whether one

        def legal(args: Mapping[str, Any]) -> bool:
            return self._mover_checked(state, actor, info, args, None) is not None and \
                (not complete or self.draw(state, actor, kind, args, None, probe) is not None)
        axes = self._mover_axes(state, actor, info, exclude)
        if all(axes):
            names = [p.name for p in info.mover]
            seen: set[tuple[int, ...]] = set()
            picked: list[dict[str, Any]] = []
            for _ in range(4 * size if tries is None else tries):
                combo = tuple(rng.randrange(len(values)) for values in axes)
                if combo in seen:
                    continue
                seen.add(combo)
                args = {n: values[k] for n, values, k in zip(names, axes, combo) if values[k] is not None}
                if legal(args):
                    picked.append(args)
                    if len(picked) >= size:
                        return picked
        found = self.legal_choices(state, actor, kind, exclude)
        if found is None:
            return None
        rng.shuffle(found)
        if not complete:
            return found[:size]
        picked = []
        for args in found:
            if self.draw(state, actor, kind, args, None, probe) is not None:
                picked.append(args)
                if len(picked) >= size:
                    break
        return picked

    # -- outcomes ------------------------------------------------------------------------
    @staticmethod
    def _equality_observed(move: Move, p: MoveParam) -> Expr | None:
        """The fact of an observation of the move (without a condition) ``<count> == move.<p>``,
        when there is one: then the true count is the parameter's one completion."""
        for ob in move.observe:
            if ob.when is not None:
                continue
            try:
                tree = ast.parse(ob.fact.source, mode="eval").body
            except SyntaxError:  # pragma: no cover - compiled once already
                continue
            if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq):
                right = tree.comparators[0]
                if isinstance(right, ast.Attribute) and isinstance(right.value, ast.Name) \
                        and right.value.id == "move" and right.attr == p.name \
                        and isinstance(tree.left, ast.Call) \
                        and not any(isinstance(n, ast.Attribute) and n.attr == p.name for n in ast.walk(tree.left)):
                    return ob.fact
        return None

    def completions(self, state: State, actor: str, kind: str, args: Mapping[str, Any],
                    world: Mapping[str, str] | None, rng: random.Random | None = None,
                    deal: Deal | None = None) -> list[Play]:
        """Every legal completion of the outcomes of a move whose mover's choices are ``args``
        (with ``world``: only those whose facts are true in it); an optional outcome is left
        out only when no value of it fits the others (a completion that gives the same values
        and one more is kept instead).

        Each outcome's values are first filtered by the requirements and facts that
        read it alone; then their combinations by those that read several, each
        checked as soon as the last outcome it reads has a value, the checks of one
        outcome as one generated function (:meth:`_combined`; with ``reference``, every
        combination checked in turn by the state machine: the same completions).

        ``deal`` (no ``world``, not ``reference``): the completions with a value of the first
        outcome that makes an observation's fact one no deal of its shape satisfies
        (:func:`never`), the observation reading no other outcome, are not listed (its
        values tried before the search, the facts kept in :meth:`observation_memo`): the
        completions without ``deal``, less those.  (One that leaves the first outcome out is
        listed when no completion extends it among all of them: when one that a value left
        out would extend is found, the search is made again with every value.)
        """
        info = self.kinds[kind]
        if self._as_chosen(info, world):
            return [Play(kind, actor, dict(args))]
        found_axes = self._outcome_values(state, actor, kind, args, world)
        if found_axes is None:
            return []
        base, env, every = found_axes
        axes: list[tuple[str, list[Any]]] = []
        singles = None if self.reference else self._single_checks(kind, world is not None)
        for i, (p, values) in enumerate(zip(info.outcome, every)):
            if singles is None:
                kept = [v for v in values if self._fits(state, actor, info, p.name, v, base, env, world)]
            else:
                kept = self._fitting(p.name, values, singles[i], base, env, world)
            if not kept:
                return []
            axes.append((p.name, kept))
        total = 1
        for _n, values in axes:
            total *= len(values)
        combos: Iterable[tuple[Any, ...]]
        if total > MAX_STAGED:
            r = rng or random.Random(0)
            picks = sorted({tuple(r.randrange(len(v)) for _n, v in axes) for _ in range(512)})
            combos = [tuple(v[i] for (_n, v), i in zip(axes, c)) for c in picks]
        elif not self.reference:
            if deal is not None and world is None and axes:
                name, values = axes[0]
                kept = self._possible_firsts(state, actor, info, base, values, deal)
                if len(kept) < len(values):
                    found = _maximal(self._combined(state, info, [(name, kept)] + axes[1:], base, env, world))
                    if all(p.args.get(name) is not None for p in found):
                        return found
            return _maximal(self._combined(state, info, axes, base, env, world))
        elif len(axes) > 1 and (total > MAX_COMPLETIONS or self._prunes(info, world is not None)):
            combos = self._staged(info, axes, base, env, world)
        else:
            combos = itertools.product(*(v for _n, v in axes))
        found: list[tuple[tuple[Any, ...], Play]] = []
        for combo in combos:
            full = dict(base)
            full.update(zip((n for n, _v in axes), combo))
            env["move"] = Namespace(full)
            if not all(self._req_ok(w, e, env, where) for w, e, where in info.joint_reqs):
                continue
            if world is not None and not all(self._obs_ok(w, f, env, where, world)
                                             for w, f, where in info.obs_joint):
                continue
            found.append((combo, Play(kind, actor, {k: v for k, v in full.items() if v is not None})))
        return (_maximal_reference if self.reference else _maximal)(found)

    def _possible_firsts(self, state: State, actor: str, info: KindInfo, base: Mapping[str, Any],
                         values: list[Any], deal: Deal) -> list[Any]:
        """The values of the first outcome (None kept) that leave every observation reading no
        other outcome with a fact some deal of ``deal``'s shape satisfies, or no fact (its
        condition fails); each condition and fact through :meth:`observation_memo` by what it
        reads, as :meth:`_observed` keeps them."""
        first = info.outcome[0].name
        outcome = {p.name for p in info.outcome}
        checks = [(ob, reads) for ob, reads in _observation_reads(self, info)
                  if reads[-1] is not None and {n for n, _g in reads[-1] if n in outcome} <= {first}]
        if not checks:
            return values
        memo = self.observation_memo(state, actor)
        m = self.machine
        given = {k: v for k, v in base.items() if v is not None}
        where = f"{info.name} observe"
        kept = []
        for v in values:
            if v is None:
                kept.append(v)
                continue
            play = Play(info.name, actor, {**given, first: v})
            a = m._args(info.move, play)
            env = self._actor_env(state, actor)
            env["move"] = Namespace(a)
            dead = False
            for ob, (rw, rf, *_rest) in checks:
                if ob.when is not None:
                    holds = _kept_part(memo, "when", ob.when, a, rw, lambda e: m._truth(e, env, where))
                    if holds is _NONE or not holds:
                        continue
                fact = _kept_part(memo, "fact", ob.fact, a, rf, lambda e: m._run(e, env, where))
                if fact is not _NONE and is_formula(fact) and never(fact, deal):
                    dead = True
                    break
            if not dead:
                kept.append(v)
        return kept

    def claim_reads_outcome(self, kind: str) -> bool:
        """Whether the claim of a move kind (its ``claims:``) reads an outcome parameter (or
        the move as a whole): else the mover's choices alone tell what it asserts."""
        info = self.kinds[kind]
        read = self._attrs(info.move.claims)
        return "*" in read or bool(read & {p.name for p in info.outcome})

    @staticmethod
    def _as_chosen(info: KindInfo, world: Mapping[str, str] | None) -> bool:
        """Whether a move of this kind is complete and legal as the mover chose it: no
        outcome to fill in, nothing to check of the mover's choices."""
        return not info.outcome and not info.mover_reqs and not (world is not None and info.obs_mover)

    def _outcome_values(self, state: State, actor: str, kind: str, args: Mapping[str, Any],
                        world: Mapping[str, str] | None,
                        settled: list[str] | None = None
                        ) -> tuple[dict[str, Any], dict[str, Any], list[list[Any]]] | None:
        """The move's parameters so far, the environment, and every value each outcome may
        take, in the rule file's order (an optional one: None last), not yet filtered;
        None when a requirement or fact of the mover's choices alone fails.  ``settled``
        gets the outcomes whose one value makes their equality true (it needs no check)."""
        info = self.kinds[kind]
        m = self.machine
        checked = self._mover_checked(state, actor, info, args, world)
        if checked is None:
            return None
        base, env = checked
        named = [v for p in info.mover for v in _flat(args.get(p.name))]
        every: list[list[Any]] = []
        for p in info.outcome:
            values: list[Any] | None = None
            if world is not None and p.name in info.equality:
                probe = Play(kind, actor, {**args, **info.zeros})
                value, fact = m.observed_by(state, probe, p.name, world, env)
                if value is not None:
                    values = [value]
                    if settled is not None and fact is not None and fact is info.settling.get(p.name):
                        settled.append(p.name)
            if values is None:
                env["move"] = _EMPTY
                values = self.options(state, actor, p, named, env=env)
            every.append(values + [None] if p.optional else values)
        return base, env, every

    def _mover_checked(self, state: State, actor: str, info: KindInfo, args: Mapping[str, Any],
                       world: Mapping[str, str] | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The move's parameters (those not given: None) and the environment with the move
        set, when the checks of the mover's choices alone hold; else None (the failing check
        kept for :meth:`failed_alike`)."""
        base = {**info.blank, **args}
        env = self.env(state)
        env["actor"], env["move"] = actor, Namespace(base)
        failed = self._failing(self._checks_of(info.name, world is not None)[0], env, world)
        if failed is not None:
            self._failed = failed
            return None
        return base, env

    def _fits(self, state: State, actor: str, info: KindInfo, name: str, value: Any, base: Mapping[str, Any],
              env: dict[str, Any], world: Mapping[str, str] | None) -> bool:
        """Whether one outcome's value passes the requirements and facts that read it alone."""
        full = {**base, name: value}
        env["move"] = Namespace(full)
        return all(self._single_ok(state, actor, w, e, where, full, env) for w, e, where in info.single_reqs[name]) \
            and (world is None or all(self._obs_ok(w, f, env, where, world) for w, f, where in info.obs_single[name]))

    def draw(self, state: State, actor: str, kind: str, args: Mapping[str, Any],
             world: Mapping[str, str] | None, rng: random.Random) -> Play | None:
        """One legal completion drawn as :meth:`complete` draws it, found without listing
        them all: each outcome in order takes the first value, in a random order, after
        which the later outcomes can still be completed (a search that stops at the first
        completion).  A value drawn this way is uniform among the values that leave a
        completion; an optional outcome is left out only when no value of it does.  None
        when there is no completion, or (beyond :data:`MAX_STAGED` values tried) when the
        search is too big: then :meth:`complete` enumerates (and samples)."""
        info = self.kinds[kind]
        self._failed = None
        if self._as_chosen(info, world):
            return Play(kind, actor, dict(args))
        if not info.outcome:  # nothing to search: the mover's choices checked, the move is complete
            checked = self._mover_checked(state, actor, info, args, world)
            if checked is None:
                return None
            return Play(kind, actor, {k: v for k, v in checked[0].items() if v is not None})
        settled: list[str] = []
        found_axes = self._outcome_values(state, actor, kind, args, world, settled)
        if found_axes is None:
            return None
        base, env, every = found_axes
        names = [p.name for p in info.outcome]
        full = dict(base)
        env["move"] = Namespace.of(full)  # follows the values tried
        stages = self._checks_of(kind, world is not None, frozenset(settled))[1:]  # per outcome
        try:
            if not self._search(0, names, every, full, stages, env, world, rng, [0]):
                return None
        except _TooBig:
            return self._complete_listed(state, actor, kind, args, world, rng)
        return Play(kind, actor, {k: v for k, v in full.items() if v is not None})

    def _search(self, i: int, names: list[str], every: list[list[Any]], full: dict[str, Any],
                stages: list["_Stage"], env: dict[str, Any], world: Mapping[str, str] | None,
                rng: random.Random, tried: list[int]) -> bool:
        """:meth:`draw`'s search from outcome ``i`` on: its values in a random order, each
        kept when the checks of that outcome (its own, and those for which it is the last
        outcome read) hold and the later outcomes can still be completed.  (A method, not a
        closure that calls itself: that would be a cycle for the garbage collector to free.)"""
        if i == len(names):
            return True
        name = names[i]
        values = every[i]
        optional = bool(values) and values[-1] is None
        left = values[:-1] if optional else list(values)
        checks = stages[i]
        first, facts, failing = checks.first, checks.facts, self._failing_fact
        while left:
            k = rng.randrange(len(left)) if len(left) > 1 else 0
            full[name] = left[k]
            left[k] = left[-1]
            left.pop()
            tried[0] += 1
            if tried[0] > MAX_STAGED:
                raise _TooBig
            # (the checks' first function called here: the stage's requirements, the search's hottest call)
            if first(env) < 0 and (not facts or failing(facts, env, world) is None) and \
                    self._search(i + 1, names, every, full, stages, env, world, rng, tried):
                return True
        full[name] = None
        return optional and first(env) < 0 and (not facts or failing(facts, env, world) is None) and \
            self._search(i + 1, names, every, full, stages, env, world, rng, tried)

    def failed_alike(self, names: Iterable[str]) -> bool:
        """Whether the last :meth:`draw` found no completion because a check of the mover's
        choices alone failed that reads none of these parameters: then no value of them,
        nor leaving them out, makes the move legal."""
        failed = self._failed
        if failed is None:
            return False
        when, expr, _where = failed
        read = self._attrs(when) | self._attrs(expr)
        return "*" not in read and not (read & set(names))

    def _checks_of(self, kind: str, observed: bool, settled: frozenset[str] = frozenset()) -> list["_Stage"]:
        """The checks of a kind: first those of the mover's choices alone, then per outcome
        those :meth:`draw` makes when it gives the outcome a value (the requirements and, in
        a known deal, facts that read it alone, then those for which it is the last outcome
        read); without the equalities of the ``settled`` outcomes (true by their value)."""
        key = (kind, observed, settled)
        found = self._checks.get(key)
        if found is None:
            info = self.kinds[kind]
            true = {id(info.settling[n]) for n in settled}
            found = [self._stage(info.mover_reqs, info.obs_mover if observed else ())]
            for i, p in enumerate(info.outcome):
                facts = (*info.obs_single[p.name], *((w, f, where) for w, f, where, _rw, _rf in info.obs_stages[i]))
                found.append(self._stage(
                    (*info.single_reqs[p.name], *((w, e, where) for w, e, where, _rw, _re in info.joint_stages[i])),
                    tuple(entry for entry in facts if id(entry[1]) not in true) if observed else ()))
            self._checks[key] = found
        return found

    def _stage(self, reqs: Sequence[tuple[Any, Any, str]], facts: Sequence[tuple[Any, Any, str]]) -> "_Stage":
        """Requirements checked as one function (the first that fails), then facts."""
        return _Stage(tuple(reqs), self._first_failing(reqs), tuple(facts))

    def _first_failing(self, reqs: Sequence[tuple[Any, Any, str]]) -> Any:
        """The index of the first of these requirements that does not hold, or -1, as one
        function of the environment (see :func:`~ruleslawyer.spec.expr.first_failing`);
        made once per list of requirements (several stages check the same list)."""
        key = tuple((id(w), id(e), where) for w, e, where in reqs)
        found = self._firsts.get(key)
        if found is None:
            found = self._firsts[key] = self._make_first_failing(reqs)
        return found

    def _make_first_failing(self, reqs: Sequence[tuple[Any, Any, str]]) -> Any:
        checks: list[Any] = []  # made when first needed (the generated function serves the usual case)

        def exact(env: Mapping[str, Any]) -> int:
            if not checks:
                checks.extend(self.machine.requirement(w, e, where) for w, e, where in reqs)
            return next((i for i, check in enumerate(checks) if not check(env)), -1)
        return first_failing([(w, e) for w, e, _where in reqs], exact) if reqs else lambda env: -1

    def _failing(self, stage: "_Stage", env: Mapping[str, Any], world: Mapping[str, str] | None) -> Any:
        """The first check of a stage that fails, as (when, expression or fact, where), or None."""
        i = stage.first(env)
        return stage.reqs[i] if i >= 0 else self._failing_fact(stage.facts, env, world)

    def _failing_fact(self, facts: Sequence[tuple[Any, Any, str]], env: Mapping[str, Any],
                      world: Mapping[str, str] | None) -> Any:
        """The first of these facts that is false in the deal, or None."""
        for entry in facts:
            w, f, where = entry
            if not self._obs_ok(w, f, env, where, world):
                return entry
        return None

    def _single_ok(self, state: State, actor: str, when: Expr | None, expr: Expr, where: str,
                   full: Mapping[str, Any], env: Mapping[str, Any]) -> bool:
        """A requirement that reads one outcome, its value kept for this state and player by
        the values of the parameters it reads."""
        reads = self._reads.get((id(when), id(expr)))
        if reads is None:
            return self._req_ok(when, expr, env, where)
        kept_state, kept_actor, memo = self._kept
        if kept_state is not state or kept_actor != actor:
            memo = {}
            self._kept = (state, actor, memo)
        key = (id(when), id(expr), tuple(repr(full.get(n)) for n in reads))
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._req_ok(when, expr, env, where)
        return found

    @staticmethod
    def _prunes(info: KindInfo, observed: bool) -> bool:
        """Whether some check of several outcomes can be made before the last outcome has a
        value (then a search that prunes tries fewer combinations than all of them)."""
        early = range(len(info.outcome) - 1)
        return any(info.joint_stages[i] or (observed and info.obs_stages[i]) for i in early)

    def _staged(self, info: KindInfo, axes: Sequence[tuple[str, list[Any]]], base: Mapping[str, Any],
                env: dict[str, Any], world: Mapping[str, str] | None) -> list[tuple[Any, ...]]:
        """Every combination of outcome values that passes the joint requirements and facts,
        each checked as soon as the outcomes it reads are chosen (a search that prunes)."""
        out: list[tuple[Any, ...]] = []
        names = [n for n, _v in axes]
        full = dict(base)
        memo: dict[tuple[int, tuple[str, ...]], Any] = {}
        m = self.machine

        def value(expr: Expr, read: tuple[str, ...] | None, where: str, truth: bool) -> Any:
            """An expression's value, kept by the values of the outcomes it reads."""
            key = (id(expr), tuple(repr(full[n]) for n in (names if read is None else read)))
            if key not in memo:
                env["move"] = Namespace(full)
                memo[key] = m._truth(expr, env, where) if truth else m._run(expr, env, where)
            return memo[key]

        def req_ok(entry: tuple[Any, ...]) -> bool:
            when, expr, where, rw, re_ = entry
            if when is not None and not value(when, rw, where, True):
                return True
            return bool(value(expr, re_, where, True))

        def obs_ok(entry: tuple[Any, ...]) -> bool:
            when, fact, where, rw, rf = entry
            if when is not None and not value(when, rw, where, True):
                return True
            v = value(fact, rf, where, False)
            return v if isinstance(v, bool) else bool(v.holds(world))

        def go(i: int, chosen: tuple[Any, ...]) -> None:
            if i == len(axes):
                out.append(chosen)
                return
            for v in axes[i][1]:
                full[names[i]] = v
                if all(req_ok(e) for e in info.joint_stages[i]) and (
                        world is None or all(obs_ok(e) for e in info.obs_stages[i])):
                    go(i + 1, chosen + (v,))
            full[names[i]] = None

        go(0, ())
        return out

    def _single_checks(self, kind: str, observed: bool) -> list["_Stage"]:
        """Per outcome, the checks that read it alone (the requirements, then, in a known
        deal, the facts) as one generated function each: what :meth:`_fits` checks."""
        key = (kind, observed, "single")
        found = self._joint.get(key)
        if found is None:
            info = self.kinds[kind]
            found = self._joint[key] = [
                self._stage(info.single_reqs[p.name], info.obs_single[p.name] if observed else ())
                for p in info.outcome]
        return found

    def _fitting(self, name: str, values: list[Any], checks: "_Stage", base: Mapping[str, Any],
                 env: dict[str, Any], world: Mapping[str, str] | None) -> list[Any]:
        """The values of one outcome that pass the checks that read it alone (:meth:`_fits`,
        each check a generated function of :meth:`_single_checks`)."""
        if not checks.reqs and not checks.facts:
            return list(values)
        full = dict(base)
        env["move"] = Namespace.of(full)  # follows the value given
        first, facts = checks.first, checks.facts
        kept = []
        for v in values:
            full[name] = v
            if first(env) < 0 and (not facts or self._failing_fact(facts, env, world) is None):
                kept.append(v)
        return kept

    def _joint_checks(self, kind: str, observed: bool) -> list["_Stage"]:
        """Per outcome, the checks of several outcomes for which it is the last one read (the
        requirements, then, in a known deal, the facts), as :meth:`_checks_of` makes them."""
        key = (kind, observed)
        found = self._joint.get(key)
        if found is None:
            info = self.kinds[kind]
            found = self._joint[key] = [
                replace(
                    self._stage([(w, e, where) for w, e, where, _rw, _re in reqs],
                                [(w, f, where) for w, f, where, _rw, _rf in facts] if observed else ()),
                    reads=self._stage_reads(info, i, [*reqs, *(facts if observed else ())]))
                for i, (reqs, facts) in enumerate(zip(info.joint_stages, info.obs_stages))]
        return found

    def _stage_reads(self, info: KindInfo, i: int, entries: Sequence[tuple[Any, ...]]) -> Any:
        """What the checks of stage ``i`` (of :meth:`_joint_checks`) read of the move: the
        mover's parameters, each as (its name, whether only its being given is read), the
        earlier outcomes, each as (its index, the same), and the same of outcome ``i`` (None:
        not read); None when they read the move as a whole (or there are none).  From one state
        and player (and one deal), whether a combination passes them depends on those alone."""
        if not entries:
            return None
        read: set[str] = set()
        for w, e, *_rest in entries:
            got = self._attrs(w) | self._attrs(e)
            if "*" in got:
                return None
            read |= got
        names = [p.name for p in info.outcome]
        if read - set(names) - {p.name for p in info.mover}:  # a name no parameter of the move has
            return None
        functions = {name: fn.expr for name, fn in self.rules.functions.items()}
        exprs = [x for w, e, *_rest in entries for x in (w, e)]
        modes = {n: _given_only(exprs, n, functions) for n in read}
        mover = tuple((p.name, modes[p.name]) for p in info.mover if p.name in modes)
        before = tuple((j, modes[n]) for j, n in enumerate(names[:i]) if n in modes)
        return mover, before, modes.get(names[i])

    def _stage_memo(self, state: State, actor: str) -> dict[Any, dict[Any, bool]]:
        """Whether each stage passes (see :meth:`_combine`), for the choices of one state and player,
        kept for the last asked."""
        kept_state, kept_actor, memo = self._passes
        if kept_state is not state or kept_actor != actor:
            memo = {}
            self._passes = (state, actor, memo)
        return memo

    def _combined(self, state: State, info: KindInfo, axes: Sequence[tuple[str, list[Any]]],
                  base: Mapping[str, Any], env: dict[str, Any],
                  world: Mapping[str, str] | None) -> list[tuple[tuple[Any, ...], Play]]:
        """Every combination of outcome values (each value already through the checks that
        read its outcome alone) that passes the checks of several outcomes, in the order
        :func:`itertools.product` lists them, with its move: a search that gives each outcome
        its values in turn and makes, as each gets one, the checks for which it is the last
        outcome read (:meth:`_joint_checks`: one generated function each)."""
        stages = self._joint_checks(info.name, world is not None)
        full = dict(base)
        env["move"] = Namespace.of(full)  # follows the values given
        found: list[tuple[tuple[Any, ...], Play]] = []
        kept = [(name, env[name]) for name in info.choice_fns if name in env]
        # whether each stage passes, by what it reads of the mover's choices: kept for the choices of
        # this state and player (with no deal; with one, for this search only)
        passes = self._stage_memo(state, env["actor"]) if world is None else {}
        movers = [None if st.reads is None else
                  (info.name, i, tuple(full[n] is None if given else repr(full[n]) for n, given in st.reads[0]))
                  for i, st in enumerate(stages)]
        try:
            for name, fn in kept:  # calls kept by their arguments while the choice is explored
                env[name] = _remembered(fn, self._fields.get(name))[0]
            self._combine_all(info, axes, full, stages, env, world, found, (passes, movers, {}))
        finally:
            for name, fn in kept:
                env[name] = fn
        return found

    def _combine_all(self, info: KindInfo, axes: Sequence[tuple[str, list[Any]]], full: dict[str, Any],
                     stages: list["_Stage"], env: dict[str, Any], world: Mapping[str, str] | None,
                     found: list[tuple[tuple[Any, ...], Play]], memo: tuple[Any, ...]) -> None:
        """:meth:`_combined`'s search, what it finds added to ``found``."""
        if not axes:  # no outcome: the checks of the whole move, once (a stage of its own)
            checks = stages[0] if stages else None
            if checks is None or (checks.first(env) < 0 and self._failing_fact(checks.facts, env, world) is None):
                found.append(((), Play(info.name, env["actor"], {k: x for k, x in full.items() if x is not None})))
            return
        self._combine(0, [n for n, _v in axes], [v for _n, v in axes], full, stages, env, world,
                      (), info.name, found, memo)

    def _combine(self, i: int, names: list[str], values: list[list[Any]], full: dict[str, Any],
                 stages: list["_Stage"], env: dict[str, Any], world: Mapping[str, str] | None,
                 chosen: tuple[Any, ...], kind: str, found: list[tuple[tuple[Any, ...], Play]],
                 memo: tuple[Any, ...]) -> None:
        """:meth:`_combined`'s search from outcome ``i`` on (a method: a closure that calls
        itself would be a cycle for the garbage collector).  ``memo``: (passes, movers, walks).
        Whether a stage passes is kept in ``passes`` by what its checks read (:meth:`_stage_reads`):
        of the mover's choices (``movers``: each stage's key of that, for this choice), and of the
        outcomes: checked once per class of combinations alike in that, not once per combination
        (a check that asks only whether a card is given, once for none and once for any card).
        ``walks``: for this search, the values of an outcome that pass, by the same key."""
        name, checks = names[i], stages[i]
        first, facts = checks.first, checks.facts
        plain = not checks.reqs and not facts
        last = i == len(names) - 1
        actor = env["actor"]
        reads = None if plain else checks.reads
        walk = values[i]
        if reads is not None:
            passes, movers, walks = memo
            _mover, before, own = reads
            at = (movers[i], tuple(chosen[j] is None if given else repr(chosen[j]) for j, given in before))
            kept = passes.setdefault(at, {})
            if own is not False:  # not read, or only whether given: checked once per class of values
                walk = walks.get(at)  # the values that pass, the same for every combination alike
                if walk is None:
                    walk = walks[at] = self._by_class(values[i], own, name, full, kept, checks, env, world)
                plain = True
        for v in walk:
            full[name] = v
            if reads is not None and not plain:
                key = repr(v)
                ok = kept.get(key)
                if ok is None:
                    ok = kept[key] = first(env) < 0 and not (
                        facts and self._failing_fact(facts, env, world) is not None)
                if not ok:
                    continue
            elif not plain and (first(env) >= 0 or (facts and self._failing_fact(facts, env, world) is not None)):
                continue
            if last:
                found.append((chosen + (v,), Play(kind, actor, {k: x for k, x in full.items() if x is not None})))
            else:
                self._combine(i + 1, names, values, full, stages, env, world, chosen + (v,), kind, found, memo)
        full[name] = None

    def _by_class(self, values: list[Any], own: bool | None, name: str, full: dict[str, Any],
                  kept: dict[Any, bool], checks: "_Stage", env: dict[str, Any],
                  world: Mapping[str, str] | None) -> list[Any]:
        """The values of outcome ``name`` that pass a stage whose checks read it only as given
        or not (``own`` True) or not at all (None), in order: the stage checked once for none and
        once for the first value given (whether each passes kept in ``kept``), not once per value."""
        passed: dict[bool, bool] = {}
        for v in values:
            cls = own is not None and v is None
            if cls not in passed:
                ok = kept.get(cls)
                if ok is None:
                    full[name] = v
                    ok = kept[cls] = checks.first(env) < 0 and not (
                        checks.facts and self._failing_fact(checks.facts, env, world) is not None)
                passed[cls] = ok
        if all(passed.values()):
            return values
        return [v for v in values if passed[own is not None and v is None]]

    def seen_facts(self, state: State, play: Play, viewer: str, memo: dict[Any, Any]) -> list[Fact]:
        """The facts a move lets ``viewer`` observe (as :meth:`Machine.observations`, without
        their text); ``memo`` keeps each condition, fact and viewers by the parameters they
        read, for moves of one player from one state."""
        info = self.kinds[play.kind]
        m = self.machine
        env = self._actor_env(state, play.actor)
        args = m._args(info.move, play)
        where = f"{play.kind} observe"

        def value(expr: Expr, read: tuple[str, ...] | None, truth: bool) -> Any:
            key = (id(expr), repr(sorted(args.items())) if read is None else tuple(repr(args[n]) for n in read))
            if key not in memo:
                env["move"] = Namespace(args)
                memo[key] = m._truth(expr, env, where) if truth else m._run(expr, env, where)
            return memo[key]

        out = []
        for ob, rw, rf, rs in info.obs_reads:
            if ob.when is not None and not value(ob.when, rw, True):
                continue
            viewers = value(ob.seen_by, rs, False)
            key = ("viewers", id(ob.seen_by), repr(viewers))
            if key not in memo:
                memo[key] = _viewers(viewers, state.players, where)
            seen = memo[key]
            if seen is not None and viewer not in seen:
                continue
            fact = value(ob.fact, rf, False)
            if isinstance(fact, bool):
                fact = Const(fact)
            if is_formula(fact):
                out.append(Fact(fact, seen))
        return out


    def observation_memo(self, state: State, actor: str) -> dict[Any, Any]:
        """A memo for :meth:`observations` of ``actor``'s moves from ``state``, kept for the
        last state and player asked (as :meth:`env`: a caller lists every choice of one state)."""
        kept = self._obs_memo
        if kept is None or kept[0] is not state or kept[1] != actor:
            kept = self._obs_memo = (state, actor, {})
        return kept[2]

    def observations(self, state: State, play: Play, source: Any, memo: dict[Any, Any]) -> list[Fact]:
        """:meth:`Machine.observations` of ``play`` from ``state`` (the same facts, viewers,
        source, text and likelihood), each condition, fact, viewers, text and chosen_among
        worked out once per the values of the move parameters it reads (through the rule
        functions): ``memo`` is for the moves of one player from this one state (the several
        endings of one move, their outcomes alone differing).  A parameter a part reads only
        to ask whether it is given (``move.x is none``, ``is not none``) counts by that alone
        (a fact that says whether a card was shown, not which: one per answer, not per card).
        Each observation's fact (or that its condition fails) is kept too, by what any of its
        parts reads: one look-up per observation for an ending like one met before."""
        info = self.kinds[play.kind]
        if not info.observes:
            return []
        args = self.machine._args(info.move, play)
        out = []
        for ob, reads in _observation_reads(self, info):
            fact = self._observed_in(state, play, ob, reads, source, memo, args)
            if fact is not None:
                out.append(fact)
        return out

    def ending_observations(self, state: State, plays: Sequence[Play], source: Any,
                            memo: dict[Any, Any], impossible: Any = None) -> list[tuple[Fact, ...] | None]:
        """``[tuple(self.observations(state, p, source, memo)) for p in plays]`` for the endings of
        one choice: plays of one kind and player from ``state`` with the same mover's choices,
        their outcomes alone differing (:meth:`completions` of one choice).  What an observation
        reads of the mover's choices is then the same for every ending, so its fact is kept, for
        this call, by what it reads of the outcomes alone (only whether one is given, where that
        is all it reads): each observation over every ending in turn (a column of facts, joined
        per ending at the end), one look-up per ending by its outcome values, not a key of every
        parameter it reads; a miss goes to :meth:`observations`' own memo, after its condition
        is looked up by what it alone reads of the outcomes: one whose condition fails for an
        answer is not worked out again for each card shown with it.  ``impossible`` (a predicate
        of a fact): an ending with a fact it holds for gives None in place of its facts, and the
        observations after that one are not worked out for it."""
        if not plays:
            return []
        info = self.kinds[plays[0].kind]
        if not info.observes:
            return [() for _p in plays]
        outcome = {p.name for p in info.outcome}

        def own(read: tuple[tuple[str, bool], ...] | None) -> Any:
            return None if read is None else _outcome_key(tuple((n, g) for n, g in read if n in outcome))
        columns = []  # per observation, its fact (None: none) for each ending, in order
        dropped: set[int] = set()  # the endings found impossible
        bad: dict[int, bool] = {}  # id of a fact (kept alive in a column) -> whether it is impossible
        for ob, reads in _observation_reads(self, info):
            key_of = own(reads[-1])
            if key_of is None:  # reads the move as a whole: as observations() does
                column = [None if i in dropped else self._observed_in(state, p, ob, reads, source, memo)
                          for i, p in enumerate(plays)]
                if impossible is not None:
                    _drop(column, impossible, bad, dropped)
                columns.append(column)
                continue
            when_of = own(reads[0]) if ob.when is not None else None
            kept: dict[Any, Any] = {}  # its fact (None: its condition fails) by what it reads of the outcomes
            held: dict[Any, bool] = {}  # whether its condition holds by what that reads of them
            column = []
            for i, play in enumerate(plays):
                if i in dropped:
                    column.append(None)
                    continue
                key = key_of(play.args)
                fact = kept.get(key, _NONE)
                if fact is _NONE:
                    holds = True
                    if when_of is not None:
                        wkey = when_of(play.args)
                        holds = held.get(wkey)
                        if holds is None:
                            holds = held[wkey] = self._condition_in(state, play, ob, reads[0], memo)
                    fact = kept[key] = self._observed_in(state, play, ob, reads, source, memo) if holds else None
                column.append(fact)
            if impossible is not None:
                _drop(column, impossible, bad, dropped)
            if any(f is not None for f in column):
                columns.append(column)
        # (a Fact is always true as a truth value: filter(None, ...) drops the Nones alone)
        out: list[tuple[Fact, ...] | None] = ([tuple(filter(None, row)) for row in zip(*columns)] if columns
                                              else [() for _p in plays])
        for i in dropped:
            out[i] = None
        return out

    def _observed_in(self, state: State, play: Play, ob: Any, reads: tuple[Any, ...], source: Any,
                     memo: dict[Any, Any], args: Mapping[str, Any] | None = None) -> Fact | None:
        """One observation's fact of ``play`` (None: its condition fails) through
        :meth:`observations`' memo (its key: everything the observation reads; ``args``: the
        play's parameters with their defaults, when the caller has them)."""
        if args is None:
            args = self.machine._args(self.kinds[play.kind].move, play)
        union = reads[-1]
        key = ("observed", id(ob), source, repr(sorted(args.items())) if union is None else _read_key(args, union))
        fact = memo.get(key, _NONE)
        if fact is _NONE:
            fact = memo[key] = self._observed(state, play, ob, reads, source, memo)
        return fact

    def _condition_in(self, state: State, play: Play, ob: Any, read: tuple[tuple[str, bool], ...] | None,
                      memo: dict[Any, Any]) -> bool:
        """Whether the condition of observation ``ob`` holds for ``play``, through the memo and
        the key :meth:`_observed` gives it (``read``: what it reads, None: the whole move)."""
        info = self.kinds[play.kind]
        args = self.machine._args(info.move, play)
        key = ("when", id(ob.when), repr(sorted(args.items())) if read is None else _read_key(args, read))
        if key not in memo:
            env = self._actor_env(state, play.actor)
            env["move"] = Namespace(args)
            memo[key] = self.machine._truth(ob.when, env, f"{play.kind} observe")
        return bool(memo[key])

    def _observed(self, state: State, play: Play, ob: Any, reads: tuple[Any, ...], source: Any,
                  memo: dict[Any, Any]) -> Fact | None:
        """:meth:`observations`' fact of one observation ``ob`` of ``play`` (None: its condition
        fails), each part by what it reads (``reads``: see :func:`_observation_reads`)."""
        info = self.kinds[play.kind]
        m = self.machine
        env = self._actor_env(state, play.actor)
        args = m._args(info.move, play)
        where = f"{play.kind} observe"
        whole = None

        def value(tag: str, expr: Any, read: tuple[tuple[str, bool], ...] | None, run: Any) -> Any:
            nonlocal whole
            if read is None:
                if whole is None:
                    whole = repr(sorted(args.items()))
                key: Any = (tag, id(expr), whole)
            else:
                key = (tag, id(expr), _read_key(args, read))
            if key not in memo:
                env["move"] = Namespace(args)
                memo[key] = run(expr)
            return memo[key]

        truth = lambda e: m._truth(e, env, where)  # noqa: E731
        run = lambda e: m._run(e, env, where)  # noqa: E731
        rw, rf, rs, rt, rc, _union = reads
        if ob.when is not None and not value("when", ob.when, rw, truth):
            return None
        fact = value("fact", ob.fact, rf, run)
        if isinstance(fact, bool):
            fact = Const(fact)
        if not is_formula(fact):
            raise RuleError(f"{where}: {ob.fact.source}: a fact must say something about hidden cards")
        viewers = value("viewers", ob.seen_by, rs, lambda e: _viewers(run(e), state.players, where))
        text = value("says", ob.says, rt, lambda t: t.render(env)) if ob.says is not None else None
        likelihood = (value("among", ob, rc, lambda o: m._chosen_among(o, env, where))
                      if ob.chosen_among is not None else None)
        return Fact(fact, viewers, source, text, likelihood)

    def complete(self, state: State, actor: str, kind: str, args: Mapping[str, Any],
                 world: Mapping[str, str] | None, rng: random.Random) -> Play | None:
        """One legal completion (None when there is none): each outcome in the rule file's
        order is drawn uniformly among the values that still leave a completion, so that a
        value with more ways to go on is not favoured (a number said, then which item goes
        with it)."""
        if not self.verify:
            play = self.draw(state, actor, kind, args, world, rng)
            return None if play is None else self._tidy(state, play)
        return self._complete_listed(state, actor, kind, args, world, rng)

    def _complete_listed(self, state: State, actor: str, kind: str, args: Mapping[str, Any],
                         world: Mapping[str, str] | None, rng: random.Random) -> Play | None:
        """:meth:`complete` from the list of every completion (and, with ``verify``, each
        checked in full by the state machine)."""
        found = self.completions(state, actor, kind, args, world, rng)
        names = [p.name for p in self.kinds[kind].outcome]
        while found:
            pool = found
            for name in names:
                if len(pool) == 1:
                    break
                values: dict[str, Any] = {}
                for play in pool:
                    values.setdefault(repr(play.args.get(name)), play.args.get(name))
                if len(values) > 1:
                    keys = list(values)
                    pick = keys[rng.randrange(len(keys))]
                    pool = [play for play in pool if repr(play.args.get(name)) == pick]
            play = pool[0] if len(pool) == 1 else pool[rng.randrange(len(pool))]
            found.remove(play)
            if not self.verify or not self.machine.check(state, play):
                return self._tidy(state, play)
        return None

    def _tidy(self, state: State, play: Play) -> Play:
        """Leave out an optional outcome given as an empty list when the move means the same without it."""
        info = self.kinds[play.kind]
        for p in info.outcome:
            if p.optional and play.args.get(p.name) == []:
                bare = {k: v for k, v in play.args.items() if k != p.name}
                env = self._actor_env(state, play.actor)
                env["move"] = Namespace({**{q.name: None for q in info.move.params}, **bare})
                key = (play.kind, p.name)
                check = self._tidying.get(key)
                if check is None:
                    check = self._tidying[key] = self._first_failing((*info.single_reqs[p.name], *info.joint_reqs))
                if check(env) < 0:
                    play = Play(play.kind, play.actor, bare)
        return play

    # -- applying ---------------------------------------------------------------------------
    def apply(self, state: State, play: Play) -> tuple[Outcome, Play]:
        """Play a legal move; the play as a log records it (reveals filled in, parameters
        in the rule file's order)."""
        kept = self._envs
        self._envs = None  # the environment becomes the next state's
        out = self.machine.play(state, play, legal=True, keep_env=True, into=self._live,
                                into_holds=kept[0] if kept is not None else None)
        if out.env is not None:  # renewed: the next state's, as :meth:`env` would make it
            self._adopt(out.state, out.env)
            out.env = None
        if not play.args and not out.revealed:
            return out, play
        info = self.kinds[play.kind]
        args = dict(play.args)
        if info.reveals is not None and out.revealed:
            args[info.reveals.name] = [(t.owner, t.value) for t in out.revealed]
        ordered = {p.name: args[p.name] for p in info.move.params if p.name in args}
        return out, Play(play.kind, play.actor, ordered)


_EMPTY = Namespace({})  # ``move`` while no parameter is chosen


_NONE = object()  # not in a memo
#: lab -> id of an observation -> its parts' reads (see _observation_reads), worked out once per lab
_OBS_READS: "weakref.WeakKeyDictionary[Lab, dict[int, tuple[Any, ...]]]" = weakref.WeakKeyDictionary()


def never(formula: Any, deal: Deal) -> bool:
    """Whether no deal of ``deal``'s shape (its zones' sizes) satisfies ``formula`` (False when
    unsure): false as written, or a count of cards in zones that can never take that value (more
    cards than the counted zones hold together, or than are counted), through ``and`` and ``or``."""
    if isinstance(formula, Const):
        return not formula.truth
    if isinstance(formula, Atom):
        lo, hi = value_range(formula.lin, deal)
        v = formula.value
        return {"==": v < lo or v > hi, "!=": lo == hi == v, "<=": lo > v, "<": lo >= v,
                ">=": hi < v, ">": hi <= v}[formula.op]
    if isinstance(formula, And):
        return any(never(p, deal) for p in formula.parts)
    if isinstance(formula, Or):
        return all(never(p, deal) for p in formula.parts)
    return False


def _kept_part(memo: dict[Any, Any], tag: str, expr: Expr, args: Mapping[str, Any],
               read: tuple[tuple[str, bool], ...], run: Any) -> Any:
    """A part of an observation through the observation memo, by the key :meth:`Lab._observed`
    gives it; _NONE when it fails (the failure is told where an ending reads it: there may be
    none)."""
    key = (tag, id(expr), _read_key(args, read))
    if key not in memo:
        try:
            memo[key] = run(expr)
        except RuleError:
            return _NONE
    return memo[key]


def _drop(column: list[Any], impossible: Any, bad: dict[int, bool], dropped: set[int]) -> None:
    """Add to ``dropped`` the endings whose fact in ``column`` is ``impossible`` (asked once per
    fact, kept in ``bad`` by its id: the column keeps the facts alive)."""
    for i, f in enumerate(column):
        if f is not None:
            found = bad.get(id(f))
            if found is None:
                found = bad[id(f)] = bool(impossible(f))
            if found:
                dropped.add(i)


def _outcome_key(read: tuple[tuple[str, bool], ...]) -> Any:
    """What an observation reads of a play's outcomes (see :meth:`Lab.ending_observations`), as one
    function of the play's arguments: each one's value, or only whether it is given (an absent
    one: none, before any default, so a key at least as fine as the parameters read)."""
    if not read:
        return lambda a: ()
    if len(read) == 1:
        name, given_only = read[0]
        return (lambda a: a.get(name) is None) if given_only else (lambda a: repr(a.get(name)))
    return lambda a: tuple(a.get(n) is None if g else repr(a.get(n)) for n, g in read)


def _read_key(args: Mapping[str, Any], read: tuple[tuple[str, bool], ...]) -> tuple[Any, ...]:
    """What a part reads of the move's parameters: each one's value, or only whether it is given."""
    return tuple(args[n] is None if given_only else repr(args[n]) for n, given_only in read)


def _observation_reads(lab: Lab, info: KindInfo) -> list[tuple[Any, tuple[Any, ...]]]:
    """Each observation of a kind with what its parts read: (condition, fact, viewers, text,
    chosen_among, all of them), each a tuple of (parameter, whether only its being given is
    read) or None (the whole move)."""
    kept = _OBS_READS.setdefault(lab, {})
    out = []
    functions: dict[str, Expr] | None = None
    for (ob, rw, rf, rs), (rt, rc) in zip(info.obs_reads, info.obs_more_reads):
        found = kept.get(id(ob))
        if found is None:
            if functions is None:
                functions = {name: fn.expr for name, fn in lab.rules.functions.items()}
            says = tuple(ob.says.expressions()) if ob.says is not None else ()
            parts = [(rw, (ob.when,)), (rf, (ob.fact,)), (rs, (ob.seen_by,)), (rt, says), (rc, (ob.chosen_among,))]
            refined = [None if read is None else tuple((n, _given_only(exprs, n, functions)) for n in read)
                       for read, exprs in parts]
            union: tuple[tuple[str, bool], ...] | None = None
            if all(r is not None for r in refined):
                names = sorted({n for r in refined for n, _g in r})  # type: ignore[union-attr]
                union = tuple((n, all(g for r in refined for m, g in r if m == n))  # type: ignore[union-attr]
                              for n in names)
            found = kept[id(ob)] = (*refined, union)
        out.append((ob, found))
    return out


def _given_only(exprs: Iterable[Expr | None], name: str, functions: Mapping[str, Expr]) -> bool:
    """Whether ``move.<name>`` is read, in these expressions and the rule functions they call,
    only as ``move.<name> is none`` or ``is not none`` (False when unsure)."""
    seen: set[str] = set()
    todo = [e for e in exprs if e is not None]
    while todo:
        e = todo.pop()
        if not _text_given_only(e.source, name):
            return False
        for n in e.names:
            if n in functions and n not in seen:
                seen.add(n)
                todo.append(functions[n])
    return True


@functools.lru_cache(maxsize=1024)
def _parsed(source: str) -> tuple[ast.Expression, dict[ast.AST, ast.AST]] | None:
    """An expression's syntax tree and each node's parent (None: Python cannot parse it), kept
    by its text for the analyses here, which only read them."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    return tree, {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


@functools.lru_cache(maxsize=4096)
def _text_given_only(source: str, name: str) -> bool:
    """:func:`_given_only` of one expression's text, its rule functions aside (kept by the
    text: a rule set's observations reach the same rule functions many times)."""
    parsed = _parsed(source)
    if parsed is None:
        return False
    tree, parent = parsed
    return not any(isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name)
                   and node.value.id == "move" and not _none_test(parent.get(node), node)
                   for node in ast.walk(tree))


def _none_test(node: Any, operand: Any) -> bool:
    """Whether ``node`` is ``operand is none`` or ``operand is not none`` (either side)."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Is, ast.IsNot)):
        return False
    left, right = node.left, node.comparators[0]
    other = right if left is operand else left if right is operand else None
    return other is not None and ((isinstance(other, ast.Name) and other.id == "none")
                                  or (isinstance(other, ast.Constant) and other.value is None))


@dataclass(frozen=True)
class _Stage:
    """What :meth:`Lab.draw` checks at one step: requirements (when, expression, where),
    ``first`` giving the index of the first that fails (-1: none), then facts in the deal."""

    reqs: tuple[tuple[Any, Any, str], ...]
    first: Any
    facts: tuple[tuple[Any, Any, str], ...]
    #: what its checks read of the outcomes (see :meth:`Lab._stage_reads`; None: not told)
    reads: Any = None


class _TooBig(Exception):
    """A search for one completion went past MAX_STAGED values tried."""


def _maximal(found: Sequence[tuple[tuple[Any, ...], Play]]) -> list[Play]:
    """The completions that no other extends (the same values, and a value where one is left out):
    :func:`_maximal_reference`'s, each completion looked up once per smaller set of outcomes given
    met among the completions, not once per subset of its values."""
    combos = [combo for combo, _p in found]
    # only an outcome some completion gives and another leaves out can tell two apart this way
    mixed = [i for i in range(len(combos[0]) if combos else 0)
             if any(c[i] is None for c in combos) and any(c[i] is not None for c in combos)]
    if not mixed:
        return [p for _c, p in found]
    masks = [tuple(c[i] is not None for i in mixed) for c in combos]  # which of those each gives
    met = set(masks)
    inside = {m: [k for k in met if k != m and all(a or not b for a, b in zip(m, k))] for m in met}
    if not any(inside.values()):
        return [p for _c, p in found]
    # a completion by its values where a mask gives one (the others: the same in every completion)
    at = {k: _picker([i for i in range(len(combos[0])) if i not in mixed or k[mixed.index(i)]]) for k in met}
    extended: dict[tuple[bool, ...], set[tuple[Any, ...]]] = {m: set() for m in met}
    for combo, m in zip(combos, masks):
        for k in inside[m]:
            extended[k].add(at[k](combo))
    return [p for combo, m, (_c, p) in zip(combos, masks, found) if not extended[m] or at[m](combo) not in extended[m]]


def _maximal_reference(found: Sequence[tuple[tuple[Any, ...], Play]]) -> list[Play]:
    """The completions that no other extends (the same values, and a value where one is left out):
    every subset of each one's values tried (the reference :func:`_maximal` is tested equal to)."""
    if all(None not in combo for combo, _p in found):
        return [p for _c, p in found]
    keys = [tuple(None if v is None else repr(v) for v in combo) for combo, _p in found]
    covered: set[tuple[Any, ...]] = set()
    for key in keys:
        given = [i for i, v in enumerate(key) if v is not None]
        for k in range(len(given)):
            for keep in itertools.combinations(given, k):
                covered.add(tuple(key[i] if i in keep else None for i in range(len(key))))
    return [p for key, (_c, p) in zip(keys, found) if key not in covered]


def _picker(positions: list[int]) -> Any:
    """The values of a combination at these positions, as a key equal for two combinations
    exactly when the ``repr`` of each value is."""
    def pick(combo: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple([None if combo[i] is None else repr(combo[i]) for i in positions])
    return pick


def _remembered(fn: Any, fields: tuple[tuple[str, ...] | None, ...] | None = None) -> tuple[Any, dict[Any, Any]]:
    """A rule function whose calls are kept by their arguments (one state, no move read),
    and what it keeps (to forget at the next state).  ``fields``: per argument, the keys the
    function reads of it as a record, and nothing else of it (:func:`_fields_read`; None: not
    only that): a record with those keys is kept by their values alone (a question's record
    read for the cards asked, whatever its answer)."""
    kept: dict[Any, Any] = {}
    if not fields or all(f is None for f in fields):
        def call(*args):  # type: ignore[no-untyped-def]
            key = repr(args)
            if key not in kept:
                kept[key] = fn(*args)
            return kept[key]
        return call, kept
    n = len(fields)

    def by_fields(*args):  # type: ignore[no-untyped-def]
        if len(args) != n:
            key: Any = repr(args)
        else:
            key = tuple([tuple([repr(a[k]) for k in ks]) if ks is not None and type(a) is dict
                         and all(k in a for k in ks) else repr(a) for a, ks in zip(args, fields)])
        if key not in kept:
            kept[key] = fn(*args)
        return kept[key]
    return by_fields, kept


def _fields_read(functions: Mapping[str, Any], name: str, index: int,
                 seen: frozenset[tuple[str, int]] = frozenset()) -> tuple[str, ...] | None:
    """The keys rule function ``name`` reads of its argument ``index``, when it reads nothing
    else of it: the argument only subscripted by a string written in the rule file
    (``q['target']``), or passed whole to a rule function that does the same with it; None
    otherwise (any other use, a name that rebinds it, a call that comes back to it)."""
    fn = functions[name]
    param = fn.args[index]
    parsed = _parsed(fn.expr.source)
    if parsed is None:
        return None
    tree, parent = parsed
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda) and any(a.arg == param for a in node.args.args):
            return None
        if isinstance(node, ast.comprehension) and any(
                isinstance(t, ast.Name) and t.id == param for t in ast.walk(node.target)):
            return None
        if not (isinstance(node, ast.Name) and node.id == param):
            continue
        up = parent.get(node)
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.slice, ast.Constant) \
                and isinstance(up.slice.value, str) and isinstance(up.ctx, ast.Load):
            out.add(up.slice.value)
        elif isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id in functions \
                and not up.keywords and any(a is node for a in up.args) \
                and not any(isinstance(a, ast.Starred) for a in up.args) \
                and len(up.args) == len(functions[up.func.id].args):
            at = next(i for i, a in enumerate(up.args) if a is node)
            if (up.func.id, at) in seen or (up.func.id, at) == (name, index):
                return None
            got = _fields_read(functions, up.func.id, at, seen | {(name, index)})
            if got is None:
                return None
            out |= set(got)
        else:
            return None
    return tuple(sorted(out))


def _flat(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def declared_ends(rules: Ruleset) -> dict[int, str]:
    """Every ``end`` effect of the rule file (by id) -> its label: the move and the
    rulebook sentence it cites (or, without one, the conditions that lead to it)."""
    out: dict[int, str] = {}

    def walk(kind: str, effects: Sequence[Effect], conds: list[str]) -> None:
        for eff in effects:
            if eff.verb == "when":
                walk(kind, eff.then, conds + [eff.arg.source])
                walk(kind, eff.otherwise, conds + [f"not ({eff.arg.source})"])
            elif eff.verb == "end":
                quote = getattr(eff.cite, "quote", None) if eff.cite else None
                text = quote if quote else " and ".join(conds) or "always"
                out[id(eff)] = f"{kind}: {text if len(text) <= 60 else text[:59].rstrip() + '…'}"

    for kind, move in rules.moves.items():
        walk(kind, move.effects, [])
    return out


def _reads_name(expr: Expr, name: str, functions: Mapping[str, Expr], seen: frozenset[str] = frozenset()) -> bool:
    if name in expr.names:
        return True
    return any(_reads_name(functions[n], name, functions, seen | {n})
               for n in expr.names if n in functions and n not in seen)


_STATE_NAMES = {"tokens": "tokens", "spaces": "tokens", "tokens_left": "tokens", "tokens_left_of": "tokens",
                "out": "out", "active": "out", "phase": "phase", "turn": "turn", "ended": "ended"}


def _state_read(expr: Expr, functions: Mapping[str, Expr], seen: frozenset[str] = frozenset()) -> set[str]:
    """The parts of the state an expression reads (``vars.X``, tokens, out...), through rule functions."""
    out = {f"vars.{a}" for b, a, _c in expr.attributes if b == "vars"}
    if "vars" in expr.names and not out:
        out.add("vars.*")
    out |= {_STATE_NAMES[n] for n in expr.names if n in _STATE_NAMES}
    for n in expr.names:
        if n in functions and n not in seen:
            out |= _state_read(functions[n], functions, seen | {n})
    return out


def _state_written(effects: Iterable[Effect]) -> set[str]:
    """The parts of the state effects may change."""
    out: set[str] = set()
    for eff in effects:
        if eff.verb == "when":
            out |= _state_written(eff.then) | _state_written(eff.otherwise)
        elif eff.verb in ("set", "add", "remove"):
            out |= {f"vars.{name}" for name, _e in eff.arg}
        elif eff.verb in ("place_token", "reveal_tokens"):
            out.add("tokens")
        elif eff.verb == "eliminate":
            out.add("out")
        elif eff.verb in ("phase", "turn"):
            out.add(eff.verb)
        elif eff.verb == "end":
            out.add("ended")
    if any(w.startswith("vars.") for w in out):
        out.add("vars.*")
    return out


def start_facts(deal: Deal, world: Mapping[str, str]) -> list[Fact]:
    """What each player sees of the deal before the first move: the cards of the
    zones they own that their owner sees, and of zones everyone sees."""
    out = []
    for deck in deal.decks:
        for zone in deck.zones:
            if zone.seen_by == "everyone":
                viewers = None
            elif zone.seen_by == "owner" and zone.owner is not None:
                viewers = frozenset({zone.owner})
            else:
                continue
            for card in deck.cards:
                if world.get(card) == zone.id:
                    out.append(pin(card, zone.id, viewers, source="deal"))
    return out


def solution_of(deal: Deal, world: Mapping[str, str]) -> tuple[str, ...]:
    """The cards of the solution zones in a deal."""
    zones = set(deal.solution)
    return tuple(c for c, z in world.items() if z in zones)
