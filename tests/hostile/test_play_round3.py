"""Hostile input, round three: ``play`` as a safe editor of a shared file (issue 25).

Each case of ``corpus/play/cases.tsv`` is a test here; the red team's scripts
are kept beside it as the record of each case (their sleeps stand for a
person's pace), and these tests drive the same commands with the program's
own output as the signal to go on (its prompt, the temporary file of a save),
never a guess at how long something takes.  What a log must hold afterwards
comes from the YAML reader (``parse_text``) and the checker, not from the
recorder's own edit functions.
"""

from __future__ import annotations

import os
import re
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.files import FileLock, LockHeld, remove_stale_temporaries, signals_held
from ruleslawyer.spec.source import parse_text

from ..checker.test_recorder import Session
from .hostile_helpers import CORPUS, ROOT, cli_command

CASES = CORPUS / "play"
TIMEOUT = 300  # a hang guard, never a measure: a quiet run takes a few seconds
HEADER = "rules: lady-alice\nplayers: [Ann, Ben, Cat, Dan]\nmoves:\n"
FIRST = "  - {suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1}\n"
LOG = HEADER + FIRST


def env(**extra: str) -> dict[str, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
    full.update({"COLUMNS": "400", **extra})
    return full


def play(*args: str, script: str = "quit\n", cwd: Path = ROOT, extra_env: dict[str, str] | None = None,
         preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run([*cli_command(), "play", *args], input=script, capture_output=True, text=True,
                          cwd=cwd, env=env(**(extra_env or {})), timeout=TIMEOUT, preexec_fn=preexec)


def no_crash(out: subprocess.CompletedProcess) -> str:
    text = out.stdout + out.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    return text


def moves_of(path: Path) -> list:
    return list(parse_text(path.read_text(encoding="utf-8-sig"), str(path)).get("moves") or [])


class Piped:
    """``play`` on a pipe: lines written to it, its output read up to a prompt."""

    def __init__(self, *args: str, extra_env: dict[str, str] | None = None):
        self.proc = subprocess.Popen([*cli_command(), "play", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env(**(extra_env or {})))
        self.out = ""
        self.seen = 0  # the output up to here was matched: the next pattern is looked for after it

    def read_until(self, pattern: str) -> str:
        """The output up to ``pattern``, looked for after the last match (output that came
        in the same read as the last match counts: on a busy machine a prompt often does)."""
        deadline = time.monotonic() + TIMEOUT
        start = self.seen
        fd = self.proc.stdout.fileno()
        while not (found := re.search(pattern, self.out[start:])):
            assert time.monotonic() < deadline, f"{pattern!r} not seen:\n{self.out}"
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EOFError(self.out)
                self.out += chunk.decode("utf-8", "replace")
        self.seen = start + found.end()
        return self.out[start:self.seen]

    def send(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def finish(self) -> int:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.out += self.proc.stdout.read().decode("utf-8", "replace")
        return self.proc.wait(timeout=TIMEOUT)


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


# -- undo (and append) on every YAML style a log may be written in ---------------------------

UNDO_CASES = sorted(p.name for p in CASES.glob("play-undo-*.yaml"))
REFUSED = {"play-undo-alias.yaml"}  # written so that no edit of the text removes the last move alone


@pytest.mark.parametrize("case", UNDO_CASES)
def test_undo_keeps_every_earlier_move_or_refuses(case, tmp_path):
    log = tmp_path / "g.yaml"
    log.write_bytes((CASES / case).read_bytes())
    before = moves_of(log)
    out = play(str(log), script="undo\nquit\n")
    text = no_crash(out)
    assert out.returncode == 0, text
    if case in REFUSED:
        assert "cannot undo" in text
        assert log.read_bytes() == (CASES / case).read_bytes()
        return
    assert moves_of(log) == before[:-1]                      # the file reads, every earlier move in it
    removed = [line for line in text.splitlines() if "removed:" in line]
    assert len(removed) == 1, text                           # one line, whatever the log's style
    assert parse_text(removed[0].split("removed:", 1)[1]) == before[-1]  # the move, as it can be pasted back
    assert check_log(str(log)).status == 0
    rest = {k: v for k, v in parse_text((CASES / case).read_text()).items() if k != "moves"}
    assert {k: v for k, v in parse_text(log.read_text()).items() if k != "moves"} == rest


@pytest.mark.parametrize("case", UNDO_CASES)
def test_a_move_is_added_in_every_style_or_refused(case, tmp_path):
    log = tmp_path / "g.yaml"
    log.write_bytes((CASES / case).read_bytes())
    before = moves_of(log)
    turn = "Ben" if len(before) == 1 else "Cat"
    out = play(str(log), script=f"pass: {turn}\nquit\n")
    text = no_crash(out)
    assert out.returncode == 0, text
    if case in REFUSED:
        assert "not recorded" in text and log.read_bytes() == (CASES / case).read_bytes()
        return
    assert f"recorded move {len(before) + 1}" in text, text
    assert moves_of(log) == [*before, {"pass": turn}]
    assert check_log(str(log)).status == 0


def test_comments_around_the_moves_stay_byte_for_byte(tmp_path):
    log = tmp_path / "g.yaml"
    original = (CASES / "play-undo-block-comments.yaml").read_text()
    log.write_text(original)
    play(str(log), script="undo\nquit\n")
    kept = [line for line in original.splitlines() if line not in ("  - # Ben passes", "    pass: Ben")]
    assert len(kept) == len(original.splitlines()) - 2
    assert log.read_text().splitlines() == kept


# -- the file as it was written: line ends, byte-order mark --------------------------------------

def test_crlf_and_a_bom_are_kept_and_untouched_lines_stay_byte_identical(tmp_path):
    log = tmp_path / "g.yaml"
    original = ("\ufeff" + LOG).replace("\n", "\r\n").encode("utf-8")
    log.write_bytes(original)
    out = play(str(log), script="pass: Ben\nquit\n")
    assert out.returncode == 0, no_crash(out)
    after = log.read_bytes()
    assert after.startswith(original)                               # every line as it was, the BOM first
    assert after[len(original):] == b"  - {pass: Ben}\r\n"          # the new line ends as the others do
    out = play(str(log), script="undo\nquit\n")
    assert out.returncode == 0 and log.read_bytes() == original


@pytest.mark.parametrize("script, said", [("play-crlf.sh", "byte-identical"), ("play-glob-name.sh", "kept")])
def test_the_red_team_scripts_that_need_no_timing(script, said):
    command = cli_command()
    if len(command) != 1:
        pytest.skip("the scripts run the installed ruleslawyer command")
    out = subprocess.run(["sh", str(CASES / script)], capture_output=True, text=True, timeout=TIMEOUT,
                         env=env(RL=command[0]))
    assert out.stdout.strip().splitlines()[-1] == said, out.stdout + out.stderr


def test_a_line_that_ends_with_a_lone_cr_is_refused_not_rewritten(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_bytes((HEADER + "  - {suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1}\r  # x\n").encode())
    data = log.read_bytes()
    out = play(str(log), script="pass: Ben\nquit\n")
    assert out.returncode == 2 and "RL180" in no_crash(out)
    assert log.read_bytes() == data


# -- temporaries: per session, removed only when their process is gone ----------------------------

def test_a_log_named_like_a_pattern_touches_no_other_file(tmp_path):
    other = tmp_path / ".other.yaml.in-flight.tmp"
    other.write_text("precious")
    out = play(str(tmp_path / "*"), "--rules", "lady-alice", "--players", "A", "B", "C", "D")
    assert out.returncode == 0, no_crash(out)
    assert other.read_text() == "precious"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_temporary_is_removed_only_when_its_process_is_gone(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    alive = tmp_path / f".g.yaml.{os.getpid()}-0123abcd.tmp"      # this process: alive
    dead = tmp_path / f".g.yaml.{_dead_pid()}-89abcdef.tmp"        # a process that has ended
    odd = tmp_path / ".g.yaml.in-flight.tmp"                       # not a name of ours
    for f in (alive, dead, odd):
        f.write_text("x")
    assert remove_stale_temporaries(log) == 1
    assert alive.exists() and odd.exists() and not dead.exists()
    dead.write_text("x")
    out = play(str(log))                                           # the command line, the same
    assert out.returncode == 0, no_crash(out)
    assert alive.exists() and odd.exists() and not dead.exists()


# -- one session at a time ---------------------------------------------------------------------------

def test_a_second_session_is_refused_and_says_who_holds_the_log(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    first = Piped(str(log))
    try:
        first.read_until(r"move 2 \(Ben\)> ")
        second = play(str(log), script="place: Ben, clue: compass, value: 1\nquit\n")
        text = no_crash(second)
        assert second.returncode == 2 and "RL180" in text
        assert f"process {first.proc.pid}" in text and "since " in text
        first.send("pass: Ben")
        first.read_until(r"recorded move 2: \{pass: Ben\}")
        first.send("quit")
    finally:
        status = first.finish()
    assert status == 0
    assert moves_of(log)[1] == {"pass": "Ben"}
    assert not list(tmp_path.glob(".g.yaml.lock"))                # the lock goes with its session
    third = play(str(log), script="place: Cat, clue: compass, value: 1\nquit\n")
    assert third.returncode == 0 and "recorded move 3" in third.stdout, no_crash(third)


def test_a_session_started_during_a_save_leaves_its_temporary_alone(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    first = Piped(str(log), extra_env={"RULESLAWYER_SAVE_PAUSE": "3"})
    try:
        first.read_until(r"move 2 \(Ben\)> ")
        first.send("pass: Ben")
        wait_for(lambda: list(tmp_path.glob(".g.yaml.*.tmp")), "the save never started")
        second = play(str(log))
        assert second.returncode == 2 and "RL180" in no_crash(second)
        first.read_until(r"recorded move 2: \{pass: Ben\}")
        first.send("quit")
    finally:
        status = first.finish()
    assert status == 0, first.out
    assert moves_of(log)[1] == {"pass": "Ben"}


def test_the_lock_file_is_not_followed_and_says_only_what_has_its_shape(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    with FileLock(log):
        with pytest.raises(LockHeld) as held:
            FileLock(log).acquire()
        assert held.value.holder.pid == os.getpid()
    lock = tmp_path / ".g.yaml.lock"
    target = tmp_path / "elsewhere"
    target.write_text("untouched")
    lock.symlink_to(target)
    with pytest.raises(OSError):
        FileLock(log).acquire()
    assert target.read_text() == "untouched"


# -- edits made meanwhile ----------------------------------------------------------------------------

def test_text_added_to_the_log_meanwhile_is_kept(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    s = Piped(str(log))
    try:
        s.read_until(r"move 2 \(Ben\)> ")
        with log.open("a") as f:
            f.write('notes: "written by someone else meanwhile"\n')
        s.send("pass: Ben")
        s.read_until(r"recorded move 2")
        s.send("quit")
    finally:
        assert s.finish() == 0, s.out
    assert "added to on disk meanwhile" in s.out
    assert parse_text(log.read_text())["notes"] == "written by someone else meanwhile"
    assert moves_of(log)[1] == {"pass": "Ben"}


def test_a_move_added_by_hand_meanwhile_is_kept_and_the_typed_one_checked_again(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    s = Piped(str(log))
    try:
        s.read_until(r"move 2 \(Ben\)> ")
        with log.open("a") as f:
            f.write("  - {pass: Ben}\n")
        s.send("place: Ben, clue: compass, value: 1")               # no longer Ben's turn: not recorded
        s.read_until(r"not recorded")
        s.read_until(r"move 3 \(Cat\)> ")
        s.send("quit")
    finally:
        assert s.finish() == 0, s.out
    assert moves_of(log)[1:] == [{"pass": "Ben"}]


def test_a_log_rewritten_meanwhile_is_not_overwritten_and_the_move_is_printed(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    s = Piped(str(log))
    rewritten = LOG.replace("Baker", "Banker")
    try:
        s.read_until(r"move 2 \(Ben\)> ")
        log.write_text(rewritten)
        s.send("pass: Ben")
    finally:
        status = s.finish()
    assert status == 2 and "RL180" in s.out and "Traceback" not in s.out
    assert log.read_text() == rewritten
    assert "\n  - {pass: Ben}\n" in s.out                           # the line to add by hand


# -- links, modes -----------------------------------------------------------------------------------

def test_a_symlinked_log_writes_its_target_and_stays_a_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text(LOG)
    link = tmp_path / "link.yaml"
    link.symlink_to("real.yaml")
    out = play(str(link), script="pass: Ben\nquit\n")
    assert out.returncode == 0, no_crash(out)
    assert link.is_symlink() and os.readlink(link) == "real.yaml"
    assert moves_of(real)[1] == {"pass": "Ben"}


def test_a_hard_linked_log_is_refused_and_both_names_keep_one_file(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_text(LOG)
    b = tmp_path / "b.yaml"
    os.link(a, b)
    out = play(str(b), script="pass: Ben\nquit\n")
    assert out.returncode == 2 and "RL180" in no_crash(out) and "hard link" in out.stdout
    assert a.read_text() == LOG and os.stat(a).st_ino == os.stat(b).st_ino


def test_a_read_only_log_is_refused_at_start_and_not_rewritten(tmp_path):
    log = tmp_path / "ro.yaml"
    log.write_text(LOG)
    log.chmod(0o444)
    out = play(str(log), script="pass: Ben\nquit\n")
    assert out.returncode == 2 and "read-only" in no_crash(out)
    assert log.read_text() == LOG and stat.S_IMODE(log.stat().st_mode) == 0o444


def test_a_save_keeps_the_logs_mode(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    log.chmod(0o640)
    out = play(str(log), script="pass: Ben\nquit\n")
    assert out.returncode == 0, no_crash(out)
    assert stat.S_IMODE(log.stat().st_mode) == 0o640 and moves_of(log)[1] == {"pass": "Ben"}


# -- write errors: a diagnostic, exit 2, the move printed ---------------------------------------------

def test_a_new_log_in_a_missing_folder_is_a_diagnostic(tmp_path):
    out = play(str(tmp_path / "missing" / "new.yaml"), "--rules", "lady-alice", "--players", "A", "B", "C", "D")
    assert out.returncode == 2 and "RL001" in no_crash(out) and "does not exist" in out.stdout
    assert not (tmp_path / "missing").exists()


def _as_a_plain_user() -> list[str] | None:
    """A prefix that runs a command without root's right to write anywhere (None: not possible)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--", "true"],
                           capture_output=True, timeout=60)
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"] if probe.returncode == 0 else None


def test_a_read_only_folder_is_a_diagnostic(tmp_path):
    prefix = _as_a_plain_user()
    if prefix is None:
        pytest.skip("root without setpriv: a read-only folder is writable")
    folder = tmp_path / "ro"
    folder.mkdir()
    log = folder / "g.yaml"
    log.write_text(LOG)
    folder.chmod(0o555)
    try:
        out = subprocess.run([*prefix, *cli_command(), "play", str(log)], input="pass: Ben\nquit\n",
                             capture_output=True, text=True, env=env(), timeout=TIMEOUT)
    finally:
        folder.chmod(0o755)
    assert out.returncode == 2 and "RL001" in no_crash(out) and "not writable" in out.stdout
    assert log.read_text() == LOG


def _file_size_limit(limit: int):
    def limit_it() -> None:  # a file may not grow past ``limit`` bytes: a full disk, for this process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_it


def test_a_save_that_cannot_be_written_keeps_the_log_and_prints_the_move(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    out = play(str(log), script="pass: Ben\nquit\n", preexec=_file_size_limit(len(LOG) + 4))
    text = no_crash(out)
    assert out.returncode == 2 and "RL001" in text, text
    assert "\n  - {pass: Ben}\n" in out.stdout                      # the line to add by hand
    assert log.read_text() == LOG
    assert [p.name for p in tmp_path.iterdir()] == ["g.yaml"]      # no temporary, no lock left


def test_a_full_disk_is_a_diagnostic(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a tmpfs needs root")
    disk = tmp_path / "tiny"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True,
                      timeout=60).returncode != 0:
        pytest.skip("no tmpfs here")
    try:
        log = disk / "g.yaml"
        log.write_text(LOG)
        with (disk / "fill").open("wb") as f:
            try:
                f.write(b"\0" * 200_000)
            except OSError:
                pass
        out = play(str(log), script="pass: Ben\nquit\n")
        assert out.returncode == 2 and "RL001" in no_crash(out) and "\n  - {pass: Ben}\n" in out.stdout
        assert log.read_text() == LOG
        assert sorted(p.name for p in disk.iterdir()) == ["fill", "g.yaml"]
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=60)


# -- --house -----------------------------------------------------------------------------------------

FRENCH = "place: Ben, clue: la boussole, value: 1"  # a clue's name in edition-fr only


def test_house_on_a_new_log_is_written_into_its_header(tmp_path):
    log = tmp_path / "g.yaml"
    out = play(str(log), "--rules", "lady-alice", "--players", "Ann", "Ben", "Cat", "Dan", "--house", "edition-fr",
               script="suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1\n" + FRENCH + "\nquit\n")
    assert out.returncode == 0 and "recorded move 2" in out.stdout, no_crash(out)
    assert parse_text(log.read_text())["house"] == ["edition-fr"]
    assert check_log(str(log)).status == 0                          # the log checks on its own


def test_house_unlike_an_existing_logs_header_is_refused(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    out = play(str(log), "--house", "edition-fr", script=FRENCH + "\nquit\n")
    assert out.returncode == 2 and "RL180" in no_crash(out) and "house" in out.stdout
    assert log.read_text() == LOG
    assert check_log(str(log)).status == 0


def test_house_as_an_existing_logs_header_says_is_accepted(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG.replace("players:", "house: [edition-fr]\nplayers:"))
    out = play(str(log), "--house", "edition-fr", script=FRENCH + "\nquit\n")
    assert out.returncode == 0 and "recorded move 2" in out.stdout, no_crash(out)
    assert check_log(str(log)).status == 0


# -- interrupts --------------------------------------------------------------------------------------

def test_signals_are_held_off_when_another_thread_takes_them():
    reached = []

    def other_thread() -> None:  # a thread that does not block SIGINT: the kernel may give it the signal
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.kill(os.getpid(), signal.SIGINT)

    # Python's own Ctrl-C handler, whatever a test run before this one in the process left
    # (a test worker may run with SIGINT ignored or handled otherwise)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        _held_off_in_another_thread(reached, other_thread)
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    assert reached == ["the end of the block"]


def _held_off_in_another_thread(reached: list, other_thread) -> None:  # type: ignore[type-arg]
    with pytest.raises(KeyboardInterrupt):
        with signals_held():
            old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})   # this thread does not take it
            worker = threading.Thread(target=other_thread)
            worker.start()
            worker.join()
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
            for _ in range(10_000):  # bytecodes, where Python runs a signal's handler
                pass
            reached.append("the end of the block")


def test_ctrl_c_during_a_save_ends_it_says_so_and_exits_130(tmp_path):
    log = tmp_path / "game.yaml"
    log.write_text(LOG)
    s = Session([str(log)], tmp_path, env={"RULESLAWYER_SAVE_PAUSE": "3"})
    s.read_until(r"move 2 \(Ben\)> ")
    s.type("pass: Ben\r")
    wait_for(lambda: list(tmp_path.glob(".game.yaml.*.tmp")), "the save never started")
    s.type("\x03", at_prompt=False)                                   # Ctrl-C during the save
    out = s.read_until(r"\(interrupted: .*\)", timeout=TIMEOUT)
    assert s.close() == 130
    assert "recorded move 2: {pass: Ben}" in out and out.count("(interrupted") == 1
    assert "internal error" not in s.screen and "Traceback" not in s.screen
    assert moves_of(log)[1] == {"pass": "Ben"} and not list(tmp_path.glob(".game.yaml.*"))


def test_sigterm_during_a_save_waits_for_its_end(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(LOG)
    s = Piped(str(log), extra_env={"RULESLAWYER_SAVE_PAUSE": "3"})
    s.read_until(r"move 2 \(Ben\)> ")
    s.send("pass: Ben")
    wait_for(lambda: list(tmp_path.glob(".g.yaml.*.tmp")), "the save never started")
    s.proc.send_signal(signal.SIGTERM)
    status = s.finish()
    assert status == 128 + signal.SIGTERM                             # ended by the signal, once the save was done
    assert "recorded move 2: {pass: Ben}" in s.out and s.out.count("(ended by SIGTERM") == 1
    assert moves_of(log)[1] == {"pass": "Ben"} and not list(tmp_path.glob(".g.yaml.*"))
    assert check_log(str(log)).status == 0


RIVAL = ROOT / "examples" / "perfect-alibi" / "rival-4p.yaml"


@pytest.mark.parametrize("delay", [0.0, 0.2, 0.6])
def test_ctrl_c_while_a_move_is_checked_records_it_and_says_so_or_neither(tmp_path, delay):
    lines = RIVAL.read_text().split("\n")
    items = [i for i, line in enumerate(lines) if line.strip().startswith("- {")]
    log = tmp_path / "g.yaml"
    log.write_text("\n".join(lines[:items[30]]) + "\n")
    move = lines[items[30]].strip()[2:]
    s = Piped(str(log))
    s.read_until(r"> $")
    s.send(move)
    time.sleep(delay)  # anywhere in the check or after it: the test holds for every moment
    s.proc.send_signal(signal.SIGINT)
    status = s.finish()
    saved = len(moves_of(log)) == 31   # (saved with its names as printed, not as typed)
    assert "Traceback" not in s.out and "internal error" not in s.out
    assert status == 130 and s.out.count("(interrupted") == 1, s.out
    assert saved == ("recorded move 31" in s.out), s.out              # recorded and said so, or neither
    assert not (saved and "not recorded" in s.out.split("(interrupted")[1]), s.out
    assert check_log(str(log)).status in (0, 1)                        # the log whole either way


def test_a_house_file_is_written_as_the_new_log_names_it_from_its_own_folder(tmp_path):
    (tmp_path / "h").mkdir()
    (tmp_path / "logs").mkdir()
    shutil.copy(ROOT / "rules" / "house" / "no-repeat.yaml", tmp_path / "h" / "x.yaml")
    log = tmp_path / "logs" / "g.yaml"
    out = play("logs/g.yaml", "--rules", "lady-alice", "--players", "Ann", "Ben", "Cat", "Dan", "--house", "h/x.yaml",
               cwd=tmp_path, script="suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1\nquit\n")
    assert out.returncode == 0 and "recorded move 1" in out.stdout, no_crash(out)
    assert parse_text(log.read_text())["house"] == ["../h/x.yaml"]     # relative to the log, not to the shell
    checked = subprocess.run([*cli_command(), "check", str(log), "--allow-path", str(tmp_path / "h")],
                             capture_output=True, text=True, env=env(), timeout=TIMEOUT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
