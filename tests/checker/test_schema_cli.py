"""``ruleslawyer schema``: the log schema of a resolved rule set, for editors.

Every example log is valid under the schema of its own rule set (with its
players), and the schemas reject what the log reader rejects: a move that
names no move, a misspelt parameter, an unknown name.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.logschema import rules_log_schema
from ruleslawyer.spec.source import parse_text, read_yaml

from ..conftest import ROOT, cli

EXAMPLES = ROOT / "examples" / "lady-alice"
# Logs whose mistake is the shape of a move or of the log: the schema rejects them too.
SHAPE = {"LA210", "LA211", "LA220", "LA221", "LA230"}
LOGS = sorted(EXAMPLES.glob("*.yaml")) + sorted(p for p in (EXAMPLES / "violations").glob("*.yaml")
                                                if p.stem not in SHAPE and not p.stem.startswith("LG1"))


def _schema_for(path):
    doc = read_yaml(str(path))
    log, rules = parse_log(str(path))
    return doc, rules_log_schema(rules, players=log.header.players)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_example_log_is_valid_under_its_schema(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    doc, schema = _schema_for(path.relative_to(ROOT))
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
    assert errors == [], (path, errors[:3])


@pytest.mark.parametrize("move,why", [
    ("{passes: Carol}", "names no move"),
    ("{suspect: Alice, clues: [Baker, P2, T3, O4], smile: 1}", "a misspelt parameter"),
    ("{suspect: Alice, clues: [Baker, P2, T3, O4]}", "a required parameter missing"),
    ("{place: Alice, clue: Mary Kinsley}", "an unknown clue"),
    ("{pass: Alicia}", "an unknown player"),
    ("{place: Alice, clue: compass, value: 7}", "a value no token has"),
    ("{pass: Alice, suspect: Bob}", "two moves in one"),
])
def test_the_schema_rejects_what_the_reader_rejects(move, why):
    rules = load_rules("lady-alice")
    schema = rules_log_schema(rules, players=["Alice", "Bob", "Carol", "Dave"])
    head = "rules: lady-alice\nplayers: [Alice, Bob, Carol, Dave]\nmoves:\n"
    good = parse_text(head + "  - {pass: alice}\n  - {place: BOB, clue: mary   kingsley, value: 1}\n")
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(good)) == []
    bad = parse_text(head + f"  - {move}\n")
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(bad)), why


def test_names_are_enums_with_their_aliases_for_completion():
    rules = load_rules("lady-alice")
    schema = rules_log_schema(rules, players=["Alice", "Bob", "Carol", "Dave"])
    place = next(m for m in schema["properties"]["moves"]["items"]["anyOf"] if m["title"] == "place")
    clue = place["properties"]["clue"]["anyOf"][0]["enum"]
    assert "Mary Kingsley" in clue and "Kingsley" in clue and "Waterloo" in clue
    assert place["properties"]["place"]["anyOf"][0]["enum"] == ["Alice", "Bob", "Carol", "Dave"]
    assert place["additionalProperties"] is False and place["required"] == ["place", "clue"]


def test_the_command_writes_the_schema_of_a_resolved_rule_set():
    out = cli("schema", "lady-alice", "--variant", "5p", "--house", "no-repeat",
              "--players", "Ann", "Ben", "Cat", "Dan", "Eve")
    assert out.returncode == 0, out.stderr
    schema = json.loads(out.stdout)
    assert "lady-alice[players=5]+no-repeat" in schema["title"]
    doc = read_yaml(str(EXAMPLES / "clean-5p.yaml"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc)) == []
    bad = cli("schema", "lady-alise")
    assert bad.returncode == 2 and "Traceback" not in bad.stdout + bad.stderr
