"""Rule files that load must also replay: a mutated rule file that the loader
accepts is used to check and solve real logs, and every outcome is a report
or a diagnostic — never a traceback, never a hang.  ``RULESLAWYER_FUZZ_SCALE``
multiplies the number of examples.
"""

from __future__ import annotations

import contextlib
import io

from hypothesis import given
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT, cpu_time
from .test_fuzz import LADY_ALICE, RULE_PATHS, SLOW, dump, fuzz, mutated, scratch, write  # noqa: F401

LOGS = {n: (ROOT / "examples" / "lady-alice" / f"clean-{n}p.yaml").read_text() for n in (3, 4, 5)}


def _cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue() + err.getvalue()


@fuzz(40)
@given(doc=mutated(LADY_ALICE, RULE_PATHS), players=st.sampled_from([3, 4, 5]))
def test_a_mutated_rule_file_that_loads_replays_logs(scratch, doc, players):
    rules_path = write(scratch, "replayed-rules.yaml", dump(doc))
    try:
        load_rules(str(rules_path), variant=str(players))
    except DiagnosticError:
        return  # refused when loaded: the corpus and test_fuzz cover that
    text = LOGS[players].replace("rules: lady-alice", f"rules: {rules_path.name}")
    log_path = write(scratch, "replayed-log.yaml", text)
    start = cpu_time()
    report = check_text(text, str(log_path))
    assert cpu_time() - start < SLOW
    assert report.status in (0, 1, 2, 3)
    assert report.status != 3 or [d.code for d in report.errors] == ["RL900"]
    for args in ([], ["--as", "Ann"], ["--omniscient", "--at", "3"], ["--hindsight"], ["--as", "Ann", "--others"]):
        status, out = _cli("solve", str(log_path), *args)
        assert "Traceback" not in out and status in (0, 1, 2, 3), out
        assert status != 3 or "RL900" in out, out


# -- solve, with every option, on mutated logs ---------------------------------------------------
#
# The same hostile logs and folder tree as check's fuzzing (tests/hostile/test_fuzz.py), through
# solve with every option: --as (a player or not), --at (in range or not), --omniscient,
# --explain (a card or not), --hindsight, --others, --list, --format, --allow-path.
# RULESLAWYER_FUZZ_SCALE=50 makes it 5,000 logs.

from .test_fuzz import CHECK_MEMORY, CHECK_SLOW, SECRETS, check_tree, hostile_logs, _refs  # noqa: E402,F401

SOLVE_RUNS = 60


@st.composite
def solve_options(draw, tree) -> list[str]:
    opts: list[str] = []
    if draw(st.booleans()):
        opts += ["--as", draw(st.sampled_from(["Helen", "gordon", "Ann", "Nobody", "", "x" * 300]))]
    if draw(st.booleans()):
        opts.append("--omniscient")
    if draw(st.booleans()):
        opts += ["--at", str(draw(st.sampled_from([0, 1, 3, 12, 26, 999, -1, 10 ** 30])))]
    if draw(st.booleans()):
        opts += ["--explain", draw(st.sampled_from(["compass", "Mary Kingsley", "T3", "nope", "", "7:00"]))]
    if draw(st.booleans()):
        opts.append("--hindsight")
    if draw(st.booleans()):
        opts.append("--others")
    if draw(st.booleans()):
        opts += ["--list", str(draw(st.sampled_from([0, 1, 10, 10 ** 9])))]
    opts += draw(st.sampled_from([[], ["--format", "json"]]))
    for folder in draw(st.lists(st.sampled_from([str(tree.parent), "/etc", "/proc", str(tree / "r")]), max_size=2)):
        opts += ["--allow-path", folder]
    return opts


def test_mutated_logs_through_solve_with_every_option(check_tree):
    import collections
    import json
    import resource

    tree, refs = check_tree, _refs(check_tree)
    log = tree / "fuzz-solve.yaml"
    start_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tally: collections.Counter = collections.Counter()

    @fuzz(SOLVE_RUNS)
    @given(doc=hostile_logs(refs), opts=solve_options(tree))
    def run(doc, opts) -> None:
        log.write_text(dump(doc))
        started = cpu_time()
        status, text = _cli("solve", str(log), *opts)
        took = cpu_time() - started
        tally[f"exit {status}"] += 1
        tally["slowest_cpu_ms"] = max(tally["slowest_cpu_ms"], int(took * 1000))
        assert status in (0, 1, 2), (opts, text)
        assert "Traceback" not in text and "internal error" not in text, text
        assert took < CHECK_SLOW, (opts, took)
        assert not any(secret in text for secret in SECRETS), text
        if "json" in opts and status in (0, 1):
            assert isinstance(json.loads(text), dict)
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start_kb) * 1024
        assert grown < CHECK_MEMORY, grown

    run()
    print(f"\nsolve fuzz: {dict(tally)}")
