"""Replaying logs: every problem reported, where, with the moves behind it."""

from __future__ import annotations

import json
import re

from ruleslawyer.checker.check import check_log, check_text

from ..conftest import ROOT

HEAD = "rules: lady-alice\nplayers: [Helen, Gordon, John, Audrey]\n"
SUSPECT = "  - {suspect: Helen, clues: [Mary Kingsley, Waterloo Station, \"7:00\", compass], smiles: 1}\n"
EXAMPLES = ROOT / "examples" / "lady-alice"


def check(body: str, strict: bool = False, head: str = HEAD):
    return check_text(head + body, "t.yaml", strict=strict)


def codes(report) -> list[str]:
    return [d.code for d in report.diagnostics]


def test_the_rulebook_examples_are_clean():
    for name in ("rulebook-deductions.yaml", "rulebook-accusation.yaml"):
        report = check_log(str(EXAMPLES / name))
        assert report.status == 0 and report.diagnostics == [], report.format_text()


def test_a_violation_does_not_stop_the_replay_but_strict_does():
    body = ("moves:\n  - {suspect: Gordon, clues: [Mary Kingsley, Waterloo Station, \"7:00\", compass], smiles: 1}\n"
            "  - {pass: John}\n  - {place: Audrey, clue: compass, value: 3}\n")
    assert codes(check(body)) == ["LA204", "LA221"]  # John's pass is in turn after Gordon's suspicion
    strict = check(body, strict=True)
    assert codes(strict) == ["LA204"] and strict.status == 1 and strict.stopped
    assert "stopped at the first error" in strict.format_text()


def test_moves_are_replayed_as_played():
    # Gordon suspects out of turn; the Deductions phase then starts with John,
    # on Gordon's left, as if the move had been legal.
    body = ("moves:\n  - {suspect: Gordon, clues: [Mary Kingsley, Waterloo Station, \"7:00\", compass], smiles: 1}\n"
            "  - {pass: John}\n  - {pass: Audrey}\n  - {pass: Helen}\n  - {pass: Gordon}\n"
            "  - {suspect: John, clues: [Baker, P2, T3, O4], smiles: 1}\n")
    assert codes(check(body)) == ["LA204"]


def test_deductions_ending_too_early_names_who_has_not_passed():
    report = check("moves:\n" + SUSPECT + "  - {pass: Gordon}\n  - {suspect: John, clues: [Baker, P2, T3, O4], smiles: 1}\n")
    (d,) = report.diagnostics
    assert d.code == "LA203" and "not yet: [Helen, John, Audrey]" in d.message


def test_deductions_going_on_after_everyone_passed():
    report = check("moves:\n" + SUSPECT + "  - {pass: Gordon}\n  - {pass: John}\n  - {pass: Audrey}\n  - {pass: Helen}\n"
                   "  - {place: Gordon, clue: compass}\n")
    assert codes(report) == ["LA203"]
    assert report.diagnostics[0].related[0].message == "the suspicions phase began here"
    assert report.diagnostics[0].related[0].position.line == 8


def test_a_passing_player_out_of_counters_may_still_pass_and_accuse():
    places = "".join(f"  - {{place: Gordon, clue: {c}}}\n  - {{pass: John}}\n  - {{pass: Audrey}}\n  - {{pass: Helen}}\n"
                     for c in ("Baker", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "T3"))
    report = check("moves:\n" + SUSPECT + places + "  - {pass: Gordon}\n  - {suspect: Gordon, clues: [Baker, P2, T3, O4], smiles: 0}\n"
                   "  - {pass: John}\n  - {pass: Audrey}\n  - {pass: Helen}\n"
                   "  - {accuse: Gordon, clues: [Speke, P5, T5, O5], smiles: 1}\n")
    assert report.status == 0, report.format_text()


def test_the_game_not_ending_when_one_player_is_left():
    body = ("moves:\n" + SUSPECT +
            "  - {accuse: Gordon, clues: [Baker, P2, T3, O4], smiles: 0}\n"
            "  - {accuse: John, clues: [Speke, P5, T5, O5], smiles: 0}\n"
            "  - {accuse: Audrey, clues: [Crowther, P6, T6, O6], smiles: 0}\n"
            "  - {pass: Helen}\n")
    report = check(body)
    assert codes(report) == ["LA301"]
    (note,) = report.diagnostics[0].related
    assert report.diagnostics[0].position.line == 7 and note.position.line == 8
    assert report.ended and report.score is None  # no evidence recorded: nothing to score with


def test_public_only_log_is_checked_as_far_as_public_facts_go():
    # No evidence recorded: two verdicts contradict each other all the same.
    body = ("moves:\n  - {suspect: Helen, clues: [Mary Kingsley, Waterloo Station, \"7:00\", compass], smiles: 0}\n"
            "  - {pass: Gordon}\n  - {pass: John}\n  - {pass: Audrey}\n  - {pass: Helen}\n"
            "  - {suspect: Gordon, clues: [Mary Kingsley, Waterloo Station, \"7:00\", O2], smiles: 3}\n")
    report = check(body)
    assert codes(report) == ["LA310"]
    (note,) = report.diagnostics[0].related
    assert note.position.line == 4 and "verdict here" in note.message


