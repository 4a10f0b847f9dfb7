"""Hostile input to the variant lab's commands: a positioned diagnostic and exit 2,
never a traceback or a hang."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from ruleslawyer.lab.bots import BotSpecError, parse_bots

from .hostile_helpers import ROOT, assert_usage_error, run_cli_batch

PROPS = "examples/lady-alice/lab/properties.yaml"
POSITIONED = re.compile(r"^\S.*?(:\d+:\d+)?: error\[(RL17[0-2]|RL0\d\d|RL1\d\d)\]", re.MULTILINE)

BAD_PROPERTY_FILES = {
    "not-a-mapping.yaml": "- 1\n- 2\n",
    "unknown-key.yaml": "properties:\n  - {id: a, invariant: 'true'}\nextra: 1\n",
    "no-id.yaml": "properties:\n  - {invariant: 'true'}\n",
    "bad-expression.yaml": "properties:\n  - {id: a, invariant: 'vars.x >='}\n",
    "unknown-move.yaml": "properties:\n  - {id: a, when: 'true', playing: [fly], within: 2, reaches: 'ended'}\n",
    "both.yaml": "properties:\n  - {id: a, invariant: 'true', reaches: 'ended', within: 1, playing: [pass]}\n",
    "depth.yaml": "depth: 1000\nproperties:\n  - {id: a, invariant: 'true'}\n",
    "scope.yaml": "scope:\n  items: {clues: [Nobody]}\nproperties:\n  - {id: a, invariant: 'true'}\n",
    "twice.yaml": "properties:\n  - {id: a, invariant: 'true'}\n  - {id: a, invariant: 'true'}\n",
    "empty.yaml": "",
    "fails-to-run.yaml": "properties:\n  - {id: a, invariant: 'nope.x > 1'}\n",
    "too-much-work.yaml": "properties:\n  - {id: a, invariant: 'sum(range(10000000)) > 1'}\n",
    "binary.yaml": "\x00\x01\x02",
    "scope-value.yaml": "scope:\n  values: {valeu: [1]}\nproperties:\n  - {id: a, invariant: 'true'}\n",
}


def _cases(tmp_path):
    cases = [
        ["simulate", "lady-alice", "--games", "0"],
        ["simulate", "lady-alice", "--games", "2000000"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "randomm"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random,informed:hot"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random:fly=2"],
        ["simulate", "lady-alice", "--games", "2", "--bots", "random,random,random,random,random"],
        ["simulate", "lady-alice", "--games", "2", "--max-moves", "0"],
        ["simulate", "lady-alice", "--games", "2", "--workers", "0"],
        ["simulate", "lady-alice", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"],
        ["simulate", "lady-alise", "--games", "2"],
        ["simulate", "lady-alice", "--games", "2", "--house", "nowhere.yaml"],
        ["simulate", "lady-alice", "--games", "two"],
        ["compare", "lady-alice", "--games", "2"],
        ["compare", "lady-alice", "--with", "nowhere.yaml", "--games", "2"],
        ["compare", "lady-alice", "--with", "two-counters", "--games", "2", "--bots", "smart"],
        ["prove", "lady-alice", "--property", "nowhere.yaml"],
        ["prove", "lady-alice", "--property", PROPS, "--depth", "-1"],
        ["prove", "lady-alice", "--property", PROPS, "--depth", "1000"],
    ]
    for name, text in BAD_PROPERTY_FILES.items():
        path = tmp_path / name
        path.write_text(text)
        cases.append(["prove", "lady-alice", "--variant", "3p", "--property", str(path), "--depth", "0"])
    return cases


def test_bad_input_to_the_lab_commands_is_exit_2_without_a_traceback(tmp_path):
    results = run_cli_batch(_cases(tmp_path), timeout=300)
    for r in results:
        out = r["output"]
        assert r["status"] == 2, (r["argv"], r["status"], out)
        assert "Traceback" not in out and "internal error" not in out, (r["argv"], out)
        assert r["seconds"] < 60, (r["argv"], r["seconds"])
        usage = out.startswith("usage:") or "error" in out
        assert usage, (r["argv"], out)


def test_lab_diagnostics_are_positioned(tmp_path):
    argvs = [c for c in _cases(tmp_path) if not any(a in ("two", "0", "-1") for a in c)]
    for r in run_cli_batch(argvs, timeout=300):
        if r["output"].startswith("usage:"):
            continue  # argparse's own usage errors (a required option missing)
        assert POSITIONED.search(r["output"]), (r["argv"], r["output"])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_bot_specification_parses_or_is_refused(text):
    try:
        bots = parse_bots(text, 4, ["suspect", "place", "pass", "accuse"])
    except BotSpecError as exc:
        assert str(exc) and exc.column >= 0
    else:
        assert len(bots) == 4


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_lab_commands_answer_in_every_format(fmt, tmp_path):
    argvs = [["simulate", "lady-alice", "--variant", "3p", "--games", "2", "--bots", "random:accuse=0.1",
              "--format", fmt, "--max-moves", "40"],
             ["compare", "lady-alice", "--variant", "3p", "--with", "unlimited-cards", "--games", "2",
              "--max-moves", "40", "--format", fmt],
             ["prove", "lady-alice", "--variant", "3p", "--property", PROPS, "--depth", "0", "--format", fmt]]
    for r in run_cli_batch(argvs, timeout=300):
        assert r["status"] == 0, (r["argv"], r["output"])
        if fmt == "json":
            import json

            json.loads(r["output"])


_FRAGMENTS = st.sampled_from([
    "vars.business_cards >= 0", "ended or len(legal_moves) > 0", "len(", "nope.x", "1/0", "[x for x in range(10**9)]",
    "vars", "legal_moves[0].kind", "turn in active", "'a' * 3", "true", "none", "move.x", "sum(range(100000000))",
])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["invariant", "when", "reaches", "within", "playing", "says", "bogus"]),
                          _FRAGMENTS), min_size=1, max_size=4),
       st.sampled_from(["", "depth: 1\n", "depth: x\n", "scope: {items: {clues: [compass]}}\n", "scope: 3\n"]))
def test_any_property_file_is_used_or_refused(tmp_path_factory, entries, head):
    from ruleslawyer.lab.prove import load_properties, prove
    from ruleslawyer.spec.diagnostics import DiagnosticError
    from ruleslawyer.spec.loader import load_rules

    import json

    body = "\n".join(f"    {k}: {json.dumps(v if k != 'playing' else ['pass'])}" for k, v in entries)
    path = tmp_path_factory.mktemp("props") / "p.yaml"
    path.write_text(f"{head}properties:\n  - id: p\n{body}\n")
    rules = load_rules("lady-alice", variant="3p")
    try:
        spec = load_properties(str(path), rules)
        prove(rules, spec, depth=0)
    except DiagnosticError as exc:
        assert exc.diagnostics and all(d.code.startswith("RL") for d in exc.diagnostics)
