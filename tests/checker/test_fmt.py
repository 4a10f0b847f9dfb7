"""``ruleslawyer fmt``: names respelt as printed, quotes only where YAML needs them, every other
byte kept; idempotent; ``--check``, ``--diff``, ``--format json``; a formatted log checks the same.

The expected lines are written by hand from the example logs and the printed names of the rule
files (rules/lady-alice.yaml: ``Baker`` is "Samuel White Baker", ``P2`` "Place 2").
"""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ruleslawyer.checker import fmt as fmt_module
from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.cli import main
from ruleslawyer.checker.fmt import format_log, format_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.spec.diagnostics import DiagnosticError

from ..conftest import ROOT

EXAMPLES = ROOT / "examples"
LA3 = EXAMPLES / "lady-alice" / "clean-3p.yaml"

# examples/lady-alice/clean-3p.yaml, as written and as printed (by hand).
LA3_TITLE = ('title: "A complete game for three"', "title: A complete game for three")
LA3_BEN = ("  - {suspect: Ben, clues: [Baker, P2, T3, compass], smiles: 1}",
           "  - {suspect: Ben, clues: [Samuel White Baker, Place 2, Time 3, compass], "
           "smiles: 1}")
LA3_CAT = ("  - {suspect: Cat, clues: [Tippu Tip, P4, 5 p.m., compass], smiles: 3}",
           "  - {suspect: Cat, clues: [Tippu Tip, Place 4, 5 p.m., compass], smiles: 3}")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def copy(tmp_path: Path, source: Path = LA3, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def usable_examples() -> list[Path]:
    """Every example log that is a usable log (the LG1xx examples are not: fmt refuses them)."""
    logs = sorted(EXAMPLES.glob("*/*.yaml")) + sorted(EXAMPLES.glob("*/violations/*.yaml"))
    return [p for p in logs if not p.name.startswith("LG1") and p.name != "log.schema.json"]


# -- what is rewritten --------------------------------------------------------------------

def test_aliases_respelt_and_needless_quotes_dropped(tmp_path):
    log = copy(tmp_path)
    status, out, err = run("fmt", str(log))
    assert status == 0, out + err
    # by hand: the title's quotes, O3, Baker, P2, T3, P4
    assert out == f"{log}: reformatted (6 edits)\n"
    lines = log.read_text().splitlines()
    before = LA3.read_text().splitlines()
    assert len(lines) == len(before)
    assert lines[before.index(LA3_TITLE[0])] == LA3_TITLE[1]
    assert lines[before.index(LA3_BEN[0])] == LA3_BEN[1]
    assert lines[before.index(LA3_CAT[0])] == LA3_CAT[1]
    changed = [i for i, (a, b) in enumerate(zip(before, lines)) if a != b]
    assert len(changed) == 4  # title, Ann's, Ben's and Cat's suspicions: nothing else moved


LOG = """\
# a comment before everything
rules: lady-alice   # the bundled rules
players: [Ann, Ben, Cat]
first: 'ann'
private:
  evidence: {ANN: tippu tip, "Ben": 5 P.M., Cat: Compass}
moves:
  - {SUSPECT: ben, clues: [kingsley, 'waterloo', '7:00', "compass"], smiles: 0}  # Ben's
  - {pass: CAT}
"""
# by hand: each name as printed (players as the header spells them), "7:00" still quoted
# (a YAML 1.1 reader takes 7:00 for 420), every comment where it was.
LOG_PRINTED = """\
# a comment before everything
rules: lady-alice   # the bundled rules
players: [Ann, Ben, Cat]
first: Ann
private:
  evidence: {Ann: Tippu Tip, Ben: 5 p.m., Cat: compass}
moves:
  - {suspect: Ben, clues: [Mary Kingsley, Waterloo Station, "7:00", compass], smiles: 0}  # Ben's
  - {pass: Cat}
"""


def test_wrong_case_names_moves_and_quotes():
    assert format_text(LOG, str(ROOT / "t.yaml")).after == LOG_PRINTED


def test_comments_crlf_and_bom_kept(tmp_path):
    log = tmp_path / "crlf.yaml"
    log.write_bytes(b"\xef\xbb\xbf" + LOG.replace("\n", "\r\n").encode())
    status, out, err = run("fmt", str(log))
    assert status == 0, out + err
    assert log.read_bytes() == b"\xef\xbb\xbf" + LOG_PRINTED.replace("\n", "\r\n").encode()


def test_quotes_kept_where_yaml_needs_them():
    text = ('rules: lady-alice\nplayers: [Ann, Ben, Cat]\ntitle: "Game: the last"\ndate: "2024-05-01"\n'
            'notes: "yes"\nvariant: "3p"\nmoves:\n  - {pass: Ann}\n')
    # by hand: ": " and a date (a timestamp), "yes" (a YAML 1.1 boolean) need quotes; 3p does not
    assert format_text(text, str(ROOT / "t.yaml")).after == text.replace('"3p"', "3p")


def test_a_name_that_needs_quotes_gets_them():
    text = ("rules: perfect-alibi\nplayers: [Yellow, Blue, Green]\n"
            "setup:\n  colours: {Yellow: Yellow, Blue: Blue, Green: Green}\nprivate:\n  missing: 'L4 6'\nmoves: []\n")
    after = format_text(text, str(ROOT / "t.yaml")).after
    # by hand (rules/perfect-alibi.yaml): L4 6 is "Location 4, 6 o'clock"; in block context a
    # comma needs no quotes
    assert after.splitlines()[5] == "  missing: Location 4, 6 o'clock"
    flow = text.replace("  missing: 'L4 6'", "  hand: {Yellow: ['L4 6']}")
    # ... in a flow list it does
    assert format_text(flow, str(ROOT / "t.yaml")).after.splitlines()[5] == \
        "  hand: {Yellow: [\"Location 4, 6 o'clock\"]}"


@pytest.mark.parametrize("path", usable_examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_log_formats_idempotently_keeping_every_comment(path):
    first = format_log(str(path))
    again = format_text(first.after, str(path))
    assert again.edits == () and again.after == first.after
    before, after = first.before.splitlines(), first.after.splitlines()
    assert len(before) == len(after)
    for a, b in zip(before, after):
        if "#" in a and " #" in a:
            assert b.endswith(a[a.index(" #"):]) or a.lstrip().startswith("#") and a == b


@pytest.mark.parametrize("name", ["lady-alice/clean-3p.yaml", "lady-alice/violations/LA212.yaml",
                                  "perfect-alibi/clean-3p.yaml", "perfect-alibi/violations/PA310.yaml",
                                  "clue/clean-3p.yaml"])
def test_a_formatted_log_checks_as_before(tmp_path, name):
    source = EXAMPLES / name
    log = copy(tmp_path, source)
    status, out, err = run("fmt", str(log))
    assert status == 0, out + err
    before, after = check_log(str(source)), check_log(str(log))
    assert after.status == before.status
    assert [(d.code, d.position.line, d.message) for d in after.diagnostics] == \
        [(d.code, d.position.line, d.message) for d in before.diagnostics]


# -- the options -----------------------------------------------------------------------

def test_check_exits_1_and_writes_nothing_then_0_once_formatted(tmp_path):
    log = copy(tmp_path)
    status, out, _err = run("fmt", "--check", str(log))
    assert (status, out) == (1, f"{log}: would be reformatted (6 edits)\n")
    assert log.read_bytes() == LA3.read_bytes()
    assert run("fmt", str(log))[0] == 0
    status, out, _err = run("fmt", "--check", str(log))
    assert (status, out) == (0, f"{log}: ok\n")
    formatted = copy(tmp_path, log, "other.yaml")
    status, out, _err = run("fmt", "--check", str(formatted), str(copy(tmp_path, LA3, "raw.yaml")))
    assert status == 1 and out.splitlines()[0] == f"{formatted}: ok"


def test_diff_writes_nothing(tmp_path):
    log = copy(tmp_path)
    status, out, err = run("fmt", "--diff", str(log))
    assert status == 0, err
    assert log.read_bytes() == LA3.read_bytes()
    lines = out.splitlines()
    assert lines[:2] == [f"--- {log}", f"+++ {log}"]
    for written, printed in (LA3_TITLE, LA3_BEN, LA3_CAT):
        assert "-" + written in lines and "+" + printed in lines
    assert sum(1 for x in lines if x.startswith("-") and not x.startswith("---")) == 4
    assert run("fmt", "--diff", "--check", str(log))[0] == 1


def test_json_gives_each_file_and_its_edits(tmp_path):
    log = copy(tmp_path)
    status, out, _err = run("fmt", "--check", "--format", "json", str(log))
    assert status == 1
    (entry,) = json.loads(out)
    assert entry["file"] == str(log) and entry["changed"] is True and entry["written"] is False
    assert entry["status"] == "would be reformatted" and entry["diagnostics"] == []
    text = LA3.read_text().splitlines()
    ann = next(i for i, line in enumerate(text) if "O3" in line)
    # by hand: the title (line 3, after 'title: '), then O3 in Ann's suspicion
    assert entry["edits"][:2] == [
        {"line": 3, "column": 8, "written": '"A complete game for three"', "printed": "A complete game for three"},
        {"line": ann + 1, "column": text[ann].index("O3") + 1, "written": "O3", "printed": "Object 3"}]
    assert len(entry["edits"]) == 6
    status, out, _err = run("fmt", "--format", "json", str(log))
    assert status == 0 and json.loads(out)[0]["written"] is True
    assert json.loads(run("fmt", "--format", "json", str(log))[1])[0] == {
        "file": str(log), "status": "ok", "written": False, "changed": False, "edits": [], "diagnostics": []}


# -- the safety check, the hook ----------------------------------------------------------

def test_an_output_that_reads_otherwise_is_refused_and_nothing_written(tmp_path, monkeypatch):
    log = tmp_path / "t.yaml"
    log.write_text('rules: lady-alice\nplayers: [Ann, Ben, Cat]\ntitle: "a: b"\nmoves:\n  - {pass: ANN}\n')
    before = log.read_bytes()
    monkeypatch.setattr(fmt_module, "_plain_ok", lambda value, flow: True)  # a broken formatter
    status, out, _err = run("fmt", str(log))
    assert status == 2 and "error[RL014]" in out and "nothing written" in out
    assert log.read_bytes() == before
    assert run("explain", "RL014")[0] == 0


def test_the_log_reader_tells_the_hook_of_every_name_found():
    seen = []
    parse_log_text("rules: lady-alice\nplayers: [Ann, Ben, Cat]\nfirst: ben\nmoves:\n"
                   "  - {Suspect: Ben, clues: [Baker, P2, T3, compass], smiles: 1}\n", str(ROOT / "t.yaml"),
                   on_name=lambda written, pos, printed: seen.append((written, pos.line, pos.column, printed)))
    assert ("ben", 3, 8, "Ben") in seen
    assert ("Suspect", 5, 6, "suspect") in seen
    assert ("Baker", 5, 28, "Samuel White Baker") in seen and ("compass", 5, 43, "compass") in seen


def test_an_unusable_log_is_reported_not_formatted(tmp_path):
    log = copy(tmp_path, EXAMPLES / "lady-alice" / "violations" / "LG110.yaml")
    status, out, _err = run("fmt", str(log))
    assert status == 2 and "error[LG110]" in out
    with pytest.raises(DiagnosticError):
        format_log(str(log))


# -- one move a line ---------------------------------------------------------------------

HEAD = "rules: lady-alice\nplayers: [Ann, Ben, Cat]\n"


def test_a_flow_list_of_moves_becomes_one_move_a_line_keeping_its_comments():
    text = HEAD + ("moves: [  # the moves\n"
                   "  {suspect: Ann, clues: [Baker, P2, T3, compass], smiles: 0},  # Ann's\n"
                   "  # Ben passes\n"
                   "\n"
                   "  {pass: BEN}, {pass: Cat},\n"
                   "  {pass: Ann}\n"
                   "]   # done\n")
    # by hand: each move on its own line, each comment after the same move or between the same two
    printed = HEAD + ("moves:  # the moves\n"
                      "  - {suspect: Ann, clues: [Samuel White Baker, Place 2, Time 3, "
                      "compass], smiles: 0}  # Ann's\n"
                      "  # Ben passes\n"
                      "\n"
                      "  - {pass: Ben}\n"
                      "  - {pass: Cat}\n"
                      "  - {pass: Ann}   # done\n")
    first = format_text(text, str(ROOT / "t.yaml"))
    assert first.after == printed
    assert format_text(printed, str(ROOT / "t.yaml")).edits == ()
    crlf = format_text(text.replace("\n", "\r\n"), str(ROOT / "t.yaml"))
    assert crlf.after == printed.replace("\n", "\r\n")


def test_one_line_of_flow_moves():
    text = HEAD + "moves: [{pass: Ann}, {pass: Ben}]\nend: {}\n"
    assert format_text(text, str(ROOT / "t.yaml")).after == \
        HEAD + "moves:\n  - {pass: Ann}\n  - {pass: Ben}\nend: {}\n"


@pytest.mark.parametrize("moves", [
    "moves: [{pass: Ann}, {pass:\n    Ben}]\n",   # a move over two lines
    "moves: &m [{pass: Ann}, {pass: Ben}]\n",     # an anchor
    "moves:\n  [{pass: Ann}, {pass: Ben}]\n",     # the '[' on a line of its own
    "moves: []\n",                                # nothing to list
])
def test_flow_moves_left_as_written_where_a_block_could_lose_something(moves):
    assert format_text(HEAD + moves, str(ROOT / "t.yaml")).after == HEAD + moves
