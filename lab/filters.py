"""Move filters for bots: ``greedy:forbid="move.via == 'final'"``.

A filter is an expression of the rule language (:mod:`spec.expr`, the one
interpreter of every rule file), run in the environment the rule file's own
requirements see for the candidate move (``move``, ``vars``, ``phase``,
``actor``... and ``kind``, the move's kind); a candidate for which it is true
is never played.  It applies to the kinds that have every parameter it reads
from ``move`` (a filter reading ``move.via`` says nothing of a move without
``via``), and to no other; two filters (``forbid=A;forbid=B``) forbid what
either forbids.

Checked when read (a positioned diagnostic, code RL176, never a traceback):
it compiles; each name it reads is one a rule expression may read; each
``move.X`` is a parameter of some move of the rules; each quoted string is a
value the rules know (an item's id, a choice's value, a move's kind, a phase,
a seat ``P1``...), with a "did you mean" otherwise (an item's printed name:
its id, lower case).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Mapping

from ..spec.diagnostics import DiagnosticError, Position
from ..spec.expr import FUNCTIONS, Expr, ExprError, compile_expr
from ..spec.machine import State
from ..spec.model import Ruleset
from ..spec.names import TOKEN_NAMES, state_names

__all__ = ["MoveFilter", "FilterError", "parse_filter", "FILTER_CODE"]

#: The code of a filter that cannot be used.
FILTER_CODE = "RL176"


class FilterError(ValueError):
    """A filter that cannot be used; ``column``: where in its text (0-based)."""

    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class MoveFilter:
    """A compiled filter: the kinds it applies to, and its expression."""

    source: str
    expr: Expr
    kinds: frozenset[str]

    def forbids(self, lab: Any, state: State, actor: str, kind: str, args: Mapping[str, Any]) -> bool:
        """Whether the candidate move (its kind and its choices) is forbidden."""
        if kind not in self.kinds:
            return False
        move = lab.rules.moves[kind]
        values = {p.name: p.default if args.get(p.name) is None else args.get(p.name) for p in move.params}
        env = lab.machine.env(state, actor, values)
        env["kind"] = kind
        try:
            value = self.expr.run(env)
        except ExprError as exc:
            raise FilterError(f"the filter {self.source!r} fails on a {kind} move: {exc}") from None
        if not isinstance(value, bool):
            raise FilterError(f"the filter {self.source!r} gives {type(value).__name__}, not true or false, "
                              f"on a {kind} move")
        return value


def _known_strings(rules: Ruleset) -> dict[str, str]:
    """Every value a filter may compare with -> what it is (for the messages)."""
    known: dict[str, str] = {}
    for item in rules.items:
        known[item] = "an item"
    for kind, move in rules.moves.items():
        known[kind] = "a move"
        for p in move.params:
            for v in p.values:
                known[str(v)] = f"a value of {kind}.{p.name}"
    for phase in rules.flow.phases:
        known[phase] = "a phase"
    for i in range(1, int(rules.param("players")) + 1):
        known[f"P{i}"] = "a seat"
    return known


def parse_filter(text: str, rules: Ruleset, column: int = 0) -> MoveFilter:
    """Compile and check a filter (``column``: where its text starts, for the diagnostics)."""
    source = text.strip()
    lead = len(text) - len(text.lstrip())
    if len(source) >= 2 and source[0] == source[-1] == '"':
        source, lead = source[1:-1], lead + 1
    if not source.strip():
        raise FilterError("forbid= needs an expression over the candidate move, e.g. forbid=\"move.via == 'final'\"",
                          column)
    try:
        expr = compile_expr(source, Position("filter", 1, 1))
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        col = (d.position.column - 1) if d.position is not None and d.position.column else 0
        raise FilterError(f"the filter {source!r}: {d.message}", column + lead + col) from None
    allowed = state_names(rules) | TOKEN_NAMES | FUNCTIONS.keys() | {"kind", "none", "true", "false"}
    for name in sorted(expr.names):
        if name not in allowed:
            raise FilterError(f"the filter {source!r} reads {name!r}, which no move has (it reads move.NAME, "
                              "kind, actor, vars, phase...)", column + lead)
    read = {attr: col for base, attr, col in expr.attributes if base == "move"}
    kinds = frozenset(k for k, m in rules.moves.items() if set(read) <= {p.name for p in m.params})
    if not kinds:
        params = sorted({p.name for m in rules.moves.values() for p in m.params})
        for attr, col in read.items():
            if attr not in params:
                close = difflib.get_close_matches(attr, params, 1)
                hint = f": did you mean move.{close[0]}?" if close else f" (parameters: {', '.join(params)})"
                raise FilterError(f"no move of these rules has a parameter {attr!r}{hint}", column + lead + col)
        raise FilterError(f"no move of these rules has every parameter the filter reads ({', '.join(sorted(read))})",
                          column + lead)
    known = _known_strings(rules)
    for literal, col in expr.strings:
        if literal in known:
            continue
        found = next((rules.find(c, literal) for c in rules.components if rules.find(c, literal)), None)
        close = [found] if found else difflib.get_close_matches(literal, list(known), 1)
        hint = f": did you mean {close[0]!r}?" if close else ""
        raise FilterError(f"{literal!r} is no value these rules know (an item's id, a choice, a move, a phase, "
                          f"a seat){hint}", column + lead + col)
    return MoveFilter(source, expr, kinds)
