"""Writes spec/rules.schema.json, house.schema.json and log.schema.json (run after editing).

The schemas are kept as Python data here so that shared pieces are written
once; the published JSON files are what editors and the loader read.
"""

from __future__ import annotations

import json
from pathlib import Path

try:
    from ruleslawyer.spec.checks import LOG_CHECKS
    from ruleslawyer.spec.logschema import LOG_HEADER
except ImportError:  # run as a script from a checkout without the package installed
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from checks import LOG_CHECKS  # type: ignore[no-redef]
    from logschema import LOG_HEADER  # type: ignore[no-redef]

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
WEIGHT = {**obj({"weight": {"type": "number", "minimum": 0}, "cite": CITE,
                 "choice": {"type": "string", "minLength": 3,
                            "description": "Why this weight, where the rulebook says nothing of how often."}},
                ["weight"]),
          "anyOf": [{"required": ["cite"]}, {"required": ["choice"]}],
          "description": "A weight of a random player's draw, with the rulebook sentence that says how often "
                         "(cite) or the reason for the choice (choice)."}
PARAMETER = obj({"value": PARAM_VALUE, "min": {"type": "integer"}, "max": {"type": "integer"},
                 "cite": CITE, "doc": {"type": "string"}}, ["value", "cite"])
REQUIRE = obj({"id": ID, "when": EXPR, "expr": EXPR, "code": CODE, "message": {"type": "string"},
               "cite": CITE}, ["id", "expr", "code", "message", "cite"])
PARAM_TYPES = ["item", "items", "count", "player", "token_value", "token_reveals", "choice", "flag"]
SCALAR = {"type": ["string", "boolean", "integer"]}
MOVE_PARAM = obj({
    "type": {"enum": PARAM_TYPES},
    "of": {"oneOf": [ID, {"type": "array", "minItems": 1, "items": ID}],
           "description": "The component whose items an item or items parameter names (items: or a list of "
                          "components)."},
    "one_component": {"type": "boolean", "description": "An items parameter of several components: all its items "
                      "from the same one."},
    "values": {"type": "array", "minItems": 1, "items": SCALAR, "description": "The values a choice takes."},
    "default": {**SCALAR, "description": "The value of an absent choice or flag."},
    "unknown": {"type": "boolean", "description": "An item parameter may be recorded as ? (there, not known which)."},
    "size": EXPR, "max": EXPR,
    "distinct": {**ID, "description": "An attribute no two of the items may share."},
    "optional": {"type": "boolean"}, "code": CODE, "cite": CITE,
    "decided_by": {"enum": ["mover", "outcome"],
                   "description": "Who decides the value in a simulated game: the player making the move "
                                  "(mover), or the hidden deal and the other players' obligations (outcome: "
                                  "a count, an answer, a card shown). Default: outcome for count, "
                                  "token_reveals and items without a size, mover otherwise."}}, ["type"])
EFFECT = {"$ref": "#/$defs/effect"}
EFFECT_VERBS = ("set", "add", "remove", "eliminate", "place_token", "reveal_tokens", "phase", "turn", "end", "when")
EFFECT_DEF = {
    "type": "object",
    "description": "One effect: exactly one verb key (" + ", ".join(EFFECT_VERBS) + ").",
    "additionalProperties": False,
    "properties": {
        "set": {"type": "object", "additionalProperties": EXPR, "description": "state variable -> new value"},
        "add": {"type": "object", "additionalProperties": EXPR,
                "description": "set-valued state variable -> an item or a list of items to add"},
        "remove": {"type": "object", "additionalProperties": EXPR,
                   "description": "set-valued state variable -> an item or a list of items to remove"},
        "eliminate": EXPR, "end": {"const": True},
        "place_token": obj({"space": EXPR, "value": EXPR}, ["space"]),
        "reveal_tokens": EXPR,
        "phase": ID, "turn": EXPR,
        "when": EXPR, "do": {"type": "array", "items": EFFECT}, "else": {"type": "array", "items": EFFECT},
        "cite": CITE,
    },
}
OPTION = obj({"values": {"type": "array", "minItems": 1, "items": {"type": ["string", "boolean", "integer"]}},
              "default": {"type": ["string", "boolean", "integer"]}, "cite": CITE,
              "ambiguity": {"type": "string"}, "doc": {"type": "string"}},
             ["values", "default", "cite"])
ITEM = {"type": "object", "required": ["id", "name"],
        "properties": {"id": ID, "name": {"type": "string", "minLength": 1}, "aliases": NAMES},
        "additionalProperties": {"type": "string", "description": "an attribute: the id of an item of its component"}}
COMPONENT = obj({"noun": {"type": "string", "minLength": 1, "description": "What one item is called in messages."},
                 "name": {"type": "string"}, "cite": CITE,
                 "attributes": {"type": "object", "additionalProperties": ID,
                                "description": "attribute -> the component its values are items of"},
                 "list": {"type": "array", "minItems": 1, "items": ITEM}}, ["cite"])
