"""One mistake, one error: clean logs with one slip each, and the one error each must get.

Each case takes a clean example log, makes one mutation of its text
(:mod:`tests.checker.mistakes`: a field left off, two moves swapped, a move
too many or missing, the seating reversed or rotated, a typo) and asserts
that ``check`` reports exactly one diagnostic: the expected code, on the
expected line, with the expected hint when one is clear.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text

from ..conftest import ROOT
from .mistakes import checked, mutate

LA = Path("examples") / "lady-alice"

# (log, mutation, code, line, a piece of the hint or None for no hint)
CASES = [
    # a missing field: the move still counts, what it shows is unknown
    ("clean-4p", ("drop", 5, "smiles"), "LA211", 18, None),
    ("clean-4p", ("drop", 0, "smiles"), "LA211", 12, None),
    ("clean-4p", ("drop", 25, "smiles"), "LA211", 39, None),     # the accusation that ends the game
    ("clean-4p", ("drop", 14, "clues"), "LA210", 28, None),
    ("clean-4p", ("drop", 6, "clue"), "LA220", 19, None),
    ("clean-3p", ("drop", 7, "smiles"), "LA211", 16, None),
    ("clean-3p", ("drop", 14, "smiles"), "LA211", 23, None),     # the suspicion that ends the game
    ("clean-5p", ("drop", 0, "smiles"), "LA211", 10, None),
    ("clean-5p", ("drop", 11, "clues"), "LA210", 21, None),
    # two moves the wrong way round
    ("clean-4p", ("swap", 6), "LA205", 19, "moves 7 and 8 look swapped"),
    ("clean-4p", ("swap", 11), "LA205", 24, "moves 12 and 13 look swapped"),
    ("clean-4p", ("swap", 4), "LA203", 16, "moves 5 and 6 look swapped"),
    ("clean-4p", ("swap", 20), "LA205", 34, "moves 21 and 22 look swapped"),
    ("clean-3p", ("swap", 1), "LA205", 10, "moves 2 and 3 look swapped"),
    ("clean-3p", ("swap", 6), "LA203", 15, "moves 7 and 8 look swapped"),
    ("clean-5p", ("swap", 7), "LA205", 17, "moves 8 and 9 look swapped"),
    ("clean-5p", ("swap", 10), "LA203", 20, "moves 11 and 12 look swapped"),
    # a move too many
    ("clean-4p", ("duplicate", 4), "LA203", 17, "delete this pass?"),
    ("clean-4p", ("duplicate", 1), "LA205", 14, "it repeats move 2: delete it?"),
    ("clean-4p", ("duplicate", 8), "LA205", 22, "delete this place?"),
    ("clean-4p", ("duplicate", 0), "LA203", 13, "delete this suspect?"),
    ("clean-3p", ("duplicate", 5), "LA205", 15, "delete it?"),
    ("clean-5p", ("duplicate", 9), "LA205", 20, "delete it?"),
    # a pass missing
    ("clean-4p", ("delete", 2), "LA205", 14, "{pass: John}"),
    ("clean-4p", ("delete", 13), "LA203", 27, "{pass: Gordon}"),
    ("clean-4p", ("delete", 24), "LA205", 38, "{pass: Helen}"),
    ("clean-3p", ("delete", 5), "LA205", 14, "{pass: Cat}"),
    ("clean-5p", ("delete", 9), "LA205", 19, "{pass: Eve}"),
    # the seating reversed, or rotated without first:
    ("clean-4p", ("reverse",), "LA205", 13, "the seating looks reversed: did you mean players: [Helen, Gordon, John, Audrey]?"),
    ("clean-3p", ("reverse",), "LA204", 9, "the seating looks reversed: did you mean players: [Ann, Ben, Cat]?"),
    ("clean-5p", ("reverse",), "LA204", 10, "the seating looks reversed"),
    ("clean-4p", ("nofirst-rotate", 1), "LA204", 11, "the moves start with Helen"),
    ("clean-3p", ("nofirst-rotate", 2), "LA204", 9, "did you mean players: [Ann, Ben, Cat]?"),
    ("clean-5p", ("nofirst-rotate", 3), "LA204", 10, "the moves start with Ann"),
    # typos: the log cannot be read, one diagnostic says why
    ("clean-4p", ("replace", 6, "Mary Kingsley", "Mary Kingsly"), "LG110", 19, "did you mean 'Mary Kingsley'?"),
    ("clean-4p", ("replace", 1, "pass: Gordon", "pass: Gordn"), "LG111", 13, "did you mean 'Gordon'?"),
    ("clean-4p", ("replace", 1, "pass:", "passes:"), "LG112", 13, "did you mean 'pass'?"),
    ("clean-4p", ("replace", 6, "value:", "valeu:"), "LG113", 19, "did you mean 'value'?"),
    ("clean-4p", ("replace", 5, "smiles: 2", "smiles: two"), "LG116", 18, None),
    # a wrong outcome: "her accusation is wrong" (the rulebook's example), recorded with every smile;
    # the moves after it are the evidence that the game went on
    ("rulebook-accusation", ("replace", 4, "smiles: 2}", "smiles: 4}"), "LA310", 17, None),
    # a name nothing comes close to: the move read with the values the moves after it need
    ("clean-4p", ("replace", 6, "Mary Kingsley", "Zzyzx Qwv"), "LG110", 19, None),
    ("clean-3p", ("replace", 1, "Tippu Tip", "Zzyzx Qwv"), "LG110", 10, None),   # turned up at move 4
    ("clean-5p", ("replace", 2, "Waterloo Station", "Zzyzx Qwv"), "LG110", 12, None),
    ("clean-5p", ("replace", 3, "pass: Dan", "pass: Qqq"), "LG111", 13, None),
]


# Perfect Alibi (examples/perfect-alibi/, once the game has landed): the same mutations, its own codes.
PA = Path("examples") / "perfect-alibi"
PA_CASES = [
    ('clean-4p', ('delete', 4), 'PA203', 22, 'is a move missing before this one? {choo'),
    ('clean-4p', ('delete', 0), 'PA205', 21, None),
    ('clean-4p', ('delete', 1), 'PA207', 21, 'is a move missing before this one? {draw'),
    ('clean-4p', ('delete', 36), 'PA210', 54, 'is a move missing before this one? {gues'),
    ('clean-4p', ('delete', 38), 'PA217', 56, 'is a move missing before this one? {swap'),
    ('clean-4p', ('drop', 37, 'target'), 'PA211', 55, None),
    ('clean-4p', ('drop', 8, 'asked'), 'PA214', 26, None),
    ('clean-4p', ('drop', 8, 'answer'), 'PA219', 26, None),
    ('clean-4p', ('drop', 0, 'colour'), 'RL150', 18, None),
    ('clean-4p', ('duplicate', 36), 'PA202', 55, 'it repeats move 37: delete it?'),
    ('clean-4p', ('duplicate', 4), 'PA203', 23, 'delete this choose?'),
    ('clean-4p', ('duplicate', 1), 'PA207', 22, 'delete this draw?'),
    ('clean-4p', ('duplicate', 8), 'PA210', 27, 'it repeats move 9: delete it?'),
    ('clean-4p', ('duplicate', 20), 'PA217', 39, 'delete this swap?'),
    ('clean-4p', ('reverse',), 'PA203', 22, 'the seating looks reversed: did you mean'),
    ('clean-4p', ('swap', 4), 'PA203', 22, 'moves 5 and 6 look swapped: swap them?'),
    ('clean-4p', ('swap', 0), 'PA205', 22, None),
    ('clean-4p', ('swap', 3), 'PA207', 21, 'moves 4 and 5 look swapped: swap them?'),
    ('clean-4p', ('swap', 36), 'PA210', 54, 'moves 37 and 38 look swapped: swap them?'),
    ('clean-4p', ('swap', 38), 'PA217', 56, 'moves 39 and 40 look swapped: swap them?'),
    ('rival-4p', ('delete', 4), 'PA203', 25, 'is a move missing before this one? {choo'),
    ('rival-4p', ('delete', 0), 'PA205', 24, None),
    ('rival-4p', ('delete', 1), 'PA207', 24, None),
    ('rival-4p', ('delete', 31), 'PA210', 52, None),
    ('rival-4p', ('delete', 10), 'PA217', 31, 'is a move missing before this one? {swap'),
    ('rival-4p', ('delete', 60), 'PA302', 82, None),
    ('rival-4p', ('drop', 31, 'target'), 'PA211', 52, None),
    ('rival-4p', ('drop', 8, 'asked'), 'PA214', 29, None),
    ('unforgiving-4p', ('delete', 4), 'PA203', 23, 'is a move missing before this one? {choo'),
    ('unforgiving-4p', ('delete', 3), 'PA207', 22, 'is a move missing before this one? {draw'),
    ('unforgiving-4p', ('delete', 48), 'PA210', 67, 'is a move missing before this one? {gues'),
    ('unforgiving-4p', ('delete', 65), 'PA302', 85, None),
    ('unforgiving-4p', ('drop', 56, 'target'), 'PA211', 75, None),
    ('unforgiving-4p', ('drop', 10, 'asked'), 'PA214', 29, None),
    ('unforgiving-4p', ('drop', 8, 'answer'), 'PA219', 27, None),
    ('unforgiving-4p', ('drop', 48, 'target'), 'PA241', 67, None),
    # a wrong outcome the moves after it contradict: a wrong guess recorded as right (the card is in
    # Yellow's hand), a charge of treachery over a right answer recorded as a mistake
    ('clean-3p', ('replace', 34, 'correct: false', 'correct: true'), 'PA312', 51, None),
    # a misspelt name: read as the name meant, the rest of the log checked
    ('clean-4p', ('replace', 10, 'Restaurant', 'Restaurnt'), 'LG110', 28, "did you mean 'Restaurant'?"),
    ('clean-4p', ('replace', 10, 'target: Green', 'target: Gren'), 'LG111', 28, "did you mean 'Green'?"),
    ('unforgiving-4p', ('replace', 48, 'mistake: false', 'mistake: true'), 'PA313', 67, None),
    # a name nothing comes close to
    ('clean-4p', ('replace', 10, 'target: Green', 'target: Qqq'), 'LG111', 28, None),
    ('clean-4p', ('replace', 10, 'Restaurant', 'Zzyzx'), 'LG110', 28, None),
    ('clean-5p', ('replace', 11, 'Solarium', 'Zzyzx'), 'LG110', 29, None),
    ('clean-3p', ('replace', 9, 'shown: Restaurant 12', 'shown: Zzyzx'), 'LG110', 26, None),
    # a word no choice of the rules has: read as the one meant, or the move read without it
    ('clean-4p', ('replace', 37, 'via: journalist', 'via: jurnalist'), 'LG116', 55, "did you mean 'journalist'?"),
    ('clean-3p', ('replace', 60, 'via: final', 'via: fnal'), 'LG116', 77, "did you mean 'final'?"),
    ('clean-4p', ('replace', 37, 'via: journalist', 'via: Zzyzx'), 'LG116', 55, None),
    ('clean-3p', ('replace', 21, 'via: journalist', 'via: Zzyzx'), 'LG116', 38, None),
]


CL = Path("examples") / "clue"


def _dan_accuses_in_five(text: str) -> str:
    """Lady Alice's five-player game with Dan's 24th move a wrong accusation (3 smiles: his
    clues hold Mary Kingsley, Waterloo Station and 7:00 of the evidence, not O5) instead of a
    pass; Dan is out, the game goes on as before to Cat's four smiles.  The recorded scores are
    left out (Dan's change); Ann still wins: 5 points, to at most 4 for anyone else."""
    text = mutate(text, "replace", 23, "{pass: Dan}",
                  '{accuse: Dan, clues: [Mary Kingsley, Waterloo Station, "7:00", O5], smiles: 3}')
    return "\n".join(line for line in text.splitlines() if not line.startswith("  scores:")) + "\n"


def _dan_accuses_in_clue(text: str) -> str:
    """Clue's four-player game with a wrong accusation by Dan after his last suggestion (the
    Dagger is in his own hand), before Ann's right one."""
    return mutate(text, "insert", 67, "{accuse: Dan, suspect: Mrs. White, weapon: Dagger, room: Lounge, correct: false}")


# A wrong outcome replayed as the outcome the rest of the log shows: one error, and the game
# goes on to the winner the log's end records (written by hand from the rulebooks).
# (log, its clean form from the file, move index, text, replaced by, the winners the end records)
WRONG_OUTCOMES = [
    (LA / "rulebook-accusation.yaml", None, 4, "smiles: 2}", "smiles: 4}", None),
    (LA / "clean-5p.yaml", _dan_accuses_in_five, 23, "smiles: 3}", "smiles: 4}", ("Ann",)),
    (PA / "clean-3p.yaml", None, 34, "correct: false", "correct: true", ("Blue",)),
    (PA / "unforgiving-4p.yaml", None, 48, "mistake: false", "mistake: true", ("Red",)),
    (CL / "clean-4p.yaml", _dan_accuses_in_clue, 67, "correct: false", "correct: true", ("Ann",)),
]


@pytest.mark.parametrize("path, base, index, old, new, winners", WRONG_OUTCOMES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_a_wrong_outcome_does_not_end_the_game_the_log_goes_on_with(path, base, index, old, new, winners,
                                                                       monkeypatch):
    monkeypatch.chdir(ROOT)
    text = path.read_text() if base is None else base(path.read_text())
    clean = check_text(text, str(path))
    assert not clean.errors, clean.format_text()
    report = check_text(mutate(text, "replace", index, old, new), str(path))
    assert len(report.errors) == 1, report.format_text()
    (d,) = report.errors
    assert any("replayed as" in r.message and f"move {index + 2} is legal" in r.message for r in d.related), \
        report.format_text()
    assert report.ended == clean.ended and report.next == clean.next   # who is out, whose turn
    if winners is not None:
        assert clean.score is not None and clean.score.winners == winners
        assert report.score is not None and report.score.winners == winners


def test_a_misspelt_name_does_not_stop_the_check_of_the_rest(monkeypatch):
    """A typo and, further on, a real mistake: both reported in one round, in the file's order
    (the typo's move replayed with the name meant)."""
    monkeypatch.chdir(ROOT)
    path = LA / "clean-4p.yaml"
    text = mutate(mutate(path.read_text(), "swap", 11), "replace", 6, "Mary Kingsley", "Mary Kingsly")
    report = check_text(text, str(path))
    assert [(d.code, d.position.line) for d in report.diagnostics] == [("LG110", 19), ("LA205", 24)], \
        report.format_text()
    assert not report.unusable and report.score is not None and report.score.winners == ("Gordon",)


def test_a_name_nothing_comes_close_to_is_one_error_and_the_log_checked_on(monkeypatch):
    """(More cases, both games, in test_unknown_names.py.)"""
    monkeypatch.chdir(ROOT)
    path = LA / "clean-4p.yaml"
    report = check_text(mutate(path.read_text(), "replace", 6, "Mary Kingsley", "Zzyzx Qwv"), str(path))
    assert not report.unusable and report.status == 1 and [d.code for d in report.diagnostics] == ["LG110"]


def test_a_wrong_outcome_at_the_end_of_the_log_is_replayed_as_recorded(monkeypatch):
    """With no move after it, nothing says which outcome it was: one error, the outcome kept."""
    monkeypatch.chdir(ROOT)
    path = LA / "rulebook-accusation.yaml"
    text = "\n".join(path.read_text().splitlines()[:17]) + "\n"   # up to the accusation
    report = check_text(text.replace("smiles: 2}", "smiles: 4}"), str(path))
    (d,) = report.errors
    assert d.code == "LA310" and not any("replayed as" in r.message for r in d.related)
    assert report.ended


def _id(case) -> str:  # type: ignore[no-untyped-def]
    log, op, code, *_ = case
    return f"{log}-{'-'.join(str(a) for a in op)}-{code}".replace(" ", "_")


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_one_mistake_gives_one_error(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    log, op, code, line, hint = case
    path = LA / f"{log}.yaml"
    report = checked(mutate(path.read_text(), *op), str(path))
    assert [(d.code, d.position.line) for d in report.diagnostics] == [(code, line)], report.format_text()
    (d,) = report.diagnostics
    if hint is None:
        assert d.hint is None or "did you mean" not in d.hint, d.hint
    else:
        assert d.hint is not None and hint in d.hint, report.format_text()


@pytest.mark.parametrize("case", PA_CASES, ids=[_id(c) for c in PA_CASES])
def test_one_mistake_gives_one_error_in_perfect_alibi(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    log, op, code, line, hint = case
    path = PA / f"{log}.yaml"
    report = checked(mutate(path.read_text(), *op), str(path))
    assert [(d.code, d.position.line) for d in report.diagnostics] == [(code, line)], report.format_text()
    if hint is not None:
        assert report.diagnostics[0].hint is not None and hint in report.diagnostics[0].hint, report.format_text()


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 30 and len(PA_CASES) >= 30
    assert {op[0] for _l, op, *_ in CASES} >= {"drop", "swap", "duplicate", "delete", "reverse", "nofirst-rotate",
                                               "replace"}


def test_a_missing_verdict_is_still_a_move_with_its_count_unknown(monkeypatch):
    monkeypatch.chdir(ROOT)
    path = LA / "clean-4p.yaml"
    report = check_text(mutate(path.read_text(), "drop", 5, "smiles"), str(path))
    (d,) = report.diagnostics
    assert any("smiles unknown" in r.message for r in d.related)
    assert report.score is not None and report.score.winners == ("Gordon",)


def test_every_mutation_of_the_clean_logs_gives_few_errors(monkeypatch):
    """Beyond the cases above: every swap, duplicate and dropped verdict of every clean log
    gives exactly one error (a missing move with parameters may give more)."""
    monkeypatch.chdir(ROOT)
    for log in ("clean-3p", "clean-4p", "clean-5p"):
        path = LA / f"{log}.yaml"
        text = path.read_text()
        n = sum(1 for line in text.splitlines() if line.lstrip().startswith("- {"))
        for i in range(n):
            for op in (("swap", i), ("duplicate", i), ("drop", i, "smiles")):
                try:
                    mutated = mutate(text, *op)
                except ValueError:
                    continue
                report = checked(mutated, str(path))
                assert len(report.errors) == 1, (log, op, report.format_text())
