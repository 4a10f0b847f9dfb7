"""The compiled state machine: which move is legal now, and the next state.

Generic: the engine knows phases, turns, a board of spaces holding counters
(tokens), covers, passes, players out and declared state variables; the rule
file says which moves exist, what each requires and what it does.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from .expr import Expr, ExprError, Namespace
from .model import Effect, Move, MoveParam, Require, Ruleset

__all__ = ["Machine", "State", "Token", "Play", "Outcome", "Violation", "static_env", "RuleError",
           "CHOICE_TYPES", "MALFORMED"]

CHOICE_TYPES = frozenset({"clues", "clue", "counter_value"})
#: A move the machine cannot read: not a player, a parameter it does not take,
#: or a missing or ill-shaped parameter whose rule declares no code of its own.
MALFORMED = "RL150"


class RuleError(Exception):
    """A rule expression failed at run time (a bug in the rule file)."""


@dataclass(frozen=True)
class Token:
    """A counter on a space: its owner, value (None while unknown) and face."""

    owner: str
    clue: str
    value: int | None
    face_up: bool
    order: int  # the move number that placed it


@dataclass(frozen=True)
class Play:
    """One move as played: its kind, who made it and its parameters."""

    kind: str
    actor: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Violation:
    code: str
    message: str
    rule: str  # e.g. "suspect/not-previous"
    cite: Any = None


@dataclass
class State:
    players: tuple[str, ...]
    phase: str
    turn: str
    first: str
    out: tuple[str, ...] = ()
    passed: frozenset[str] = frozenset()
    covered: frozenset[str] = frozenset()
    spaces: dict[str, tuple[Token, ...]] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    ended: bool = False
    moves: int = 0

    def copy(self) -> "State":
        return replace(self, spaces=dict(self.spaces), vars=dict(self.vars))

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    @property
    def tokens(self) -> list[Token]:
        return [t for stack in self.spaces.values() for t in stack]

    def placed_by(self, player: str) -> list[Token]:
        return [t for t in self.tokens if t.owner == player]


@dataclass
class Outcome:
    state: State
    violations: list[Violation]
    revealed: list[Token] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)


def static_env(rules: Ruleset) -> dict[str, Any]:
    """Names that do not depend on the game state."""
    cats = [c.id for c in rules.categories]
    by_cat = {c.id: list(c.clues) for c in rules.categories}
    return {
        "params": Namespace({k: s.value for k, s in rules.params.items()}),
        "options": Namespace({k: o.value for k, o in rules.options.items()}),
        "categories": cats,
        "clues": [c for cat in cats for c in by_cat[cat]],
        "category": rules.category_of,
        "clues_of": lambda k: by_cat[k],
        "name": lambda c: rules.clues[c].name if c in rules.clues else str(c),
    }


class Machine:
    """Runs a :class:`Ruleset`: start state, legality, next state, legal moves."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.static = static_env(rules)
        self.counter_values: dict[int, int] = {int(k): int(v) for k, v in rules.param("counter_values").items()}
        self.per_player = sum(self.counter_values.values())

    # -- environment -------------------------------------------------------
    def env(self, state: State, actor: str | None = None, move: Mapping[str, Any] | None = None) -> dict[str, Any]:
        active = state.active

        def next_active(player: str) -> str:
            i = state.players.index(player)
            for step in range(1, len(state.players) + 1):
                cand = state.players[(i + step) % len(state.players)]
                if cand not in state.out:
                    return cand
            return player

        env: dict[str, Any] = {
            **self.static,
            "players": list(state.players), "n_players": len(state.players), "actor": actor,
            "phase": state.phase, "turn": state.turn, "first": state.first, "out": frozenset(state.out),
            "active": active, "passed": state.passed, "covered": state.covered,
            "spaces": _Spaces(state.spaces), "tokens": state.tokens, "ended": state.ended,
            "vars": Namespace(state.vars), "move": Namespace(move or {}),
            "next_active": next_active,
            "counters_left": lambda p: self.per_player - len(state.placed_by(p)),
            "counters_left_of": lambda p, v: self.counter_values.get(int(v), 0)
            - sum(1 for t in state.placed_by(p) if t.value == v),
        }
        for fn in self.rules.functions.values():
            env[fn.name] = _bind(fn.expr, fn.args, env)
        return env

    def _run(self, expr: Expr, env: Mapping[str, Any], where: str) -> Any:
        try:
            return expr.run(env)
        except ExprError as exc:
            raise RuleError(f"{where}: {expr.source}: {exc}") from None

    # -- start ---------------------------------------------------------------
    def start(self, players: Iterable[str], first: str | None = None) -> State:
        players = tuple(players)
        first = first or players[0]
        state = State(players=players, phase=self.rules.flow.start_phase, turn=first, first=first,
                      spaces={c: () for c in self.rules.clues})
        env = self.env(state)
        for name, init in self.rules.state.items():
            state.vars[name] = self._run(init, env, f"state {name}")
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
        env = self.env(state, play.actor, self._args(move, play))
        missing = self._missing(move, play)
        out = self._check_params(move, play, env, missing)
        if any(v.code == MALFORMED for v in out):
            return out
        for req in (*self.rules.flow.requires, *move.requires):
            if missing and any(base == "move" and attr in missing for expr in (req.when, req.expr) if expr
                               for base, attr, _c in expr.attributes):
                continue  # reads a parameter the move lacks (reported above)
            if req.when is not None and not self._run(req.when, env, f"{move.name}/{req.id}"):
                continue
            if not self._run(req.expr, env, f"{move.name}/{req.id}"):
                out.append(Violation(req.code, req.message.render(env), f"{move.name}/{req.id}", req.cite))
        return out

    def _missing(self, move: Move, play: Play) -> set[str]:
        """Required parameters the move does not give."""
        return {p.name for p in move.params if not p.optional and play.args.get(p.name) is None}

    def _args(self, move: Move, play: Play) -> dict[str, Any]:
        return {p.name: play.args.get(p.name) for p in move.params}

    def _check_params(self, move: Move, play: Play, env: Mapping[str, Any], missing: set[str]) -> list[Violation]:
        out = []
        for p in move.params:
            value = play.args.get(p.name)
            if p.name in missing:
                out.append(Violation(p.code or MALFORMED, f"{move.name} needs '{p.name}'", f"{move.name}/{p.name}", p.cite))
                continue
            if value is None:
                continue
            problem = self._param_problem(p, value, env)
            if problem:
                out.append(Violation(p.code or MALFORMED, problem, f"{move.name}/{p.name}", p.cite))
        for extra in set(play.args) - {p.name for p in move.params}:
            out.append(Violation(MALFORMED, f"{move.name} takes no '{extra}'", move.name))
        return out

    def _param_problem(self, p: MoveParam, value: Any, env: Mapping[str, Any]) -> str | None:
        clues = self.rules.clues
        if p.type == "clue":
            return None if value in clues else f"'{value}' is not a clue"
        if p.type in ("clues", "clue_list"):
            if not isinstance(value, (list, tuple)) or any(c not in clues for c in value):
                return f"{p.name} must be a list of clues"
            if p.type == "clue_list":
                return None
            size = self._run(p.size, env, p.name) if p.size is not None else None
            if size is not None and len(value) != size:
                return f"{len(value)} clue(s) named where {size} are needed"
            cats = [clues[c].category for c in value]
            if p.distinct_categories and len(set(cats)) != len(cats):
                dup = sorted({c for c in cats if cats.count(c) > 1})
                return f"more than one clue of category {', '.join(dup)}"
            return None
        if p.type == "count":
            top = self._run(p.max, env, p.name) if p.max is not None else None
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (top is not None and value > top):
                return f"{p.name} must be a whole number from 0 to {top}"
            return None
        if p.type == "counter_value":
            return None if value in self.counter_values else f"no counter of value {value!r} (values: {sorted(self.counter_values)})"
        if p.type == "reveal_list":
            if not isinstance(value, (list, tuple)):
                return f"{p.name} must be a list"
            for item in value:
                v = item[1] if isinstance(item, tuple) else item
                if v not in self.counter_values:
                    return f"no counter of value {v!r}"
            return None
        return None

    def is_legal(self, state: State, play: Play) -> bool:
        return not self.check(state, play)

    # -- next state ------------------------------------------------------------
    def play(self, state: State, play: Play) -> Outcome:
        """Apply a move as played (legal or not) and list what it breaks."""
        violations = self.check(state, play)
        move = self.rules.moves.get(play.kind)
        new = state.copy()
        outcome = Outcome(new, violations)
        if move is None or any(v.code == MALFORMED for v in violations) or self._missing(move, play):
            return outcome  # a move that lacks what it needs cannot be applied
        new.moves += 1
        args = self._args(move, play)
        self._effects(move.effects, new, play, args, outcome)
        return outcome

    def _effects(self, effects: Iterable[Effect], s: State, play: Play, args: dict[str, Any], out: Outcome) -> None:
        for eff in effects:
            env = self.env(s, play.actor, args)
            where = f"{play.kind} effect {eff.verb}"
            if eff.verb == "when":
                branch = eff.then if self._run(eff.arg, env, where) else eff.otherwise
                self._effects(branch, s, play, args, out)
            elif eff.verb == "set":
                values = {name: self._run(e, env, where) for name, e in eff.arg}
                s.vars.update(values)
            elif eff.verb == "cover":
                clues = [c for c in self._run(eff.arg, env, where) if c not in s.covered]
                s.covered = s.covered | frozenset(clues)
                out.covered.extend(clues)
            elif eff.verb == "reveal":
                clue = self._run(eff.arg, env, where)
                recorded = next((args.get(p.name) for p in self.rules.moves[play.kind].params
                                 if p.type == "reveal_list"), None)
                out.revealed.extend(self._reveal(s, clue, recorded))
            elif eff.verb == "place":
                clue = self._run(eff.arg[0], env, where)
                value = self._run(eff.arg[1], env, where) if eff.arg[1] is not None else None
                token = Token(play.actor, clue, value, False, s.moves)
                s.spaces[clue] = s.spaces.get(clue, ()) + (token,)
            elif eff.verb == "eliminate":
                who = self._run(eff.arg, env, where)
                if who not in s.out:
                    s.out = s.out + (who,)
                s.passed = s.passed - {who}
            elif eff.verb == "pass":
                s.passed = s.passed | {self._run(eff.arg, env, where)}
            elif eff.verb == "clear_passes":
                s.passed = frozenset()
            elif eff.verb == "phase":
                s.phase = eff.arg
                s.passed = frozenset()
            elif eff.verb == "turn":
                s.turn = self._run(eff.arg, env, where)
            elif eff.verb == "end":
                s.ended = True

    def _reveal(self, s: State, clue: str, reveals: Any) -> list[Token]:
        """Turn face up the face-down tokens of a space, with values from the log."""
        given = list(reveals or [])
        stack, revealed = list(s.spaces.get(clue, ())), []
        for i, tok in enumerate(stack):
            if tok.face_up:
                continue
            value = tok.value
            for j, item in enumerate(given):
                owner, v = item if isinstance(item, tuple) else (None, item)
                if owner in (None, tok.owner):
                    value = v if tok.value is None else tok.value
                    given.pop(j)
                    break
            stack[i] = replace(tok, face_up=True, value=value)
            revealed.append(replace(stack[i], value=value))
        s.spaces[clue] = tuple(stack)
        return revealed

    # -- choices -----------------------------------------------------------------
    def choices(self, state: State, actor: str, kind: str) -> Iterator[dict[str, Any]]:
        """Every assignment of the *choice* parameters of a move (legal or not)."""
        move = self.rules.moves[kind]
        env = self.env(state, actor)
        axes: list[tuple[str, list[Any]]] = []
        for p in move.params:
            if p.type == "clue":
                axes.append((p.name, list(self.rules.clues)))
            elif p.type == "counter_value":
                axes.append((p.name, sorted(self.counter_values)))
            elif p.type == "clues":
                size = self._run(p.size, env, p.name) if p.size is not None else len(self.rules.categories)
                combos = []
                for cats in itertools.combinations(self.rules.categories, size):
                    combos.extend(list(c) for c in itertools.product(*(cat.clues for cat in cats)))
                axes.append((p.name, combos))
        for values in itertools.product(*(vals for _n, vals in axes)):
            yield dict(zip((n for n, _v in axes), values))

    def legal_moves(self, state: State) -> Iterator[Play]:
        """The legal moves now, with result parameters (verdicts) left out.

        Result parameters (``count``: the verdict; reveals; covers) are what
        the table observes, not what the player chooses: :meth:`resolve`
        fills them in from a deal.
        """
        for actor in state.players:
            for kind, move in self.rules.moves.items():
                for args in self.choices(state, actor, kind):
                    full = {**args, **self._placeholder_results(move)}
                    if self.is_legal(state, Play(kind, actor, full)):
                        yield Play(kind, actor, args)

    def _placeholder_results(self, move: Move) -> dict[str, Any]:
        return {p.name: 0 for p in move.params if p.type == "count"}

    def resolve(self, state: State, play: Play, solution: frozenset[str]) -> Play:
        """Fill a move's result parameters from a known deal (for simulation)."""
        move = self.rules.moves[play.kind]
        args = dict(play.args)
        for p in move.params:
            if p.type == "count" and move.observe is not None:
                args[p.name] = self.observed_count(state, play, solution)
        return Play(play.kind, play.actor, args)

    def observation(self, state: State, play: Play, source: Any = None) -> Any:
        """The fact a move lets its viewers learn (its ``observe:`` rule), or None.

        ``state`` is the state *before* the move.  The fact's viewer is None
        for a public observation, else the acting player (``visible: actor``).
        """
        from ..solver.facts import Fact
        from .expr import Linear

        move = self.rules.moves.get(play.kind)
        if move is None or move.observe is None:
            return None
        env = self.env(state, play.actor, self._args(move, play))
        env["evidence"] = Linear.card
        fact = self._run(move.observe.fact, env, f"{move.name} observe")
        if not isinstance(fact, Fact):
            raise RuleError(f"{move.name} observe: the fact must compare a count of cards with a number")
        viewer = None if move.observe.visible == "public" else play.actor
        return Fact(fact.weights, fact.op, fact.value, source, viewer)

    def observed_count(self, state: State, play: Play, solution: frozenset[str]) -> int:
        """The count the table observes for a move, given the solution.

        The observation is declared as ``<count of cards> == move.<result>``:
        its left side, evaluated on the solution.
        """
        move = self.rules.moves[play.kind]
        placeholder = Play(play.kind, play.actor, {**play.args, **self._placeholder_results(move)})
        return self.observation(state, placeholder).total(solution)

    def random_play(self, state: State, rng: random.Random, solution: frozenset[str],
                    tries: int = 200, weights: Mapping[str, float] | None = None) -> Play | None:
        """A random legal move with its verdict computed from the solution.

        ``weights`` (move kind -> relative weight, default 1) biases the kind
        tried, e.g. to make accusations rare so that games last.
        """
        actors = [state.turn] if state.turn not in state.out else state.active
        kinds = list(self.rules.moves)
        kind_weights = [float((weights or {}).get(k, 1.0)) for k in kinds]
        for _ in range(tries):
            actor = rng.choice(actors)
            kind = rng.choice(kinds) if weights is None else rng.choices(kinds, kind_weights)[0]
            args = self._random_choice(state, actor, kind, rng)
            play = self.resolve(state, Play(kind, actor, args), solution)
            if not self.check(state, play):
                return play
        return None

    def _random_choice(self, state: State, actor: str, kind: str, rng: random.Random) -> dict[str, Any]:
        move = self.rules.moves[kind]
        env = self.env(state, actor)
        args: dict[str, Any] = {}
        for p in move.params:
            if p.type == "clue":
                args[p.name] = rng.choice(list(self.rules.clues))
            elif p.type == "counter_value":
                left = [v for v in sorted(self.counter_values)
                        if self.counter_values[v] > sum(1 for t in state.placed_by(actor) if t.value == v)]
                args[p.name] = rng.choice(left) if left else rng.choice(sorted(self.counter_values))
            elif p.type == "clues":
                size = self._run(p.size, env, p.name) if p.size is not None else len(self.rules.categories)
                cats = rng.sample(list(self.rules.categories), size)
                cats.sort(key=lambda c: self.rules.categories.index(c))
                args[p.name] = [rng.choice(c.clues) for c in cats]
        return args


class _Spaces(Mapping[str, tuple[Token, ...]]):
    def __init__(self, data: Mapping[str, tuple[Token, ...]]):
        self._data = data

    def __getitem__(self, key: str) -> list[Token]:  # type: ignore[override]
        return list(self._data.get(key, ()))

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _bind(expr: Expr, names: tuple[str, ...], env: dict[str, Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        if len(args) != len(names):
            raise ExprError(f"expected {len(names)} argument(s), got {len(args)}")
        return expr.run({**env, **dict(zip(names, args))})
    return call
