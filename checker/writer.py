"""Writing a game as a log, in the format :mod:`checker.log` reads.

Used to turn simulated games (and counterexamples) into logs a person can
read and the checker can replay.  One move per line, clues by printed name.

>>> scalar("7:00"), scalar("Samuel Baker"), scalar("yes"), scalar(3)
('"7:00"', 'Samuel Baker', '"yes"', '3')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..spec.machine import Play
from ..spec.model import Ruleset

__all__ = ["EndSection", "format_log"]

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 .'-]*[A-Za-z0-9.]|[A-Za-z]")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


@dataclass
class EndSection:
    """What the end of a game records."""

    evidence: Mapping[str, str] = field(default_factory=dict)               # player -> clue id
    counters: Mapping[str, Mapping[str, Sequence[int]]] = field(default_factory=dict)  # clue -> player -> values
    scores: Mapping[str, int] = field(default_factory=dict)
    winners: Sequence[str] = ()


def scalar(value: Any) -> str:
    """A YAML scalar: plain when safe, else double-quoted."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _RESERVED and "  " not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return scalar(value)


def _move(rules: Ruleset, play: Play) -> str:
    parts = [f"{scalar(play.kind)}: {scalar(play.actor)}"]
    for name, value in play.args.items():
        if value is None:
            continue
        parts.append(f"{scalar(name)}: {_flow(_named(rules, value))}")
    return "- {" + ", ".join(parts) + "}"


def _named(rules: Ruleset, value: Any) -> Any:
    """Clue ids to printed names; reveal pairs to a mapping player -> value(s)."""
    if isinstance(value, str):
        return rules.clue_name(value) if value in rules.clues else value
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, tuple) for v in value):
        out: dict[str, list[int]] = {}
        for owner, v in value:
            out.setdefault(owner, []).append(v)
        return {k: v[0] if len(v) == 1 else v for k, v in out.items()}
    if isinstance(value, (list, tuple)):
        return [_named(rules, v) for v in value]
    return value


def format_log(rules: Ruleset, players: Sequence[str], plays: Iterable[Play], *, first: str | None = None,
               rules_ref: str | None = None, variant: str | None = None, house: Sequence[str] = (),
               title: str | None = None, private_evidence: Mapping[str, str] | None = None,
               private_counters: Mapping[str, Sequence[int | None]] | None = None,
               end: EndSection | None = None) -> str:
    """The log of a game as YAML text."""
    lines = []
    if title:
        lines.append(f"title: {scalar(title)}")
    lines.append(f"rules: {scalar(rules_ref or rules.game)}")
    if variant:
        lines.append(f"variant: {scalar(variant)}")
    if house:
        lines.append(f"house: {_flow(list(house))}")
    lines.append(f"players: {_flow(list(players))}")
    if first and first != players[0]:
        lines.append(f"first: {scalar(first)}")
    if private_evidence or private_counters:
        lines.append("private:")
        if private_evidence:
            lines.append(f"  evidence: {_flow({p: rules.clue_name(c) for p, c in private_evidence.items()})}")
        if private_counters:
            lines.append(f"  counters: {_flow({p: list(v) for p, v in private_counters.items()})}")
    lines.append("moves:")
    lines.extend(_move(rules, p) for p in plays)
    if end is not None:
        lines.append("end:")
        if end.evidence:
            lines.append(f"  evidence: {_flow({p: rules.clue_name(c) for p, c in end.evidence.items()})}")
        if end.counters:
            lines.append("  counters:")
            for clue, owners in end.counters.items():
                row = {p: (v[0] if len(v) == 1 else list(v)) for p, v in owners.items()}
                lines.append(f"    {scalar(rules.clue_name(clue))}: {_flow(row)}")
        if end.scores:
            lines.append(f"  scores: {_flow(dict(end.scores))}")
        if end.winners:
            winners = list(end.winners)
            lines.append(f"  winner: {_flow(winners[0] if len(winners) == 1 else winners)}")
    return "\n".join(lines) + "\n"
