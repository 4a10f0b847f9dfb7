"""Code registry, explanations, published log schema and the modules' doctests."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

from ruleslawyer.checker.codes import LOG_CODES, explain, game_codes
from ruleslawyer.checker.rulecodes import log_checks
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT

MODULES = ["checker.log", "checker.names", "checker.ledger", "checker.consistency", "checker.replay",
           "checker.context", "checker.observed", "checker.tokens", "checker.ending",
           "checker.report", "checker.check", "checker.codes", "checker.rulecodes", "checker.writer",
           "checker.blame", "spec.scoring", "spec.facts", "spec.dealmodel", "spec.deal", "spec.env",
           "spec.machine", "spec.names", "spec.checks", "spec.logschema", "spec.expr", "spec.exprgen",
           "checker.textout", "checker.nextmoves", "checker.recover", "checker.fmt", "checker.fmtlayout",
           "checker.typed", "checker.yamltext", "checker.interrupts", "checker.logedit", "checker.table",
           "checker.sheet", "checker.comments", "checker.reportgraph", "checker.htmlreport", "solver.entropy",
           "solver.zones", "solver.zonetable", "solver.smallsets", "checker.witness"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"ruleslawyer.{name}")
    failed, _attempted = doctest.testmod(module)
    assert failed == 0


@pytest.mark.parametrize("game", sorted(p.stem for p in (ROOT / "rules").glob("*.yaml")))
def test_every_code_is_explained_with_its_rule_and_example(game):
    rules = load_rules(game)
    for code in sorted(game_codes(rules)):
        text = explain(code)
        assert text is not None and "Cites:" in text and "\u201c" in text, code
        assert f"violations/{code}.yaml" in text, code
    for code in LOG_CODES:
        assert explain(code.lower()).startswith(code)
    assert explain("LA999") is None and explain("XY123") is None


def test_log_checks_are_declared_once_each_under_the_game_prefix():
    rules = load_rules("lady-alice")
    checks = log_checks(rules)
    codes = [c.code for c in checks.values()]
    assert len(set(codes)) == len(codes) and all(c.startswith(rules.code_prefix) for c in codes)
    from ruleslawyer.spec import make_schema

    assert set(checks) == set(make_schema.LOG_CHECK_KINDS)
    replay_source = "".join((ROOT / "checker" / f).read_text() for f in ("observed.py", "tokens.py", "ending.py", "replay.py"))
    assert all(f'"{kind}"' in replay_source for kind in make_schema.LOG_CHECK_KINDS)


def test_published_log_schema_is_up_to_date():
    from ruleslawyer.spec import make_schema

    assert json.loads((ROOT / "spec" / "log.schema.json").read_text()) == json.loads(json.dumps(make_schema.LOG))
