"""``ruleslawyer play``: the recorder, driven through a pseudo-terminal with scripted input.

A move is checked before it is recorded, appended as one line (the log's
own formatting kept), undone, completed with Tab; a kill in the middle of
a save leaves the log whole; Ctrl-C loses nothing (and ends the session
with exit status 130).  The hostile cases of play (locks, edits made
meanwhile, links, write errors, every YAML style, signals) are in
tests/hostile/test_play_round3.py.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.recorder import append_move, new_log, remove_last_move

from ..conftest import ROOT, run_guarded

CLI = [sys.executable, "-m", "ruleslawyer.checker", "play"]
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
# A hang guard, never a measure (a quiet run of a session takes a second or two; a loaded
# machine has been seen to take thirty).
TIMEOUT = 300.0


# -- the log's text -------------------------------------------------------------------------


def test_a_move_is_one_new_line_after_the_last_move_and_the_rest_is_kept():
    text = ("# my game\nrules: lady-alice   # the rules\nplayers: [Ann, Ben, Cat, Dan]\nmoves:\n"
            "    - {suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1}   # first!\n"
            "    # a comment after the last move\n\nend:\n  winner: Ann\n")
    new, line = append_move(text, "{pass: Ben}")
    assert new.splitlines()[line - 1] == "    - {pass: Ben}"
    assert new.replace("    - {pass: Ben}\n", "", 1) == text
    assert remove_last_move(new) + "\n" == text or remove_last_move(new) == text


def test_a_new_log_starts_with_no_move_and_gets_its_first():
    text = new_log("lady-alice", PLAYERS, first="Ben")
    assert "moves: []" in text
    new, line = append_move(text, "{suspect: Ben, clues: [Baker, P2, T3, O4], smiles: 1}")
    assert "moves:\n  - {suspect: Ben" in new and "[]" not in new.split("moves:")[1].splitlines()[0]
    assert "moves: []" in remove_last_move(new)


def test_block_style_moves_are_appended_after_their_last_line():
    text = "rules: lady-alice\nplayers: [Ann, Ben, Cat, Dan]\nmoves:\n- suspect: Ann\n  clues: [Baker, P2, T3, O4]\n  smiles: 1\n"
    new, _line = append_move(text, "{pass: Ben}")
    assert new.endswith("  smiles: 1\n- {pass: Ben}\n")
    assert remove_last_move(new).rstrip("\n") == text.rstrip("\n")


# -- through a terminal ----------------------------------------------------------------------


class Session:
    """The recorder in a pseudo-terminal: type lines, read the screen."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str] | None = None):
        master, slave = pty.openpty()
        self.master = master
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
        full_env.update({"COLUMNS": "100", "TERM": "dumb", **(env or {})})
        def controlling_terminal() -> None:  # a session of its own, the terminal its own: Ctrl-C is SIGINT
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen([*CLI, *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                     env=full_env, preexec_fn=controlling_terminal, close_fds=True)
        os.close(slave)
        self.screen = ""

    def read_until(self, pattern: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        start = len(self.screen)
        while not re.search(pattern, self.screen[start:]):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{pattern!r} not seen; screen:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    if self.proc.poll() is not None:
                        raise EOFError(self.screen[-2000:])
                    continue
                self.screen += chunk.decode("utf-8", "replace").replace("\r", "")
        return self.screen[start:]

    def type(self, text: str, at_prompt: bool = True) -> None:
        # readline sets the terminal up (out of canonical mode) after it prints the prompt, and
        # what is typed in between may be dropped: at a prompt, wait for the terminal's mode
        # to say that readline waits for keys (then a little more, as a person is never that fast).
        if at_prompt:
            deadline = time.monotonic() + TIMEOUT
            while termios.tcgetattr(self.master)[3] & termios.ICANON:
                assert self.proc.poll() is None and time.monotonic() < deadline, self.screen[-2000:]
                time.sleep(0.02)
        time.sleep(0.1)
        os.write(self.master, text.encode())

    def interrupt_at_prompt(self) -> int:
        """Ctrl-C at the prompt until the session ends (a SIGINT that comes as readline starts
        to wait for a key can be missed by input(): seen once on a loaded machine); its status."""
        for _ in range(60):
            self.type("\x03")
            try:
                return self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                continue
        return self.close()

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            os.close(self.master)


def test_recording_a_game_at_the_table(tmp_path):
    log = tmp_path / "game.yaml"
    s = Session([str(log), "--rules", "lady-alice", "--players", *PLAYERS], tmp_path)
    s.read_until(r"move 1 \(Ann\)> ")
    assert "{suspect: Ann, clues: ?, smiles: ?}" in s.screen          # the legal moves
    s.type("suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1\r")
    s.read_until(r"move 2 \(Ben\)> ")
    s.type("{pass: Cat}\r")                                           # not Cat's turn
    out = s.read_until(r"move 2 \(Ben\)> ")
    assert "not recorded" in out and "LA205" in out and "{pass: Ben}" in out
    s.type("pl\t")                                                     # Tab: place:
    s.read_until(r"place: ")
    s.type(" Ben, clue: compa\t")                                      # Tab: compass
    s.read_until(r"compass")
    s.type(", value: 1\r")
    s.read_until(r"move 3 \(Cat\)> ")
    s.type("undo\r")
    s.read_until(r"move 2 \(Ben\)> ")
    s.type("pass: Ben\r")
    s.read_until(r"move 3 \(Cat\)> ")
    s.type("solve Ben\r")
    out = s.read_until(r"move 3 \(Cat\)> ")
    assert "viewpoint: player:Ben" in out and "evidence set(s) remain" in out
    s.type("show\r")
    out = s.read_until(r"move 3 \(Cat\)> ")
    assert "Cat to play" in out
    s.type("quit\r")
    assert s.close() == 0
    lines = log.read_text().splitlines()
    # names saved as printed (rules/lady-alice.yaml: 'Baker' is an alias of Samuel White Baker)
    assert lines[-2].startswith("  - {suspect: Ann, clues: [Samuel White Baker, ") and "P2" not in lines[-2]
    assert lines[-1] == "  - {pass: Ben}"
    assert check_log(str(log)).status == 0


def test_a_kill_in_the_middle_of_a_save_loses_nothing_recorded(tmp_path):
    log = tmp_path / "game.yaml"
    log.write_text(new_log("lady-alice", PLAYERS))
    s = Session([str(log)], tmp_path)
    s.read_until(r"move 1 \(Ann\)> ")
    s.type("suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1\r")
    s.read_until(r"move 2 \(Ben\)> ")
    s.type("quit\r")
    assert s.close() == 0
    saved = log.read_text()
    # The save waits (at most 60 s) between its temporary file and the rename: the temporary
    # file appearing is the signal that the save is under way, the kill comes well within it.
    s = Session([str(log)], tmp_path, env={"RULESLAWYER_SAVE_PAUSE": "60"})
    s.read_until(r"move 2 \(Ben\)> ")
    s.type("pass: Ben\r")
    deadline = time.monotonic() + TIMEOUT
    while not list(tmp_path.glob(".game.yaml.*.tmp")):              # the save is under way
        assert time.monotonic() < deadline, s.screen[-2000:]
        time.sleep(0.05)
    s.type("\x03", at_prompt=False)                                   # Ctrl-C during the save: held off
    time.sleep(0.3)
    assert s.proc.poll() is None
    os.killpg(s.proc.pid, signal.SIGKILL)                              # then a crash
    s.close()
    assert log.read_text() == saved                                    # the log is whole, its moves kept
    assert check_log(str(log)).status == 0
    s = Session([str(log)], tmp_path)                                  # the next session cleans up and goes on
    s.read_until(r"move 2 \(Ben\)> ")
    assert not list(tmp_path.glob(".game.yaml.*.tmp"))
    s.type("pass: Ben\r")
    s.read_until(r"move 3 \(Cat\)> ")
    assert s.interrupt_at_prompt() == 130                             # Ctrl-C at the prompt: leaves, nothing lost
    s.read_until(r"\(interrupted: the 2 moves in .* are saved\)")  # and one line says so
    s.close()                                                         # (130: as a shell says of Ctrl-C)
    assert log.read_text().splitlines()[-1] == "  - {pass: Ben}"


def test_a_new_log_needs_rules_and_players(tmp_path):
    out = run_guarded([*CLI, str(tmp_path / "new.yaml")], timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "--rules and --players" in out.stdout
    assert not (tmp_path / "new.yaml").exists()


def test_a_script_on_a_pipe_records_too(tmp_path):
    log = tmp_path / "game.yaml"
    script = "suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1\nbogus\npass: Ben\n"
    out = run_guarded([*CLI, str(log), "--rules", "lady-alice", "--players", *PLAYERS], input=script, timeout=TIMEOUT)
    assert out.returncode == 0 and "not a move" in out.stdout
    assert log.read_text().count("\n  - {") == 2
