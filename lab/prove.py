"""``prove``: properties of a rule set, over every reachable state up to a depth.

A property file (YAML, checked against ``spec/property.schema.json``)::

    depth: 3                       # default depth (--depth overrides), in moves after the opening
    budget: 20000                  # optional: the moves the search may consider (--budget overrides)
    scope:                         # optional: the small scope explored
      items: {COMPONENT: [ITEM, ...]}   # the items a move's choices may name
      values: {PARAMETER: [VALUE, ...]} # the values a parameter may take (any move; items by name)
    opening:                       # optional: moves played first, as a game log writes its moves:
      - {MOVE: P1, PARAMETER: VALUE, ...}
    properties:
      - id: stays-positive
        says: "the supply never goes below zero"      # optional, in words
        invariant: "vars.left >= 0"                  # true in every reachable state
      - id: never-stuck
        invariant: "ended or len(legal_moves) > 0"   # legal_moves: kind, actor, args of each
      - id: positive-while-playing
        when: "phase == 'play'"                      # only in the states where this holds,
        invariant: "vars.left > 0"                   # this is true
      - id: passes-end
        when: "phase == 'play'"                      # from every reachable state where this holds,
        playing: [pass]                              # playing only these moves (every way),
        within: "n_players"                          # within this many moves
        reaches: "phase != 'play' or ended"          # this becomes true

Every key is known (an unknown one is RL171 with the closest known key as a
hint, the file never quoted), every value of its kind, a key given twice
RL004.  ``when:`` means the same beside ``invariant:`` and beside
``reaches:``: the property is checked only in the states where it holds.
``invariant:``, ``when:`` and ``reaches:`` are boolean expressions: one whose
form gives something else (``'x'``, ``5``, ``len(out)``) is RL173 when the
file is read, and one whose value is neither true nor false in a state
(``vars``, ``vars.left``) is RL173 there, never judged by truthiness.  Each
scope value must be a value its parameter can take (a count within its
maximum, an item of its component, a player, a choice), and a scope that
leaves no legal move from the first state is RL171: the search would explore
nothing.

The search is bounded by a budget (``budget:``, ``--budget``, default
:data:`DEFAULT_BUDGET`) of moves considered: listing a state's moves
charges each choice of a mover tried and each move found.  A state is
listed only when its moves may number at most :data:`MAX_LISTING` (or the
budget, if more), an estimate made first (the product of each parameter's
number of values): past it in the first state the search is refused with
that estimate (RL174); later, or when the budget is spent, the search stops
and says how far every state was checked (``ruleslawyer prove`` exits 4).

Expressions are the rule language's, over the state (``phase``, ``turn``,
``vars``, ``out``, ``tokens``... and ``legal_moves``).

Without an opening the search starts at the start of a game: seats ``P1``
to ``Pn``, ``P1`` first, and a public set-up (when the rules declare one,
e.g. an item for each player and the cards of a public zone) drawn once
from a seeded random stream.  ``opening:`` gives moves played first, so
that the search starts where the interesting moves begin (after a long
set-up, say): the depth counts the moves after it.  It is written as a game
log writes its ``moves:``, read by the log reader
(:func:`checker.log.parse_with_rules`) and replayed as ``check`` replays a
log (:mod:`checker.replay`): each move must be legal and every observation
fit some deal.  As a list, its moves are those of the seats ``P1``... at
prove's own drawn set-up.  As a mapping it is a log without ``rules:``:
``moves:`` and, each optional, ``players:`` (names in seating order,
instead of ``P1``...), ``first:`` and ``setup:`` (a log's set-up, instead
of the drawn one)::

    opening:
      players: [Ann, Ben, Cat, Dan]
      first: Dan
      setup: {RECORD: {Ann: ITEM, ...}}
      moves:
        - {MOVE: Ann, PARAMETER: VALUE}

A problem in the opening (its shape, more than :data:`MAX_OPENING` moves,
anything the log reader or ``check`` would report) is RL171 where it stands
in the property file, check's own code in the message.  A counterexample's
log holds the opening's players, first player and set-up, then the
opening's moves, then the path found.

The search is exhaustive breadth-first exploration with state hashing: a
state is its phase, turn, players out, tokens (owner, value, face), state
variables and whether it ended — not the path that led to it nor the move
count.  Every legal move is followed, with every legal value of its
outcomes (every result the table could observe), so the states explored
include every reachable one (and perhaps some that no deal allows): a
property that holds here holds.  A violation's path is then checked
against the solver (with what the set-up and the opening showed everyone);
a path whose observations no deal fits is skipped and the search goes on.
The counterexample is written as a log, which ``ruleslawyer check`` replays
to the same state.

Why explicit search rather than bounded model checking with Z3: the rule
language's effects (comprehensions over lists, rule functions, sets of
state) would need a Z3 encoding of their own, kept in step with the state
machine, while explicit search reuses the state machine as it is.  The two
were not measured against each other: there is no Z3 encoding of the
effects to measure (``benchmarks/lab_bench.py`` measures the states
explored a second).

One piece (over 800 lines): the property file's reader, the search and the
counterexample log share the scope and the opening as read; the reader's
checks name the keys the search then trusts.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..checker.writer import format_log
from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Reporter, StopReplay, did_you_mean
from ..spec.expr import Expr, ExprError, Namespace, compile_expr, evaluations
from ..spec.facts import Fact
from ..spec.machine import Machine, Play, RuleError, State
from ..spec.model import Ruleset
from ..spec.source import LMap, LSeq
from .engine import MAX_STAGED, Lab, start_facts
from .game import opening, public_setup, seat_names
from .propfile import NOT_BOOLEAN, kind_of, schema_problems, scope_items, scope_values, static_kind, truth

__all__ = ["Property", "PropertyFile", "Start", "ProofResult", "Proof", "load_properties", "prove", "state_key",
           "prove_text", "prove_json", "MAX_OPENING"]

#: States kept at most (then the search stops and says so), whatever the budget.
MAX_STATES = 2_000_000
#: The moves the search may consider in all (each choice of a mover tried, each move found),
#: unless the file (budget:) or --budget says otherwise.
DEFAULT_BUDGET = 20_000
#: A state is listed only when its moves may number at most this (or the budget, if more): the
#: product of its parameters' numbers of values, an estimate made before listing them.
MAX_LISTING = 100_000
#: The depth of a property file that gives none (bounded by the budget).
DEFAULT_DEPTH = 3
#: The code of a search refused for its size.
BUDGET_CODE = "RL174"
#: Moves an opening may list at most.
MAX_OPENING = 1_000


@dataclass
class Property:
    id: str
    says: str | None
    invariant: Expr | None = None
    when: Expr | None = None
    playing: tuple[str, ...] = ()
    within: Expr | None = None
    reaches: Expr | None = None
    position: Position | None = None

    @property
    def kind(self) -> str:
        return "invariant" if self.invariant is not None else "within"


@dataclass
class Start:
    """Where the search starts: the table and the moves played before it (the opening)."""

    players: list[str]
    first: str
    setup: dict[str, Any]       # the set-up the state machine reads (record -> player -> item)
    public: dict[str, Any]      # the same as a log's setup: section writes it (and the public zones' cards)
    plays: list[Play]           # the opening's moves (none without an opening)
    state: State                # the state after them
    facts: list[Fact]           # what everyone has seen: the public zones' cards, the opening's observations


@dataclass
class PropertyFile:
    path: str
    depth: int
    properties: list[Property]
    items: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, list[Any]] = field(default_factory=dict)
    opening: Start | None = None  # the opening: played, checked, before the search
    budget: int = DEFAULT_BUDGET  # the moves the search may consider in all
    scope_at: Position | None = None  # where scope: stands in the file


@dataclass
class ProofResult:
    prop: Property
    holds: bool
    states: int
    counterexample: str | None = None  # a log
    at: int | None = None              # moves of the counterexample
    message: str | None = None
    key: Any = None                    # the violating state's key


@dataclass
class Proof:
    name: str
    depth: int
    states: int
    seconds: float
    results: list[ProofResult]
    complete: bool = True  # False when the budget (or MAX_STATES) stopped the search
    opening: int = 0       # moves of the opening, played before the search
    budget: int = DEFAULT_BUDGET
    considered: int = 0    # the moves considered (charged to the budget)
    stop: str | None = None  # what stopped the search: "budget", "states" (MAX_STATES), or None
    checked: list[int] = field(default_factory=list)  # states checked at each depth
    found: list[int] = field(default_factory=list)    # states found at each depth
    biggest: int = 0       # stop == "listing": the estimate of the state too big to list

    @property
    def depth_done(self) -> int:
        """The depth up to which every state was checked (-1: not even the first)."""
        done = -1
        for d, (c, f) in enumerate(zip(self.checked, self.found)):
            if c < f:
                break
            done = d
        return done if self.checked else self.depth


def _fail(message: str, pos: Position | None, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL171", message, pos, hint=hint)])


def load_properties(path: str, rules: Ruleset) -> PropertyFile:
    """Read and check a property file: its shape against ``spec/property.schema.json``
    (RL171 for each problem, at its place), then what the shape cannot say: the names of
    the rules, the type of each condition (RL173), the values a scope leaves."""
    from ..spec.paths import read_named

    node = read_named(path, declared="properties")  # a file that is not a property file: nothing of it shown
    where = Position(path, 1, 1)
    if not isinstance(node, Mapping):
        raise _fail("a property file is a mapping with a 'properties:' list", where)
    problems = schema_problems(node, path)
    if problems:
        raise DiagnosticError(problems)
    depth, budget = node.get("depth", DEFAULT_DEPTH), node.get("budget", DEFAULT_BUDGET)
    scope = node.get("scope") or {}
    items = scope_items(rules, scope.get("items") or {}, path)
    props, seen = [], set()
    raw = node["properties"]
    for i, entry in enumerate(raw):
        pos = _pos(raw, i, path) or where
        pid = entry["id"]
        if pid in seen:
            raise _fail(f"two properties with the id '{pid}'", _pos(entry, "id", path) or pos)
        seen.add(pid)
        prop = Property(pid, entry.get("says"), invariant=_condition(entry, "invariant", path),
                        when=_condition(entry, "when", path), within=_condition(entry, "within", path),
                        reaches=_condition(entry, "reaches", path), position=pos)
        playing = entry.get("playing", [])
        for k, name in enumerate(playing):
            if name not in rules.moves:
                near = did_you_mean(name, list(rules.moves))
                raise _fail(f"playing: lists the moves of the rules ({', '.join(rules.moves)})",
                            _pos(playing, k, path) or pos, hint=f"did you mean '{near}'?" if near else None)
        prop.playing = tuple(playing)
        if prop.invariant is not None and (prop.reaches or prop.within or prop.playing):
            raise _fail("a property is an invariant: (with an optional when:) or playing:, within: and reaches: "
                        "(with an optional when:), not both", pos)
        if prop.invariant is None and (prop.reaches is None or prop.within is None or not prop.playing):
            raise _fail("a property needs invariant:, or playing:, within: and reaches:", pos)
        props.append(prop)
    start = _opening(node, path, rules) if node.get("opening") is not None else None
    players = start.players if start is not None else seat_names(int(rules.param("players")))
    values: dict[str, list[Any]] = {}
    lab = Lab(rules) if scope.get("values") else None
    for param, listed in (scope.get("values") or {}).items():
        values[str(param)] = scope_values(lab, str(param), listed, players, scope["values"], path)  # type: ignore[arg-type]
    return PropertyFile(path, depth, props, items, values, start, budget,
                        _key_pos(node, "scope") if "scope" in node else None)


#: Each key of a property and what its expression must give.
_CONDITIONS = {"invariant": "boolean", "when": "boolean", "reaches": "boolean", "within": "a number"}


def _condition(entry: Mapping[str, Any], key: str, path: str) -> Expr | None:
    """A property's expression, compiled; one whose form gives the wrong kind of value is refused
    (a condition: RL173, not true or false; within: RL171, not a whole number)."""
    if key not in entry:
        return None
    pos = _pos(entry, key, path)
    wanted, found = _CONDITIONS[key], static_kind(entry[key])
    if found is not None and found != wanted:
        if wanted == "boolean":
            raise DiagnosticError([Diagnostic(NOT_BOOLEAN, f"{key}: gives {found}, neither true nor false: a "
                                              "condition must be a boolean expression", pos,
                                              hint="compare it (e.g. '>= 0', '== ...') or use all()/any()")])
        raise _fail(f"{key}: gives {found}, not a whole number of moves", pos)
    try:
        return compile_expr(entry[key], pos)
    except DiagnosticError as exc:
        raise DiagnosticError([Diagnostic("RL171", d.message, d.position) for d in exc.diagnostics]) from None


def _pos(node: Any, key: Any, path: str) -> Position | None:
    try:
        from ..spec.source import position_of

        return position_of(node, key)
    except Exception:  # noqa: BLE001 - a position is a courtesy
        return Position(path, 1, 1)


# -- the opening ----------------------------------------------------------------------

#: The keys of an opening written as a mapping: a log's header (no rules:), and its moves.
OPENING_KEYS = ("players", "first", "setup", "moves")


def _opening(node: Mapping[str, Any], path: str, rules: Ruleset) -> Start:
    """The opening of a property file, read as a log's moves and replayed as ``check`` does.

    Every problem is RL171 at its place in the property file: the shape of
    ``opening:``, and each problem the log reader or the replay finds (its
    own code in the message): a move of no kind, a malformed parameter, an
    illegal move, an observation no deal fits.
    """
    from ..checker.check import number_moves, rule_failure
    from ..checker.log import parse_with_rules
    from ..checker.names import fold
    from ..checker.replay import replay

    raw = node["opening"]
    where = _pos(node, "opening", path) or Position(path, 1, 1)
    shape = ("opening: is a list of moves, written as a game log writes its moves:, or a mapping with "
             "moves: and, as a log's header, players:, first: and setup: (each optional)")
    if isinstance(raw, list):
        header: Mapping[str, Any] = {}
        moves = raw
    elif isinstance(raw, Mapping):
        for key in raw:
            if key not in OPENING_KEYS:
                raise _fail("an unknown key in opening:", _key_pos(raw, key) or where,
                            hint=f"the keys: {', '.join(OPENING_KEYS)}")
        if "moves" not in raw:
            raise _fail("opening: needs moves:, a list of moves as a game log writes them", where)
        header, moves = raw, raw["moves"]
        if not isinstance(moves, list):
            raise _fail(shape, _pos(raw, "moves", path) or where)
    else:
        raise _fail(shape, where)
    if len(moves) > MAX_OPENING:
        raise _fail(f"an opening of {len(moves):,} moves: at most {MAX_OPENING:,}",
                    moves.pos_of(MAX_OPENING) if isinstance(moves, LSeq) else where)
    n = int(rules.param("players"))
    if "players" in header:
        players = header["players"]
        if not isinstance(players, list) or len(players) != n or \
                not all(isinstance(p, str) and p for p in players):
            raise _fail(f"opening: players: lists the {n} players of {rules.canonical_name} in seating order",
                        _pos(header, "players", path) or where)
        players = [str(p) for p in players]
        first_seen: set[str] = set()
        for i, name in enumerate(players):
            if fold(name) in first_seen:  # the log reader says so too, but the set-up is drawn first
                raise _fail(f"opening: player '{name}' is listed twice [LG114]", _pos(header["players"], i, path))
            first_seen.add(fold(name))
    else:
        players = seat_names(n)
    doc = _lmap({"rules": rules.game}, where)
    _put(doc, "players", header, header["players"] if "players" in header else players, where)
    if "first" in header:
        _put(doc, "first", header, header["first"], where)
    if "setup" in header:
        _put(doc, "setup", header, header["setup"], where)
    else:  # prove's own set-up, as without an opening
        _setup, public, _facts = _drawn(Lab(rules), players)
        if public:
            _put(doc, "setup", header, _names(rules, public), where)
    _put(doc, "moves", header, moves, where)

    def refused(diagnostics: Sequence[Diagnostic]) -> DiagnosticError:
        out = []
        for d in diagnostics:
            if d.severity != "error":
                continue
            lead = f"opening: move {d.move}: " if d.move else "opening: "
            out.append(Diagnostic("RL171", f"{lead}{d.message} [{d.code}]", d.position or where,
                                  related=d.related, hint=d.hint))
        return DiagnosticError(out or [Diagnostic("RL171", "opening: cannot be played", where)])

    try:
        log = parse_with_rules(doc, path, rules)
    except DiagnosticError as exc:
        raise refused(exc.diagnostics) from None
    reporter = Reporter(strict=True)
    try:
        played = replay(log, rules, reporter)
    except StopReplay:
        found = list(reporter.diagnostics)
        number_moves(found, log)
        raise refused(found) from None
    except RuleError as exc:  # a rule expression went past a limit: as check says it
        raise DiagnosticError([rule_failure(exc, rules)]) from None
    if reporter.errors:  # pragma: no cover - a strict reporter stops at the first
        found = list(reporter.diagnostics)
        number_moves(found, log)
        raise refused(found)
    header_ = played.log.header
    return Start(list(header_.players), header_.first, dict(header_.setup), _public_of(rules, played.log),
                 [m.play for m in log.moves], played.state, [f for f in played.facts() if f.viewers is None])


def _key_pos(node: Any, key: Any) -> Position | None:
    return node.key_position(key) if isinstance(node, LMap) else None


def _put(doc: LMap, key: str, header: Mapping[str, Any], value: Any, where: Position) -> None:
    """``doc[key] = value``: at its place in the property file when the opening gives it, else at ``where``."""
    given = key in header and isinstance(header, LMap)
    doc[key] = value if given and value is header[key] else _plain(value, where)
    doc.key_pos[key] = header.key_position(key) if given else where
    doc.val_pos[key] = header.pos_of(key) if given else where


def _lmap(value: Mapping[str, Any], where: Position) -> LMap:
    out = LMap()
    out.pos, out.key_pos, out.val_pos = where, {}, {}
    for k, v in value.items():
        out[k] = _plain(v, where)
        out.key_pos[k] = out.val_pos[k] = where
    return out


def _plain(value: Any, where: Position) -> Any:
    """A value as the YAML reader gives it (mappings and lists with positions), every part at ``where``."""
    if isinstance(value, (LMap, LSeq)):
        return value
    if isinstance(value, Mapping):
        return _lmap(value, where)
    if isinstance(value, (list, tuple)):
        seq = LSeq(_plain(v, where) for v in value)
        seq.pos, seq.item_pos = where, [where] * len(seq)
        return seq
    return value


def _names(rules: Ruleset, value: Any) -> Any:
    """Item ids to the names a log writes (in mappings and lists)."""
    if isinstance(value, str):
        return rules.name(value)
    if isinstance(value, Mapping):
        return {k: _names(rules, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_names(rules, v) for v in value]
    return value


def _public_of(rules: Ruleset, log: Any) -> dict[str, Any]:
    """A parsed log's ``setup:`` as :func:`counterexample_log` writes it: each player's item,
    the cards of the zones everyone sees."""
    out: dict[str, Any] = {key: dict(items) for key, items in log.header.setup.items()}
    for zone in log.public:
        if set(zone.cards) <= {""}:  # a zone nobody owns
            out[zone.key] = [c.value for recorded in zone.cards.values() for c in recorded]
        else:
            out[zone.key] = {who: [c.value for c in recorded] for who, recorded in zone.cards.items()}
    order = [r.key for r in rules.records if r.section == "setup"]
    return {k: out[k] for k in sorted(out, key=lambda k: order.index(k) if k in order else len(order))}


def _drawn(lab: Lab, players: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any], list[Fact]]:
    """prove's own set-up, drawn once (seeded): the state machine's, the log's ``setup:``,
    and what everyone sees of the deal drawn with it."""
    rules, machine = lab.rules, lab.machine
    world, setup = opening(lab, players, random.Random(0))
    public = public_setup(rules, setup, machine.deal(players), world) if setup or any(
        r.section == "setup" for r in rules.records) else {}
    facts = [f for f in start_facts(machine.deal(players), world) if f.viewers is None] if public else []
    return setup, public, facts


def _default_start(lab: Lab) -> Start:
    """The start without an opening: seats P1..Pn, P1 first, prove's own set-up."""
    players = seat_names(int(lab.rules.param("players")))
    setup, public, facts = _drawn(lab, players)
    machine = lab.machine
    state = machine.start(players, players[0], setup=setup) if setup else machine.start(players, players[0])
    return Start(players, players[0], setup, public, [], state, facts)


