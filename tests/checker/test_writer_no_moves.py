"""A game with no move is written as ``moves: []``, never ``moves:`` (null, LG102): issue 22."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.writer import format_log
from ruleslawyer.spec.loader import load_rules, rules_dir

GAMES = sorted(p.stem for p in Path(rules_dir()).glob("*.yaml"))


@pytest.mark.parametrize("game", GAMES)
def test_a_log_without_moves_checks(game):
    rules = load_rules(game)
    players = [f"P{i + 1}" for i in range(rules.param("players"))]
    text = format_log(rules, players, [], variant=rules.variant)
    assert "moves: []" in text
    report = check_text(text, f"<{game}>")
    assert "LG102" not in report.format_text(), text + report.format_text()
