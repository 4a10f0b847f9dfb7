"""Choices alike but for interchangeable items: a move's completions listed once per class.

Two items of one component are *interchangeable* when the rule set cannot tell them
apart: the same attributes, neither named anywhere in the rule set but in its own
definition (no expression's string literal, no setting, no other item's attribute), and
no rule expression reads an item's display name (``name(...)``, through the rule
functions it calls) outside the texts it renders.  In a state that is the same once two such items are swapped (its variables,
spaces, tokens and public set-up), every permutation of a group of them maps the
legal completions of a choice onto those of the permuted choice.  So
:func:`completions` lists the completions of one choice per class (the choice with the
items of each group renamed to the group's first ones, in order of appearance) and
renames them back (a group is split into the classes of items whose swap keeps the
state): the same completions as :meth:`Lab.completions` (tests/lab/
test_endings.py checks it on every legal choice of positions of every bundled rule
file).  The facts of each ending are still worked out per ending (they name the items).
Of those classes, the items the seat's facts do not name either keep the seat's knowledge
too: :func:`value_classes` and :func:`class_key` let :func:`lab.advice.value_moves` list
and value one choice per class and give the others its numbers, their first completion
(:func:`first_completion`) and answers' words worked out when read (tests/lab/test_alike.py
checks them against every choice valued on its own).
"""

from __future__ import annotations

import dataclasses
import random
import weakref
from typing import Any, Iterable, Mapping

from ..spec.dealmodel import Deal
from ..spec.expr import Expr
from ..spec.machine import Play, State
from .engine import Lab, _flat

__all__ = ["class_key", "completions", "first_completion", "interchangeable", "kept_groups", "value_classes"]


#: choices of one state and player listed directly before the classes are looked for (finding
#: them renames the state once per item and class: worth it only for many choices)
FEW = 64


class _Unknown(Exception):
    """A value the renaming does not know how to map (then nothing is taken as alike)."""


def _rename(value: Any, swap: Mapping[str, str]) -> Any:
    """``value`` with every string renamed by ``swap`` (containers and dataclasses walked)."""
    if isinstance(value, str):
        return swap.get(value, value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_rename(v, swap) for v in value)
    if isinstance(value, (set, frozenset)):
        return type(value)(_rename(v, swap) for v in value)
    if isinstance(value, dict):
        return {_rename(k, swap): _rename(v, swap) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.frozen \
            and hasattr(value, "__dict__"):
        new = object.__new__(type(value))  # a frozen record: the same fields, renamed
        new.__dict__.update({k: _rename(v, swap) for k, v in value.__dict__.items()})
        return new
    raise _Unknown(type(value).__name__)


def _strings(obj: Any, out: dict[str, int], exprs: list[Expr], seen: set[int]) -> None:
    """Count every string leaf of the rule set (string literals of expressions included) and
    collect its expressions; texts rendered for people (anything with ``render``) are skipped."""
    if isinstance(obj, str):
        out[obj] = out.get(obj, 0) + 1
        return
    if obj is None or isinstance(obj, (bool, int, float)) or callable(obj) and not dataclasses.is_dataclass(obj):
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Expr):
        exprs.append(obj)
        for s, _col in obj.strings:
            out[s] = out.get(s, 0) + 1
        for _ns, _field, lit, _col in obj.literals:
            if isinstance(lit, str):
                out[lit] = out.get(lit, 0) + 1
        return
    if hasattr(obj, "render"):
        return
    if isinstance(obj, Mapping):
        for k, v in obj.items():
            _strings(k, out, exprs, seen)
            _strings(v, out, exprs, seen)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            _strings(v, out, exprs, seen)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            _strings(getattr(obj, f.name), out, exprs, seen)


def interchangeable(lab: Lab) -> list[tuple[str, ...]]:
    """The groups (two items or more) of items the rule set cannot tell apart (see the
    module's docstring), in the component's order; none when an expression reads a name."""
    rules = lab.rules
    counts: dict[str, int] = {}
    exprs: list[Expr] = []
    seen: set[int] = set()
    for f in dataclasses.fields(rules):
        if f.name in ("components", "items", "aliases", "sources", "files"):  # the items themselves
            continue
        _strings(getattr(rules, f.name), counts, exprs, seen)
    for item in rules.items.values():  # an item's attributes name the items they take
        for v in item.attrs.values():
            counts[v] = counts.get(v, 0) + 1
    # a rule function that reads display names (through the functions it calls) matters only
    # when an expression other than the texts rendered for people calls it
    bodies = {fn.name: fn.expr for fn in rules.functions.values()}
    naming = {n for n, e in bodies.items() if "name" in e.names}
    grew = True
    while grew:
        more = {n for n, e in bodies.items() if n not in naming and e.names & naming}
        grew, naming = bool(more), naming | more
    body_ids = {id(e) for e in bodies.values()}
    if any(("name" in e.names or e.names & naming) for e in exprs if id(e) not in body_ids):
        return []
    groups: list[tuple[str, ...]] = []
    for comp in rules.components.values():
        by_attrs: dict[tuple[Any, ...], list[str]] = {}
        for i in comp.items:
            item = rules.items.get(i)
            if item is None or i in counts or item.name in counts or any(a in counts for a in item.aliases):
                continue
            by_attrs.setdefault(tuple(sorted(item.attrs.items())), []).append(i)
        groups.extend(tuple(g) for g in by_attrs.values() if len(g) > 1)
    return groups


