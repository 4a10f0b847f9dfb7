"""Replaying a log through the state machine, reporting every violation.

Each move is checked by the compiled state machine (its requirements from
the rule file), then applied *as played*, so that one mistake does not hide
the next.  Alongside, the replay asks whether what the table observed is
consistent (:mod:`checker.verdicts`, :mod:`checker.counters`) and, at the
end, whether the recorded scores and winners are the computed ones
(:mod:`checker.ending`).  Problems go to a
:class:`~ruleslawyer.spec.diagnostics.Reporter`, which may stop at the first
(strict).  Each violation points at the part of the move it is about and
notes the earlier moves behind it (:mod:`checker.blame`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..spec.diagnostics import Position, Related, Reporter
from ..spec.machine import MALFORMED, Outcome, Play, State, Violation
from ..spec.model import Require, Ruleset
from ..spec.scoring import ScoreTable
from .context import Context
from .counters import Counters
from .ending import Ending
from .log import GameLog, LoggedMove
from .verdicts import Verdicts

__all__ = ["ReplayResult", "replay"]


@dataclass
class ReplayResult:
    """Where the replay left the game."""

    state: State
    table: ScoreTable | None
    solution: frozenset[str] | None


def replay(log: GameLog, rules: Ruleset, reporter: Reporter) -> ReplayResult:
    """Replay every move; report problems to ``reporter`` (may raise StopReplay)."""
    return _Replay(Context(log, rules, reporter)).run()


class _Replay:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.verdicts = Verdicts(ctx)
        self.counters = Counters(ctx)
        self.ending = Ending(ctx, self.verdicts)
        self.after_end_reported = False

    def run(self) -> ReplayResult:
        ctx = self.ctx
        self.verdicts.evidence()
        state = ctx.machine.start(ctx.log.header.players, ctx.log.header.first)
        for index, logged in enumerate(ctx.log.moves):
            state = self.step(index, logged, state)
        state = self.counters.end(state)
        self.ending.reached(state)
        ctx.flush()
        solution = self.verdicts.solution()
        return ReplayResult(state, self.ending.score(state, solution), solution)

    def step(self, index: int, logged: LoggedMove, before: State) -> State:
        """Check one move, apply it as played, record what it shows."""
        ctx = self.ctx
        play = self.counters.with_private_value(logged)
        first_after_end = (before.ended and not self.after_end_reported and ctx.blame.ended is not None
                           and "game-ends" in ctx.checks)
        if first_after_end:
            self.after_end_reported = True
            ctx.emit("game-ends", "", ctx.log.moves[ctx.blame.ended].position,  # type: ignore[index]
                     (Related("the log goes on here", logged.position),))
        outcome = ctx.machine.play(before, self.without_reveals(play))
        if before.ended:  # nothing a move does after the end of the game counts
            outcome = Outcome(before.copy(), outcome.violations)
        violations = outcome.violations
        after_end = [v for v in violations if self.reads(v, "ended")]
        if after_end:
            # A move after the end has no business being checked further; the
            # first one is reported once, as the game not ending when it must.
            violations = [] if first_after_end else after_end
        for v in violations:
            self.report(v, logged, before, play)
        if not self.param_violations(outcome.violations):
            self.verdicts.check(index, logged, before, play)
        self.counters.after(logged, before, play, outcome)
        after = self.counters.sync(outcome.state)
        ctx.blame.update(index, before, after)
        return after

    def without_reveals(self, play: Play) -> Play:
        """The move for the machine: the ledger, not the machine, reads revealed values."""
        name = self.ctx.param_of(play.kind, "reveal_list")
        if name is None or name not in play.args:
            return play
        return Play(play.kind, play.actor, {k: v for k, v in play.args.items() if k != name})

    # -- violations of the move's requirements ------------------------------------------
    def param_violations(self, violations: list[Violation]) -> bool:
        """Whether the move's parameters themselves are wrong (then its verdict is not read)."""
        for v in violations:
            kind, _, rest = v.rule.partition("/")
            move = self.ctx.rules.moves.get(kind)
            if v.code == MALFORMED or not rest or (move and rest in {p.name for p in move.params}):
                return True
        return False

    def require(self, v: Violation) -> Require | None:
        kind, _, rule_id = v.rule.partition("/")
        move = self.ctx.rules.moves.get(kind)
        for req in (*self.ctx.rules.flow.requires, *(move.requires if move else ())):
            if req.id == rule_id:
                return req
        return None

    def reads(self, v: Violation, name: str) -> bool:
        """Whether the requirement behind a violation reads this state name."""
        req = self.require(v)
        return req is not None and name in req.expr.names

    def report(self, v: Violation, logged: LoggedMove, before: State, play: Play) -> None:
        req = self.require(v)
        if req is None:  # a parameter: point at it
            _kind, _, name = v.rule.partition("/")
            pos = logged.at(name) if name in logged.raw else logged.position
            self.ctx.reporter.error(v.code, v.message, pos)
            return
        self.ctx.reporter.error(v.code, v.message, self.position(req, logged), self.notes(req, before, play))

    def position(self, req: Require, logged: LoggedMove) -> Position:
        """The part of the move a requirement is about: a parameter it reads (one its
        condition reads too, first), else the player."""
        read = [a for b, a, _c in req.expr.attributes if b == "move" and a in logged.raw]
        when = {a for b, a, _c in req.when.attributes if b == "move"} if req.when is not None else set()
        for attr in [a for a in read if a in when] + read:
            return logged.at(attr)
        if "actor" in req.expr.names:
            verb = next((k for k in logged.raw if str(k).lower() == logged.play.kind), None)
            if verb is not None:
                return logged.at(verb)
        return logged.position

    def notes(self, req: Require, before: State, play: Play) -> list[Related]:
        """The earlier moves behind what a requirement reads."""
        ctx, blame, names = self.ctx, self.ctx.blame, req.expr.names
        notes: list[Related] = []
        if "ended" in names and blame.ended is not None:
            notes.append(ctx.move_note(blame.ended, "the game ended here"))
        if "out" in names and play.actor in blame.out:
            notes.append(ctx.move_note(blame.out[play.actor], f"{play.actor} was eliminated here"))
        if "phase" in names and blame.phase is not None:
            notes.append(ctx.move_note(blame.phase, f"the {before.phase} phase began here"))
        if "turn" in names and blame.turn is not None:
            notes.append(ctx.move_note(blame.turn, f"{before.turn}'s turn from here"))
        clues = [c for c in _strings(play.args.values()) if c in ctx.rules.clues]
        if "covered" in names:
            notes.extend(ctx.move_note(blame.covered[c], f"{ctx.name(c)} covered here")
                         for c in clues if c in blame.covered and c in before.covered)
        if "spaces" in names:
            notes.extend(ctx.token_notes(t for c in clues for t in before.spaces.get(c, ())))
        for base, attr, _col in req.expr.attributes:
            if base == "vars" and attr in blame.vars:
                notes.append(ctx.move_note(blame.vars[attr], f"{ctx.describe(blame.vars[attr])} here (sets {attr})"))
        return list(dict.fromkeys(notes))


def _strings(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for v in values:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, str))
    return out
