"""``check --fix`` given what it cannot or must not rewrite: a read-only file (exit 2, RL013, not a
byte changed), a symbolic link (its target written, the link kept, as ``fmt`` does; a link to
nothing refused), a fifo (never opened), a log changed while it was fixed (not written over), a
layout whose edit would change more than it says (RL014); hostile names kept escaped; the hostile
corpus fixed or refused, never a traceback."""

from __future__ import annotations

import os
import shutil
import stat

import pytest

from ..checker.mistakes import mutate
from .hostile_helpers import ROOT
from .test_fmt_hostile import refused, run

LA3 = ROOT / "examples" / "lady-alice" / "clean-3p.yaml"


def _swapped(folder, name="g.yaml"):
    log = folder / name
    log.write_text(mutate(LA3.read_text(), "swap", 1))
    return log


@pytest.mark.parametrize("flag", ["--fix", "--diff"])
def test_a_read_only_file(tmp_path, flag):
    log = _swapped(tmp_path)
    before = log.read_bytes()
    log.chmod(0o444)
    try:
        if flag == "--fix":
            text = refused(["check", flag, str(log)], "RL013")
            assert "read-only" in text
        else:  # --diff writes nothing: reading is fine
            assert run("check", flag, str(log))[0] == 1
        assert log.read_bytes() == before and stat.S_IMODE(log.stat().st_mode) == 0o444
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    finally:
        log.chmod(0o644)


def test_a_symbolic_link_writes_its_target_and_stays_a_link(tmp_path):
    target = _swapped(tmp_path, "real.yaml")
    target.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    status, out, err = run("check", "--fix", str(link))
    assert status == 0, out + err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == LA3.read_text() and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_link_to_nothing(tmp_path):
    link = tmp_path / "dangling.yaml"
    link.symlink_to(tmp_path / "gone.yaml")
    refused(["check", "--fix", str(link)], "RL001")
    assert link.is_symlink() and not (tmp_path / "gone.yaml").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no fifos on this system")
@pytest.mark.parametrize("flag", ["--fix", "--diff"])
def test_a_fifo_is_never_opened(tmp_path, flag):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    refused(["check", flag, str(fifo)], "RL001")


def test_a_folder(tmp_path):
    refused(["check", "--fix", str(tmp_path)], "RL001")


def test_a_log_changed_while_it_is_fixed_is_not_written_over(tmp_path, monkeypatch):
    from ruleslawyer.checker import checkfix

    log = _swapped(tmp_path)
    changed = log.read_text() + "  - {pass: Ann}\n"
    real = checkfix.fix_text

    def and_meanwhile(*args, **kw):
        done = real(*args, **kw)
        log.write_text(changed)  # another program appends a move
        return done

    monkeypatch.setattr(checkfix, "fix_text", and_meanwhile)
    text = refused(["check", "--fix", str(log)], "RL013")
    assert "changed while it was fixed" in text
    assert log.read_text() == changed


def test_an_edit_that_would_read_otherwise_is_refused(tmp_path, monkeypatch):
    """The read-again check: an edit made wrong (here: the swap told the wrong moves) is caught,
    RL014, nothing written."""
    from ruleslawyer.checker import logfix

    log = _swapped(tmp_path)
    before = log.read_bytes()
    real = logfix._moved

    def wrong(plain, fixes, path, limits):
        return real(plain, [], path, limits)  # expects the moves as they were

    monkeypatch.setattr(logfix, "_moved", wrong)
    text = refused(["check", "--fix", str(log)], "RL014")
    assert "cannot be fixed safely" in text and log.read_bytes() == before


HOSTILE = """\
rules: lady-alice
players: ["Ann\\e]0;pwned\\a", "Ben\\u202e", Cat]
moves:
  - {suspect: "Ann\\e]0;pwned\\a", clues: [Tippu Tip, Waterloo Station, 5 p.m., O3], smiles: 2}
  - {place: Cat, clue: 5 p.m., value: 1}
  - {place: "Ben\\u202e", clue: Tippu Tip, value: 2}
"""


def test_hostile_names_stay_escaped_in_the_file_and_on_the_terminal(tmp_path):
    log = tmp_path / "h.yaml"
    log.write_text(HOSTILE)
    status, out, err = run("check", "--fix", str(log))
    assert status in (0, 1), out + err
    assert "\x1b" not in out + err and "\u202e" not in out + err and "\a" not in out + err
    text = log.read_text()
    assert "\x1b" not in text and "\u202e" not in text and '"Ann\\e]0;pwned\\a"' in text


def test_every_hostile_corpus_log_is_fixed_or_refused(tmp_path):
    from .hostile_helpers import CORPUS

    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    logs = sorted(p for folder in ("logs", "replay", "names", "escape") for p in (copy / folder).glob("*.yaml"))
    assert len(logs) > 50
    for log in logs:
        status, out, err = run("check", "--fix", str(log))
        assert status in (0, 1, 2), (log.name, out + err)
        assert "internal error" not in out + err and "\x1b" not in out + err, log.name
        if status != 2:
            assert run("check", "--fix", str(log))[0] in (0, 1), log.name  # a fixed log reads again
