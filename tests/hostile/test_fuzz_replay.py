"""Rule files that load must also replay: a mutated rule file that the loader
accepts is used to check and solve real logs, and every outcome is a report
or a diagnostic — never a traceback, never a hang.  ``RULESLAWYER_FUZZ_SCALE``
multiplies the number of examples.
"""

from __future__ import annotations

import contextlib
import io
import time

from hypothesis import given
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT
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
    start = time.perf_counter()
    report = check_text(text, str(log_path))
    assert time.perf_counter() - start < SLOW
    assert report.status in (0, 1, 2, 3)
    assert report.status != 3 or [d.code for d in report.errors] == ["RL900"]
    for args in ([], ["--as", "Ann"], ["--omniscient", "--at", "3"], ["--hindsight"]):
        status, out = _cli("solve", str(log_path), *args)
        assert "Traceback" not in out and status in (0, 1, 2, 3), out
        assert status != 3 or "RL900" in out, out
