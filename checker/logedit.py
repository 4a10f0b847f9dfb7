"""A game log's text, edited in place: one move added after the last, or the last removed.

The log keeps its author's formatting: a move is one new item after the last
move (a line in a block list, an item in a flow list, in a flow document
too), never a re-dump of the YAML, and every other line stays as it was.
The edits work on the YAML nodes' marks; each is read back and compared with
the log before it (:func:`_verify`), so that an edit that would touch
anything but the one move (an alias, a layout not foreseen) is refused with
:class:`LayoutError` rather than made.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..spec.diagnostics import DiagnosticError
from ..spec.source import parse_text
from .writer import flow_text, scalar

__all__ = ["LayoutError", "new_log", "append_move", "remove_last_move", "append_at", "remove_last", "add_record",
           "record_key"]


# -- the log's text ------------------------------------------------------------------------


class LayoutError(ValueError):
    """A log written in a way the recorder cannot edit without touching other moves."""


def new_log(rules: str, players: list[str], first: str | None = None, variant: str | None = None,
            house: list[str] | None = None, sections: dict[str, list[str]] | None = None) -> str:
    """The header of a new log, with an empty list of moves.  ``sections``: for ``setup:`` or
    ``private:``, records as one line of YAML each (``KEY: VALUE``, see :func:`record_key`).

    >>> print(new_log("r", ["Ann", "Ben"], sections={"setup": ["colours: {Ann: Red, Ben: Blue}"]}), end="")
    rules: r
    players: [Ann, Ben]
    setup:
      colours: {Ann: Red, Ben: Blue}
    moves: []
    """
    lines = [f"rules: {scalar(rules, flow=False)}"]
    if variant:
        lines.append(f"variant: {scalar(variant, flow=False)}")
    if house:
        lines.append("house: [" + ", ".join(scalar(h) for h in house) + "]")
    lines.append("players: [" + ", ".join(scalar(p) for p in players) + "]")
    if first:
        lines.append(f"first: {scalar(first, flow=False)}")
    for section, records in (sections or {}).items():
        if records:
            lines.append(f"{section}:")
            lines.extend(f"  {record.strip()}" for record in records)
    lines.append("moves: []")
    return "\n".join(lines) + "\n"


def record_key(line: str) -> str:
    """The key of a record given as one line of YAML, ``KEY: VALUE``; LayoutError when it is not.

    >>> record_key("hand: {Ann: [Rope, Hall]}")
    'hand'
    >>> record_key("[1, 2]")
    Traceback (most recent call last):
    ...
    ruleslawyer.checker.logedit.LayoutError: a record is one line KEY: VALUE, e.g. hand: {Ann: [Rope, Hall]}
    """
    try:
        doc = parse_text(line, "<record>") if "\n" not in line.strip() else None
    except DiagnosticError:
        doc = None
    if not isinstance(doc, dict) or len(doc) != 1 or not isinstance(next(iter(doc)), str):
        raise LayoutError("a record is one line KEY: VALUE, e.g. hand: {Ann: [Rope, Hall]}")
    return next(iter(doc))


def add_record(text: str, section: str, line: str) -> str:
    """The log with the record ``KEY: VALUE`` (one line of YAML) added to its ``section:``
    (``private:``, made before ``moves:`` when the log has none), every other line as it was.
    LayoutError when the section has that key already, or is not written one key a line."""
    key = record_key(line)
    if not text.endswith("\n"):
        text += "\n"
    root = _root(text)
    if root.flow_style:
        raise LayoutError("the log is one flow mapping")
    lines = text.split("\n")[:-1]
    end = "\r" if lines and lines[0].endswith("\r") else ""
    found = next(((k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == section), None)
    if found is None:
        moves = _moves_node(root)
        if moves is None or moves[0].start_mark.column != 0:
            raise LayoutError("the log has no moves: at the start of a line")
        at = moves[0].start_mark.line
        lines[at:at] = [f"{section}:{end}", f"  {line.strip()}{end}"]
    else:
        head, node = found
        if _is_null(node) and head.start_mark.column == 0 and text.split("\n")[head.start_mark.line].rstrip(
                "\r").rstrip().endswith(":"):
            at = head.start_mark.line + 1  # private: with nothing under it
            lines[at:at] = [f"  {line.strip()}{end}"]
        elif not isinstance(node, yaml.MappingNode) or node.flow_style or not node.value:
            raise LayoutError(f"its {section}: is not written one key a line")
        elif any(isinstance(k, yaml.ScalarNode) and k.value == key for k, _v in node.value):
            raise LayoutError(f"its {section}: has {key} already")
        else:
            indent = " " * node.value[0][0].start_mark.column
            last = _last_content(lines, head.start_mark.line, min(node.end_mark.line, len(lines)))  # a block ends where the next token starts
            lines[last + 1:last + 1] = [f"{indent}{line.strip()}{end}"]
    new = "\n".join(lines) + "\n"
    old = parse_text(text, "<log>")
    try:
        after = parse_text(new, "<log>")
    except DiagnosticError:
        raise LayoutError("the edited log would not read") from None
    want = {**old, section: {**(old.get(section) or {}), **parse_text(line, "<record>")}}
    if after != want:
        raise LayoutError(f"the edit would change more than its {section}:")
    return new


def _root(text: str) -> yaml.MappingNode:
    """The log's YAML nodes, with their marks (after the reader's own checks of the text)."""
    parse_text(text, "<log>")  # tags, limits, line breaks: refused before any node is built
    node = yaml.compose(text, Loader=yaml.SafeLoader)  # nodes only: nothing is constructed
    if not isinstance(node, yaml.MappingNode):
        raise LayoutError("the log is not a mapping")
    return node


def _moves_node(root: yaml.MappingNode) -> tuple[yaml.Node, yaml.Node] | None:
    return next(((k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "moves"), None)


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _block(node: yaml.Node) -> bool:
    return isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style


def _last_content(lines: list[str], lo: int, hi: int) -> int:
    """The last line in [lo, hi) that is neither blank nor only a comment (lo when none)."""
    for n in range(hi - 1, lo - 1, -1):
        stripped = lines[n].strip()
        if stripped and not stripped.startswith("#"):
            return n
    return lo


def _dash_line(lines: list[str], node: yaml.Node) -> int:
    """The line of the ``-`` that starts a block list's item: the item's own line, or an
    earlier one holding only the dash (comments and blank lines between)."""
    line, col = node.start_mark.line, node.start_mark.column
    before = lines[line][:col]
    if re.fullmatch(r"[ \t]*-[ \t]+", before):
        return line
    if not before.strip():
        for n in range(line - 1, -1, -1):
            stripped = lines[n].strip()
            if not stripped or stripped.startswith("#"):
                continue
            if re.fullmatch(r"-(?:\s+#.*)?", stripped):
                return n
            break
    raise LayoutError("a move whose '-' is not where a block list puts it")


def _item_lines(lines: list[str], node: yaml.Node) -> tuple[int, int]:
    """(first, last) line of a block list's item: its dash to its last content line."""
    dash = _dash_line(lines, node)
    end = node.end_mark.line if _block(node) else node.end_mark.line + 1  # a block ends where the next token starts
    return dash, _last_content(lines, dash, min(end, len(lines)))


