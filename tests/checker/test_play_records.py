"""``play`` at the table (issue 24, point 4): a Perfect Alibi or Clue log started from the
command line (``--setup``), a player's own hand or evidence entered (``--private``, or
``private KEY: VALUE`` in a session) so that ``solve`` from their seat uses it, and the end of
the game (scores, winner) shown when the last move is recorded.

Expectations come from the example logs (their ``end:`` records, written by hand) and from the
moves themselves (a suspicion with no smile names no evidence).
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.recorder import Recorder

from ..conftest import ROOT, run_guarded

EX = ROOT / "examples"
TIMEOUT = 300.0  # a hang guard, never a measure


def _opening(tmp_path: Path, example: Path, last_line: int, drop: tuple[int, int] | None = None) -> tuple[Path, list[str]]:
    """The example's lines up to ``last_line`` as a log of its own (lines ``drop``, 1-based and
    inclusive, left out); the lines after."""
    lines = example.read_text().splitlines()
    head = lines[:last_line]
    if drop is not None:
        del head[drop[0] - 1:drop[1]]
    log = tmp_path / "game.yaml"
    log.write_text("\n".join(head) + "\n")
    return log, lines[last_line:]


def _play(tmp_path: Path, *argv: str, stdin: str = "quit\n") -> subprocess.CompletedProcess:
    return run_guarded([sys.executable, "-m", "ruleslawyer", "play", *argv], input=stdin, timeout=TIMEOUT, cwd=tmp_path)


def test_the_end_of_the_game_shows_the_scores_and_the_winner(tmp_path):
    """clean-4p's end records Gordon 8, Helen 2, John 3, Audrey 2 and Gordon the winner."""
    log, after = _opening(tmp_path, EX / "lady-alice" / "clean-4p.yaml", 38)
    out = io.StringIO()
    recorder = Recorder(log, out=out)
    assert recorder.try_move(after[0]), out.getvalue()
    status = recorder.status()
    assert "the game is over after 26 moves" in status
    for line in ("Helen: 2", "Gordon: 8", "John: 3", "Audrey: 2", "winner: Gordon"):
        assert line in status, status


def test_the_end_of_a_perfect_alibi_game_shows_its_winner(tmp_path):
    log, after = _opening(tmp_path, EX / "perfect-alibi" / "clean-3p.yaml", 77)
    out = io.StringIO()
    recorder = Recorder(log, out=out)
    assert after[0] == "  - {guess: Blue, card: L4 6, correct: true}"
    assert recorder.try_move(after[0]), out.getvalue()
    assert "winner: Blue" in recorder.status(), recorder.status()


def test_a_perfect_alibi_log_is_started_with_its_setup_and_a_hand(tmp_path):
    """Before: RL010 'write the header by hand'.  Now the colours (the setup: record every
    Perfect Alibi log needs) and Yellow's hand come from the command line, and the first moves of
    clean-3p (its setup and hands) are recorded on it."""
    result = _play(tmp_path, "game.yaml", "--rules", "perfect-alibi", "--players", "Yellow", "Blue", "Green")
    assert result.returncode == 2 and "--setup 'KEY: VALUE'" in result.stdout + result.stderr
    assert "colours" in result.stdout + result.stderr and not (tmp_path / "game.yaml").exists()
    moves = [line.strip()[2:] for line in (EX / "perfect-alibi" / "clean-3p.yaml").read_text().splitlines()[16:22]]
    result = _play(tmp_path, "game.yaml", "--rules", "perfect-alibi", "--players", "Yellow", "Blue", "Green",
                   "--first", "Green", "--setup", "colours: {Yellow: Yellow, Blue: Blue, Green: Green}",
                   "--private", "hand: {Yellow: [L4 T4, Restaurant T3, Bar 6, Restaurant 6, Solarium 6]}",
                   stdin="\n".join([*moves, "quit"]) + "\n")
    assert result.returncode == 0, result.stdout + result.stderr
    text = (tmp_path / "game.yaml").read_text()
    assert "setup:\n  colours: {Yellow: Yellow, Blue: Blue, Green: Green}\n" in text
    assert "private:\n  hand: {Yellow: [L4 T4, Restaurant T3, Bar 6, Restaurant 6, Solarium 6]}\n" in text
    assert text.count("\n  - {") == 6 and check_log(str(tmp_path / "game.yaml")).status == 0


def test_a_clue_log_is_started_with_a_hand(tmp_path):
    """Clue needs no setup: record; Ann's hand from clean-3p, and solve from her seat knows it."""
    result = _play(tmp_path, "game.yaml", "--rules", "clue", "--players", "Ann", "Ben", "Cat",
                   "--private", "hand: {Ann: [Miss Scarlet, Mrs. Peacock, Candlestick, Lead Pipe, Revolver, Study]}",
                   stdin="solve Ann\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "player:Ann" in result.stdout
    solved = result.stdout.split("player:Ann", 1)[1]
    row = next(line for line in solved.splitlines() if line.startswith("Miss Scarlet"))
    assert "0.0%" in row, solved     # her own card is not in the envelope


def test_a_player_enters_their_evidence_during_the_game(tmp_path):
    """clean-4p without its private: section (lines 8-9), after move 10.  Gordon's evidence
    is Mary Kingsley (the example's record); Tippu Tip cannot be anyone's: move 1 named it with
    no smile.  The first is recorded, the second refused, and solve from Gordon's seat knows it."""
    log, _after = _opening(tmp_path, EX / "lady-alice" / "clean-4p.yaml", 20, drop=(8, 9))
    out = io.StringIO()
    recorder = Recorder(log, out=out)
    spectator = io.StringIO()
    recorder.out = spectator
    recorder.solve("Gordon")
    assert "Mary Kingsley                    50.0%" in spectator.getvalue()   # before: Gordon's view is the spectator's
    recorder.out = out
    before = log.read_text()
    assert not recorder.record("private", "evidence: {Gordon: Tippu Tip}")
    assert "not recorded" in out.getvalue() and "LA310" in out.getvalue() and log.read_text() == before
    assert recorder.record("private", "evidence: {Gordon: Mary Kingsley}"), out.getvalue()
    text = log.read_text()
    assert text == before.replace("moves:\n", "private:\n  evidence: {Gordon: Mary Kingsley}\nmoves:\n", 1)
    seat = io.StringIO()
    recorder.out = seat
    recorder.solve("Gordon")
    assert "Mary Kingsley                   100.0%!" in seat.getvalue(), seat.getvalue()
    assert check_log(str(log)).status == 0


def test_the_private_command_through_a_session(tmp_path):
    log, _after = _opening(tmp_path, EX / "lady-alice" / "clean-4p.yaml", 20, drop=(8, 9))
    result = _play(tmp_path, log.name, stdin="private evidence: {Gordon: Mary Kingsley}\nprivate evidence: {John: compass}\nquit\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "recorded in private: evidence: {Gordon: Mary Kingsley}" in result.stdout
    assert "has evidence already" in result.stdout      # one record per key: the second is edited by hand
