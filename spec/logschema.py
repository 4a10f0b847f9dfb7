"""The JSON Schema of a game log, generated for one resolved rule set.

The header (rules, variant, house, players, first) is the same for every
game; what ``setup:``, ``private:`` and ``end:`` may hold is declared by the
rule file (``log:``), so their schema is built from it.  ``setup:`` is the
public set-up of the table (an item for each player, the cards dealt face
up); a rule file that declares ``player_item`` records in it makes them
required.  ``spec/log.schema.json`` is the header schema alone (the three
sections left open), which is what a log is checked against before its
rules are known.

>>> LOG_HEADER["required"]
['rules', 'players']
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

__all__ = ["LOG_HEADER", "log_schema", "record_schema", "sections_schema", "game_log_schemas",
           "rules_log_schema", "names_schema"]

NAME = {"type": "string", "minLength": 1}
PLAYER_MAP = {"type": "object", "additionalProperties": NAME}
VALUES = {"oneOf": [{"type": "integer", "minimum": 0},
                    {"type": "array", "items": {"type": "integer", "minimum": 0}}]}
LOG_MOVE = {
    "type": "object", "minProperties": 1,
    "description": "One move: its name as the key and the player as the value, then its parameters.",
    "additionalProperties": {"type": ["string", "integer", "boolean", "array", "object"]},
}


def _obj(props: dict[str, Any], required: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": props, **extra}


LOG_HEADER: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ruleslawyer.example/spec/log.schema.json",
    "title": "ruleslawyer game log",
    **_obj({
        "format": {"const": 1, "description": "The log format version."},
        "title": {"type": "string"}, "date": {"type": "string"}, "notes": {"type": "string"},
        "rules": {**NAME, "description": "A bundled rule set by name, or a rule file in the log's folder or below (or under --allow-path)."},
        "variant": {"type": ["string", "integer"], "description": "A variant name (5p) or a number of players; default: from the players."},
        "house": {"type": "array", "items": NAME, "description": "House-rule overlays by name, or files in the log's folder or below (or under --allow-path)."},
        "players": {"type": "array", "minItems": 1, "items": NAME, "description": "The players in seating order (clockwise)."},
        "first": {**NAME, "description": "Who starts; default: the first player listed."},
        "setup": {"type": "object", "description": "The public set-up of the table (declared by the rule file's log: section)."},
        "private": {"type": "object", "description": "What single players know (declared by the rule file's log: section)."},
        "moves": {"type": "array", "items": LOG_MOVE},
        "end": {"type": "object", "description": "The end of the game (declared by the rule file's log: section)."},
    }, ["rules", "players"]),
}


def record_schema(kind: str, section: str, per_player: bool = True) -> dict[str, Any]:
    """The schema of one ``setup:``, ``private:`` or ``end:`` key of a kind (see ``spec.model.RecordSpec``)."""
    cards = {"oneOf": [NAME, {"type": "array", "items": NAME}]}
    if kind == "player_item":
        return {"type": "object", "description": "Per player, one item (every player listed).",
                "additionalProperties": NAME}
    if kind == "zone" and per_player:
        return {"type": "object", "description": "Per player, the card (or list of cards) in their zone.",
                "additionalProperties": cards}
    if kind == "zone":
        return {**cards, "description": "The card (or list of cards) in the zone."}
    if kind == "token_values":
        return {"type": "object", "description": "Per player, the values of their tokens in the order placed (null when unknown).",
                "additionalProperties": {"type": "array", "items": {"type": ["integer", "null"], "minimum": 0}}}
    if kind == "tokens_shown":
        return {"type": "object", "description": "Tokens turned face up at the end: space -> player -> value(s).",
                "additionalProperties": {"type": "object", "additionalProperties": VALUES}}
    if kind == "scores":
        return {"type": "object", "additionalProperties": {"type": "integer"}}
    if kind == "winners":
        return {"oneOf": [NAME, {"type": "array", "minItems": 1, "items": NAME}]}
    raise ValueError(f"unknown record kind {kind!r}")


def _sections(records: Iterable[Any]) -> dict[str, dict[str, Any]]:
    sections: dict[str, dict[str, Any]] = {"setup": {}, "private": {}, "end": {}}
    for r in records:
        sections[r.section][r.key] = record_schema(r.kind, r.section, r.per_player)
    return sections


def _required(records: Iterable[Any]) -> list[str]:
    """The ``setup:`` keys every log must give."""
    return [r.key for r in records if r.section == "setup" and r.kind == "player_item"]


def _section(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return _obj(props, required if name == "setup" else (), description=LOG_HEADER["properties"][name]["description"])


def sections_schema(records: Iterable[Any]) -> dict[str, Any]:
    """Only what the rule file declares: ``setup:``, ``private:`` and ``end:`` (the header is :data:`LOG_HEADER`'s)."""
    records = list(records)
    required = _required(records)
    props = {name: _section(name, p, required) for name, p in _sections(records).items()}
    return {"type": "object", "properties": props, "required": ["setup"] if required else []}


#: What a log writes for a move parameter of each type (names are strings: any alias, any case).
def log_schema(records: Iterable[Any], title: str | None = None) -> dict[str, Any]:
    """The log schema for the records (``RecordSpec``) a rule set declares (the moves
    open; :func:`rules_log_schema` adds each move's parameters for editors)."""
    schema = copy.deepcopy(LOG_HEADER)
    schema.pop("$id", None)
    if title:
        schema["title"] = title
    records = list(records)
    required = _required(records)
    for name, props in _sections(records).items():
        schema["properties"][name] = _section(name, props, required)
    if required:
        schema["required"] = [*schema["required"], "setup"]
    return schema


# -- the full schema of one resolved rule set (``ruleslawyer schema``) --------------------


def _folded_pattern(names: Iterable[str]) -> str:
    """A regex matching any of the names as the log reader does: any case, any spacing."""
    import re

    def one(name: str) -> str:
        out = []
        for ch in " ".join(name.split()):
            if ch == " ":
                out.append(r"\s+")
            elif ch.lower() != ch.upper():
                out.append(f"[{re.escape(ch.lower())}{re.escape(ch.upper())}]" if len(ch.upper()) == 1 else re.escape(ch))
            else:
                out.append(re.escape(ch))
        return "".join(out)

    alts = sorted({one(n) for n in names if str(n).strip()}, key=lambda a: (-len(a), a))
    return r"^\s*(?:" + "|".join(alts) + r")\s*$"


def names_schema(names: Iterable[str], description: str | None = None) -> dict[str, Any]:
    """A name as printed or by an alias: the names as an enum (what an editor completes),
    and any case and spacing of them (what the log reader accepts)."""
    listed = list(dict.fromkeys(str(n) for n in names))
    out: dict[str, Any] = {"anyOf": [{"enum": listed}, {"type": "string", "pattern": _folded_pattern(listed)}]}
    if description:
        out["description"] = description
    return out


def rules_log_schema(rules: Any, players: Iterable[str] | None = None) -> dict[str, Any]:
    """The JSON Schema of a log of one resolved rule set (a :class:`spec.model.Ruleset`):
    every move a subschema of its own with its parameters, the items it names and, when
    ``players`` are given, the players' names as enums (aliases and any case accepted).
    """
    from .env import static_env

    env = static_env(rules)
    schema = log_schema(rules.records, title=f"{rules.canonical_name} game log")
    schema["$schema"] = LOG_HEADER["$schema"]
    players = list(players) if players else None
    player = names_schema(players, "A player, as listed in players:") if players else \
        {**NAME, "description": "A player, as listed in players:"}

    def items_of(component: str, *more: str) -> dict[str, Any]:
        comps = [rules.components[c] for c in dict.fromkeys((component, *more)) if c in rules.components]
        names = [n for comp in comps for i in comp.items for n in (rules.items[i].name, *rules.items[i].aliases)]
        nouns = " or ".join(comp.noun for comp in comps)
        return names_schema(names, f"A {nouns}, as printed or by an alias.")

    def of(p: Any) -> tuple[str, ...]:
        """Every component an item parameter may name (several for some ``items``)."""
        return tuple(getattr(p, "components", ()) or ()) or (p.of,)

    def static(expr: Any) -> Any:
        try:
            return expr.run(env) if expr is not None else None
        except Exception:  # noqa: BLE001 - depends on the game's state: no bound in the schema
            return None

    supply: list[int] = []
    if rules.tokens is not None:
        raw = static(rules.tokens.supply)
        supply = sorted(int(v) for v in dict(raw)) if raw else []

    def param_schema(p: Any) -> dict[str, Any]:
        if p.type == "items":
            out: dict[str, Any] = {"type": "array", "items": items_of(*of(p))}
            size = static(p.size)
            if isinstance(size, int) and not isinstance(size, bool):
                out.update(minItems=size, maxItems=size)
            return out
        if p.type == "item":
            one = items_of(*of(p))
            if getattr(p, "unknown", False):  # "?" where the item is there but not known
                one = {"anyOf": [*one["anyOf"], {"const": "?"}], "description": one.get("description", "")}
            return one
        if p.type == "choice" and getattr(p, "values", None):
            return {"enum": list(p.values)}
        if p.type == "flag":
            return {"type": "boolean"}
        if p.type == "count":
            out = {"type": "integer", "minimum": 0}
            # a bound read from the game's parameters or options differs by variant: the checker
            # holds the log to its own, the schema (one for every variant) to none
            top = static(p.max) if p.max is not None and not p.max.names & {"params", "options"} else None
            if isinstance(top, int) and not isinstance(top, bool):
                out["maximum"] = top
            return out
        if p.type == "token_value":
            return {"enum": supply} if supply else {"type": "integer", "minimum": 0}
        if p.type == "token_reveals":
            value = {"enum": supply} if supply else {"type": "integer", "minimum": 0}
            many = {"oneOf": [value, {"type": "array", "items": value}]}
            by_player: dict[str, Any] = {"type": "object", "additionalProperties": many}
            if players:
                by_player["propertyNames"] = player
            return {"oneOf": [value, {"type": "array", "items": value}, by_player],
                    "description": "The values turned face up: a list, or each player's value(s)."}
        if p.type == "player":
            return player
        return {}

    moves = []
    for m in rules.moves.values():
        props = {m.name: {**player, "description": f"{m.name}: the player who makes the move"}}
        for p in m.params:
            props[p.name] = {**param_schema(p), **({"description": f"{p.name} ({'optional' if p.optional else 'required'})"}
                                                   if "description" not in param_schema(p) else {})}
        moves.append({"type": "object", "title": m.name, "description": m.cite.quote if m.cite else m.name,
                      "required": [m.name, *(p.name for p in m.params
                                             if not p.optional and getattr(p, "default", None) is None)],
                      "properties": props, "additionalProperties": False})
    schema["properties"]["moves"] = {"type": "array", "items": {"anyOf": moves},
                                     "description": "The moves in order, one per line: {move: player, parameter: value}."}
    if players:
        schema["properties"]["players"] = {"type": "array", "minItems": len(players), "maxItems": len(players),
                                           "items": player, "description": "The players in seating order (clockwise)."}
        schema["properties"]["first"] = {**player, "description": "Who starts; default: the first player listed."}

    for section in ("private", "end"):
        props = schema["properties"][section]["properties"]
        for r in rules.records:
            if r.section != section:
                continue
            if r.kind == "zone":
                deck = rules.deal.deck_of_family(r.zone) if rules.deal is not None else None
                card = items_of(deck.cards) if deck is not None else NAME
                cards = {"oneOf": [card, {"type": "array", "items": card}]}
                props[r.key] = ({"type": "object", "additionalProperties": cards,
                                 **({"propertyNames": player} if players else {})} if r.per_player else cards)
            elif r.kind == "tokens_shown" and rules.tokens is not None:
                value = {"enum": supply} if supply else {"type": "integer", "minimum": 0}
                row: dict[str, Any] = {"type": "object",
                                       "additionalProperties": {"oneOf": [value, {"type": "array", "items": value}]}}
                if players:
                    row["propertyNames"] = player
                props[r.key] = {"type": "object", "propertyNames": items_of(rules.tokens.on), "additionalProperties": row}
            elif r.kind in ("scores", "token_values") and players:
                props[r.key] = {**props[r.key], "propertyNames": player}
            elif r.kind == "winners" and players:
                props[r.key] = {"oneOf": [player, {"type": "array", "minItems": 1, "items": player}]}
    return schema


def game_log_schemas(root: Any) -> dict[Any, dict[str, Any]]:
    """``examples/<game>/log.schema.json`` -> the full log schema of each bundled game
    that has a folder of examples under ``root`` (written by ``spec/make_schema.py``)."""
    from .loader import load_rules, rules_dir
    from .source import read_yaml

    out = {}
    for path in sorted(rules_dir().glob("*.yaml")):
        doc = read_yaml(path)
        if "extends" in doc or not (root / "examples" / path.stem).is_dir():
            continue
        out[root / "examples" / path.stem / "log.schema.json"] = rules_log_schema(load_rules(str(path)))
    return out
