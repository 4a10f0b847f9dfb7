"""One move a line: a log's flow list of moves (``moves: [m1, m2]``) as a block list, its comments kept.

Done only where nothing can be lost: the ``[`` stands on the key's line, each move stands on one
line, and between the moves (and after the ``]``) there are only commas, blank lines and comments.
A comment after a move (or after its comma) stays after it; a comment on a line of its own stays
on a line of its own, between the same two moves; one after ``[`` stays on the key's line.
Anything else (a move over several lines, an anchor, ``[a: b]``) is left as written.

>>> text = "moves: [{pass: A},  # first\\n  # then\\n  {pass: B}]  # last\\n"
>>> tokens = list(yaml.scan(text, Loader=yaml.SafeLoader))
>>> start, end, new = as_block(text, tokens, 1, 1, lambda s, e: text[s:e])
>>> print(text[:start] + new + text[end:], end="")
moves:
  - {pass: A}  # first
  # then
  - {pass: B}  # last
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

import yaml

__all__ = ["as_block"]

_OPEN = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)
_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)
_BREAK = re.compile(r"\r\n|\r|\n")


def as_block(text: str, tokens: Sequence[Any], line: int, column: int,
             item: Callable[[int, int], str]) -> tuple[int, int, str] | None:
    """The edit (start, end, new text) that writes the flow list under the key at ``line``,
    ``column`` (1-based) one item a line, or None; ``item(start, end)``: an item's new text."""
    found = _flow_list(text, tokens, line, column)
    if found is None:
        return None
    colon, opening, items, close = found
    line_end = _line_end(text, close)
    gaps = [text[opening:items[0][0]], *(text[a[1]:b[0]] for a, b in zip(items, items[1:])),
            text[items[-1][1]:close - 1]]
    parts = [_gap(g) for g in gaps]
    tail = _gap(text[close:line_end])
    if any(p is None for p in parts) or tail is None or tail[2] or tail[1]:
        return None
    commas = [p[2] for p in parts]  # type: ignore[index]
    if commas[0] or commas[-1] > 1 or any(c != 1 for c in commas[1:-1]):
        return None
    newline = "\r\n" if "\r\n" in text else "\n"
    indent = " " * (column + 1)
    lead_comment, lead_lines, _c = parts[0]  # type: ignore[misc]
    lines = [indent + c if c else "" for c in lead_lines]
    for (start, end), part in zip(items, parts[1:]):
        comment, between, _c = part  # type: ignore[misc]
        lines.append(f"{indent}- {item(start, end)}{comment}")
        lines.extend(indent + c if c else "" for c in between)
    if tail[0]:
        if lines[-1].lstrip().startswith("- ") and not parts[-1][0]:  # type: ignore[index]
            lines[-1] += tail[0]
        else:
            lines.append(indent + tail[0].lstrip())
    return colon, line_end, ":" + lead_comment + newline + newline.join(lines)


def _flow_list(text: str, tokens: Sequence[Any], line: int,
               column: int) -> tuple[int, int, list[tuple[int, int]], int] | None:
    """The offsets of the key's ``:``, just after ``[``, each item's span, just after ``]``."""
    at = next((i for i, t in enumerate(tokens) if isinstance(t, yaml.ScalarToken)
               and (t.start_mark.line + 1, t.start_mark.column + 1) == (line, column)), None)
    if at is None or at + 2 >= len(tokens):
        return None
    value, opening = tokens[at + 1], tokens[at + 2]
    if not isinstance(value, yaml.ValueToken) or not isinstance(opening, yaml.FlowSequenceStartToken):
        return None
    colon = value.start_mark.index
    if text[colon] != ":" or text[colon + 1:opening.start_mark.index].strip(" \t"):
        return None  # the '[' on a line of its own, or after an anchor or a tag
    depth, items, start, end = 0, [], None, 0
    for token in tokens[at + 2:]:
        depth += isinstance(token, _OPEN) - isinstance(token, _CLOSE)
        if depth == 0:
            if start is not None:
                items.append((start, end))
            if not items or any(_BREAK.search(text[s:e]) for s, e in items):
                return None
            return colon, opening.end_mark.index, items, token.end_mark.index
        if token is opening:
            continue
        if depth == 1 and isinstance(token, yaml.FlowEntryToken):
            if start is None:
                return None
            items.append((start, end))
            start = None
            continue
        if depth == 1 and isinstance(token, (yaml.KeyToken, yaml.ValueToken)):
            return None  # [a: b]: a mapping of one pair
        if start is None:
            start = token.start_mark.index
        end = token.end_mark.index
    return None


def _line_end(text: str, at: int) -> int:
    found = _BREAK.search(text, at)
    return found.start() if found else len(text)


def _gap(gap: str) -> tuple[str, list[str], int] | None:
    """What stands between two items: the comment ending the first one's line (with the spaces
    before it), the lines after it (comments or blank), the number of commas; None if anything else."""
    first, *others = _BREAK.split(gap)
    commas = 0
    out: list[str] = []
    for k, segment in enumerate([first, *others]):
        head, mark, comment = segment.partition("#")
        if head.replace(",", "").strip(" \t"):
            return None
        commas += head.count(",")
        if k == 0:
            out.append((head.replace(",", "") or " ") + mark + comment if mark else "")
        elif k < len(others) or mark:
            out.append(mark + comment)
    return out[0], out[1:], commas
