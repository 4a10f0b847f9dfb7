"""``check --fix`` and ``--diff``: the single-mistake corpus mended by the edits its diagnostics carry.

Every single-mistake log of the corpus (the mutations of :mod:`tests.checker.test_one_mistake` and
the logs of ``examples/*/violations/``) either has a sure fix, and then checks clean once it is
made, or is listed below with the reason it has none, and then no edit is made.  The expectation
is the clean log itself: a fixed mutation must give back the clean example byte for byte when the
mutation was a swap, a deletion or a respelling (a mutation's inverse, written by hand).
"""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.cli import main
from ruleslawyer.checker.logfix import fix_text

from ..conftest import ROOT
from .mistakes import checked, mutate
from .test_one_mistake import CASES, PA_CASES, _id

LA = Path("examples") / "lady-alice"
PA = Path("examples") / "perfect-alibi"

# Why a case has no sure fix (by the mutation's kind, or by the case).
LEFT_OFF = "a value left off: which value it was is a guess (the replay goes on with it unknown)"
MISSING_WITH_VALUES = "the missing move takes parameters: which values is a guess"
NO_READING = "no reading of the move is clearly the likeliest: no hint, no edit"
WRONG_OUTCOME = ("a wrong count of smiles: the replay goes on with the nearest count the moves after it fit, "
                 "but more than one count fits them")
NOT_A_NAME = "not a number, and no number is near it ('two' is a word, not a typo)"
PASS_OR_ELSE = "the move missing before the accusation may be Helen's pass, place or accusation (all fit)"
NOTHING_NEAR = ("a name nothing comes close to (no 'did you mean'): the replay reads past it with a reading the "
                "moves after it fit, a guess, not an edit")

NO_SURE_FIX = {
    **{_id(c): LEFT_OFF for c in CASES + PA_CASES if c[1][0] == "drop"},
    **{_id(c): MISSING_WITH_VALUES for c in PA_CASES
       if c[1][0] == "delete" and c[4] is not None and "is a move missing" in c[4]},
    **{_id(c): NO_READING for c in PA_CASES if c[1][0] in ("delete", "swap") and c[4] is None},
    **{_id(c): WRONG_OUTCOME for c in CASES if c[2] == "LA310"},
    **{_id(c): NOTHING_NEAR for c in CASES + PA_CASES
       if c[1][0] == "replace" and ("Zzyzx" in c[1][3] or c[1][3].endswith("Qqq"))},
    _id(("clean-4p", ("replace", 5, "smiles: 2", "smiles: two"), "LG116", 18, None)): NOT_A_NAME,
    _id(("clean-4p", ("delete", 24), "LA205", 38, "{pass: Helen}")): PASS_OR_ELSE,
}

# Fixed into a clean log other than the one mutated (it checks clean all the same).
OTHER_CLEAN_LOG = {
    # Yellow's clock drawn twice: the draw one too many is read as the fifth (a clock again), the
    # draws then in another order, which the rules cannot tell from the first
    _id(("clean-4p", ("duplicate", 1), "PA207", 22, "delete this draw?")),
}

# The logs of examples/*/violations/ whose one mistake has a sure fix (each read by hand: a move
# too many, two moves the wrong way round, a missing move without parameters, a misspelt name).
FIXED_VIOLATIONS = {
    "clue/CL202": "delete move 5", "clue/CL212": "insert {cannot: Cat} before move 3",
    "lady-alice/LA202": "delete move 8",
    "lady-alice/LG110": "respell as 'Mary Kingsley'", "lady-alice/LG111": "respell as 'Gordon'",
    "lady-alice/LG112": "respell as 'suspect'", "lady-alice/LG113": "respell as 'value'",
    "perfect-alibi/PA202": "delete move 7", "perfect-alibi/PA203": "swap moves 1 and 2",
    "perfect-alibi/PA206": "delete move 3", "perfect-alibi/PA209": "delete move 3",
}
# The others: the mistake is the move itself (a rule it breaks, a wrong verdict or score, a
# header or file that cannot be read): no edit of the log is sure, each stays a diagnostic.
VIOLATION_REASON = "the move itself breaks a rule (or the file cannot be read): no edit of the log is sure"


def _inverse(op: tuple) -> bool:
    """Whether fixing the mutation gives back the clean log byte for byte."""
    return op[0] in ("swap", "duplicate", "delete", "replace", "reverse")


