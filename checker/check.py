"""``ruleslawyer check``: read a log, replay it, say what is wrong.

:func:`check_log` never raises for bad input: an unusable log gives a
report with status 2 and the diagnostics that say why.
"""

from __future__ import annotations

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Reporter, StopReplay
from ..spec.machine import RuleError
from .log import GameLog, parse_log, parse_log_text
from .replay import replay
from .report import LogReport

__all__ = ["check_log", "check_text", "check_parsed"]


def check_log(path: str, strict: bool = False) -> LogReport:
    """Check one log file; ``strict`` stops at the first error."""
    try:
        log, rules = parse_log(path)
    except DiagnosticError as exc:
        return LogReport(str(path), None, list(exc.diagnostics), unusable=True)
    return check_parsed(log, rules, strict)


def check_text(text: str, path: str = "<log>", strict: bool = False) -> LogReport:
    """As :func:`check_log`, for a log given as text."""
    try:
        log, rules = parse_log_text(text, path)
    except DiagnosticError as exc:
        return LogReport(path, None, list(exc.diagnostics), unusable=True)
    return check_parsed(log, rules, strict)


def check_parsed(log: GameLog, rules, strict: bool = False) -> LogReport:  # type: ignore[no-untyped-def]
    """Replay a parsed log and collect the report."""
    reporter = Reporter(strict=strict)
    report = LogReport(log.path, rules.canonical_name, reporter.diagnostics, moves=len(log.moves))
    try:
        result = replay(log, rules, reporter)
    except StopReplay:
        report.stopped = True
        return report
    except RuleError as exc:
        report.diagnostics.append(Diagnostic("RL900", f"a rule of {rules.canonical_name} failed: {exc}",
                                             Position(rules.files[0]),
                                             hint="this is a bug in the rule file, not in the log"))
        report.internal = True
        return report
    report.score = result.table
    report.ended = result.state.ended
    return report
