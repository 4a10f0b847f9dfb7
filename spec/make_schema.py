"""Writes spec/rules.schema.json, house.schema.json and log.schema.json (run after editing).

The schemas are kept as Python data here so that shared pieces are written
once; the published JSON files are what editors and the loader read.
"""

from __future__ import annotations

import json
from pathlib import Path

CITE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["src", "quote"],
    "properties": {"src": {"type": "string"}, "quote": {"type": "string", "minLength": 3}},
    "description": "The rulebook sentence a rule implements: a source id and a quote from that file.",
}
EXPR = {"type": ["string", "boolean", "integer", "null"], "description": "An expression (Python expression syntax, interpreted from a whitelist)."}
ID = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.:-]*$"}
NAMES = {"type": "array", "items": {"type": "string", "minLength": 1}}
CODE = {"type": "string", "pattern": "^[A-Z]{1,4}[0-9]{3}$"}


def obj(props: dict, required: list[str] = (), **extra) -> dict:
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": props, **extra}


PARAM_VALUE = {"type": ["integer", "boolean", "array", "object"]}
PARAMETER = obj({"value": PARAM_VALUE, "min": {"type": "integer"}, "max": {"type": "integer"},
                 "cite": CITE, "doc": {"type": "string"}}, ["value", "cite"])
REQUIRE = obj({"id": ID, "when": EXPR, "expr": EXPR, "code": CODE, "message": {"type": "string"},
               "cite": CITE}, ["id", "expr", "code", "message", "cite"])
MOVE_PARAM = obj({
    "type": {"enum": ["clues", "clue", "clue_list", "count", "counter_value", "reveal_list"]},
    "size": EXPR, "max": EXPR, "distinct_categories": {"type": "boolean"},
    "optional": {"type": "boolean"}, "code": CODE, "cite": CITE}, ["type"])
EFFECT = {"$ref": "#/$defs/effect"}
EFFECT_DEF = {
    "type": "object",
    "description": "One effect: exactly one verb key (set, cover, place, reveal, eliminate, pass, clear_passes, phase, turn, end, when).",
    "additionalProperties": False,
    "properties": {
        "set": {"type": "object", "additionalProperties": EXPR},
        "cover": EXPR, "reveal": EXPR, "eliminate": EXPR, "pass": EXPR,
        "clear_passes": {"const": True}, "end": {"const": True},
        "place": obj({"clue": EXPR, "value": EXPR}, ["clue"]),
        "phase": ID, "turn": EXPR,
        "when": EXPR, "do": {"type": "array", "items": EFFECT}, "else": {"type": "array", "items": EFFECT},
        "cite": CITE,
    },
}
OPTION = obj({"values": {"type": "array", "minItems": 1, "items": {"type": ["string", "boolean", "integer"]}},
              "default": {"type": ["string", "boolean", "integer"]}, "cite": CITE,
              "ambiguity": {"type": "string"}, "doc": {"type": "string"}},
             ["values", "default", "cite"])
CLUE = obj({"id": ID, "name": {"type": "string", "minLength": 1}, "aliases": NAMES}, ["id", "name"])
CATEGORY = obj({"id": ID, "name": {"type": "string"}, "aliases": NAMES,
                "clues": {"type": "array", "minItems": 1, "items": CLUE}}, ["id", "name", "clues"])
COMPONENT = obj({"name": {"type": "string"}, "cite": CITE}, ["name", "cite"])
VARIANT_SET = {"type": "object", "additionalProperties": {
    "oneOf": [{"type": ["integer", "boolean", "array"]},
              obj({"value": PARAM_VALUE, "cite": CITE}, ["value", "cite"])]}}

