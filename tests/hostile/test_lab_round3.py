"""Issue 25, round three: the variant lab on odd input (``corpus/outputs/cases.tsv``).

Before the fix: ``--games 3 --plots`` crashed ('yerr' must not contain negative values: a
Wilson bound of 5.6e-17 above a rate of 0); weights of 1e308 summed to infinity and every draw
was the last kind; a bot whose weights left it no move was "stuck" and its game played again
with another first player; an unreachable Dask scheduler took 10-21 s to fail; an overlay given
as a file was named by its name in the sampled logs, which then did not check (0 of N clean),
and nothing said why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ruleslawyer.checker.cli import main
from ruleslawyer.lab.bots import BotSpecError, parse_bots
from ruleslawyer.lab.simulate import CONNECT_TIMEOUT, Config, run
from ruleslawyer.lab.stats import mean_ci, rate_ci
from ruleslawyer.spec.diagnostics import Diagnostic
from ruleslawyer.checker.report import LogReport

from .hostile_helpers import ROOT, cli_command

EX = ROOT / "examples"
FLAWED = EX / "lady-alice" / "lab" / "short-of-cards.yaml"
KINDS = ["suspect", "pass", "place", "accuse"]
#: A subprocess's time: far above a quiet run, never a measure of speed.
TIMEOUT = 300


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "internal error" not in text, text
    return status, text


def test_every_wilson_interval_holds_its_rate_within_0_and_1():
    """The red team counted 86 game counts in 1..500 with a lower bound above the rate 0 and
    151 with an upper bound below the rate 1; every (k, n) is checked here."""
    for n in range(1, 501):
        for k in range(n + 1):
            d = rate_ci(k, n)
            assert 0.0 <= d["lo"] <= d["rate"] <= d["hi"] <= 1.0, (k, n, d)


def test_a_mean_interval_stays_in_its_quantity_s_range():
    """Issue 24 point 10: "0.81 [0.60, 1.02] of the game", "-12.5 moves before the end"."""
    share = mean_ci([0.25, 1.0, 1.0, 1.0, 1.0], low=0, high=1)   # by hand: mean 0.85, normal half-width 0.29
    assert share["mean"] == pytest.approx(0.85) and share["hi"] == 1.0 and share["lo"] == pytest.approx(0.556, abs=1e-3)
    before = mean_ci([0, 0, 0, 40], low=0)
    assert before["mean"] == 10 and before["lo"] == 0 and before["hi"] > 10
    assert mean_ci([0, 0, 0, 40])["lo"] < 0                     # without a range, the plain normal interval


@pytest.mark.parametrize("command", ["simulate", "compare"])
@pytest.mark.filterwarnings("error::UserWarning")  # an empty plot's legend warned on stderr
def test_three_games_plot(tmp_path, capsys, command):
    argv = [command, "lady-alice", "--games", "3", "--no-determination", "--plots", tmp_path / "plots"]
    if command == "compare":
        argv += ["--with", "two-counters"]
    status, text = run_cli(argv, capsys)
    assert status == 0, text
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == sorted(
        f"{n}.{e}" for n in ("lengths", "winrate", "determination") for e in ("png", "svg"))


def _kinds(bots: str, games: int = 6) -> list[dict[str, int]]:
    result = run(Config("lady-alice", games=games, bots=bots, sample=0, track=False))
    return [r.kinds for r in result.records]


def test_huge_equal_weights_draw_as_equal_weights_do():
    """'random:suspect=1e308;...' summed to infinity: every draw was the last kind (accuse).  Equal
    weights, however large, are the uniform draw (weight 1 each, in place of the rule file's own
    weights, issue 23): the same games."""
    huge = "random:" + ";".join(f"{k}=1e308" for k in KINDS)
    uniform = "random:" + ";".join(f"{k}=1" for k in KINDS)
    assert _kinds(huge) == _kinds(uniform)
    assert _kinds("random:" + ";".join(f"{k}=3" for k in KINDS)) == _kinds(uniform)


@pytest.mark.parametrize("spec", ["random:" + ";".join(f"{k}=0" for k in KINDS), "random:pass=inf",
                                  "random:pass=nan", "random:pass=-1"])
def test_weights_that_cannot_draw_are_refused(spec, capsys):
    """All zero is new; infinite, NaN and negative weights were refused already (controls)."""
    with pytest.raises(BotSpecError):
        parse_bots(spec, 4, KINDS)
    status, text = run_cli(["simulate", "lady-alice", "--games", "1", "--bots", spec], capsys)
    assert status == 2 and "error[RL170]" in text, text


def test_a_bot_whose_weights_leave_it_no_move_is_an_error_naming_it(capsys):
    """'random:pass=0;place=0;accuse=0': P1 opens with a suspicion (its only kind of weight), then
    P2, in the deductions, may place, pass or accuse, all of weight 0, though pass is legal.  It
    was 'stuck: no legal move' and 'played again with another first player: 2', exit 0."""
    status, text = run_cli(["simulate", "lady-alice", "--games", "2", "--bots", "random:pass=0;place=0;accuse=0"],
                           capsys)
    assert status == 2 and "error[RL170]" in text, text
    assert "bot random:accuse=0;pass=0;place=0 " in text and "seat P2" in text and "after move 1" in text and "game 0" in text, text
    assert "played again" not in text


def test_a_game_stuck_by_its_rules_is_still_a_result():
    """A bot is in error only when it refuses a legal move: the plain random bot never is."""
    result = run(Config("lady-alice", games=4, bots="random:accuse=0.05", sample=0, track=False))
    assert len(result.records) == 4


@pytest.mark.parametrize("address", ["not an address", "tcp://127.0.0.1:1"])
def test_an_unreachable_scheduler_fails_with_a_diagnostic(address):
    """10-21 s before; now the address is read first and the connection waits 3 s.  The test
    counts that the command returns (the subprocess timeout is generous), never seconds."""
    pytest.importorskip("distributed", reason="the cluster extra (dask distributed) is not installed")
    done = subprocess.run([*cli_command(), "simulate", "lady-alice", "--games", "1", "--executor", "dask",
                           "--scheduler", address], capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)
    text = done.stdout + done.stderr
    assert done.returncode == 2 and "error[RL172]" in text and "Traceback" not in text, text
    if address == "not an address":  # refused as it is read, before any connection is tried
        assert "is not a scheduler address" in text, text
    else:  # the connection waited the short timeout (Dask's message names it), not Dask's 10 s
        assert f"after {CONNECT_TIMEOUT} s" in text, text


def test_an_overlay_given_as_a_file_is_named_so_that_check_finds_it(tmp_path, capsys, monkeypatch):
    """cases.tsv: simulate --house FILE gave 'sampled game logs: 0 of 2 check clean' (the logs
    named the overlay by its name, which check cannot find)."""
    status, text = run_cli(["simulate", "lady-alice", "--house", FLAWED, "--games", "2", "--no-determination"],
                           capsys)
    assert status == 0 and "sampled game logs: 2 of 2 check clean" in text, text
    # the logs written beside the overlay name it by its file name: check reads them as they are
    shutil.copy(FLAWED, tmp_path / "mine.yaml")
    monkeypatch.chdir(tmp_path)
    status, text = run_cli(["compare", "lady-alice", "--with", "mine.yaml", "--games", "2", "--no-determination",
                            "--logs", ".", "--format", "json"], capsys)
    assert status == 0, text
    answer = json.loads(text)
    assert answer["b"]["logs"] == {"checked": 2, "clean": 2, "problems": []}
    log = (tmp_path / "game-b-00000.yaml").read_text()
    assert 'house: ["mine.yaml"]' in log or "house: [mine.yaml]" in log, log
    status, text = run_cli(["check", "game-b-00000.yaml", "game-a-00000.yaml"], capsys)
    assert status == 0, text
    # in another folder, the path relative to it (check it with --allow-path, as simulate says)
    status, text = run_cli(["simulate", "lady-alice", "--house", "mine.yaml", "--games", "1", "--no-determination",
                            "--logs", "out"], capsys)
    assert status == 0 and "--allow-path" in text, text
    assert "../mine.yaml" in (tmp_path / "out" / "game-00000.yaml").read_text()
    status, text = run_cli(["check", "out/game-00000.yaml", "--allow-path", "."], capsys)
    assert status == 0, text


def test_a_sampled_log_that_does_not_check_clean_says_why(capsys, monkeypatch):
    """'0 of 2 check clean' said nothing more: each such log's first errors are given, in text and
    in JSON (a check that fails is made to fail here: no rule set of ours gives one)."""
    from ruleslawyer.lab import simulate

    def failing(text: str, path: str = "<log>", **kwargs: object) -> LogReport:
        return LogReport(path, None, [Diagnostic("RL001", "no house-rule file named 'x'", None)], unusable=True)

    monkeypatch.setattr(simulate, "check_text", failing)
    status, text = run_cli(["simulate", "lady-alice", "--games", "2", "--no-determination"], capsys)
    assert status == 1 and "0 of 2 check clean" in text and "game 0" in text and "game 1" in text
    assert "error[RL001]: no house-rule file named 'x'" in text
    status, text = run_cli(["simulate", "lady-alice", "--games", "2", "--no-determination", "--format", "json"],
                           capsys)
    problems = json.loads(text)["logs"]["problems"]
    assert [p["game"] for p in problems] == [0, 1] and problems[0]["diagnostics"][0]["code"] == "RL001"
