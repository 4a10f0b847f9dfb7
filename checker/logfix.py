"""``check --fix`` and ``--diff``: the edits a log's diagnostics carry, made in its text.

A diagnostic carries its edit when the checker is sure of it
(:class:`~ruleslawyer.spec.diagnostics.Fix`): a name respelt as the one a
single "did you mean" names, an outcome set to the only one the moves after it fit, a move deleted, a move without parameters
inserted, two moves swapped, the seating corrected.  Here each becomes
spans of the log's text, as ``fmt`` rewrites it (:mod:`.fmt`): a name or a
player in place, a move as whole lines of a block list (its comments go
with it) or an item of a flow list; every other byte, comments, CRLF line
ends and a byte order mark, stays.  Two edits that would touch the same
text are not both made: the first diagnostic's is, the other stays a
diagnostic.

Before anything is written, the result is read again and must hold exactly
the values the edits say (the log's values with the names respelt, the
moves deleted, inserted and swapped): else RL014 and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import yaml

from ..spec.diagnostics import Diagnostic, DiagnosticError, Fix, Position
from ..spec.source import Limits, LMap, LSeq, parse_text
from .fmt import MISMATCH, Edit, Formatted, _SCANNER, _apply, _edits, _plain
from .logedit import LayoutError, _item_lines, _moves_node, _offset

__all__ = ["Fixed", "fix_text"]


@dataclass(frozen=True)
class Fixed:
    """A log, its text with the sure edits made, the diagnostics whose edit was made and the
    ones whose edit was not (it overlapped another's, or the log is laid out in a way it cannot
    be made in)."""

    formatted: Formatted            # before, after, the spans rewritten, the byte order mark
    made: tuple[Diagnostic, ...]
    not_made: tuple[Diagnostic, ...]

    @property
    def changed(self) -> bool:
        return self.formatted.changed

    def to_json(self) -> dict[str, Any]:
        return {"changed": self.changed,
                "fixes": [_fix_json(d) for d in self.made],
                "not_made": [_fix_json(d) for d in self.not_made]}


def _fix_json(d: Diagnostic) -> dict[str, Any]:
    assert d.fix is not None
    return {"code": d.code, "move": d.move, **d.fix.to_json(), "description": d.fix.describe()}


def fix_text(text: str, path: str, diagnostics: Iterable[Diagnostic], bom: bool = False) -> Fixed:
    """The log ``text`` (of file ``path``) with the fix of each diagnostic made that can be;
    :class:`DiagnosticError` (RL014) when the result would not read as those edits say."""
    wanted = [d for d in diagnostics if d.fix is not None
              and (d.fix.position is None or d.fix.position.path == path)]
    if not wanted:
        return Fixed(Formatted(path, text, text, (), bom), (), ())
    work = text if text.endswith("\n") else text + "\n"  # a block list's last move ends its line
    limits = Limits.from_env()
    doc = parse_text(work, path, limits)
    tokens = list(yaml.scan(work, Loader=_SCANNER))
    spans = _MoveSpans(work)
    made: list[Diagnostic] = []
    not_made: list[Diagnostic] = []
    edits: list[Edit] = []
    respelt: dict[tuple[int, int], Any] = {}  # the names respelt and values set, by place
    for d in wanted:
        try:
            mine, names = _edits_of(d.fix, work, doc, tokens, spans)  # type: ignore[arg-type]
        except LayoutError:
            not_made.append(d)
            continue
        if any(_overlap(a, b) for a in mine for b in edits) or any(k in respelt for k in names):
            not_made.append(d)
            continue
        edits.extend(mine)
        respelt.update(names)
        made.append(d)
    if not edits:
        return Fixed(Formatted(path, text, text, (), bom), tuple(made), tuple(not_made))
    after = _apply(work, edits)
    _check(doc, after, path, limits, respelt, [d.fix for d in made])  # type: ignore[misc]
    return Fixed(Formatted(path, text, after, tuple(sorted(edits, key=lambda e: e.start)), bom),
                 tuple(made), tuple(not_made))


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end or b.start == b.end:  # an insertion: inside the other's span, or at the same place
        return a.start == b.start or b.start < a.start < b.end or a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def _edits_of(fix: Fix, text: str, doc: LMap, tokens: list[Any],
              spans: "_MoveSpans") -> tuple[list[Edit], dict[tuple[int, int], Any]]:
    """The spans of text one fix rewrites, and the names it respells (by place)."""
    if fix.action == "set":
        return _set(fix, text, tokens)
    if fix.action in ("rename", "seat"):
        names = _names(fix, doc)
        edits = list(_edits(text, names, tokens, only=True))
        if not edits:
            raise LayoutError("the name is not where the diagnostic says")
        return edits, names
    return spans.edits(fix), {}


def _set(fix: Fix, text: str, tokens: list[Any]) -> tuple[list[Edit], dict[tuple[int, int], Any]]:
    """A plain scalar (a number, true or false) written over with another: the token at the place."""
    if fix.position is None or fix.text is None:
        raise LayoutError("a value without a place")
    where = (fix.position.line, fix.position.column)
    for token in tokens:
        if isinstance(token, yaml.ScalarToken) and (token.start_mark.line + 1, token.start_mark.column + 1) == where:
            if not token.plain:
                raise LayoutError("a quoted value where a plain one is meant")
            start, end = token.start_mark.index, token.end_mark.index
            edit = Edit(where[0], where[1], start, end, text[start:end], fix.text)
            return [edit], {where: yaml.safe_load(fix.text)}
    raise LayoutError("the value is not where the diagnostic says")


def _names(fix: Fix, doc: LMap) -> dict[tuple[int, int], str]:
    if fix.action == "rename":
        if fix.position is None or fix.text is None:
            raise LayoutError("a rename without a place")
        return {(fix.position.line, fix.position.column): fix.text}
    seq = doc.get("players")
    if not isinstance(seq, LSeq) or sorted(map(str, seq)) != sorted(fix.players):
        raise LayoutError("players: is not the list the seating reorders")
    names = {}
    for i, name in enumerate(fix.players):
        pos = seq.pos_of(i)
        names[(pos.line, pos.column)] = name
    if fix.first is not None:
        if "first" not in doc:
            raise LayoutError("no first: to correct")
        pos = doc.pos_of("first")
        names[(pos.line, pos.column)] = fix.first
    return names


class _MoveSpans:
    """Where each move stands in the text: whole lines of a block list (from its ``-`` to its
    last line, line end included), or an item's characters in a flow list."""

    def __init__(self, text: str):
        self.text = text
        self.spans: list[tuple[int, int]] | None = None
        self.flow = False
        self.lines = text.split("\n")
        self.prefix: list[str] = []

    def _load(self) -> list[tuple[int, int]]:
        if self.spans is not None:
            return self.spans
        root = yaml.compose(self.text, Loader=yaml.SafeLoader)
        found = _moves_node(root) if isinstance(root, yaml.MappingNode) else None
        if found is None or not isinstance(found[1], yaml.SequenceNode) or not found[1].value:
            raise LayoutError("no list of moves")
        seq = found[1]
        self.flow = bool(seq.flow_style)
        spans = []
        for node in seq.value:
            if self.flow:
                spans.append((node.start_mark.index, node.end_mark.index))
                continue
            first, last = _item_lines(self.lines, node)
            spans.append((_offset(self.lines, first), _offset(self.lines, last + 1)))
            self.prefix.append(self.lines[first][:self.lines[first].index("-")])
        self.spans = spans
        return spans

    def edits(self, fix: Fix) -> list[Edit]:
        spans = self._load()
        if not fix.moves or any(not 0 <= m < len(spans) for m in fix.moves):
            raise LayoutError("a move the log does not have")
        text, i = self.text, fix.moves[0]
        start, end = spans[i]
        if fix.action == "delete":
            if len(spans) == 1 and not self.flow:
                raise LayoutError("the only move of a block list")
            if self.flow and len(spans) > 1:
                start, end = (start, spans[i + 1][0]) if i + 1 < len(spans) else (spans[i - 1][1], end)
            return [self._edit(start, end, "")]
        if fix.action == "insert":
            if fix.text is None:
                raise LayoutError("an insertion without its move")
            if self.flow:
                line_start = text.rfind("\n", 0, start) + 1
                indent = text[line_start:start]
                sep = (",\n" + indent) if not indent.strip() else ", "
                return [self._edit(start, start, fix.text + sep)]
            line = text[start:end].split("\n")[0]
            eol = "\r" if line.endswith("\r") else ""
            at = spans[i - 1][1] if i else start  # after the move before: comments above this one stay its own
            return [self._edit(at, at, f"{self.prefix[i]}- {fix.text}{eol}\n")]
        if fix.action == "swap":
            if len(fix.moves) != 2 or fix.moves[1] != i + 1:
                raise LayoutError("a swap of moves that do not follow each other")
            nstart, nend = spans[i + 1]
            if not self.flow and self.prefix[i] != self.prefix[i + 1]:
                raise LayoutError("two moves indented differently")
            return [self._edit(start, nend, text[nstart:nend] + text[end:nstart] + text[start:end])]
        raise LayoutError(f"no edit of moves called {fix.action}")

    def _edit(self, start: int, end: int, new: str) -> Edit:
        line = self.text.count("\n", 0, start) + 1
        column = start - (self.text.rfind("\n", 0, start) + 1) + 1
        return Edit(line, column, start, end, self.text[start:end], new)


