"""A move's outcomes read from the solver's marginal of one count, not one count per outcome.

Many moves let the table observe one number: how many of a set of cards
lie in a set of zones (a :class:`~ruleslawyer.spec.facts.Lin` of weight 1 on
each card), and perhaps, to some players, one card of those zones: one of
the counted cards that lie there (a card shown), or one of all the cards
that lie there (a card drawn from the zones' whole content).
:func:`count_shape` recognises this from the ways a move may end (its paths,
:func:`lab.advice.move_paths`), with no game's name: every fact of every path
is "the count is v", a bound on the same count that "the count is v"
implies, or "card c lies in those zones"; the paths of one value either name
no card (one path) or one path per card, each card once.

In a world where the count is v, the paths possible are then the one of v
(no card), or one per named card that lies there, uniformly (as
:mod:`lab.advice`'s model has it).  When the cards named are the counted
cards, there are v of them in every such world.  When they are other cards
(a draw from the whole zones), there are as many as the zones hold, h, in
every such world, provided the named cards are every card that can lie
there in those worlds (:func:`solver.marginal.fills`; checked per value,
else refused): then P(v, c) = P(v) P(c there | v) / h, and the worlds are
told apart within by log2(h) bits where the seat sees the card.  So
:func:`value_counted` weighs every outcome from
:func:`solver.marginal.by_value`: where the engine gives it, one table of
the zones' content jointly with the solution
(:class:`~ruleslawyer.solver.table.OwnerTable`, one pass), each value, card
and solution a sum over its rows, all of them at once in one matrix product
(:meth:`~ruleslawyer.solver.table.OwnerTable.by_count`; :func:`_from_table`,
the information about the solution from the joint as an array); else one
knowledge per value of the count
(and, when the seat sees the card and the solution is one card, the
solution's shares given each card in one pass where the engine gives them,
else one knowledge per value and card).  It gives exactly what
:mod:`lab.advice`'s reference path gives, or None when the shape does not fit
(the caller then uses the reference path).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

import numpy as np

from ..solver.engine import Knowledge
from ..solver.table import CountSums, OwnerTable
from ..solver.marginal import (Slice, by_value, capacity, card_shares, counted_cards, fills, solution_given,
                               solution_shares)
from ..spec.facts import OPS, Atom, Const, Fact, Lin

__all__ = ["CountShape", "Counted", "count_shape", "value_counted", "worlds_from_table"]

EPS = 1e-9
_UNREAD = object()  # what _from_table gives when the table lacks a card named


@dataclass(frozen=True)
class CountShape:
    """The paths of a move as values of one count (see the module's docstring)."""

    lin: Lin
    cards: frozenset[str]
    zones: frozenset[str]
    groups: dict[int, tuple[tuple[int, str | None], ...]]   # value -> (path index, card named or None)
    #: the values whose paths name other cards than the counted ones: a card drawn from the
    #: zones' whole content (one in as many as the zones hold, when they name every card there)
    drawn: frozenset[int] = frozenset()


@dataclass
class Counted:
    """What :func:`value_counted` gives for one move, by the seat's observation key."""

    dist: dict[str, float]          # key -> probability (among worlds where the move is possible)
    h_given_world: float            # H(observation | world), bits
    legal: float                    # the share of the seat's prior mass where some path is possible
    left: dict[str, int]            # key -> worlds left after it
    solution_bits: float | None     # I(solution; observation) when counted here


def _same(a: Lin, b: Lin) -> bool:
    """``a.same(b)``, at once when both are made from one tuple of terms (atoms of one count)."""
    return (a.terms is b.terms and a.constant == b.constant) or a.same(b)


def _path_parts(facts: Sequence[Fact]) -> tuple[Lin, int, list[Atom], str | None] | None | bool:
    """(the count, its value, bounds on the same count, the card named) of one path; False when
    a fact can never hold (the path is never possible); None when the path does not fit."""
    eqs: list[Atom] = []
    others: list[Atom] = []
    for f in facts:
        if f.likelihood is not None:
            return None
        g = f.formula
        if isinstance(g, Atom):
            lin = g.lin
            (eqs if g.op == "==" and lin.constant == 0 and len(lin.terms) > 1 else others).append(g)
        elif isinstance(g, Const):
            if not g.truth:
                return False
        else:
            return None
    if len(eqs) != 1 and not (len(eqs) == 0 and others):
        return None
    if not eqs:  # a count of one card: "== v" on it is the count itself
        singles = [a for a in others if a.op == "=="]
        if len(singles) != 1:
            return None
        eqs = singles
        others = [a for a in others if a is not singles[0]]
    main = eqs[0]
    terms = main.lin.terms
    bounds: list[Atom] = []
    card = None
    for a in others:
        own = a.lin.terms
        if _same(a.lin, main.lin):
            bounds.append(a)
        elif len(own) == 1 and a.op == "==" and a.value == 1 and own[0][2] == 1 and card is None:
            card = own[0][0]
            if not terms or own[0][1] != terms[0][1]:
                return None
        else:
            return None
    return main.lin, main.value, bounds, card


def count_shape(paths: Sequence) -> CountShape | None:
    """The paths' facts as values of one count (see the module's docstring), or None."""
    lin: Lin | None = None
    groups: dict[int, list[tuple[int, str | None]]] = {}
    for i, p in enumerate(paths):
        parts = _path_parts(p.facts)
        if parts is None:
            return None
        if parts is False:
            continue
        plin, v, bounds, card = parts  # type: ignore[misc]
        if lin is None:
            lin = plin
        elif not _same(lin, plin):
            return None
        if not all(OPS[b.op](v, b.value) for b in bounds):
            return None  # a bound the value does not imply: not this shape
        groups.setdefault(v, []).append((i, card))
    if lin is None:
        return None
    counted = counted_cards(lin)
    if counted is None:
        return None
    cards, zones = counted
    drawn = set()
    for v, members in groups.items():
        named = [c for _i, c in members]
        if named == [None]:
            continue
        if None in named or len(set(named)) != len(named):
            return None
        if set(named) != set(cards):
            drawn.add(v)  # whether they name every card the zones may hold: per value, from its worlds
        elif v < 1:
            return None
    return CountShape(lin, cards, zones, {v: tuple(m) for v, m in groups.items()}, frozenset(drawn))


def worlds_from_table(facts: Sequence[Fact], table_of: Callable[[frozenset[str]], OwnerTable | None]) -> int | None:
    """The worlds where ``facts`` hold, read from a table when they are one path of the shape
    (one count of one owner's cards is v, bounds on it, maybe a card of those zones there):
    ``table_of(zones)`` gives the table of the count's zones (None: not given); None when the
    facts are not of the shape or no table is given (the caller counts)."""
    parts = _path_parts(facts)
    if parts is None:
        return None
    if parts is False:
        return 0
    lin, v, bounds, card = parts  # type: ignore[misc]
    counted = counted_cards(lin)
    if counted is None:
        return None
    cards, zones = counted
    if not all(OPS[b.op](v, b.value) for b in bounds):
        return 0
    table = table_of(zones)
    if table is None or not (cards | ({card} if card else set())) <= set(table.cards):
        return None
    rows = table.holding(table.mask(cards)) == v
    if card is not None:
        rows &= table.has(card)
    return int(table.worlds[rows].sum())


def _entropy(ps) -> float:
    return max(0.0, -sum(p * math.log2(p) for p in ps if p > 0))


def value_counted(shape: CountShape, paths: Sequence, keys: Sequence[Hashable], base: Knowledge,
                  total: float, sizes, condition: Callable[[Knowledge, list[Fact]], Knowledge],
                  solution: bool = True, table: OwnerTable | None = None,
                  whole: Sequence[bool] | None = None) -> Counted | None:
    """The move's outcomes from the marginal of its count over ``base`` (prior mass ``total``):
    each seat observation's chance (``keys``: the seat's key of each path), H(observation |
    world), the share where the move is possible, the worlds left after each observation and,
    when ``solution`` and it can be told from the marginal, I(solution; observation).  None when
    the seat's view of the paths does not fit (the caller's reference path answers then).
    ``condition(k, facts)`` makes (and counts) a knowledge: every count goes through it;
    ``table``: ``base``'s :func:`~ruleslawyer.solver.marginal.table_of` the count's zones, read
    instead of a knowledge per value (the same values): every value, card and solution summed
    at once (:func:`_from_table`) when every world weighs the same and the table has every card
    named, else through :func:`~ruleslawyer.solver.marginal.by_value`'s slices of it.
    ``whole``: per path, whether the seat sees every fact of it (its key then says its value and
    card: the worlds left are read from them, what the seat sees not parsed again)."""
    carded = any(c is not None for m in shape.groups.values() for _i, c in m)
    if carded and sizes is not None:
        return None  # worlds weigh differently: a card's chance is not a share of the count
    if table is not None and sizes is None:
        got = _from_table(shape, paths, keys, table, total, solution, whole)
        if got is not _UNREAD:
            return got  # type: ignore[return-value]
    slices = {s.value: s for s in by_value(base, shape.lin, sizes, condition, table)}
    shares: dict[int, dict[str, float]] = {}
    # each path's probability (before dividing by the legal mass), and the within-world entropy
    prob: dict[int, float] = {}
    h_w = 0.0
    legal = 0.0
    for v, members in shape.groups.items():
        s = slices.get(v)
        if s is None:
            continue
        legal += s.mass
        if members[0][1] is None:
            prob[members[0][0]] = s.mass
            continue
        named = frozenset(c for _i, c in members)  # type: ignore[misc]
        got = card_shares(s, named, shape.zones)
        if got is None:
            return None
        ways = v  # the paths possible in each world of the value: its counted cards there
        if v in shape.drawn:  # or every card there, when the named cards are all it can hold
            if not fills(s, got, shape.zones):
                return None
            ways = capacity(base.deal, shape.zones)
        h = _within(keys, members, ways)
        if h is None:
            return None
        shares[v] = got
        h_w += s.mass * h
        for i, c in members:
            prob[i] = s.mass * got[c] / ways  # type: ignore[index]
    if legal <= 0:
        return None
    dist: dict[Hashable, float] = {}
    for i, q in prob.items():
        dist[keys[i]] = dist.get(keys[i], 0.0) + q / legal
    left = {}
    known = {(v, c): q for v, got in shares.items() for c, q in got.items()}  # card shares worked out
    for k in dist:
        i = next(j for j in prob if keys[j] == k)
        left[k] = _left(shape, paths[i].seen, slices, known)
        if left[k] is None:
            return None
    sol = _solution_bits(shape, keys, prob, slices, shares, legal, condition) if solution else None
    return Counted(dist, h_w / legal, legal / total, left, sol)  # type: ignore[arg-type]


def _within(keys: Sequence[Hashable], members: Sequence[tuple[int, str | None]], ways: int) -> float | None:
    """H(observation | world) in a world of a value whose paths each name a card, ``ways`` of
    them possible there: 0 when the seat sees them alike, log2(ways) when it tells each apart;
    None when ``ways`` < 1 or it tells some apart but not all (not this shape)."""
    if ways < 1:
        return None
    ks = {keys[i] for i, _c in members}
    if len(ks) == 1:
        return 0.0
    return math.log2(ways) if len(ks) == len(members) else None


def _seen_parts(shape: CountShape, seen: Sequence[Fact]) -> tuple[list[Atom], str | None]:
    """(the bounds on the count, the card named) of what the seat sees of a path of the shape."""
    bounds: list[Atom] = []
    card = None
    for f in seen:
        g = f.formula
        if isinstance(g, Const):
            continue
        if _same(g.lin, shape.lin):  # type: ignore[union-attr]
            bounds.append(g)  # type: ignore[arg-type]
        else:
            card = g.lin.terms[0][0]  # type: ignore[union-attr]
    return bounds, card


def _from_table(shape: CountShape, paths: Sequence, keys: Sequence[Hashable], table: OwnerTable,
                total: float, solution: bool, whole: Sequence[bool] | None = None) -> Counted | None | object:
    """:func:`value_counted` read from ``table`` summed by the value of the count
    (:meth:`~ruleslawyer.solver.table.OwnerTable.by_count`: one matrix product for every value,
    card and solution), the same sums :func:`value_counted`'s slices of the table take one
    dictionary per value and card: the same numbers to the last bit (the same arithmetic on
    each, in the same order).  ``whole``: as :func:`value_counted`'s.  :data:`_UNREAD` when the
    table lacks a card the paths name (the slices of it then answer)."""
    col = table.index
    named = sorted({c for m in shape.groups.values() for _i, c in m if c is not None})
    if not (shape.cards <= col.keys() and col.keys() >= set(named)):
        return _UNREAD
    sums = table.by_count(table.mask(shape.cards), named if solution else ())
    worlds, weight = sums.worlds.tolist(), sums.weight.tolist()
    held = sums.held.tolist()
    present = [v for v, n in enumerate(worlds) if n]
    prob: dict[int, float] = {}
    h_w = 0.0
    legal = 0.0
    at = {c: n for n, c in enumerate(named)}
    values: list[int] = []
    # each path weighed, in order: (value, named card, card, P, key); the cards -1 where the seat
    # does not tell the card apart (then the solution's shares are those of the value)
    weighed: list[tuple[int, int, int, float, Hashable]] = []
    for v, members in shape.groups.items():
        if not 0 <= v < len(worlds) or not worlds[v]:
            continue
        values.append(v)
        mass = float(worlds[v])
        legal += mass
        if members[0][1] is None:
            prob[members[0][0]] = mass
            weighed.append((v, -1, -1, mass, keys[members[0][0]]))
            continue
        row, tw = held[v], weight[v]
        ways = v  # the paths possible in each world of the value: its counted cards there
        if v in shape.drawn:  # or every card there, when the named cards are all it can hold
            them = [c for _i, c in members]
            cap = capacity(table.deal, shape.zones)  # type: ignore[arg-type]
            if table.outside(table.mask(them), table.mask(shape.cards))[v] or \
                    abs(sum(row[col[c]] / tw for c in them) - cap) > 1e-9 * max(1, cap):  # type: ignore[index]
                return None
            ways = cap
        h = _within(keys, members, ways)
        if h is None:
            return None
        h_w += mass * h
        distinct = len(members) > 1 and keys[members[0][0]] != keys[members[1][0]]
        for i, c in members:
            q = prob[i] = mass * (row[col[c]] / tw) / ways  # type: ignore[index]
            if q > 0:  # where the seat tells the card apart: the solution's shares given it there
                among, bit = (at[c], col[c]) if distinct else (-1, -1)  # type: ignore[index]
                weighed.append((v, among, bit, q, keys[i]))
    if legal <= 0:
        return None
    dist: dict[Hashable, float] = {}
    first: dict[Hashable, int] = {}
    for i, q in prob.items():
        dist[keys[i]] = dist.get(keys[i], 0.0) + q / legal
        first.setdefault(keys[i], i)
    left = {}
    allowed: dict[tuple[int, ...], list[int]] = {}  # the values some bounds allow, by their ids
    seen_all = {i: (v, c) for v, members in shape.groups.items() for i, c in members} if whole else {}
    for k, i in first.items():  # the worlds left: those of the values the seat's bounds allow
        if whole and whole[i]:  # the seat sees the count is v (its bounds hold at v: count_shape)
            v, card = seen_all[i]
            n = worlds[v] if card is None else worlds[v] * (held[v][col[card]] / weight[v])
            left[k] = int(round(0.0 + n))
            continue
        bounds, card = _seen_parts(shape, paths[i].seen)
        if card is not None and card not in col:
            return _UNREAD
        ids = tuple(map(id, bounds))
        if ids not in allowed:
            allowed[ids] = [v for v in present if all(OPS[b.op](v, b.value) for b in bounds)]
        n = 0.0
        for v in allowed[ids]:
            n += worlds[v] if card is None else worlds[v] * (held[v][col[card]] / weight[v])
        left[k] = int(round(n))
    sol = _solution_from_sums(sums, values, weighed, legal) if solution else None
    return Counted(dist, h_w / legal, legal / total, left, sol)


def _solution_from_sums(sums: CountSums, values: list[int], weighed: list[tuple[int, int, int, float, Hashable]],
                        legal: float) -> float | None:
    """I(solution; observation) from the table's sums by value over ``legal``: each path of
    ``weighed`` (:func:`_from_table` lists them, in :func:`_solution_bits`' order) takes the
    solution's shares where its card lies there, or those of its value; None when the solution
    is not one card.  The same numbers as :func:`_solution_bits`, to the last bit: each joint
    entry the same product, each sum taken in the same order (running sums), each log2 Python's
    (numpy's differs in the last bit now and then, and a move worth 0 must stay 0, not 4e-16)."""
    weight = sums.weight
    if values and not sums.one_card and \
            np.any(np.abs(sums.solution[values].sum(axis=1) / weight[values] - 1.0) > 1e-6):
        return None  # not a one-card solution
    if not weighed:
        return 0.0
    v, n, c, q, keys = zip(*weighed)
    v = list(v)
    # the solution's shares of each path: given its card there, or of its value
    per = sums.solution[v] / weight[v][:, None]
    seen = [i for i, x in enumerate(n) if x >= 0]
    if seen:
        vs, ns, cs = [v[i] for i in seen], [n[i] for i in seen], [c[i] for i in seen]
        per[seen] = sums.given[vs, ns] / sums.held[vs, cs][:, None]  # type: ignore[index]
    scale = np.array(q) / legal
    index: dict[Hashable, int] = {}
    which = [index.setdefault(k, len(index)) for k in keys]
    if len(index) < len(which):  # several paths look alike: the joint summed as _solution_bits sums it
        joint: dict[int, dict[Hashable, float]] = {}
        for k, s_, row in zip(which, scale.tolist(), per.tolist()):
            into = joint.setdefault(k, {})
            for x, share in enumerate(row):
                if share > 0:
                    into[x] = into.get(x, 0.0) + s_ * share
        return _information(list(joint.values()))
    rows = scale[:, None] * per  # P(observation, solution card), a row per observation
    h_x = _entropy([sum(row) for row in rows.tolist()])
    w = np.cumsum(rows, axis=0)[-1]  # P(solution card), summed over the observations in order
    cards = np.flatnonzero(w > 0)
    shares = rows[:, cards] / w[cards]
    # H(observation | the card) per solution card
    h = [max(0.0, -sum([p * math.log2(p) for p in col if p > 0])) for col in shares.T.tolist()]
    weights = w[cards].tolist()
    h_s = 0.0
    for x in np.argsort((shares > 0).argmax(axis=0), kind="stable").tolist():  # the cards as they first appear
        h_s += weights[x] * h[x]
    return max(0.0, h_x - h_s)


def _information(joint: list[dict[Hashable, float]]) -> float:
    """I(solution; observation) from P(observation, solution card): a row per observation, each
    solution card's entry where positive (each sum in the rows' and entries' order)."""
    by_solution: dict[Hashable, list[float]] = {}
    for row in joint:
        for x, q in row.items():
            by_solution.setdefault(x, []).append(q)
    h_x = _entropy(sum(row.values()) for row in joint)
    h_s = 0.0
    for qs in by_solution.values():
        w = sum(qs)
        h_s += w * _entropy(q / w for q in qs)
    return max(0.0, h_x - h_s)


def _left(shape: CountShape, seen: Sequence[Fact], slices: dict[int, Slice],
          known: dict[tuple[int, str], float]) -> int | None:
    """Worlds left after the seat sees ``seen`` (facts of the shape); ``known``: (value, card) ->
    the card's share in that value's worlds, where worked out already (filled in here)."""
    bounds, card = _seen_parts(shape, seen)
    n = 0.0
    for v, s in slices.items():
        if all(OPS[b.op](v, b.value) for b in bounds):
            if card is None:
                n += s.count
            else:
                if (v, card) not in known:
                    got = card_shares(s, frozenset([card]), shape.zones)
                    if got is None:
                        return None
                    known[v, card] = got[card]
                n += s.count * known[v, card]
    return int(round(n))


def _solution_bits(shape: CountShape, keys: Sequence[str], prob: dict[int, float],
                   slices: dict[int, Slice], shares: dict[int, dict[str, float]], legal: float,
                   condition: Callable[[Knowledge, list[Fact]], Knowledge]) -> float | None:
    """I(solution; observation) when the solution is one card (each solution's share read from
    the knowledge with the count fixed, and the card named when the seat sees it); else None."""
    some = next(iter(slices.values()), None)
    if some is None:
        return None
    # joint[key][solution card] = P(key, solution)
    joint: dict[str, dict[str, float]] = {}
    for v, members in shape.groups.items():
        s = slices.get(v)
        if s is None:
            continue
        per = solution_shares(s)
        if abs(sum(per.values()) - 1.0) > 1e-6:
            return None  # not a one-card solution
        distinct = members[0][1] is not None and len({keys[i] for i, _c in members}) > 1
        named = frozenset(c for _i, c in members)  # type: ignore[misc]
        given = solution_given(s, named, shape.zones) if distinct else None  # type: ignore[arg-type]
        for i, c in members:
            if i not in prob or prob[i] <= 0:
                continue
            if given is not None:
                per_c = given[c]  # type: ignore[index]
                if per_c is None:
                    continue
            elif distinct:
                kc = condition(s.knowledge, [Fact(Lin(((c, shape.zones, 1),)) == 1)])  # type: ignore[arg-type]
                if not kc.consistent():
                    continue
                per_c = solution_shares(Slice(v, kc, 0, 0.0))
            else:
                per_c = per
            row = joint.setdefault(keys[i], {})
            for card, q in per_c.items():
                if q > 0:
                    row[card] = row.get(card, 0.0) + prob[i] / legal * q
    return _information(list(joint.values()))