# -- states -------------------------------------------------------------------------

_PLAIN = (str, int, float, bool, type(None))


def _freeze(value: Any) -> Any:
    if isinstance(value, _PLAIN):  # the usual case first: no abstract-class checks
        return value
    if isinstance(value, dict) or isinstance(value, Mapping):
        return ("{", tuple(sorted(((repr(k), _freeze(v)) for k, v in value.items()))))
    if isinstance(value, (set, frozenset)):
        return ("s", tuple(sorted(repr(_freeze(v)) for v in value)))
    if isinstance(value, (list, tuple)):
        return ("l", tuple(_freeze(v) for v in value))
    return value


def state_key(state: State) -> Any:
    """What two states must share to be the same for the rules (not the path, not the move count)."""
    spaces = tuple(sorted((s, tuple((t.owner, t.value, t.face_up) for t in stack))
                          for s, stack in state.spaces.items() if stack))
    return (state.phase, state.turn, tuple(sorted(state.out)), state.ended, spaces, _freeze(state.vars),
            _freeze(getattr(state, "setup", {})))


class _OverBudget(Exception):
    """Listing a state's moves would pass the budget (or no listing could be exhaustive)."""

    def __init__(self, needed: int, parts: list[str], left: int, too_many: str | None = None):
        super().__init__(needed)
        self.needed, self.parts, self.left, self.too_many = needed, parts, left, too_many


