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
:func:`shared_ways` then follows the chain once, after the first ending, the
way :func:`lab.advice.move_paths`' reference follows it after each (the same
ways, in the same order, and None in the same cases), the facts of every
ending worked out together (:meth:`Lab.ending_observations`); it serves too
where the rules oblige no move at all.  The same analysis, with a mover's choice
in place of the outcomes, finds the choices that may change the chain
(:func:`chain_choices`): the choices of one state alike in those are followed by
the same chain, worked out once for them all (a question's elements, written
only into a record the chain does not read).  Nothing here names a game.
"""

from __future__ import annotations

import random
import re
import weakref
from typing import Any, Iterable, Iterator, Mapping, Sequence, Tuple

from ..spec.dealmodel import Deal
from ..spec.expr import Expr
from ..spec.facts import Fact
from ..spec.machine import Play, State
from ..spec.model import Effect
from .engine import Lab, _state_read, _state_written, never

__all__ = ["chain_choices", "chain_shared", "tainted_by_outcomes", "chain_reads", "obliged", "shared_ways",
           "MAX_CHAIN", "Way"]

#: lab -> kind -> whether the chain after its endings is shared, and ("choices", kind) -> its
#: chain_choices (the rule file decides: kept per lab)
_KEPT: "weakref.WeakKeyDictionary[Lab, dict[Any, Any]]" = weakref.WeakKeyDictionary()
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


def chain_choices(lab: Lab, kind: str) -> tuple[str, ...]:
    """The mover's choices of a ``kind`` move that may change the moves obliged after it (the
    parts of the state their values reach, as :func:`tainted_by_outcomes` finds them, read by
    what decides the chain): two choices alike in these are followed by the same chain, once
    the chain is shared by their endings (:func:`chain_shared`).  When the others and the
    outcomes together may reach what the chain reads, every choice counts."""
    kept = _KEPT.setdefault(lab, {})
    key = ("choices", kind)
    if key not in kept:
        reads = chain_reads(lab)
        info = lab.kinds[kind]
        names = tuple(p.name for p in info.mover)
        some = tuple(n for n in names if _overlap(reads, tainted_by_outcomes(lab, kind, (n,))))
        # the others and the outcomes together reach nothing read (else: every choice counts)
        rest = {n for n in names if n not in some} | {p.name for p in info.outcome}
        kept[key] = names if _overlap(reads, tainted_by_outcomes(lab, kind, rest)) else some
    return kept[key]


def tainted_by_outcomes(lab: Lab, kind: str, names: Iterable[str] | None = None) -> frozenset[str]:
    """The parts of the state that may differ between the states after two endings of a ``kind``
    move, or after the moves obliged after them (``names``: between two moves whose parameters
    of these names alone differ)."""
    info = lab.kinds[kind]
    outcome = ({p.name for p in info.outcome} if names is None else set(names)) | {"*"}
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


# -- the walk ---------------------------------------------------------------------------------
#: Moves obliged right after a choice followed at most (a chain of players asked).
MAX_CHAIN = 16

#: One way to end after a move: (the plays, every fact they let anyone observe, the seat's facts).
Way = Tuple[Tuple[Play, ...], Tuple[Fact, ...], Tuple[Fact, ...]]


def obliged(lab: Lab, state: State) -> list[Play]:
    """The completions of the moves the rules oblige the first due player to make now, when
    none leaves that player a choice of their own (else nothing: the chain stops there)."""
    due = lab.due(state)
    if not due:
        return []
    who = due[0][0]
    kinds = [k for p, k in due if p == who]
    if any(lab.kinds[k].mover for k in kinds):
        return []
    out: list[Play] = []
    for k in kinds:
        out.extend(lab.completions(state, who, k, {}, None, random.Random(0)))
    return out


def _memo_of(lab: Lab, state: State, memos: dict[int, tuple[State, dict[Any, Any]]]) -> dict[Any, Any]:
    kept = memos.get(id(state))
    if kept is None or kept[0] is not state:
        kept = memos[id(state)] = (state, {})
    return kept[1]


def shared_ways(lab: Lab, state: State, first: Sequence[Play], seat: str, limit: int,
                memos: dict[int, tuple[State, dict[Any, Any]]], deal: Deal | None = None) -> list[Way] | None:
    """:func:`lab.advice.move_paths`' ways to end when the moves obliged after the move are the
    same after each of its endings ``first`` (:func:`chain_shared`), or the rules oblige none:
    followed once, after the first ending, as the reference follows them (the same order, the
    same ways listed once); each ending then takes them after its own facts, which are worked
    out for all the endings together (:meth:`Lab.ending_observations`).  None exactly when the
    reference gives None: its stack and its list, at each point it checks them, are those of the
    walk after one ending plus the endings still to come and the ways listed before.  The
    endings of one choice are distinct plays (:meth:`Lab.completions` lists distinct
    combinations of outcome values), so each is new to the reference's list and both its checks
    grow with each ending: the last ending's decide, and they are made before any fact is worked
    out.  ``memos``: the observation memo of each state by its id (``state``'s among them; the
    chain after the first ending is kept in it for the choices alike in :func:`chain_choices`).
    ``deal``: the ways with a fact that no deal of its shape satisfies
    (:func:`lab.engine.never`) left out, once the limits are decided (the reference's ways,
    those left out the same way); an ending's facts after such a fact are not worked out."""
    memo = _memo_of(lab, state, memos)
    # the chain is the same for the choices alike in what may change it (chain_choices): followed
    # once per class of them from this state (its memo serves every choice from it)
    play = first[0]
    key = ("tails", play.kind, seat, tuple(repr(play.args.get(n)) for n in chain_choices(lab, play.kind)))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _tails(lab, state, play, seat, memos)
    tails, peak = found
    n, each = len(first), len(tails)
    if n * each > limit or (peak is not None and (n - 1) * each + peak > 4 * limit):
        return None
    impossible = None
    if deal is not None:
        impossible = lambda f: never(f.formula, deal)  # noqa: E731
        tails = [t for t in tails if not any(impossible(f) for f in t[1])]
    out: list[Way] = []
    for play, new in zip(first, lab.ending_observations(state, first, ("advice", 1), memo, impossible)):
        if new is None:
            continue
        seen = tuple(f for f in new if f.viewers is None or seat in f.viewers)
        for plays, facts, tseen in tails:
            out.append(((play,) + plays, new + facts, seen + tseen))
    return out


