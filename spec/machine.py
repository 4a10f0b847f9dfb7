"""The compiled state machine: which move is legal now, and the next state.

Generic: the engine knows players (seated in order, some of them out),
phases, whose turn it is, the rule file's state variables and, when the
rule file declares them, tokens with hidden values on spaces.  The rule
file says which moves exist, what each requires, what it lets players
observe about the hidden deal and what it does.

One piece (over 800 lines): legality, the next state and the facts a move
lets players observe read the same compiled rules and environments; split,
each would reach into the others' private state.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> machine = Machine(next(r for r in map(load_rules, map(str, sorted(rules_dir().glob("*.yaml")))) if r.tokens))
>>> state = machine.start(["Ann", "Bob", "Cat", "Dan"])
>>> play = Play("pass", "Ann")
>>> len(machine.check(state, play)) > 0, state.phase == machine.rules.flow.start_phase
(True, True)
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from .deal import build_deal, zone_functions
from .diagnostics import RuleError
from .dealmodel import Deal
from .env import static_env
from .expr import FUNCTIONS, Expr, ExprError, Namespace, Scope, program, truth_of
from .facts import Const, Fact, Lin, is_formula
from .model import CHOICE_TYPES, UNKNOWN, Effect, decided_by, Move, MoveParam, Observation, Ruleset

__all__ = ["Machine", "State", "Token", "Play", "Outcome", "Violation", "RuleError", "MALFORMED",
           "CHOICE_TYPES", "EVERYONE", "Seen", "UNKNOWN"]

#: A move the machine cannot read: not a player, a parameter it does not take,
#: or a missing or ill-shaped parameter whose rule declares no code of its own.
MALFORMED = "RL150"
#: What ``seen_by: everyone`` evaluates to.
EVERYONE = "everyone"


@dataclass(frozen=True)
class Token:
    """A token on a space: its owner, value (None while unknown) and face."""

    owner: str
    space: str
    value: int | None
    face_up: bool
    order: int  # the move number that placed it


@dataclass(frozen=True, init=False)
class Play:
    """One move as played: its kind, who made it and its parameters."""

    kind: str
    actor: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, actor: str, args: Mapping[str, Any] | None = None):
        # (a frozen dataclass's own __init__ sets each field through object.__setattr__, twice as
        # slow: a simulation makes a few plays per move)
        self.__dict__.update(kind=kind, actor=actor, args={} if args is None else args)


@dataclass(frozen=True)
class Violation:
    code: str
    message: str
    rule: str  # "move/requirement id"
    cite: Any = None


@dataclass
class State:
    players: tuple[str, ...]
    phase: str
    turn: str
    first: str
    out: tuple[str, ...] = ()
    spaces: dict[str, tuple[Token, ...]] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    ended: bool = False
    moves: int = 0
    setup: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # the public set-up: key -> player -> item
    played: int = 0  # moves offered to the machine, applied or not (the log's count)
    # [spaces, the tokens of every space, their counts by owner and by (owner, value) or None]:
    # kept until the machine changes a space (Machine._program) or ``spaces`` is another mapping
    _tokens: list[Any] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> "State":
        spaces = dict(self.spaces)
        kept = self._tokens
        new = _new_state(State)  # every field set below, without the dataclass's __init__ (a state per move)
        new.__dict__ = {**self.__dict__, "spaces": spaces, "vars": dict(self.vars),
                        "_tokens": [spaces, kept[1], kept[2]] if kept is not None and kept[0] is self.spaces else None}
        return new

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    @property
    def tokens(self) -> list[Token]:
        return list(self.token_list())

    def token_list(self) -> list[Token]:
        """:attr:`tokens` without a copy: the list the state keeps (not to be changed)."""
        kept = self._tokens
        if kept is None or kept[0] is not self.spaces:
            kept = self._tokens = [self.spaces, [t for stack in self.spaces.values() for t in stack], None]
        return kept[1]

    def placed_by(self, player: str) -> list[Token]:
        return [t for t in self.tokens if t.owner == player]

    def placed(self, player: str, value: Any = None) -> int:
        """How many tokens a player has placed (of one value, when given: those whose
        value ``== value``; a token whose value is unknown counts for none)."""
        kept = self._tokens
        counts = kept[2] if kept is not None and kept[0] is self.spaces else None
        if counts is None:
            tokens = self.token_list()
            counts = {}
            for t in tokens:
                counts[t.owner] = counts.get(t.owner, 0) + 1
                if t.value is not None:
                    counts[t.owner, t.value] = counts.get((t.owner, t.value), 0) + 1
            self._tokens[2] = counts  # type: ignore[index]
        if value is None:
            return counts.get(player, 0)
        try:
            return counts.get((player, value), 0)
        except TypeError:  # an unhashable value equals no token's
            return 0


_new_state = object.__new__


@dataclass(frozen=True)
class Seen:
    """One fact a move lets players observe, with the rule that says so and the
    earlier move (1-based number) whose facts it takes back, if any."""

    rule: Observation
    fact: Fact
    withdraws: int | None = None


@dataclass
class Outcome:
    state: State
    violations: list[Violation]
    revealed: list[Token] = field(default_factory=list)
    ended_by: Effect | None = None  # the ``end`` effect that ended the game, if one did
    # with ``play(..., keep_env=True)``: the environment of the new state (as :meth:`Machine.env`
    # gives it, with the move's actor and parameters still set)
    env: dict[str, Any] | None = field(default=None, repr=False, compare=False)


class Machine:
    """Runs a :class:`Ruleset`: start state, legality, next state, observations, legal moves."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.static = static_env(rules)
        self.supply: dict[int, int] = {}
        if rules.tokens is not None:
            raw = self._run(rules.tokens.supply, self.static, "tokens supply")
            self.supply = {int(k): int(v) for k, v in dict(raw).items()}
        self.per_player = sum(self.supply.values())
        self._zones: dict[tuple[str, ...], dict[str, Callable[..., Any]]] = {}
        self._bases: dict[tuple[str, ...], dict[str, Any]] = {}
        self._deals: dict[tuple[str, ...], Deal] = {}
        self._reads = _move_reads(rules)
        # Requirement conditions that read only the rule set's constants
        # (params, options, components): their value is kept once computed.
        static = set(self.static)
        self._foldable = {id(e) for m in rules.moves.values() for r in (*rules.flow.requires, *m.requires)
                          for e in (r.when, r.expr) if e is not None and e.names <= static}
        self._foldable |= {id(e.arg) for m in rules.moves.values() for e in _whens(m.effects)
                           if e.arg.names <= static}
        self._folded: dict[int, bool] = {}
        self._requirements: dict[tuple[int, int, str], Callable[[Mapping[str, Any]], bool]] = {}
        self._tokens_on = rules.tokens is not None
        self._functions = tuple((fn.name, fn.expr, fn.args) for fn in rules.functions.values())
        self._setup: tuple[Any, Namespace] = (None, Namespace({}))  # (a state's set-up, the view of it)
        self._programs: dict[str, tuple[Any, _Step]] = {}  # move kind -> its effects compiled
        self._live: tuple[dict[str, Any], tuple[str, ...], dict[str, Any]] | None = None  # see renew()
        self._outs: tuple[Any, ...] = (None, None)  # see _out_names()
        self._observing: dict[tuple[str, str], list[Expr]] = {}  # see observed_value()

    def reads(self, expr: Expr | None) -> frozenset[str]:
        """The move parameters an expression reads, itself or through the rule file's functions."""
        if expr is None:
            return frozenset()
        own = {attr for base, attr, _c in expr.attributes if base == "move"}
        return frozenset(own.union(*(self._reads.get(n, ()) for n in expr.names)))

    # -- environment -------------------------------------------------------
    def zones(self, players: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
        found = self._zones.get(players)
        if found is None:
            found = self._zones[players] = zone_functions(self.rules, players)
        return found

    def deal(self, players: Iterable[str]) -> Deal:
        """The hidden deal of a table (cached per table)."""
        key = tuple(players)
        found = self._deals.get(key)
        if found is None:
            found = self._deals[key] = build_deal(self.rules, key, self.static)
        return found

    def _base(self, players: tuple[str, ...]) -> dict[str, Any]:
        """The names that depend on the table only (built once per table)."""
        found = self._bases.get(players)
        if found is None:
            found = self._bases[players] = {
                **self.static, **self.zones(players), "players": list(players), "n_players": len(players),
                "everyone": EVERYONE, "unknown": UNKNOWN}
        return found

    def env(self, state: State, actor: str | None = None, move: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every name a rule expression may read (:mod:`spec.names`), for this state.

        Functions and state variables read ``state`` as it is when they run;
        a move's effects update the rest as they change the state (:meth:`_program`).
        """
        env = self._state_names(state, actor, move, dict(self._base(state.players)))
        for name, expr, args in self._functions:
            env[name] = _bind(expr, args, env)
        return env

    def renew(self, env: dict[str, Any], state: State, actor: str | None = None,
              move: Mapping[str, Any] | None = None, since: State | None = None) -> dict[str, Any]:
        """``env`` made :meth:`env` of ``state`` in place (and returned): what :meth:`env` would
        give, the rule functions bound to ``env`` once for all its states.  For a caller that
        asks of one state at a time (a simulation): no new environment, nor functions, per state.
        ``env`` is one this machine made (by :meth:`env`, :meth:`renew` or ``{}``); whoever
        held it for another state now holds this state's.  ``since``: the state ``env`` is
        the environment of now, of which ``state`` is a copy not yet changed (:meth:`play`):
        then only what a copy changes is renewed.

        >>> from ruleslawyer.spec.loader import load_rules, rules_dir
        >>> m = Machine(next(r for r in map(load_rules, map(str, sorted(rules_dir().glob("*.yaml")))) if r.tokens))
        >>> a, b = m.start(["Ann", "Bob", "Cat"]), m.start(["Ann", "Bob", "Cat"], "Bob")
        >>> env = m.renew({}, a)
        >>> m.renew(env, b) is env, env["turn"], env.keys() == m.env(b).keys()
        (True, 'Bob', True)
        """
        live = self._live
        if live is None or live[0] is not env or live[1] != state.players:
            env.update(self._base(state.players))
            bound = {name: _bind(expr, args, env) for name, expr, args in self._functions}
            live = self._live = (env, state.players, bound)
            since = None
        env.update(live[2])  # the functions as bound (a caller may have set others in their place)
        if since is not None and since.players is state.players:
            return self._copied_names(state, actor, move, env)
        return self._state_names(state, actor, move, env)

    def _state_names(self, state: State, actor: str | None, move: Mapping[str, Any] | None,
                     env: dict[str, Any]) -> dict[str, Any]:
        """The names that depend on the state, set in ``env`` (which holds the table's)."""
        players = state.players
        setup = self._setup
        if setup[0] is not state.setup:  # the same set-up all game long: one view of it
            setup = self._setup = (state.setup, Namespace({k: dict(v) for k, v in state.setup.items()}))
        out = state.out
        env["first"] = state.first
        env["out"], env["next_active"] = self._out_names(players, out)
        env["setup"] = setup[1]
        env["move_number"] = state.played + 1
        env["phase"] = state.phase
        env["turn"] = state.turn
        env["active"] = [p for p in players if p not in out] if out else list(players)
        env["ended"] = state.ended
        return self._copied_names(state, actor, move, env)

    def _copied_names(self, state: State, actor: str | None, move: Mapping[str, Any] | None,
                      env: dict[str, Any]) -> dict[str, Any]:
        """The names a copy of a state changes (its variables, its spaces), and who moves and how."""
        env["actor"] = actor
        env["move"] = Namespace(move) if move else _NO_MOVE
        env["vars"] = Namespace.of(state.vars)
        if self._tokens_on:
            per_player, supply = self.per_player, self.supply
            env["spaces"] = _Spaces(state.spaces)
            env["tokens"] = state.token_list()
            env["tokens_left"] = lambda p: per_player - state.placed(p)
            env["tokens_left_of"] = lambda p, v: supply.get(int(v), 0) - state.placed(p, v)
        return env

    def _out_names(self, players: tuple[str, ...], out: tuple[str, ...]) -> tuple[frozenset[str], Callable[..., str]]:
        """``out`` and ``next_active`` of a table with these players out (the last kept: they
        change only when a player goes out)."""
        kept = self._outs
        if kept[0] is not players or kept[1] is not out:
            kept = self._outs = (players, out, frozenset(out), _next_active(players, out))
        return kept[2], kept[3]

    def _run(self, expr: Expr, env: Mapping[str, Any], where: str) -> Any:
        try:
            return expr.run(env)
        except ExprError as exc:
            raise RuleError(f"{where}: {expr.source}: {exc}") from None

    # -- start ---------------------------------------------------------------
    def start(self, players: Iterable[str], first: str | None = None,
              setup: Mapping[str, Mapping[str, Any]] | None = None) -> State:
        """The state before the first move; ``setup`` is the log's public set-up
        (record key -> player -> item), read by rule expressions as ``setup``."""
        players = tuple(players)
        first = first or players[0]
        spaces = {c: () for c in self.rules.components[self.rules.tokens.on].items} if self.rules.tokens else {}
        state = State(players=players, phase=self.rules.flow.start_phase, turn=first, first=first, spaces=spaces,
                      setup={k: dict(v) for k, v in (setup or {}).items()})
        env = self.env(state)
        for name, var in self.rules.state.items():
            state.vars[name] = self._run(var.init, env, f"state {name}")
        state.turn = self._run(self.rules.flow.start_turn, self.env(state), "flow start")
        return state

    # -- legality --------------------------------------------------------------
    def check(self, state: State, play: Play) -> list[Violation]:
        """Every rule the move breaks (empty when legal)."""
        move = self.rules.moves.get(play.kind)
        if move is None:
            return [Violation("RL128", f"unknown move '{play.kind}'", play.kind)]
        if play.actor not in state.players:
            return [Violation(MALFORMED, f"'{play.actor}' is not a player", move.name)]
        return self._check(state, play, move)[0]

    def _check(self, state: State, play: Play, move: Move) -> tuple[list[Violation], dict[str, Any]]:
        """:meth:`check` of a known move and player, with the environment it built."""
        env = self.env(state, play.actor, self._args(move, play))
        missing = self.missing_of(move, play)
        out = self._check_params(move, play, env, missing)
        if any(v.code == MALFORMED for v in out):
            return out, env
        for req in (*self.rules.flow.requires, *move.requires):
            if missing and missing & (self.reads(req.when) | self.reads(req.expr)):
                continue  # reads a parameter the move lacks (reported above)
            if not self.holds(req.when, req.expr, env, f"{move.name}/{req.id}"):
                out.append(Violation(req.code, req.message.render(env), f"{move.name}/{req.id}", req.cite))
        return out, env

    def holds(self, when: Expr | None, expr: Expr, env: Mapping[str, Any], where: str) -> bool:
        """Whether a requirement holds: its condition is false, or its expression true.
        A condition or expression that reads only the rule set's constants is computed once.
        (One frame for both: the lab checks requirements by the thousand.)"""
        folded = self._folded
        if when is not None:
            value = folded.get(id(when))
            if value is None:
                value = self._truth(when, env, where)
            if not value:
                return True
        value = folded.get(id(expr))
        return self._truth(expr, env, where) if value is None else value

    def fact_holds(self, when: Expr | None, fact: Expr, env: Mapping[str, Any], where: str,
                   world: Mapping[str, str]) -> bool:
        """Whether an observation is true in a deal (or its condition false)."""
        if when is not None and not self._truth(when, env, where):
            return True
        value = self._run(fact, env, where)
        if isinstance(value, bool):
            return value
        return bool(value.holds(world))

    def _truth(self, expr: Expr, env: Mapping[str, Any], where: str) -> bool:
        """A condition's truth; one that reads only the rule set's constants is kept (see holds)."""
        value = _boolean(self._run(expr, env, where), expr, where)
        if id(expr) in self._foldable:
            self._folded[id(expr)] = value
        return value

    def requirement(self, when: Expr | None, expr: Expr, where: str) -> Callable[[Mapping[str, Any]], bool]:
        """:meth:`holds` of one requirement as one function of the environment, made once
        (the lab checks requirements by the thousand): the same answers, the same errors,
        e.g. ``machine.requirement(None, compile_expr("actor == turn"), "w")(env)``.
        """
        key = (id(when), id(expr), where)
        found = self._requirements.get(key)
        if found is None:
            found = self._requirements[key] = self._requirement(when, expr, where)
        return found

    def _requirement(self, when: Expr | None, expr: Expr, where: str) -> Callable[[Mapping[str, Any]], bool]:
        foldable = self._foldable
        if id(expr) in foldable or (when is not None and id(when) in foldable):
            holds = self.holds
            return lambda env: holds(when, expr, env, where)  # the constants' value is kept there
        check = _truth_of(expr, where)
        if when is None:
            return truth_of(None, expr, check)  # the same, in one frame
        condition = _truth_of(when, where)
        return truth_of(when, expr, lambda env: not condition(env) or check(env))

    def missing_of(self, move: Move, play: Play) -> set[str]:
        """Required parameters the move does not give."""
        return {p.name for p in move.params
                if not p.optional and p.default is None and play.args.get(p.name) is None}

    def missing(self, play: Play) -> set[str]:
        """Required parameters a move does not give (empty for an unknown move)."""
        move = self.rules.moves.get(play.kind)
        return self.missing_of(move, play) if move is not None else set()

    def param_values(self, p: MoveParam, env: Mapping[str, Any], state: State) -> list[Any]:
        """Every value a parameter may take now (a count from 0 to its maximum)."""
        if p.type == "count":
            top = self._run(p.max, env, p.name) if p.max is not None else None
            return list(range(int(top) + 1)) if isinstance(top, int) and not isinstance(top, bool) else []
        if p.type in CHOICE_TYPES:
            return self._options(p, env, state)
        return []

    def _args(self, move: Move, play: Play) -> dict[str, Any]:
        """The move's parameters as expressions read them (an absent one: its default, else none)."""
        return {p.name: p.default if play.args.get(p.name) is None else play.args.get(p.name) for p in move.params}

    def _check_params(self, move: Move, play: Play, env: Mapping[str, Any], missing: set[str]) -> list[Violation]:
        out = []
        for p in move.params:
            value = play.args.get(p.name)
            if p.name in missing:
                out.append(Violation(p.code or MALFORMED, f"{move.name} needs '{p.name}'", f"{move.name}/{p.name}", p.cite))
                continue
            if value is None:
                continue
            problem = self._param_problem(p, value, env, play)
            if problem:
                out.append(Violation(p.code or MALFORMED, problem, f"{move.name}/{p.name}", p.cite))
        for extra in set(play.args) - {p.name for p in move.params}:
            out.append(Violation(MALFORMED, f"{move.name} takes no '{extra}'", move.name))
        return out

    def _param_problem(self, p: MoveParam, value: Any, env: Mapping[str, Any], play: Play) -> str | None:
        rules = self.rules
        if p.type == "choice":
            return None if value in p.values else f"{p.name} must be one of {', '.join(map(str, p.values))}"
        if p.type == "flag":
            return None if isinstance(value, bool) else f"{p.name} must be true or false"
        if p.type in ("item", "items"):
            comp = rules.components[p.of]  # type: ignore[index]
            kinds = [rules.components[c] for c in p.components or (p.of,)]  # type: ignore[index]
            members = {i for k in kinds for i in k.items}
            if p.type == "item":
                if value is UNKNOWN and p.unknown:
                    return None
                return None if isinstance(value, str) and value in members else f"'{value}' is not a {comp.noun}"
            nouns = " or ".join(f"{k.noun}s" for k in kinds)
            if not isinstance(value, (list, tuple)) or any(not isinstance(c, str) or c not in members for c in value):
                return f"{p.name} must be a list of {nouns}"
            if p.one_component and len(kinds) > 1:
                used = [k for k in kinds if any(c in k.items for c in value)]
                if len(used) > 1:
                    return f"{p.name} mixes {' and '.join(f'{k.noun}s' for k in used)}: name {nouns}, not both"
            size = self._run(p.size, env, p.name) if p.size is not None else None
            if size is not None and len(value) != size:
                return f"{len(value)} {comp.noun}(s) named where {size} are needed"
            if p.distinct:
                kinds = [rules.items[c].attrs.get(p.distinct) for c in value]
                dup = sorted({str(k) for k in kinds if kinds.count(k) > 1})
                if dup:
                    return f"more than one {comp.noun} of {p.distinct} {', '.join(dup)}"
            return None
        if p.type == "count":
            top = self._run(p.max, env, p.name) if p.max is not None else None
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (top is not None and value > top):
                return f"{p.name} must be a whole number from 0 to {top}"
            return None
        if p.type == "player":
            return None if value in env["players"] else f"'{value}' is not a player"
        noun = rules.tokens.noun if rules.tokens else "token"
        if p.type == "token_value":
            return None if value in self.supply else f"no {noun} of value {value!r} (values: {sorted(self.supply)})"
        if p.type == "token_reveals":
            if not isinstance(value, (list, tuple)):
                return f"{p.name} must be a list"
            for item in value:
                v = item[1] if isinstance(item, tuple) else item
                if v not in self.supply:
                    return f"no {noun} of value {v!r}"
        return None

    def available(self, state: State, actor: str, kind: str) -> bool:
        """Whether a player may make this kind of move now, whatever its parameters:
        every requirement that does not read the move's parameters holds."""
        move = self.rules.moves.get(kind)
        if move is None or actor not in state.players:
            return False
        env = self.env(state, actor, dict.fromkeys((p.name for p in move.params), None))
        for req in (*self.rules.flow.requires, *move.requires):
            if any(base == "move" for expr in (req.when, req.expr) if expr for base, _a, _c in expr.attributes):
                continue
            try:
                if req.when is not None and not self._truth(req.when, env, f"{move.name}/{req.id}"):
                    continue
                if not self._truth(req.expr, env, f"{move.name}/{req.id}"):
                    return False
            except RuleError:  # it reads the move after all (through a function): it decides nothing yet
                continue
        return True

    def due(self, state: State) -> list[tuple[str, str]]:
        """The moves the rules oblige someone to make now (each move's ``due:``), as
        ``(player, kind)``, when the kind is open to that player (:meth:`available`)."""
        if state.ended:
            return []
        out: list[tuple[str, str]] = []
        for kind, move in self.rules.moves.items():
            if move.due is None:
                continue
            env = self.env(state, None, dict.fromkeys((p.name for p in move.params), None))
            try:
                who = self._run(move.due, env, f"{kind}/due")
            except RuleError:  # it reads the move after all: it names nobody yet
                continue
            if isinstance(who, str) and who in state.players and self.available(state, who, kind):
                out.append((who, kind))
        return out

    def is_legal(self, state: State, play: Play) -> bool:
        return not self.check(state, play)

    # -- next state ------------------------------------------------------------
    def play(self, state: State, play: Play, legal: bool = False, keep_env: bool = False,
             into: dict[str, Any] | None = None, into_holds: State | None = None) -> Outcome:
        """Apply a move as played (legal or not) and list what it breaks.

        ``legal=True``: the caller has just checked the move in this state
        (a simulation); it is applied without checking it again.
        ``keep_env=True``: the outcome keeps the environment of the new state.
        ``into``: an environment to :meth:`renew` as the new state's, rather than a new one
        (it is the caller's: never emptied here); ``into_holds``: the state whose environment
        ``into`` is now, when the caller knows it (see :meth:`renew`'s ``since``).
        """
        move = self.rules.moves.get(play.kind)
        if move is None or play.actor not in state.players:
            new = state.copy()
            new.played += 1
            return Outcome(new, self.check(state, play))
        violations = [] if legal else self._check(state, play, move)[0]
        new = state.copy()
        outcome = Outcome(new, violations)
        if not legal and (any(v.code == MALFORMED for v in violations) or self.missing_of(move, play)):
            new.played += 1
            return outcome  # a move that lacks what it needs cannot be applied
        new.moves += 1
        args = self._args(move, play)
        env = self.env(new, play.actor, args) if into is None else \
            self.renew(into, new, play.actor, args, since=state if into_holds is state else None)
        fast, exact = self._program(play.kind)
        done = fast(env, new, play, args, outcome) if fast is not None else None
        if not done:
            if done is False:  # the generated function failed along the way: from the copy again
                new = state.copy()
                new.moves += 1
                outcome = Outcome(new, violations)
                if into is None:
                    env.clear()  # (as below: a cycle through its bound rule functions)
                    env = self.env(new, play.actor, args)
                else:
                    env = self.renew(into, new, play.actor, args)
            exact(new, play, args, outcome, env)
        new.played += 1  # after the effects, which read this move's number
        if keep_env or into is not None:
            env["move_number"] = new.played + 1
            if keep_env:
                outcome.env = env
        else:
            env.clear()  # its bound rule functions refer to it: a cycle the garbage collector would free
        return outcome

    def _program(self, kind: str) -> tuple[Any, "_Step"]:
        """A move kind's effects, compiled once: one generated function that runs them all
        (:func:`~ruleslawyer.spec.expr.program`, or None), and the same steps as closures
        (the exact way).  What each effect reads and writes is settled here, and after each
        effect only the names it changed are updated in the environment (state variables
        are read through a live view)."""
        found = self._programs.get(kind)
        if found is None:
            plan = self._plan(kind, self.rules.moves[kind].effects)
            found = self._programs[kind] = (program(plan, 4), self._exact(plan))
        return found

    def _plan(self, kind: str, effects: Iterable[Effect]) -> list[tuple[Any, ...]]:
        """Effects as the steps of :func:`~ruleslawyer.spec.expr.program`: ``("do", act,
        values, where)``, every value taken (an expression, or ``(constant,)`` when the
        rule set's constants settle it) before ``act(state, play, args, outcome, env,
        *values)``; ``("if", condition, then, otherwise, where)``."""
        steps: list[tuple[Any, ...]] = []
        for eff in effects:
            where = f"{kind} effect {eff.verb}"
            if eff.verb == "when":
                then, other = self._plan(kind, eff.then), self._plan(kind, eff.otherwise)
                fixed = self._constant(eff.arg)
                if fixed is not None and isinstance(fixed[0], bool):  # the rule set's constants decide
                    steps.extend(then if fixed[0] else other)
                else:
                    steps.append(("if", eff.arg, then, other, where))
                continue
            for act, values in self._acts(kind, eff, where):
                steps.append(("do", act, [self._constant(e) or e for e in values], where))
        return steps

    def _acts(self, kind: str, eff: Effect, where: str) -> list[tuple["_Act", list[Expr]]]:
        """What an effect does, as (act, the expressions whose values it takes)."""
        verb, arg = eff.verb, eff.arg
        if verb == "set":
            names = tuple(name for name, _e in arg)

            def set_(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any],
                     *values: Any) -> None:
                s.vars.update(zip(names, values))  # every value taken before any is set
            return [(set_, [e for _name, e in arg])]
        if verb in ("add", "remove"):  # one variable after the other (a value may read the one before)
            return [(_changing(name, verb == "add", where), [e]) for name, e in arg]
        if verb == "reveal_tokens":
            param = self.rules.moves[kind].param_of_type("token_reveals")

            def reveal(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any],
                       space: Any) -> None:
                stack = s.spaces.get(space) if isinstance(space, str) else None
                if stack is not None and all(t.face_up for t in stack):
                    return  # nothing to turn: the board as it was
                s._tokens = None
                out.revealed.extend(self._reveal(s, space, args.get(param.name) if param else None))
                env["tokens"] = s.token_list()
            return [(reveal, [arg])]
        if verb == "place_token":
            space_of, value_of = arg

            def place(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any],
                      space: Any, value: Any = None) -> None:
                kept = s._tokens
                counts = kept[2] if kept is not None and kept[0] is s.spaces else None
                s.spaces[space] = s.spaces.get(space, ()) + (Token(play.actor, space, value, False, s.moves),)
                s._tokens = None
                env["tokens"] = s.token_list()
                if counts is not None and (value is None or isinstance(value, int)):
                    # State.placed's counts, one more token (the list is made anew)
                    counts = dict(counts)
                    counts[play.actor] = counts.get(play.actor, 0) + 1
                    if value is not None:
                        counts[play.actor, value] = counts.get((play.actor, value), 0) + 1
                    s._tokens[2] = counts  # type: ignore[index]
            return [(place, [space_of] if value_of is None else [space_of, value_of])]
        if verb == "eliminate":
            def eliminate(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any],
                          who: Any) -> None:
                if who not in s.out:
                    s.out = s.out + (who,)
                env["out"], env["next_active"] = self._out_names(s.players, s.out)
                env["active"] = s.active
            return [(eliminate, [arg])]
        if verb == "phase":
            def phase(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
                s.phase = env["phase"] = arg
            return [(phase, [])]
        if verb == "turn":
            def turn(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any],
                     player: Any) -> None:
                s.turn = env["turn"] = player
            return [(turn, [arg])]
        if verb == "end":
            def end(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
                s.ended = env["ended"] = True
                out.ended_by = eff
            return [(end, [])]
        raise RuleError(f"{where}: an effect the machine does not know")  # pragma: no cover - the loader refuses it

    def _exact(self, plan: list[tuple[Any, ...]]) -> "_Step":
        """The steps of :meth:`_plan` as closures, each expression run by :meth:`_run` (its
        error a RuleError that says where)."""
        steps = [self._exact_step(step) for step in plan]
        if len(steps) == 1:
            return steps[0]

        def run(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
            for step in steps:
                step(s, play, args, out, env)
        return run

    def _exact_step(self, step: tuple[Any, ...]) -> "_Step":
        run = self._run
        if step[0] == "if":
            _if, cond, then_plan, other_plan, where = step
            then, other = self._exact(then_plan), self._exact(other_plan)
            truth = self.requirement(None, cond, where)  # the same truth, constants kept

            def when(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
                (then if truth(env) else other)(s, play, args, out, env)
            return when
        _do, act, values, where = step
        if not values:
            return act
        if len(values) == 1 and not isinstance(values[0], tuple):
            e = values[0]

            def do1(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
                act(s, play, args, out, env, run(e, env, where))
            return do1

        def do(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any]) -> None:
            act(s, play, args, out, env, *[v[0] if isinstance(v, tuple) else run(v, env, where) for v in values])
        return do

    def evaluated(self, expr: Expr, names: Mapping[str, Any]) -> tuple[Any] | None:
        """(value,) of an expression that reads only ``names`` and built-in functions, else
        None (None too when it fails: it is left to fail where the rules run it).  With the
        rule set's constants (:attr:`static`) as ``names``: what they settle, once."""
        functions = self.rules.functions
        if any(n not in names and (n not in FUNCTIONS or n in functions) for n in expr.names):
            return None
        try:
            return (expr.run(dict(names)),)
        except Exception:  # noqa: BLE001 - see above
            return None

    def _constant(self, expr: Expr) -> tuple[Any] | None:
        """:meth:`evaluated` over the rule set's constants, when the value cannot change (a
        number, a text, a frozen set...): an effect's value computed once."""
        found = self.evaluated(expr, self.static)
        return found if found is not None and _immutable(found[0]) else None

    def _reveal(self, s: State, space: str, reveals: Any) -> list[Token]:
        """Turn face up the face-down tokens of a space.

        A value the move gives with its owner's name becomes that owner's
        token's value (unless it had one).  Values given without owners are
        assigned only when that is unambiguous (they are all the same, one
        for each token left); otherwise which token shows which is for a
        ledger of hidden values to deduce.
        """
        named = [item for item in (reveals or []) if isinstance(item, tuple)]
        plain = [item for item in (reveals or []) if not isinstance(item, tuple)]
        stack, revealed = list(s.spaces.get(space, ())), []
        down = [i for i, tok in enumerate(stack) if not tok.face_up]
        for i in down:
            tok = stack[i]
            value = tok.value
            for j, (owner, v) in enumerate(named):
                if owner == tok.owner:
                    value = v if tok.value is None else tok.value
                    named.pop(j)
                    break
            stack[i] = Token(tok.owner, tok.space, value, True, tok.order)  # (dataclasses.replace, without its cost)
        unknown = [i for i in down if stack[i].value is None]
        if plain and len(set(plain)) == 1 and len(plain) == len(unknown):
            for i in unknown:
                stack[i] = replace(stack[i], value=plain[0])
        revealed = [stack[i] for i in down]
        s.spaces[space] = tuple(stack)
        return revealed

    # -- observations ------------------------------------------------------------
    def observations(self, state: State, play: Play, source: Any = None) -> list[Fact]:
        """The facts a move lets players learn (its ``observe:`` rules), each with its viewers.

        ``state`` is the state *before* the move.
        """
        return [seen.fact for seen in self.observed(state, play, source)]

    def observed(self, state: State, play: Play, source: Any = None) -> list[Seen]:
        """As :meth:`observations`, each fact with its rule and the earlier move it takes back."""
        move = self.rules.moves.get(play.kind)
        if move is None or not move.observe:
            return []
        env = self.env(state, play.actor, self._args(move, play))
        out = []
        for ob in move.observe:
            where = f"{move.name} observe"
            if ob.when is not None and not self._truth(ob.when, env, where):
                continue
            fact = self._run(ob.fact, env, where)
            if isinstance(fact, bool):
                fact = Const(fact)
            if not is_formula(fact):
                raise RuleError(f"{where}: {ob.fact.source}: a fact must say something about hidden cards")
            viewers = _viewers(self._run(ob.seen_by, env, where), state.players, where)
            text = ob.says.render(env) if ob.says is not None else None
            withdraws = None
            if ob.withdraws is not None:
                withdraws = self._run(ob.withdraws, env, where)
                if withdraws is not None and (isinstance(withdraws, bool) or not isinstance(withdraws, int)):
                    raise RuleError(f"{where}: withdraws: {ob.withdraws.source}: a move number, not {withdraws!r}")
            likelihood = self._chosen_among(ob, env, where) if ob.chosen_among is not None else None
            out.append(Seen(ob, Fact(fact, viewers, source, text, likelihood), withdraws))
        return out

    def _chosen_among(self, ob: Observation, env: dict[str, Any], where: str) -> Lin | tuple | None:
        """An observation's ``chosen_among``: a count of the deal (or a whole number), the
        choices as a list of facts (those that hold are open), or None."""
        k = self._run(ob.chosen_among, env, where)
        if k is None:
            return None
        if isinstance(k, (list, tuple)):
            choices = tuple(Const(c) if isinstance(c, bool) else c for c in k)
            if not choices or not all(is_formula(c) for c in choices):
                raise RuleError(f"{where}: chosen_among: {ob.chosen_among.source}: a list of the choices "
                                f"as facts, not {k!r}")
            return choices
        if isinstance(k, int) and not isinstance(k, bool):
            if k < 1:
                raise RuleError(f"{where}: chosen_among: {ob.chosen_among.source}: a choice among {k}")
            return None  # the same number in every world weighs them all alike
        if not isinstance(k, Lin):
            raise RuleError(f"{where}: chosen_among: {ob.chosen_among.source}: a count of cards "
                            f"(or none), not {k!r}")
        return k

    def claim(self, state: State, play: Play, env: dict[str, Any] | None = None) -> Any:
        """The fact about the deal a move asserts (its ``claims:``), or None; ``state`` is before the move.
        ``env``: an environment of ``state`` to use instead of a new one (its ``actor`` and
        ``move`` set here: a caller that reads the claims of many moves from one state)."""
        move = self.rules.moves.get(play.kind)
        if move is None or move.claims is None:
            return None
        if env is None:
            env = self.env(state, play.actor, self._args(move, play))
        else:
            env["actor"], env["move"] = play.actor, Namespace(self._args(move, play))
        fact = self._run(move.claims, env, f"{move.name} claims")
        if fact is None:  # the move claims nothing this time (its log does not say what)
            return None
        if isinstance(fact, bool):
            fact = Const(fact)
        if not is_formula(fact):
            raise RuleError(f"{move.name} claims: {move.claims.source}: a claim must say something about hidden cards")
        return fact

    def observed_value(self, state: State, play: Play, param: str, world: Mapping[str, str],
                       env: dict[str, Any] | None = None) -> int | None:
        """The value of a result parameter (``count``) in a given deal, for simulation.

        The observation must compare a count of cards with ``move.<param>``.
        ``env``: an environment of ``state`` with ``actor`` set, to use instead of a new one.
        """
        return self.observed_by(state, play, param, world, env)[0]

    def observed_by(self, state: State, play: Play, param: str, world: Mapping[str, str],
                    env: dict[str, Any] | None = None) -> tuple[int | None, Expr | None]:
        """:meth:`observed_value`, with the observation's fact that gave it (None, None: none did)."""
        move = self.rules.moves[play.kind]
        args = {**self._args(move, play), param: 0}
        if env is None:
            env = self.env(state, play.actor, args)
        else:
            env["move"] = Namespace(args)
        key = (play.kind, param)
        facts = self._observing.get(key)
        if facts is None:  # the observations whose fact reads the parameter
            facts = self._observing[key] = [ob.fact for ob in move.observe
                                            if param in {a for b, a, _c in ob.fact.attributes if b == "move"}]
        for expr in facts:
            fact = self._run(expr, env, f"{move.name} observe")
            if is_formula(fact) and getattr(fact, "op", None) == "==":
                return fact.lin.value(world) - fact.value, expr  # type: ignore[union-attr]
        return None, None

    # -- choices -----------------------------------------------------------------
    def choices(self, state: State, actor: str, kind: str) -> Iterator[dict[str, Any]]:
        """Every assignment of the *choice* parameters of a move (legal or not)."""
        move = self.rules.moves[kind]
        env = self.env(state, actor)
        axes = [(p.name, self._options(p, env, state)) for p in move.params if _is_choice(p)]
        for values in itertools.product(*(vals for _n, vals in axes)):
            yield dict(zip((n for n, _v in axes), values))

    def _options(self, p: MoveParam, env: Mapping[str, Any], state: State) -> list[Any]:
        if p.type == "choice":
            return list(p.values)
        if p.type == "flag":
            return [False, True]
        if p.type == "item":
            return list(self.rules.components[p.of].items)  # type: ignore[index]
        if p.type == "token_value":
            return sorted(self.supply)
        if p.type == "player":
            return list(state.players)
        items = list(self.rules.components[p.of].items)  # type: ignore[index]
        size = self._run(p.size, env, p.name) if p.size is not None else len(items)
        if not p.distinct:
            return [list(c) for c in itertools.combinations(items, size)]
        groups = _groups(self.rules, items, p.distinct)
        combos = []
        for chosen in itertools.combinations(groups, size):
            combos.extend(list(c) for c in itertools.product(*chosen))
        return combos

    def legal_moves(self, state: State) -> Iterator[Play]:
        """The legal moves now, with result parameters (observed counts) left out.

        Result parameters are what the table observes, not what the player
        chooses: :meth:`resolve` fills them in from a deal.
        """
        for actor in state.players:
            for kind, move in self.rules.moves.items():
                for args in self.choices(state, actor, kind):
                    full = {**args, **self._placeholder_results(move)}
                    if self.is_legal(state, Play(kind, actor, full)):
                        yield Play(kind, actor, args)

    def _placeholder_results(self, move: Move) -> dict[str, Any]:
        return {p.name: 0 for p in move.params if p.type == "count"}

    def resolve(self, state: State, play: Play, world: Mapping[str, str]) -> Play:
        """Fill a move's result parameters from a known deal (for simulation)."""
        move = self.rules.moves[play.kind]
        args = dict(play.args)
        for p in move.params:
            if p.type == "count":
                value = self.observed_value(state, play, p.name, world)
                if value is not None:
                    args[p.name] = value
        return Play(play.kind, play.actor, args)

    def random_play(self, state: State, rng: random.Random, world: Mapping[str, str],
                    tries: int = 200, weights: Mapping[str, float] | None = None) -> Play | None:
        """A random legal move with its observed results computed from the deal.

        ``weights`` (move kind -> relative weight, default 1) biases the kind
        tried, e.g. to make moves that end the game rare so that games last.
        """
        actors = [state.turn] if state.turn not in state.out else state.active
        kinds = list(self.rules.moves)
        kind_weights = [float((weights or {}).get(k, 1.0)) for k in kinds]
        for _ in range(tries):
            actor = rng.choice(actors)
            kind = rng.choice(kinds) if weights is None else rng.choices(kinds, kind_weights)[0]
            args = self._random_choice(state, actor, kind, rng)
            play = self.resolve(state, Play(kind, actor, args), world)
            if not self.check(state, play):
                return play
        return None

    def _random_choice(self, state: State, actor: str, kind: str, rng: random.Random) -> dict[str, Any]:
        move = self.rules.moves[kind]
        env = self.env(state, actor)
        args: dict[str, Any] = {}
        for p in move.params:
            if not _is_choice(p):
                continue
            if p.type == "item":
                args[p.name] = rng.choice(list(self.rules.components[p.of].items))  # type: ignore[index]
            elif p.type in ("choice", "flag"):
                args[p.name] = rng.choice(list(p.values) if p.type == "choice" else [False, True])
            elif p.type == "player":
                args[p.name] = rng.choice(list(state.players))
            elif p.type == "token_value":
                left = [v for v in sorted(self.supply)
                        if self.supply[v] > sum(1 for t in state.placed_by(actor) if t.value == v)]
                args[p.name] = rng.choice(left) if left else rng.choice(sorted(self.supply))
            elif p.type == "items":
                items = list(self.rules.components[p.of].items)  # type: ignore[index]
                size = self._run(p.size, env, p.name) if p.size is not None else len(items)
                if p.distinct:
                    groups = _groups(self.rules, items, p.distinct)
                    chosen = sorted(rng.sample(range(len(groups)), size))
                    args[p.name] = [rng.choice(groups[g]) for g in chosen]
                else:
                    args[p.name] = rng.sample(items, size)
        return args


#: An effect compiled (see Machine._program): (new state, play, its parameters, outcome, environment).
_Step = Callable[[State, Play, dict, Outcome, dict], None]
_Act = Callable[..., None]  # _Step, then the values it takes


def _move_reads(rules: Ruleset) -> dict[str, frozenset[str]]:
    """Per function of the rule file, the move parameters it reads, through the functions it calls too."""
    direct = {name: ({attr for base, attr, _c in fn.expr.attributes if base == "move"},
                     {n for n in fn.expr.names if n in rules.functions}) for name, fn in rules.functions.items()}
    out: dict[str, frozenset[str]] = {}
    for name in direct:
        seen, todo, reads = {name}, [name], set()
        while todo:
            attrs, calls = direct[todo.pop()]
            reads |= attrs
            for c in calls - seen:
                seen.add(c)
                todo.append(c)
        out[name] = frozenset(reads)
    return out


def _next_active(players: tuple[str, ...], out: tuple[str, ...]) -> Callable[..., str]:
    """The rule language's ``next_active(player, step=1)`` for a table with these players out."""
    def next_active(player: str, step: int = 1) -> str:
        if player not in players or isinstance(step, bool) or not isinstance(step, int) or step == 0:
            raise ExprError(f"next_active({player!r}, {step!r}): a player and a step of +1 or -1")
        i = players.index(player)
        for k in range(1, len(players) + 1):
            cand = players[(i + k * step) % len(players)]
            if cand not in out:
                return cand
        return player
    return next_active


def _immutable(value: Any) -> bool:
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(v) for v in value)
    return value is None or isinstance(value, (bool, int, str))


def _whens(effects: Iterable[Effect]) -> Iterator[Effect]:
    """Every ``when`` effect, nested ones too."""
    for eff in effects:
        if eff.verb == "when":
            yield eff
            yield from _whens(eff.then)
            yield from _whens(eff.otherwise)


def _is_choice(p: MoveParam) -> bool:
    """A parameter the player chooses (a list without a size records the table's choice)."""
    return decided_by(p) == "mover"


def _groups(rules: Ruleset, items: list[str], attr: str) -> list[list[str]]:
    """Items grouped by an attribute's value, groups in order of first appearance."""
    groups: dict[str, list[str]] = {}
    for i in items:
        groups.setdefault(rules.items[i].attrs.get(attr, ""), []).append(i)
    return list(groups.values())


def _changing(name: str, add: bool, where: str) -> _Act:
    """The act of ``add``/``remove`` on one state variable."""
    def change(s: State, play: Play, args: dict[str, Any], out: Outcome, env: dict[str, Any], value: Any) -> None:
        s.vars[name] = _change(s.vars.get(name), value, add, where)
    return change


def _change(current: Any, value: Any, add: bool, where: str) -> Any:
    """A set-valued (or list-valued) state variable with items added or removed."""
    many = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
    if isinstance(current, frozenset):
        return current | frozenset(many) if add else current - frozenset(many)
    if isinstance(current, list):
        return current + many if add else [x for x in current if x not in many]
    raise RuleError(f"{where}: add and remove need a set or list state variable, not {type(current).__name__}")


def _viewers(value: Any, players: tuple[str, ...], where: str) -> frozenset[str] | None:
    if value == EVERYONE:
        return None
    names = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple, set, frozenset)) else None
    if names is None or any(n not in players for n in names):
        raise RuleError(f"{where}: seen_by must be everyone, a player or a list of players, not {value!r}")
    return frozenset(names)


