"""The shape of a property file for ``prove``, and the type of its conditions.

A property file is checked against ``spec/property.schema.json`` (every key
known, each value of its type: a list where a list is wanted, a text where a
text is), each problem RL171 at its line and column.  The messages never
quote the file: an unknown key is said to be unknown, with the closest known
key as a hint, so that a file that is not a property file at all shows
nothing it holds.

A condition (``invariant:``, ``when:``, ``reaches:``) must be a boolean
expression.  :func:`static_kind` says what an expression gives when its form
settles it (a comparison, ``not``, ``all`` and ``any`` give true or false; a
text, a number, a list, arithmetic, ``len`` do not); a condition whose form
does not settle it (a name, an attribute) is checked when it is evaluated
(:func:`truth`): a value neither true nor false is RL173, never judged by
Python's truthiness.

>>> static_kind("vars.left >= 0"), static_kind("'x'"), static_kind("vars")
('boolean', 'a text', None)
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

import jsonschema

from ..spec import bundled
from ..spec.model import Ruleset
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, did_you_mean
from ..spec.source import LMap, position_of
from .engine import Lab

__all__ = ["SCHEMA_NAME", "schema_problems", "static_kind", "kind_of", "truth", "NOT_BOOLEAN", "scope_items",
           "scope_values"]

SCHEMA_NAME = "property.schema.json"
NOT_BOOLEAN = "RL173"
MAX_SHOWN = 50  # schema problems reported at most (a hostile file may hold thousands)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files(bundled.SCHEMAS).joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def kind_of(value: Any) -> str:
    """What a value is, in words (never the value itself)."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, (set, frozenset)):
        return "a set"
    return "a value of another kind"


_WANTED = {"string": "a text", "integer": "a whole number", "boolean": "true/false", "array": "a list",
           "object": "a mapping", "null": "nothing", "number": "a number"}


def _wanted(types: Any) -> str:
    types = [types] if isinstance(types, str) else list(types)
    return " or ".join(_WANTED.get(t, t) for t in types)


