"""``ruleslawyer fmt``: a log rewritten in canonical form, every other byte kept.

Canonical: each name (card, player, move, choice) spelt as printed (the rule
file's name for an item, however the log wrote it: alias, other case; the
header's spelling for a player), and a string quoted only where YAML needs it
(double quotes then, unprintable characters escaped).  Only those scalars are
rewritten, in place: comments, key order, blank lines, line ends (CRLF) and a
byte order mark stay as they were; a flow list of moves is written one move
a line (:mod:`.fmtlayout`).  Formatting the output again changes nothing.

Before anything is written the output is read again and must record the same
thing (every value, the moves and players the rules read): else RL014 and
nothing is written.

A string is quoted only when unquoted it would read otherwise here or in a YAML 1.1 reader
(the rule every log writer shares: :mod:`.yamltext`, with its examples).
"""

from __future__ import annotations

import argparse
import difflib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, Iterable, Iterator

import yaml

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position
from ..spec.source import Limits, LMap, LSeq, parse_text, read_source
from .fmtlayout import as_block
from .yamltext import plain_ok as _plain_ok, quoted as _quoted
from .log import GameLog, parse_document
from .outputs import write_file
from .textout import fit, json_text

__all__ = ["Edit", "Formatted", "format_log", "format_text", "run_fmt", "rewrite", "MISMATCH", "BOM"]

#: The output would not record what the input does: nothing is written.
MISMATCH = "RL014"
BOM = b"\xef\xbb\xbf"
_SCANNER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Edit:
    """One scalar rewritten: where (1-based line and column, offsets in the text), as written, as printed."""

    line: int
    column: int
    start: int
    end: int
    written: str
    printed: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "written": self.written, "printed": self.printed}


@dataclass(frozen=True)
class Formatted:
    """A log and its canonical form (texts without the byte order mark, kept in ``bom``)."""

    path: str
    before: str
    after: str
    edits: tuple[Edit, ...]
    bom: bool = False

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def data(self) -> bytes:
        """The bytes to write."""
        return (BOM if self.bom else b"") + self.after.encode("utf-8")

    def source(self) -> bytes:
        """The bytes read."""
        return (BOM if self.bom else b"") + self.before.encode("utf-8")

    def diff(self) -> str:
        """A unified diff from the log to its canonical form (empty when formatted)."""
        lines = difflib.unified_diff(self.before.splitlines(), self.after.splitlines(),
                                     self.path, self.path, lineterm="")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "changed": self.changed, "edits": [e.to_json() for e in self.edits]}


def format_log(path: str, allow: Iterable[str] | None = None, house: tuple[str, ...] = ()) -> Formatted:
    """Read a log file (as :func:`~.log.parse_log` does) and format it; :class:`DiagnosticError`
    when it is unusable or cannot be formatted safely."""
    data, text = read_source(path)
    return format_text(text, str(path), allow, house, bom=data.startswith(BOM))


def format_text(text: str, path: str = "<log>", allow: Iterable[str] | None = None,
                house: tuple[str, ...] = (), bom: bool = False) -> Formatted:
    """The canonical form of a log given as text (``bom``: the file starts with one)."""
    limits = Limits.from_env()
    doc = parse_text(text, path, limits)
    names: dict[tuple[int, int], str] = {}

    def seen(_written: Any, pos: Position | None, printed: str) -> None:
        if pos is not None and pos.line and pos.path == path:
            names.setdefault((pos.line, pos.column), printed)

    log, _rules = parse_document(doc, path, allow, house, on_name=seen)
    tokens = list(yaml.scan(text, Loader=_SCANNER))
    edits = sorted(_edits(text, names, tokens), key=lambda e: e.start)
    respelt = {(e.line, e.column): names[(e.line, e.column)] for e in edits if (e.line, e.column) in names}
    layout = _one_move_a_line(text, tokens, doc, edits)
    if layout is not None:  # the moves one a line, when the result reads the same (else as written)
        inside = {e for e in edits if layout.start <= e.start < layout.end}  # written by the layout
        after = _apply(text, [e for e in edits if e not in inside] + [layout])
        try:
            _check_same(doc, log, after, path, allow, house, limits, respelt)
            return Formatted(path, text, after, tuple(sorted([*edits, layout], key=lambda e: e.start)), bom)
        except DiagnosticError:
            pass
    after = _apply(text, edits)
    if edits:
        _check_same(doc, log, after, path, allow, house, limits, respelt)
    return Formatted(path, text, after, tuple(edits), bom)


