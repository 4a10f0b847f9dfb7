"""Diagnostics: what went wrong, where, and the moves related to it.

Every stage (reading a file, the rule loader, the log parser, the replay, the
solver) reports problems as :class:`Diagnostic` values to a
:class:`Reporter`.  Like python-chess's PGN visitor, the reporter decides
whether to collect and go on, or to stop at the first error.

>>> d = Diagnostic("RL101", "unknown key 'playrs'", Position("r.yaml", 3, 5))
>>> d.format_text()
"r.yaml:3:5: error[RL101]: unknown key 'playrs'"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True, order=True)
class Position:
    """A place in a file: 1-based line and column."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        return f"{self.path}:{self.line}:{self.column}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class Related:
    """A note pointing at another place ("the game ended here")."""

    message: str
    position: Position | None = None
    move: int | None = None  # the number of the move it stands in, when it stands in one

    def to_json(self) -> dict[str, Any]:
        pos = self.position.to_json() if self.position else {}
        return {**pos, **({"move": self.move} if self.move else {}), "message": self.message}

    def format_text(self) -> str:
        at = f"{self.position}: " if self.position else "  "
        move = f"move {self.move}: " if self.move else ""
        return f"  {at}note: {move}{self.message}"


@dataclass(frozen=True)
class Fix:
    """The one edit a diagnostic suggests, when the checker is sure of it (``check --fix`` makes it).

    ``action`` is one of:

    * ``rename``: the name written at ``position`` becomes ``text`` (the name a single
      "did you mean" names);
    * ``set``: the value written at ``position`` becomes ``text``, a YAML scalar (the one
      outcome of a move the moves after it fit);
    * ``delete``: the move at index ``moves[0]`` (0-based, in the log's list) goes;
    * ``insert``: ``text`` (one move, written as a log writes it) goes before the move at ``moves[0]``;
    * ``swap``: the moves at ``moves[0]`` and ``moves[1]`` change places;
    * ``seat``: the header's players become ``players`` (the same names, in another order)
      and, when given, its first player ``first``.

    >>> Fix("swap", moves=(6, 7)).to_json()
    {'action': 'swap', 'moves': [7, 8]}
    """

    action: Literal["rename", "set", "delete", "insert", "swap", "seat"]
    moves: tuple[int, ...] = ()
    text: str | None = None
    position: Position | None = None
    players: tuple[str, ...] = ()
    first: str | None = None

    def describe(self) -> str:
        """What the edit does, in a few words (move numbers 1-based)."""
        numbers = [str(m + 1) for m in self.moves]
        if self.action == "rename":
            return f"respell as {self.text!r}" + (f" at {self.position}" if self.position else "")
        if self.action == "set":
            return f"write {self.text}" + (f" at {self.position}" if self.position else "")
        if self.action == "delete":
            return f"delete move {numbers[0]}"
        if self.action == "insert":
            return f"insert {self.text} before move {numbers[0]}"
        if self.action == "swap":
            return f"swap moves {' and '.join(numbers)}"
        first = f", first: {self.first}" if self.first is not None else ""
        return f"players: [{', '.join(self.players)}]{first}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        if self.moves:
            out["moves"] = [m + 1 for m in self.moves]  # 1-based, as every move number printed
        if self.position is not None:
            out.update(self.position.to_json())
        if self.text is not None:
            out["text"] = self.text
        if self.action == "seat":
            out["players"] = list(self.players)
            if self.first is not None:
                out["first"] = self.first
        return out


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    position: Position | None = None
    severity: Severity = "error"
    related: tuple[Related, ...] = ()
    hint: str | None = None
    move: int | None = None  # the number of the move it stands in, when it stands in one
    fix: Fix | None = None   # the edit that mends it, when the checker is sure of it

    def format_text(self) -> str:
        where = f"{self.position}: " if self.position else ""
        move = f"move {self.move}: " if self.move else ""
        lines = [f"{where}{self.severity}[{self.code}]: {move}{self.message}"]
        lines.extend(rel.format_text() for rel in self.related)
        if self.hint:
            lines.append(f"  help: {self.hint}")
        return "\n".join(printable(line) for line in lines)

    def to_json(self) -> dict[str, Any]:
        pos = self.position.to_json() if self.position else {"file": None, "line": None, "column": None}
        out: dict[str, Any] = {
            **pos,
            "severity": self.severity,
            "code": self.code,
            **({"move": self.move} if self.move else {}),
            "message": self.message,
            "related": [r.to_json() for r in self.related],
        }
        if self.hint:
            out["hint"] = self.hint
        if self.fix is not None:
            out["fix"] = self.fix.to_json()
        return out


class DiagnosticError(Exception):
    """Raised when input is unusable; carries every diagnostic found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.format_text() for d in self.diagnostics))


class RuleError(Exception):
    """A rule expression failed at run time (a bug in the rule file).

    Here rather than beside the state machine that raises it, so that the command line can
    catch it without loading the machine (``ruleslawyer --version`` imports neither)."""


class StopReplay(Exception):
    """Raised by a strict reporter at the first error."""


@dataclass
class Reporter:
    """Collects diagnostics; with ``strict`` stops at the first error."""

    strict: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def handle(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)
        if self.strict and diagnostic.severity == "error":
            raise StopReplay(diagnostic.code)

    def error(self, code: str, message: str, position: Position | None = None,
              related: Iterable[Related] = (), hint: str | None = None, fix: Fix | None = None) -> None:
        self.handle(Diagnostic(code, message, position, "error", tuple(related), hint, fix=fix))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


#: What :func:`printable` escapes: the C0 and C1 controls and DEL (they move a terminal's cursor,
#: set its title, clear it), the line and paragraph separators, the bidirectional formatting
#: characters (they reorder the text around them on screen: U+061C, U+200E/F, U+202A-E,
#: U+2066-9), lone surrogates (no encoding can write them) and the noncharacters U+FFFE/F.
#: Every character XML 1.0 forbids is among them: printable text holds only characters XML allows.
UNPRINTABLE = frozenset([*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, 0x2028, 0x2029,
                         *range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF])
_ESCAPES = {c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" for c in UNPRINTABLE}
_ESCAPES_BUT_LINES = {c: e for c, e in _ESCAPES.items() if c != 0x0A}


def printable(text: str, lines: bool = False) -> str:
    r"""Text from a user's file, safe for a terminal: every character of :data:`UNPRINTABLE`
    shown as its escape, line breaks too unless ``lines`` (text of several lines).  The one
    escaping of what is printed: diagnostics, and every printer through
    :func:`checker.textout.fit`; the escapes are plain ASCII, so escaping twice changes nothing.

    >>> printable("name\x1b[2J")
    'name\\x1b[2J'
    >>> printable("a\u202eb\nc"), printable("a\nb\r", lines=True)
    ('a\\u202eb\\x0ac', 'a\nb\\x0d')
    """
    return text.translate(_ESCAPES_BUT_LINES if lines else _ESCAPES)


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest choice to a mistyped word, if any is close enough.

    >>> did_you_mean("playrs", ["players", "options"])
    'players'
    """
    import difflib

    lowered = {c.lower(): c for c in choices}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[match[0]] if match else None