class _Spaces(Mapping[str, tuple[Token, ...]]):
    def __init__(self, data: Mapping[str, tuple[Token, ...]]):
        self._data = data

    def __getitem__(self, key: str) -> list[Token]:  # type: ignore[override]
        return list(self._data.get(key, ()))

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


_NO_MOVE = Namespace({})  # ``move`` when no move is being made (read-only: never changed)


def _truth_of(expr: Expr, where: str) -> Callable[[Mapping[str, Any]], bool]:
    """The truth of a condition as a function of the environment (:meth:`Machine._truth`
    without keeping what the constants settle)."""
    run = expr.run

    def truth(env: Mapping[str, Any]) -> bool:
        try:
            value = run(env)
        except ExprError as exc:
            raise RuleError(f"{where}: {expr.source}: {exc}") from None
        return value if value is True or value is False else _boolean(value, expr, where)
    return truth


def _boolean(value: Any, expr: Expr, where: str) -> bool:
    """A condition's value as a truth; a fact about hidden cards is refused."""
    if is_formula(value):
        raise RuleError(f"{where}: {expr.source}: a requirement cannot depend on the hidden deal")
    return bool(value)


def _bind(expr: Expr, names: tuple[str, ...], env: dict[str, Any]) -> Callable[..., Any]:
    def call(*args):  # type: ignore[no-untyped-def]  # made per environment: unannotated, cheaper to make
        if len(args) != len(names):
            raise ExprError(f"expected {len(names)} argument(s), got {len(args)}")
        if type(env) is dict:
            return expr.call(env, names, args)  # the arguments set without a copy of the environment
        return expr.run(Scope(env, zip(names, args)))
    return call