def _one_move_a_line(text: str, tokens: list[Any], doc: LMap, edits: list[Edit]) -> Edit | None:
    """The edit writing a flow list of moves as a block list (see :mod:`.fmtlayout`), if any."""
    if not isinstance(doc.get("moves"), LSeq) or not doc["moves"]:
        return None
    key = doc.key_position("moves")

    def item(start: int, end: int) -> str:
        inner = [replace(e, start=e.start - start, end=e.end - start) for e in edits if start <= e.start < end]
        return _apply(text[start:end], inner)

    found = as_block(text, tokens, key.line, key.column, item)
    if found is None:
        return None
    start, end, new = found
    column = start - max(text.rfind("\n", 0, start), text.rfind("\r", 0, start))  # the ':' is on the key's line
    return Edit(key.line, column, start, end, text[start:end], new)


# -- the command ------------------------------------------------------------------------

@dataclass
class _Outcome:
    path: str
    said: str                       # ok, reformatted, would be reformatted, unusable, not written
    status: int = 0
    formatted: Formatted | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_json(self, diff: bool) -> dict[str, Any]:
        out = self.formatted.to_json() if self.formatted else {"file": self.path, "changed": False, "edits": []}
        out = {"file": out.pop("file"), "status": self.said, "written": self.said == "reformatted", **out}
        if diff:
            out["diff"] = self.formatted.diff() if self.formatted else ""
        out["diagnostics"] = [d.to_json() for d in self.diagnostics]
        return out


def run_fmt(args: argparse.Namespace) -> int:
    """``ruleslawyer fmt LOG...``: 0 done, 1 with ``--check`` when a log is not formatted, 2 unusable."""
    outcomes = [_format_one(path, args) for path in args.logs]
    if args.format == "json":
        print(json_text([o.to_json(args.diff) for o in outcomes], indent=1))
    else:
        for o in outcomes:
            if o.diagnostics:
                print("\n".join(fit(d.format_text()) for d in o.diagnostics))
            elif args.diff:
                if o.formatted is not None and o.formatted.changed:
                    print(fit(o.formatted.diff()))
            else:
                count = len(o.formatted.edits) if o.formatted else 0
                print(fit(f"{o.path}: {o.said}" + (f" ({count} edit{'s' * (count != 1)})" if count else "")))
    return max((o.status for o in outcomes), default=0)


def _format_one(path: str, args: argparse.Namespace) -> _Outcome:
    try:
        f = format_log(path, args.allow_path, tuple(args.house))
    except DiagnosticError as exc:
        return _Outcome(path, "unusable", 2, diagnostics=list(exc.diagnostics))
    if not f.changed:
        return _Outcome(path, "ok", 0, f)
    if args.check or args.diff:
        return _Outcome(path, "would be reformatted", 1 if args.check else 0, f)
    try:
        rewrite(f, "formatted", "run fmt again")
    except DiagnosticError as exc:
        return _Outcome(path, "not written", 2, f, list(exc.diagnostics))
    return _Outcome(path, "reformatted", 0, f)


def rewrite(f: Formatted, done: str, hint: str) -> None:
    """Write a log's new text over it (:func:`~.outputs.write_file`: atomically, a link's target,
    RL013 when it cannot be), after reading it again: a log that changed since it was read (it
    was ``done``: formatted, fixed) is not written over (RL013)."""
    if read_source(f.path)[0] != f.source():
        raise DiagnosticError([Diagnostic("RL013", f"{f.path} changed while it was {done}: not written",
                                          Position(f.path), hint=hint)])
    write_file(f.path, f.data())