VARIANT_SET = {"type": "object", "additionalProperties": {
    "oneOf": [{"type": ["integer", "boolean", "array"]},
              obj({"value": PARAM_VALUE, "cite": CITE}, ["value", "cite"])]}}
ZONE = obj({"per": {"enum": ["player"]}, "size": {
    **EXPR, "description": "'rest' (what the deck's other zones leave) or an expression of the parameters, the "
    "options, the components and n_players; a per: player zone also reads seat, its owner's place in the "
    "seating order (0 for the first player listed), so hand sizes may differ by seat."}, "seen_by": {"enum": ["owner", "everyone", "nobody"]},
            "cite": CITE}, ["size", "seen_by"])
CONSTRAINT = obj({"zones": {"type": "array", "minItems": 1, "items": ID}, "count_by": ID,
                  "pattern": EXPR, "shuffled": EXPR, "cite": CITE}, ["zones", "count_by", "pattern"])
DECK = obj({"cards": ID, "when": EXPR, "cite": CITE,
            "zones": {"type": "object", "minProperties": 1, "additionalProperties": ZONE},
            "constraints": {"type": "array", "items": CONSTRAINT}}, ["cards", "zones"])
WORD = {"type": "string", "minLength": 1}
SOLUTION = obj({"zones": {"type": "array", "minItems": 1, "items": ID}, "cite": CITE,
                "noun": WORD, "observation": WORD, "sets": WORD, "certainly_in": WORD, "certainly_out": WORD,
                "per_group": WORD, "could_end": WORD, "chances": WORD, "were": WORD}, ["zones"])
DEAL = obj({"cite": CITE, "decks": {"type": "object", "minProperties": 1, "additionalProperties": DECK},
            "solution": SOLUTION}, ["decks"])
TOKENS = obj({"noun": WORD, "plural": WORD, "on": ID, "supply": EXPR, "cite": CITE}, ["noun", "on", "supply"])
RECORD = obj({"zone": ID, "shown": {"type": "boolean"}, "token_values": {"const": True},
              "tokens_shown": {"const": True}, "scores": {"const": True}, "winners": {"const": True},
              "player_item": ID, "distinct": {"type": "boolean"},
              "cite": CITE}, [], description="What one key of the log records: the cards of a player's zone "
              "(zone: FAMILY), token values in the order placed (token_values), tokens turned up at the end "
              "(tokens_shown), scores or winners; in setup:, one item of a component per player "
              "(player_item: COMPONENT, distinct: no two the same).")
OBSERVATION = obj({"fact": EXPR, "seen_by": EXPR, "when": EXPR, "says": {"type": "string"}, "cite": CITE,
                   "check": {**ID, "description": "The log check (an id of log_checks:, of kind observations) "
                             "that reports a clash of this fact; default: the first of kind observations."},
                   "withdraws": {**EXPR, "description": "The number of an earlier move (1-based) whose facts this "
                                 "observation takes back, shown to be a mistake."},
                   "chosen_among": {**EXPR, "description": "What was seen is one of k equally likely choices of "
                                    "a player, k a count of cards in the deal (none: not weighed); chances then "
                                    "weigh each world by 1/k. Example: \"count(hand(actor), vars.asking['cards']) "
                                    "if options.shown_card == 'uniform' else none\"."}},
                  ["fact", "seen_by", "cite"])

# The generic checks of checker/ that a rule file may give a code (log_checks).
LOG_CHECK_KINDS = tuple(LOG_CHECKS)

