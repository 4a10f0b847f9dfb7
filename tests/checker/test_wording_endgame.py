"""Wording at the end of a game and in short answers (issue 24, point 10).

* ``--hindsight`` says "could have ... then" only of a player still in a game
  not over.  ``examples/perfect-alibi/clean-4p.yaml`` counted by hand from its
  moves (``moves:`` on line 17): Yellow guesses wrongly at move 37 (line 54),
  Blue at move 44 (line 61), Green rightly at move 61 (line 78, the last: it
  ends the game).  Lady Alice's ``clean-4p.yaml`` ends with Gordon's accusation,
  move 26: the others, who knew only then, could not accuse any more.
* ``solve --explain CARD`` answers without reprinting the whole table.
* ``explain CODE`` prints no raw ``{expression}`` of a message template.
"""

from __future__ import annotations

import json
import re
import subprocess

from ..conftest import ROOT, cli

ALIBI4 = ROOT / "examples" / "perfect-alibi" / "clean-4p.yaml"
LADY4 = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
WRONG = {"Yellow": 37, "Blue": 44}   # wrong guesses, by move number (counted from the file's lines)
LAST = 61


def run(*args: str) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": "80"}, cwd=ROOT)


def test_the_move_numbers_counted_by_hand_are_the_logs():
    lines = ALIBI4.read_text().splitlines()
    start = lines.index("moves:")
    guesses = {i - start: line for i, line in enumerate(lines) if "{guess:" in line}
    assert {n: re.search(r"guess: (\w+)", g).group(1) for n, g in guesses.items()} == {37: "Yellow", 44: "Blue", 61: "Green"}


def test_hindsight_could_end_only_for_a_player_in_a_game_not_over():
    out = json.loads(run("solve", str(ALIBI4), "--hindsight", "--format", "json").stdout)
    for who, step in out["hindsight"].items():
        if not who.startswith("player:") or step is None:
            assert out["could_end"][who] is None
            continue
        player = who.split(":", 1)[1]
        want = "over" if step >= LAST else "out" if step >= WRONG.get(player, LAST + 1) else "yes"
        assert out["could_end"][who] == want, (who, step)
    assert out["could_end"]["player:Green"] == "over" and out["could_end"]["player:Blue"] == "out"


def test_hindsight_text_after_the_game_ending_accusation():
    text = run("solve", str(LADY4), "--hindsight").stdout
    lines = [line.strip() for line in text.splitlines()]
    for p in ("Helen", "John", "Audrey"):
        assert f"player:{p}: after move 26 (the game was over)" in lines
    assert sum("could have" in line for line in lines) == sum(line.startswith("player:Gordon") for line in lines) == 1


def test_explain_answers_without_the_table():
    plain = run("solve", str(LADY4), "--at", "20").stdout
    chance = re.search(r"\bcompass +(\d+\.\d)%", plain)
    assert chance is not None and "Suspects" in plain
    short = run("solve", str(LADY4), "--at", "20", "--explain", "compass").stdout
    assert "Suspects" not in short and "remaining solutions" not in short
    assert short.splitlines()[-1] == f"compass is still open ({chance.group(1)}%)"
    assert len(short.splitlines()) <= 6


def test_explain_a_code_without_raw_placeholders():
    text = run("explain", "PA218").stdout
    meanings = text.split("Rules:")[0]
    assert "{" not in meanings and "<must choose> must first choose a new assistant" in meanings
    assert "the player guessed wrong" in run("explain", "PA202").stdout
