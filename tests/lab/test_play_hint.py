"""``hint`` at ``play``'s prompt (issue 23): the best moves for the player to move, from a seat.

Driven as a script on a pipe, as a person's session would be.  The figures
expected are hand counts from the rulebook's deal (4 players: one evidence
card in each of 4 categories of 8 clues, 8**4 = 4,096 evidence sets): after
the first suspicion of the bundled 4-player game (four red herrings, 0
smiles) 7**4 = 2,401 sets are left for a spectator, and for Gordon, who holds
Mary Kingsley (a person), 7**3 = 343.  A suspicion of four clues no one has
ruled out gets k smiles with the binomial chance C(4, k) (1/7)**k (6/7)**(4-k)
for a spectator: 54.0 %, 36.0 %, 9.0 %; for Gordon, one of the four a person
he knows is not evidence: C(3, k) (1/7)**k (6/7)**(3-k), 63.0 %, 31.5 %, 5.2 %.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT, run_guarded

CLI = [sys.executable, "-m", "ruleslawyer.checker", "play"]
TIMEOUT = 300  # a hang guard, never a measure


def _log(tmp_path: Path, moves: int) -> Path:
    """The bundled clean 4-player game cut after ``moves`` moves (its end: record left out)."""
    text = (ROOT / "examples/lady-alice/clean-4p.yaml").read_text()
    head, body = text.split("moves:\n", 1)
    kept = [line for line in body.splitlines() if line.startswith("  - ")][:moves]
    log = tmp_path / "game.yaml"
    log.write_text(head + "moves:\n" + "".join(line + "\n" for line in kept))
    return log


def _play(log: Path, *args: str, script: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_") or k == "RULESLAWYER_CACHE"}
    env["COLUMNS"] = "400"
    return run_guarded([*CLI, str(log), *args], input=script, timeout=TIMEOUT, env=env)


def _answers(block: str) -> list[str]:
    """The chances of the first choice's answers, as printed."""
    lines = block.splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1 "))
    out = []
    for line in lines[first + 1:]:
        if "%" not in line:
            break
        out.append(line.split()[0])
    return out


@pytest.mark.heavy
def test_hint_from_the_session_seat_a_named_seat_and_a_spectator(tmp_path):
    log = _log(tmp_path, 5)
    before = log.read_bytes()
    out = _play(log, "--as", "gordon", script="help\nhint\nhint Helen\nquit\n")
    assert out.returncode == 0, out.stdout + out.stderr
    parts = out.stdout.split("move 6 (Gordon)> ")
    assert "hint [NAME]" in parts[1]                               # help lists it
    mine = parts[2]
    assert "Gordon to move after move 5: " in mine and "343 solutions fit" in mine
    assert _answers(mine)[:3] == ["63.0%", "31.5%", "5.2%"]
    helen = parts[3]
    assert "seen from Helen" in helen and "343 solutions fit" in helen   # Helen holds 7:00: 7**3 too
    assert log.read_bytes() == before                                  # a hint records nothing
    spectator = _play(log, script="hint\nquit\n")
    block = spectator.stdout.split("move 6 (Gordon)> ")[1]
    assert "seen by a spectator" in block and "2,401 solutions fit" in block
    assert _answers(block)[:3] == ["54.0%", "36.0%", "9.0%"]


def test_hint_refuses_what_it_cannot_answer_in_one_line(tmp_path):
    log = _log(tmp_path, 5)
    out = _play(log, script="hint all\nhint Zed\x1b[31m\nquit\n")
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert "no hint from 'all'" in out.stdout
    assert "no player 'Zed\\x1b[31m'" in out.stdout and "\x1b" not in out.stdout   # escaped
    ended = _log(tmp_path, 100)
    out = _play(ended, script="hint\nquit\n")
    assert "no hint: the game has ended after move" in out.stdout


def test_play_as_a_name_that_is_not_a_player_is_a_diagnostic(tmp_path):
    log = _log(tmp_path, 5)
    out = _play(log, "--as", "Gordn", script="quit\n")
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr
    assert f"{log}: error[RL010]: --as Gordn: not a player" in out.stdout and "did you mean 'Gordon'" in out.stdout
