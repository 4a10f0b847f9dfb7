"""Hidden token values: does some assignment fit everything recorded?

Each token placed face down has a value nobody but its owner knows.  A log
may record it when placed (a private fact), when revealed with its owner
named, or only as part of a reveal that names values without owners ("two
tokens turned up: 0 and 2").  The question the checker asks after each
new record is whether *some* assignment of the values still unknown fits
every player's supply (e.g. three of each value) and every record so far.

The search is exact and small: unknown values only matter through the
anonymous reveals, so it walks those one by one, trying each distinct way to
share a reveal's values among its tokens, with memoisation on the
per-player counts.

>>> ledger = TokenLedger({0: 1, 2: 1})
>>> for key in (1, 2, 3):
...     ledger.place(key, "Helen" if key < 3 else "John")
>>> ledger.reveal((1, 3), (0, 2), None)   # Helen's and John's tokens: a 0 and a 2
>>> ledger.feasible(), ledger.forced()
(True, {})
>>> ledger.record(2, 0, None, "placed")    # Helen's other token is her one 0 ...
>>> ledger.feasible(), ledger.forced()     # ... so the revealed 0 was John's
(True, {1: 2, 3: 0})
>>> ledger.record(3, 2, None, "revealed")  # a later record saying otherwise fits nothing
>>> ledger.feasible()
False
>>> ledger.record(2, 1, None, "revealed")  # and one contradicting a record is a conflict
Conflict(key=2, value=1, earlier=Record(value=0, position=None, what='placed'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations
from typing import Iterable, Mapping, NamedTuple

from ..spec.diagnostics import Position
from ..spec.tally import Tally

__all__ = ["TokenLedger", "Record", "Conflict", "Group"]


class Record(NamedTuple):
    """A token's value as the log recorded it, and where."""

    value: int
    position: Position | None
    what: str  # "placed", "private", "revealed", "shown at the end", "deduced"


class Conflict(NamedTuple):
    """A new record that contradicts an earlier one."""

    key: int
    value: int
    earlier: Record


@dataclass(frozen=True)
class Group:
    """An anonymous reveal: these tokens show these values, in some order."""

    keys: tuple[int, ...]
    values: tuple[int, ...]
    position: Position | None


@dataclass
class TokenLedger:
    """Every token placed, its owner, what is recorded of its value."""

    supply: Mapping[int, int]
    owners: dict[int, str] = field(default_factory=dict)
    known: dict[int, Record] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)

    # -- recording ---------------------------------------------------------------
    def place(self, key: int, owner: str) -> None:
        self.owners[key] = owner

    def record(self, key: int, value: int, position: Position | None, what: str) -> Conflict | None:
        """Record a token's value; a different earlier record is a conflict."""
        earlier = self.known.get(key)
        if earlier is not None:
            return None if earlier.value == value else Conflict(key, value, earlier)
        self.known[key] = Record(value, position, what)
        return None

    def reveal(self, keys: Iterable[int], values: Iterable[int], position: Position | None) -> Conflict | None:
        """Record that these tokens show these values, owners unknown.

        A token recorded before with a value the reveal lacks is a
        conflict; then nothing is recorded.
        """
        group = Group(tuple(keys), tuple(sorted(values)), position)
        if len(group.keys) != len(group.values):
            raise ValueError("a reveal gives one value per token")
        left = Tally(group.values)
        for k in group.keys:
            rec = self.known.get(k)
            if rec is None:
                continue
            if left[rec.value] <= 0:
                shown = sorted(set(group.values))
                return Conflict(k, shown[0] if len(shown) == 1 else -1, rec)
            left[rec.value] -= 1
        unknown = [k for k in group.keys if k not in self.known]
        if len(set(left.elements())) <= 1:
            for k, v in zip(unknown, left.elements()):
                self.known[k] = Record(v, position, "revealed")  # no choice to make
            return None
        self.groups.append(group)
        return None

    def snapshot(self) -> tuple[dict[int, Record], list[Group]]:
        return dict(self.known), list(self.groups)

    def restore(self, snap: tuple[dict[int, Record], list[Group]]) -> None:
        self.known, self.groups = dict(snap[0]), list(snap[1])

    # -- questions ---------------------------------------------------------------
    def feasible(self, extra: Mapping[int, int] | None = None) -> bool:
        """Whether some assignment of the unknown values fits every record."""
        return _search(self._problem(extra))

    def forced(self) -> dict[int, int]:
        """Values not recorded directly but the same in every fitting assignment."""
        if not self.feasible():
            return {}
        out: dict[int, int] = {}
        candidates = {k: set(g.values) for g in self.groups for k in g.keys if k not in self.known}
        for key, values in candidates.items():
            fits = [v for v in sorted(values) if self.feasible({**out, key: v})]
            if len(fits) == 1:
                out[key] = fits[0]
        return out

    def over_supply(self) -> list[tuple[str, int, list[Record]]]:
        """(owner, value, records) where the values recorded alone exceed a supply."""
        by: dict[tuple[str, int], list[Record]] = {}
        for key, rec in self.known.items():
            by.setdefault((self.owners[key], rec.value), []).append(rec)
        return [(o, v, recs) for (o, v), recs in sorted(by.items(), key=lambda kv: str(kv[0]))
                if len(recs) > self.supply.get(v, 0)]

    def value(self, key: int) -> int | None:
        rec = self.known.get(key)
        return rec.value if rec else None

    def _problem(self, extra: Mapping[int, int] | None) -> "_Problem":
        known = {k: r.value for k, r in self.known.items()}
        known.update(extra or {})
        return _Problem.build(self.supply, self.owners, known, self.groups)


