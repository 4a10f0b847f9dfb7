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

__all__ = ["LOG_HEADER", "log_schema", "move_schema", "record_schema", "sections_schema", "game_log_schemas"]

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
_PARAM_VALUES: dict[str, dict[str, Any]] = {
    "player": NAME, "item": {"type": ["string", "integer"]},
    "items": {"type": "array", "items": {"type": ["string", "integer"]}},
    "count": {"type": "integer", "minimum": 0}, "flag": {"type": "boolean"},
    "token_value": {"type": "integer", "minimum": 0},
    "token_reveals": {"oneOf": [{"type": "integer"}, {"type": "array"}, {"type": "object"}]},
}


def move_schema(move: Any) -> dict[str, Any]:
    """One move of a rule set (``spec.model.Move``): its name, the player, then its parameters."""
    props: dict[str, Any] = {move.name: {**NAME, "description": "The player who makes the move."}}
    for p in move.params:
        value = {"enum": list(p.values)} if p.type == "choice" else dict(_PARAM_VALUES.get(p.type, {}))
        if p.type == "item" and p.unknown:
            value["description"] = "? when there but not known which"
        props[p.name] = value
    required = [move.name, *(p.name for p in move.params if not p.optional and p.default is None)]
    return _obj(props, required, description=f"the move {move.name}")


def log_schema(records: Iterable[Any], title: str | None = None, moves: Iterable[Any] = ()) -> dict[str, Any]:
    """The full log schema for the records (``RecordSpec``) a rule set declares, and, given
    its moves (``spec.model.Move``), each move's parameters (published for editors; the
    checker reads moves more leniently: any case, and says what is wrong in its words)."""
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
    kinds = [move_schema(m) for m in moves]
    if kinds:
        schema["properties"]["moves"] = {"type": "array", "items": {"anyOf": kinds}}
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
        rules = load_rules(str(path))
        out[root / "examples" / path.stem / "log.schema.json"] = log_schema(
            rules.records, f"{rules.title} game log", rules.moves.values())
    return out