class _ScopedLab(Lab):
    """The lab with the scope applied where values are listed: a parameter of ``values:`` takes
    only those (the mover's and the outcomes'), a mover's item none left out by ``items:``."""

    def __init__(self, rules: Ruleset, values: Mapping[str, list[Any]], excluded: frozenset[str]):
        super().__init__(rules)
        self.scope_values, self.excluded = values, excluded
        self.mover_params = {id(p) for info in self.kinds.values() for p in info.mover}

    def options(self, state: State, actor: str, p: Any, named: Sequence[str] = (),
                exclude: frozenset[str] | set[str] = frozenset(), env: Mapping[str, Any] | None = None) -> list[Any]:
        if id(p) in self.mover_params and self.excluded:
            exclude = set(exclude) | self.excluded
        found = super().options(state, actor, p, named, exclude, env)
        allowed = self.scope_values.get(p.name)
        return found if allowed is None else [v for v in found if v in allowed]


class _Explorer:
    def __init__(self, rules: Ruleset, spec: PropertyFile, budget: int):
        excluded: set[str] = set()
        for comp, keep in spec.items.items():
            excluded |= set(rules.components[comp].items) - set(keep)
        self.lab: Lab = _ScopedLab(rules, spec.values, frozenset(excluded))
        self.machine: Machine = self.lab.machine
        self.spec = spec
        self.budget, self.considered = budget, 0

    def cost(self, state: State, kinds: Iterable[str] | None = None) -> tuple[int, list[str], str | None]:
        """The moves listing this state's moves considers (each kind open to a player: the product
        of its parameters' numbers of values), the terms of it in words, and a kind whose outcomes
        alone are too many to list (the lab would sample them: no listing would be exhaustive)."""
        allowed = set(kinds) if kinds is not None else None
        total, parts, too_many = 0, [], None
        for actor, open_ in self.lab.actors(state).items():
            for kind in open_:
                if allowed is not None and kind not in allowed:
                    continue
                axes = self._axes(state, actor, kind)
                named = [v for _n, values in axes if values for v in _flat_items(values[0])]
                sizes = [len(values) for _n, values in axes]
                for p in self.lab.kinds[kind].outcome:
                    sizes.append(self._outcomes(state, actor, p, named) + (1 if p.optional else 0))
                n = 1
                for k in sizes:
                    n *= k
                total += n
                parts.append(f"{kind} by {actor}: {' × '.join(f'{k:,}' for k in sizes) or '1'}")
                outcomes = 1
                for k in sizes[len(axes):]:
                    outcomes *= k
                if outcomes > MAX_STAGED and too_many is None:
                    too_many = f"{kind} by {actor}"
        return total, parts, too_many

    def _outcomes(self, state: State, actor: str, p: Any, named: Sequence[str]) -> int:
        try:
            return len(self.lab.options(state, actor, p, named))
        except (RuleError, LookupError, TypeError, ValueError):  # a maximum read from the move: at most every card
            return self.lab.n_cards + 1

    def moves(self, state: State, kinds: Iterable[str] | None = None) -> list[Play]:
        """Every legal move now (in scope), each outcome value a move of its own.  The listing
        is charged to the budget: each choice of the mover tried, each move found; a state is
        listed only while the budget is not spent and when its estimate (:meth:`cost`) is at most
        :data:`MAX_LISTING` or the budget (else :class:`_OverBudget`)."""
        needed, parts, too_many = self.cost(state, kinds)
        if needed > max(MAX_LISTING, self.budget) or self.considered >= self.budget or too_many is not None:
            raise _OverBudget(needed, parts, self.budget - self.considered, too_many)
        lab, out, tried = self.lab, [], 0
        allowed = set(kinds) if kinds is not None else None
        for actor, open_ in lab.actors(state).items():
            for kind in open_:
                if allowed is not None and kind not in allowed:
                    continue
                for args in self._choices(state, actor, kind):
                    tried += 1
                    out.extend(lab.completions(state, actor, kind, args, None))
        self.considered += tried + len(out)
        return [p for p in out if self._in_scope(p)]

    def _axes(self, state: State, actor: str, kind: str) -> list[tuple[str, list[Any]]]:
        axes = []
        for p in self.lab.kinds[kind].mover:
            values = self.lab.options(state, actor, p)
            if p.optional and not values:
                values = [None]
            axes.append((p.name, values))
        return axes

    def _choices(self, state: State, actor: str, kind: str) -> Iterable[dict[str, Any]]:
        axes = self._axes(state, actor, kind)
        for combo in itertools.product(*(v for _n, v in axes)):
            yield {n: v for (n, _v), v in zip(axes, combo) if v is not None}

    def _in_scope(self, play: Play) -> bool:
        for name, allowed in self.spec.values.items():
            if name in play.args and play.args[name] not in allowed:
                return False
        return True

    def env(self, state: State, legal: list[Play] | None) -> dict[str, Any]:
        env = self.machine.env(state)
        if legal is not None:
            env["legal_moves"] = [Namespace({"kind": p.kind, "actor": p.actor, "args": Namespace(dict(p.args))})
                                  for p in legal]
        return env


