"""The log format: names, positions, shapes, and what makes a log unusable."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.log import parse_log, parse_log_text
from ruleslawyer.spec.diagnostics import DiagnosticError, Position
from ruleslawyer.spec.machine import Play

from ..conftest import ROOT

HEAD = "rules: lady-alice\nplayers: [Helen, Gordon, John, Audrey]\n"


def codes_of(text: str) -> list[str]:
    with pytest.raises(DiagnosticError) as exc:
        parse_log_text(text, "t.yaml")
    return [d.code for d in exc.value.diagnostics]


def test_moves_are_plays_with_positions_and_raw_yaml():
    log, rules = parse_log_text(HEAD + "moves:\n"
                                "  - {suspect: helen, clues: [mary kingsley, WATERLOO, 17:00, a compass], smiles: 1}\n"
                                "  - {place: Gordon, clue: Kingsley, value: 2}\n"
                                "  - pass: John\n", "t.yaml")
    assert rules.canonical_name == "lady-alice[players=4]"
    (play, pos, raw), second, third = log.moves
    assert play == Play("suspect", "Helen", {"clues": ["kingsley", "waterloo-station", "5pm", "compass"], "smiles": 1})
    assert pos == Position("t.yaml", 4, 5) and raw["smiles"] == 1
    assert second.play.args == {"clue": "kingsley", "value": 2} and second.at("value") == Position("t.yaml", 5, 44)
    assert third.play == Play("pass", "John", {}) and third.position.line == 6


def test_header_defaults_and_first_player():
    log, rules = parse_log_text("rules: lady-alice\nplayers: [Ann, Ben, Cat, Dan, Eve]\nfirst: dan\n", "t.yaml")
    assert rules.canonical_name == "lady-alice[players=5]"
    assert log.header.first == "Dan" and log.header.players[0] == "Ann" and log.moves == []
    _log, rules = parse_log_text("rules: lady-alice\nvariant: 3p\nplayers: [Ann, Ben, Cat]\n", "t.yaml")
    assert rules.param("counters_per_space") == 3


def test_reveals_by_value_or_by_owner():
    log, _ = parse_log_text(HEAD + "moves:\n"
                            "  - {place: John, clue: compass, reveals: [0]}\n"
                            "  - {place: John, clue: compass, reveals: 2}\n"
                            "  - {place: John, clue: compass, reveals: {gordon: [0, 1], Helen: 2}}\n", "t.yaml")
    assert [m.play.args["reveals"] for m in log.moves] == [[0], [2], [("Gordon", 0), ("Gordon", 1), ("Helen", 2)]]


def col(line: str, text: str) -> int:
    """1-based column of ``text`` in ``line``."""
    return line.index(text) + 1


def test_private_facts_and_end():
    counters = "  counters: {compass: {John: [1, 2]}, Waterloo: {Helen: 0}}"
    log, _ = parse_log_text(HEAD + "private:\n  evidence: {Helen: Kingsley}\n  counters: {gordon: [2, null, 0]}\n"
                            "moves: []\nend:\n  evidence: {Helen: Kingsley}\n"
                            f"{counters}\n  scores: {{Helen: 3}}\n  winner: [Helen, john]\n", "t.yaml")
    (evidence,) = log.private.zones
    assert evidence.key == "evidence" and [r.value for r in evidence.cards["Helen"]] == ["kingsley"]
    assert [r.value for r in log.private.tokens["Gordon"]] == [2, None, 0]
    assert log.end.tokens == {"compass": {"John": ((1, 2), Position("t.yaml", 9, col(counters, "[1, 2]")))},
                              "waterloo-station": {"Helen": ((0,), Position("t.yaml", 9, col(counters, "0}")))}}
    assert log.end.scores["Helen"].value == 3 and log.end.winners.value == ("Helen", "John")
    assert log.end.claims() == Position("t.yaml", 10, 3)


def test_typos_get_did_you_mean_at_their_place():
    first = "  - {suspect: Helen, clues: [Mary Kingsly, Waterloo, 5pm, compas], smiles: 1}"
    place = "  - {place: John, clue: compass, valu: 1}"
    with pytest.raises(DiagnosticError) as exc:
        parse_log_text(HEAD + f"moves:\n{first}\n  - {{pass: Gordn}}\n  - {{pas: John}}\n{place}\n", "t.yaml")
    found = [(d.code, d.position.line, d.position.column, d.hint) for d in exc.value.diagnostics]
    assert found == [
        ("LG110", 4, col(first, "Mary Kingsly"), "did you mean 'Mary Kingsley'?"),
        ("LG110", 4, col(first, "compas]"), "did you mean 'compass'?"),
        ("LG111", 5, col("  - {pass: Gordn}", "Gordn"), "did you mean 'Gordon'?"),
        ("LG112", 6, 5, "did you mean 'pass'?"),
        ("LG113", 7, col(place, "valu"), "did you mean 'value'?"),
    ]


@pytest.mark.parametrize("text, codes", [
    (HEAD + "movez: []\n", ["LG101"]),
    ("rules: lady-alice\nplayers: Helen\n", ["LG102"]),
    ("players: [Helen, Gordon, John, Audrey]\n", ["LG103"]),
    (HEAD + "format: 2\n", ["LG104"]),
    (HEAD + "moves:\n  - {pass: Helen, suspect: Helen}\n", ["LG112"]),
    (HEAD + "moves:\n  - {pass: Helen, clue: compass}\n", ["LG113"]),
    ("rules: lady-alice\nplayers: [Helen, helen, John, Audrey]\n", ["LG114"]),
    ("rules: lady-alice\nvariant: 5p\nplayers: [Helen, Gordon, John, Audrey]\n", ["LG114"]),
    ("rules: lady-alice\nvariant: 7p\nplayers: [Helen, Gordon, John, Audrey]\n", ["LG115", "RL127"]),
    ("rules: no-such-game\nplayers: [Helen, Gordon, John, Audrey]\n", ["LG115", "RL001"]),
    (HEAD + "moves:\n  - {suspect: Helen, clues: kingsley, smiles: 1}\n", ["LG116"]),
    (HEAD + "moves:\n  - {place: Helen, clue: compass, value: high}\n", ["LG116"]),
    (HEAD + "moves:\n  - {place: Helen, clue: compass, reveals: {John: zero}}\n", ["LG116"]),
    (HEAD + "private:\n  evidence: {Nobody: compass}\n", ["LG111"]),
    (HEAD + "private:\n  evidence: {Helen: compass, HELEN: compass}\n", ["LG114"]),
    ("- just\n- a list\n", ["LG102"]),
    ("rules: lady-alice\nplayers: [a, b\n", ["RL003"]),
])
def test_unusable_logs(text, codes):
    assert codes_of(text) == codes


def test_rules_and_house_files_relative_to_the_log(tmp_path: Path):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "mine.yaml").write_text(
        f"ruleslawyer: 1\nextends: {ROOT / 'rules' / 'lady-alice.yaml'}\nname: mine\noptions: {{stack_own: false}}\n")
    log_file = tmp_path / "g.yaml"
    log_file.write_text("rules: lady-alice\nhouse: [house/mine.yaml]\nplayers: [Helen, Gordon, John, Audrey]\n")
    _log, rules = parse_log(str(log_file))
    assert rules.canonical_name == "lady-alice[players=4]+mine" and rules.option("stack_own") is False


def test_a_missing_file_is_a_diagnostic_not_an_exception(tmp_path: Path):
    with pytest.raises(DiagnosticError) as exc:
        parse_log(str(tmp_path / "nope.yaml"))
    assert [d.code for d in exc.value.diagnostics] == ["RL001"]
