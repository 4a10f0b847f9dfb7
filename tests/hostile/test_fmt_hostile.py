"""``ruleslawyer fmt`` given what it cannot or must not rewrite: a missing file, a folder, not YAML,
not a log, a read-only file (refused, exit 2, not a byte changed), a symbolic link (its target
written, the link kept), a fifo; hostile names (escape sequences, bidirectional overrides) kept
escaped in the file and never printed raw; each option with a bad value."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ruleslawyer.checker.cli import main

from .hostile_helpers import ROOT, run_cli

LA3 = ROOT / "examples" / "lady-alice" / "clean-3p.yaml"
# by hand: the second line of Ben's suspicion as printed (rules/lady-alice.yaml)
BEN = "  - {suspect: Ben, clues: [Baker, P2, T3, compass], smiles: 1}"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def refused(argv: list[str], code: str) -> str:
    status, out, err = run(*argv)
    assert status == 2, out + err
    assert f"error[{code}]" in out + err and "Traceback" not in out + err
    return out + err


def test_a_missing_file(tmp_path):
    refused(["fmt", str(tmp_path / "nosuch.yaml")], "RL001")


def test_a_folder(tmp_path):
    refused(["fmt", str(tmp_path)], "RL001")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no fifos on this system")
def test_a_fifo_is_never_opened(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    refused(["fmt", str(fifo)], "RL001")


@pytest.mark.parametrize("text, code", [
    ("players: [Ann, Ben\n", "RL003"),         # not YAML
    ("- just\n- a list\n", "LG102"),             # YAML, not a log
    ("\xff\xfe", "RL002"),                       # not UTF-8 (written as bytes below)
    ("", "RL002"),                               # empty
    ("a: !!python/object/apply:os.system [ls]\n", "RL008"),
])
def test_not_a_log_is_reported_and_left_alone(tmp_path, text, code):
    log = tmp_path / "bad.yaml"
    log.write_bytes(text.encode("latin-1") if code == "RL002" and text else text.encode())
    before = log.read_bytes()
    refused(["fmt", str(log)], code)
    assert log.read_bytes() == before


def test_a_read_only_file_is_refused_and_not_changed(tmp_path):
    log = tmp_path / "ro.yaml"
    shutil.copyfile(LA3, log)
    log.chmod(0o444)
    try:
        text = refused(["fmt", str(log)], "RL013")
        assert "read-only" in text
        assert log.read_bytes() == LA3.read_bytes()
        assert stat.S_IMODE(log.stat().st_mode) == 0o444
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
        assert run("fmt", "--check", str(log))[0] == 1  # reading it is fine
    finally:
        log.chmod(0o644)


def test_a_symbolic_link_writes_its_target_and_stays_a_link(tmp_path):
    target = tmp_path / "real.yaml"
    shutil.copyfile(LA3, target)
    target.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    status, out, err = run("fmt", str(link))
    assert status == 0, out + err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert BEN not in target.read_text() and "Samuel White Baker, Place 2" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the mode kept


def test_a_link_to_nothing(tmp_path):
    link = tmp_path / "dangling.yaml"
    link.symlink_to(tmp_path / "gone.yaml")
    refused(["fmt", str(link)], "RL001")


HOSTILE = """\
rules: lady-alice
players: ["Ann\\e]0;pwned\\a", "Ben\\u202e", Cat]
first: "ann\\e]0;pwned\\a"
moves:
  - {pass: "ANN\\e]0;pwned\\a"}
  - {pass: "ben\\u202E"}
