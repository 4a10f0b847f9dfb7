"""Bad input for Perfect Alibi: overlays of its rule file and its logs.

``corpus/alibi-house``: overlays extending ``perfect-alibi``, each with the
diagnostic it must get (``.expect``, as in the rest of the corpus), through
the library and the command line.  The bad Perfect Alibi logs are in
``corpus/logs`` (``alibi-*``), run with every other log of the corpus by
``test_corpus.py``; the rule-file keys the game brought (choices, flags,
several components, unknown items, the log's setup) are in ``corpus/rules``.
"""

from __future__ import annotations

import pytest

from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules, validate_file

from ..conftest import cpu_time
from .hostile_helpers import CORPUS, assert_usage_error, assert_well_formed, corpus_cases, expectations, rel, run_cli

CASES = corpus_cases("alibi-house")
FAST = 5.0  # CPU seconds for one case through the library (a quiet run takes well under one)


def _check(diags, case):
    assert diags, f"{case.name}: no diagnostic at all"
    assert_well_formed(diags)
    got = "\n".join(d.format_text() for d in diags)
    for e in expectations(case):
        assert any(e.matches(d, case) for d in diags), f"{case.name}: expected {e}, got:\n{got}"


def test_every_case_has_an_expectation():
    assert {p.stem for p in CASES} == {p.stem for p in (CORPUS / "alibi-house").glob("*.expect")}
    assert len(CASES) >= 10
    assert {p.stem for p in corpus_cases("logs") if p.stem.startswith("alibi-")} >= {"alibi-no-setup"}
    # a misspelt way of asking is read as the one meant, the log checked on (issue 24, LG116)
    assert "alibi-via-typo" in {p.stem for p in corpus_cases("names")}


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_through_the_library(case):
    start = cpu_time()
    _check(validate_file(str(case)), case)
    with pytest.raises(DiagnosticError) as info:
        load_rules("perfect-alibi", variant="5p", house=[str(case)])
    _check(info.value.diagnostics, case)
    assert cpu_time() - start < FAST


def test_through_the_command_line():
    out = assert_usage_error(run_cli("rules", "validate", *map(rel, CASES)))
    for case in CASES:
        for e in expectations(case):
            assert e.found_in(out, rel(case)), f"{case.name}: expected {e} in:\n{out}"
    for case in CASES[:3]:
        assert_usage_error(run_cli("rules", "show", "perfect-alibi", "--variant", "3p", "--house", rel(case)))


def test_an_edition_overlay_is_valid_and_its_names_are_read():
    edition = CORPUS / "alibi-house" / "ok-edition.yaml"
    assert validate_file(str(edition)) == []
    rules = load_rules("perfect-alibi", house=[str(edition)])
    assert rules.find("locations", "library") == "location-4" and rules.find("colours", "PURPLE") == "colour-5"
