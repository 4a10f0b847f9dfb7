"""Game logs: the hand-written YAML format, read into typed values with positions.

A log names its rules, the players in seating order and who starts, may
give private facts, then lists the moves, and may end with the end of the
game::

    rules: <game>                # a bundled rule set by name, or a rule file in the log's folder tree
    players: [Helen, Gordon, John, Audrey]
    first: Helen
    setup:                       # public, declared by the rule file's log: section
      <player item record>: {Helen: <item>, ...}   # one item per player, required
      <zone record>: [<card>, ...]                 # the cards of a zone everyone sees
    private:                     # keys declared by the rule file's log: section
      <zone record>: {Helen: <card>}     # the cards of a player's zone, when known
      <token record>: {Gordon: [2, 0]}   # token values in the order placed; null if unknown
    moves:
      - {<move>: Helen, <parameter>: <value>, ...}
    end:
      <zone record>: {Helen: <card>, ...}            # shown at the end
      <tokens record>: {<space>: {Gordon: 2}}        # tokens turned face up at the end
      <scores record>: {Helen: 0, Gordon: 2}
      <winners record>: Gordon

What ``private:`` and ``end:`` may hold is declared by the rule file
(``log:``); the log's JSON Schema is generated from it
(:mod:`spec.logschema`).  Items are written as printed or by any alias,
players as listed, both case-insensitively.  A move parameter that the
rules let be unknown is written ``?`` (a card shown to someone else); a
choice is one of its values, a flag ``true`` or ``false``.  The examples/
folder has complete logs of each game.

A move is a mapping whose one key naming a move of the rules gives the
player; its other keys are that move's parameters.  :func:`parse_log`
raises :class:`DiagnosticError` with every problem found when the log is
unusable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

from ..spec.diagnostics import Diagnostic, DiagnosticError, Fix, Position, did_you_mean
from ..spec.env import static_env
from ..spec.loader import load_rules, schema_diagnostics, schema_errors
from ..spec.logschema import sections_schema
from ..spec.machine import Play
from ..spec.model import UNKNOWN, Move, MoveParam, RecordSpec, Ruleset
from ..spec.paths import ALLOWED, PathPolicy, bare_name
from ..spec.source import Limits, LMap, LSeq, parse_text, position_of, read_yaml
from .capacity import load_usable
from .names import NameHook, Names, fold, rename

__all__ = ["GameLog", "Header", "LoggedMove", "PrivateFacts", "EndRecord", "Recorded", "ZoneRecord",
           "parse_log", "parse_log_text", "parse_document", "parse_with_rules"]

#: jsonschema problems keep their meaning but get the log's code family.
_SCHEMA_CODES = {"RL101": "LG101", "RL102": "LG102", "RL103": "LG103", "RL104": "LG104"}


class Recorded(NamedTuple):
    """A value the log records, with where it stands."""

    value: Any
    position: Position | None


class LoggedMove(NamedTuple):
    """One move of the log: the move as played, where it stands, its raw YAML."""

    play: Play
    position: Position
    raw: LMap

    def at(self, key: str) -> Position:
        """Position of one of the move's keys' value (the move's own if absent)."""
        return self.raw.pos_of(key) if key in self.raw else self.position


@dataclass(frozen=True)
class Header:
    rules: str
    variant: str | None
    house: tuple[str, ...]
    players: tuple[str, ...]
    first: str
    positions: dict[str, Position | None] = field(default_factory=dict)
    setup: dict[str, dict[str, str]] = field(default_factory=dict)   # setup record -> player -> item
    title: str | None = None   # the log's own ``title:``, free text


@dataclass(frozen=True)
class ZoneRecord:
    """The cards a log records in the players' zones of one family (one key of the log)."""

    spec: RecordSpec
    cards: dict[str, tuple[Recorded, ...]] = field(default_factory=dict)  # player -> cards, each with its place

    @property
    def key(self) -> str:
        return self.spec.key


@dataclass(frozen=True)
class PrivateFacts:
    """What single players know: the cards of their zones, their tokens' values."""

    zones: tuple[ZoneRecord, ...] = ()
    tokens: dict[str, tuple[Recorded, ...]] = field(default_factory=dict)  # player -> values in order placed


@dataclass(frozen=True)
class EndRecord:
    """The end of the game as recorded: cards shown, tokens turned up, scores, winners."""

    position: Position | None
    zones: tuple[ZoneRecord, ...] = ()
    tokens: dict[str, dict[str, Recorded]] = field(default_factory=dict)       # space -> player -> values
    scores: dict[str, Recorded] = field(default_factory=dict)                   # player -> points
    winners: Recorded | None = None                                             # tuple of players
    keys: dict[str, Position | None] = field(default_factory=dict)              # where each key stands
    claim_keys: tuple[str, ...] = ()                                            # the scores and winners keys

    def claims(self) -> Position | None:
        """Where the recorded result (scores, else winner) stands."""
        for key in self.claim_keys:
            if self.keys.get(key):
                return self.keys[key]
        return self.position


@dataclass
class GameLog:
    """A parsed log: header, private facts, moves in order and the end."""

    path: str
    header: Header
    private: PrivateFacts
    moves: list[LoggedMove]
    end: EndRecord | None
    public: tuple[ZoneRecord, ...] = ()   # the cards of zones the set-up shows everyone
    #: What reading it found but read on past: names taken as the one they most likely meant
    #: (``check`` reports them with the rest; see :func:`parse_log`'s ``recover``).
    problems: tuple[Diagnostic, ...] = ()
    #: Moves (0-based) with names nothing comes close to (read with ``recover``): the keys of
    #: their raw YAML not read (the move's own key for its player, then ``play.actor`` is
    #: ``""``), left out of the play; the replay infers them (:meth:`.recover.Recovery.infer`).
    unread: dict[int, frozenset[str]] = field(default_factory=dict)

    def __iter__(self) -> Iterator[LoggedMove]:
        return iter(self.moves)


def parse_log(path: str, allow: Iterable[str] | None = None, house: tuple[str, ...] = (),
              recover: bool = False, on_name: NameHook | None = None) -> tuple[GameLog, Ruleset]:
    """Read and check a log file; raise :class:`DiagnosticError` if unusable.

    ``recover``: when every problem is a name that matches nothing but comes close to one
    ("did you mean"), read the names as meant and keep the diagnostics in the log's
    ``problems`` instead of raising, so that the rest of the log is checked too.  A name
    nothing comes close to is read past too where that is safe: in a move (the move is
    kept with that name unread, see :class:`GameLog`'s ``unread``), in ``private:`` and in ``end:``
    (the record it stands in is left out); in the header and ``setup:`` it still raises.

    ``allow``: folders besides the log's own where the files it names may be
    (``--allow-path``; default: those the command line set, see :mod:`spec.paths`).
    ``house``: overlays to play with besides the ones the log names (``--house``),
    by name or by a file the command line gives.
    ``on_name``: told of every name found (as written, where, as printed; see
    :data:`~.names.NameHook`), player keys and move kinds included.
    """
    return parse_document(read_yaml(path), str(path), allow, house, recover, on_name)


def parse_log_text(text: str, path: str = "<log>", allow: Iterable[str] | None = None,
                   house: tuple[str, ...] = (), recover: bool = False,
                   on_name: NameHook | None = None) -> tuple[GameLog, Ruleset]:
    """As :func:`parse_log`, from text (rule files are found relative to ``path``)."""
    return parse_document(parse_text(text, path), path, allow, house, recover, on_name)


def parse_document(doc: Any, path: str, allow: Iterable[str] | None = None,
                   house: tuple[str, ...] = (), recover: bool = False,
                   on_name: NameHook | None = None) -> tuple[GameLog, Ruleset]:
    """Check a log already read as YAML, load its rules, resolve every name."""
    _check_shape(doc, path)
    extra = tuple(h if bare_name(h) else os.path.abspath(h) for h in house)
    folders = [str(Path(h).parent) for h in extra if not bare_name(h)]
    if folders:  # overlays the command line names: their folders are the user's to read
        allow = [*(ALLOWED.get() if allow is None else allow), *folders]
    rules = _rules(doc, path, PathPolicy.for_log(path, allow), extra)
    return _read(doc, path, rules, recover, on_name), rules


def parse_with_rules(doc: Any, path: str, rules: Ruleset) -> GameLog:
    """As :func:`parse_document`, for a log played under rules already loaded: its
    ``rules:``, ``variant:`` and ``house:`` are checked for their shape, never read.

    For a log that is part of another file (``prove``'s opening): ``doc`` is a
    mapping read from it (:class:`LMap`, its positions those of that file).
    """
    _check_shape(doc, path)
    return _read(doc, path, rules)


def _check_shape(doc: Any, path: str) -> None:
    """A mapping, no name too long, the header's schema (before any rule file is read)."""
    if not isinstance(doc, LMap):
        raise DiagnosticError([Diagnostic("LG102", "a log must be a mapping (rules:, players:, moves: ...)",
                                          position_of(doc) or Position(path, 1, 1))])
    problems = _long_strings(doc, Limits.from_env().max_name)
    if problems:
        raise DiagnosticError(problems)
    problems = [replace(d, code=_SCHEMA_CODES.get(d.code, d.code))
                for d in schema_diagnostics(doc, "log.schema.json")]
    if problems:
        raise DiagnosticError(problems)


def _read(doc: LMap, path: str, rules: Ruleset, recover: bool = False,
          on_name: NameHook | None = None) -> GameLog:
    """The sections the rule file declares checked, then every name resolved."""
    problems = [replace(d, code=_SCHEMA_CODES.get(d.code, d.code))
                for d in schema_errors(doc, _sections_schema(rules.records))]
    if problems:
        raise DiagnosticError(problems)
    parser = _Parser(doc, path, rules, recover, on_name)
    log = parser.run()
    if parser.diagnostics:
        taken = parser.names.taken if parser.names is not None else []
        if recover and len(taken) + len(parser.read_past) == len(parser.diagnostics):
            return replace(log, problems=tuple(parser.diagnostics))
        raise DiagnosticError(parser.diagnostics)
    return log


#: Free text, never compared with anything: only the limit of every file applies.
_TEXT_KEYS = frozenset({"title", "date", "notes"})
#: Paths: as long as the file system allows.
_PATH_KEYS = frozenset({"rules", "house"})
_MAX_PATH = 4096


def _long_strings(doc: LMap, limit: int) -> list[Diagnostic]:
    """Names and values longer than ``limit`` characters (LG117; the first 20).

    Names are compared by the rules on every move: a name of a million
    characters would turn each comparison into a long walk.
    """
    if _all_short([v for k, v in doc.items() if k not in _TEXT_KEYS] + list(doc), limit):
        return []  # the usual case, without positions
    out: dict[Position | None, Diagnostic] = {}
    stack: list[tuple[Any, int, Position | None]] = [
        (v, _MAX_PATH if k in _PATH_KEYS else limit, doc.pos_of(k)) for k, v in doc.items() if k not in _TEXT_KEYS]
    stack.extend((k, limit, doc.key_position(k)) for k in doc)
    while stack and len(out) < 20:
        node, most, pos = stack.pop()
        if isinstance(node, LMap):
            stack.extend((k, most, node.key_position(k)) for k in node)
            stack.extend((v, most, node.pos_of(k)) for k, v in node.items())
        elif isinstance(node, LSeq):
            stack.extend((v, most, node.pos_of(i)) for i, v in enumerate(node))
        elif isinstance(node, str) and len(node) > most:
            out.setdefault(pos, _too_long(node, most, pos))
    return sorted(out.values(), key=lambda d: (d.position.line, d.position.column) if d.position else (0, 0))


def _all_short(nodes: list[Any], limit: int) -> bool:
    """Whether every string among these nodes' keys and values has at most ``limit`` characters."""
    stack = nodes
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if len(node) > limit:
                return False
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def _too_long(text: str, most: int, pos: Position | None) -> Diagnostic:
    return Diagnostic("LG117", f"a name or value of {len(text):,} characters: a log's are at most {most:,}", pos,
                      hint="raise RULESLAWYER_MAX_NAME if the log is genuine" if most != _MAX_PATH else None)


# -- rules ---------------------------------------------------------------------

_CACHE: dict[tuple[Any, ...], tuple[Ruleset, tuple[tuple[str, int], ...]]] = {}
_CACHE_SIZE = 16


def _stamp(files: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    out = []
    for f in files:
        try:
            out.append((f, Path(f).stat().st_mtime_ns))
        except OSError:
            out.append((f, -1))
    return tuple(out)


@lru_cache(maxsize=16)
def _sections_schema(records: tuple[Any, ...]) -> dict[str, Any]:
    """The schema of what a rule set declares for ``private:`` and ``end:`` (built once)."""
    return sections_schema(records)


def load_cached(ref: str, variant: str | None, house: tuple[str, ...],
                policy: PathPolicy | None = None) -> Ruleset:
    """:func:`load_rules` with a cache invalidated when a rule file changes."""
    key = (ref, variant, house, policy)
    hit = _CACHE.get(key)
    if hit is not None and _stamp(tuple(f for f, _ in hit[1])) == hit[1]:
        return hit[0]
    rules = load_usable(ref, variant=variant, house=list(house), policy=policy)
    while len(_CACHE) >= _CACHE_SIZE:  # the oldest first: a long run reads many rule sets
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = (rules, _stamp(rules.files))
    return rules


def _first_as(name: Any, first: Any) -> str:
    return "" if str(name) == str(first) else f" (first as '{first}')"


def _rules(doc: LMap, path: str, policy: PathPolicy, extra: tuple[str, ...] = ()) -> Ruleset:
    def found(ref: Any, pos: Position | None) -> str:
        """The file a name means, when there is one where the log may name it (else the name)."""
        hit = policy.find(str(ref), None, pos)
        return str(ref) if hit is None else os.path.abspath(hit)

    variant = doc.get("variant")
    defaulted = variant is None
    if defaulted:
        variant = str(len(doc["players"]))
    try:
        ref = found(doc["rules"], doc.pos_of("rules"))
        own = list(doc.get("house") or ())
        house = tuple(found(h, doc["house"].pos_of(i)) for i, h in enumerate(own))
        twice = [Diagnostic("RL144", f"house rule '{h}' is given twice{_first_as(h, own[house.index(f)])}: "
                                     "an overlay applies once", doc["house"].pos_of(i), hint="name it once")
                 for i, (h, f) in enumerate(zip(own, house)) if f in house[:i]]
        if not twice:
            named = {str(h) for h in own} | set(house)
            house += tuple(h for h in extra if h not in named)  # an overlay the log names already applies once
            return load_cached(ref, str(variant), house, policy)
    except DiagnosticError as exc:
        diags = list(exc.diagnostics)
        if defaulted and any(d.code == "RL127" for d in diags):
            raise DiagnosticError([Diagnostic(
                "LG114", f"no variant of '{doc['rules']}' for {len(doc['players'])} players",
                doc.pos_of("players"), hint="name one with 'variant:'")]) from None
        where = doc.pos_of("variant") if any(d.code == "RL127" for d in diags) and not defaulted else doc.pos_of("rules")
        lead = Diagnostic("LG115", f"the rules '{doc['rules']}' cannot be used", where,
                          hint="the problems found in the rule files follow")
        raise DiagnosticError([lead, *diags]) from None
    raise DiagnosticError(twice)


# -- the log itself ----------------------------------------------------------------


class _Parser:
    def __init__(self, doc: LMap, path: str, rules: Ruleset, recover: bool = False,
                 on_name: NameHook | None = None):
        self.doc = doc
        self.on_name = on_name
        self.path = path
        self.rules = rules
        self.recover = recover
        self.diagnostics: list[Diagnostic] = []
        self.names: Names | None = None
        #: Unknown names in the parts of the log read past them (``recover``: see :func:`parse_log`).
        self.read_past: list[Diagnostic] = []
        self.unread: set[str] = set()   # the keys of the move being read with unknown names

    def past(self, read: Any, *args: Any) -> Any:
        """``read(*args)``, with the names it leaves unknown read past."""
        assert self.names is not None
        before = len(self.names.left)
        out = read(*args)
        self.read_past.extend(self.names.left[before:])
        return out

    def error(self, code: str, message: str, pos: Position | None, hint: str | None = None,
              fix: Fix | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, pos, hint=hint, fix=fix))

    def run(self) -> GameLog:
        header = self.header()
        self.names = Names(self.rules, header.players, self.diagnostics, meant=self.recover, seen=self.on_name)
        first = self.player(self.doc["first"], self.doc.pos_of("first")) if "first" in self.doc else header.players[0]
        header = replace(header, first=first or header.players[0])
        header = replace(header, setup=self.setup(self.doc.get("setup")))
        private = self.past(self.private, self.doc.get("private"))
        moves: list[LoggedMove] = []
        unread: dict[int, frozenset[str]] = {}
        for i, item in enumerate(self.doc.get("moves") or []):
            self.unread = set()
            found = self.past(self.move, i, item)
            if found is not None:
                if self.unread:
                    unread[len(moves)] = frozenset(self.unread)
                moves.append(found)
        end = self.past(self.end, self.doc["end"]) if "end" in self.doc else None
        setup = self.doc.get("setup") or {}
        public = tuple(self.zone(spec, setup[spec.key], setup.pos_of(spec.key)) for spec in self.rules.records
                       if spec.section == "setup" and spec.kind == "zone" and spec.key in setup)
        return GameLog(self.path, header, private, moves, end, public, unread=unread)

    def header(self) -> Header:
        doc = self.doc
        players = tuple(str(p) for p in doc["players"])
        seen: dict[str, int] = {}
        for i, p in enumerate(players):
            if fold(p) in seen:
                self.error("LG114", f"player '{p}' is listed twice", doc["players"].pos_of(i))
            seen.setdefault(fold(p), i)
        wanted = self.rules.param("players")
        if len(players) != wanted:
            self.error("LG114", f"{len(players)} players listed, but {self.rules.canonical_name} is for {wanted}",
                       doc.pos_of("players"), hint="name the variant with 'variant:' or fix the list")
        positions = {k: doc.pos_of(k) for k in doc}
        variant = None if doc.get("variant") is None else str(doc["variant"])
        title = doc.get("title")
        return Header(str(doc["rules"]), variant, tuple(str(h) for h in doc.get("house") or ()),
                      players, players[0], positions, title=str(title) if isinstance(title, str) and title else None)

    def player(self, text: Any, pos: Position | None) -> str | None:
        assert self.names is not None
        return self.names.player(text, pos)

    def item(self, component: str, text: Any, pos: Position | None) -> str | None:
        assert self.names is not None
        return self.names.item(component, text, pos)

    # -- private facts and the end ------------------------------------------------
    def by_player(self, node: LMap | None) -> dict[str, tuple[Any, Position | None, Position | None]]:
        """player -> (raw value, value position, key position), players resolved."""
        out: dict[str, tuple[Any, Position | None, Position | None]] = {}
        for key, value in (node or {}).items():
            who = self.player(key, node.key_position(key))  # type: ignore[union-attr]
            if who is None:
                continue
            if who in out:
                self.error("LG114", f"player '{who}' is given twice", node.key_position(key))  # type: ignore[union-attr]
                continue
            out[who] = (value, node.pos_of(key), node.key_position(key))  # type: ignore[union-attr]
        return out

    def zone(self, spec: RecordSpec, node: Any, pos: Position | None) -> ZoneRecord:
        """Per player, the cards recorded in their zone (one card or a list); for a zone
        nobody owns, its cards under the owner ``""``."""
        deal = self.rules.deal
        deck = deal.deck_of_family(spec.zone) if deal else None  # type: ignore[arg-type]
        per_player = deal is not None and deal.families()[spec.zone].per_player  # type: ignore[index]
        out: dict[str, tuple[Recorded, ...]] = {}
        if deck is not None and deck.when is not None and not deck.when.test(static_env(self.rules)):
            self.error("LG101", f"'{spec.key}' records the {spec.zone} zone, which {self.rules.canonical_name} "
                       "does not deal", pos, hint=f"the deck is dealt when {deck.when.source} (a house rule or "
                       "variant switches it on)")
            return ZoneRecord(spec, out)
        entries = self.by_player(node).items() if per_player else [("", (node, pos, pos))]
        for who, (value, pos, _k) in entries:
            given = [(v, value.pos_of(i)) for i, v in enumerate(value)] if isinstance(value, list) else [(value, pos)]
            cards = [Recorded(self.item(deck.cards, v, vpos), vpos) for v, vpos in given] if deck else []
            if cards and all(c.value is not None for c in cards):
                out[who] = tuple(cards)
        return ZoneRecord(spec, out)

    def setup(self, node: LMap | None) -> dict[str, dict[str, str]]:
        """The public set-up: each ``player_item`` record, one item per player."""
        out: dict[str, dict[str, str]] = {}
        for spec in self.rules.records:
            if spec.section != "setup" or spec.kind != "player_item" or not node or spec.key not in node:
                continue
            given = self.by_player(node[spec.key])
            items: dict[str, str] = {}
            first: dict[str, str] = {}
            for who, (value, vpos, _k) in given.items():
                item = self.item(spec.component, value, vpos)  # type: ignore[arg-type]
                if item is None:
                    continue
                if spec.distinct and item in first:
                    self.error("LG104", f"setup: {spec.key}: {who} and {first[item]} cannot both have "
                               f"{self.rules.name(item)}", vpos)
                    continue
                first[item] = who
                items[who] = item
            missing = [p for p in self.names.players if p not in given] if self.names else []
            if missing:
                self.error("LG103", f"setup: {spec.key} gives no {self.rules.noun(spec.component)} for "  # type: ignore[arg-type]
                           f"{', '.join(missing)}", node.key_position(spec.key),
                           hint=f"every player needs one: {{{', '.join(f'{p}: ...' for p in missing)}}}")
            out[spec.key] = items
        return out

    def private(self, node: LMap | None) -> PrivateFacts:
        if not node:
            return PrivateFacts()
        zones, tokens = [], {}
        for spec in self.rules.records:
            if spec.section != "private" or spec.key not in node:
                continue
            if spec.kind == "zone":
                zones.append(self.zone(spec, node[spec.key], node.pos_of(spec.key)))
            elif spec.kind == "token_values":
                for who, (values, _pos, _k) in self.by_player(node[spec.key]).items():
                    tokens[who] = tuple(Recorded(v, values.pos_of(i)) for i, v in enumerate(values))
        return PrivateFacts(tuple(zones), tokens)

    def end(self, node: LMap | None) -> EndRecord:
        node = node or LMap()
        pos = position_of(self.doc, "end")
        zones, tokens, scores, winners = [], {}, {}, None
        claim_keys = []
        for spec in self.rules.records:
            if spec.section != "end":
                continue
            if spec.kind in ("scores", "winners"):
                claim_keys.append(spec.key)
            if spec.key not in node:
                continue
            value = node[spec.key]
            if spec.kind == "zone":
                zones.append(self.zone(spec, value, node.pos_of(spec.key)))
            elif spec.kind == "tokens_shown":
                tokens.update(self.tokens_shown(value))
            elif spec.kind == "scores":
                scores = {who: Recorded(v, vpos) for who, (v, vpos, _k) in self.by_player(value).items()}
            elif spec.kind == "winners":
                items = [(value, node.pos_of(spec.key))] if isinstance(value, str) else \
                    [(w, value.pos_of(i)) for i, w in enumerate(value)]
                found = tuple(p for p in (self.player(w, wpos) for w, wpos in items) if p)
                if len(found) == len(items):  # else a name unknown: the winners are not read
                    winners = Recorded(found, node.pos_of(spec.key))
        keys = {k: node.key_position(k) for k in node} if isinstance(node, LMap) and node else {}
        return EndRecord(pos, tuple(zones), tokens, scores, winners, keys, tuple(claim_keys))

    def tokens_shown(self, node: LMap) -> dict[str, dict[str, Recorded]]:
        """space -> player -> values turned face up at the end."""
        out: dict[str, dict[str, Recorded]] = {}
        on = self.rules.tokens.on  # type: ignore[union-attr]
        for name, owners in node.items():
            space = self.item(on, name, node.key_position(name))
            if space is None:
                continue
            row = out.setdefault(space, {})
            for who, (values, vpos, _k) in self.by_player(owners).items():
                row[who] = Recorded(tuple(values) if isinstance(values, list) else (values,), vpos)
        return out

    # -- moves ------------------------------------------------------------------------
    def move(self, index: int, raw: LMap) -> LoggedMove | None:
        moves_seq: LSeq = self.doc["moves"]
        pos = moves_seq.pos_of(index)
        kinds = {fold(k): k for k in self.rules.moves}
        verbs = [k for k in raw if isinstance(k, str) and fold(k) in kinds]
        if len(verbs) != 1:
            if verbs:
                self.error("LG112", f"one move per item: this one names {', '.join(map(str, verbs))}", pos)
            else:
                hint, fix = self._move_hint(raw)
                self.error("LG112", "this item names no move", pos, hint=hint, fix=fix)
            return None
        verb = verbs[0]
        move = self.rules.moves[kinds[fold(verb)]]
        if self.on_name is not None:
            self.on_name(verb, raw.key_position(verb), move.name)
        unread = self.unread
        actor = self.unknown_name(lambda: self.player(raw[verb], raw.pos_of(verb)), verb, unread, "")
        params = {p.name: p for p in move.params}
        args: dict[str, Any] = {}
        ok = actor is not None
        for key in raw:
            if key == verb:
                continue
            param = params.get(key) if isinstance(key, str) else None
            if param is None:
                near = did_you_mean(str(key), list(params))
                self.error("LG113", f"'{move.name}' takes no parameter '{key}'", raw.key_position(key),
                           hint=f"did you mean '{near}'?" if near else
                           (f"its parameters are: {', '.join(params)}" if params else "it takes no parameter"),
                           fix=rename(raw.key_position(key), near) if near not in raw else None)
                ok = False
                continue
            value = self.unknown_name(lambda: self.value(move, param, raw[key], raw.pos_of(key)), key, unread)
            if value is _BAD:
                ok = False
            elif value is not _UNREAD:
                args[key] = value
        if not ok:
            return None
        return LoggedMove(Play(move.name, actor or "", args), pos, raw)  # type: ignore[arg-type]

    def unknown_name(self, read: Any, key: str, unread: set[str], missing: Any = None) -> Any:
        """``read()``; when it meets unknown names and no other problem and the log is read
        with ``recover``, ``missing`` (default ``_UNREAD``) with ``key`` added to ``unread``
        (a value read in part, as reveals without an unknown player's, is not kept either)."""
        assert self.names is not None
        count, left = len(self.diagnostics), len(self.names.left)
        value = read()
        new = len(self.names.left) - left
        if not self.recover or not new or len(self.diagnostics) - count != new:
            return value
        unread.add(key)
        return _UNREAD if missing is None else missing

    def _move_hint(self, raw: LMap) -> tuple[str, Fix | None]:
        """The hint for an item that names no move, and the fix when a single key is near one."""
        near = [(key, m) for key in raw for m in [did_you_mean(str(key), list(self.rules.moves))] if m]
        if near:
            key, meant = near[0]
            return f"did you mean '{meant}'?", rename(raw.key_position(key), meant) if len(near) == 1 else None
        first = next(iter(self.rules.moves))
        return (f"a move is one of: {', '.join(self.rules.moves)} "
                f"(e.g. '- {{{first}: {self.names.players[0] if self.names else 'player'}, ...}}')"), None

    def value(self, move: Move, p: MoveParam, value: Any, pos: Position | None) -> Any:
        """A parameter's value from the log, names resolved (``_BAD`` if unusable)."""
        if p.type == "items":
            kinds = p.components or (p.of,)
            noun = " or ".join(f"{self.rules.noun(k)}s" for k in kinds)  # type: ignore[arg-type]
            if not isinstance(value, list):
                self.error("LG116", f"'{p.name}' of '{move.name}' is a list of {noun}", pos)
                return _BAD
            found = [self.names.item_of(kinds, v, value.pos_of(i))  # type: ignore[union-attr,arg-type]
                     for i, v in enumerate(value)]
            return _BAD if None in found else found
        if p.type == "item":
            if isinstance(value, (list, dict)):
                self.error("LG116", f"'{p.name}' of '{move.name}' is one {self.rules.noun(p.of)}", pos)  # type: ignore[arg-type]
                return _BAD
            if p.unknown and value == "?":
                return UNKNOWN
            found = self.item(p.of, value, pos)  # type: ignore[arg-type]
            return _BAD if found is None else found
        if p.type == "choice":
            by_fold = {fold(v): v for v in p.values}
            if isinstance(value, (str, int)) and not isinstance(value, bool) and fold(value) in by_fold:
                if self.on_name is not None and isinstance(value, str) and isinstance(by_fold[fold(value)], str):
                    self.on_name(value, pos, by_fold[fold(value)])
                return by_fold[fold(value)]
            near = did_you_mean(str(value), [str(v) for v in p.values])
            # as an unknown name: read as the value meant, or the move kept without it (``recover``)
            meant = self.names.unknown(Diagnostic(  # type: ignore[union-attr]
                "LG116", f"'{p.name}' of '{move.name}' is one of {', '.join(map(str, p.values))}, not {value!r}",
                pos, hint=f"did you mean '{near}'?" if near else None,
                fix=rename(pos, near) if isinstance(value, str) else None),
                next((v for v in p.values if str(v) == near), None) if near else None)
            return _BAD if meant is None else meant
        if p.type == "flag":
            if not isinstance(value, bool):
                self.error("LG116", f"'{p.name}' of '{move.name}' is true or false, not {value!r}", pos)
                return _BAD
            return value
        if p.type == "player":
            found = self.player(value, pos)
            return _BAD if found is None else found
        if p.type in ("count", "token_value"):
            if isinstance(value, bool) or not isinstance(value, int):
                self.error("LG116", f"'{p.name}' of '{move.name}' is a whole number, not {value!r}", pos)
                return _BAD
            return value
        if p.type == "token_reveals":
            return self.reveals(move, p, value, pos)
        return value

    def reveals(self, move: Move, p: MoveParam, value: Any, pos: Position | None) -> Any:
        """Values, or ``(player, value)`` pairs from a mapping player -> value(s)."""
        def number(v: Any, where: Position | None) -> bool:
            if isinstance(v, bool) or not isinstance(v, int):
                self.error("LG116", f"a revealed {self.rules.tokens.noun} value is a whole number, not {v!r}", where)  # type: ignore[union-attr]
                return False
            return True

        if isinstance(value, int) and not isinstance(value, bool):
            return [value]
        if isinstance(value, list):
            ok = all([number(v, value.pos_of(i)) for i, v in enumerate(value)])
            return list(value) if ok else _BAD
        if isinstance(value, dict):
            out: list[tuple[str, int]] = []
            ok = True
            for who, (vals, vpos, _k) in self.by_player(value).items():
                items = vals if isinstance(vals, list) else [vals]
                for i, v in enumerate(items):
                    where = vals.pos_of(i) if isinstance(vals, list) else vpos
                    if number(v, where):
                        out.append((who, v))
                    else:
                        ok = False
            return out if ok else _BAD
        self.error("LG116", f"'{p.name}' of '{move.name}' lists values, or maps players to values", pos)
        return _BAD


class _Bad:
    def __repr__(self) -> str:
        return "<bad value>"


_BAD = _Bad()
_UNREAD = _Bad()  # a value whose names are unknown: the move is kept without it
