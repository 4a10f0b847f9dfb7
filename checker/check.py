"""``ruleslawyer check``: read a log, replay it, say what is wrong.

:func:`check_log` never raises for bad input: an unusable log gives a
report with status 2 and the diagnostics that say why.
"""

from __future__ import annotations

from dataclasses import replace

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Reporter, StopReplay
from ..spec.machine import RuleError
from .log import GameLog, parse_log, parse_log_text
from .replay import replay
from .nextmoves import what_next
from .report import LogReport

__all__ = ["check_log", "check_text", "check_parsed", "move_number"]


def check_log(path: str, strict: bool = False, house: tuple[str, ...] = ()) -> LogReport:
    """Check one log file; ``strict`` stops at the first error; ``house``: overlays besides the log's."""
    try:
        log, rules = parse_log(path, tuple(house))
    except DiagnosticError as exc:
        return LogReport(str(path), None, list(exc.diagnostics), unusable=True)
    return check_parsed(log, rules, strict)


def check_text(text: str, path: str = "<log>", strict: bool = False, house: tuple[str, ...] = ()) -> LogReport:
    """As :func:`check_log`, for a log given as text."""
    try:
        log, rules = parse_log_text(text, path, tuple(house))
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
        number_moves(report.diagnostics, log)
        return report
    except RuleError as exc:
        report.diagnostics.append(Diagnostic("RL900", f"a rule of {rules.canonical_name} failed: {exc}",
                                             Position(rules.files[0]),
                                             hint="this is a bug in the rule file, not in the log"))
        report.internal = True
        return report
    report.score = result.table
    report.ended = result.state.ended
    number_moves(report.diagnostics, log)
    if not result.state.ended:
        report.next = what_next(result.machine, result.state, len(log.moves) + 1)
    return report


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
