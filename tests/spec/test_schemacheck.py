"""The quick schema check (spec/schemacheck.py) against jsonschema, the reference.

A log or rule file the quick check calls valid is never validated by
jsonschema on a command's way (issue 24: jsonschema's import is a sixth of a
``check``), so its "surely valid" must be jsonschema's "valid".  The
documents: every example log, rule file and overlay as written, then mutated
at random (a key dropped, a value replaced by another JSON value, a key
added, a list emptied); and random JSON documents.  Where the quick check
gives an answer (True or False) it must be jsonschema's; where it cannot tell
(None) the command asks jsonschema, which is always right.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.spec.loader import _schema_data, load_rules, schema_diagnostics, schema_errors
from ruleslawyer.spec.logschema import sections_schema
from ruleslawyer.spec.schemacheck import decide, surely_valid
from ruleslawyer.spec.source import parse_text

from ..conftest import ROOT

LOGS = sorted(p for p in (ROOT / "examples").rglob("*.yaml") if "rules:" in p.read_text(errors="replace")
              and "lab" not in p.parts)
RULE_FILES = sorted((ROOT / "rules").glob("*.yaml"))
OVERLAYS = sorted((ROOT / "rules" / "house").glob("*.yaml"))


def _plain(doc):
    """The document as plain JSON values (what a mutation builds on)."""
    return json.loads(json.dumps(doc, default=str))


def _docs(paths):
    out = []
    for p in paths:
        try:
            out.append((p, parse_text(p.read_text(), str(p))))
        except Exception:  # a log written to be unreadable: not a document to validate
            continue
    return out


def _schemas():
    """(name, schema, documents): the bundled schemas and each game's sections schema."""
    logs = _docs(LOGS)
    out = [("log.schema.json", _schema_data("log.schema.json"), [d for _p, d in logs]),
           ("rules.schema.json", _schema_data("rules.schema.json"), [d for _p, d in _docs(RULE_FILES)]),
           ("house.schema.json", _schema_data("house.schema.json"), [d for _p, d in _docs(OVERLAYS)])]
    for rule_file in RULE_FILES:
        records = tuple(load_rules(str(rule_file)).records)
        mine = [d for p, d in logs if isinstance(d, dict) and d.get("rules") == rule_file.stem]
        out.append((f"sections of {rule_file.stem}", sections_schema(records), mine))
    return out


SCHEMAS = _schemas()


def _agrees(doc, schema) -> None:
    truth = jsonschema.Draft202012Validator(schema).is_valid(doc)
    quick = decide(doc, schema, schema)
    assert quick is None or quick == truth, (quick, truth, json.dumps(doc, default=str)[:400])


def test_every_bundled_document_is_surely_valid_without_jsonschema():
    # the happy path: every example log, rule file and overlay passes the quick check
    # (else the command would import jsonschema after all)
    for name, schema, docs in SCHEMAS:
        assert docs, name
        for doc in docs:
            truth = jsonschema.Draft202012Validator(schema).is_valid(doc)
            assert surely_valid(doc, schema) == truth, name
    assert sum(len(d) for _n, _s, d in SCHEMAS) > 30


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.text(max_size=3)
                    | st.sampled_from(["", "Ann", "5p", "pass", "final", "1"]),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
                        st.sampled_from(["rules", "players", "moves", "ask", "name", "extends", "x", "value"]),
                        kids, max_size=3), max_leaves=12)


def _paths(doc, here=()):
    yield here
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*here, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*here, i))


@st.composite
def _mutated(draw):
    name, schema, docs = draw(st.sampled_from(SCHEMAS))
    doc = _plain(draw(st.sampled_from(docs)))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        where = draw(st.sampled_from(paths))
        if not where:
            continue
        parent = doc
        for k in where[:-1]:
            parent = parent[k]
        key = where[-1]
        how = draw(st.sampled_from(["drop", "replace", "add", "empty", "wrap", "number"]))
        if how == "drop":
            del parent[key]
        elif how == "replace":
            parent[key] = draw(JSON)
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "nam", "via", "moves"]))] = draw(JSON)
        elif how == "empty":
            parent[key] = type(parent[key])() if isinstance(parent[key], (list, dict, str)) else None
        elif how == "wrap":
            parent[key] = [parent[key]]
        elif how == "number":
            parent[key] = draw(st.sampled_from([0, -1, 1.0, 2.5, True, "0"]))
    return name, schema, doc


@settings(max_examples=400)
@given(_mutated())
def test_mutated_documents_get_jsonschemas_answer(case):
    _name, schema, doc = case
    _agrees(doc, schema)


@settings(max_examples=300)
@given(st.sampled_from(SCHEMAS), JSON)
def test_random_documents_get_jsonschemas_answer(schema_case, doc):
    _agrees(doc, schema_case[1])


@pytest.mark.parametrize("doc", [{"rules": "lady-alice", "players": ["Ann"], "format": 1.0},
                                 {"rules": "lady-alice", "players": ["Ann"], "format": True},
                                 {"rules": "lady-alice", "players": ["Ann"], 3: "x"},
                                 {"rules": "lady-alice", "players": [""]}])
def test_what_the_quick_check_cannot_tell_is_left_to_jsonschema(doc):
    # 1.0 is an integer and True is not 1 for jsonschema; a key that is not a string: its own way.
    schema = _schema_data("log.schema.json")
    assert not surely_valid(doc, schema)
    expected = not jsonschema.Draft202012Validator(schema).is_valid(doc)
    assert bool(schema_diagnostics(doc, "log.schema.json")) == expected
    assert bool(schema_errors(doc, schema)) == expected
