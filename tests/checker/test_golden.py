"""The example logs against their golden reports, and one example per code."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.codes import LOG_CODES, game_codes
from ruleslawyer.spec.loader import load_rules

from ..golden.regenerate import FIRST_GAME, GOLDEN, ROOT, example_logs, games, golden_name, golden_path, render

LOGS = example_logs()
GAMES = games()


@functools.lru_cache(maxsize=None)
def _checked(log: str):
    """``check_log`` of one example log (a path relative to the root, run from it): the tests below
    each read every example's report, the log checked once in this process."""
    return check_log(log)


@pytest.mark.parametrize("log", LOGS, ids=[golden_name(p)[:-4] for p in LOGS])
def test_report_matches_its_golden_file(log: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    golden = golden_path(log)
    assert golden.exists(), f"no golden report for {log}: run tests/golden/regenerate.py"
    assert render(log, _checked(str(log))) == golden.read_text(), \
        f"{log}: report changed; rerun tests/golden/regenerate.py and review"


def _violations(game: str) -> Path:
    return ROOT / "examples" / game / "violations"


def _codes(game: str) -> set[str]:
    """The game's own codes; the generic LG codes have their examples in the first game's folder."""
    return set(game_codes(load_rules(game))) | (set(LOG_CODES) if game == FIRST_GAME else set())


def test_the_first_game_keeps_its_golden_files_where_they_were():
    assert FIRST_GAME in GAMES and len(GAMES) >= 2
    assert all(golden_path(p).parent == GOLDEN for p in example_logs(FIRST_GAME))
    assert all(golden_path(p).parent == GOLDEN / game for game in GAMES if game != FIRST_GAME
               for p in example_logs(game))


def test_every_bundled_game_has_its_examples():
    """A game added to rules/ has an examples folder, so the tests over the games run on it."""
    assert set(GAMES) == {p.stem for p in (ROOT / "rules").glob("*.yaml")}


@pytest.mark.parametrize("game", GAMES)
def test_every_code_has_an_example_that_reports_it(game, monkeypatch):
    monkeypatch.chdir(ROOT)
    missing, silent = [], []
    for code in sorted(_codes(game)):
        log = _violations(game) / f"{code}.yaml"
        if not log.exists():
            missing.append(code)
            continue
        report = _checked(str(log.relative_to(ROOT)))
        if code not in {d.code for d in report.diagnostics}:
            silent.append(code)
    assert missing == [] and silent == []


@pytest.mark.parametrize("game", GAMES)
def test_every_example_is_named_after_a_known_code(game):
    assert {p.stem for p in _violations(game).glob("*.yaml")} <= _codes(game) | set(LOG_CODES)


def test_clean_examples_are_clean_and_violations_are_not(monkeypatch):
    monkeypatch.chdir(ROOT)
    for log in LOGS:
        report = _checked(str(log))
        errors = [d.code for d in report.errors]
        if log.parent.name == "violations":
            # A log that cannot be read is not checked (2), but a misspelt name with a "did you
            # mean" is read as the name meant and the log checked on (1).
            read_on = log.stem in ("LG110", "LG111") and "did you mean" in (report.diagnostics[0].hint or "")
            expected = 2 if log.stem.startswith("LG1") and not read_on else (0 if log.stem == "LG202" else 1)
            assert report.status == expected, (log, report.format_text())
            first = report.diagnostics[0].code
            # The example's own code comes first, except where the log has to
            # break a rule on the way (a move after the end, x201, follows the
            # game not ending when it must, x301, by design).
            assert first == log.stem or (log.stem[2:], first[2:]) == ("201", "301"), (log, errors)
        else:
            assert report.status == 0 and report.diagnostics == [], (log, report.format_text())


def test_golden_texts_use_paths_relative_to_the_repository():
    goldens = list(GOLDEN.glob("*.txt")) + list(GOLDEN.glob("*/*.txt"))
    assert len(goldens) == len(LOGS)
    for golden in goldens:
        assert str(ROOT) not in golden.read_text()
        assert re.search(r"exit status [0-3]\n$", golden.read_text())
