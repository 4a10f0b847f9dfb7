"""Whether the moves the rules oblige after a move are the same whatever its outcomes.

After a move, the rules may oblige players to make moves that leave them
nothing to choose but outcomes (``due:``); :func:`lab.advice.move_paths`
follows that chain after every ending of a move.  The endings of one choice
start from one state and differ only in their outcome parameters, so the
states they lead to differ only in what the move's effects write from those
outcomes.  When nothing that decides the chain reads any of that, the chain
(its plays, their facts and the states between them) is the same after every
ending: it can be worked out once per choice.

:func:`chain_shared` answers that from the rule file alone, conservatively:

* *tainted* — the parts of the state (``vars.NAME``, tokens, out, phase,
  turn, ended) an effect of the move writes when the effect, or a ``when``
  it stands under, reads an outcome parameter (or the whole move) or a part
  already tainted; a token reveal taints the tokens always.  The effects of
  the obliged kinds spread it the same way (a chain move copying a tainted
  part), until nothing more is tainted.
* *read* — what the chain reads: every obliged kind's ``due:``, its
  requirements (the flow's too), its observations (condition, fact, viewers,
  text, ``chosen_among``), its parameters' sizes and maximums, and whether
  the game has ended.

The chain is shared when nothing read is tainted.  Reads are found through
the rule functions; ``vars`` read other than as ``vars.NAME`` counts as every
variable; when unsure, not shared (the chain is then followed per ending).
Nothing here names a game.
"""

from __future__ import annotations

import re
import weakref
from typing import Any, Iterable, Iterator, Mapping

from ..spec.expr import Expr
from ..spec.model import Effect
from .engine import Lab, _state_read, _state_written

__all__ = ["chain_shared", "tainted_by_outcomes", "chain_reads"]

#: lab -> kind -> whether the chain after its endings is shared (the rule file decides: kept per lab)
_KEPT: "weakref.WeakKeyDictionary[Lab, dict[str, bool]]" = weakref.WeakKeyDictionary()
#: State names the rule language derives from a part of the state, beyond those _state_read knows.
_DERIVED = {"next_active": "out", "active": "out"}
_VARS = re.compile(r"\bvars\b")
_VARS_FIELD = re.compile(r"\bvars\s*\.\s*[A-Za-z_]\w*")


def chain_shared(lab: Lab, kind: str) -> bool:
    """Whether every ending of a ``kind`` move (its outcomes alone differing, from one state)
    is followed by the same obliged moves, with the same facts (see the module's docstring)."""
    kept = _KEPT.setdefault(lab, {})
    if kind not in kept:
        kept[kind] = not _overlap(chain_reads(lab), tainted_by_outcomes(lab, kind))
    return kept[kind]


def tainted_by_outcomes(lab: Lab, kind: str) -> frozenset[str]:
    """The parts of the state that may differ between the states after two endings of a ``kind``
    move, or after the moves obliged after them."""
    info = lab.kinds[kind]
    outcome = {p.name for p in info.outcome} | {"*"}
    tainted: set[str] = set()
    due = [i.move for i in lab.kinds.values() if i.due is not None]
    grew = True
    while grew:
        before = len(tainted)
        _taint(lab, info.move.effects, tainted, outcome, False)
        for move in due:
            _taint(lab, move.effects, tainted, frozenset(), False)
        grew = len(tainted) > before
    return frozenset(tainted)


def chain_reads(lab: Lab) -> frozenset[str]:
    """The parts of the state whatever decides the obliged moves reads (``*``: unknown)."""
    rules = lab.rules
    out: set[str] = {"ended"}
    for info in lab.kinds.values():
        if info.due is None:
            continue
        move = info.move
        exprs: list[Expr | None] = [info.due]
        for req in (*rules.flow.requires, *move.requires):
            exprs += [req.when, req.expr]
        for ob in move.observe:
            exprs += [ob.when, ob.fact, ob.seen_by, ob.chosen_among, ob.withdraws]
            if ob.says is not None:
                exprs += ob.says.expressions()
        for p in move.params:
            exprs += [p.size, p.max]
        for e in exprs:
            if e is not None:
                out |= state_reads(lab, e)
    return frozenset(out)


def state_reads(lab: Lab, expr: Expr) -> set[str]:
    """The parts of the state an expression reads, through the rule functions (``vars.*``: any
    variable)."""
    functions = {name: fn.expr for name, fn in lab.rules.functions.items()}
    out: set[str] = set()
    for e in _reached(expr, functions):
        out |= {r for r in _state_read(e, {}) if r != "vars.*" or not _fields_only(e)}
        out |= {part for name, part in _DERIVED.items() if name in e.names}
        if "vars" in e.names and not _fields_only(e):
            out.add("vars.*")
    return out


def _fields_only(e: Expr) -> bool:
    """Whether every ``vars`` the expression's text names is read as ``vars.NAME``."""
    return len(_VARS.findall(e.source)) == len(_VARS_FIELD.findall(e.source))


def _reached(expr: Expr, functions: Mapping[str, Expr]) -> Iterator[Expr]:
    """The expression and the bodies of every rule function it calls, directly or not."""
    seen: set[str] = set()
    todo = [expr]
    while todo:
        e = todo.pop()
        yield e
        for n in e.names:
            if n in functions and n not in seen:
                seen.add(n)
                todo.append(functions[n])


def _overlap(reads: Iterable[str], tainted: frozenset[str]) -> bool:
    """Whether something read may be tainted (``vars.*`` read: any variable; ``*``: anything)."""
    for r in reads:
        if r == "*" or r in tainted or (r == "vars.*" and any(t.startswith("vars.") for t in tainted)):
            return True
    return False


def _values(eff: Effect) -> list[Any]:
    """The expressions an effect (not a ``when``) takes its values from."""
    arg = eff.arg
    if eff.verb in ("set", "add", "remove"):
        return [e for _name, e in arg]
    if eff.verb == "place_token":
        return [e for e in arg if e is not None]
    if isinstance(arg, Expr):
        return [arg]
    return []


def _taint(lab: Lab, effects: Iterable[Effect], tainted: set[str], outcome: Any, under: bool) -> None:
    """Add to ``tainted`` what ``effects`` write from an outcome or a tainted part (``under``:
    they stand under a ``when`` that reads one)."""
    def reads_tainted(e: Expr) -> bool:
        return bool(lab._attrs(e) & outcome) or _overlap(state_reads(lab, e), frozenset(tainted))
    for eff in effects:
        if eff.verb == "when":
            inner = under or reads_tainted(eff.arg)
            _taint(lab, eff.then, tainted, outcome, inner)
            _taint(lab, eff.otherwise, tainted, outcome, inner)
            continue
        changes = {w for w in _state_written([eff]) if w != "vars.*"}
        if (under or eff.verb == "reveal_tokens" or any(reads_tainted(e) for e in _values(eff))
                or (eff.verb in ("add", "remove") and changes & tainted)):
            tainted |= changes
