"""Is a document surely valid against a JSON Schema?  A quick answer, without jsonschema.

Importing ``jsonschema`` (with ``referencing``, ``attrs`` and its format
checkers) and building a validator costs a command more than checking a
clean log does.  :func:`surely_valid` walks the document over the few
keywords the bundled schemas use and answers ``True`` only when every one
of them surely holds; on anything it does not know (another keyword, a
remote ``$ref``, a float where an integer is asked, a key that is not a
string) it answers ``False``, and the caller asks jsonschema, whose errors
make the diagnostics.  So jsonschema decides every document that is not
clean, and the quick answer is tested against it (``tests/spec/test_schemacheck.py``:
the same answer on random and mutated logs and rule files).

>>> schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "minimum": 0}},
...           "additionalProperties": False}
>>> surely_valid({"a": 1}, schema), surely_valid({"a": -1}, schema), surely_valid({"a": 1, "b": 2}, schema)
(True, False, False)
>>> surely_valid({"a": 1.0}, schema)  # jsonschema takes 1.0 as an integer; the quick check leaves it to it
False
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["surely_valid", "decide"]

#: Keywords that say nothing about validity (annotations).
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples", "$defs",
                          "definitions"})
_KNOWN = frozenset({"type", "const", "enum", "properties", "additionalProperties", "required", "minProperties",
                    "items", "minItems", "minLength", "pattern", "minimum", "$ref", "oneOf", "anyOf", "allOf"}) \
    | _ANNOTATIONS


def surely_valid(instance: Any, schema: Any) -> bool:
    """True when ``instance`` surely validates against ``schema`` (draft 2020-12); False when
    it does not, or when the quick check cannot tell (then jsonschema must be asked)."""
    return decide(instance, schema, schema) is True


def decide(instance: Any, schema: Any, root: Any) -> bool | None:
    """True (valid), False (surely invalid) or None (cannot tell) for ``instance`` against
    ``schema``, a part of ``root`` (where a ``$ref`` is resolved)."""
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        return None
    unsure = False
    for key, want in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key not in _KNOWN:
            return None
        got = _keyword(key, want, instance, schema, root)
        if got is False:
            return False
        if got is None:
            unsure = True
    return None if unsure else True


def _all(answers: Any) -> bool | None:
    unsure = False
    for v in answers:
        if v is False:
            return False
        if v is None:
            unsure = True
    return None if unsure else True


def _keyword(key: str, want: Any, x: Any, schema: dict[str, Any], root: Any) -> bool | None:
    if key == "type":
        kinds = want if isinstance(want, list) else [want]
        found = [_is_type(x, k) for k in kinds]
        return True if True in found else None if None in found else False
    if key == "const":
        return _equal(x, want)
    if key == "enum":
        if not isinstance(want, list):
            return None
        found = [_equal(x, w) for w in want]
        return True if True in found else None if None in found else False
    if key in ("properties", "additionalProperties", "required", "minProperties"):
        return _object(key, want, x, schema, root)
    if key in ("items", "minItems"):
        if not isinstance(x, list):
            return True
        if key == "minItems":
            return len(x) >= want if type(want) is int else None
        return _all(decide(v, want, root) for v in x)
    if key in ("minLength", "pattern"):
        if not isinstance(x, str):
            return True
        if key == "minLength":
            return len(x) >= want if type(want) is int else None
        return None if not isinstance(want, str) else _compiled(want).search(x) is not None
    if key == "minimum":
        if type(x) is bool or not isinstance(x, (int, float)):
            return True
        if type(want) is bool or not isinstance(want, (int, float)):
            return None
        return x >= want  # as jsonschema compares them
    if key == "$ref":
        target = _resolve(want, root)
        return None if target is None else decide(x, target, root)
    if not isinstance(want, list):
        return None
    found = [decide(x, s, root) for s in want]
    if key == "allOf":
        return _all(found)
    if key == "anyOf":
        return True if True in found else None if None in found else False
    # oneOf: exactly one
    if None in found:
        return None
    return found.count(True) == 1


def _object(key: str, want: Any, x: Any, schema: dict[str, Any], root: Any) -> bool | None:
    if not isinstance(x, dict):
        return True
    if not all(type(k) is str for k in x):
        return None  # YAML allows other keys: jsonschema's handling is its own
    if key == "required":
        return all(k in x for k in want) if isinstance(want, list) else None
    if key == "minProperties":
        return len(x) >= want if type(want) is int else None
    if key == "properties":
        if not isinstance(want, dict):
            return None
        return _all(decide(x[k], s, root) for k, s in want.items() if k in x)
    # additionalProperties: the keys no ``properties`` names (no patternProperties here: else unsure)
    if "patternProperties" in schema:
        return None
    named = schema.get("properties", {})
    return _all(decide(v, want, root) for k, v in x.items() if k not in named)


def _is_type(x: Any, kind: str) -> bool | None:
    if kind == "string":
        return isinstance(x, str)
    if kind == "object":
        return isinstance(x, dict)
    if kind == "array":
        return isinstance(x, list)
    if kind == "boolean":
        return type(x) is bool
    if kind == "null":
        return x is None
    if kind == "integer":
        if type(x) is bool:
            return False
        return True if isinstance(x, int) else None if isinstance(x, float) else False
    if kind == "number":
        return type(x) is not bool and isinstance(x, (int, float))
    return None


def _equal(x: Any, want: Any) -> bool | None:
    """``x == want`` as jsonschema compares them (``1`` is not ``True``), for strings, integers
    and null; else unsure."""
    if isinstance(x, str) or isinstance(want, str):
        return x == want
    if x is None or want is None:
        return x is want
    if isinstance(x, bool) or isinstance(want, bool):
        return x is want if isinstance(x, bool) and isinstance(want, bool) else None
    if type(x) is int and type(want) is int:
        return x == want
    return None


def _resolve(ref: Any, root: Any) -> Any:
    """A ``#/...`` reference within the root schema; None for any other."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> "re.Pattern[str]":
    return re.compile(pattern)
