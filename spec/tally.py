"""How many times each thing occurs: a small multiset for the engine's bookkeeping.

(Python has one in ``collections``; its name is one of the games' words, which
engine code does not use, see tests/spec/test_no_game_in_engine.py.)

>>> t = Tally("abca")
>>> t["a"], t["z"], sorted(t.elements())
(2, 0, ['a', 'a', 'b', 'c'])
>>> t.subtract("aa"); t["a"]
0
"""

from __future__ import annotations

from typing import Hashable, Iterable, Iterator, TypeVar

__all__ = ["Tally"]

K = TypeVar("K", bound=Hashable)


class Tally(dict[K, int]):
    """Thing -> times counted; a thing never counted is there 0 times (and is not added by reading it)."""

    def __init__(self, items: Iterable[K] = ()):
        super().__init__()
        for item in items:
            self[item] = self.get(item, 0) + 1

    def __missing__(self, key: K) -> int:
        return 0

    def subtract(self, items: Iterable[K]) -> None:
        """Count each item once less (counts may go below 0)."""
        for item in items:
            self[item] -= 1

    def elements(self) -> Iterator[K]:
        """Each thing as many times as it is counted (none when 0 or less)."""
        for item, n in self.items():
            for _ in range(n):
                yield item
