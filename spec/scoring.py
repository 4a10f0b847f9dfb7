"""Scoring a finished game: the rule file's ``scoring:`` section, evaluated.

Generic: a rule file lists steps, each of one kind, run in order over the
tokens left on the spaces —

* ``show_solution``: the hidden solution is shown (``solution``, the list of
  its cards, becomes readable);
* ``remove: <condition on t>``: every token ``t`` meeting it leaves the board;
* ``reveal_all``: every token is turned face up (its value must be known);
* ``points: <expression>``: evaluated once per ``player``, added to
  ``score[player]``;

then ``winners:`` (after its ``define:`` names, in order) lists the winners.

The steps, their ids and expressions are the rule file's; the tests of
``tests/checker/test_scoring.py`` run them on hand-made endings.  Token
values nobody recorded in the state may be given by the caller (``values``:
token order -> value, e.g. what a ledger of hidden values deduced).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from .diagnostics import Position
from .expr import Expr, ExprError
from .machine import Machine, RuleError, State, Token
from .model import Cite

__all__ = ["StepResult", "ScoreTable", "UnknownValues", "score", "winners_unscored"]


class UnknownValues(Exception):
    """Scoring needs the value of tokens that nobody recorded."""

    def __init__(self, step: str, tokens: Iterable[Token]):
        self.step = step
        self.tokens = tuple(tokens)
        super().__init__(f"step {step}: {len(self.tokens)} token value(s) unknown")


@dataclass(frozen=True)
class StepResult:
    """What one step did: the tokens it removed or the points it gave."""

    id: str
    kind: str
    cite: Cite | None
    position: Position | None
    removed: tuple[Token, ...] = ()
    points: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.kind == "remove":
            out["removed"] = [{"owner": t.owner, "space": t.space, "value": t.value} for t in self.removed]
        if self.kind == "points":
            out["points"] = dict(self.points)
        return out


@dataclass(frozen=True)
class ScoreTable:
    """Every step's result, the final scores and the winners."""

    solution: tuple[str, ...]
    steps: tuple[StepResult, ...]
    scores: Mapping[str, int]
    winners: tuple[str, ...]

    def breakdown(self, player: str) -> list[tuple[str, int]]:
        """``(step id, points)`` of every points step, for one player."""
        return [(s.id, s.points.get(player, 0)) for s in self.steps if s.kind == "points"]

    def to_json(self) -> dict[str, Any]:
        return {"solution": list(self.solution), "steps": [s.to_json() for s in self.steps],
                "scores": dict(self.scores), "winners": list(self.winners)}


def _run(expr: Expr, env: Mapping[str, Any], where: str) -> Any:
    try:
        return expr.run(env)
    except ExprError as exc:
        raise RuleError(f"scoring {where}: {expr.source}: {exc}") from None


def score(machine: Machine, state: State, solution: Iterable[str],
          values: Mapping[int, int] | None = None) -> ScoreTable:
    """Run every scoring step of the rules on ``state`` with this solution.

    Raises :class:`UnknownValues` when a step needs a token value neither
    the state nor ``values`` holds, :class:`RuleError` when a rule
    expression fails (or the rules declare no scoring).
    """
    rules = machine.rules
    if rules.scoring is None:
        raise RuleError("the rules declare no scoring")
    order = {c: i for i, c in enumerate(rules.items)}
    chosen = tuple(sorted(set(solution), key=lambda c: order.get(c, len(order))))
    board = _with_values(state, values)
    shown = False
    scores = {p: 0 for p in state.players}
    results: list[StepResult] = []

    built: list[dict[str, Any]] = []  # the board's environment, rebuilt when the board changes

    def env(**extra: Any) -> dict[str, Any]:
        if not built:
            built.append(machine.env(board))
        base = dict(built[0])
        if shown:
            base["solution"] = list(chosen)
        base["score"] = dict(scores)
        base.update(extra)
        return base

    for step in rules.scoring.steps:
        where = f"step {step.id}"
        if step.kind == "show_solution":
            shown = True
            results.append(StepResult(step.id, step.kind, step.cite, step.position))
        elif step.kind == "remove":
            assert step.expr is not None
            names = env()
            gone = []
            for t in board.tokens:
                names["t"] = t
                if _run(step.expr, names, where):
                    gone.append(t)
            out = {id(t) for t in gone}
            board.spaces = {c: tuple(t for t in stack if id(t) not in out) for c, stack in board.spaces.items()}
            built.clear()
            results.append(StepResult(step.id, step.kind, step.cite, step.position, removed=tuple(gone)))
        elif step.kind == "reveal_all":
            _need_values(board, step.id)
            board.spaces = {c: tuple(replace(t, face_up=True) for t in stack) for c, stack in board.spaces.items()}
            built.clear()
            results.append(StepResult(step.id, step.kind, step.cite, step.position))
        elif step.kind == "points":
            assert step.expr is not None
            _need_values(board, step.id)
            names = env()
            points = {}
            for p in board.players:
                names["player"] = p
                points[p] = int(_run(step.expr, names, where))
            for p, n in points.items():
                scores[p] += n
            results.append(StepResult(step.id, step.kind, step.cite, step.position, points=points))
    names = env()
    for name, expr in rules.scoring.define:
        names[name] = _run(expr, names, f"winners define {name}")
    winners = _run(rules.scoring.winners, names, "winners")
    return ScoreTable(chosen, tuple(results), scores, tuple(winners))


def _with_values(state: State, values: Mapping[int, int] | None) -> State:
    """A copy of the state whose tokens take the values given where theirs are unknown."""
    board = state.copy()
    if values:
        board.spaces = {s: tuple(replace(t, value=values[t.order]) if t.value is None and t.order in values else t
                                 for t in stack) for s, stack in board.spaces.items()}
    return board


def winners_unscored(machine: Machine, state: State) -> tuple[str, ...] | None:
    """The winners when the rules give them without the solution or the scores
    (e.g. the last player left), else None.

    The ``define:`` names that need the scores stay undefined; a winners
    expression that reads one cannot be evaluated.
    """
    rules = machine.rules
    if rules.scoring is None:
        return None
    names = machine.env(state)
    for name, expr in rules.scoring.define:
        try:
            names[name] = expr.run(names)
        except ExprError:
            pass
    try:
        return tuple(rules.scoring.winners.run(names))
    except (ExprError, TypeError):
        return None


def _need_values(board: State, step: str) -> None:
    unknown = [t for t in board.tokens if t.value is None]
    if unknown:
        raise UnknownValues(step, unknown)
