"""Every rule of every bundled rule file cites a sentence that is really in its rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.source import read_yaml

from ..conftest import RULES

RULE_FILE = RULES / "lady-alice.yaml"
#: Every bundled rule file (overlays excluded), and the least each must cite.
RULE_FILES = sorted(p for p in RULES.glob("*.yaml") if "extends" not in read_yaml(p))
AT_LEAST = {"lady-alice.yaml": (60, 80), "clue.yaml": (40, 60)}  # Clue is a smaller game


def _norm(text: str) -> str:
    text = text.replace("’", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


def _rule_nodes(doc):
    """(path, mapping) for every node that is a rule and so needs a cite (the sections a file has)."""
    for name, node in doc["components"].items():
        yield f"components.{name}", node
    deal = doc.get("deal")
    if deal is not None:
        yield "deal", deal
        for name, deck in deal["decks"].items():
            for zname, zone in deck["zones"].items():
                yield f"deal.decks.{name}.zones.{zname}", zone
            for i, c in enumerate(deck.get("constraints", [])):
                yield f"deal.decks.{name}.constraints[{i}]", c
        yield "deal.solution", deal["solution"]
    if "tokens" in doc:
        yield "tokens", doc["tokens"]
    for section in ("setup", "private", "end"):
        for key, node in (doc.get("log") or {}).get(section, {}).items():
            yield f"log.{section}.{key}", node
    for name, node in doc["parameters"].items():
        yield f"parameters.{name}", node
    for i, node in enumerate(doc.get("checks", [])):
        yield f"checks[{i}]", node
    for name, node in doc["variants"]["list"].items():
        yield f"variants.{name}", node
        for pname, pnode in node["set"].items():
            if isinstance(pnode, dict):
                yield f"variants.{name}.{pname}", pnode
    for name, node in doc.get("options", {}).items():
        yield f"options.{name}", node
    yield "flow.start", doc["flow"]["start"]
    for name, node in doc["flow"]["phases"].items():
        yield f"flow.phases.{name}", node
    for i, node in enumerate(doc["flow"].get("requires", [])):
        yield f"flow.requires[{i}]", node
    for name, move in doc["moves"].items():
        yield f"moves.{name}", move
        for i, req in enumerate(move.get("requires", [])):
            yield f"moves.{name}.requires[{i}]", req
        for i, ob in enumerate(move.get("observe", [])):
            yield f"moves.{name}.observe[{i}]", ob
    for name, node in doc.get("functions", {}).items():
        yield f"functions.{name}", node
    if "scoring" in doc:
        for i, step in enumerate(doc["scoring"].get("steps", [])):
            yield f"scoring.steps[{i}]", step
        yield "scoring.winners", doc["scoring"]["winners"]
    for i, node in enumerate(doc.get("log_checks", [])):
        yield f"log_checks[{i}]", node


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


@pytest.mark.parametrize("rule_file", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_every_rule_has_a_citation(rule_file):
    doc = read_yaml(rule_file)
    missing = [path for path, node in _rule_nodes(doc) if "cite" not in node]
    assert missing == []
    assert len(list(_rule_nodes(doc))) > AT_LEAST.get(rule_file.name, (60, 80))[0]


@pytest.mark.parametrize("rule_file", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_every_quote_is_in_its_source(rule_file):
    doc = read_yaml(rule_file)
    sources = {k: _norm((RULES / "sources" / v["file"]).read_text()) for k, v in doc["sources"].items()}
    cites = list(_all_cites(doc))
    assert len(cites) > AT_LEAST.get(rule_file.name, (60, 80))[1]
    wrong = [(path, c["quote"]) for path, c in cites if _norm(c["quote"]) not in sources[c["src"]]]
    assert wrong == []


@pytest.mark.parametrize("rule_file", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_effects_cite_their_sentence_where_they_change_state(rule_file):
    doc = read_yaml(rule_file)

    def effects(items):
        for e in items or []:
            yield e
            yield from effects(e.get("do"))
            yield from effects(e.get("else"))

    uncited = [(name, e) for name, move in doc["moves"].items() for e in effects(move["effects"])
               if any(v in e for v in ("add", "remove", "place_token", "reveal_tokens", "eliminate", "end", "phase", "turn"))
               and "cite" not in e]
    assert uncited == []


def test_the_bundled_rule_files_are_the_games():
    """Each rule file of rules/ is a game named after its file, listed in the README's games."""
    readme = (RULES.parent / "README.md").read_text()
    games = readme[readme.index("Games:"):].split("\n\n")[0]
    assert len(RULE_FILES) >= 3
    for path in RULE_FILES:
        doc = read_yaml(path)
        assert doc["game"] == path.stem
        assert str(doc["title"]) in games, f"{path.stem}: not in the README's games"


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


def test_every_ambiguity_of_the_perfect_alibi_digest_is_an_option_or_said_why_not():
    """A1-A23 of ../shared/perfect-alibi-digest.md: an option names each one it models; the
    others are said in the rule file's comments (structure, the solver's probabilities, note sheets)."""
    rules = load_rules("perfect-alibi")
    named = {o.ambiguity.split(".")[0] for o in rules.options.values() if o.ambiguity}
    # A19: the lie direction is the option lie_direction (its alternative, a uniform choice); which
    # card is shown stays a free choice, said in the comments
    assert named == {f"A{n}" for n in (3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20, 22, 23)}
    text = (RULES / "perfect-alibi.yaml").read_text()
    for other in ("A1", "A2", "A4", "A15", "A18", "A19", "A21"):
        assert f"({other}" in text, other


def test_every_ambiguity_of_design_is_an_option_with_a_default():
    rules = load_rules("lady-alice")
    expected = {"suspicion_ends_game": True, "repeat": "previous", "known_red_herrings": "business-cards",
                "cards_run_out": "leave-uncovered", "place_on_covered": False, "stack_own": True,
                "reveal": "all", "accusation_covers": True}
    assert {k: rules.options[k].default for k in expected} == expected
    assert all(rules.options[k].ambiguity for k in expected)