def _flat_items(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []


def _reads_legal(prop: Property) -> bool:
    return any(e is not None and "legal_moves" in e.names for e in (prop.invariant, prop.when, prop.reaches))


def prove(rules: Ruleset, spec: PropertyFile, depth: int | None = None, rules_ref: str | None = None,
          house: Sequence[str] = (), budget: int | None = None) -> Proof:
    """Explore every reachable state up to ``depth`` moves and check each property there,
    considering at most ``budget`` moves (the file's, else :data:`DEFAULT_BUDGET`)."""
    with evaluations():  # many outermost evaluations in a row, each with a budget of its own
        return _prove(rules, spec, depth, rules_ref, house, spec.budget if budget is None else budget)


def _prove(rules: Ruleset, spec: PropertyFile, depth: int | None, rules_ref: str | None,
           house: Sequence[str], budget: int) -> Proof:
    depth = spec.depth if depth is None else depth
    ex = _Explorer(rules, spec, budget)
    machine = ex.machine
    # the state after the opening, or the start with a public set-up (when the rules have one)
    # drawn once: the same for every state explored
    table = spec.opening or _default_start(ex.lab)
    players, start, public, public_facts = table.players, table.state, table.public, table.facts
    t0 = time.perf_counter()
    # BFS: key -> (parent key, play as recorded)
    parent: dict[Any, tuple[Any, Play | None]] = {state_key(start): (None, None)}
    frontier = deque([(start, 0)])
    pending = {p.id: p for p in spec.properties}
    results: dict[str, ProofResult] = {}
    need_legal = any(_reads_legal(p) for p in spec.properties)
    checked, found = [0] * (depth + 1), [0] * (depth + 1)
    found[0] = 1
    stop: str | None = None
    biggest = 0  # the estimate of the state that stopped the search, when too big to list
    explored = 0
    try:
        while frontier:
            state, d = frontier[0]
            key = state_key(state)
            legal = ex.moves(state) if ((d < depth and not state.ended) or need_legal) else None
            if explored == 0 and legal == [] and d < depth:
                _vacuous(ex, spec, state)
            env = ex.env(state, legal if need_legal else None)
            for pid in list(pending):
                prop = pending[pid]
                bad = _violates(ex, prop, state, env)
                if bad is None:
                    continue
                path, extra = _path(parent, key), bad
                if not _consistent(machine, players, start, path + extra[0], public_facts):
                    continue  # no deal allows this path's observations: look further
                log = counterexample_log(rules, players, table.plays + path + extra[0], rules_ref, house, public,
                                         first=table.first)
                results[pid] = ProofResult(prop, False, explored + 1, log, len(path) + len(extra[0]), extra[1], key)
                del pending[pid]
                need_legal = any(_reads_legal(p) for p in pending.values())  # listed only while read
            frontier.popleft()
            explored += 1
            checked[d] += 1
            if not pending:
                break
            if d >= depth or state.ended:
                continue
            for play in legal or []:
                out, recorded = ex.lab.apply(state, play)
                k2 = state_key(out.state)
                if k2 in parent:
                    continue
                parent[k2] = (key, recorded)
                found[d + 1] += 1
                frontier.append((out.state, d + 1))
                if len(parent) > MAX_STATES:
                    raise _OverBudget(0, [], 0)
    except _OverBudget as over:
        if explored == 0 or over.too_many is not None:
            raise _refused(spec, over, budget) from None
        stop = "states" if not over.parts else "budget" if over.left <= 0 else "listing"
        biggest = over.needed
    for pid, prop in pending.items():
        results[pid] = ProofResult(prop, True, explored)
    seconds = time.perf_counter() - t0
    return Proof(rules.canonical_name, depth, explored, seconds, [results[p.id] for p in spec.properties],
                 stop is None, len(table.plays), budget, ex.considered, stop, checked, found, biggest)


def _refused(spec: PropertyFile, over: _OverBudget, budget: int) -> DiagnosticError:
    """RL174: a search refused before it starts (its first state's moves too many), with its estimate."""
    where = spec.scope_at or Position(spec.path, 1, 1)
    if over.too_many is not None:
        return DiagnosticError([Diagnostic(
            BUDGET_CODE, f"the search cannot list every move: the outcomes of {over.too_many} have more than "
            f"{MAX_STAGED:,} combinations", where, hint="narrow the scope (scope: values:)")])
    if not over.parts:
        return DiagnosticError([Diagnostic(BUDGET_CODE, f"more than {MAX_STATES:,} states", where)])
    terms = "; ".join(over.parts[:6]) + ("; ..." if len(over.parts) > 6 else "")
    return DiagnosticError([Diagnostic(
        BUDGET_CODE, f"the search would list up to {over.needed:,} moves in its first state alone ({terms}), "
        f"more than a state may list ({max(MAX_LISTING, budget):,})", where,
        hint="narrow the scope (scope: items: and values:), or raise the budget (--budget, or budget: in the file)")])


def _vacuous(ex: _Explorer, spec: PropertyFile, state: State) -> None:
    """RL171 when the scope leaves no move from the first state although some move is legal there."""
    if not (spec.items or spec.values):
        return
    plain = Lab(ex.lab.rules)
    for actor, open_ in plain.actors(state).items():
        for kind in open_:
            for args in plain.mover_choices(state, actor, kind):
                if plain.draw(state, actor, kind, args, None, random.Random(0)) is not None:
                    raise _fail(f"the scope admits no move from the start of the search (none of its values "
                                f"fits a legal move; {kind} by {actor} is legal without it): nothing would be "
                                "explored", spec.scope_at or Position(spec.path, 1, 1),
                                hint="widen scope: items: and values: to values the moves can take")


def _path(parent: Mapping[Any, tuple[Any, Play | None]], key: Any) -> list[Play]:
    out = []
    while True:
        up, play = parent[key]
        if play is None:
            break
        out.append(play)
        key = up
    return out[::-1]


def _violates(ex: _Explorer, prop: Property, state: State, env: dict[str, Any]) -> tuple[list[Play], str] | None:
    """None if the property holds here (or its when: does not); else the extra moves that show
    it and what goes wrong."""
    m = ex.machine
    if prop.when is not None and not _truth(m, prop.when, env, prop, "when"):
        return None
    if prop.invariant is not None:
        if _truth(m, prop.invariant, env, prop, "invariant"):
            return None
        return [], f"{prop.invariant.source} is false"
    limit = _value(m, prop.within, env, prop)  # type: ignore[arg-type]
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise _fail(f"property {prop.id}: within: must give a whole number of moves, not {kind_of(limit)}",
                    prop.within.position)  # type: ignore[union-attr]
    return _within(ex, prop, state, int(limit), [])


def _within(ex: _Explorer, prop: Property, state: State, left: int, path: list[Play]) -> tuple[list[Play], str] | None:
    m = ex.machine
    need = prop.reaches is not None and "legal_moves" in prop.reaches.names
    if _truth(m, prop.reaches, ex.env(state, ex.moves(state) if need else None), prop, "reaches"):  # type: ignore[arg-type]
        return None
    if left == 0:
        return path, f"{prop.reaches.source} is still false after {len(path)} move(s) of {', '.join(prop.playing)}"  # type: ignore[union-attr]
    moves = ex.moves(state, prop.playing)
    if not moves:
        return path, f"no move of {', '.join(prop.playing)} is legal and {prop.reaches.source} is false"  # type: ignore[union-attr]
    for play in moves:
        out, recorded = ex.lab.apply(state, play)
        bad = _within(ex, prop, out.state, left - 1, path + [recorded])
        if bad is not None:
            return bad
    return None


def _value(m: Machine, expr: Expr, env: Mapping[str, Any], prop: Property) -> Any:
    try:
        return expr.run(env)
    except (ExprError, RuleError) as exc:  # the property's expression failed: the property file is at fault
        raise _fail(f"property {prop.id} cannot be evaluated: {expr.source}: {exc}",
                    expr.position or prop.position) from None


def _truth(m: Machine, expr: Expr, env: Mapping[str, Any], prop: Property, key: str) -> bool:
    """A condition's value, true or false (RL173 for any other value, never Python's truthiness)."""
    return truth(_value(m, expr, env, prop), f"property {prop.id}: {key}: {expr.source}", expr.position)


def _consistent(machine: Machine, players: Sequence[str], start: State, plays: Sequence[Play],
                known: Sequence[Any] = ()) -> bool:
    """Whether some deal fits every public observation of the path (and the public set-up)."""
    deal = machine.deal(players)
    if not deal.decks:
        return True
    facts, state = list(known), start
    for play in plays:
        facts.extend(f for f in machine.observations(state, play) if f.viewers is None)
        state = machine.play(state, play).state
    try:
        return initial(deal).with_facts(facts).consistent()
    except SolverError:
        return True  # beyond the solver: the check of the log will say


def counterexample_log(rules: Ruleset, players: Sequence[str], plays: Sequence[Play], rules_ref: str | None,
                       house: Sequence[str], setup: Mapping[str, Any] | None = None, first: str | None = None) -> str:
    """The log of a path from the start of the game (the opening's moves first, when there is one).

    ``rules_ref`` and ``house`` are written as given: the caller names each file as the folder
    the log is written in sees it (``ruleslawyer prove`` writes paths relative to that folder,
    :func:`ruleslawyer.checker.outputs.log_ref`), never an absolute path where a relative one works."""
    return format_log(rules, list(players), plays, first=first or players[0], rules_ref=rules_ref,
                      variant=rules.variant, house=list(house), title="counterexample found by ruleslawyer prove",
                      setup=setup or None)


def prove_json(proof: Proof) -> dict[str, Any]:
    return {"rules": proof.name, "depth": proof.depth, "opening": proof.opening, "states": proof.states,
            "seconds": round(proof.seconds, 3), "complete": proof.complete, "stopped_by": proof.stop,
            "too_big_to_list": proof.biggest if proof.stop == "listing" else None,
            "budget": proof.budget, "considered": proof.considered, "depth_done": proof.depth_done,
            "checked_by_depth": proof.checked, "found_by_depth": proof.found,
            "properties": [{"id": r.prop.id, "says": r.prop.says, "holds": r.holds, "states": r.states,
                            "message": r.message, "moves": r.at, "counterexample": r.counterexample}
                           for r in proof.results]}


def _stopped(proof: Proof) -> str:
    """What the search explored when the budget stopped it."""
    done = proof.depth_done
    upto = sum(proof.checked[:done + 1])
    why = {"budget": f"stopped by its budget of {proof.budget:,} moves considered (--budget)",
           "listing": f"stopped at a state whose moves may number {proof.biggest:,}, more than a state may list "
                      f"({max(MAX_LISTING, proof.budget):,})"}.get(proof.stop or "", f"stopped at {MAX_STATES:,} states kept")
    part = ""
    if done + 1 < len(proof.found):
        part = f", and {proof.checked[done + 1]:,} of the {proof.found[done + 1]:,} found at depth {done + 1}"
    return f"{why}: every state up to depth {done} checked ({upto:,} states){part}"


def prove_text(proof: Proof) -> str:
    after = f" after the opening's {proof.opening} move(s)" if proof.opening else ""
    lines = [f"{proof.name}: {proof.states:,} states explored up to depth {proof.depth}{after} in {proof.seconds:.2f} s"
             f" ({proof.considered:,} of {proof.budget:,} moves considered)"]
    if not proof.complete:
        lines.append(f"  INCOMPLETE: {_stopped(proof)}")
    reach = proof.depth if proof.complete else proof.depth_done
    for r in proof.results:
        says = f" — {r.prop.says}" if r.prop.says else ""
        if r.holds:
            lines.append(f"  {r.prop.id}: holds up to depth {reach}{after} ({proof.states:,} states"
                         f"{'' if proof.complete else ', not every state checked past it'}){says}")
        else:
            past = f" past the opening ({proof.opening + (r.at or 0)} in the log)" if proof.opening else ""
            lines.append(f"  {r.prop.id}: FAILS after {r.at} move(s){past}: {r.message}{says}")
            lines.append("    counterexample (check it with ruleslawyer check, --allow-path for its rule files):")
            lines.extend("      " + line for line in (r.counterexample or "").splitlines())
    return "\n".join(lines)