# The generic checks of checker/ that a rule file may give a code (log_checks).
LOG_CHECK_KINDS = (
    "game-ends",            # a move that ends the game is followed by more moves
    "end-not-reached",      # the log records an end (scores, winner) but the game goes on
    "partial-accusation",   # an accusation of fewer clues than categories, judged correct, leaves out a dealt category
    "observations",         # a verdict no deal fits, with the recorded evidence and the verdicts before it
    "evidence-shown",       # the evidence a player shows differs from the one recorded for them
    "evidence-deal",        # the recorded evidence cannot have been dealt
    "counter-supply",       # no assignment of hidden counter values fits the supplies and the reveals
    "counter-record",       # a revealed counter value contradicts an earlier record
    "counter-reveal",       # more counter values recorded than counters turned face up
    "scores",               # a recorded score differs from the computed one
    "winners",              # the recorded winners differ from the computed ones
)

RULES = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ruleslawyer.example/spec/rules.schema.json",
    "title": "ruleslawyer rule file",
    **obj({
        "ruleslawyer": {"const": 1},
        "game": ID, "title": {"type": "string"}, "code_prefix": {"type": "string", "pattern": "^[A-Z]{1,4}$"},
        "sources": {"type": "object", "additionalProperties": obj({"file": {"type": "string"}, "title": {"type": "string"}}, ["file"])},
        "components": obj({
            "categories": obj({"cite": CITE, "list": {"type": "array", "minItems": 1, "items": CATEGORY}}, ["cite", "list"]),
            "counters": COMPONENT, "covers": COMPONENT, "verdicts": COMPONENT}, ["categories"]),
        "parameters": {"type": "object", "additionalProperties": PARAMETER},
        "checks": {"type": "array", "items": obj({"expr": EXPR, "message": {"type": "string"}, "cite": CITE}, ["expr", "message", "cite"])},
        "variants": obj({"default": {"type": "string"}, "list": {"type": "object", "minProperties": 1,
                         "additionalProperties": obj({"cite": CITE, "set": VARIANT_SET}, ["cite", "set"])}},
                        ["default", "list"]),
        "options": {"type": "object", "additionalProperties": OPTION},
        "state": {"type": "object", "additionalProperties": obj({"init": EXPR}, ["init"])},
        "flow": obj({
            "start": obj({"phase": ID, "turn": EXPR, "cite": CITE}, ["phase", "turn", "cite"]),
            "phases": {"type": "object", "minProperties": 1, "additionalProperties": obj({"cite": CITE}, ["cite"])},
            "requires": {"type": "array", "items": REQUIRE}}, ["start", "phases"]),
        "moves": {"type": "object", "minProperties": 1, "additionalProperties": obj({
            "cite": CITE,
            "params": {"type": "object", "additionalProperties": MOVE_PARAM},
            "requires": {"type": "array", "items": REQUIRE},
            "observe": obj({"fact": EXPR, "visible": {"enum": ["public", "actor"]}, "cite": CITE}, ["fact", "visible", "cite"]),
            "effects": {"type": "array", "items": EFFECT}}, ["cite", "effects"])},
        "functions": {"type": "object", "additionalProperties": obj({"args": {"type": "array", "items": ID}, "expr": EXPR, "cite": CITE}, ["args", "expr", "cite"])},
        "scoring": obj({
            "cite": CITE,
            "steps": {"type": "array", "items": obj({
                "id": ID, "show_solution": {"const": True}, "remove": EXPR, "reveal_all": {"const": True},
                "points": EXPR, "cite": CITE}, ["id", "cite"])},
            "winners": obj({"expr": EXPR, "define": {"type": "object", "additionalProperties": EXPR}, "cite": CITE}, ["expr", "cite"])},
            ["steps", "winners"]),
        "log_checks": {"type": "array", "description": "Checks of a whole game log beyond one move's requirements "
                       "(consistency, scoring): each names a generic check of the log checker and gives it "
                       "the game's code, rule and citation.",
                       "items": obj({"id": ID, "check": {"enum": list(LOG_CHECK_KINDS)}, "code": CODE,
                                     "message": {"type": "string", "minLength": 3}, "cite": CITE},
                                    ["id", "check", "code", "message", "cite"])},
    }, ["ruleslawyer", "game", "title", "code_prefix", "sources", "components", "parameters", "variants", "flow", "moves", "scoring"]),
    "$defs": {"effect": EFFECT_DEF},
}

