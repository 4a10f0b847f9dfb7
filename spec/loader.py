"""Loading rule files and house overlays into a :class:`~spec.model.Ruleset`.

Every problem is reported as a positioned diagnostic: schema violations
(unknown key RL101, wrong type RL102, missing key RL103, bad value RL104),
bad expressions (RL120), unknown names (RL121 name, component, attribute,
zone family or state variable, RL122 parameter, RL123 option, RL124 option
value, RL125 source, RL126 item or alias, RL127 variant, RL128 phase or
move), values out of range or contradictory (RL130, RL131) and overlay
problems (RL140 cycle, RL141 missing base, RL142 overlay for another game,
RL143 a ``change:`` that does not apply, RL144 an overlay named twice).  An overlay's ``change:`` is merged
into the base document before it is built (:mod:`spec.overlay`); its other
keys then set values, overlay by overlay.  The sections themselves are
built by :mod:`spec.builder`.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from . import bundled, diskcache
from .builder import Builder, Ctx, check_references, fold, unknown
from .diagnostics import Diagnostic, DiagnosticError, Position, Related, did_you_mean
from .expr import MAX_STEPS, LimitError
from .model import Cite, Function, Move, Option, Require, Ruleset, Setting
from .overlay import apply_change, changed_variants
from .paths import PathPolicy, bare_name, bundled_dir, is_file
from .playweights import build_play
from .schemacheck import surely_valid

if TYPE_CHECKING:
    import jsonschema
from .expr import generated_codes
from .source import Limits, LMap, decode_doc, encode_doc, parse_text, position_of, read_source

__all__ = ["load_rules", "rules_dir", "find_rule_file", "validate_file", "schema_diagnostics", "schema_errors",
           "read_rule_yaml"]

MAX_DIAGNOSTICS = 200  # per file: past this, a count (a hostile file can hold many thousands)

def rules_dir() -> Path:
    """The bundled rules/ folder (package data, wherever the package is installed)."""
    return bundled_dir()


def source_path(rules: "Ruleset", src: str) -> Path:
    """The rulebook file a citation's ``src`` names (kept in rules/sources/ of a checkout; not installed)."""
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
def _schema_data(name: str) -> dict[str, Any]:
    """A bundled schema, as data."""
    return json.loads(resources.files(bundled.SCHEMAS).joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=4)
def _schema(name: str) -> "jsonschema.Draft202012Validator":
    import jsonschema  # only when a document is not surely valid (spec.schemacheck): its import is long

    return jsonschema.Draft202012Validator(_schema_data(name))


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
    """Validate ``doc`` against a bundled schema; every error a positioned diagnostic.

    A document the quick check (:mod:`spec.schemacheck`) finds surely valid has none;
    any other is validated by jsonschema, whose errors make the diagnostics."""
    if surely_valid(doc, _schema_data(schema_name)):
        return []
    return _diagnostics(doc, _schema(schema_name))


def schema_errors(doc: Any, schema: "dict[str, Any] | jsonschema.Draft202012Validator") -> list[Diagnostic]:
    """As :func:`schema_diagnostics`, for a schema built at run time (e.g. a log's, per rule set)."""
    if isinstance(schema, dict):
        if surely_valid(doc, schema):
            return []
        return _diagnostics(doc, _validator(json.dumps(schema, sort_keys=True)))
    return _diagnostics(doc, schema)


@lru_cache(maxsize=16)
def _validator(schema_json: str) -> "jsonschema.Draft202012Validator":
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(schema_json))


def _diagnostics(doc: Any, validator: "jsonschema.Draft202012Validator") -> list[Diagnostic]:
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