"""


def test_hostile_names_stay_escaped_in_the_file_and_on_the_terminal(tmp_path):
    log = tmp_path / "h\x1b[2Jx.yaml"
    log.write_text(HOSTILE)
    for argv in (["fmt", "--diff", str(log)], ["fmt", "--format", "json", "--check", str(log)],
                 ["fmt", str(log)]):
        status, out, err = run(*argv)
        assert status in (0, 1), out + err
        assert not any(c in out + err for c in "\x1b\x07\u202e"), repr(out)
    # by hand: each name as the header spells it, escapes as YAML writes them (\e, \a, \u202e)
    assert log.read_text() == HOSTILE.replace('"ann\\e]0;pwned\\a"', '"Ann\\e]0;pwned\\a"').replace(
        '"ANN\\e]0;pwned\\a"', '"Ann\\e]0;pwned\\a"').replace('"ben\\u202E"', '"Ben\\u202e"')
    assert run("fmt", "--check", str(log))[0] == 0


def test_hostile_names_through_the_real_command_line(tmp_path):
    log = tmp_path / "h.yaml"
    log.write_text(HOSTILE)
    done = run_cli("fmt", "--format", "json", str(log))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    edits = json.loads(done.stdout)[0]["edits"]
    assert [e["printed"] for e in edits] == ['"Ann\\e]0;pwned\\a"', '"Ann\\e]0;pwned\\a"', '"Ben\\u202e"']


def test_bad_option_values(tmp_path):
    log = tmp_path / "l.yaml"
    shutil.copyfile(LA3, log)
    refused(["fmt", "--house", "nosuch-overlay", str(log)], "RL001")
    refused(["fmt", "--allow-path", "", str(log)], "RL011")
    status, _out, err = run("fmt", "--format", "svg", str(log))
    assert status == 2 and "invalid choice" in err
    assert log.read_bytes() == LA3.read_bytes()


def test_a_log_naming_rules_outside_its_folder_needs_allow_path(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "logs").mkdir()
    shutil.copyfile(ROOT / "rules" / "lady-alice.yaml", tmp_path / "rules" / "mine.yaml")
    log = tmp_path / "logs" / "l.yaml"
    log.write_text(LA3.read_text().replace("rules: lady-alice", "rules: ../rules/mine.yaml"))
    before = log.read_bytes()
    refused(["fmt", str(log)], "RL011")
    assert log.read_bytes() == before
    status, out, err = run("fmt", "--allow-path", str(tmp_path / "rules"), str(log))
    assert status == 0, out + err
    assert "Samuel White Baker" in log.read_text()


def test_a_log_changed_while_it_is_formatted_is_not_written_over(tmp_path, monkeypatch):
    from ruleslawyer.checker import fmt as fmt_module

    log = tmp_path / "l.yaml"
    shutil.copyfile(LA3, log)
    real = fmt_module.format_log

    def and_meanwhile(*args, **kw):
        done = real(*args, **kw)
        with open(log, "a") as fh:  # another program appends a move
            fh.write("  - {pass: Ann}\n")
        return done

    monkeypatch.setattr(fmt_module, "format_log", and_meanwhile)
    text = refused(["fmt", str(log)], "RL013")
    assert "changed while it was formatted" in text
    assert log.read_text() == LA3.read_text() + "  - {pass: Ann}\n"


def test_an_overlay_from_the_command_line(tmp_path):
    log = tmp_path / "l.yaml"
    shutil.copyfile(LA3, log)
    status, out, err = run("fmt", "--house", "no-repeat", "--check", str(log))
    assert status == 1 and out == f"{log}: would be reformatted (6 edits)\n", out + err


def test_every_hostile_corpus_log_is_formatted_once_or_refused(tmp_path):
    from .hostile_helpers import CORPUS

    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    logs = sorted(p for folder in ("logs", "replay", "names", "escape") for p in (copy / folder).glob("*.yaml"))
    assert len(logs) > 50
    formatted = 0
    for log in logs:
        status, out, err = run("fmt", str(log))
        assert status in (0, 2), (log.name, out + err)
        assert "internal error" not in out + err and "\x1b" not in out + err, log.name
        if status == 0:
            formatted += 1
            assert run("fmt", "--check", str(log)) == (0, f"{log}: ok\n", ""), log.name  # once is enough
    assert formatted >= 5  # the escape cases and the replay cases are usable logs
