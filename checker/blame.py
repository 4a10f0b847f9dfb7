"""Which move of the log last changed each part of the state.

Diagnostics point at the moves behind a violation ("the game ended here",
"X's turn from here", an item added to a state variable); this keeps, for
every part of the engine's state, the index of the log move that last
changed it, found by comparing the state before and after each move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..spec.machine import State

__all__ = ["Blame"]


@dataclass
class Blame:
    """Log move indexes behind the current state."""

    phase: int | None = None
    turn: int | None = None
    ended: int | None = None
    out: dict[str, int] = field(default_factory=dict)
    vars: dict[str, int] = field(default_factory=dict)
    added: dict[str, dict[str, int]] = field(default_factory=dict)  # set variable -> item -> move index
    appended: dict[str, list[int]] = field(default_factory=dict)    # list variable -> move index of each element
    tokens: dict[int, int] = field(default_factory=dict)  # token order -> move index

    def update(self, index: int, before: State, after: State) -> None:
        """Note what move ``index`` changed, going from ``before`` to ``after``."""
        if after.phase != before.phase:
            self.phase = index
        if after.turn != before.turn:
            self.turn = index
        if after.ended and not before.ended:
            self.ended = index
        for p in after.out:
            if p not in before.out:
                self.out[p] = index
        for name, value in after.vars.items():
            old_value = before.vars.get(name)
            if old_value != value:
                self.vars[name] = index
                if isinstance(value, frozenset):
                    for item in value - (old_value if isinstance(old_value, frozenset) else frozenset()):
                        self.added.setdefault(name, {})[item] = index
                elif isinstance(value, list):
                    kept = self.appended.get(name, [])[:len(old_value) if isinstance(old_value, list) else 0]
                    self.appended[name] = kept + [index] * (len(value) - len(kept))
        old = {t.order for t in before.tokens}
        for t in after.tokens:
            if t.order not in old:
                self.tokens[t.order] = index
