"""Writing a game as a log, in the format :mod:`checker.log` reads.

Used to turn simulated games (and the games prove finds that refute a
property) into logs a person can read and the checker can replay.  One move per line, items by printed name;
the keys of ``private:`` and ``end:`` are the ones the rule file declares.

Strings are quoted as ``fmt`` would (:mod:`.yamltext`), so that ``fmt --check`` passes on
what is written here:

>>> scalar("7:00"), scalar("Samuel Baker"), scalar("yes"), scalar(3), scalar("3p")
('"7:00"', 'Samuel Baker', '"yes"', '3', '3p')
>>> scalar("game 1 (seed 2)"), scalar("a, b"), scalar("a, b", flow=False)
('game 1 (seed 2)', '"a, b"', 'a, b')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..spec.machine import Play
from ..spec.model import Ruleset
from .yamltext import plain_ok, quoted

__all__ = ["EndSection", "flow_text", "format_log", "move_text", "scalar"]

@dataclass
class EndSection:
    """What the end of a game records, by kind (the keys come from the rule file's ``log: end:``)."""

    zones: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)    # zone family -> player -> card(s)
    tokens: Mapping[str, Mapping[str, Sequence[int]]] = field(default_factory=dict)  # space -> player -> values
    scores: Mapping[str, int] = field(default_factory=dict)
    winners: Sequence[str] = ()


def scalar(value: Any, flow: bool = True) -> str:
    """A YAML scalar: plain when it reads back as itself, else double-quoted (``flow``: inside
    a flow collection, where a comma would end it)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return text if plain_ok(text, flow) else quoted(text)


def flow_text(value: Any) -> str:
    """A YAML value on one line, in flow style: ``{ask: Ann, cards: [a, b]}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(k)}: {flow_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow_text(v) for v in value) + "]"
    return scalar(value)


def move_text(rules: Ruleset, play: Play, unknown: bool = False) -> str:
    """One move in the log's syntax, e.g. ``{pass: Ann}`` (``unknown``: its parameters as ``?``)."""
    parts = [f"{scalar(play.kind)}: {scalar(play.actor)}"]
    for name, value in play.args.items():
        if value is None:
            continue
        parts.append(f"{scalar(name)}: {'?' if unknown else flow_text(_named(rules, value))}")
    return "{" + ", ".join(parts) + "}"


def _named(rules: Ruleset, value: Any) -> Any:
    """Item ids to printed names; reveal pairs to a mapping player -> value(s)."""
    if isinstance(value, str):
        return rules.name(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, tuple) for v in value):
        out: dict[str, list[int]] = {}
        for owner, v in value:
            out.setdefault(owner, []).append(v)
        return {k: v[0] if len(v) == 1 else v for k, v in out.items()}
    if isinstance(value, (list, tuple)):
        return [_named(rules, v) for v in value]
    return value


def _held(rules: Ruleset, held: Any) -> Any:
    """What a zone record holds, by printed names: per player, or the zone's card(s)."""
    if isinstance(held, Mapping):
        return {p: _named(rules, c) for p, c in held.items()}
    return _named(rules, held)


def _key(rules: Ruleset, section: str, kind: str, zone: str | None = None) -> str | None:
    """The log key the rules declare for a kind of record (None when they declare none)."""
    return next((r.key for r in rules.records if r.section == section and r.kind == kind
                 and (zone is None or r.zone == zone)), None)


def format_log(rules: Ruleset, players: Sequence[str], plays: Iterable[Play], *, first: str | None = None,
               rules_ref: str | None = None, variant: str | None = None, house: Sequence[str] = (),
               title: str | None = None, private_zones: Mapping[str, Mapping[str, Any]] | None = None,
               private_tokens: Mapping[str, Sequence[int | None]] | None = None,
               end: EndSection | None = None, setup: Mapping[str, Any] | None = None) -> str:
    """The log of a game as YAML text.

    ``private_zones``: zone family -> player -> card (or list of cards) they
    hold, or, for a zone nobody owns, its card (or list of cards);
    ``private_tokens``: player -> token values in the order placed;
    ``setup``: record key of the rules' ``setup:`` -> its value (player ->
    item, or the cards of a public zone).
    """
    lines = []
    if title:
        lines.append(f"title: {scalar(title, flow=False)}")
    lines.append(f"rules: {scalar(rules_ref or rules.game, flow=False)}")
    if variant:
        lines.append(f"variant: {scalar(variant, flow=False)}")
    if house:
        lines.append(f"house: {flow_text(list(house))}")
    lines.append(f"players: {flow_text(list(players))}")
    if first and first != players[0]:
        lines.append(f"first: {scalar(first, flow=False)}")
    if setup:
        lines.append("setup:")
        lines.extend(f"  {scalar(k, flow=False)}: {flow_text(_held(rules, v))}" for k, v in setup.items())
    private = [(_key(rules, "private", "zone", z), _held(rules, held)) for z, held in (private_zones or {}).items()]
    if private_tokens:
        private.append((_key(rules, "private", "token_values"), {p: list(v) for p, v in private_tokens.items()}))
    private = [(k, v) for k, v in private if k is not None and v]
    if private:
        lines.append("private:")
        lines.extend(f"  {k}: {flow_text(v)}" for k, v in private)
    lines.append("moves:" if plays else "moves: []")  # a bare "moves:" would be null
    lines.extend("- " + move_text(rules, p) for p in plays)
    if end is not None:
        lines.append("end:")
        for z, held in end.zones.items():
            key = _key(rules, "end", "zone", z)
            if key and held:
                lines.append(f"  {key}: {flow_text(_held(rules, held))}")
        key = _key(rules, "end", "tokens_shown")
        if end.tokens and key:
            lines.append(f"  {key}:")
            for space, owners in end.tokens.items():
                row = {p: (v[0] if len(v) == 1 else list(v)) for p, v in owners.items()}
                lines.append(f"    {scalar(rules.name(space), flow=False)}: {flow_text(row)}")
        key = _key(rules, "end", "scores")
        if end.scores and key:
            lines.append(f"  {key}: {flow_text(dict(end.scores))}")
        key = _key(rules, "end", "winners")
        if end.winners and key:
            winners = list(end.winners)
            lines.append(f"  {key}: {flow_text(winners[0] if len(winners) == 1 else winners)}")
    return "\n".join(lines) + "\n"
