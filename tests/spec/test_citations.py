"""Every rule of lady-alice.yaml cites a sentence that is really in the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.source import read_yaml

from ..conftest import RULES

RULE_FILE = RULES / "lady-alice.yaml"


def _norm(text: str) -> str:
    text = text.replace("’", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


def _rule_nodes(doc):
    """(path, mapping) for every node that is a rule and so needs a cite."""
    for name, node in doc["components"].items():
        yield f"components.{name}", node
    deal = doc["deal"]
    yield "deal", deal
    for name, deck in deal["decks"].items():
        for zname, zone in deck["zones"].items():
            yield f"deal.decks.{name}.zones.{zname}", zone
        for i, c in enumerate(deck.get("constraints", [])):
            yield f"deal.decks.{name}.constraints[{i}]", c
    yield "deal.solution", deal["solution"]
    yield "tokens", doc["tokens"]
    for section in ("private", "end"):
        for key, node in doc["log"][section].items():
            yield f"log.{section}.{key}", node
    for name, node in doc["parameters"].items():
        yield f"parameters.{name}", node
    for i, node in enumerate(doc["checks"]):
        yield f"checks[{i}]", node
    for name, node in doc["variants"]["list"].items():
        yield f"variants.{name}", node
        for pname, pnode in node["set"].items():
            if isinstance(pnode, dict):
                yield f"variants.{name}.{pname}", pnode
    for name, node in doc["options"].items():
        yield f"options.{name}", node
    yield "flow.start", doc["flow"]["start"]
    for name, node in doc["flow"]["phases"].items():
        yield f"flow.phases.{name}", node
    for i, node in enumerate(doc["flow"]["requires"]):
        yield f"flow.requires[{i}]", node
    for name, move in doc["moves"].items():
        yield f"moves.{name}", move
        for i, req in enumerate(move.get("requires", [])):
            yield f"moves.{name}.requires[{i}]", req
        for i, ob in enumerate(move.get("observe", [])):
            yield f"moves.{name}.observe[{i}]", ob
    for name, node in doc["functions"].items():
        yield f"functions.{name}", node
    for i, step in enumerate(doc["scoring"]["steps"]):
        yield f"scoring.steps[{i}]", step
    yield "scoring.winners", doc["scoring"]["winners"]


def _all_cites(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "cite":
                yield path, v
            else:
                yield from _all_cites(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _all_cites(v, f"{path}[{i}]")


def test_every_rule_has_a_citation():
    doc = read_yaml(RULE_FILE)
    missing = [path for path, node in _rule_nodes(doc) if "cite" not in node]
    assert missing == []
    assert len(list(_rule_nodes(doc))) > 60


def test_every_quote_is_in_its_source():
    doc = read_yaml(RULE_FILE)
    sources = {k: _norm((RULES / "sources" / v["file"]).read_text()) for k, v in doc["sources"].items()}
    cites = list(_all_cites(doc))
    assert len(cites) > 80
    wrong = [(path, c["quote"]) for path, c in cites if _norm(c["quote"]) not in sources[c["src"]]]
    assert wrong == []


def test_effects_cite_their_sentence_where_they_change_state():
    doc = read_yaml(RULE_FILE)

    def effects(items):
        for e in items or []:
            yield e
            yield from effects(e.get("do"))
            yield from effects(e.get("else"))

    uncited = [(name, e) for name, move in doc["moves"].items() for e in effects(move["effects"])
               if any(v in e for v in ("add", "remove", "place_token", "reveal_tokens", "eliminate", "end", "phase", "turn"))
               and "cite" not in e]
    assert uncited == []


def test_a_rule_without_citation_is_refused(tmp_path: Path):
    text = RULE_FILE.read_text()
    stripped = text.replace(
        '\n        cite: {src: rulebook, quote: "You cannot choose the same combination as the player who went before you."}\n'
        '      - id: never-repeat', "\n      - id: never-repeat", 1)
    assert stripped != text
    bad = tmp_path / "uncited.yaml"
    bad.write_text(stripped)
    with pytest.raises(DiagnosticError) as exc:
        load_rules(str(bad))
    diags = exc.value.diagnostics
    assert [(d.code, "cite" in d.message) for d in diags] == [("RL103", True)]
    assert diags[0].position.path == str(bad) and diags[0].position.line > 0


def test_every_ambiguity_of_design_is_an_option_with_a_default():
    rules = load_rules("lady-alice")
    expected = {"suspicion_ends_game": True, "repeat": "previous", "known_red_herrings": "business-cards",
                "cards_run_out": "leave-uncovered", "place_on_covered": False, "stack_own": True,
                "reveal": "all", "accusation_covers": True}
    assert {k: rules.options[k].default for k in expected} == expected
    assert all(rules.options[k].ambiguity for k in expected)
