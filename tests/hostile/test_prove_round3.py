"""Issue 25, "prove property files are read loosely": each case of the red-team round is a
file of ``corpus/prove/`` with the command it goes through, the exit status and the code it
must get and where (``corpus/prove/cases.tsv``); then the budget that bounds every search,
shown by counting the work done (moves considered, states, calls), never by the clock."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.lab import engine as lab_engine
from ruleslawyer.lab.prove import DEFAULT_BUDGET, MAX_LISTING, load_properties, prove, prove_text
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from .hostile_helpers import CORPUS, ROOT, run_cli_batch

HERE = CORPUS / "prove"
PROPS = ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"
ALIBI_PROPS = ROOT / "examples" / "perfect-alibi" / "lab" / "properties.yaml"
# The small scope of the bundled property file: two clues of each category, counters worth 1.
SCOPE = ('scope: {items: {clues: [compass, O2, P2, Waterloo Station, "7:00", "5 p.m.", Mary Kingsley, '
         'Samuel White Baker]}, values: {value: [1]}}\n')


def _cases() -> list[dict[str, str]]:
    rows = []
    for line in (HERE / "cases.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, command, status, code, where, before = line.split("\t")
        rows.append({"name": name, "argv": command.replace("$F", str(HERE / name)).split(" "),
                     "status": int(status), "code": code, "where": where, "before": before})
    return rows


def _expected_position(name: str, text: str) -> tuple[int, int]:
    """The line and column of ``text`` in the file: its first line that is not a comment."""
    for number, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.lstrip().startswith("#") and text in line:
            return number, line.index(text) + 1
    raise AssertionError(f"{text!r} is not in {name}")


CASES = _cases()


def test_every_repro_file_has_its_case():
    """Every file of the corpus folder goes through a command of cases.tsv (and the reverse)."""
    listed = {c["name"] for c in CASES}
    assert listed == {p.name for p in HERE.glob("*.yaml")}
    assert {"prop-unscoped.yaml", "prop-legal-moves-depth0.yaml", "prop-when-ignored.yaml",
            "prop-vacuous-scope.yaml", "prop-invariant-truthy.yaml"} <= listed


@pytest.fixture(scope="module")
def ran() -> dict[str, dict]:
    """Each case's command, in one child process (bounded in memory; a generous timeout)."""
    results = run_cli_batch([c["argv"] for c in CASES], timeout=900)
    return {c["name"]: r for c, r in zip(CASES, results)}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_case_gets_its_exit_status_code_and_position(case, ran):
    r = ran[case["name"]]
    out = r["output"]
    assert "Traceback" not in out and "internal error" not in out, out
    assert r["status"] == case["status"], (case, out)
    if case["code"] == "-":
        return
    path = str(HERE / case["name"])
    if case["where"] == "-":
        assert f"{path}:1:1: error[{case['code']}]" in out, out
    else:
        line, column = _expected_position(case["name"], case["where"])
        assert f"{path}:{line}:{column}: error[{case['code']}]" in out, out


def test_nothing_of_a_file_is_quoted_for_an_unknown_key_or_a_value_of_the_wrong_kind(ran):
    for name in ("prop-unknown-key.yaml", "prop-nested-says.yaml"):
        out = ran[name]["output"]
        assert "secret-word" not in out and "root:x" not in out, out
    assert "did you mean 'says'?" in _diagnose("properties: [{id: a, invariant: 'true', sayz: x}]\n", "3p")


def test_a_conditional_invariant_holds_where_its_when_does_not(ran):
    """when: false beside invariant: false: checked in no state, so it holds (it failed before)."""
    assert ran["prop-when-ignored.yaml"]["status"] == 0
    assert "a: holds" in ran["prop-when-ignored.yaml"]["output"]


def test_the_refused_search_gives_its_estimate_from_the_rules(ran):
    """Without a scope, the first player's suspicion names one clue of each of the four
    categories of eight ("It is divided into four categories, each with eight clues"):
    8^4 = 4,096 choices; its verdict is 0 to 4 smiles in 4 players (5 values) and the
    business cards cover any subset of the four clues named, or none given (2^4 + 1 = 17)."""
    estimate = 8 ** 4 * 5 * (2 ** 4 + 1)
    for name in ("prop-unscoped.yaml", "prop-legal-moves-depth0.yaml"):
        out = ran[name]["output"]
        assert f"up to {estimate:,} moves" in out and "4,096 × 5 × 17" in out, out
        assert estimate > MAX_LISTING


