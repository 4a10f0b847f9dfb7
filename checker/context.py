"""What every stage of a replay shares: the log, the rules, where to report.

The whole-log checks (:mod:`checker.observed`, :mod:`checker.tokens`,
:mod:`checker.ending`) report through :meth:`Context.emit`, by the name of a
generic check; the rule file gives it its code and rule statement
(``log_checks:``).  A check the rule file does not declare still reports,
under its generic code (:mod:`spec.checks`): never silently nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..spec.checks import LOG_CHECKS
from ..spec.dealmodel import Deal
from ..spec.diagnostics import Diagnostic, Fix, Position, Related, Reporter
from ..spec.machine import Machine, State, Token
from ..spec.model import Ruleset
from .blame import Blame
from .log import GameLog
from .rulecodes import LogCheck, log_checks

__all__ = ["Context"]


@dataclass
class Context:
    log: GameLog
    rules: Ruleset
    reporter: Reporter
    machine: Machine = field(init=False)
    deal: Deal = field(init=False)
    checks: dict[str, LogCheck] = field(init=False)
    blame: Blame = field(default_factory=Blame)
    deferred: list[tuple[str, str, Position | None, tuple[Related, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.machine = Machine(self.rules)
        self.deal = self.machine.deal(self.log.header.players)
        self.checks = log_checks(self.rules)

    def start(self, players: tuple[str, ...] | None = None, first: str | None = None) -> State:
        """The state before the first move: the log's table, or another seating of it."""
        header = self.log.header
        return self.machine.start(players or header.players, first or header.first, header.setup)

    # -- reporting -----------------------------------------------------------------
    def emit(self, kind: str, detail: str, pos: Position | None, related: Iterable[Related] = (),
             hint: str | None = None, rule: str | None = None, fix: Fix | None = None) -> None:
        """Report a whole-log check: its rule statement, then the detail (the rule
        file's code and statement, else the generic ones).  ``rule`` names one
        declared check by id, where the rule file declares several of a kind."""
        check = next((c for c in self.rules.log_checks if c.id == rule), None) if rule else None
        check = check or self.checks.get(kind)
        code, rule = (check.code, check.message) if check else (LOG_CHECKS[kind].code, LOG_CHECKS[kind].message)
        message = f"{rule}: {detail}" if detail else rule
        self.reporter.error(code, message, pos, related, hint, fix)

    def defer(self, kind: str, detail: str, pos: Position | None, related: Iterable[Related] = ()) -> None:
        """Report later (a problem found early that stands at the end of the log)."""
        self.deferred.append((kind, detail, pos, tuple(related)))

    def flush(self) -> None:
        for kind, detail, pos, related in self.deferred:
            self.emit(kind, detail, pos, related)
        self.deferred.clear()

    def error(self, code: str, message: str, pos: Position | None, hint: str | None = None) -> None:
        """A generic log problem (``LG`` codes)."""
        self.reporter.error(code, message, pos, (), hint)

    def warning(self, code: str, message: str, pos: Position | None, related: Iterable[Related] = (),
                hint: str | None = None) -> None:
        self.reporter.handle(Diagnostic(code, message, pos, "warning", tuple(related), hint))

    # -- words for messages ------------------------------------------------------------
    def move_note(self, index: int, text: str) -> Related:
        return Related(text, self.log.moves[index].position)

    def describe(self, index: int) -> str:
        play = self.log.moves[index].play
        return f"{play.kind} by {play.actor}"

    def name(self, item: str) -> str:
        return self.rules.name(item)

    def token_notes(self, tokens: Iterable[Token]) -> tuple[Related, ...]:
        """Where each of these tokens was placed."""
        noun = self.rules.tokens.noun if self.rules.tokens else "token"
        return tuple(self.move_note(self.blame.tokens[t.order], f"{t.owner}'s {noun} placed here")
                     for t in tokens if t.order in self.blame.tokens)

    def param_of(self, kind: str, type_: str) -> str | None:
        """The name of a move's first parameter of this type (e.g. ``count``)."""
        move = self.rules.moves.get(kind)
        for p in move.params if move else ():
            if p.type == type_:
                return p.name
        return None
