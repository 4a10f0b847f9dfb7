"""Hostile records for ``play --setup/--private`` and the session's ``private KEY: VALUE``
(issue 24, point 4): each is refused with a reason and the log left byte for byte as it was,
or, made from the command line, no log is left behind; nothing unescaped reaches the terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from ruleslawyer.checker.recorder import Recorder

from ..conftest import ROOT, run_guarded

LOG = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
TIMEOUT = 300.0  # a hang guard, never a measure

BAD = [
    "evidence: {Gordon: Mary Kingsley}\nmoves: []",          # a second line: another top-level key
    "[1, 2]",                                                 # not KEY: VALUE
    "# evidence: {Gordon: Mary Kingsley}",                    # nothing
    "evidence: *a",                                           # an alias of nothing
    "evidence: {Qqq: Mary Kingsley}",                         # nobody at the table
    "evidence: {Gordon: Zzyzx}",                              # no such clue
    "evidence: {Gordon: [Mary Kingsley, compass]}",           # two where the rules keep one
    "moves: []",                                              # a key private: does not take
    "evidence: {Gordon: \"\\e[31mred\"}",                     # an escape sequence
    "evidence: {Gordon: " + "x" * 100_000 + "}",              # a long name
]


def _log(tmp_path: Path) -> Path:
    lines = LOG.read_text().splitlines()
    del lines[7:9]   # no private: section
    log = tmp_path / "game.yaml"
    log.write_text("\n".join(lines[:20]) + "\n")
    return log


@pytest.mark.parametrize("record", BAD, ids=range(len(BAD)))
def test_a_hostile_private_record_is_refused_and_the_log_left_alone(tmp_path, record):
    log = _log(tmp_path)
    before = log.read_bytes()
    out = io.StringIO()
    recorder = Recorder(log, out=out)
    assert not recorder.record("private", record)
    said = out.getvalue()
    assert "not recorded" in said and "\x1b" not in said and len(said) < 20_000, said[:2000]
    assert log.read_bytes() == before


def test_a_flow_private_section_is_left_to_the_hand(tmp_path):
    log = _log(tmp_path)
    log.write_text(log.read_text().replace("moves:\n", "private: {evidence: {Helen: \"7:00\"}}\nmoves:\n", 1))
    before = log.read_bytes()
    out = io.StringIO()
    assert not Recorder(log, out=out).record("private", "rival: {Gordon: x}")
    assert "not written one key a line" in out.getvalue() and log.read_bytes() == before


@pytest.mark.parametrize("option, record", [("--setup", "[1, 2]"), ("--private", "a: 1\nb: 2"),
                                            ("--setup", "colours: {Yellow: Zzz}"),
                                            ("--private", "hand: {Yellow: \"\\e]0;x\\a\"}")])
def test_a_hostile_record_on_the_command_line_leaves_no_log(tmp_path, option, record):
    argv = ["play", "game.yaml", "--rules", "perfect-alibi", "--players", "Yellow", "Blue", "Green", option, record]
    if option == "--private":
        argv += ["--setup", "colours: {Yellow: Yellow, Blue: Blue, Green: Green}"]
    result = run_guarded([sys.executable, "-m", "ruleslawyer", *argv], input="quit\n", timeout=TIMEOUT, cwd=tmp_path)
    text = result.stdout + result.stderr
    assert result.returncode == 2 and "Traceback" not in text and "\x1b" not in text and "\x07" not in text, text
    assert not (tmp_path / "game.yaml").exists()