# -- through the library: the work counted ------------------------------------------------

def _write(tmp_path, text: str) -> str:
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _diagnose(text: str, variant: str = "4p") -> str:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.yaml"
        path.write_text(text, encoding="utf-8")
        rules = load_rules("lady-alice", variant=variant)
        with pytest.raises(DiagnosticError) as err:
            prove(rules, load_properties(str(path), rules))
    return "\n".join(d.format_text() for d in err.value.diagnostics)


def test_the_unscoped_search_is_refused_before_a_single_move_is_listed(monkeypatch, tmp_path):
    """The refusal comes from the estimate alone: the lab's listing of completions is never
    called (before, the first state's listing alone was 4,096 calls of it)."""
    calls = []
    real = lab_engine.Lab.completions
    monkeypatch.setattr(lab_engine.Lab, "completions", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    rules = load_rules("lady-alice", variant="4p")
    for name in ("prop-unscoped.yaml", "prop-legal-moves-depth0.yaml"):
        spec = load_properties(str(HERE / name), rules)
        with pytest.raises(DiagnosticError) as err:
            prove(rules, spec)
        assert err.value.diagnostics[0].code == "RL174"
    assert calls == []


def test_reading_legal_moves_in_one_state_lists_only_the_scope(tmp_path):
    """The same invariant over legal_moves at depth 0, with the bundled file's scope: the
    first state's listing tries the 2^4 = 16 suspicions of two clues per category, and
    charges them with the moves found (each a verdict and its covers)."""
    rules = load_rules("lady-alice", variant="4p")
    spec = load_properties(_write(tmp_path, "depth: 0\n" + SCOPE
                                  + "properties: [{id: a, invariant: 'len(legal_moves) > 0'}]\n"), rules)
    proof = prove(rules, spec)
    assert proof.complete and proof.states == 1 and proof.results[0].holds
    found = proof.considered - 16
    assert 0 < found <= 16 * 5 * 17  # every verdict and covers of each suspicion, at most


def test_a_search_stops_at_its_budget_and_says_how_far_every_state_was_checked():
    """The bundled file at depth 3 (797 s before) with the default budget: it stops, every
    state up to depth 1 checked (the 49 states a complete depth-1 search explores), some of
    depth 2; the properties are said to hold up to depth 1 only."""
    rules = load_rules("lady-alice", variant="4p")
    spec = load_properties(str(PROPS), rules)
    full = prove(rules, spec, depth=1)
    assert full.complete and full.considered <= DEFAULT_BUDGET
    proof = prove(rules, spec, depth=3)
    assert not proof.complete and proof.stop == "budget"
    assert proof.considered >= DEFAULT_BUDGET  # it stopped because the budget was spent
    assert proof.depth_done == 1 and sum(proof.checked[:2]) == full.states == 49
    assert 0 < proof.checked[2] < proof.found[2]
    text = prove_text(proof)
    assert "INCOMPLETE" in text and "every state up to depth 1 checked (49 states)" in text
    assert all(r.holds for r in proof.results)


def test_a_smaller_budget_explores_less():
    rules = load_rules("lady-alice", variant="4p")
    spec = load_properties(str(PROPS), rules)
    small, large = prove(rules, spec, depth=2, budget=2_000), prove(rules, spec, depth=2, budget=6_000)
    assert small.states < large.states
    assert small.considered < large.considered


def test_the_budget_is_read_from_the_file_and_checked(tmp_path):
    rules = load_rules("lady-alice", variant="4p")
    spec = load_properties(_write(tmp_path, "budget: 500\ndepth: 2\n" + SCOPE
                                  + "properties: [{id: a, invariant: 'true'}]\n"), rules)
    assert spec.budget == 500
    proof = prove(rules, spec)
    assert not proof.complete and proof.budget == 500
    for bad in ("budget: 0\n", "budget: lots\n", "budget: [1]\n"):
        assert "error[RL171]" in _diagnose(bad + "properties: [{id: a, invariant: 'true'}]\n")


def test_when_selects_the_states_an_invariant_is_checked_in(tmp_path):
    """'The phase is the suspicions' fails one move in (a suspicion opens the deductions);
    with when: the phase is the suspicions, it holds; with when: it is not, it fails with
    the same counterexample: when: chooses the states, the invariant is judged in them."""
    rules = load_rules("lady-alice", variant="4p")
    props = ("properties:\n"
             "  - {id: plain, invariant: \"phase == 'suspicions'\"}\n"
             "  - {id: where-true, when: \"phase == 'suspicions'\", invariant: \"phase == 'suspicions'\"}\n"
             "  - {id: where-false, when: \"phase != 'suspicions'\", invariant: \"phase == 'suspicions'\"}\n")
    proof = prove(rules, load_properties(_write(tmp_path, "depth: 1\n" + SCOPE + props), rules))
    plain, where_true, where_false = proof.results
    assert not plain.holds and plain.at == 1
    assert where_true.holds
    assert not where_false.holds and where_false.key == plain.key


@pytest.mark.parametrize("condition, kind", [("'x'", "a text"), ("5", "a number"), ("len(out)", "a number"),
                                             ("[]", "a list"), ("vars", "a mapping"),
                                             ("vars.business_cards", "a number"), ("none", "nothing")])
def test_a_condition_that_is_not_boolean_is_refused(condition, kind):
    text = _diagnose("depth: 0\nproperties:\n  - id: a\n    invariant: \"" + condition + "\"\n")
    assert "4:16: error[RL173]" in text and kind in text, text


def test_a_boolean_condition_of_any_form_is_accepted(tmp_path):
    rules = load_rules("lady-alice", variant="4p")
    conditions = ["true", "not ended", "vars.business_cards >= 0 and not ended", "all(p in active for p in active)",
                  "ended or turn in active", "(1 if ended else 2) > 0"]
    body = "".join(f"  - {{id: c{i}, invariant: {json.dumps(c)}}}\n" for i, c in enumerate(conditions))
    proof = prove(rules, load_properties(_write(tmp_path, "depth: 0\nproperties:\n" + body), rules))
    assert all(r.holds for r in proof.results)


def test_a_scope_that_leaves_no_legal_move_is_refused():
    """One clue in the scope: a suspicion names one clue of each of the four categories, so
    the first player (who must suspect) has no move in it, although one is legal."""
    text = _diagnose("depth: 1\nscope: {items: {clues: [compass]}}\nproperties: [{id: a, invariant: 'true'}]\n")
    assert ":2:1: error[RL171]" in text and "admits no move" in text, text


def test_an_opening_of_the_wrong_shape_is_said_where_it_is_wrong():
    text = _diagnose("opening: {moves: [], seats-of-secret: 3}\nproperties: [{id: a, invariant: 'true'}]\n", "3p")
    assert "1:22: error[RL171]: an unknown key in opening" in text and "secret" not in text, text
    text = _diagnose("opening: [pass P1]\nproperties: [{id: a, invariant: 'true'}]\n", "3p")
    assert "1:11: error[RL171]: opening[0]: a mapping is wanted here, not a text" in text, text


def test_the_module_examples_hold():
    import doctest

    from ruleslawyer.lab import propfile

    assert doctest.testmod(propfile).failed == 0


def test_within_must_be_a_number_of_moves():
    text = _diagnose("depth: 0\nproperties: [{id: a, playing: [pass], within: \"'x'\", reaches: 'true'}]\n")
    assert "error[RL171]" in text and "whole number" in text


def test_the_schema_is_published_and_the_example_files_fit_it():
    import jsonschema
    import yaml

    schema = json.loads((ROOT / "spec" / "property.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for path in (PROPS, ALIBI_PROPS):
        jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(path.read_text()))


def test_an_incomplete_search_exits_4_and_says_so_in_json():
    out = run_cli_batch([["prove", "lady-alice", "--property", str(PROPS), "--depth", "2", "--budget", "1000",
                          "--format", "json"],
                         ["prove", "lady-alice", "--property", str(PROPS), "--budget", "0"]], timeout=900)
    assert out[0]["status"] == 4, out[0]["output"]
    answer = json.loads(out[0]["output"])
    assert answer["complete"] is False and answer["stopped_by"] == "budget" and answer["budget"] == 1000
    assert answer["depth_done"] < 2 and all(p["holds"] for p in answer["properties"])
    assert out[1]["status"] == 2 and "error[RL170]" in out[1]["output"]
