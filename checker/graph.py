"""The state machine as a diagram (Mermaid or Graphviz), read from the rules.

A move belongs to the phases its requirements name (``phase == 'x'``); its
effects give the transitions (``phase:`` and ``end:``), labelled with the
conditions (``when:``) that lead there.  A condition on the phase itself
(``phase == 'x' and ...``, ``not (phase == 'x')``) keeps a path to the phase
it names, and is left out of the label there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..spec.model import Effect, Move, Ruleset

END = "end"


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    label: str


def move_phases(rules: Ruleset, move: Move) -> list[str]:
    named = [lit for req in move.requires for base, attr, lit, _c in req.expr.literals
             if base == "" and attr == "phase"]
    return [p for p in rules.flow.phases if p in named] or list(rules.flow.phases)


def _moves_phase(effects: Iterable[Effect]) -> bool:
    return any(e.verb in ("phase", "end") or _moves_phase(e.then) or _moves_phase(e.otherwise) for e in effects)


def _paths(effects: Sequence[Effect], conds: tuple[str, ...] = (),
           target: str | None = None) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every path through a sequence of effects: (final phase or END, conditions).

    Only the conditions of branches that lead to a change of phase are kept.
    """
    if not effects:
        return [(target, conds)]
    eff, rest = effects[0], effects[1:]
    if target == END:
        return [(target, conds)]
    if eff.verb == "phase":
        return _paths(rest, conds, eff.arg)
    if eff.verb == "end":
        return [(END, conds)]
    if eff.verb == "when" and (_moves_phase(eff.then) or _moves_phase(eff.otherwise)):
        src = eff.arg.source if eff.arg is not None else "?"
        return (_paths(tuple(eff.then) + tuple(rest), conds + (src,), target)
                + _paths(tuple(eff.otherwise) + tuple(rest), conds + (f"not ({src})",), target))
    return _paths(rest, conds, target)


_IS = re.compile(r"^phase == '([^']*)'(?: and (.+))?$")
_IS_NOT = re.compile(r"^not \(phase == '([^']*)'\)$")


def _on_phase(phase: str, conds: tuple[str, ...]) -> tuple[str, ...] | None:
    """The conditions of a path taken from ``phase``, those on the phase itself left out;
    None when one of them rules the phase out."""
    kept = []
    for cond in conds:
        if (found := _IS.match(cond)) is not None:
            if found.group(1) != phase:
                return None
            if found.group(2):
                kept.append(found.group(2))
        elif (found := _IS_NOT.match(cond)) is not None:
            if found.group(1) == phase:
                return None
        else:
            kept.append(cond)
    return tuple(kept)


def edges(rules: Ruleset) -> list[Edge]:
    out: list[Edge] = []
    for move in rules.moves.values():
        for phase in move_phases(rules, move):
            seen = set()
            for target, conds in _paths(tuple(move.effects)):
                target = target or phase
                on = _on_phase(phase, conds)
                if on is None:
                    continue
                conds = on
                label = move.name + (" [" + " and ".join(c for c in conds if c) + "]" if conds else "")
                key = (target, label)
                if key not in seen:
                    seen.add(key)
                    out.append(Edge(phase, target, label))
    return out


def mermaid(rules: Ruleset) -> str:
    lines = ["stateDiagram-v2", f"    %% {rules.canonical_name}", f"    [*] --> {rules.flow.start_phase}"]
    for e in edges(rules):
        target = "[*]" if e.target == END else e.target
        lines.append(f"    {e.source} --> {target}: {_escape(e.label)}")
    return "\n".join(lines) + "\n"


def dot(rules: Ruleset) -> str:
    lines = ["digraph rules {", f'    label="{rules.canonical_name}";', "    rankdir=LR;",
             '    start [shape=point]; end [shape=doublecircle, label="end"];',
             f"    start -> {rules.flow.start_phase};"]
    for e in edges(rules):
        label = e.label.replace('"', '\\"')
        lines.append(f'    {e.source} -> {e.target} [label="{label}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace(":", "#colon;").replace(";", "#59;")
