"""Loading rule files and house overlays into a :class:`~spec.model.Ruleset`.

Every problem is reported as a positioned diagnostic: schema violations
(unknown key RL101, wrong type RL102, missing key RL103, bad value RL104),
bad expressions (RL120), unknown names (RL121 name, RL122 parameter, RL123
option, RL124 option value, RL125 source, RL126 clue or alias, RL127
variant, RL128 phase or move), values out of range or contradictory
(RL130, RL131) and overlay problems (RL140 cycle, RL141 missing base,
RL142 overlay for another game).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import permutations
from pathlib import Path
from typing import Any, Iterable, Sequence

import jsonschema

from .diagnostics import Diagnostic, DiagnosticError, Position, Related, did_you_mean
from .expr import MAX_STEPS, Expr, LimitError, compile_expr
from .model import (Category, Cite, Clue, Effect, Flow, Function, LogCheck, Move, MoveParam, Observation,
                    Option, Require, Ruleset, Scoring, ScoringStep, Setting, Template)
from .paths import PathPolicy, bare_name, bundled_dir, is_file
from .source import LMap, LSeq, position_of, read_yaml

__all__ = ["load_rules", "rules_dir", "find_rule_file", "validate_file", "deal_patterns", "ENGINE_NAMES"]

SPEC_DIR = Path(__file__).resolve().parent
MAX_DIAGNOSTICS = 200  # per file: past this, a count (a hostile file can hold many thousands)

# Names every rule expression may read (bound by the state machine).
ENGINE_NAMES = frozenset({
    "players", "n_players", "actor", "phase", "turn", "first", "out", "active", "passed",
    "covered", "spaces", "tokens", "clues", "categories", "category", "clues_of", "params",
    "options", "vars", "move", "ended", "next_active", "counters_left", "counters_left_of", "name",
})
OBSERVE_NAMES = frozenset({"evidence"})
SCORING_NAMES = frozenset({"evidence", "solution", "player", "score", "t"})
EFFECT_VERBS = ("set", "cover", "reveal", "eliminate", "pass", "clear_passes", "place", "phase", "turn", "end", "when")


def rules_dir() -> Path:
    """The bundled rules/ folder."""
    return bundled_dir()


def source_path(rules: "Ruleset", src: str) -> Path:
    """The rulebook file a citation's ``src`` names (kept in rules/sources/)."""
    return rules_dir() / "sources" / rules.sources[src]


def find_rule_file(name_or_path: str, relative_to: Path | None = None, policy: PathPolicy | None = None,
                   position: Position | None = None) -> Path | None:
    """A bundled rule set by name (its file name without .yaml) or a path; None when not found.

    Under a ``policy`` (files named by a log), only where the policy allows
    (else DiagnosticError RL011 at ``position``), and never relative to the
    working folder.
    """
    if policy is not None:
        found = policy.find(name_or_path, relative_to, position)
        return None if found is None else _shown(found)
    candidates = []
    p = Path(name_or_path)
    if relative_to is not None and not p.is_absolute():
        candidates.append(relative_to / p)
    candidates.append(p)
    if bare_name(name_or_path):
        candidates.append(rules_dir() / f"{name_or_path}.yaml")
        candidates.append(rules_dir() / "house" / f"{name_or_path}.yaml")
    for c in candidates:
        if is_file(c):
            return _shown(c)
    return None


def _is_dir(name: str) -> bool:
    try:
        return Path(name).is_dir()
    except (OSError, ValueError):  # a name too long, a NUL byte...
        return False


