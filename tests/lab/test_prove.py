"""prove: the shipped properties hold on the base rules, the flawed overlay is refuted,
and the counterexample is a log that check replays clean to the same state."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab.prove import load_properties, prove, state_key
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT

PROPS = ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"
FLAWED = ROOT / "examples" / "lady-alice" / "lab" / "short-of-cards.yaml"


def test_the_properties_hold_on_the_base_rules():
    rules = load_rules("lady-alice", variant="3p")
    proof = prove(rules, load_properties(str(PROPS), rules), depth=1)
    assert len(proof.results) >= 5
    assert all(r.holds for r in proof.results), [(r.prop.id, r.message) for r in proof.results]
    assert proof.states > 1


def test_the_flawed_overlay_is_refuted_and_the_counterexample_replays_to_the_same_state():
    rules = load_rules("lady-alice", variant="4p", house=[str(FLAWED)])
    proof = prove(rules, load_properties(str(PROPS), rules), depth=2, rules_ref="lady-alice", house=[str(FLAWED)])
    bad = [r for r in proof.results if not r.holds]
    assert [r.prop.id for r in bad] == ["cards-never-negative"]
    log = bad[0].counterexample
    report = check_text(log, "<counterexample>", allow=[str(ROOT)])
    assert report.status == 0, log + report.format_text()
    parsed, parsed_rules = parse_log_text(log, "<counterexample>", [str(ROOT)])
    result = replay(parsed, parsed_rules)
    assert state_key(result.state) == bad[0].key


def test_the_perfect_alibi_properties_hold_over_the_set_up():
    """At least five properties for the second game; every one holds over the set-up's moves."""
    rules = load_rules("perfect-alibi")
    props = load_properties(str(ROOT / "examples" / "perfect-alibi" / "lab" / "properties.yaml"), rules)
    assert len(props.properties) >= 5
    proof = prove(rules, props, depth=3)
    assert proof.complete and proof.states > 100
    assert all(r.holds for r in proof.results), [r.message for r in proof.results if not r.holds]


def test_scope_values_name_items_as_a_log_does(tmp_path):
    """An item parameter's scope values are names or aliases, any case (as in a log)."""
    rules = load_rules("perfect-alibi", variant="4p")
    path = tmp_path / "p.yaml"
    path.write_text("scope:\n  values: {colour: [Red, YELLOW], symbol: [clock, null], answer: [0, 1]}\n"
                    "properties:\n  - {id: a, invariant: 'true'}\n")
    spec = load_properties(str(path), rules)
    assert spec.values == {"colour": ["red", "yellow"], "symbol": ["clock", None], "answer": [0, 1]}
    for bad in ("{colour: [Purple]}", "{colour_: [Red]}"):
        path.write_text(f"scope:\n  values: {bad}\nproperties:\n  - {{id: a, invariant: 'true'}}\n")
        with pytest.raises(DiagnosticError) as err:
            load_properties(str(path), rules)
        assert err.value.diagnostics[0].code == "RL171"