RULES = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ruleslawyer.example/spec/rules.schema.json",
    "title": "ruleslawyer rule file",
    **obj({
        "ruleslawyer": {"const": 1},
        "game": ID, "title": {"type": "string"}, "code_prefix": {"type": "string", "pattern": "^[A-Z]{1,4}$"},
        "sources": {"type": "object", "additionalProperties": obj({"file": {"type": "string"}, "title": {"type": "string"}}, ["file"])},
        "components": {"type": "object", "minProperties": 1, "additionalProperties": COMPONENT},
        "parameters": {"type": "object", "additionalProperties": PARAMETER},
        "checks": {"type": "array", "items": obj({"expr": EXPR, "message": {"type": "string"}, "cite": CITE}, ["expr", "message", "cite"])},
        "variants": obj({"default": {"type": "string"}, "list": {"type": "object", "minProperties": 1,
                         "additionalProperties": obj({"cite": CITE, "set": VARIANT_SET}, ["cite", "set"])}},
                        ["default", "list"]),
        "options": {"type": "object", "additionalProperties": OPTION},
        "deal": DEAL,
        "tokens": TOKENS,
        "state": {"type": "object", "additionalProperties": obj({"init": EXPR, "added": {"type": "string"},
                                                                 "label": {"type": "string", "minLength": 1}}, ["init"])},
        "flow": obj({
            "start": obj({"phase": ID, "turn": EXPR, "cite": CITE}, ["phase", "turn", "cite"]),
            "phases": {"type": "object", "minProperties": 1, "additionalProperties": obj({"cite": CITE}, ["cite"])},
            "requires": {"type": "array", "items": REQUIRE}}, ["start", "phases"]),
        "moves": {"type": "object", "minProperties": 1, "additionalProperties": obj({
            "cite": CITE,
            "params": {"type": "object", "additionalProperties": MOVE_PARAM},
            "requires": {"type": "array", "items": REQUIRE},
            "observe": {"type": "array", "items": OBSERVATION},
            "claims": {**EXPR, "description": "A fact about the hidden deal the move asserts (e.g. naming "
                       "the solution): solve --hindsight grades it as certain, a gamble or impossible when made."},
            "due": {**EXPR, "description": "The player the rules oblige to make this move now (none: nobody), "
                    "e.g. a tile drawn at the end of a turn. A simulated game makes a due move before any "
                    "other; a log may still leave it out (the checker does not require it)."},
            "effects": {"type": "array", "items": EFFECT}}, ["cite", "effects"])},
        "functions": {"type": "object", "additionalProperties": obj({"args": {"type": "array", "items": ID}, "expr": EXPR, "cite": CITE}, ["args", "expr", "cite"])},
        "scoring": obj({
            "cite": CITE,
            "steps": {"type": "array", "items": obj({
                "id": ID, "show_solution": {"const": True}, "remove": EXPR, "reveal_all": {"const": True},
                "points": EXPR, "cite": CITE}, ["id", "cite"])},
            "winners": obj({"expr": EXPR, "define": {"type": "object", "additionalProperties": EXPR}, "cite": CITE}, ["expr", "cite"])},
            ["winners"]),
        "log": obj({"setup": {"type": "object", "additionalProperties": RECORD},
                    "private": {"type": "object", "additionalProperties": RECORD},
                    "end": {"type": "object", "additionalProperties": RECORD}},
                   description="What a game log may record beyond its moves (its setup:, private: and end: keys)."),
        "play": obj({"random": obj({
            "kinds": {"type": "object", "description": "A weight per move kind (default 1).",
                      "additionalProperties": WEIGHT},
            "values": {"type": "object", "description": "Per move kind, per mover's parameter (a choice, a flag, "
                       "an item), a weight per value (default 1).",
                       "additionalProperties": {"type": "object", "additionalProperties": {
                           "type": "object", "additionalProperties": WEIGHT}}}})},
            description="How a random player plays (spec/playweights.py): weights of move kinds and of "
                        "parameter values, each cited or said to be a choice; --bots random:... overrides them."),
        "log_checks": {"type": "array", "description": "Checks of a whole game log beyond one move's requirements "
                       "(consistency, scoring): each names a generic check of the log checker and gives it "
                       "the game's code, rule and citation.",
                       "items": obj({"id": ID, "check": {"enum": list(LOG_CHECK_KINDS)}, "code": CODE,
                                     "message": {"type": "string", "minLength": 3}, "cite": CITE},
                                    ["id", "check", "code", "message", "cite"])},
    }, ["ruleslawyer", "game", "title", "code_prefix", "sources", "components", "parameters", "variants", "flow", "moves"]),
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
        "names": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1},
                  "description": "item id -> the name printed for it (the name printed before stays an alias)."},
        "change": {
            "type": "object", "additionalProperties": False,
            "description": "A part of a rule file, merged into the base before it is built: a mapping merges "
                           "key by key, any other value (a list too) replaces the base's, '$remove: [KEY, ...]' "
                           "removes keys of a mapping, and a list is edited with '$remove: [ID, ...]' and "
                           "'$add: [ITEM, ...]' (an item with the id of one there replaces it). The result is "
                           "validated as a rule file.",
            "properties": {**{k: {} for k in RULES["properties"] if k not in ("ruleslawyer", "game")},
                           "$remove": {"type": "array", "items": {"type": "string"}}}},
        "moves": {"type": "object", "description": "Requirements the house rule adds to moves "
                  "(an id already there replaces that requirement).",
                  "additionalProperties": obj({"requires": {"type": "array", "minItems": 1, "items": obj(
                      {"id": ID, "when": EXPR, "expr": EXPR, "code": CODE, "message": {"type": "string"},
                       "why": {"type": "string"}},
                      ["id", "expr", "code", "message"])}}, ["requires"])},
    }, ["ruleslawyer", "extends", "name"]),
}

# Game logs: the header is the same for every game (spec/log.schema.json);
# what private: and end: may hold, and the moves, follow each rule file
# (spec/logschema.py builds a log schema per resolved rule set).
LOG = LOG_HEADER

if __name__ == "__main__":
    here = Path(__file__).parent
    for name, schema in (("rules.schema.json", RULES), ("house.schema.json", HOUSE), ("log.schema.json", LOG)):
        (here / name).write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n")
    # Each bundled game's full log schema, beside its example logs (for editors).
    from ruleslawyer.spec.logschema import game_log_schemas

    for path, schema in game_log_schemas(here.parent).items():
        path.write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n")
