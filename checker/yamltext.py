"""YAML scalars written as a person would: plain where YAML reads them back as the same string,
double-quoted otherwise (every character a terminal or editor would not show escaped).

One rule for every writer of logs (``fmt``, the logs ``simulate``, ``play`` and ``prove``
write), so that what one writes the other leaves as it is.

>>> plain_ok("Place 2 (placeholder)", True), plain_ok("a, b", True), plain_ok("a, b", False)
(True, False, True)
>>> plain_ok("7:00", False), plain_ok("yes", False), plain_ok("3p", False)
(False, False, True)
>>> print(quoted("Ann\x1b[2J\u202e"))
"Ann\\e[2J\\u202e"
"""

from __future__ import annotations

from functools import lru_cache

import yaml

from ..spec.diagnostics import UNPRINTABLE, DiagnosticError
from ..spec.source import parse_text

__all__ = ["plain_ok", "quoted"]

#: Characters a plain scalar may hold after its first (a letter or digit) anywhere, and in
#: block context besides; anything else is quoted (conservative: never ``:``, ``#``, ``"``).
_PLAIN = frozenset(" ._'/()+&-")
_BLOCK_PLAIN = _PLAIN | {","}
#: YAML's own escapes of a double-quoted scalar (the others: \xXX, \uXXXX, \UXXXXXXXX).
_NAMED_ESCAPES = {"\\": "\\\\", '"': '\\"', "\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n",
                  "\v": "\\v", "\f": "\\f", "\r": "\\r", "\x1b": "\\e"}


@lru_cache(maxsize=4096)
def plain_ok(value: str, flow: bool) -> bool:
    """Whether ``value`` may be written unquoted and still read as this very string, by this
    reader (YAML 1.2 core schema) and by YAML 1.1 readers (``yes``, ``7:00``...)."""
    allowed = _PLAIN if flow else _BLOCK_PLAIN
    if not value or not value[0].isalnum() or value[-1] == " ":
        return False
    if not all(c.isalnum() and ord(c) not in UNPRINTABLE or c in allowed for c in value):
        return False
    if yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) != "tag:yaml.org,2002:str":
        return False
    try:
        return parse_text(f"- {value}\n", "<plain>")[0] == value  # type: ignore[no-any-return]
    except DiagnosticError:
        return False


def quoted(value: str) -> str:
    """``value`` double-quoted, every character a terminal or editor would not show escaped."""
    out = []
    for c in value:
        code = ord(c)
        if c in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[c])
        elif c.isprintable() and code not in UNPRINTABLE:
            out.append(c)
        else:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return '"' + "".join(out) + '"'