def _where(path: Sequence[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the top level"


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


def schema_problems(doc: Any, path: str) -> list[Diagnostic]:
    """Every way ``doc`` departs from the property file's schema: RL171, positioned, in file order."""
    out: list[Diagnostic] = []
    for err in _validator().iter_errors(doc):
        out.extend(_problem(doc, err, path))
        if len(out) > 4 * MAX_SHOWN:
            break
    if not out:
        return []
    seen, unique = set(), []
    for d in sorted(out, key=lambda d: (d.position or Position(path)).line * 10_000
                    + (d.position or Position(path)).column):
        key = (d.position, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique[:MAX_SHOWN]


def _problem(doc: Any, err: jsonschema.ValidationError, path: str) -> list[Diagnostic]:
    node, pos = _walk(doc, list(err.absolute_path))
    pos = pos or Position(path, 1, 1)
    where = _where(list(err.absolute_path))
    v = err.validator
    if v == "additionalProperties" and isinstance(node, Mapping):
        known = list(err.schema.get("properties", {}))
        out = []
        for key in node:
            if key in known:
                continue
            near = did_you_mean(str(key), known)
            out.append(Diagnostic("RL171", f"an unknown key {'in' if err.absolute_path else 'at'} {where}",
                                  node.key_position(key) if isinstance(node, LMap) else pos,
                                  hint=f"did you mean '{near}'?" if near else f"the keys: {', '.join(known)}"))
        return out
    if v == "required":
        missing = [k for k in err.validator_value if not (isinstance(node, Mapping) and k in node)]
        return [Diagnostic("RL171", f"{where}: '{missing[0] if missing else '?'}' is missing", pos)]
    if v == "type":
        return [Diagnostic("RL171", f"{where}: {_wanted(err.validator_value)} is wanted here, not {kind_of(node)}",
                           pos)]
    if v == "oneOf":  # the branch of the value's own kind says what is wrong, when there is one
        kind = "object" if isinstance(node, Mapping) else "array" if isinstance(node, list) else None
        branch = next((i for i, sub in enumerate(err.validator_value) if sub.get("type") == kind), None)
        inner = [e for e in err.context if branch is not None and e.schema_path and e.schema_path[0] == branch]
        if inner:
            return [d for e in inner for d in _problem(doc, e, path)]
        return [Diagnostic("RL171", f"{where}: {err.schema.get('description', 'not a value allowed here')}", pos)]
    if v == "minItems":
        return [Diagnostic("RL171", f"{where}: an empty list (at least {err.validator_value} wanted)", pos)]
    if v == "minProperties":
        return [Diagnostic("RL171", f"{where}: an empty mapping", pos)]
    if v == "minLength":
        return [Diagnostic("RL171", f"{where}: an empty text", pos)]
    if v == "maxLength":
        return [Diagnostic("RL171", f"{where}: a text of more than {err.validator_value} characters", pos)]
    if v in ("minimum", "maximum"):
        low, high = err.schema.get("minimum"), err.schema.get("maximum")
        bounds = f"from {low:,} to {high:,}" if low is not None and high is not None else \
            f"at least {low:,}" if low is not None else f"at most {high:,}"
        return [Diagnostic("RL171", f"{where}: must be {bounds}", pos)]
    return [Diagnostic("RL171", f"{where}: not a value allowed here ({v})", pos)]


# -- the type of a condition ------------------------------------------------------------

#: Functions of the expression language whose value is never true or false.
_NOT_BOOLEAN_CALLS = {"len": "a number", "sum": "a number", "abs": "a number", "range": "a range",
                      "sorted": "a list", "list": "a list", "set": "a set", "str": "a text", "int": "a number",
                      "count": "a number"}
_BOOLEAN_CALLS = {"all", "any", "bool"}


def static_kind(source: Any) -> str | None:
    """``'boolean'`` when an expression's form makes it true or false; what it gives (``'a
    text'``, ``'a number'``...) when its form makes it something else; None when its form
    does not say (a name, an attribute, a function of the rules)."""
    if isinstance(source, bool):
        return "boolean"
    if not isinstance(source, str):
        return kind_of(source)
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return None
    return _kind(tree)


def _kind(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant):
        return "boolean" if isinstance(node.value, bool) else kind_of(node.value)
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return "boolean"
    if isinstance(node, ast.BoolOp):  # 'a and b' gives a or b: boolean when both are
        kinds = [_kind(v) for v in node.values]
        wrong = next((k for k in kinds if k not in (None, "boolean")), None)
        return wrong if wrong else ("boolean" if all(k == "boolean" for k in kinds) else None)
    if isinstance(node, ast.IfExp):
        kinds = [_kind(node.body), _kind(node.orelse)]
        wrong = next((k for k in kinds if k not in (None, "boolean")), None)
        return wrong if wrong else ("boolean" if all(k == "boolean" for k in kinds) else None)
    if isinstance(node, (ast.List, ast.ListComp)):
        return "a list"
    if isinstance(node, (ast.Tuple,)):
        return "a list"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "a set"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "a mapping"
    if isinstance(node, ast.GeneratorExp):
        return "a generator"
    if isinstance(node, ast.UnaryOp):  # - and + (not is above)
        return "a number"
    if isinstance(node, ast.BinOp) and not isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return "a number" if not isinstance(node.op, ast.Add) else None  # + joins texts and lists too
    if isinstance(node, ast.JoinedStr):
        return "a text"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in _BOOLEAN_CALLS:
            return "boolean"
        return _NOT_BOOLEAN_CALLS.get(node.func.id)
    return None


def truth(value: Any, what: str, where: Position | None) -> bool:
    """A condition's value as true or false; anything else is RL173 (never truthiness)."""
    if value is True or value is False:
        return value
    raise DiagnosticError([Diagnostic(
        NOT_BOOLEAN, f"{what} gave {kind_of(value)}, neither true nor false: a condition must be a boolean "
        "expression", where, hint="compare it (e.g. '>= 0', '== ...', 'is not none') or use all()/any()")])



# -- the scope ---------------------------------------------------------------------------

def _fail(message: str, pos: Position | None, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic("RL171", message, pos, hint=hint)])


def _key_at(node: Any, key: Any) -> Position | None:
    return node.key_position(key) if isinstance(node, LMap) else None


def scope_items(rules: Ruleset, listed: Mapping[str, Any], path: str) -> dict[str, list[str]]:
    """A scope's items of each component (ids), each named as a log names it."""
    items: dict[str, list[str]] = {}
    for comp, names in listed.items():
        if comp not in rules.components:
            near = did_you_mean(str(comp), list(rules.components))
            raise _fail(f"scope items: no such component in {rules.canonical_name}", _key_at(listed, comp),
                        hint=f"did you mean '{near}'?" if near else f"the components: {', '.join(rules.components)}")
        ids = []
        for k, name in enumerate(names):
            item = str(name) if str(name) in rules.components[comp].items else rules.find(comp, str(name))
            if item is None or item not in rules.components[comp].items:
                raise _fail(f"scope items: '{name}' is not an item of {comp}", position_of(names, k))
            ids.append(item)
        items[comp] = ids
    return items


def scope_values(lab: Lab, param: str, listed: list[Any], players: Sequence[str],
                  node: Mapping[str, Any], path: str) -> list[Any]:
    """A scope's values of a parameter, an item's name (as a log writes it) read as the item;
    each must be a value some parameter of that name can take (else no move could take it)."""
    rules = lab.rules
    params = [p for move in rules.moves.values() for p in move.params if p.name == param]
    if not params:
        known = sorted({p.name for move in rules.moves.values() for p in move.params})
        near = did_you_mean(param, known)
        raise _fail(f"scope values: no move of {rules.canonical_name} has such a parameter", _key_at(node, param),
                    hint=f"did you mean '{near}'?" if near else f"the parameters: {', '.join(known)}")
    out = []
    for k, value in enumerate(listed):
        pos = position_of(listed, k)
        if value is None:  # the parameter left out
            if not any(p.optional for p in params):
                raise _fail(f"scope values: '{param}' is never left out (null is no value of it)", pos)
            out.append(None)
            continue
        found, domains = _in_domain(lab, params, value, players)
        if found is _NOWHERE:
            raise _fail(f"scope values: {json.dumps(value, ensure_ascii=False)} is no value of '{param}' "
                        f"({'; '.join(dict.fromkeys(domains))}): no move could take it", pos)
        out.append(found)
    return out


_NOWHERE = object()


def _in_domain(lab: Lab, params: Sequence[Any], value: Any, players: Sequence[str]) -> tuple[Any, list[str]]:
    """The value as the state machine reads it, if one of these parameters can take it (else
    :data:`_NOWHERE`), and in words the values each can take."""
    rules, machine = lab.rules, lab.machine
    domains = []
    for p in params:
        t = p.type
        if t in ("item", "items"):
            comps = p.components or ((p.of,) if p.of else ())
            domains.append(f"{'items' if t == 'items' else 'an item'} of {' or '.join(comps)}")
            names = value if t == "items" and isinstance(value, list) else [value]
            if t == "item" and isinstance(value, list):
                continue
            ids = [next((rules.find(c, str(v)) for c in comps if rules.find(c, str(v))), None) for v in names]
            if all(i is not None for i in ids):
                return (ids if t == "items" else ids[0]), domains
        elif t == "count":
            top = machine.evaluated(p.max, machine.static) if p.max is not None else (lab.n_cards,)
            if top is None:  # a maximum that depends on the state: any whole number
                domains.append("a whole number")
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            else:
                domains.append(f"0 to {top[0]}")
                ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= int(top[0])
            if ok:
                return value, domains
        elif t == "choice":
            domains.append(", ".join(map(str, p.values)))
            if value in p.values and not isinstance(value, bool):
                return value, domains
        elif t == "flag":
            domains.append("true or false")
            if isinstance(value, bool):
                return value, domains
        elif t == "player":
            domains.append(f"a player ({', '.join(players)})")
            if value in players:
                return value, domains
        elif t == "token_value":
            supply = sorted(machine.supply)
            domains.append(f"a token's value ({', '.join(map(str, supply))})")
            if isinstance(value, int) and not isinstance(value, bool) and value in supply:
                return value, domains
        else:  # a kind whose values the scope is not checked against
            domains.append(t)
            return value, domains
    return _NOWHERE, domains