HOUSE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ruleslawyer.example/spec/house.schema.json",
    "title": "ruleslawyer house-rule overlay",
    **obj({
        "ruleslawyer": {"const": 1},
        "extends": {"type": "string", "minLength": 1, "description": "A bundled rule set by name or a path relative to this file."},
        "name": ID,
        "title": {"type": "string"},
        "why": {"type": "string", "description": "What the house rule is for."},
        "variant": {"type": "string"},
        "parameters": {"type": "object", "additionalProperties": PARAM_VALUE},
        "options": {"type": "object", "additionalProperties": {"type": ["string", "boolean", "integer"]}},
        "aliases": {"type": "object", "additionalProperties": NAMES},
        "moves": {"type": "object", "description": "Requirements the house rule adds to moves "
                  "(an id already there replaces that requirement).",
                  "additionalProperties": obj({"requires": {"type": "array", "minItems": 1, "items": obj(
                      {"id": ID, "when": EXPR, "expr": EXPR, "code": CODE, "message": {"type": "string"},
                       "why": {"type": "string"}},
                      ["id", "expr", "code", "message"])}}, ["requires"])},
    }, ["ruleslawyer", "extends", "name"]),
}

# Game logs (checker/): the same for every game, so move names and their
# parameters are checked by the log parser against the rule file, not here.
NAME = {"type": "string", "minLength": 1}
PLAYER_MAP = {"type": "object", "additionalProperties": NAME}
VALUES = {"oneOf": [{"type": "integer", "minimum": 0},
                    {"type": "array", "items": {"type": "integer", "minimum": 0}}]}
LOG_MOVE = {
    "type": "object", "minProperties": 1,
    "description": "One move: its name as the key and the player as the value "
                   "(suspect: Helen), then its parameters (clues, smiles, clue, value, covers, reveals).",
    "additionalProperties": {"type": ["string", "integer", "array", "object"]},
}
LOG = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ruleslawyer.example/spec/log.schema.json",
    "title": "ruleslawyer game log",
    **obj({
        "format": {"const": 1, "description": "The log format version."},
        "title": {"type": "string"}, "date": {"type": "string"}, "notes": {"type": "string"},
        "rules": {**NAME, "description": "A bundled rule set by name, or a rule file in the log's folder or below (or under --allow-path)."},
        "variant": {"type": ["string", "integer"], "description": "A variant name (5p) or a number of players; default: from the players."},
        "house": {"type": "array", "items": NAME, "description": "House-rule overlays by name, or files in the log's folder or below (or under --allow-path)."},
        "players": {"type": "array", "minItems": 1, "items": NAME, "description": "The players in seating order (clockwise)."},
        "first": {**NAME, "description": "Who starts; default: the first player listed."},
        "private": obj({
            "evidence": {**PLAYER_MAP, "description": "Each player's evidence card, when known."},
            "counters": {"type": "object", "description": "Per player, the values of their counters in the order placed (null when unknown).",
                         "additionalProperties": {"type": "array", "items": {"type": ["integer", "null"], "minimum": 0}}},
        }),
        "moves": {"type": "array", "items": LOG_MOVE},
        "end": obj({
            "evidence": {**PLAYER_MAP, "description": "The evidence each player shows at the end."},
            "counters": {"type": "object", "description": "Counters turned face up at the end: clue -> player -> value(s).",
                         "additionalProperties": {"type": "object", "additionalProperties": VALUES}},
            "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
            "winner": {"oneOf": [NAME, {"type": "array", "minItems": 1, "items": NAME}]},
        }),
    }, ["rules", "players"]),
}

if __name__ == "__main__":
    here = Path(__file__).parent
    for name, schema in (("rules.schema.json", RULES), ("house.schema.json", HOUSE), ("log.schema.json", LOG)):
        (here / name).write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n")