@pytest.mark.parametrize("case", CASES + PA_CASES, ids=[_id(c) for c in CASES + PA_CASES])
def test_every_single_mistake_with_a_sure_fix_checks_clean_once_fixed(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    log, op, code, _line, _hint = case
    path = (LA if case in CASES else PA) / f"{log}.yaml"
    clean = path.read_text()
    text = mutate(clean, *op)
    report = checked(text, str(path))  # the report test_one_mistake reads too
    fixed = fix_text(text, str(path), report.diagnostics)
    if _id(case) in NO_SURE_FIX:
        assert not fixed.made and not fixed.changed and report.diagnostics[0].fix is None, fixed.to_json()
        return
    assert [d.code for d in fixed.made] == [code] and not fixed.not_made
    after = check_text(fixed.formatted.after, str(path))
    assert after.status == 0 and not after.diagnostics, after.format_text()
    if _inverse(op) and op[0] != "reverse" and _id(case) not in OTHER_CLEAN_LOG:
        assert fixed.formatted.after == clean


def test_the_reversed_seating_is_written_back_as_the_clean_log_has_it(monkeypatch):
    monkeypatch.chdir(ROOT)
    path = LA / "clean-3p.yaml"
    clean = path.read_text()
    text = mutate(clean, "reverse")
    fixed = fix_text(text, str(path), check_text(text, str(path)).diagnostics)
    assert fixed.formatted.after == clean
    (d,) = fixed.made
    assert d.fix is not None and d.fix.to_json() == {"action": "seat", "players": ["Ann", "Ben", "Cat"]}


def test_most_of_the_corpus_has_a_sure_fix():
    cases = CASES + PA_CASES
    fixed = [c for c in cases if _id(c) not in NO_SURE_FIX]
    assert len(fixed) >= 40 and {c[1][0] for c in fixed} >= {"swap", "duplicate", "delete", "reverse",
                                                             "nofirst-rotate", "replace"}


def _violations() -> list[Path]:
    return sorted((ROOT / "examples").glob("*/violations/*.yaml"))


@pytest.mark.parametrize("path", _violations(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_violation_example_is_fixed_or_left_with_its_reason(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    rel = str(path.relative_to(ROOT))
    text = path.read_text()
    report = check_text(text, rel)
    fixed = fix_text(text, rel, report.diagnostics)
    name = f"{path.parent.parent.name}/{path.stem}"
    if name not in FIXED_VIOLATIONS:
        assert not fixed.changed, (VIOLATION_REASON, fixed.to_json())
        return
    (d,) = fixed.made
    assert d.fix is not None and d.fix.describe().startswith(FIXED_VIOLATIONS[name])
    after = check_text(fixed.formatted.after, rel)
    assert after.status == 0, after.format_text()


# -- the text around the edits -----------------------------------------------------------------

def test_comments_crlf_and_the_byte_order_mark_are_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    clean = (LA / "clean-4p.yaml").read_text()
    broken = mutate(mutate(clean, "swap", 11), "replace", 6, "Mary Kingsley", "Mary Kingsly")
    log = tmp_path / "g.yaml"
    log.write_bytes(b"\xef\xbb\xbf" + broken.replace("\n", "\r\n").encode())
    status, out, _err = _run("check", "--fix", str(log))
    assert status == 0, out
    assert log.read_bytes() == b"\xef\xbb\xbf" + clean.replace("\n", "\r\n").encode()


CLEAN3 = ROOT / LA / "clean-3p.yaml"
FIRST_THREE = """\
  - {suspect: Ann, clues: [Tippu Tip, Waterloo Station, 5 p.m., O3], smiles: 2}
  - {place: Ben, clue: Tippu Tip, value: 2}
  - {place: Cat, clue: 5 p.m., value: 1}
"""
# the same three moves as block mappings, a comment above and beside them (written by hand)
BLOCK_CLEAN = """\
  - suspect: Ann
    clues: [Tippu Tip, Waterloo Station, 5 p.m., O3]
    smiles: 2
  # Ben places first
  - place: Ben    # on Tippu Tip
    clue: Tippu Tip
    value: 2
  -
    # then Cat
    place: Cat
    clue: 5 p.m.
    value: 1
"""
BLOCK_SWAPPED = """\
  - suspect: Ann
    clues: [Tippu Tip, Waterloo Station, 5 p.m., O3]
    smiles: 2
  # Ben places first
  -
    # then Cat
    place: Cat
    clue: 5 p.m.
    value: 1
  - place: Ben    # on Tippu Tip
    clue: Tippu Tip
    value: 2
"""


def test_moves_written_as_block_mappings_are_swapped_and_deleted_line_by_line():
    clean = CLEAN3.read_text()
    assert FIRST_THREE in clean
    good = clean.replace(FIRST_THREE, BLOCK_CLEAN)
    assert check_text(good, str(CLEAN3)).status == 0
    text = mutate(good.replace(BLOCK_CLEAN, BLOCK_SWAPPED), "duplicate", 5)  # and a pass too many
    report = check_text(text, str(CLEAN3))
    assert [d.fix.action for d in report.diagnostics if d.fix] == ["swap", "delete"], report.format_text()
    fixed = fix_text(text, str(CLEAN3), report.diagnostics)
    assert fixed.formatted.after == good


def test_a_missing_pass_goes_into_a_flow_list_of_moves():
    clean = CLEAN3.read_text()
    lines = clean.splitlines()
    moves = [line.strip()[2:] for line in lines if line.startswith("  - {")]
    flow = "\n".join(line for line in lines if not line.startswith("  - {")).replace(
        "moves:", "moves: [" + ", ".join(moves) + "]") + "\n"
    assert check_text(flow, str(CLEAN3)).status == 0
    text = flow.replace("{pass: Ben}, {pass: Cat}, {pass: Ann}", "{pass: Ben}, {pass: Ann}", 1)
    fixed = fix_text(text, str(CLEAN3), check_text(text, str(CLEAN3)).diagnostics)
    assert fixed.formatted.after == flow


def test_two_fixes_on_the_same_moves_make_only_the_first(tmp_path):
    """Moves 2 and 3 swapped, and move 3's player misspelt: the swap is made, the name stays a
    diagnostic (both touch move 3's line); a second --fix makes it."""
    clean = CLEAN3.read_text()
    log = tmp_path / "g.yaml"
    log.write_text(mutate(mutate(clean, "swap", 1), "replace", 2, "place: Ben", "place: Bem"))
    report = check_text(log.read_text(), str(log))
    fixed = fix_text(log.read_text(), str(log), report.diagnostics)
    assert [d.code for d in fixed.made] == ["LA205"] and [d.code for d in fixed.not_made] == ["LG111"]
    status, out, _err = _run("check", "--fix", str(log))
    assert status == 1 and "1 fix made (1 more not made" in out
    status, out, _err = _run("check", "--fix", str(log))
    assert status == 0 and log.read_text() == clean, out


# -- the command -----------------------------------------------------------------------------------

def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def _swapped(tmp_path: Path) -> tuple[Path, str]:
    clean = (ROOT / LA / "clean-3p.yaml").read_text()
    log = tmp_path / "g.yaml"
    log.write_text(mutate(clean, "swap", 1))
    return log, clean


def test_diff_prints_the_edit_and_writes_nothing(tmp_path):
    log, clean = _swapped(tmp_path)
    before = log.read_bytes()
    status, out, _err = _run("check", "--diff", str(log))
    assert status == 1 and log.read_bytes() == before
    assert f"--- {log}\n+++ {log}\n" in out and "\n+  - {place: Ben, clue: Tippu Tip, value: 2}\n" in out, out
    assert "1 fix would be made" in out and "error[LA205]" in out


def test_fix_writes_the_log_and_checks_it_again(tmp_path):
    log, clean = _swapped(tmp_path)
    status, out, _err = _run("check", "--fix", str(log))
    assert status == 0, out
    assert log.read_text() == clean and "1 fix made" in out and out.rstrip().endswith("clean")
    assert _run("check", "--fix", str(log))[0] == 0  # nothing left: nothing changes
    assert log.read_text() == clean


def test_fix_as_json_gives_the_edits_as_data(tmp_path):
    log, clean = _swapped(tmp_path)
    status, out, _err = _run("check", "--diff", "--format", "json", str(log))
    (entry,) = json.loads(out)
    assert status == 1 and entry["status"] == 1
    (fix,) = entry["fix"]["fixes"]
    assert {k: fix[k] for k in ("code", "action", "moves")} == {"code": "LA205", "action": "swap", "moves": [2, 3]}
    assert entry["fix"]["written"] is False and entry["fix"]["after"]["status"] == 0
    assert entry["diagnostics"][0]["fix"] == {"action": "swap", "moves": [2, 3]}
    status, out, _err = _run("check", "--fix", "--format", "json", str(log))
    (entry,) = json.loads(out)
    assert status == 0 and entry["fix"]["written"] is True and log.read_text() == clean


def test_a_log_without_a_sure_fix_is_left_as_it_is(tmp_path):
    clean = (ROOT / LA / "clean-3p.yaml").read_text()
    log = tmp_path / "g.yaml"
    log.write_text(mutate(clean, "drop", 7, "smiles"))
    before = log.read_bytes()
    status, out, _err = _run("check", "--fix", str(log))
    assert status == 1 and log.read_bytes() == before and "no sure fix" in out


def test_fix_and_diff_exclude_each_other(tmp_path):
    log, _clean = _swapped(tmp_path)
    status, out, err = _run("check", "--fix", "--diff", str(log))
    assert status == 2 and "not allowed with argument" in err


def test_the_examples_are_left_alone(tmp_path):
    """A clean log: nothing to fix, nothing written, status 0."""
    copy = tmp_path / "clean.yaml"
    shutil.copyfile(ROOT / LA / "clean-4p.yaml", copy)
    before = copy.read_bytes()
    assert _run("check", "--fix", str(copy))[0] == 0 and copy.read_bytes() == before