def _offset(lines: list[str], line: int, col: int = 0) -> int:
    return sum(len(x) + 1 for x in lines[:line]) + col


def _verify(before: str, after: str, moves: list[Any]) -> None:
    """``after`` must read as ``before`` with exactly ``moves``: else the edit touched more."""
    old = parse_text(before, "<log>")
    try:
        new = parse_text(after, "<log>")
    except DiagnosticError:
        raise LayoutError("the edited log would not read") from None
    rest = {k: v for k, v in old.items() if k != "moves"}
    if not isinstance(new, dict) or {k: v for k, v in new.items() if k != "moves"} != rest \
            or list(new.get("moves") or []) != moves:
        raise LayoutError("the edit would change more than the last move")


def _insert(text: str, move: str) -> tuple[str, int]:
    """The log with ``move`` inserted as a new last move; (new text, index of the move in it)."""
    root = _root(text)
    found = _moves_node(root)
    if found is not None and _is_null(found[1]) and found[1].start_mark.index < found[1].end_mark.index:
        value = found[1]  # moves: ~ (or null): as moves: []
        return _insert(text[:value.start_mark.index] + "[]" + text[value.end_mark.index:], move)
    lines = text.split("\n")[:-1]  # the text ends with a line end
    if found is None:
        if root.flow_style:  # {rules: ..., players: [...]}: the list before the closing brace
            at = root.end_mark.index - 1
            if text[at] != "}":
                raise LayoutError("a flow mapping without its closing brace where YAML says")
            lead = ", moves: ["
            return text[:at] + lead + move + "]" + text[at:], at + len(lead)
        at = next((n for n, line in enumerate(lines) if re.match(r"^end\s*:", line)), len(lines))
        lines[at:at] = ["moves:", f"  - {move}"]
        return "\n".join(lines) + "\n", _offset(lines, at + 1, 4)
    key, seq = found
    indent = " " * (key.start_mark.column + 2)
    if _is_null(seq) or (isinstance(seq, yaml.SequenceNode) and seq.flow_style and not seq.value
                         and not root.flow_style):
        k = key.start_mark.line
        emptied = re.sub(r"^([ \t]*moves[ \t]*:)[ \t]*\[[ \t]*\]", r"\1", lines[k]) if not _is_null(seq) else lines[k]
        if emptied != lines[k] or _is_null(seq):  # moves: [] (or nothing): the first move on a line of its own
            lines[k] = emptied
            end = "\r" if lines[k].endswith("\r") else ""
            lines.insert(k + 1, f"{indent}- {move}{end}")
            return "\n".join(lines) + "\n", _offset(lines, k + 1, len(indent) + 2)
    if not isinstance(seq, yaml.SequenceNode):
        raise LayoutError("moves: is not a list")
    if seq.flow_style:
        if not seq.value:  # [] inside a flow document, or written another way
            at = seq.start_mark.index + 1
            if text[at - 1] != "[":
                raise LayoutError("a flow list without its bracket where YAML says")
            return text[:at] + move + text[at:], at
        last = seq.value[-1]
        line_start = text.rfind("\n", 0, last.start_mark.index) + 1
        sep = ",\n" + " " * last.start_mark.column if not text[line_start:last.start_mark.index].strip() else ", "
        at = last.end_mark.index
        return text[:at] + sep + move + text[at:], at + len(sep)
    first, last = _item_lines(lines, seq.value[-1])
    prefix = lines[first][:lines[first].index("-")]
    end = "\r" if lines[last].endswith("\r") else ""
    lines.insert(last + 1, f"{prefix}- {move}{end}")
    return "\n".join(lines) + "\n", _offset(lines, last + 1, len(prefix) + 2)


