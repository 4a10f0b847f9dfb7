"""The typed model of a resolved rule set (one game, one variant, its house rules).

Built by :mod:`spec.loader`; read by the state machine, the solver and the
checker.  Everything here is plain data plus compiled expressions; every
rule keeps its citation and the position it was read from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .diagnostics import Position
from .expr import Expr, ExprError, compile_expr


@dataclass(frozen=True)
class Cite:
    """The rulebook sentence a rule implements."""

    src: str
    quote: str
    position: Position | None = None

    def to_json(self) -> dict[str, Any]:
        return {"src": self.src, "quote": self.quote}


@dataclass(frozen=True)
class Template:
    """A message with ``{expression}`` holes, filled from an environment.

    >>> Template.parse("{a} of {len(b)}").render({"a": 1, "b": [1, 2]})
    '1 of 2'
    """

    parts: tuple[str | Expr, ...]

    @classmethod
    def parse(cls, text: str, position: Position | None = None) -> "Template":
        parts: list[str | Expr] = []
        for i, piece in enumerate(re.split(r"\{([^{}]*)\}", text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
            else:
                parts.append(compile_expr(piece, position))
        return cls(tuple(parts))

    def render(self, env: Mapping[str, Any]) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            try:
                value = part.run(env)
            except ExprError:
                value = "?"
            out.append(_show(value))
        return "".join(out)

    def expressions(self) -> list[Expr]:
        return [p for p in self.parts if isinstance(p, Expr)]


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return "[" + ", ".join(_show(v) for v in items) + "]"
    return str(value)


@dataclass(frozen=True)
class Clue:
    id: str
    name: str
    category: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    clues: tuple[str, ...]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Setting:
    """A parameter's resolved value and where it was set."""

    name: str
    value: Any
    position: Position | None
    cite: Cite | None
    set_by: str  # "base", "variant 5p", "house no-repeat"


@dataclass(frozen=True)
class Option:
    name: str
    values: tuple[Any, ...]
    default: Any
    value: Any
    cite: Cite
    ambiguity: str | None
    position: Position | None
    set_by: str


@dataclass(frozen=True)
class Require:
    id: str
    when: Expr | None
    expr: Expr
    code: str
    message: Template
    cite: Cite
    position: Position | None


@dataclass(frozen=True)
class MoveParam:
    name: str
    type: str
    size: Expr | None = None
    max: Expr | None = None
    distinct_categories: bool = False
    optional: bool = False
    code: str | None = None
    cite: Cite | None = None


@dataclass(frozen=True)
class Effect:
    """One effect verb with its argument; ``when`` effects carry branches."""

    verb: str
    arg: Any
    position: Position | None
    cite: Cite | None = None
    then: tuple["Effect", ...] = ()
    otherwise: tuple["Effect", ...] = ()


@dataclass(frozen=True)
class Observation:
    fact: Expr
    visible: str
    cite: Cite


@dataclass(frozen=True)
class Move:
    name: str
    cite: Cite
    params: tuple[MoveParam, ...]
    requires: tuple[Require, ...]
    observe: Observation | None
    effects: tuple[Effect, ...]
    position: Position | None = None


@dataclass(frozen=True)
class Function:
    name: str
    args: tuple[str, ...]
    expr: Expr
    cite: Cite


@dataclass(frozen=True)
class ScoringStep:
    id: str
    kind: str  # show_solution | remove | reveal_all | points
    expr: Expr | None
    cite: Cite
    position: Position | None = None


@dataclass(frozen=True)
class Scoring:
    cite: Cite | None
    steps: tuple[ScoringStep, ...]
    winners: Expr
    define: tuple[tuple[str, Expr], ...]
    winners_cite: Cite


@dataclass(frozen=True)
class LogCheck:
    """A whole-log check the rules declare: which generic check, its code and rule."""

    id: str
    check: str
    code: str
    message: str
    cite: Cite
    position: Position | None = None


@dataclass(frozen=True)
class Flow:
    start_phase: str
    start_turn: Expr
    start_cite: Cite
    phases: Mapping[str, Cite]
    requires: tuple[Require, ...]


@dataclass
class Ruleset:
    """One resolved rule set: a game, a variant and its house rules."""

    game: str
    title: str
    code_prefix: str
    variant: str
    house: tuple[str, ...]
    files: tuple[str, ...]
    sources: Mapping[str, str]
    categories: tuple[Category, ...]
    clues: Mapping[str, Clue]
    params: Mapping[str, Setting]
    options: Mapping[str, Option]
    state: Mapping[str, Expr]
    flow: Flow
    moves: Mapping[str, Move]
    functions: Mapping[str, Function]
    scoring: Scoring
    aliases: Mapping[str, str] = field(default_factory=dict)  # lower-case name -> clue id
    log_checks: tuple[LogCheck, ...] = ()

    @property
    def canonical_name(self) -> str:
        """``game[players=N]+house+...``, printed on every report."""
        name = f"{self.game}[players={self.param('players')}]"
        return name + "".join(f"+{h}" for h in self.house)

    def param(self, name: str) -> Any:
        return self.params[name].value

    def option(self, name: str) -> Any:
        return self.options[name].value

    def category_of(self, clue: str) -> str:
        return self.clues[clue].category

    def clue_name(self, clue: str) -> str:
        return self.clues[clue].name

    def find_clue(self, text: str) -> str | None:
        """The clue id for a name as printed or any alias, case-insensitive."""
        return self.aliases.get(" ".join(str(text).split()).lower())
