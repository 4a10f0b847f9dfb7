"""A game nobody bundled: a rule file in a folder of its own, outside ``rules/``, gets every
command (issue 22), and what the lab writes about it checks clean and is already formatted.

The game is Clue under another name, with its own code prefix, and an overlay beside it:
nothing in the engine knows either name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleslawyer.checker.cli import main

from ..conftest import ROOT

OVERLAY = """ruleslawyer: 1
extends: parlour.yaml
name: leftovers-shown
title: The cards left over face up
why: "a house rule of the parlour game"
options:
  uneven_hands: face-up
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("parlour")
    text = (ROOT / "rules" / "clue.yaml").read_text(encoding="utf-8")
    text = (text.replace("\ngame: clue\n", "\ngame: parlour\n").replace("\ntitle: Clue\n", "\ntitle: Parlour\n")
            .replace("code_prefix: CL", "code_prefix: PX").replace("code: CL", "code: PX"))
    assert "\ngame: parlour\n" in text and "code: CL" not in text  # the copy really is renamed
    (where / "parlour.yaml").write_text(text, encoding="utf-8")
    (where / "leftovers-shown.yaml").write_text(OVERLAY, encoding="utf-8")
    return where


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out + out.err


def test_validate_show_and_explain(folder, capsys, monkeypatch):
    monkeypatch.chdir(folder)
    assert _run(capsys, "rules", "validate", "parlour.yaml", "leftovers-shown.yaml")[0] == 0
    status, out = _run(capsys, "rules", "show", "parlour.yaml", "--variant", "4p", "--house", "leftovers-shown.yaml")
    assert status == 0 and "parlour[players=4" in out and "leftovers-shown" in out, out
    status, out = _run(capsys, "explain", "PX201", "--rules", "parlour.yaml")
    assert status == 0 and out.startswith("PX201 (parlour,"), out


def _sampled_logs_check_clean_and_are_formatted(capsys, folder: Path, logs: Path) -> list[Path]:
    paths = sorted(logs.glob("*.yaml"))
    assert paths
    status, out = _run(capsys, "check", "--allow-path", str(folder), *map(str, paths))
    assert status == 0, out
    status, out = _run(capsys, "fmt", "--check", "--allow-path", str(folder), *map(str, paths))
    assert status == 0, out  # what the lab writes is what fmt would write
    return paths


#: Random bots that accuse as often as they do anything else: the copied rule file's weights (an
#: accusation in about twenty turns) make games of some 200 moves, which every command then reads.
QUICK = "random:accuse=1"


def test_simulate_then_every_command_on_a_sampled_log(folder, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(folder)
    status, out = _run(capsys, "simulate", "parlour.yaml", "--variant", "3p", "--games", "3", "--seed", "5",
                       "--bots", QUICK, "--logs", str(tmp_path / "logs"), "--format", "json")
    assert status == 0, out
    assert json.loads(out[:out.rindex("}") + 1])["rules"] == "parlour[players=3]"
    log = str(_sampled_logs_check_clean_and_are_formatted(capsys, folder, tmp_path / "logs")[0])
    allow = ("--allow-path", str(folder))
    status, out = _run(capsys, "show", *allow, log, "--at", "3")
    assert status == 0 and out.startswith("parlour[players=3]"), out
    status, out = _run(capsys, "solve", *allow, log, "--as", "P1", "--at", "3", "--format", "json")
    assert status == 0 and json.loads(out)["viewpoint"] == "player:P1", out
    status, out = _run(capsys, "suggest", *allow, log, "--as", "P1", "--at", "2", "--budget", "20")
    assert status == 0, out
    status, out = _run(capsys, "report", *allow, log, "-o", str(tmp_path / "game.html"))
    assert status == 0 and (tmp_path / "game.html").stat().st_size > 0, out


def test_compare_with_an_overlay_of_the_folder(folder, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(folder)
    status, out = _run(capsys, "compare", "parlour.yaml", "--variant", "4p", "--with", "leftovers-shown.yaml",
                       "--games", "2", "--seed", "3", "--bots", QUICK, "--logs", str(tmp_path / "logs"))
    assert status == 0 and "+leftovers-shown" in out, out
    paths = _sampled_logs_check_clean_and_are_formatted(capsys, folder, tmp_path / "logs")
    assert any("leftovers-shown.yaml" in p.read_text() for p in paths)  # the overlay's file, found by check


def test_prove_over_the_folder_s_game(folder, capsys, monkeypatch):
    monkeypatch.chdir(folder)
    status, out = _run(capsys, "prove", "parlour.yaml", "--variant", "3p", "--property",
                       str(ROOT / "examples" / "clue" / "lab" / "properties.yaml"), "--depth", "1")
    assert status == 0 and "holds up to depth 1" in out, out
