"""The example logs against their golden reports, and one example per code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.codes import LOG_CODES, game_codes
from ruleslawyer.spec.loader import load_rules

from ..golden.regenerate import GOLDEN, ROOT, example_logs, golden_name, render

LOGS = example_logs()
VIOLATIONS = ROOT / "examples" / "lady-alice" / "violations"


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_report_matches_its_golden_file(log: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    golden = GOLDEN / golden_name(log)
    assert golden.exists(), f"no golden report for {log}: run tests/golden/regenerate.py"
    assert render(log) == golden.read_text(), f"{log}: report changed; rerun tests/golden/regenerate.py and review"


def test_every_code_has_an_example_that_reports_it(monkeypatch):
    monkeypatch.chdir(ROOT)
    codes = set(game_codes(load_rules("lady-alice"))) | set(LOG_CODES)
    missing, silent = [], []
    for code in sorted(codes):
        log = VIOLATIONS / f"{code}.yaml"
        if not log.exists():
            missing.append(code)
            continue
        report = check_log(str(log.relative_to(ROOT)))
        if code not in {d.code for d in report.diagnostics}:
            silent.append(code)
    assert missing == [] and silent == []


def test_every_example_is_named_after_a_known_code():
    codes = set(game_codes(load_rules("lady-alice"))) | set(LOG_CODES)
    assert {p.stem for p in VIOLATIONS.glob("*.yaml")} <= codes


def test_clean_examples_are_clean_and_violations_are_not(monkeypatch):
    monkeypatch.chdir(ROOT)
    for log in LOGS:
        report = check_log(str(log))
        errors = [d.code for d in report.errors]
        if log.parent.name == "violations":
            expected = 2 if log.stem.startswith("LG1") else (0 if log.stem == "LG202" else 1)
            assert report.status == expected, (log, report.format_text())
            first = report.diagnostics[0].code
            # The example's own code comes first, except where the log has to
            # break a rule on the way (LA201 follows LA301 by design).
            assert first == log.stem or (log.stem, first) == ("LA201", "LA301"), (log, errors)
        else:
            assert report.status == 0 and report.diagnostics == [], (log, report.format_text())


def test_golden_texts_use_paths_relative_to_the_repository():
    for golden in GOLDEN.glob("*.txt"):
        assert str(ROOT) not in golden.read_text()
        assert re.search(r"exit status [0-3]\n$", golden.read_text())