def _contexts(value: Any, path: tuple[Any, ...], members: set[str],
              where: dict[str, list[tuple[Any, ...]]]) -> None:
    """Where each item of ``members`` occurs in ``value``: the path to it (dict keys that are
    such items, list positions and set members written alike), for a first sorting."""
    if isinstance(value, str):
        if value in members:
            where.setdefault(value, []).append(path)
        return
    if value is None or isinstance(value, (bool, int, float)):
        return
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _contexts(v, path + ("#",), members, where)
    elif isinstance(value, dict):
        for k, v in value.items():
            _contexts(k, path + ("key",), members, where)
            _contexts(v, path + ("*" if k in members else k,), members, where)
    elif dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        for k, v in value.__dict__.items():
            _contexts(v, path + (k,), members, where)
    else:
        raise _Unknown(type(value).__name__)


def _state_parts(state: State) -> tuple[Any, ...]:
    return (state.players, state.phase, state.turn, state.first, state.out, state.spaces, state.vars,
            state.ended, state.setup)


class _Alike:
    """Per lab: its groups, and per state and player the groups the state keeps and the
    completions of each class of choices listed."""

    def __init__(self, lab: Lab):
        self.groups = interchangeable(lab)
        self.state: Any = None
        self.actor: str | None = None
        self.kept: list[tuple[str, ...]] = []
        self.listed: dict[tuple[str, str, int | None], list[Play]] = {}
        self.deals: dict[int, Deal] = {}  # the deals whose ids are in the keys of ``listed``
        self.calls = 0  # completions asked of this state and player
        self.found = False

    def for_state(self, state: State, actor: str) -> None:
        """Renew for this state and player; the groups it keeps are found on :meth:`classes`."""
        if self.state is state and self.actor == actor:
            return
        self.state, self.actor, self.listed, self.calls, self.found = state, actor, {}, 0, False
        self.deals = {}
        self.kept = []

    def classes(self) -> list[tuple[str, ...]]:
        """The groups the state keeps (split into classes), found once per state."""
        if not self.found:
            self.found = True
            self._find(self.state)
        return self.kept

    def _find(self, state: State) -> None:
        parts = _state_parts(state)
        members = {x for g in self.groups for x in g}
        where: dict[str, list[tuple[Any, ...]]] = {}
        kept = []
        try:
            _contexts(parts, (), members, where)
            for g in self.groups:
                # items found in the same places are candidates; a candidate whose swap with the
                # first keeps the state joins its class (two such swaps give the swap of the two:
                # each class, every permutation of it, keeps the state)
                buckets: dict[tuple[Any, ...], list[str]] = {}
                for x in g:
                    buckets.setdefault(tuple(sorted(map(repr, where.get(x, ())))), []).append(x)
                for b in buckets.values():
                    c = [b[0]] + [x for x in b[1:] if _rename(parts, {b[0]: x, x: b[0]}) == parts]
                    if len(c) > 1:
                        kept.append(tuple(c))
        except _Unknown:
            kept = []
        self.kept = kept


_LABS: "weakref.WeakKeyDictionary[Lab, _Alike]" = weakref.WeakKeyDictionary()


def _alike(lab: Lab) -> _Alike:
    found = _LABS.get(lab)
    if found is None:
        found = _LABS[lab] = _Alike(lab)
    return found


def kept_groups(lab: Lab, state: State, actor: str) -> list[tuple[str, ...]]:
    """The classes of interchangeable items whose every permutation keeps ``state``."""
    alike = _alike(lab)
    alike.for_state(state, actor)
    return list(alike.classes())


#: id of a list of classes -> (it, each item's class by position): a few kept, for :func:`_forward`
_INDEX: dict[int, tuple[list[tuple[str, ...]], dict[str, int]]] = {}


def _index(classes: list[tuple[str, ...]]) -> dict[str, int]:
    found = _INDEX.get(id(classes))
    if found is None or found[0] is not classes:
        if len(_INDEX) > 8:
            _INDEX.clear()
        found = _INDEX[id(classes)] = (classes, {x: i for i, g in enumerate(classes) for x in g})
    return found[1]


