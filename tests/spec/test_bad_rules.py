"""Bad rule files get a positioned diagnostic and exit status 2 (more in tests/hostile)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..conftest import RULES, cli



def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args)


def mutate(tmp_path: Path, old: str, new: str) -> str:
    text = (RULES / "lady-alice.yaml").read_text()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


@pytest.mark.parametrize("old,new,code", [
    ("  counters_per_space:\n    value: 4\n", "  counters_per_space:\n    valu: 4\n", "RL101"),
    ("  counters_per_space:\n    value: 4\n", "  counters_per_space:\n    value: 4\n  counters_per_space:\n    value: 4\n", "RL004"),
    ("  counters_per_space:\n    value: 4\n", "  counters_per_space:\n    value: 0\n", "RL130"),
    ("  business_cards:\n    value: 28\n", "  business_cards:\n    value: many\n", "RL102"),
    ('expr: "actor not in out"', 'expr: "actr not in out"', "RL121"),
    ('when: "not options.place_on_covered"', 'when: "not options.place_on_coverd"', "RL123"),
    ("when: \"options.repeat == 'never'\"", "when: \"options.repeat == 'nevr'\"", "RL124"),
    ("evidence_per_category:\n          value: [2, 1, 1, 1]", "evidence_per_category:\n          value: [2, 2, 1, 1]", "RL131"),
    ('id: speke, name: "John Hanning Speke"', 'id: kingsley, name: "John Hanning Speke"', "RL126"),
    ("cite: {src: rulebook, quote: \"A space cannot", "cite: {src: rulebok, quote: \"A space cannot", "RL125"),
    ('expr: "not ended"', 'expr: "not ended +"', "RL120"),
])
def test_bad_rule_file(tmp_path, old, new, code):
    path = mutate(tmp_path, old, new)
    result = run("rules", "validate", path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert f"{path}:" in result.stdout and f"error[{code}]" in result.stdout


def test_overlay_problems(tmp_path, overlay):
    unknown = overlay("parameters:\n  counters_per_spac: 2\n")
    result = run("rules", "show", "lady-alice", "--house", unknown)
    assert result.returncode == 2 and "error[RL122]" in result.stdout and "did you mean 'counters_per_space'" in result.stdout
    selfish = tmp_path / "self.yaml"
    selfish.write_text("ruleslawyer: 1\nextends: ./self.yaml\nname: self\n")
    result = run("rules", "validate", str(selfish))
    assert result.returncode == 2 and f"{selfish}:2:10: error[RL140]" in result.stdout
    missing = tmp_path / "orphan.yaml"
    missing.write_text("ruleslawyer: 1\nextends: lady-alise\nname: orphan\n")
    result = run("rules", "validate", str(missing))
    assert result.returncode == 2 and "error[RL141]" in result.stdout


def test_good_files_validate_and_show_json():
    result = run("rules", "validate", str(RULES / "lady-alice.yaml"), *map(str, sorted((RULES / "house").glob("*.yaml"))))
    assert result.returncode == 0, result.stdout
    import json

    shown = json.loads(run("rules", "show", "lady-alice", "--variant", "3p", "--format", "json").stdout)
    assert shown["name"] == "lady-alice[players=3]"
    assert shown["parameters"]["counters_per_space"]["set_by"] == "variant 3p"
    at = shown["parameters"]["counters_per_space"]["at"]
    line = int(at.split(":")[-2])
    assert "lady-alice.yaml:" in at
    assert "value: 3" in (RULES / "lady-alice.yaml").read_text().splitlines()[line - 1]


def test_graph_formats():
    mer = run("rules", "graph", "lady-alice")
    assert mer.returncode == 0 and mer.stdout.startswith("stateDiagram-v2") and "deductions --> suspicions: pass" in mer.stdout
    dot = run("rules", "graph", "lady-alice", "--format", "dot")
    assert dot.returncode == 0 and dot.stdout.startswith("digraph") and "suspicions -> deductions" in dot.stdout


def test_rules_explain_locates_the_cited_sentence():
    shown = run("rules", "explain", "lady-alice", "LA224", "--variant", "5p")
    assert shown.returncode == 0
    line = int(shown.stdout.split("000_29c1df386ffed5b0.txt:")[1].split(":")[0])
    source = (RULES / "sources" / "000_29c1df386ffed5b0.txt").read_text().splitlines()
    assert "A space cannot hold more than four counters." in source[line - 1] or \
        "a space cannot hold more counters than there are players." in source[line - 1]
    assert run("rules", "explain", "lady-alice", "no-such-rule").returncode == 2


def test_many_problems_are_capped_with_a_count(tmp_path):
    from ruleslawyer.spec.loader import MAX_DIAGNOSTICS, validate_file

    text = (RULES / "lady-alice.yaml").read_text()
    extra = "".join(f"  bogus_{i}: {{value: 1, cite: {{src: rulebook, quote: xyz}}, typo: 1}}\n" for i in range(400))
    path = tmp_path / "many.yaml"
    path.write_text(text.replace("parameters:\n", "parameters:\n" + extra, 1))
    diags = validate_file(str(path))
    assert len(diags) == MAX_DIAGNOSTICS + 1
    assert diags[-1].severity == "note" and "more problem(s)" in diags[-1].message


def test_control_characters_from_a_file_are_escaped_in_text_output(overlay):
    path = overlay("parameters:\n  \"evil\\e[2J\": 2\n")
    result = run("rules", "show", "lady-alice", "--house", path)
    assert result.returncode == 2 and "\x1b" not in result.stdout and "evil\\x1b[2J" in result.stdout


def test_explain_a_house_rule_code_with_its_overlay():
    overlay_file = str(RULES / "house" / "no-early-accusation.yaml")
    assert run("explain", "LA290").returncode == 2
    shown = run("explain", "LA290", "--rules", overlay_file)
    assert shown.returncode == 0 and "accuse/first-round-over" in shown.stdout and "house no-early-accusation" in shown.stdout
