"""``prove``: properties of a rule set, over every reachable state up to a depth.

A property file (YAML)::

    depth: 3                       # default depth (--depth overrides), in moves after the opening
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
      - id: passes-end
        when: "phase == 'play'"                      # from every reachable state where this holds,
        playing: [pass]                              # playing only these moves (every way),
        within: "n_players"                          # within this many moves
        reaches: "phase != 'play' or ended"          # this becomes true

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
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import yaml

from ..checker.writer import format_log
from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Reporter, StopReplay, did_you_mean
from ..spec.expr import Expr, Namespace, compile_expr, evaluations
from ..spec.facts import Fact
from ..spec.machine import Machine, Play, RuleError, State
from ..spec.model import Ruleset
from ..spec.source import LMap, LSeq
from .engine import Lab, start_facts
from .game import opening, public_setup, seat_names

__all__ = ["Property", "PropertyFile", "Start", "ProofResult", "Proof", "load_properties", "prove", "state_key",
           "prove_text", "prove_json", "MAX_OPENING"]

#: States explored at most per property file (then the search stops and says so).
MAX_STATES = 2_000_000
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
    complete: bool = True  # False when MAX_STATES stopped the search
    opening: int = 0       # moves of the opening, played before the search


def _fail(message: str, pos: Position | None) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL171", message, pos)])


def load_properties(path: str, rules: Ruleset) -> PropertyFile:
    """Read and check a property file (RL171 for what cannot be used)."""
    from ..spec.paths import read_named

    node = read_named(path, declared="properties")  # a file that is not a property file: nothing of it shown
    where = Position(path, 1, 1)
    if not isinstance(node, Mapping):
        raise _fail("a property file is a mapping with a 'properties:' list", where)
    known = {"depth", "scope", "properties", "opening", "rules", "title"}
    for key in node:
        if key not in known:
            raise _fail(f"unknown key '{key}' (keys: {', '.join(sorted(known))})", _pos(node, key, path))
    depth = node.get("depth", 3)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 64:
        raise _fail("depth must be a whole number from 0 to 64", _pos(node, "depth", path))
    items: dict[str, list[str]] = {}
    values: dict[str, list[Any]] = {}
    scope = node.get("scope") or {}
    if not isinstance(scope, Mapping) or set(scope) - {"items", "values"}:
        raise _fail("scope: has items: and values: only", _pos(node, "scope", path))
    for comp, listed in (scope.get("items") or {}).items():
        if comp not in rules.components:
            raise _fail(f"no component '{comp}' in {rules.canonical_name}", _pos(scope, "items", path))
        if not isinstance(listed, list):
            raise _fail(f"scope items of {comp} must be a list", _pos(scope, "items", path))
        ids = []
        for name in listed:
            item = str(name) if str(name) in rules.components[comp].items else rules.find(comp, str(name))
            if item is None or item not in rules.components[comp].items:
                raise _fail(f"'{name}' is not an item of {comp}", _pos(scope, "items", path))
            ids.append(item)
        items[comp] = ids
    for param, listed in (scope.get("values") or {}).items():
        if not isinstance(listed, list) or not listed:
            raise _fail(f"scope values of {param} must be a non-empty list", _pos(scope, "values", path))
        values[str(param)] = _scope_values(rules, str(param), listed, _pos(scope, "values", path))
    raw = node.get("properties")
    if not isinstance(raw, list) or not raw:
        raise _fail("'properties:' must be a non-empty list", _pos(node, "properties", path) or where)
    props, seen = [], set()
    for entry in raw:
        pos = getattr(entry, "pos", None) or where
        if not isinstance(entry, Mapping):
            raise _fail("a property is a mapping with an id and a condition", pos)
        extra = set(entry) - {"id", "says", "invariant", "when", "playing", "within", "reaches"}
        if extra:
            raise _fail(f"unknown key '{sorted(extra)[0]}' in a property", pos)
        pid = entry.get("id")
        if not isinstance(pid, str) or not pid:
            raise _fail("a property needs an id", pos)
        if pid in seen:
            raise _fail(f"two properties with the id '{pid}'", pos)
        seen.add(pid)

        def expr(key: str) -> Expr | None:
            if key not in entry:
                return None
            try:
                return compile_expr(entry[key], _pos(entry, key, path))
            except DiagnosticError as exc:
                raise DiagnosticError([Diagnostic("RL171", d.message, d.position) for d in exc.diagnostics]) from None

        prop = Property(pid, entry.get("says"), invariant=expr("invariant"), when=expr("when"),
                        within=expr("within"), reaches=expr("reaches"), position=pos)
        playing = entry.get("playing", [])
        if not isinstance(playing, list) or any(k not in rules.moves for k in playing):
            raise _fail(f"playing: must list moves of the rules ({', '.join(rules.moves)})", pos)
        prop.playing = tuple(playing)
        if prop.invariant is not None and (prop.reaches or prop.within or prop.playing):
            raise _fail("a property is an invariant: or a reaches: within:, not both", pos)
        if prop.invariant is None and (prop.reaches is None or prop.within is None or not prop.playing):
            raise _fail("a property needs invariant:, or reaches:, within: and playing:", pos)
        props.append(prop)
    start = _opening(node, path, rules) if node.get("opening") is not None else None
    return PropertyFile(path, depth, props, items, values, start)


def _scope_values(rules: Ruleset, param: str, listed: list[Any], pos: Position | None) -> list[Any]:
    """A scope's values of a parameter, an item's name (as a log writes it) read as the item."""
    params = [p for move in rules.moves.values() for p in move.params if p.name == param]
    if not params:
        known = sorted({p.name for move in rules.moves.values() for p in move.params})
        near = did_you_mean(param, known)
        raise _fail(f"scope values: no move of {rules.canonical_name} has a parameter '{param}'"
                    + (f" (did you mean '{near}'?)" if near else ""), pos)
    comps = [c for p in params if p.type in ("item", "items") for c in (getattr(p, "components", ()) or (p.of,)) if c]
    if not comps:
        return list(listed)
    out = []
    for value in listed:
        if value is None:  # an optional parameter left out
            out.append(None)
            continue
        found = next((rules.find(c, str(value)) for c in comps if rules.find(c, str(value))), None)
        if found is None:
            raise _fail(f"scope values: '{value}' is not a {' or '.join(rules.noun(c) for c in dict.fromkeys(comps))}"
                        f" (the values of '{param}')", pos)
        out.append(found)
    return out


def _pos(node: Any, key: str, path: str) -> Position | None:
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
                raise _fail(f"unknown key '{key}' in opening: (keys: {', '.join(OPENING_KEYS)})",
                            _key_pos(raw, key) or where)
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

def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
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


class _Explorer:
    def __init__(self, rules: Ruleset, spec: PropertyFile):
        self.lab = Lab(rules)
        self.machine: Machine = self.lab.machine
        self.spec = spec

    def moves(self, state: State, kinds: Iterable[str] | None = None) -> list[Play]:
        """Every legal move now (in scope), each outcome value a move of its own."""
        lab, out = self.lab, []
        allowed = set(kinds) if kinds is not None else None
        for actor, open_ in lab.actors(state).items():
            for kind in open_:
                if allowed is not None and kind not in allowed:
                    continue
                for args in self._choices(state, actor, kind):
                    out.extend(lab.completions(state, actor, kind, args, None))
        return [p for p in out if self._in_scope(p)]

    def _choices(self, state: State, actor: str, kind: str) -> Iterable[dict[str, Any]]:
        lab = self.lab
        info = lab.kinds[kind]
        excluded = set()
        for comp, keep in self.spec.items.items():
            excluded |= set(lab.rules.components[comp].items) - set(keep)
        axes = []
        for p in info.mover:
            if p.name in self.spec.values:
                values = list(self.spec.values[p.name])
            else:
                values = lab.options(state, actor, p, exclude=excluded)
            if p.optional and not values:
                values = [None]
            axes.append((p.name, values))
        import itertools

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


def prove(rules: Ruleset, spec: PropertyFile, depth: int | None = None, rules_ref: str | None = None,
          house: Sequence[str] = ()) -> Proof:
    """Explore every reachable state up to ``depth`` moves and check each property there."""
    with evaluations():  # many outermost evaluations in a row, each with a budget of its own
        return _prove(rules, spec, depth, rules_ref, house)


def _prove(rules: Ruleset, spec: PropertyFile, depth: int | None, rules_ref: str | None,
           house: Sequence[str]) -> Proof:
    depth = spec.depth if depth is None else depth
    ex = _Explorer(rules, spec)
    machine = ex.machine
    # the state after the opening, or the start with a public set-up (when the rules have one)
    # drawn once: the same for every state explored
    table = spec.opening or _default_start(ex.lab)
    players, start, public, public_facts = table.players, table.state, table.public, table.facts
    t0 = time.perf_counter()
    # BFS: key -> (parent key, play as recorded, state, depth)
    parent: dict[Any, tuple[Any, Play | None]] = {state_key(start): (None, None)}
    frontier = deque([(start, 0)])
    states: dict[Any, State] = {state_key(start): start}
    pending = {p.id: p for p in spec.properties}
    results: dict[str, ProofResult] = {}
    need_legal = any(p.invariant is not None and "legal_moves" in p.invariant.names for p in spec.properties)
    complete = True
    explored = 0
    while frontier:
        state, d = frontier.popleft()
        explored += 1
        key = state_key(state)
        legal = ex.moves(state) if (d < depth or need_legal) else None
        env = ex.env(state, legal if need_legal else None)
        for pid in list(pending):
            prop = pending[pid]
            try:
                bad = _violates(ex, prop, state, env)
            except RuleError as exc:  # the property's expression failed: the property file is at fault
                raise _fail(f"property {prop.id} cannot be evaluated: {exc}", prop.position) from None
            if bad is None:
                continue
            path, extra = _path(parent, key), bad
            log = counterexample_log(rules, players, table.plays + path + extra[0], rules_ref, house, public,
                                     first=table.first)
            if not _consistent(machine, players, start, path + extra[0], public_facts):
                continue  # no deal allows this path's observations: look further
            results[pid] = ProofResult(prop, False, explored, log, len(path) + len(extra[0]), extra[1], key)
            del pending[pid]
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
            states[k2] = out.state
            frontier.append((out.state, d + 1))
            if len(parent) > MAX_STATES:
                complete = False
                frontier.clear()
                break
    for pid, prop in pending.items():
        results[pid] = ProofResult(prop, True, explored)
    seconds = time.perf_counter() - t0
    return Proof(rules.canonical_name, depth, explored, seconds, [results[p.id] for p in spec.properties], complete,
                 len(table.plays))


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
    """None if the property holds here; else the extra moves that show it and what goes wrong."""
    m = ex.machine
    if prop.invariant is not None:
        if _truth(m, prop.invariant, env, prop.id):
            return None
        return [], f"{prop.invariant.source} is false"
    if prop.when is not None and not _truth(m, prop.when, env, prop.id):
        return None
    limit = m._run(prop.within, env, prop.id)  # type: ignore[arg-type]
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise _fail(f"within: {prop.within.source} must give a whole number, not {limit!r}",  # type: ignore[union-attr]
                    prop.within.position)  # type: ignore[union-attr]
    return _within(ex, prop, state, int(limit), [])


def _within(ex: _Explorer, prop: Property, state: State, left: int, path: list[Play]) -> tuple[list[Play], str] | None:
    m = ex.machine
    if _truth(m, prop.reaches, ex.env(state, None), prop.id):  # type: ignore[arg-type]
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


def _truth(m: Machine, expr: Expr, env: Mapping[str, Any], where: str) -> bool:
    return bool(m._truth(expr, env, f"property {where}"))


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
            "seconds": round(proof.seconds, 3), "complete": proof.complete,
            "properties": [{"id": r.prop.id, "says": r.prop.says, "holds": r.holds, "states": r.states,
                            "message": r.message, "moves": r.at, "counterexample": r.counterexample}
                           for r in proof.results]}


def prove_text(proof: Proof) -> str:
    after = f" after the opening's {proof.opening} move(s)" if proof.opening else ""
    lines = [f"{proof.name}: {proof.states:,} states explored up to depth {proof.depth}{after} in {proof.seconds:.2f} s"
             + ("" if proof.complete else f" (stopped at {MAX_STATES:,} states: not every state was seen)")]
    for r in proof.results:
        says = f" — {r.prop.says}" if r.prop.says else ""
        if r.holds:
            lines.append(f"  {r.prop.id}: holds up to depth {proof.depth}{after} ({proof.states:,} states){says}")
        else:
            past = f" past the opening ({proof.opening + (r.at or 0)} in the log)" if proof.opening else ""
            lines.append(f"  {r.prop.id}: FAILS after {r.at} move(s){past}: {r.message}{says}")
            lines.append("    counterexample (check it with ruleslawyer check, --allow-path for its rule files):")
            lines.extend("      " + line for line in (r.counterexample or "").splitlines())
    return "\n".join(lines)