def _tails(lab: Lab, state: State, play: Play, seat: str, memos: dict[int, tuple[State, dict[Any, Any]]]
           ) -> tuple[list[Way], int | None]:
    """The obliged moves after ``play`` from ``state``, as the reference walks them: each way,
    listed once, as (its plays, facts and the seat's facts after ``play``'s); the most the
    reference's stack plus its list grow by at a check within the walk (None: no check,
    nothing obliged after ``play``)."""
    if not lab.has_due:  # the rules oblige no move: the reference applies none
        return [((), (), ())], None
    after = lab.apply(state, play)[0].state
    nxt = obliged(lab, after) if 1 < MAX_CHAIN else []  # (the ending is the first of the plays)
    if not nxt:
        return [((), (), ())], None
    tails: list[Way] = []
    listed: set[tuple[tuple[Fact, ...], tuple[Fact, ...]]] = set()
    stack = [(after, (play, p), (), ()) for p in reversed(nxt)]
    peak = len(stack)
    while stack:
        before, plays, facts, seen = stack.pop()
        new = tuple(lab.observations(before, plays[-1], ("advice", len(plays)), _memo_of(lab, before, memos)))
        facts = facts + new
        seen = seen + tuple(f for f in new if f.viewers is None or seat in f.viewers)
        more: list[Play] = []
        if len(plays) < MAX_CHAIN:
            after = lab.apply(before, plays[-1])[0].state
            more = obliged(lab, after)
        if not more:
            if (facts, seen) not in listed:
                listed.add((facts, seen))
                tails.append((plays[1:], facts, seen))
            continue
        for p in reversed(more):
            stack.append((after, plays + (p,), facts, seen))
        peak = max(peak, len(stack) + len(tails))
    return tails, peak