def append_at(text: str, move: str) -> tuple[str, int]:
    """:func:`append_move`, with the index of the move in the new text."""
    if not text.endswith("\n"):
        text += "\n"
    new, at = _insert(text, move)
    old = parse_text(text, "<log>")
    _verify(text, new, [*(old.get("moves") or []), parse_text(move, "<move>")])
    return new, at


def append_move(text: str, move: str) -> tuple[str, int]:
    """The log with one more move after the last move; (new text, the move's 1-based line).
    Raise :class:`LayoutError` when the log is written so that the move cannot be added alone."""
    new, at = append_at(text, move)
    return new, new.count("\n", 0, at) + 1


def _remove(text: str) -> str | None:
    """The log without its last move; None without a move."""
    root = _root(text)
    found = _moves_node(root)
    if found is None or not isinstance(found[1], yaml.SequenceNode) or not found[1].value:
        return None
    key, seq = found
    last = seq.value[-1]
    if seq.flow_style:
        if len(seq.value) == 1:  # up to the closing bracket (a trailing comma goes too)
            close = seq.end_mark.index - 1
            if text[close] != "]":
                raise LayoutError("a flow list without its closing bracket where YAML says")
            new = text[:last.start_mark.index] + text[close:]
        else:  # from the end of the move before
            new = text[:seq.value[-2].end_mark.index] + text[last.end_mark.index:]
        return new
    lines = text.split("\n")
    first, end = _item_lines(lines, last)
    del lines[first:end + 1]
    if len(seq.value) == 1:
        k = key.start_mark.line
        lines[k] = re.sub(r"^([ \t]*moves[ \t]*:)[ \t]*(#[^\r]*)?(\r?)$",
                          lambda m: m.group(1) + " []" + (" " + m.group(2) if m.group(2) else "") + m.group(3), lines[k])
    return "\n".join(lines)


def remove_last(text: str) -> tuple[str, str] | None:
    """:func:`remove_last_move`, with the removed move on one line (flow style, so that
    it can be pasted back as it is whatever style the log was written in)."""
    done = _remove(text)
    if done is None:
        return None
    moves = list(parse_text(text, "<log>").get("moves") or [])
    _verify(text, done, moves[:-1])
    return done, flow_text(moves[-1])


def remove_last_move(text: str) -> str | None:
    """The log without its last move (None when it has none).  Raise :class:`LayoutError`
    when the log is written so that the move cannot be removed alone."""
    done = remove_last(text)
    return None if done is None else done[0]