# -- the scalars to rewrite ------------------------------------------------------------

def _scalars(tokens: Iterable[Any]) -> Iterator[tuple[Any, bool]]:
    """Every scalar token, and whether it stands inside a flow collection."""
    depth = 0
    for token in tokens:
        if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
            depth += 1
        elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)):
            depth -= 1
        elif isinstance(token, yaml.ScalarToken):
            yield token, depth > 0


def _edits(text: str, names: dict[tuple[int, int], str], tokens: list[Any], only: bool = False) -> Iterator[Edit]:
    """The scalars to rewrite: each name at a place of ``names`` as given there, and (unless
    ``only``) every other quoted scalar quoted only where YAML needs it."""
    for token, flow in _scalars(tokens):
        start, end = token.start_mark.index, token.end_mark.index
        where = (token.start_mark.line + 1, token.start_mark.column + 1)
        written = text[start:end]
        printed = names.get(where)
        if token.style in ("|", ">"):
            continue  # a block of text: never a name, its layout is the author's
        if printed is None and only:
            continue
        if printed is None:
            if token.plain or "\n" in written or "\r" in written:
                continue  # a plain value means what it says; a quoted text of several lines is kept
            value = token.value
        elif token.plain and token.value == printed:
            continue
        else:
            value = printed
        after = text[end:end + 2]
        glued = after[:1] == ":" and after[1:2] not in ("", " ", "\t", "\r", "\n")
        new = value if (token.plain or not glued) and _plain_ok(value, flow) else _quoted(value)
        if new != written:
            yield Edit(where[0], where[1], start, end, written, new)


def _apply(text: str, edits: Iterable[Edit]) -> str:
    out, at = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        out += [text[at:e.start], e.printed]
        at = e.end
    out.append(text[at:])
    return "".join(out)




# -- the safety check --------------------------------------------------------------------

def _check_same(doc: Any, log: GameLog, after: str, path: str, allow: Iterable[str] | None,
                house: tuple[str, ...], limits: Limits, respelt: dict[tuple[int, int], str]) -> None:
    """RL014 unless the output reads as the input: every value (names as respelt) and the log."""
    try:
        doc2 = parse_text(after, path, limits)
        log2, _rules = parse_document(doc2, path, allow, house)
    except DiagnosticError as exc:
        raise _mismatch(path, f"its output would not read as a log ({exc.diagnostics[0].format_text()})") from None
    if _plain(doc, respelt) != _plain(doc2, {}):
        raise _mismatch(path, "its output would hold other values")
    if _summary(log) != _summary(log2):
        raise _mismatch(path, "its output would record other moves or players")


def _mismatch(path: str, why: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(MISMATCH, f"the log cannot be formatted safely: {why}; nothing written",
                                       Position(path), hint="please report it with the log")])


def _plain(node: Any, respelt: dict[tuple[int, int], str], pos: Position | None = None) -> Any:
    """The document as plain values in order, each name at a respelt place as printed."""
    if isinstance(node, LMap):
        return ("map", [(_plain(k, respelt, node.key_position(k)), _plain(v, respelt, node.pos_of(k)))
                        for k, v in node.items()])
    if isinstance(node, LSeq):
        return ("seq", [_plain(v, respelt, node.pos_of(i)) for i, v in enumerate(node)])
    if pos is not None and (pos.line, pos.column) in respelt:
        node = respelt[(pos.line, pos.column)]
    return (type(node).__name__, repr(node))  # repr: a NaN equals itself


def _summary(log: GameLog) -> Any:
    """What the rules read of a log, without positions."""
    header = log.header
    return (header.players, header.first, header.setup, header.rules, header.variant, header.house,
            [m.play for m in log.moves], _bare(log.private), _bare(log.end), _bare(log.public))


def _bare(value: Any) -> Any:
    if isinstance(value, Position):
        return None
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # Recorded
        return tuple(_bare(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return tuple(_bare(getattr(value, f.name)) for f in fields(value))
    if isinstance(value, dict):
        return tuple((k, _bare(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_bare(v) for v in value)
    return value
