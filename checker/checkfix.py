"""``ruleslawyer check --fix`` and ``check --diff``: a log checked, its sure edits made.

Each log is read once (:func:`~ruleslawyer.spec.source.read_source`, the bytes kept), checked, and
the edits its diagnostics carry are made in its text (:mod:`.logfix`).  ``--diff`` prints them as
a unified diff and writes nothing; ``--fix`` prints the same diff and writes the log as ``fmt``
does (:func:`.fmt.rewrite`: read again first, a log changed meanwhile is not written over; then
atomically, through :mod:`.outputs`), then checks it again and prints what is left.

Exit status: with ``--fix``, the log's as fixed (0 clean, 1 violations left); with ``--diff``, the
log's as it stands (1 while there is something to fix); 2 when a log is unusable or cannot be
written, 3 on an internal error.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from ..spec.diagnostics import Diagnostic, DiagnosticError
from ..spec.source import read_source
from .check import check_text
from .fmt import BOM, rewrite
from .logfix import Fixed, fix_text
from .report import LogReport
from .textout import fit, json_text

__all__ = ["run_check_fix"]


@dataclass
class _Outcome:
    path: str
    report: LogReport                      # the log as it stands
    fixed: Fixed | None = None
    after: LogReport | None = None         # the log with the edits made (written or not)
    written: bool = False
    problems: list[Diagnostic] = field(default_factory=list)   # the edits could not be made or written

    def status(self, write: bool) -> int:
        if self.problems:
            return 2
        if write and self.after is not None:
            return self.after.status
        return self.report.status

    def to_json(self, write: bool) -> dict[str, Any]:
        fixed = self.fixed.to_json() if self.fixed else {"changed": False, "fixes": [], "not_made": []}
        return {**self.report.to_json(), "fix": {
            "written": self.written, **fixed,
            "diff": self.fixed.formatted.diff() if self.fixed else "",
            "after": self.after.to_json() if self.after is not None else None,
            "diagnostics": [d.to_json() for d in self.problems],
            "status": self.status(write)}}


def run_check_fix(args: argparse.Namespace) -> int:
    """``check --fix`` / ``check --diff`` over ``args.logs``; the worst exit status."""
    write = bool(args.fix)
    outcomes = [_fix_one(path, args, write) for path in args.logs]
    if args.format == "json":
        print(json_text([o.to_json(write) for o in outcomes], indent=1))
    else:
        for o in outcomes:
            print(fit(_text(o, write)))
    return max((o.status(write) for o in outcomes), default=0)


def _text(o: _Outcome, write: bool) -> str:
    lines: list[str] = []
    if o.fixed is not None and o.fixed.changed:
        lines.append(o.fixed.formatted.diff())
    lines.extend(d.format_text() for d in o.problems)
    if o.fixed is not None and (o.fixed.made or o.fixed.not_made):
        n = len(o.fixed.made)
        verb = ("made" if o.written else "not made") if write else "would be made"
        said = f"{o.path}: {n} fix{'es' * (n != 1)} {verb}"
        if o.fixed.not_made:
            k = len(o.fixed.not_made)
            said += (f" ({k} more not made: {'it touches' if k == 1 else 'they touch'} what another fix does; "
                     "check --fix again makes it once the first is written)")
        lines.append(said)
    elif o.report.errors and not o.problems:
        lines.append(f"{o.path}: no sure fix")
    shown = o.after if write and o.written and o.after is not None else o.report
    lines.append(shown.format_text())
    return "\n".join(lines)


def _fix_one(path: str, args: argparse.Namespace, write: bool) -> _Outcome:
    house = tuple(args.house)
    try:
        data, text = read_source(path)
    except DiagnosticError as exc:
        return _Outcome(path, LogReport(str(path), None, list(exc.diagnostics), unusable=True))
    report = check_text(text, str(path), args.strict, args.allow_path, house)
    outcome = _Outcome(path, report)
    if report.internal:
        return outcome
    try:
        outcome.fixed = fix_text(text, str(path), report.diagnostics, bom=data.startswith(BOM))
    except DiagnosticError as exc:
        outcome.problems = list(exc.diagnostics)
        return outcome
    if not outcome.fixed.changed:
        return outcome
    outcome.after = check_text(outcome.fixed.formatted.after, str(path), args.strict, args.allow_path, house)
    if write:
        try:
            rewrite(outcome.fixed.formatted, "fixed", "run check --fix again")
        except DiagnosticError as exc:
            outcome.problems = list(exc.diagnostics)
            return outcome
        outcome.written = True
    return outcome
