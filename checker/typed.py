"""A move as typed at ``play``'s prompt, completed and respelt before it is saved.

Two edits of the move's text, each keeping the rest of it as typed:

* a move without its player (``pass``, ``{place, item: compass, value: 1}``)
  gets one (:func:`with_actor`; who it is, the recorder asks the rules);
* each name is written as printed (:func:`respelt`): the rule file's
  spelling for an item, the header's for a player, from the names the log
  reader found (its ``on_name`` hook).

>>> with_actor("{pass}", "pass", "Ann"), with_actor("{place, item: x}", "place", "Ann")
('{pass: Ann}', '{place: Ann, item: x}')
>>> with_actor("{pass: ~}", "pass", "Ann"), with_actor("{pass:}", "pass", "Ann")
('{pass: Ann}', '{pass: Ann}')
>>> respelt('{pass: ann, item: "7:00"}', {7: "Ann", 18: "7:00"})
'{pass: Ann, item: "7:00"}'
>>> respelt("{place: ann, item: boussole}", {1: "place", 8: "Ann", 19: "compass"})
'{place: Ann, item: compass}'
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

import yaml

from ..spec.diagnostics import DiagnosticError
from ..spec.source import LMap, parse_text
from .writer import scalar

__all__ = ["missing_actor", "with_actor", "respelt"]

_NULLS = {"", "~", "null", "Null", "NULL"}


def missing_actor(parsed: Any, kinds: Mapping[str, str]) -> str | None:
    """The key naming a move (``kinds``: folded name -> move) when it names no player."""
    if not isinstance(parsed, LMap):
        return None
    verbs = [k for k in parsed if isinstance(k, str) and k.lower() in kinds]
    if len(verbs) == 1 and parsed[verbs[0]] is None:
        return verbs[0]
    return None


def _tokens(text: str) -> list[Any]:
    try:
        return list(yaml.scan(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return []


def _keys(tokens: list[Any]) -> Iterator[int]:
    """Indexes of the scalars that are keys of the outermost flow mapping."""
    depth = 0
    for i, token in enumerate(tokens):
        if isinstance(token, (yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)):
            depth += 1
        elif isinstance(token, (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
            depth -= 1
        elif isinstance(token, yaml.ScalarToken) and depth == 1 and i and isinstance(
                tokens[i - 1], (yaml.FlowMappingStartToken, yaml.FlowEntryToken, yaml.KeyToken)):
            yield i


def with_actor(text: str, verb: str, actor: str) -> str | None:
    """``text`` (a flow mapping) with ``actor`` as the value of its key ``verb``, which has
    none; None when the text is not such a mapping."""
    tokens = _tokens(text)
    name = scalar(actor)
    for i in _keys(tokens):
        key = tokens[i]
        if key.value != verb:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if isinstance(after, (yaml.FlowEntryToken, yaml.FlowMappingEndToken)):
            at = key.end_mark.index
            return f"{text[:at]}: {name}{text[at:]}"
        if isinstance(after, yaml.ValueToken):
            value = tokens[i + 2] if i + 2 < len(tokens) else None
            if isinstance(value, yaml.ScalarToken) and value.plain and value.value in _NULLS:
                return f"{text[:value.start_mark.index]}{name}{text[value.end_mark.index:]}"
            if isinstance(value, (yaml.FlowEntryToken, yaml.FlowMappingEndToken)):
                at = after.end_mark.index
                return f"{text[:at]} {name}{text[at:]}"
        return None
    return None


def respelt(text: str, names: Mapping[int, str]) -> str:
    """``text`` with the scalar starting at each offset of ``names`` written as the name
    given there (quoted as YAML needs; a scalar already so written is left as it is)."""
    out, at = [], 0
    for token in _tokens(text):
        if not isinstance(token, yaml.ScalarToken):
            continue
        start, end = token.start_mark.index, token.end_mark.index
        printed = names.get(start)
        if printed is None or token.value == printed:
            continue
        new = scalar(printed)
        if not _reads_as(new, printed):
            continue
        out += [text[at:start], new]
        at = end
    out.append(text[at:])
    return "".join(out)


def _reads_as(written: str, value: str) -> bool:
    """Whether a scalar written so reads back as this very string."""
    try:
        return parse_text(f"- {written}\n", "<name>") == [value]
    except DiagnosticError:
        return False