def _one_schema_error(doc: Any, err: "jsonschema.ValidationError") -> list[Diagnostic]:
    node, pos = _walk(doc, list(err.absolute_path))
    where = "/".join(str(p) for p in err.absolute_path) or "top level"
    if err.validator == "additionalProperties" and isinstance(node, dict):
        known = list(err.schema.get("properties", {}))
        out = []
        for key in node:
            if key not in known:
                near = did_you_mean(str(key), known)
                kpos = node.key_position(key) if isinstance(node, LMap) else pos
                out.append(Diagnostic("RL101", f"unknown key '{key}' in {where}", kpos,
                                      hint=f"did you mean '{near}'?" if near else
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


#: Rule files and overlays parsed in this process, by the path as named, the exact bytes and
#: the limits (most recent last).  A parsed document is never changed (an overlay's
#: ``change:`` makes a new one): one load reads each file once (whether it is an overlay,
#: then its content), and a load of a rule set built already parses nothing again.
_PARSED: "OrderedDict[tuple[Any, ...], Any]" = OrderedDict()
_MAX_PARSED = 16


def read_rule_yaml(path: Path) -> Any:
    """``read_yaml(path, declared="ruleslawyer")``, the file's checks and reading every time,
    its parsing once per content (:data:`_PARSED`)."""
    limits = Limits.from_env()
    data, text = read_source(path, limits, "ruleslawyer")
    key = (str(path), hashlib.sha256(data).digest(), limits)
    if key in _PARSED:
        _PARSED.move_to_end(key)
        return _PARSED[key]
    doc = _from_disk(key)
    if doc is None:
        doc = parse_text(text, str(path), limits)
        diskcache.store("yaml", key, encode_doc(doc))
    _PARSED[key] = doc
    while len(_PARSED) > _MAX_PARSED:
        _PARSED.popitem(last=False)
    return doc


def _from_disk(key: tuple[Any, ...]) -> Any:
    """A rule file's document as parsed before (:mod:`spec.diskcache`), or None."""
    data = diskcache.load("yaml", key)
    if data is None:
        return None
    try:
        return decode_doc(data, key[0])
    except ValueError:  # not the shape of a document: parsed again (and written again)
        return None


def _load_doc(path: Path, schema: str, ctx: Ctx) -> LMap | None:
    try:
        doc = read_rule_yaml(path)
    except DiagnosticError as exc:
        ctx.diagnostics.extend(exc.diagnostics)
        return None
    if not isinstance(doc, LMap):
        ctx.error("RL102", "a rule file must be a mapping of keys to values", position_of(doc) or Position(str(path), 1, 1))
        return None
    diags = schema_diagnostics(doc, schema)
    ctx.diagnostics.extend(diags)
    return None if diags else doc


_MAX_CHAIN = 32  # overlays extending overlays: more is a mistake (and would recurse deeply)


def _house_chain(path: Path, ctx: Ctx, seen: tuple[Path, ...] = (),
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
        doc = read_rule_yaml(path)
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
    ctx = Ctx([])
    path = find_rule_file(name_or_path, policy=policy, position=Position(name_or_path))
    where = name_or_path if policy is None else str(policy.base / name_or_path)
    if path is None and _is_dir(where):
        raise DiagnosticError([Diagnostic("RL001", f"{where} is a directory, not a rule file", Position(where))])
    if path is None:
        known = sorted(p.stem for p in rules_dir().glob("*.yaml"))
        near = did_you_mean(name_or_path, known)
        raise DiagnosticError([Diagnostic("RL001", f"no rule set or file named '{name_or_path}'", Position(name_or_path),
                                          hint=f"did you mean '{near}'?" if near else f"bundled: {', '.join(known)}")])
    overlays: list[tuple[Path, LMap]] = []
    named: dict[Path, str] = {}  # each overlay named, as it was first named: named twice is an error
    if _is_overlay(path):
        named[path.resolve()] = name_or_path
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
        first = named.get(hp.resolve())
        if first is None:
            named[hp.resolve()] = h
        else:
            same = "" if first == h else f" (first as '{first}')"
            ctx.error("RL144", f"house rule '{h}' is given twice{same}: an overlay applies once", Position(h),
                      hint="name it once")
            continue
        chain = _house_chain(hp, ctx, policy=policy)
        if chain is None:
            continue
        if chain[0].resolve() != path.resolve():
            ctx.error("RL142", f"house rule '{h}' extends {chain[0].name}, not {path.name}",
                      position_of(chain[1][0], "extends"))
            continue
        applied = {p.resolve() for p, _d in overlays}  # an overlay that another one extends applies once
        overlays.extend((Path(d.pos.path), d) for d in chain[1] if Path(d.pos.path).resolve() not in applied)
    if ctx.diagnostics:
        raise DiagnosticError(ctx.diagnostics)
    key = _built_key((path, *(p for p, _d in overlays)), variant)
    if key is not None and key in _BUILT:
        _BUILT.move_to_end(key)
        return _BUILT[key]
    doc = _load_doc(path, "rules.schema.json", ctx)
    if doc is None:
        raise DiagnosticError(ctx.diagnostics)
    doc = _changed(doc, overlays, ctx)
    # The generated functions of the rule expressions, from the disk cache when this set of files
    # and variant was built before (then only what is new is generated, and the entry rewritten).
    disk_key = None if key is None else (variant, tuple(h for _n, _r, h in key[2]))
    stored = None if disk_key is None else diskcache.load("codes", disk_key)
    with generated_codes(stored if isinstance(stored, dict) else None) as used:
        rules = _build(doc, path, variant, overlays, ctx)
        if rules is not None and not ctx.diagnostics and disk_key is not None and diskcache.folder() is not None:
            for fn in rules.functions.values():  # their bodies, made when first called: in the entry too
                fn.expr.prepare_call(fn.args)
    if ctx.diagnostics or rules is None:
        raise DiagnosticError(ctx.diagnostics)
    if disk_key is not None and used != stored:
        diskcache.store("codes", disk_key, used)
    if key is not None:
        _BUILT[key] = rules
        while len(_BUILT) > MAX_BUILT:
            _BUILT.popitem(last=False)
    return rules


#: Rule sets built in this process (most recent last), at most :data:`MAX_BUILT`.
#: A rule set is read-only once built (its dataclass is frozen), so one copy serves
#: every caller: a ``check`` loads its rules twice, the tests hundreds of times.
_BUILT: "OrderedDict[tuple[Any, ...], Ruleset]" = OrderedDict()
MAX_BUILT = 32


def _built_key(files: Sequence[Path], variant: str | None) -> tuple[Any, ...] | None:
    """What a built rule set depends on: the files' exact bytes, where they were named, the variant.

    The working folder is part of it (positions are shown relative to it); a
    file that cannot be read again means no reuse (the build reports it).
    """
    try:
        return (str(Path.cwd()), variant,
                tuple((str(p), str(p.resolve()), hashlib.sha256(p.read_bytes()).digest()) for p in files))
    except (OSError, RuntimeError):
        return None


def _changed(doc: LMap, overlays: list[tuple[Path, LMap]], ctx: Ctx) -> LMap:
    """The base document with every overlay's ``change:`` merged in, in order, and validated again."""
    changes = [odoc["change"] for _p, odoc in overlays if "change" in odoc]
    for change in changes:
        doc = apply_change(doc, change, ctx)
    if changes:
        ctx.diagnostics.extend(schema_diagnostics(doc, "rules.schema.json"))  # the rest of it, in the same round
    if ctx.diagnostics:
        raise DiagnosticError(ctx.diagnostics)
    return doc


def _build(doc: LMap, path: Path, variant: str | None, overlays: list[tuple[Path, LMap]],
           ctx: Ctx) -> Ruleset | None:
    b = Builder(doc, ctx)
    components, items, aliases = b.components()
    # What an overlay's change: set is labelled by the overlay (its position names its file).
    by_file = {str(position_of(odoc).path): f"house {odoc['name']}" for _p, odoc in overlays}

    def origin(pos: Position | None, default: str) -> str:
        return by_file.get(pos.path, default) if pos is not None else default

    # Parameters: base, then the variant, then each overlay in order.
    params: dict[str, Setting] = {}
    limits: dict[str, tuple[Any, Any]] = {}
    for name, node in doc["parameters"].items():
        pos = position_of(node, "value")
        params[name] = Setting(name, node["value"], pos, b.cite(node), origin(pos, "base"))
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
            unknown(ctx, "RL122", "parameter", name, params, _key_position(vnode["set"], name, pos))
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
        pos = position_of(node, "default")
        options[name] = Option(name, tuple(node["values"]), node["default"], node["default"], b.cite(node),  # type: ignore[arg-type]
                               node.get("ambiguity"), pos, origin(pos, "base"))

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
                unknown(ctx, "RL122", "parameter", name, params, _key_position(odoc["parameters"], name, pos))
                continue
            params[name] = Setting(name, value, pos, params[name].cite, label)
        for name, value in (odoc.get("options") or {}).items():
            pos = position_of(odoc["options"], name)
            if name not in options:
                unknown(ctx, "RL123", "option", name, options, _key_position(odoc["options"], name, pos))
                continue
            if value not in options[name].values:
                ctx.error("RL124", f"option '{name}' takes one of {list(options[name].values)}, not {value!r}", pos)
                continue
            options[name] = replace(options[name], value=value, position=pos, set_by=label)
        for mname, mnode in (odoc.get("moves") or {}).items():
            for req in mnode["requires"]:
                house_requires.append((mname, position_of(odoc["moves"], mname), req, odoc))
        for iid, names in (odoc.get("aliases") or {}).items():
            _add_names(ctx, items, aliases, iid, names, position_of(odoc["aliases"], iid), "alias")
        for iid, printed in (odoc.get("names") or {}).items():
            pos = position_of(odoc["names"], iid)
            if _add_names(ctx, items, aliases, iid, [printed], pos, "name") and items[str(iid)].name != printed:
                old = items[str(iid)]
                # The name printed before stays an alias: logs written with it still read.
                items[str(iid)] = replace(old, name=printed, aliases=tuple(
                    a for a in old.aliases if a != printed) + (old.name,))

    _check_shapes(params, doc["parameters"], limits, ctx)
    _check_ranges(params, limits, ctx)

    if "players" not in params:
        ctx.error("RL103", "the rules must declare the parameter 'players' (how many play)",
                  position_of(doc, "parameters"))
    deal, tokens = b.deal(), b.tokens()
    state, functions, flow = b.state(), b.functions(), b.flow()
    moves = {name: b.move(name, node) for name, node in doc["moves"].items()}
    _add_house_requires(b, moves, house_requires, ctx)
    scoring = b.scoring()
    checks = [(b.expr(c, "expr", "static"), b.template(c, "message", "static"), position_of(c, "expr"), b.cite(c))
              for c in doc.get("checks", [])]
    records, log_checks = b.records(), b.log_checks()
    sources = {k: v["file"] for k, v in doc["sources"].items()}
    for c in b.cites:
        if c.src not in sources:
            unknown(ctx, "RL125", "source", c.src, sources, c.position)
    rules = Ruleset(
        game=doc["game"], title=doc["title"], code_prefix=doc["code_prefix"], variant=vname,
        house=tuple(house_names), files=(str(path), *(str(p) for p, _ in overlays)), sources=sources,
        components=components, items=items, params=params, options=options, state=state, flow=flow,
        moves=moves, functions=functions, scoring=scoring, deal=deal, tokens=tokens, records=records,
        aliases=aliases, log_checks=log_checks, play=build_play(b, moves, components, ctx))
    check_references(b, rules, ctx)
    _check_calls(b, functions, ctx)
    if not ctx.diagnostics:
        _run_checks(rules, checks, ctx)
    if not ctx.diagnostics:
        _check_deal(rules, ctx)
    return rules


def _add_names(ctx: Ctx, items: dict[str, Any], aliases: dict[str, dict[str, str]], iid: Any,
               names: Sequence[str], pos: Position | None, kind: str) -> bool:
    """Names an overlay gives an item (aliases, or its printed name); False when it has none of them."""
    target = str(iid) if str(iid) in items else None
    if target is None:
        unknown(ctx, "RL126", "item", iid, items, pos)
        return False
    table = aliases[items[target].component]
    ok = True
    for n in names:
        key = fold(n)
        if table.get(key, target) != target:
            ctx.error("RL126", f"{kind} '{n}' already names '{table[key]}'", pos)
            ok = False
            continue
        table[key] = target
        if n not in items[target].aliases and n != items[target].name:
            old = items[target]
            items[target] = replace(old, aliases=old.aliases + (n,))
    return ok


def _check_calls(b: Builder, functions: dict[str, Function], ctx: Ctx) -> None:
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
    for expr, pos, _context, _extra in b.exprs:
        called = [cost[c] for c in expr.calls if c in cost]
        if id(expr) not in own and sum(called) >= cap and max(called) < cap:
            ctx.error("RL132", f"one evaluation of this expression makes more than {MAX_STEPS:,} calls of rule "
                      "functions", pos)


def _add_house_requires(b: Builder, moves: dict[str, Move],
                        added: list[tuple[str, Position | None, LMap, LMap]], ctx: Ctx) -> None:
    """Requirements that house overlays add to moves (same id: replaced)."""
    for mname, pos, node, odoc in added:
        if mname not in moves:
            unknown(ctx, "RL128", "move", mname, moves, pos)
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


def _key_position(node: Any, key: Any, fallback: Position | None) -> Position | None:
    """Where a mapping's key stands (a misspelt key is pointed at, not its value)."""
    where = getattr(node, "key_position", None)
    return (where(key) if where is not None else None) or fallback


def unknown(ctx: Ctx, code: str, kind: str, name: Any, known: Iterable[Any], pos: Position | None) -> None:
    near = did_you_mean(str(name), [str(k) for k in known])
    ctx.error(code, f"unknown {kind} '{name}'", pos, hint=f"did you mean '{near}'?" if near else None)


def _check_shapes(params: dict[str, Setting], base: Any, limits: dict[str, tuple[Any, Any]], ctx: Ctx) -> None:
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


def _check_ranges(params: dict[str, Setting], limits: dict[str, tuple[Any, Any]], ctx: Ctx) -> None:
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


def _run_checks(rules: Ruleset, checks: list[Any], ctx: Ctx) -> None:
    from .env import static_env

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


def _check_deal(rules: Ruleset, ctx: Ctx) -> None:
    """The deal must be possible for the variant's number of players (sizes that add up...)."""
    from .deal import deal_problem

    problem = deal_problem(rules)
    if problem is not None:
        message, pos = problem
        ctx.error("RL131", f"the deal cannot be dealt: {message}", pos or position_of(rules.deal, None))


def validate_file(path: str, also: Callable[[Ruleset], list[Diagnostic]] | None = None) -> list[Diagnostic]:
    """Diagnostics for one rule file or overlay (every variant of a rule file).

    ``also`` is a further check of each resolved rule set (the checker's: can the
    solver answer for it?).
    """
    try:
        first = load_rules(path)
    except DiagnosticError as exc:
        return list(exc.diagnostics)
    sets = [first]
    out: list[Diagnostic] = []
    doc = read_rule_yaml(find_rule_file(path))  # type: ignore[arg-type]
    # A rule file: every variant; an overlay: the variants its change: adds or edits.
    variants = list(doc["variants"]["list"]) if not first.house else \
        [v for v in changed_variants(doc) if v != first.variant]
    for v in variants:
        try:
            sets.append(load_rules(path, variant=v))
        except DiagnosticError as exc:
            out.extend(exc.diagnostics)
    for rules in sets if also is not None else ():
        out.extend(d for d in also(rules) if d not in out)  # type: ignore[misc]
    return out
