"""Scoring a finished game: the rule file's ``scoring:`` section, evaluated.

Generic: a rule file lists steps, each of one kind, run in order over the
tokens left on the spaces —

* ``show_solution``: the hidden solution is shown (``solution``, the list of
  its cards, becomes readable);
* ``remove: <condition on t>``: every token ``t`` meeting it leaves the board;
* ``reveal_all``: every token is turned face up (its value must be known);
* ``points: <expression>``: evaluated once per ``player`` (once for all when
  it does not read ``player``), added to ``score[player]``;

then ``winners:`` (after its ``define:`` names, in order) lists the winners.

The steps, their ids and expressions are the rule file's; the tests of
``tests/checker/test_scoring.py`` run them on hand-made endings.  Token
values nobody recorded in the state may be given by the caller (``values``:
token order -> value, e.g. what a ledger of hidden values deduced).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping

from .diagnostics import Position
from .expr import Expr, ExprError, each, evaluations
from .machine import Machine, RuleError, State, Token
from .model import Cite, ScoringStep

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
    revealed: tuple[Token, ...] = ()  # a reveal_all step: the tokens it turned face up, with their values

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.kind == "remove":
            out["removed"] = [{"owner": t.owner, "space": t.space, "value": t.value} for t in self.removed]
        if self.kind == "points":
            out["points"] = dict(self.points)
        if self.kind == "reveal_all":
            out["revealed"] = [{"owner": t.owner, "space": t.space, "value": t.value} for t in self.revealed]
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
        raise _failed(expr, exc, where) from None


def _failed(expr: Expr, exc: ExprError, where: str) -> RuleError:
    return RuleError(f"scoring {where}: {expr.source}: {exc}")


_EACH: dict[tuple[int, str], tuple[Expr, Callable[..., Any]]] = {}  # see _each()


def _each(expr: Expr, name: str, answer: str) -> Callable[..., Any]:
    """:func:`~ruleslawyer.spec.expr.each` of a step's expression, made once."""
    key = (id(expr), answer)
    found = _EACH.get(key)
    if found is None or found[0] is not expr:
        found = _EACH[key] = (expr, each(expr, name, answer))
    return found[1]


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
    with evaluations():  # many outermost evaluations in a row: each its own budget, as without
        return _Scoring(machine, _with_values(state, values), chosen).run()


class _Scoring:
    """One scoring of a board (a copy of the state, which the steps change)."""

    def __init__(self, machine: Machine, board: State, chosen: tuple[str, ...]):
        self.machine = machine
        self.board = board
        self.chosen = chosen
        self.shown = False
        self.known = False  # every token's value known (it stays so: the steps only remove or turn tokens)
        self.scores = {p: 0 for p in board.players}
        # The board's environment (Machine.env), built at its first use and kept up to date as
        # the steps change the board; the rule file's functions read it, never a step's names.
        self.env: dict[str, Any] | None = None

    def run(self) -> ScoreTable:
        scoring = self.machine.rules.scoring
        assert scoring is not None
        results = [r for r in map(self.step, scoring.steps) if r is not None]
        names = self.names()
        for name, expr in scoring.define:
            names[name] = _run(expr, names, f"winners define {name}")
        winners = _run(scoring.winners, names, "winners")
        return ScoreTable(self.chosen, tuple(results), self.scores, tuple(winners))

    def names(self) -> dict[str, Any]:
        """What a step's expression reads: the board's environment, the solution once
        shown, the scores so far (each step its own copies)."""
        if self.env is None:
            self.env = self.machine.env(self.board)
        names = dict(self.env)
        if self.shown:
            names["solution"] = list(self.chosen)
        names["score"] = dict(self.scores)
        return names

    def step(self, step: ScoringStep) -> StepResult | None:
        """Run one step (None: a kind this module does not know, which does nothing)."""
        if step.kind == "show_solution":
            self.shown = True
            return StepResult(step.id, step.kind, step.cite, step.position)
        if step.kind == "remove":
            return StepResult(step.id, step.kind, step.cite, step.position, removed=self.remove(step))
        if step.kind == "reveal_all":
            self.need_values(step.id)
            turned = {id(t): replace(t, face_up=True) for t in self.board.token_list() if not t.face_up}
            self.change(turned)
            return StepResult(step.id, step.kind, step.cite, step.position, revealed=tuple(turned.values()))
        if step.kind == "points":
            points = self.points(step)
            for p, n in points.items():
                self.scores[p] += n
            return StepResult(step.id, step.kind, step.cite, step.position, points=points)
        return None

    def remove(self, step: ScoringStep) -> tuple[Token, ...]:
        """The tokens meeting the step's condition, taken off the board."""
        expr = step.expr
        assert expr is not None
        names, run = self.names(), expr.run
        gone = _each(expr, "t", "true")(names, self.board.token_list())
        if gone is None:  # the generated function leaves it to the expression run token by token
            gone = []
            for t in self.board.token_list():
                names["t"] = t
                try:
                    value = run(names)
                except ExprError as exc:
                    raise _failed(expr, exc, f"step {step.id}") from None
                if value:
                    gone.append(t)
        self.change(dict.fromkeys(map(id, gone)))
        return tuple(gone)

    def points(self, step: ScoringStep) -> dict[str, int]:
        """Each player's points of the step."""
        expr = step.expr
        assert expr is not None
        self.need_values(step.id)
        names, players, where = self.names(), self.board.players, f"step {step.id}"
        if "player" in expr.names:
            found = _each(expr, "player", "int")(names, players)
            if found is not None:
                return dict(zip(players, found))
        points: dict[str, int] = {}
        for p in players:
            names["player"] = p
            points[p] = int(_run(expr, names, where))
            if "player" not in expr.names:  # the same for every player: evaluated once
                return dict.fromkeys(players, points[p])
        return points

    def change(self, new: Mapping[int, Token | None]) -> None:
        """Replace tokens on the board (by ``id``; None: the token leaves it), in place so
        that the environment's ``spaces`` follows; then the environment's ``tokens``."""
        if not new:
            return
        board = self.board
        board.spaces.update({c: tuple(r for r in (new.get(id(t), t) for t in stack) if r is not None)
                             for c, stack in board.spaces.items()
                             if stack and not new.keys().isdisjoint(map(id, stack))})
        board._tokens = None  # the token list kept with the spaces is stale (as after the machine's effects)
        if self.env is not None:
            self.env["tokens"] = board.token_list()

    def need_values(self, step: str) -> None:
        if not self.known:
            _need_values(self.board, step)
            self.known = True


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
