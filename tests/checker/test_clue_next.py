""""What comes next" lists the moves of players who are out but must still answer
(issue 22): in Clue a player out after a wrong accusation still answers suggestions."""

from __future__ import annotations

from ..conftest import cli

LOG = """rules: clue
variant: 3p
players: [Ann, Ben, Cat]
first: Ann
moves:
  - {accuse: Ann, suspect: Plum, weapon: Rope, room: Hall, correct: false}
  - {suggest: Ben, suspect: Scarlet, weapon: Dagger, room: Study}
  - {cannot: Cat}
"""


def test_a_player_out_who_must_answer_is_listed_next(tmp_path):
    path = tmp_path / "out-answers.yaml"
    path.write_text(LOG)
    done = cli("check", str(path))  # in this process: only the output and status are read
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no move is legal" not in done.stdout
    assert "{cannot: Ann}" in done.stdout and "{show: Ann" in done.stdout, done.stdout
    # and the answer is legal indeed: the log goes on clean with it
    path.write_text(LOG + "  - {cannot: Ann}\n")
    done = cli("check", str(path))  # in this process: only the output and status are read
    assert done.returncode == 0 and "Ben" in done.stdout, done.stdout + done.stderr