def _forward(classes: list[tuple[str, ...]], args: Mapping[str, Any]) -> dict[str, str]:
    """A permutation within each class taking the items ``args`` names (in order of first
    appearance) to the class's first ones (only the items it moves)."""
    index = _index(classes)
    used: dict[int, list[str]] = {}
    for name in sorted(args):
        for x in _flat(args[name]):
            i = index.get(x)
            if i is not None:
                got = used.setdefault(i, [])
                if x not in got:
                    got.append(x)
    forward: dict[str, str] = {}
    for i, got in used.items():
        g = classes[i]
        for x, y in zip(got + [x for x in g if x not in got], g):
            if x != y:
                forward[x] = y
    return forward


def value_classes(lab: Lab, state: State, actor: str, facts: Iterable[Any]) -> list[tuple[str, ...]]:
    """The classes of items whose every permutation keeps the rule set, ``state`` and a
    knowledge made of the deal and these ``facts`` (the deal's model reads items by their
    attributes alone): those of :func:`kept_groups` that no fact names.  Two choices that
    differ by such a permutation have the same value (:func:`class_key` tells them)."""
    named: dict[str, int] = {}
    try:
        for f in facts:
            _strings(f, named, [], set())
    except _Unknown:  # pragma: no cover - facts are records of strings and numbers
        return []
    return [c for c in (tuple(x for x in g if x not in named) for g in kept_groups(lab, state, actor))
            if len(c) > 1]


def class_key(classes: list[tuple[str, ...]], kind: str, args: Mapping[str, Any]) -> str:
    """The same text for two choices when a permutation within ``classes`` takes one to the
    other: the choice with the items it names renamed to each class's first ones."""
    index = _index(classes)
    named: dict[str, str] = {}  # each item named -> its class's next first one (as :func:`_forward`)
    taken: dict[int, int] = {}
    parts: list[tuple[str, Any]] = []
    for k in sorted(args):
        v = args[k]
        leaves = [v] if isinstance(v, str) else v if isinstance(v, (list, tuple)) else None
        if leaves is None or not all(isinstance(x, (str, int)) for x in leaves):
            forward = _forward(classes, args)  # values of other shapes: renamed by the walk
            return repr((kind, [(k, _rename(args[k], forward)) for k in sorted(args)]))
        for x in leaves:
            if isinstance(x, str) and x not in named and x in index:
                i = index[x]
                n = taken.get(i, 0)
                named[x], taken[i] = classes[i][n], n + 1
        parts.append((k, _rename(v, named)))
    return repr((kind, parts))


def _class_listed(alike: _Alike, lab: Lab, state: State, actor: str, kind: str,
                  args: Mapping[str, Any], deal: Deal | None = None) -> tuple[list[Play], dict[str, str]]:
    """The completions of the choice of ``args``'s class that names each class's first items
    (listed once), and the items to rename back (to ``args``'s)."""
    forward = _forward(alike.kept, args)
    canonical = {k: _rename(v, forward) for k, v in args.items()} if forward else args
    key = (kind, repr(sorted(canonical.items())), _deal_key(alike, deal))
    found = alike.listed.get(key)
    if found is None:
        found = alike.listed[key] = lab.completions(state, actor, kind, canonical, None, random.Random(0), deal)
    return found, {y: x for x, y in forward.items()}


def _back(p: Play, back: Mapping[str, str]) -> Play:
    return Play(p.kind, p.actor, {k: _rename(v, back) for k, v in p.args.items()}) if back else p


def _deal_key(alike: _Alike, deal: Deal | None) -> int | None:
    """A deal's shape in a key of :attr:`_Alike.listed`: its id, the deal kept alive meanwhile."""
    if deal is None:
        return None
    alike.deals[id(deal)] = deal
    return id(deal)


def completions(lab: Lab, state: State, actor: str, kind: str, args: Mapping[str, Any],
                deal: Deal | None = None) -> list[Play]:
    """:meth:`Lab.completions` of a choice (no deal known; ``deal``: its shape, as that takes
    it), listed once per class of choices alike but for interchangeable items and renamed (see
    the module's docstring).  (A deal's shape reads the zones' sizes alone: the same for the
    choices of a class.)"""
    alike = _alike(lab)
    alike.for_state(state, actor)
    alike.calls += 1
    if alike.calls <= FEW or not alike.classes():  # a few choices of a state: not worth the classes
        return lab.completions(state, actor, kind, args, None, random.Random(0), deal)
    found, back = _class_listed(alike, lab, state, actor, kind, args, deal)
    return [_back(p, back) for p in found]


def first_completion(lab: Lab, state: State, actor: str, kind: str, args: Mapping[str, Any]) -> Play:
    """The first of :func:`completions` of a choice (the same play): its class's completions
    listed once, and only the first renamed."""
    alike = _alike(lab)
    alike.for_state(state, actor)
    alike.calls += 1
    if not alike.classes():
        return lab.completions(state, actor, kind, args, None, random.Random(0))[0]
    found, back = _class_listed(alike, lab, state, actor, kind, args)
    return _back(found[0], back)
