"""Rule files written by others against the documented language keep working.

``tests/spec/data/today/`` holds copies, never edited, of the rule files,
overlays and two clean logs as they were written on 1 December 2026 (see its
README).  A change to the language keeps their spelling, or reports it with
the new one as the fix: then this test is where that is decided.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.spec.loader import load_rules, validate_file

TODAY = Path(__file__).parent / "data" / "today"
FILES = sorted(p.name for p in TODAY.glob("*.yaml") if p.name not in ("clean-4p.yaml", "rival-4p.yaml"))


def test_the_copies_are_there():
    # Two rule files and eight overlays: a glob that finds nothing would prove nothing.
    assert len(FILES) == 10 and {"lady-alice.yaml", "perfect-alibi.yaml", "no-repeat.yaml"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_written_today_validates(name):
    assert validate_file(str(TODAY / name)) == []


@pytest.mark.parametrize("variant,players,evidence", [("3p", 3, [0, 1, 1, 1]), ("4p", 4, [1, 1, 1, 1]),
                                                      ("5p", 5, [2, 1, 1, 1])])
def test_written_today_resolves_its_variants(variant, players, evidence):
    # The rulebook's numbers ("Playing with Three", "Playing with Five").
    rules = load_rules(str(TODAY / "lady-alice.yaml"), variant=variant)
    assert rules.canonical_name == f"lady-alice[players={players}]"
    assert rules.param("evidence_per_category") == evidence


@pytest.mark.parametrize("log", ["clean-4p.yaml", "rival-4p.yaml"])
def test_a_log_on_the_files_of_today_checks_clean(log):
    report = check_log(str(TODAY / log))
    assert report.status == 0, report.format_text()


def test_overlays_of_today_on_the_copy():
    rules = load_rules(str(TODAY / "lady-alice.yaml"), house=[str(TODAY / "no-repeat.yaml"),
                                                              str(TODAY / "edition-fr.yaml"),
                                                              str(TODAY / "no-early-accusation.yaml")])
    assert rules.canonical_name == "lady-alice[players=4]+no-repeat+edition-fr+no-early-accusation"
    assert rules.option("repeat") == "never" and rules.find("clues", "la boussole") == "compass"
    assert any(r.code == "LA290" for r in rules.moves["accuse"].requires)
    report = check_log(str(TODAY / "clean-4p.yaml"), house=(str(TODAY / "edition-fr.yaml"),))
    assert report.status == 0, report.format_text()