# -- the search --------------------------------------------------------------------


@dataclass(frozen=True)
class _Problem:
    values: tuple[int, ...]                 # the token values, sorted
    caps: tuple[int, ...]                   # supply of each value
    owners: tuple[str, ...]                 # players, sorted
    start: tuple[tuple[int, ...], ...]      # per owner: known count of each value
    groups: tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]
    # per group: ((token, owner index) of unknown tokens, values left for them)
    bad: bool = False

    @classmethod
    def build(cls, supply: Mapping[int, int], owners: Mapping[int, str], known: Mapping[int, int],
              groups: Iterable[Group]) -> "_Problem":
        values = tuple(sorted(supply))
        names = tuple(sorted(set(owners.values())))
        index = {v: i for i, v in enumerate(values)}
        start = [[0] * len(values) for _ in names]
        bad = False
        for key, v in known.items():
            if v not in index:
                bad = True
                continue
            start[names.index(owners[key])][index[v]] += 1
        built = []
        for g in groups:
            left = Tally(g.values)
            for key in g.keys:
                if key in known:
                    left[known[key]] -= 1
            if any(n < 0 for n in left.values()) or any(v not in index for v in left):
                bad = True
                continue
            unknown = tuple((k, names.index(owners[k])) for k in g.keys if k not in known)
            built.append((unknown, tuple(sorted(left.elements()))))
        return cls(values, tuple(supply[v] for v in values), names,
                   tuple(tuple(r) for r in start), tuple(built), bad)


def _search(problem: _Problem) -> bool:
    if problem.bad:
        return False
    index = {v: i for i, v in enumerate(problem.values)}
    caps = problem.caps
    if any(n > caps[i] for row in problem.start for i, n in enumerate(row)):
        return False
    # A token in several groups: its value, once chosen, binds the later groups.
    later: list[frozenset[int]] = []
    seen: set[int] = set()
    for unknown, _vals in reversed(problem.groups):
        later.append(frozenset(seen))
        seen |= {k for k, _o in unknown}
    later.reverse()

    @lru_cache(maxsize=None)
    def go(gi: int, counts: tuple[tuple[int, ...], ...], bound: tuple[tuple[int, int], ...]) -> bool:
        if gi == len(problem.groups):
            return True
        unknown, vals = problem.groups[gi]
        fixed = dict(bound)
        left = Tally(vals)
        free = []
        for key, owner in unknown:
            if key in fixed:
                left[fixed[key]] -= 1
            else:
                free.append((key, owner))
        if any(n < 0 for n in left.values()):
            return False
        tried: set[tuple[object, ...]] = set()
        for perm in set(permutations(sorted(left.elements()))):
            # Tokens of one owner are alike unless a later group names them.
            shape = tuple(sorted(((o, k if k in later[gi] else -1), v) for (k, o), v in zip(free, perm)))
            if shape in tried:
                continue
            tried.add(shape)
            rows = [list(r) for r in counts]
            ok = True
            for (key, owner), v in zip(free, perm):
                rows[owner][index[v]] += 1
                if rows[owner][index[v]] > caps[index[v]]:
                    ok = False
                    break
            if not ok:
                continue
            keep = {k: v for k, v in fixed.items() if k in later[gi]}
            keep.update({k: v for (k, _o), v in zip(free, perm) if k in later[gi]})
            if go(gi + 1, tuple(tuple(r) for r in rows), tuple(sorted(keep.items()))):
                return True
        return False

    return go(0, problem.start, ())