# -- the safety check --------------------------------------------------------------------

def _check(doc: LMap, after: str, path: str, limits: Limits, respelt: dict[tuple[int, int], Any],
           fixes: list[Fix]) -> None:
    """RL014 unless ``after`` reads as the log with exactly these edits."""
    expected = _plain(doc, respelt)
    try:
        got = _plain(parse_text(after, path, limits), {})
        expected = _moved(expected, [f for f in fixes if f.action in ("delete", "insert", "swap")], path, limits)
    except DiagnosticError as exc:
        raise _mismatch(path, f"it would not read ({exc.diagnostics[0].format_text()})") from None
    if got != expected:
        raise _mismatch(path, "it would hold other values than the edits say")


def _moved(plain: Any, fixes: list[Fix], path: str, limits: Limits) -> Any:
    """The plain document (see :func:`.fmt._plain`) with the moves deleted, inserted and swapped."""
    if not fixes:
        return plain
    kind, entries = plain
    out = []
    for key, value in entries:
        if key != ("str", repr("moves")):
            out.append((key, value))
            continue
        items = list(value[1])
        order = list(range(len(items)))
        for f in fixes:
            if f.action == "swap":
                a, b = f.moves
                order[a], order[b] = order[b], order[a]
        gone = {f.moves[0] for f in fixes if f.action == "delete"}
        before: dict[int, list[Any]] = {}
        for f in fixes:
            if f.action == "insert":
                before.setdefault(f.moves[0], []).append(_plain(parse_text(f.text or "", path, limits), {}))
        moved = []
        for position, k in enumerate(order):
            moved.extend(before.get(position, []))
            if k not in gone:
                moved.append(items[k])
        out.append((key, ("seq", moved)))
    return (kind, out)


def _mismatch(path: str, why: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(MISMATCH, f"the log cannot be fixed safely: {why}; nothing written",
                                       Position(path), hint="please report it with the log")])

