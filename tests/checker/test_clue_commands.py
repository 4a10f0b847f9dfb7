"""Every command on Clue (issue 22): check, solve --as, show, report, play, simulate,
compare and prove, on the bundled examples, with small game counts."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from ruleslawyer.spec.loader import load_rules

from ..conftest import ROOT, cli
from .test_recorder import Session

EXAMPLES = ROOT / "examples" / "clue"


def run(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    done = cli(*args, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def test_check_every_clean_game():
    for n in (3, 4, 6):
        done = run("check", str(EXAMPLES / f"clean-{n}p.yaml"))
        assert done.returncode == 0 and f"clue[players={n}]" in done.stdout and "clean" in done.stdout


def test_solve_from_a_seat_gives_status_and_says_when_chances_are_not_counted():
    log = EXAMPLES / "clean-4p.yaml"
    done = run("solve", str(log), "--as", "Ann", "--at", "10", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    got = json.loads(done.stdout)["solve"]
    rules = load_rules("clue", variant="4p")
    hand = [rules.find("cards", c) for c in yaml.safe_load(log.read_text())["private"]["hand"]["Ann"]]
    assert len(hand) == 5 and all(got["status"][c] == "out" for c in hand)  # Ann sees her own cards
    spectator = json.loads(run("solve", str(log), "--at", "10", "--format", "json").stdout)["solve"]
    assert set(spectator["status"].values()) == {"open"}  # 10 answers tell the table nothing sure here
    if got.get("counted") is False:  # no counting engine takes the full deck: a note says so
        notes = json.loads(done.stdout)["notes"]
        assert notes[0]["code"] == "RL160" and got["count"] is None
    end = json.loads(run("solve", str(log), "--as", "Ann", "--format", "json").stdout)["solve"]
    assert end["determined"] and end["solutions"] == [sorted(end["solutions"][0], key=list(end["status"]).index)]


def test_show_in_every_format_and_report(tmp_path):
    log = str(EXAMPLES / "clean-6p.yaml")
    text = run("show", log, "--at", "12", "--as", "Ben")
    assert text.returncode == 0 and "Ben: hand:" in text.stdout, text.stdout
    data = json.loads(run("show", log, "--at", "12", "--format", "json").stdout)
    assert [p["name"] for p in data["players"]] == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    svg = run("show", log, "--at", "12", "--format", "svg").stdout
    assert svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>")
    page = tmp_path / "clue.html"
    done = run("report", str(EXAMPLES / "clean-3p.yaml"), "-o", str(page), "--as", "Cat")
    assert done.returncode == 0 and page.read_text().count("<script") >= 2


def test_play_records_a_suggestion_and_its_answers(tmp_path):
    log = tmp_path / "game.yaml"
    s = Session([str(log), "--rules", "clue", "--variant", "3p", "--players", "Ann", "Ben", "Cat"], tmp_path)
    s.read_until(r"move 1 \(Ann\)> ")
    s.type("suggest: Ann, suspect: Plum, weapon: Rope, room: Hall\r")
    out = s.read_until(r"move 2 \(Ann\)> ")
    assert "{cannot: Ben}" in out and "{show: Ben" in out
    s.type("{show: Cat}\r")                       # Ben is asked first
    out = s.read_until(r"move 2 \(Ann\)> ")
    assert "not recorded" in out and "CL212" in out
    s.type("cannot: Ben\r")
    s.read_until(r"move 3 \(Ann\)> ")
    s.type("show: Cat\r")                         # Ann saw the card, the log keeper did not
    s.read_until(r"move 4 \(Ben\)> ")
    s.type("solve Ann\r")
    out = s.read_until(r"move 4 \(Ben\)> ")
    assert "viewpoint: player:Ann" in out and "possible envelope" in out
    s.type("quit\r")
    assert s.close() == 0
    # saved with the names as printed (the rule file: "name: Professor Plum", typed as its alias "Plum")
    assert log.read_text().splitlines()[-3:] == [
        "  - {suggest: Ann, suspect: Professor Plum, weapon: Rope, room: Hall}", "  - {cannot: Ben}", "  - {show: Cat}"]


#: Random bots that accuse as often as they do anything else (the rule file's weights, one accusation
#: in about twenty turns, make 200-move games: 56 s of CPU for the twelve here, against 3.5 s).
QUICK = "random:accuse=1"


@pytest.mark.heavy
def test_simulate_compare_and_prove(tmp_path):
    done = run("simulate", "clue", "--variant", "3p", "--games", "12", "--seed", "4", "--format", "json",
               "--bots", QUICK, "--logs", str(tmp_path / "logs"))
    assert done.returncode == 0, done.stdout + done.stderr
    got = json.loads(done.stdout)
    assert got["games"] == 12 and got["rules"] == "clue[players=3]" and got["redrawn"] == 0
    assert not any("stuck" in e for e in json.dumps(got["ends"]).split('"'))  # answers are never stuck
    logs = sorted(str(p) for p in (tmp_path / "logs").glob("*.yaml"))
    checked = run("check", *logs)  # one process for every log
    assert logs and checked.returncode == 0, checked.stdout + checked.stderr
    done = run("compare", "clue", "--with", "face-up", "--games", "6", "--seed", "1", "--bots", QUICK)
    assert done.returncode == 0 and "+face-up" in done.stdout, done.stdout + done.stderr
    done = run("prove", "clue", "--variant", "3p", "--property", str(EXAMPLES / "lab" / "properties.yaml"),
               "--depth", "2")
    assert done.returncode == 0 and done.stdout.count("holds up to depth 2") == 5, done.stdout + done.stderr
