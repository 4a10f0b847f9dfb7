"""The result of checking one log: diagnostics, exit status, score table.

>>> from ruleslawyer.spec.diagnostics import Diagnostic, Position
>>> r = LogReport("g.yaml", "game[players=4]", [Diagnostic("XX212", "same combination",
...               Position("g.yaml", 9, 5))], moves=3)
>>> r.status, r.format_text().splitlines()[-1]
(1, 'g.yaml: game[players=4]: 3 moves replayed, 1 error')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec.diagnostics import Diagnostic, printable
from ..spec.scoring import ScoreTable
from .nextmoves import next_lines

__all__ = ["LogReport", "CLEAN", "VIOLATIONS", "UNUSABLE", "INTERNAL"]

CLEAN, VIOLATIONS, UNUSABLE, INTERNAL = 0, 1, 2, 3


@dataclass
class LogReport:
    """Everything ``ruleslawyer check`` says about one log."""

    path: str
    rules_name: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unusable: bool = False
    internal: bool = False
    score: ScoreTable | None = None
    moves: int = 0
    ended: bool = False
    stopped: bool = False  # strict: the replay stopped at the first error
    next: dict[str, Any] | None = None  # a game not ended: what comes next (checker.nextmoves)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def status(self) -> int:
        """0 clean, 1 violations, 2 unusable input, 3 internal error."""
        if self.internal:
            return INTERNAL
        if self.unusable:
            return UNUSABLE
        return VIOLATIONS if self.errors else CLEAN

    def summary(self) -> str:
        if self.status == UNUSABLE:
            return f"{self.path}: unusable input, not checked"
        if self.status == INTERNAL:
            return f"{self.path}: internal error"
        counts = [f"{len(self.errors)} error{'s' * (len(self.errors) != 1)}"] if self.errors else []
        if self.warnings:
            counts.append(f"{len(self.warnings)} warning{'s' * (len(self.warnings) != 1)}")
        moves = f"{self.moves} move{'s' * (self.moves != 1)} " + ("read, stopped at the first error" if self.stopped
                                                                  else "replayed")
        return f"{self.path}: {self.rules_name}: {moves}, {', '.join(counts) or 'clean'}"

    def score_lines(self) -> list[str]:
        if self.score is None:
            return []
        if not any(s.kind == "points" for s in self.score.steps):  # a game without points: its winners
            return [f"winner: {' and '.join(self.score.winners) or 'nobody'}"]
        lines = ["scores (steps " + ", ".join(s.id for s in self.score.steps if s.kind == "points") + "):"]
        for player, total in self.score.scores.items():
            parts = " + ".join(f"{n} ({sid})" for sid, n in self.score.breakdown(player) if n)
            lines.append(f"  {player}: {total}" + (f" = {parts}" if parts else ""))
        lines.append(f"winner: {' and '.join(self.score.winners) or 'nobody'}")
        return lines

    def format_text(self) -> str:
        """The diagnostics, the scores, the summary and what comes next; every line :func:`printable`
        (a name of a player, a file or a rule may hold anything, a line break too)."""
        lines = [d.format_text() for d in self.diagnostics]
        lines.extend(printable(line) for line in [*self.score_lines(), self.summary()])
        if self.next is not None and self.status in (CLEAN, VIOLATIONS):
            lines.extend(next_lines(self.next))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path, "rules": self.rules_name, "status": self.status,
            "moves": self.moves, "ended": self.ended, "stopped": self.stopped,
            "errors": len(self.errors), "warnings": len(self.warnings),
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "score": self.score.to_json() if self.score else None,
            "next": self.next,
        }
