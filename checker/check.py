"""``ruleslawyer check``: read a log, replay it, say what is wrong.

:func:`check_log` never raises for bad input: an unusable log gives a
report with status 2 and the diagnostics that say why.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Related, Reporter, StopReplay
from ..spec.expr import LimitError, expr_error_of
from ..spec.machine import RuleError
from ..spec.model import Ruleset
from .log import GameLog, parse_log, parse_log_text
from .replay import replay
from .nextmoves import what_next
from .report import LogReport

__all__ = ["check_log", "check_text", "check_parsed", "rule_failure", "move_number", "number_moves"]

#: A rule expression went past a limit of the expression language.
LIMIT = "RL132"


def check_log(path: str, strict: bool = False, allow: Iterable[str] | None = None,
              house: tuple[str, ...] = ()) -> LogReport:
    """Check one log file; ``strict`` stops at the first error; ``allow``: see :func:`parse_log`;
    ``house``: overlays besides the log's own."""
    try:
        log, rules = parse_log(path, allow, tuple(house), recover=True)
    except DiagnosticError as exc:
        return LogReport(str(path), None, list(exc.diagnostics), unusable=True)
    return check_parsed(log, rules, strict)


def check_text(text: str, path: str = "<log>", strict: bool = False, allow: Iterable[str] | None = None,
               house: tuple[str, ...] = ()) -> LogReport:
    """As :func:`check_log`, for a log given as text."""
    try:
        log, rules = parse_log_text(text, path, allow, tuple(house), recover=True)
    except DiagnosticError as exc:
        return LogReport(path, None, list(exc.diagnostics), unusable=True)
    return check_parsed(log, rules, strict)


def check_parsed(log: GameLog, rules: Ruleset, strict: bool = False) -> LogReport:
    """Replay a parsed log and collect the report."""
    reporter = Reporter(strict=strict)
    report = LogReport(log.path, rules.canonical_name, reporter.diagnostics, moves=len(log.moves))
    try:
        for problem in log.problems:  # names read as meant: reported, and the log checked on
            reporter.handle(problem)
        result = replay(log, rules, reporter)
        if log.problems:  # in the order of the file
            report.diagnostics.sort(key=_place)
    except StopReplay:
        report.stopped = True
        number_moves(report.diagnostics, log)
        return report
    except RuleError as exc:
        diagnostic = rule_failure(exc, rules)
        report.diagnostics.append(diagnostic)
        if diagnostic.code == LIMIT:
            report.unusable = True
        else:
            report.internal = True
        return report
    report.score = result.table
    report.ended = result.state.ended
    number_moves(report.diagnostics, log)
    if not result.state.ended:
        report.next = what_next(result.machine, result.state, len(log.moves) + 1)
    return report


def _place(d: Diagnostic) -> tuple[int, int]:
    return (d.position.line or 0, d.position.column or 0) if d.position is not None else (0, 0)


def move_number(log: GameLog, pos: Position | None) -> int | None:
    """The number of the move (1-based) a position of the log stands in, if any."""
    if pos is None or pos.path != log.path or not log.moves or pos.line < log.moves[0].position.line:
        return None
    end = log.end.position if log.end is not None else None
    if end is not None and end.line and pos.line >= end.line:
        return None
    number = None
    for n, m in enumerate(log.moves, 1):
        if m.position.line > pos.line:
            break
        number = n
    return number


def number_moves(diagnostics: list[Diagnostic], log: GameLog) -> None:
    """Give every diagnostic and note that stands in a move the move's number (in place)."""
    for k, d in enumerate(diagnostics):
        related = tuple(replace(r, move=move_number(log, r.position)) for r in d.related)
        diagnostics[k] = replace(d, move=move_number(log, d.position), related=related)


def rule_failure(exc: RuleError, rules: Ruleset | None = None) -> Diagnostic:
    """The diagnostic for a rule expression that failed while a log was replayed.

    Past a limit of the expression language (work, call depth, size of a
    value: RL132), the rule file is unusable as it stands: the diagnostic
    points at the rule's expression (exit status 2).  Any other failure is a
    bug (RL900, exit status 3), pointed at the expression too when known.
    """
    cause = expr_error_of(exc)
    exprs = [e for e in getattr(cause, "exprs", []) if e.position is not None]
    where = exprs[-1].position if exprs else Position(rules.files[0] if rules else "<rules>")
    rule = f"a rule of {rules.canonical_name}" if rules else "a rule"
    related = (Related("the limit was reached in this expression", exprs[0].position),) \
        if len(exprs) > 1 and exprs[0].position != where else ()
    if isinstance(cause, LimitError):
        return Diagnostic(LIMIT, f"{rule} goes past a limit of rule expressions: {exc}",
                          where, related=related,
                          hint="the rule file is unusable as it stands: make the expression do less "
                               "(limits: RULESLAWYER_MAX_STEPS, RULESLAWYER_MAX_STRING)")
    return Diagnostic("RL900", f"{rule} failed: {exc}", where, related=related,
                      hint="this is a bug in the rule file, not in the log")
