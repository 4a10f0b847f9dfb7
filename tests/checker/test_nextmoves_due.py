"""What comes next names the player a move is due from, and the templates write a guess's card
(issue 24, point 7).

Perfect Alibi's rulebook: "After this final question you must make a guess at
the missing alibi": after Blue's final question in ``clean-3p.yaml`` (its
second-to-last move), Blue is to play a guess, whoever's turn it is.  Clue's
summary: "The players are then asked in turn, clockwise, starting with the
player to the suggester's left": in [Ann, Ben, Cat] after Ben's suggestion and
Cat's "cannot", Ann must answer.
"""

from __future__ import annotations

import json
import subprocess

from ..conftest import ROOT, cli

ALIBI = ROOT / "examples" / "perfect-alibi" / "clean-3p.yaml"
LAST = "  - {guess: Blue, card: L4 6, correct: true}\n"
CLUE = """rules: clue
variant: 3p
players: [Ann, Ben, Cat]
first: Ann
moves:
  - {suggest: Ann, suspect: Plum, weapon: Rope, room: Hall}
  - {cannot: Ben}
  - {cannot: Cat}
  - {suggest: Ben, suspect: Scarlet, weapon: Dagger, room: Study}
  - {cannot: Cat}
"""


def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": "80"}, cwd=ROOT)


def before_the_guess(tmp_path):
    text = ALIBI.read_text()
    assert LAST in text
    path = tmp_path / "final.yaml"
    path.write_text(text.split(LAST)[0])  # the final question is the last move; no end: record
    return path


def test_after_a_final_question_the_asker_is_to_play_a_guess_with_its_card(tmp_path):
    path = before_the_guess(tmp_path)
    done = run("check", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("next:"))
    assert lines[head].startswith("next: move 62, Blue to play"), lines[head]
    assert lines[head + 1] == "  - {guess: Blue, card: ?, correct: ?}"
    nxt = json.loads(run("check", str(path), "--format", "json").stdout)[0]["next"]
    assert nxt["to_play"] == "Blue" and nxt["moves"][0]["due"] is True
    assert "Blue to play" in run("show", str(path)).stdout.splitlines()[3]


def test_the_template_filled_in_is_a_legal_move(tmp_path):
    path = before_the_guess(tmp_path)
    path.write_text(path.read_text() + LAST)  # the template {guess: Blue, card: ?, correct: ?} filled in
    done = run("check", str(path))
    assert done.returncode == 0 and "winner: Blue" in done.stdout, done.stdout


def test_clue_the_player_who_must_answer_is_to_play(tmp_path):
    path = tmp_path / "answer.yaml"
    path.write_text(CLUE)
    done = run("check", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "next: move 6, Ann to play" in done.stdout
    shown = run("show", str(path)).stdout
    assert "Ben's turn, Ann to play" in shown
