"""``play``: a move typed without its player, and names saved as printed (issue 24, point 4).

The recorder is driven in-process (:class:`Recorder`, its output to a buffer)
on the opening of an example log; what it saves is compared with the example's
own next lines (Lady Alice's are written with the printed names) or with the
names the rule file prints, copied here by hand.  One session goes through the
command itself, from a pipe.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log
from ruleslawyer.checker.recorder import Recorder

from ..conftest import ROOT, run_guarded

LA = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"
PA = ROOT / "examples" / "perfect-alibi" / "clean-3p.yaml"
TIMEOUT = 300.0  # a hang guard, never a measure


def _opening(tmp_path: Path, example: Path, last_line: int) -> tuple[Path, list[str]]:
    """The example's lines up to ``last_line`` (a move) as a log of its own; the lines after."""
    lines = example.read_text().splitlines()
    log = tmp_path / "game.yaml"
    log.write_text("\n".join(lines[:last_line]) + "\n")
    return log, lines[last_line:]


def _recorder(log: Path) -> tuple[Recorder, io.StringIO]:
    out = io.StringIO()
    return Recorder(log, out=out), out


def _last_move(log: Path) -> str:
    return log.read_text().rstrip("\n").splitlines()[-1]


def test_a_bare_pass_is_the_pass_of_the_player_whose_turn_it_is(tmp_path):
    """clean-4p, after Helen's first suspicion (line 12): Gordon, John, Audrey, Helen pass (lines 13-16)."""
    log, after = _opening(tmp_path, LA, 12)
    recorder, out = _recorder(log)
    for expected in after[:4]:
        assert recorder.try_move("pass"), out.getvalue()
        assert _last_move(log) == expected
    assert "LG102" not in out.getvalue() and check_log(str(log)).status == 0


@pytest.mark.parametrize("typed", ["pass:", "{pass}", "{pass: ~}", "- pass", "  PASS  "])
def test_every_way_of_leaving_the_player_out(tmp_path, typed):
    log, after = _opening(tmp_path, LA, 12)
    recorder, out = _recorder(log)
    assert recorder.try_move(typed), out.getvalue()
    assert _last_move(log) == after[0] == "  - {pass: Gordon}"


def test_a_move_with_parameters_and_no_player_and_names_as_typed(tmp_path):
    """clean-4p after Gordon's suspicion (line 18): John's, Audrey's and Helen's counters (lines 19-21),
    typed in lower case, by alias, without the player."""
    log, after = _opening(tmp_path, LA, 18)
    recorder, out = _recorder(log)
    assert recorder.try_move("place, clue: mary kingsley, value: 1"), out.getvalue()
    assert recorder.try_move("{PLACE: audrey, clue: waterloo, value: 2}"), out.getvalue()
    assert recorder.try_move("place, clue: kingsley, value: 0, reveals: {john: 1}"), out.getvalue()
    assert log.read_text().splitlines()[18:21] == after[:3]
    assert "recorded move 9: {place: Helen, clue: Mary Kingsley" in out.getvalue()  # what is saved


def test_a_name_that_needs_quotes_when_printed_gets_them(tmp_path):
    """clean-4p line 30: Helen's counter on 7:00, typed by its alias '7h00'."""
    log, after = _opening(tmp_path, LA, 29)
    recorder, out = _recorder(log)
    assert recorder.try_move("place, clue: 7h00, value: 2"), out.getvalue()
    assert _last_move(log) == after[0] == '  - {place: Helen, clue: "7:00", value: 2}'


def test_perfect_alibi_the_rule_files_names(tmp_path):
    """clean-3p line 28 is {ask: Blue, target: Yellow, symbol: clock, asked: ["12"], answer: 0}; the rule
    file prints the symbol 'Clock' and the time "12 o'clock" (rules/perfect-alibi.yaml)."""
    log, after = _opening(tmp_path, PA, 27)
    assert after[0] == '  - {ask: Blue, target: Yellow, symbol: clock, asked: ["12"], answer: 0}'
    recorder, out = _recorder(log)
    assert recorder.try_move("ask, target: yellow, symbol: time tile, asked: [twelve], answer: 0"), out.getvalue()
    # quoted only where YAML needs it, as fmt writes it (checker/yamltext.py): "12 o'clock" reads as itself
    assert _last_move(log) == """  - {ask: Blue, target: Yellow, symbol: Clock, asked: [12 o'clock], answer: 0}"""
    assert check_log(str(log)).status == 0


def test_no_player_guessed_when_nobody_may_make_the_move(tmp_path):
    """A pass while Helen must suspect (clean-4p, after the first round of passes, line 16)."""
    log, _after = _opening(tmp_path, LA, 16)
    before = log.read_bytes()
    recorder, out = _recorder(log)
    assert not recorder.try_move("pass")
    assert "nobody may pass now" in out.getvalue() and log.read_bytes() == before


def test_no_player_guessed_after_the_end(tmp_path):
    log, _after = _opening(tmp_path, LA, 39)  # the accusation that ends the game
    before = log.read_bytes()
    recorder, out = _recorder(log)
    assert not recorder.try_move("pass")
    assert "the game is over" in out.getvalue() and log.read_bytes() == before


@pytest.mark.parametrize("typed", ["{pass: [Ben]}", "{pass, pass}", "pass: nobody", "{pass: \"\\x07\"}"])
def test_hostile_moves_are_refused_and_nothing_is_written(tmp_path, typed):
    log, _after = _opening(tmp_path, LA, 12)
    before = log.read_bytes()
    recorder, out = _recorder(log)
    assert not recorder.try_move(typed)
    assert log.read_bytes() == before and "\x07" not in out.getvalue() and "Traceback" not in out.getvalue()


def test_through_the_command(tmp_path):
    log, after = _opening(tmp_path, LA, 12)
    run = run_guarded([sys.executable, "-m", "ruleslawyer.checker", "play", str(log)], input="pass\n{pass: JOHN}\n",
                      timeout=TIMEOUT, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert log.read_text().splitlines()[12:14] == after[:2] == ["  - {pass: Gordon}", "  - {pass: John}"]
