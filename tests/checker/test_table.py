"""``show``, ``check``'s move numbers and what comes next, ``solve`` on a broken log, ``--help``.

The picture is built from the rule file alone: the same code draws Lady
Alice's desk and the reduced Perfect Alibi of tests/spec/data (hands,
Rival tiles, a face-up card, no tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from ruleslawyer.checker.check import check_log, check_text
from ruleslawyer.checker.cli import build_parser

from ..conftest import ROOT, cli
from ..spec.test_reduced_game import DATA, HEAD, MOVES

EXAMPLES = ROOT / "examples" / "lady-alice"
CLI = [sys.executable, "-m", "ruleslawyer.checker"]


def run(*args: str, columns: int = 80) -> subprocess.CompletedProcess:
    return cli(*args, env={"COLUMNS": str(columns)})


@pytest.fixture
def alibi_log(tmp_path):
    for name in ("reduced-alibi.yaml", "reduced-alibi-rival.yaml"):
        (tmp_path / name).write_text((DATA / name).read_text())
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + MOVES)
    return path


# -- show -------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 120])
def test_show_draws_the_desk_at_a_move_and_fits_the_terminal(columns):
    out = run("show", str(EXAMPLES / "clean-4p.yaml"), "--at", "13", "--as", "Gordon", columns=columns)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    text = out.stdout
    assert "move 13 of 26" in text and "Gordon to play" in text and "business cards left: 24" in text
    assert "Tippu Tip [covered]" in text                              # a mark from a state variable's label
    assert "Go2*" in text and "Jo1" in text                           # Gordon sees his own face-down counter
    assert "> Gordon: 8 counters left; hand: Mary Kingsley" in text     # his turn, his card
    assert "Charles Chaillé-Long" in text and "Place 2" in text and "placeholder" not in text  # never cut


def test_show_as_json_and_as_svg():
    out = run("show", str(EXAMPLES / "clean-4p.yaml"), "--at", "26", "--format", "json")
    v = json.loads(out.stdout)
    assert v["ended"] and v["move"] == 26 and "next" not in v
    assert sum(len(g["items"]) for g in v["spaces"]) == 32
    assert [p["name"] for p in v["players"]] == ["Helen", "Gordon", "John", "Audrey"]
    svg = run("show", str(EXAMPLES / "clean-4p.yaml"), "--at", "9", "--format", "svg").stdout
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and len(root.findall(".//{http://www.w3.org/2000/svg}g")) == 32


def test_show_works_for_any_rule_file(alibi_log):
    out = run("show", str(alibi_log), "--as", "Ann")
    assert out.returncode == 0, out.stdout + out.stderr
    text = " ".join(out.stdout.split())
    assert "Ann: assistant: Priest; hand: Bar 6 · Restaurant 12; tile: Cook" in text  # her assistant, cards, tile
    assert "Cat (out)" in out.stdout
    assert "Solarium 12" in out.stdout and "missing alibi" in out.stdout
    svg = run("show", str(alibi_log), "--at", "3", "--format", "svg").stdout
    ET.fromstring(svg)


def test_show_and_check_reject_bad_arguments():
    assert run("show", str(EXAMPLES / "clean-4p.yaml"), "--at", "99").returncode == 2
    out = run("show", str(EXAMPLES / "clean-4p.yaml"), "--as", "Carol", "--omniscient")
    assert out.returncode == 2 and "not allowed with" in out.stderr


# -- check: move numbers, what comes next -----------------------------------------------------


def test_check_numbers_moves_and_says_what_comes_next():
    report = check_log(str(EXAMPLES / "violations" / "LA212.yaml"))
    (d,) = report.diagnostics
    assert d.move == 6 and d.related[0].move == 1
    assert "move 6: the same combination" in d.format_text()
    assert "Helen suspected [Mary Kingsley, Waterloo Station, 7:00, compass] here" in d.related[0].message
    nxt = report.to_json()["next"]
    assert nxt["move"] == 7 and nxt["turn"] == "John" and nxt["phase"] == "deductions"
    assert [m["text"] for m in nxt["moves"]] == ["{place: John, clue: ?}", "{pass: John}",
                                                 "{accuse: John, clues: ?, smiles: ?}"]
    text = report.format_text()
    assert text.splitlines()[-4] == "next: move 7, John to play (deductions phase); legal now:"
    assert check_log(str(EXAMPLES / "clean-4p.yaml")).to_json()["next"] is None   # the game is over


def test_check_next_for_any_rule_file(alibi_log):
    report = check_log(str(alibi_log))
    assert report.status == 0 and report.next["turn"] == "Bob"
    assert "{ask: Bob, target: ?, asked: ?, answer: ?}" in [m["text"] for m in report.next["moves"]]


def test_no_repeat_note_points_at_the_repeated_suspicion():
    head = "rules: lady-alice\nhouse: [no-repeat]\nplayers: [Alice, Bob, Carol, Dave]\nmoves:\n"
    rounds = ["  - {suspect: Alice, clues: [Baker, P2, T3, O4], smiles: 1}\n",
              "  - {suspect: Bob, clues: [Marlow, P2, T3, O4], smiles: 1}\n",
              "  - {suspect: Carol, clues: [Baker, P2, T3, O4], smiles: 1}\n"]
    passes = ["Bob", "Carol", "Dave", "Alice"]
    body = rounds[0] + "".join(f"  - {{pass: {p}}}\n" for p in passes)
    body += rounds[1] + "".join(f"  - {{pass: {p}}}\n" for p in passes[1:] + passes[:1])
    body += rounds[2]
    (d,) = check_text(head + body, str(EXAMPLES / "t.yaml")).diagnostics
    assert d.code == "LA212" and d.related[0].position.line == 5       # Alice's, not Bob's or Carol's
    assert d.related[0].message.startswith("Alice suspected") and "sets" not in d.related[0].message


# -- solve on a broken log ------------------------------------------------------------------


def test_solve_on_an_illegal_log_says_so_first_and_exits_1():
    out = run("solve", str(EXAMPLES / "violations" / "LA212.yaml"))
    assert out.returncode == 1
    assert out.stdout.splitlines()[1].startswith("this log breaks the rules (1 error;")
    assert "error[LA212]: move 6" in " ".join(out.stdout.split())
    data = json.loads(run("solve", str(EXAMPLES / "violations" / "LA212.yaml"), "--format", "json").stdout)
    assert data["status"] == 1 and data["problems"][0]["code"] == "LA212" and data["problems"][0]["move"] == 6


def test_solve_on_an_inconsistent_log_says_so_and_prints_no_table():
    out = run("solve", str(EXAMPLES / "violations" / "LA310.yaml"), "--omniscient")
    assert out.returncode == 1 and "0 evidence set(s) remain" not in out.stdout
    assert "Suspects" not in out.stdout
    assert "this log breaks the rules" in out.stdout and "no deal fits what this viewpoint saw" in out.stdout
    out = run("solve", str(EXAMPLES / "clean-4p.yaml"))
    assert out.returncode == 0 and "error" not in out.stdout


def test_solve_and_check_take_house_overlays():
    out = run("check", str(EXAMPLES / "clean-4p.yaml"), "--house", "no-repeat", "--house", "two-counters",
              "--format", "json")
    assert json.loads(out.stdout)[0]["rules"] == "lady-alice[players=4]+no-repeat+two-counters"
    out = run("solve", str(EXAMPLES / "clean-4p.yaml"), "--house", "no-repeat", "--format", "json")
    assert json.loads(out.stdout)["rules"] == "lady-alice[players=4]+no-repeat"


# -- --help ---------------------------------------------------------------------------------------


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_help_at_every_level_describes_every_argument_with_an_example():
    seen = 0
    for path, parser in _parsers(build_parser()):
        seen += 1
        assert parser.epilog and "examples:" in parser.epilog and "ruleslawyer" in parser.epilog, path
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, (path, action.dest)
        if path:
            out = run(*path, "--help")
            assert out.returncode == 0 and "examples:" in out.stdout
            assert max(len(line) for line in out.stdout.splitlines()) <= 80, path
    assert seen >= 12


@pytest.mark.parametrize("args", [["solve", "x.yaml", "--as", "Carol", "--omniscient"],
                                  ["show", "x.yaml", "--as", "Carol", "--omniscient"],
                                  ["report", "x.yaml", "-o", "x.html", "--as", "Carol", "--omniscient"]])
def test_contradictory_options_are_a_usage_error(args):
    out = run(*args)
    assert out.returncode == 2 and "not allowed with argument" in out.stderr


# -- solve --explain: the closing step, records by their line, the nearest names ----------------


def test_explain_states_the_closing_step_and_points_at_private_records():
    out = run("solve", str(EXAMPLES / "clean-4p.yaml"), "--at", "15", "--as", "Gordon", "--explain", "Waterloo",
              "--format", "json")
    ex = json.loads(out.stdout)["explain"]
    assert ex["status"] == "in"
    record = next(b for b in ex["because"] if b["record"])
    assert record["move"] is None and record["record"] == "private: evidence"
    assert record["at"].startswith(str(EXAMPLES / "clean-4p.yaml") + ":9:")   # the line in private:
    assert ex["closing"].startswith("if Waterloo Station were not evidence, the other 1 fact(s) would leave")
    assert "none of them fits move 15" in ex["closing"]
    text = run("solve", str(EXAMPLES / "clean-4p.yaml"), "--at", "15", "--as", "Gordon", "--explain", "Waterloo",
               columns=200).stdout
    assert "Gordon holds Mary Kingsley (private: evidence)" in text and "move 0" not in text
    assert "  so: if Waterloo Station were not evidence" in text


def test_explain_with_an_unknown_name_suggests_the_nearest():
    out = run("solve", str(EXAMPLES / "clean-4p.yaml"), "--explain", "Kingsly")
    assert out.returncode == 2 and "did you mean 'Mary Kingsley'" in out.stdout
    out = run("solve", str(EXAMPLES / "clean-4p.yaml"), "--explain", "tipu")
    assert out.returncode == 2 and "'Tippu Tip'" in out.stdout


def test_rules_explain_ends_a_cut_quote_with_an_ellipsis():
    out = run("rules", "explain", "lady-alice")
    cut = [line for line in out.stdout.splitlines() if line.endswith('…"')]
    assert cut and all(len(line) <= 80 for line in out.stdout.splitlines())
    assert max(len(x) for x in run("rules", "show", "lady-alice").stdout.splitlines()) <= 80


def test_diagnostics_wrap_on_a_terminal_and_stay_whole_in_a_pipe():
    import pty

    log = "examples/lady-alice/violations/LA203.yaml"
    master, slave = pty.openpty()
    proc = subprocess.Popen([*CLI, "check", log], stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                            env={**os.environ, "COLUMNS": "80"})
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(master)
    screen = b"".join(chunks).decode().replace("\r", "").splitlines()
    assert proc.returncode == 1 and max(len(line) for line in screen) <= 80
    assert screen[0].startswith(log + ":8:5: error[LA203]: move 3:")     # the location stays whole
    piped = run("check", str(ROOT / log)).stdout.splitlines()
    assert any(len(line) > 80 for line in piped)                           # one line a diagnostic for tools