def _shown(path: Path) -> Path:
    """The path as a user would type it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


@lru_cache(maxsize=4)
def _schema(name: str) -> jsonschema.Draft202012Validator:
    data = json.loads((SPEC_DIR / name).read_text())
    return jsonschema.Draft202012Validator(data)


def _walk(doc: Any, path: Sequence[Any]) -> tuple[Any, Position | None]:
    node, pos = doc, position_of(doc)
    for key in path:
        parent = node
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        pos = position_of(parent, key) or pos
    return node, pos


def schema_diagnostics(doc: Any, schema_name: str) -> list[Diagnostic]:
    """Validate ``doc`` and turn every error into a positioned diagnostic."""
    validator = _schema(schema_name)
    out: list[Diagnostic] = []
    errors = sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    for err in errors:
        out.extend(_one_schema_error(doc, err))
        if len(out) > 4 * MAX_DIAGNOSTICS:
            break
    # Several schema errors can point at one place (oneOf branches): keep one each.
    seen, unique = set(), []
    for d in out:
        key = (d.position, d.code)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    if len(unique) > MAX_DIAGNOSTICS:
        dropped = len(unique) - MAX_DIAGNOSTICS
        unique = unique[:MAX_DIAGNOSTICS]
        unique.append(Diagnostic("RL104", f"... and {dropped} more problem(s) of this file not shown",
                                 unique[-1].position, severity="note"))
    return unique


def _one_schema_error(doc: Any, err: jsonschema.ValidationError) -> list[Diagnostic]:
    node, pos = _walk(doc, list(err.absolute_path))
    where = "/".join(str(p) for p in err.absolute_path) or "top level"
    if err.validator == "additionalProperties" and isinstance(node, dict):
        known = list(err.schema.get("properties", {}))
        out = []
        for key in node:
            if key not in known:
                guess = did_you_mean(str(key), known)
                kpos = node.key_position(key) if isinstance(node, LMap) else pos
                out.append(Diagnostic("RL101", f"unknown key '{key}' in {where}", kpos,
                                      hint=f"did you mean '{guess}'?" if guess else
                                      f"expected one of: {', '.join(known)}"))
        return out
    if err.validator == "required":
        return [Diagnostic("RL103", f"{where}: {err.message}", pos)]
    if err.validator == "type":
        return [Diagnostic("RL102", f"{where}: {_short(err.instance)} is not of type {err.validator_value}", pos)]
    if err.validator in ("oneOf", "anyOf"):
        return [Diagnostic("RL102", f"{where}: {_short(err.instance)} is not a valid value here", pos)]
    message = err.message if len(err.message) <= 300 else err.message[:297] + "..."  # it quotes the value
    return [Diagnostic("RL104", f"{where}: {message}", pos)]


def _short(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class _Ctx:
    """Collects diagnostics while one rule set is built."""

    diagnostics: list[Diagnostic]

    def error(self, code: str, message: str, pos: Position | None, hint: str | None = None,
              related: Iterable[Related] = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, pos, related=tuple(related), hint=hint))


def _cite(node: Any, pos: Position | None) -> Cite | None:
    if not isinstance(node, dict):
        return None
    return Cite(str(node.get("src", "")), str(node.get("quote", "")), pos)


class _Builder:
    def __init__(self, doc: LMap, ctx: _Ctx):
        self.doc = doc
        self.ctx = ctx
        self.exprs: list[tuple[Expr, Position | None, frozenset[str]]] = []
        self.cites: list[Cite] = []

    # -- expressions -----------------------------------------------------
    def expr(self, container: Any, key: Any, extra: frozenset[str] = frozenset()) -> Expr | None:
        pos = position_of(container, key)
        try:
            e = compile_expr(container[key], pos)
        except DiagnosticError as exc:
            self.ctx.diagnostics.extend(exc.diagnostics)
            return None
        self.exprs.append((e, pos, extra))
        return e

    def template(self, container: Any, key: Any, extra: frozenset[str] = frozenset()) -> Template:
        pos = position_of(container, key)
        try:
            t = Template.parse(str(container[key]), pos)
        except DiagnosticError as exc:
            self.ctx.diagnostics.extend(exc.diagnostics)
            return Template((str(container[key]),))
        for e in t.expressions():
            self.exprs.append((e, pos, extra))
        return t

    def cite(self, node: Any, key: str = "cite") -> Cite | None:
        if not isinstance(node, dict) or key not in node:
            return None
        c = _cite(node[key], position_of(node, key))
        if c:
            self.cites.append(c)
        return c

    # -- sections --------------------------------------------------------
    def categories(self) -> tuple[tuple[Category, ...], dict[str, Clue], dict[str, str]]:
        cats, clues, aliases = [], {}, {}
        alias_pos: dict[str, Position | None] = {}
        section = self.doc["components"]["categories"]
        self.cite(section)
        for cat in section["list"]:
            ids = []
            for clue in cat["clues"]:
                cid = clue["id"]
                if cid in clues:
                    self.ctx.error("RL126", f"clue id '{cid}' used twice", position_of(clue, "id"))
                    continue
                names = [clue["name"], cid, *clue.get("aliases", [])]
                clues[cid] = Clue(cid, clue["name"], cat["id"], tuple(clue.get("aliases", [])))
                ids.append(cid)
                for i, name in enumerate(names):
                    key = " ".join(str(name).split()).lower()
                    if key in aliases and aliases[key] != cid:
                        self.ctx.error("RL126", f"name '{name}' means both '{aliases[key]}' and '{cid}'",
                                       position_of(clue, "name"), related=[Related("first used here", alias_pos[key])])
                        continue
                    aliases[key] = cid
                    alias_pos.setdefault(key, position_of(clue, "name"))
            cats.append(Category(cat["id"], cat["name"], tuple(ids), tuple(cat.get("aliases", []))))
        seen: set[str] = set()
        for cat, node in zip(cats, section["list"]):
            if cat.id in seen:
                self.ctx.error("RL126", f"category id '{cat.id}' used twice", position_of(node, "id"))
            seen.add(cat.id)
        return tuple(cats), clues, aliases

    def require(self, node: LMap) -> Require | None:
        when = self.expr(node, "when") if "when" in node else None
        expr = self.expr(node, "expr")
        msg = self.template(node, "message")
        if expr is None:
            return None
        return Require(node["id"], when, expr, node["code"], msg, self.cite(node), node.pos)  # type: ignore[arg-type]

    def effects(self, items: Any) -> tuple[Effect, ...]:
        out = []
        for node in items or []:
            verbs = [k for k in node if k in EFFECT_VERBS]
            if "phase" in verbs and "turn" in verbs:
                verbs.remove("turn")  # "phase: X, turn: Y" starts a phase with that player
            if len(verbs) != 1 or ("do" in node and verbs != ["when"]):
                self.ctx.error("RL104", f"an effect needs exactly one verb of: {', '.join(EFFECT_VERBS)}",
                               position_of(node))
                continue
            verb = verbs[0]
            cite = self.cite(node)
            pos = position_of(node, verb)
            if verb == "when":
                cond = self.expr(node, "when")
                out.append(Effect("when", cond, pos, cite, self.effects(node.get("do")),
                                  self.effects(node.get("else"))))
            elif verb == "set":
                out.append(Effect("set", tuple((k, self.expr(node["set"], k)) for k in node["set"]), pos, cite))
            elif verb == "place":
                place = node["place"]
                out.append(Effect("place", (self.expr(place, "clue"),
                                            self.expr(place, "value") if "value" in place else None), pos, cite))
            elif verb in ("phase",):
                out.append(Effect("phase", node["phase"], pos, cite))
                if "turn" in node:
                    out.append(Effect("turn", self.expr(node, "turn"), position_of(node, "turn"), cite))
            elif verb in ("clear_passes", "end"):
                out.append(Effect(verb, True, pos, cite))
            else:
                out.append(Effect(verb, self.expr(node, verb), pos, cite))
        return tuple(out)

    def move(self, name: str, node: LMap) -> Move:
        params = []
        for pname, p in (node.get("params") or {}).items():
            params.append(MoveParam(
                pname, p["type"],
                self.expr(p, "size") if "size" in p else None,
                self.expr(p, "max") if "max" in p else None,
                bool(p.get("distinct_categories", False)), bool(p.get("optional", False)),
                p.get("code"), self.cite(p)))
        requires = tuple(r for r in (self.require(r) for r in node.get("requires", [])) if r)
        observe = None
        if "observe" in node:
            ob = node["observe"]
            fact = self.expr(ob, "fact", OBSERVE_NAMES)
            if fact is not None:
                observe = Observation(fact, ob["visible"], self.cite(ob))  # type: ignore[arg-type]
        return Move(name, self.cite(node), tuple(params), requires, observe,  # type: ignore[arg-type]
                    self.effects(node.get("effects")), node.pos)

    def scoring(self) -> Scoring:
        node = self.doc["scoring"]
        steps = []
        for step in node["steps"]:
            kinds = [k for k in ("show_solution", "remove", "reveal_all", "points") if k in step]
            if len(kinds) != 1:
                self.ctx.error("RL104", "a scoring step needs exactly one of show_solution, remove, reveal_all, points",
                               position_of(step))
                continue
            kind = kinds[0]
            expr = self.expr(step, kind, SCORING_NAMES) if kind in ("remove", "points") else None
            steps.append(ScoringStep(step["id"], kind, expr, self.cite(step), step.pos))  # type: ignore[arg-type]
        win = node["winners"]
        define = win.get("define", {})
        names = SCORING_NAMES | frozenset(define)
        defs = tuple((k, self.expr(define, k, names)) for k in define)
        return Scoring(self.cite(node), tuple(steps), self.expr(win, "expr", names),  # type: ignore[arg-type]
                       defs, self.cite(win))  # type: ignore[arg-type]


def _load_doc(path: Path, schema: str, ctx: _Ctx) -> LMap | None:
    try:
        doc = read_yaml(path, declared="ruleslawyer")
    except DiagnosticError as exc:
        ctx.diagnostics.extend(exc.diagnostics)
        return None
    if not isinstance(doc, LMap):
        ctx.error("RL102", "a rule file must be a mapping of keys to values", position_of(doc) or Position(str(path), 1, 1))
        return None
    diags = schema_diagnostics(doc, schema)
    ctx.diagnostics.extend(diags)
    return None if diags else doc


def deal_patterns(evidence_per_category: Sequence[int], shuffled: bool) -> tuple[tuple[int, ...], ...]:
    """The per-category evidence counts that can be dealt, all equally likely.

    >>> deal_patterns([0, 1, 1, 1], True)
    ((0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0))
    """
    base = tuple(int(n) for n in evidence_per_category)
    if not shuffled:
        return (base,)
    return tuple(sorted(set(permutations(base))))


_MAX_CHAIN = 32  # overlays extending overlays: more is a mistake (and would recurse deeply)


def _house_chain(path: Path, ctx: _Ctx, seen: tuple[Path, ...] = (),
                 policy: PathPolicy | None = None) -> tuple[Path, list[LMap]] | None:
    """Follow ``extends:`` from an overlay to its base rule file."""
    doc = _load_doc(path, "house.schema.json", ctx)
    if doc is None:
        return None
    base_ref = doc["extends"]
    try:
        base = find_rule_file(base_ref, path.parent, policy, position_of(doc, "extends"))
    except DiagnosticError as exc:
        ctx.diagnostics.extend(exc.diagnostics)
        return None
    if base is None:
        ctx.error("RL141", f"base rule set '{base_ref}' not found", position_of(doc, "extends"),
                  hint="name a bundled rule set or a path relative to this file")
        return None
    if base.resolve() == path.resolve() or base.resolve() in seen:
        ctx.error("RL140", f"'{base_ref}' extends itself (through {len(seen) + 1} file(s))",
                  position_of(doc, "extends"))
        return None
    if _is_overlay(base):
        if len(seen) >= _MAX_CHAIN:
            ctx.error("RL140", f"more than {_MAX_CHAIN} overlays extend one another", position_of(doc, "extends"))
            return None
        chain = _house_chain(base, ctx, seen + (path.resolve(),), policy)
        if chain is None:
            return None
        return chain[0], chain[1] + [doc]
    return base, [doc]


def _is_overlay(path: Path) -> bool:
    try:
        doc = read_yaml(path, declared="ruleslawyer")
    except DiagnosticError:
        return False
    return isinstance(doc, dict) and "extends" in doc


def load_rules(name_or_path: str, variant: str | None = None,
               house: Sequence[str] = (), policy: PathPolicy | None = None) -> Ruleset:
    """Load, validate and resolve a rule set; raise DiagnosticError if unusable.

    ``name_or_path`` may also be a house overlay: its base is loaded first.
    ``variant`` accepts the variant's name (``5p``) or a bare player count.
    ``policy``: where the files may be, when an untrusted input names them
    (see :mod:`spec.paths`).
    """
    ctx = _Ctx([])
    path = find_rule_file(name_or_path, policy=policy, position=Position(name_or_path))
    where = name_or_path if policy is None else str(policy.base / name_or_path)
    if path is None and _is_dir(where):
        raise DiagnosticError([Diagnostic("RL001", f"{where} is a directory, not a rule file", Position(where))])
    if path is None:
        known = sorted(p.stem for p in rules_dir().glob("*.yaml"))
        guess = did_you_mean(name_or_path, known)
        raise DiagnosticError([Diagnostic("RL001", f"no rule set or file named '{name_or_path}'", Position(name_or_path),
                                          hint=f"did you mean '{guess}'?" if guess else f"bundled: {', '.join(known)}")])
    overlays: list[tuple[Path, LMap]] = []
    if _is_overlay(path):
        chain = _house_chain(path, ctx, policy=policy)
        if chain is None:
            raise DiagnosticError(ctx.diagnostics)
        path = chain[0]
        overlays.extend((Path(d.pos.path), d) for d in chain[1])
    for h in house:
        try:
            hp = find_rule_file(h, policy=policy, position=Position(h))
        except DiagnosticError as exc:
            ctx.diagnostics.extend(exc.diagnostics)
            continue
        if hp is None:
            ctx.error("RL001", f"no house-rule file named '{h}'", Position(h))
            continue
        chain = _house_chain(hp, ctx, policy=policy)
        if chain is None:
            continue
        if chain[0].resolve() != path.resolve():
            ctx.error("RL142", f"house rule '{h}' extends {chain[0].name}, not {path.name}",
                      position_of(chain[1][0], "extends"))
            continue
        overlays.extend((Path(d.pos.path), d) for d in chain[1])
    if ctx.diagnostics:
        raise DiagnosticError(ctx.diagnostics)
    doc = _load_doc(path, "rules.schema.json", ctx)
    if doc is None:
        raise DiagnosticError(ctx.diagnostics)
    rules = _build(doc, path, variant, overlays, ctx)
    if ctx.diagnostics or rules is None:
        raise DiagnosticError(ctx.diagnostics)
    return rules


def _build(doc: LMap, path: Path, variant: str | None, overlays: list[tuple[Path, LMap]],
           ctx: _Ctx) -> Ruleset | None:
    b = _Builder(doc, ctx)
    categories, clues, aliases = b.categories()
    for comp in ("counters", "covers", "verdicts"):
        if comp in doc["components"]:
            b.cite(doc["components"][comp])

    # Parameters: base, then the variant, then each overlay in order.
    params: dict[str, Setting] = {}
    limits: dict[str, tuple[Any, Any]] = {}
    for name, node in doc["parameters"].items():
        params[name] = Setting(name, node["value"], position_of(node, "value"), b.cite(node), "base")
        limits[name] = (node.get("min"), node.get("max"))
    variants = doc["variants"]
    vname = variant if variant is not None else variants["default"]
    if vname not in variants["list"]:
        by_players = [k for k, v in variants["list"].items() if str(_vplayers(v, params)) == str(vname).rstrip("p")]
        if by_players:
            vname = by_players[0]
        else:
            ctx.error("RL127", f"no variant '{vname}'", position_of(variants, "list" if variant else "default"),
                      hint=f"variants: {', '.join(variants['list'])}")
            return None
    vnode = variants["list"][vname]
    b.cite(vnode)
    for name, setting in vnode["set"].items():
        pos = position_of(vnode["set"], name)
        if name not in params:
            _unknown(ctx, "RL122", "parameter", name, params, pos)
            continue
        if isinstance(setting, dict) and "value" in setting and "cite" in setting:
            params[name] = Setting(name, setting["value"], position_of(setting, "value"), b.cite(setting), f"variant {vname}")
        else:
            params[name] = Setting(name, setting, pos, params[name].cite, f"variant {vname}")

    options: dict[str, Option] = {}
    for name, node in (doc.get("options") or {}).items():
        if node["default"] not in node["values"]:
            ctx.error("RL124", f"default {node['default']!r} of option '{name}' is not one of {list(node['values'])}",
                      position_of(node, "default"))
        options[name] = Option(name, tuple(node["values"]), node["default"], node["default"], b.cite(node),  # type: ignore[arg-type]
                               node.get("ambiguity"), position_of(node, "default"), "base")

    house_names = []
    house_requires: list[tuple[str, Position | None, LMap, LMap]] = []
    for opath, odoc in overlays:
        label = f"house {odoc['name']}"
        house_names.append(odoc["name"])
        if "variant" in odoc and odoc["variant"] != vname and variant is None:
            if odoc["variant"] in variants["list"]:
                ctx.error("RL127", f"house rule needs variant '{odoc['variant']}' but '{vname}' is in play",
                          position_of(odoc, "variant"), hint=f"add --variant {odoc['variant']}")
            else:
                ctx.error("RL127", f"no variant '{odoc['variant']}'", position_of(odoc, "variant"))
        for name, value in (odoc.get("parameters") or {}).items():
            pos = position_of(odoc["parameters"], name)
            if name not in params:
                _unknown(ctx, "RL122", "parameter", name, params, pos)
                continue
            params[name] = Setting(name, value, pos, params[name].cite, label)
        for name, value in (odoc.get("options") or {}).items():
            pos = position_of(odoc["options"], name)
            if name not in options:
                _unknown(ctx, "RL123", "option", name, options, pos)
                continue
            if value not in options[name].values:
                ctx.error("RL124", f"option '{name}' takes one of {list(options[name].values)}, not {value!r}", pos)
                continue
            options[name] = replace(options[name], value=value, position=pos, set_by=label)
        for mname, mnode in (odoc.get("moves") or {}).items():
            for req in mnode["requires"]:
                house_requires.append((mname, position_of(odoc["moves"], mname), req, odoc))
        for cid, names in (odoc.get("aliases") or {}).items():
            pos = position_of(odoc["aliases"], cid)
            target = cid if cid in clues else aliases.get(str(cid).lower())
            if target is None:
                _unknown(ctx, "RL126", "clue", cid, clues, pos)
                continue
            for n in names:
                key = " ".join(str(n).split()).lower()
                if aliases.get(key, target) != target:
                    ctx.error("RL126", f"alias '{n}' already names '{aliases[key]}'", pos)
                    continue
                aliases[key] = target
                old = clues[target]
                clues[target] = replace(old, aliases=old.aliases + (n,))

    _check_shapes(params, doc["parameters"], limits, ctx)
    _check_ranges(params, limits, ctx)

    state = {}
    for name, node in (doc.get("state") or {}).items():
        e = b.expr(node, "init")
        if e is not None:
            state[name] = e
    functions = {}
    for name, node in (doc.get("functions") or {}).items():
        e = b.expr(node, "expr", frozenset(node["args"]))
        if e is not None:
            functions[name] = Function(name, tuple(node["args"]), e, b.cite(node))  # type: ignore[arg-type]
    flow_node = doc["flow"]
    start = flow_node["start"]
    if start["phase"] not in flow_node["phases"]:
        _unknown(ctx, "RL128", "phase", start["phase"], flow_node["phases"], position_of(start, "phase"))
    flow = Flow(start["phase"], b.expr(start, "turn"), b.cite(start),  # type: ignore[arg-type]
                {k: b.cite(v) for k, v in flow_node["phases"].items()},  # type: ignore[misc]
                tuple(r for r in (b.require(r) for r in flow_node.get("requires", [])) if r))
    moves = {name: b.move(name, node) for name, node in doc["moves"].items()}
    _add_house_requires(b, moves, house_requires, ctx)
    scoring = b.scoring()
    checks = [(b.expr(c, "expr"), b.template(c, "message"), position_of(c, "expr"), b.cite(c))
              for c in doc.get("checks", [])]

    log_checks = tuple(LogCheck(c["id"], c["check"], c["code"], c["message"], b.cite(c), c.pos)  # type: ignore[arg-type]
                       for c in doc.get("log_checks") or [])
    sources = {k: v["file"] for k, v in doc["sources"].items()}
    for c in b.cites:
        if c.src not in sources:
            _unknown(ctx, "RL125", "source", c.src, sources, c.position)
    rules = Ruleset(
        game=doc["game"], title=doc["title"], code_prefix=doc["code_prefix"], variant=vname,
        house=tuple(house_names), files=(str(path), *(str(p) for p, _ in overlays)), sources=sources,
        categories=categories, clues=clues, params=params, options=options, state=state, flow=flow,
        moves=moves, functions=functions, scoring=scoring, aliases=aliases, log_checks=log_checks)
    _check_names(b, rules, ctx)
    _check_calls(b, functions, ctx)
    if not ctx.diagnostics:
        _run_checks(rules, checks, ctx)
    return rules


def _check_calls(b: _Builder, functions: dict[str, Function], ctx: _Ctx) -> None:
    """No rule function may call itself, directly or through others, and no
    expression may make more calls of rule functions than the work budget.

    Comprehensions run over data and every call costs a step, so with no
    recursion every evaluation ends; these checks say so at load time for
    the work that calls alone would multiply (RL132).
    """
    callees = {name: [c for c in fn.expr.calls if c in functions and c not in fn.args]
               for name, fn in functions.items()}
    refs = {name: (set(callees[name]) | (fn.expr.names & functions.keys())) - set(fn.args)
            for name, fn in functions.items()}
    # Callees first (Kahn): what is left over reaches a cycle.
    waiting = {name: len(r) for name, r in refs.items()}
    callers: dict[str, list[str]] = {name: [] for name in functions}
    for name, r in refs.items():
        for callee in r:
            callers[callee].append(name)
    ready = [name for name, n in waiting.items() if n == 0]
    order: list[str] = []
    while ready:
        name = ready.pop()
        order.append(name)
        for caller in callers[name]:
            waiting[caller] -= 1
            if waiting[caller] == 0:
                ready.append(caller)
    left = set(functions) - set(order)
    reported: set[str] = set()
    for name in functions:
        if name not in left or name in reported:
            continue
        seen: dict[str, int] = {}  # follow left-over callees until one repeats: a cycle
        path = [name]
        while path[-1] not in seen:
            seen[path[-1]] = len(path) - 1
            path.append(min(c for c in refs[path[-1]] if c in left))
        cycle = path[seen[path[-1]]:]
        if reported & set(cycle):
            continue
        reported.update(cycle)
        ctx.error("RL132", f"function '{cycle[0]}' calls itself ({' -> '.join(cycle)}): rule functions may not "
                  "recurse", functions[cycle[0]].expr.position)
    # Calls of rule functions made by one call of each function, and by each expression.
    cap = MAX_STEPS + 1
    cost: dict[str, int] = {}
    for name in order:
        cost[name] = min(cap, 1 + sum(cost[c] for c in callees[name]))
    too_many = {name for name in order if cost[name] >= cap and all(cost[c] < cap for c in callees[name])}
    for name in sorted(too_many, key=list(functions).index):
        ctx.error("RL132", f"one call of function '{name}' makes more than {MAX_STEPS:,} calls of rule functions",
                  functions[name].expr.position)
    own = {id(fn.expr) for fn in functions.values()}
    for expr, pos, _extra in b.exprs:
        called = [cost[c] for c in expr.calls if c in cost]
        if id(expr) not in own and sum(called) >= cap and max(called) < cap:
            ctx.error("RL132", f"one evaluation of this expression makes more than {MAX_STEPS:,} calls of rule "
                      "functions", pos)


def _add_house_requires(b: _Builder, moves: dict[str, Move],
                        added: list[tuple[str, Position | None, LMap, LMap]], ctx: _Ctx) -> None:
    """Requirements that house overlays add to moves (same id: replaced)."""
    for mname, pos, node, odoc in added:
        if mname not in moves:
            _unknown(ctx, "RL128", "move", mname, moves, pos)
            continue
        when = b.expr(node, "when") if "when" in node else None
        expr = b.expr(node, "expr")
        if expr is None:
            continue
        why = str(node.get("why") or odoc.get("why") or odoc.get("title") or odoc["name"])
        req = Require(node["id"], when, expr, node["code"], b.template(node, "message"),
                      Cite(f"house {odoc['name']}", why, node.pos), node.pos)
        kept = tuple(r for r in moves[mname].requires if r.id != req.id)
        moves[mname] = replace(moves[mname], requires=kept + (req,))


def _vplayers(vnode: Any, params: dict[str, Setting]) -> Any:
    value = vnode["set"].get("players", params.get("players", Setting("players", None, None, None, "")).value)
    return value["value"] if isinstance(value, dict) else value


def _unknown(ctx: _Ctx, code: str, kind: str, name: Any, known: Iterable[Any], pos: Position | None) -> None:
    guess = did_you_mean(str(name), [str(k) for k in known])
    ctx.error(code, f"unknown {kind} '{name}'", pos, hint=f"did you mean '{guess}'?" if guess else None)


def _check_shapes(params: dict[str, Setting], base: Any, limits: dict[str, tuple[Any, Any]], ctx: _Ctx) -> None:
    """A variant or overlay value must have the shape of the base value it replaces."""
    for name, setting in params.items():
        if setting.set_by == "base" or limits.get(name, (None, None)) != (None, None) or name not in base:
            continue  # numbers with a range are checked by _check_ranges
        want = base[name]["value"]
        if not _fits(want, setting.value):
            ctx.error("RL102", f"parameter '{name}' must be {_describe(want)} (like {_short(want)}), "
                      f"not {_short(setting.value)}", setting.position)


def _fits(base: Any, value: Any) -> bool:
    if isinstance(base, bool) or isinstance(value, bool):
        return isinstance(base, bool) and isinstance(value, bool)
    if isinstance(base, (int, str)):
        return isinstance(value, type(base))
    if isinstance(base, list):
        return isinstance(value, list) and (not base or all(_fits(base[0], v) for v in value))
    if isinstance(base, dict):
        if not isinstance(value, dict):
            return False
        if not base:
            return True
        k0, v0 = next(iter(base.items()))
        return all(_fits(k0, k) and _fits(v0, v) for k, v in value.items())
    return True


def _describe(value: Any, plural: bool = False) -> str:
    """The shape of a value in words: 'a list of whole numbers'."""
    if isinstance(value, bool):
        return "true or false values" if plural else "true or false"
    if isinstance(value, int):
        return "whole numbers" if plural else "a whole number"
    if isinstance(value, str):
        return "strings" if plural else "a string"
    if isinstance(value, list):
        inner = f" of {_describe(value[0], True)}" if value else ""
        return ("lists" if plural else "a list") + inner
    if isinstance(value, dict):
        inner = ""
        if value:
            k0, v0 = next(iter(value.items()))
            inner = f" from {_describe(k0, True)} to {_describe(v0, True)}"
        return ("mappings" if plural else "a mapping") + inner
    return type(value).__name__


def _check_ranges(params: dict[str, Setting], limits: dict[str, tuple[Any, Any]], ctx: _Ctx) -> None:
    for name, setting in params.items():
        lo, hi = limits.get(name, (None, None))
        value = setting.value
        if lo is None and hi is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            ctx.error("RL102", f"parameter '{name}' must be a whole number, not {_short(value)}", setting.position)
            continue
        if lo is not None and value < lo:
            ctx.error("RL130", f"parameter '{name}' is {value}, below its minimum {lo}", setting.position)
        if hi is not None and value > hi:
            ctx.error("RL130", f"parameter '{name}' is {value}, above its maximum {hi}", setting.position)


def _check_names(b: _Builder, rules: Ruleset, ctx: _Ctx) -> None:
    """Every name, parameter, option, option value and state variable must exist."""
    fixed = ENGINE_NAMES | frozenset(rules.functions)
    moves_params = {p.name for m in rules.moves.values() for p in m.params}
    for expr, pos, extra in b.exprs:
        allowed = fixed | extra
        for name in sorted(expr.names - allowed):
            _unknown(ctx, "RL121", "name", name, sorted(allowed), pos)
        for base, attr, _col in expr.attributes:
            table: Iterable[str] | None = {"params": rules.params, "options": rules.options,
                                           "vars": rules.state, "move": moves_params}.get(base)
            if table is not None and attr not in table:
                code = {"params": "RL122", "options": "RL123"}.get(base, "RL121")
                kind = {"params": "parameter", "options": "option", "vars": "state variable",
                        "move": "move parameter"}[base]
                _unknown(ctx, code, kind, attr, table, pos)
        for base, attr, literal, _col in expr.literals:
            if base == "" and attr == "phase" and literal not in rules.flow.phases:
                _unknown(ctx, "RL128", "phase", literal, rules.flow.phases, pos)
            if base == "options" and attr in rules.options and literal not in rules.options[attr].values:
                ctx.error("RL124", f"option '{attr}' never takes the value {literal!r} "
                          f"(values: {list(rules.options[attr].values)})", pos)
    for move in rules.moves.values():
        for eff in _all_effects(move.effects):
            if eff.verb == "phase" and eff.arg not in rules.flow.phases:
                _unknown(ctx, "RL128", "phase", eff.arg, rules.flow.phases, eff.position)


def _all_effects(effects: Iterable[Effect]) -> Iterable[Effect]:
    for e in effects:
        yield e
        yield from _all_effects(e.then)
        yield from _all_effects(e.otherwise)


def _run_checks(rules: Ruleset, checks: list[Any], ctx: _Ctx) -> None:
    from .machine import static_env

    env = static_env(rules)
    for expr, message, pos, _cite in checks:
        if expr is None:
            continue
        try:
            ok = expr.test(env)
        except LimitError as exc:
            ctx.error("RL132", f"check could not be evaluated: {exc}", pos)
            continue
        except Exception as exc:  # noqa: BLE001 - a rule's own check failing is a diagnostic
            ctx.error("RL131", f"check could not be evaluated: {exc}", pos)
            continue
        if not ok:
            # Point at the variant or overlay line that broke the check, when one did.
            involved = [s for s in rules.params.values()
                        if s.name in {a for b, a, _c in expr.attributes if b == "params"}]
            changed = [s for s in involved if s.set_by != "base" and s.position]
            main = changed[-1].position if changed else pos
            related = [Related(f"{s.name} = {_short(s.value)} set by {s.set_by}", s.position)
                       for s in involved if s.position and s.position != main]
            if main != pos:
                related.insert(0, Related("the check of the rules that fails", pos))
            ctx.error("RL131", f"contradictory parameters: {message.render(env)}", main, related=related)


def validate_file(path: str) -> list[Diagnostic]:
    """Diagnostics for one rule file or overlay (every variant of a rule file)."""
    try:
        first = load_rules(path)
    except DiagnosticError as exc:
        return list(exc.diagnostics)
    out: list[Diagnostic] = []
    if not first.house:
        doc = read_yaml(find_rule_file(path))  # type: ignore[arg-type]
        for v in doc["variants"]["list"]:
            try:
                load_rules(path, variant=v)
            except DiagnosticError as exc:
                out.extend(exc.diagnostics)
    return out
