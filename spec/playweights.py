"""How a random player plays, declared by the rule file (``play: random:``).

A random bot draws a move kind, then the mover's choices.  Left alone it
draws each uniformly, and its games look like no game people play (a final
question at every other turn).  The rule file may give weights: per move
kind (``kinds:``) and per value of a mover's parameter (``values: KIND:
PARAM: VALUE``), each with the rulebook sentence that says how often
(``cite:``) or, where the rulebook says nothing, the reason for the choice
(``choice:``).  A weight is a finite number from 0 up; the weights of one
parameter are not all 0 (the draw among the legal values is proportional to
them: they are normalised there, so only their ratios count).

    play:
      random:
        kinds:
          claim: {weight: 0.05, choice: "a claim about one turn in twenty"}
        values:
          ask:
            via:
              final: {weight: 0.05, choice: "a final question about one question in twenty"}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .model import Cite, Move, decided_by
from .source import position_of

__all__ = ["PlayWeights", "Weight", "build_play", "weighable_values"]


@dataclass(frozen=True)
class Weight:
    """One declared weight and why: a rulebook sentence or the reason for the choice."""

    weight: float
    cite: Cite | None = None
    choice: str | None = None

    def why(self) -> str:
        return f"rulebook: {self.cite.quote}" if self.cite is not None else f"a choice: {self.choice}"


@dataclass(frozen=True)
class PlayWeights:
    """The random player's weights: by kind, and by (kind, parameter) then value."""

    kinds: Mapping[str, Weight] = field(default_factory=dict)
    values: Mapping[tuple[str, str], Mapping[Any, Weight]] = field(default_factory=dict)

    def kind_weights(self) -> dict[str, float]:
        return {k: w.weight for k, w in self.kinds.items()}

    def value_weights(self) -> dict[tuple[str, str], dict[Any, float]]:
        return {key: {v: w.weight for v, w in by.items()} for key, by in self.values.items()}

    def to_json(self) -> dict[str, Any]:
        return {"kinds": {k: {"weight": w.weight, "why": w.why()} for k, w in self.kinds.items()},
                "values": {f"{k}.{p}": {str(v): {"weight": w.weight, "why": w.why()} for v, w in by.items()}
                           for (k, p), by in self.values.items()}}


def weighable_values(move: Move, name: str, components: Mapping[str, Any]) -> list[Any] | None:
    """The values a mover's parameter takes, when they can be listed (a choice, a flag, an item)."""
    for p in move.params:
        if p.name != name or decided_by(p) != "mover":
            continue
        if p.type == "choice":
            return list(p.values)
        if p.type == "flag":
            return [True, False]
        if p.type == "item" and p.of in components:
            return list(components[p.of].items)
        return None
    return None


def build_play(b: Any, moves: Mapping[str, Move], components: Mapping[str, Any], ctx: Any) -> PlayWeights | None:
    """The ``play:`` section (its shape checked by the schema), each name checked against the moves."""
    from .builder import unknown

    node = b.doc.get("play")
    if not isinstance(node, dict) or not isinstance(node.get("random"), dict):
        return None
    rnd = node["random"]

    def weight(entry: Any, where: Any, key: Any) -> Weight | None:
        value = entry.get("weight") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            ctx.error("RL104", "a weight must be a finite number from 0 up", position_of(where, key))
            return None
        return Weight(float(value), b.cite(entry), entry.get("choice"))

    kinds: dict[str, Weight] = {}
    for kind, entry in (rnd.get("kinds") or {}).items():
        if kind not in moves:
            unknown(ctx, "RL121", "move", kind, moves, position_of(rnd.get("kinds"), kind))
            continue
        w = weight(entry, rnd["kinds"], kind)
        if w is not None:
            kinds[kind] = w
    if kinds and len(kinds) == len(moves) and all(w.weight == 0 for w in kinds.values()):
        ctx.error("RL104", "every move has weight 0: a random player could never move", position_of(rnd, "kinds"))
    values: dict[tuple[str, str], dict[Any, Weight]] = {}
    for kind, params in (rnd.get("values") or {}).items():
        if kind not in moves:
            unknown(ctx, "RL121", "move", kind, moves, position_of(rnd.get("values"), kind))
            continue
        for name, by_value in (params or {}).items():
            known = weighable_values(moves[kind], name, components)
            if known is None:
                unknown(ctx, "RL121", f"parameter of {kind} with values to weigh (a choice, a flag, an item)",
                        name, [p.name for p in moves[kind].params], position_of(params, name))
                continue
            got: dict[Any, Weight] = {}
            for value, entry in (by_value or {}).items():
                if value not in known:
                    unknown(ctx, "RL121", f"value of {kind}.{name}", value, known, position_of(by_value, value))
                    continue
                w = weight(entry, by_value, value)
                if w is not None:
                    got[value] = w
            if got and len(got) == len(known) and all(w.weight == 0 for w in got.values()):
                ctx.error("RL104", f"every value of {kind}.{name} has weight 0", position_of(params, name))
            values[(kind, name)] = got
    return PlayWeights(kinds, values)