def test_verdicts_are_checked_against_private_evidence():
    head = HEAD + "private:\n  evidence: {Gordon: compass}\n"
    ok = check("moves:\n" + SUSPECT, head=head)
    assert ok.status == 0
    bad = check("moves:\n  - {suspect: Helen, clues: [Baker, P2, T3, compass], smiles: 0}\n", head=head)
    assert codes(bad) == ["LA310"]


def test_hidden_values_flagged_at_the_first_reveal_that_breaks_them():
    # Gordon placed three zeros (known to him); a reveal shows a fourth.
    head = HEAD + "private:\n  counters: {Gordon: [0, 0, 0]}\n"
    places = "".join(f"  - {{place: Gordon, clue: {c}}}\n  - {{pass: John}}\n  - {{pass: Audrey}}\n  - {{pass: Helen}}\n"
                     for c in ("Baker", "P2", "P3"))
    body = ("moves:\n" + SUSPECT + places + "  - {place: Gordon, clue: P4}\n"
            "  - {place: John, clue: P4, reveals: {Gordon: 0}}\n")
    report = check(body, head=head)
    assert codes(report) == ["LA320"] and report.diagnostics[0].position.line == 20
    assert [n.message for n in report.diagnostics[0].related] == ["Gordon's 0 placed here"] * 3 + ["Gordon's 0 revealed here"]


def test_a_private_value_contradicting_the_move():
    head = HEAD + "private:\n  counters: {Gordon: [1]}\n"
    report = check("moves:\n" + SUSPECT + "  - {place: Gordon, clue: Baker, value: 2}\n", head=head)
    assert codes(report) == ["LA321"]


def test_scores_need_every_counter_value_that_counts():
    text = (EXAMPLES / "clean-4p.yaml").read_text()
    public = re.sub(r", value: [0-2]", "", text).replace("    compass: {Audrey: 0, John: 2}\n", "")
    assert check_text(re.sub(r", value: [0-2]", "", text), str(EXAMPLES / "x.yaml")).diagnostics == []
    report = check_text(public, str(EXAMPLES / "x.yaml"))
    assert report.status == 0 and codes(report) == ["LG202"] and report.diagnostics[0].severity == "warning"
    # John's compass counter was revealed during play only if someone placed after him: it was not.
    assert "1 counter(s)" in report.diagnostics[0].message


def test_joint_winners_and_the_accusation_tie_break():
    text = (EXAMPLES / "clean-4p.yaml").read_text()
    report = check_text(text.replace("winner: Gordon", "winner: [Gordon, Helen]"), str(EXAMPLES / "x.yaml"))
    assert codes(report) == ["LA402"] and "the winner is Gordon" in report.diagnostics[0].message


def test_json_report_has_positions_and_related():
    report = check_log(str(ROOT / "examples/lady-alice/violations/LA212.yaml"))
    data = json.loads(json.dumps(report.to_json()))
    (d,) = data["diagnostics"]
    assert data["status"] == 1 and data["rules"] == "lady-alice[players=4]"
    assert d["code"] == "LA212" and d["line"] == 10 and d["severity"] == "error"
    assert d["file"].endswith("LA212.yaml") and d["related"][0]["line"] == 5


def test_unusable_input_gives_status_2_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"rules: [unclosed\n")
    report = check_log(str(bad))
    assert report.status == 2 and codes(report) == ["RL003"]
    assert check_log(str(tmp_path / "missing.yaml")).status == 2


def _count_seating_searches(monkeypatch) -> list[int]:
    """Counts the seating searches (each replays every move as played) from now on."""
    from ruleslawyer.checker.recover import Recovery

    calls: list[int] = []
    search = Recovery.seating

    def counted(self, *args, **kwargs):
        calls.append(1)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(Recovery, "seating", counted)
    return calls


def test_a_clean_log_is_replayed_once_without_a_seating_search(monkeypatch):
    # Issue 24: the seating search replayed every clean log a second time before the replay.
    calls = _count_seating_searches(monkeypatch)
    for name in ("clean-4p.yaml", "rulebook-accusation.yaml"):
        report = check_log(str(EXAMPLES / name))
        assert report.status == 0, report.format_text()
    assert calls == []


def test_a_turn_broken_looks_for_a_seating_and_starts_again_under_it(monkeypatch):
    calls = _count_seating_searches(monkeypatch)
    # examples/lady-alice/violations/LA204.yaml: Gordon opens where the log says Helen does.
    report = check_log(str(EXAMPLES / "violations" / "LA204.yaml"))
    assert codes(report) == ["LA204"] and len(calls) == 1
    assert report.diagnostics[0].hint == "the moves start with Gordon: did you mean players: [Gordon, John, Audrey, Helen]?"
    # A slip no seating explains: searched once, and the replay goes on under the log's seating.
    calls.clear()
    body = ("moves:\n  - {suspect: Gordon, clues: [Mary Kingsley, Waterloo Station, \"7:00\", compass], smiles: 1}\n"
            "  - {pass: John}\n  - {place: Audrey, clue: compass, value: 3}\n")
    assert codes(check(body)) == ["LA204", "LA221"] and len(calls) == 1
