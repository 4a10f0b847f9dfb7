"""The end of a log: was the end reached, and are the scores and winners right?

A part of the replay that a rule file switches on by declaring ``scoring:``.
Scores are computed by :mod:`spec.scoring` (the rule file's steps) from the
final state, the token values known (:mod:`checker.tokens`) and the solution
(the cards recorded in its zones, or what the observations leave); a
recorded score or winner that differs is reported with the computed steps.
When the solution or a token value that counts is unknown, the scores cannot
be checked: a warning says what is missing.
"""

from __future__ import annotations

from typing import Iterable

from ..spec.diagnostics import Related
from ..spec.machine import State
from ..spec.scoring import ScoreTable, UnknownValues, score, winners_unscored
from .context import Context
from .log import EndRecord
from .observed import Observed

__all__ = ["Ending"]


class Ending:
    def __init__(self, ctx: Context, observed: Observed):
        self.ctx = ctx
        self.observed = observed

    def reached(self, state: State) -> None:
        """Scores or a winner recorded for a game that has not ended."""
        end = self.ctx.log.end
        if end is not None and (end.scores or end.winners) and not state.ended:
            self.ctx.emit("end-not-reached", "the log records scores or a winner", end.claims())

    def score(self, state: State, solution: frozenset[str] | None, values: dict[int, int]) -> ScoreTable | None:
        """The score table when it can be computed; recorded scores checked against it."""
        ctx, end, rules = self.ctx, self.ctx.log.end, self.ctx.rules
        wants = end is not None and bool(end.scores or end.winners)
        if not state.ended or rules.scoring is None:
            return None
        if solution is None and not _needs_solution(rules):
            solution = frozenset()  # the rules score (or name the winners) without it
        if solution is None:
            if wants:
                noun = rules.solution_word("noun", "solution")
                seen = rules.solution_word("observation", "observation")
                ctx.warning("LG202", f"cannot check the recorded scores: the {noun} is not recorded and the "
                            f"{seen}s leave {self.observed.count()} possible solutions", end.claims())  # type: ignore[union-attr]
                self.unscored(state, end)  # type: ignore[arg-type]
            return None
        try:
            table = score(ctx.machine, state, solution, values)
        except UnknownValues as exc:
            if wants:
                tokens = rules.tokens
                noun = tokens.noun if tokens else "token"
                where = rules.record("end", "tokens_shown")
                hint = (f"record them under 'end: {where.key}:' ({rules.noun(tokens.on)}: {{player: value}})"
                        if where and tokens else None)
                ctx.warning("LG202", f"cannot check the recorded scores: step {exc.step} needs the value of "
                            f"{len(exc.tokens)} {noun}(s) that the log does not record", end.claims(),  # type: ignore[union-attr]
                            ctx.token_notes(exc.tokens), hint)
                self.unscored(state, end)  # type: ignore[arg-type]
            return None
        if end is not None:
            self.compare(table, end)
        return table

    def unscored(self, state: State, end: EndRecord) -> None:
        """Without the scores, the recorded winners may still be checked (e.g. the last player left)."""
        winners = winners_unscored(self.ctx.machine, state)
        if winners is not None and end.winners is not None and set(end.winners.value) != set(winners):
            self.ctx.emit("winners", f"the winner is {_names(winners)}, the log records "
                          f"{_names(end.winners.value)}", end.winners.position)

    def compare(self, table: ScoreTable, end: EndRecord) -> None:
        for player, rec in end.scores.items():
            computed = table.scores.get(player, 0)
            if rec.value != computed:
                self.ctx.emit("scores", f"{player} scores {computed}, the log records {rec.value}", rec.position,
                              self.steps(table, player))
        if end.winners is not None and set(end.winners.value) != set(table.winners):
            scores = ", ".join(f"{p} {n}" for p, n in table.scores.items())
            points = f" (scores: {scores})" if any(s.kind == "points" for s in table.steps) else ""
            self.ctx.emit("winners", f"the winner is {_names(table.winners)}, the log records "
                          f"{_names(end.winners.value)}{points}", end.winners.position)

    def steps(self, table: ScoreTable, player: str) -> tuple[Related, ...]:
        """One note per scoring step, for one player."""
        notes = []
        for step in table.steps:
            tokens = self.ctx.rules.tokens
            plural, noun = (tokens.plural, tokens.noun) if tokens else ("tokens", "token")
            if step.kind == "show_solution":
                shown = self.ctx.rules.solution_word("noun", "solution")
                text = f"{shown} shown: {', '.join(self.ctx.name(c) for c in table.solution)}"
            elif step.kind == "remove":
                text = f"{sum(1 for t in step.removed if t.owner == player)} of {player}'s {plural} removed"
            elif step.kind == "reveal_all":
                text = f"every {noun} left turned face up"
            else:
                text = f"{step.points.get(player, 0)} point(s)"
            notes.append(Related(f"step {step.id}: {text}"))
        notes.append(Related(f"total: {table.scores.get(player, 0)}"))
        return tuple(notes)


def _needs_solution(rules) -> bool:  # type: ignore[no-untyped-def]
    """Whether scoring reads the solution (a step shows it, or an expression reads it)."""
    scoring = rules.scoring
    exprs = [s.expr for s in scoring.steps if s.expr is not None] + [e for _n, e in scoring.define] + [scoring.winners]
    return any(s.kind == "show_solution" for s in scoring.steps) or any("solution" in e.names for e in exprs)


def _names(players: Iterable[str]) -> str:
    names = list(players)
    return " and ".join(names) if names else "nobody"
