"""The table commands (show, report, schema, play, and solve's new banner) on hostile input.

Every log of the corpus, and randomly mutated logs (``RULESLAWYER_FUZZ_SCALE``
for more), go through ``show`` (text, json, svg), ``report``, ``solve`` and
``play``; every rule file and overlay of the corpus through ``schema``.
Each must end with exit status 0, 1 or 2 and a word, never a traceback;
``play`` must never leave a log it cannot read, nor lose a move.
"""

from __future__ import annotations

import io
import os
import random
import sys
from pathlib import Path

import pytest

from ruleslawyer.checker.cli import main
from ruleslawyer.checker.log import parse_log

from ..checker.mistakes import mutate
from .hostile_helpers import CORPUS, ROOT, corpus_cases

LOGS = corpus_cases("logs")
RULES = corpus_cases("rules") + corpus_cases("house")
SCALE = max(1, int(os.environ.get("RULESLAWYER_FUZZ_SCALE", "1") or 1))
CLEAN = sorted((ROOT / "examples" / "lady-alice").glob("clean-*.yaml"))


def _run(args: list[str], capsys, stdin: str | None = None, monkeypatch=None) -> tuple[int, str]:
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(args)
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "internal error" not in text, (args, text)
    assert status in (0, 1, 2), (args, status, text)
    assert text.strip(), (args, "said nothing")
    return status, text


@pytest.mark.parametrize("case", LOGS, ids=[p.stem for p in LOGS])
def test_corpus_logs_through_the_table_commands(case, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    log = str(case.relative_to(ROOT))
    for args in (["show", log], ["show", log, "--format", "json"], ["show", log, "--format", "svg"],
                 ["show", log, "--at", "0", "--omniscient"], ["show", log, "--sheet"],
                 ["show", log, "--sheet", "--format", "json"], ["show", log, "--sheet", "--format", "svg"],
                 ["solve", log], ["solve", log, "--format", "json"],
                 ["report", log, "-o", str(tmp_path / "out.html")]):
        _run(args, capsys)
    copy = tmp_path / case.name
    copy.write_bytes(case.read_bytes())
    for sibling in case.parent.glob("*"):  # the files a corpus log names beside it
        if sibling != case and sibling.is_file() and not (tmp_path / sibling.name).exists():
            (tmp_path / sibling.name).write_bytes(sibling.read_bytes())
    before = copy.read_bytes()
    status, _text = _run(["play", str(copy)], capsys, "moves\nundo\npass: Nobody\n{\nquit\n", monkeypatch)
    if status == 2:
        assert copy.read_bytes() == before        # an unusable log is left as it was


@pytest.mark.parametrize("case", RULES, ids=[f"{p.parent.name}-{p.stem}" for p in RULES])
def test_corpus_rule_files_through_schema(case, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    status, _ = _run(["schema", str(case.relative_to(ROOT))], capsys)
    assert status in (0, 2)


@pytest.mark.parametrize("args", [
    ["show", "examples/lady-alice/clean-4p.yaml", "--at", "-1"],
    ["show", "examples/lady-alice/clean-4p.yaml", "--as", "Nobody"],
    ["show", "no-such-log.yaml"],
    ["show", "examples"],
    ["report", "examples/lady-alice/clean-4p.yaml", "-o", "/nonexistent-folder/x.html"],
    ["report", "examples/lady-alice/clean-4p.yaml", "-o", "examples"],
    ["schema", "no-such-rules"],
    ["schema", "lady-alice", "--variant", "9p"],
    ["schema", "lady-alice", "--house", "no-such-overlay.yaml"],
    ["play", "examples"],
    ["solve", "examples/lady-alice/clean-4p.yaml", "--explain", "\x1b[2J"],
])
def test_bad_arguments_of_the_table_commands_are_usage_errors(args, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, text = _run(args, capsys)
    assert status == 2, text
    assert "\x1b" not in text


def test_fuzzed_logs_through_show_and_check(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    rng = random.Random(12)
    for n in range(12 * SCALE):
        source = rng.choice(CLEAN)
        text = source.read_text()
        moves = sum(1 for line in text.splitlines() if line.lstrip().startswith("- {"))
        op = rng.choice(["delete", "duplicate", "swap", "drop", "reverse", "bytes"])
        try:
            if op == "drop":
                text = mutate(text, "drop", rng.randrange(moves), rng.choice(["smiles", "clues", "clue", "value"]))
            elif op == "reverse":
                text = mutate(text, "reverse")
            elif op == "bytes":
                at = rng.randrange(len(text))
                text = text[:at] + rng.choice(["{", "]", ":", "\t", "\x00", "é", "- ", "\n  - {pass: Zed}"]) + text[at:]
            else:
                text = mutate(text, op, rng.randrange(moves - 1))
        except ValueError:
            continue
        path = tmp_path / f"fuzz-{n}.yaml"
        path.write_text(text)
        for args in (["check", str(path)], ["show", str(path), "--format", "json"], ["show", str(path)]):
            _run(args, capsys)


def test_fuzzed_input_to_the_recorder_never_breaks_the_log(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(7)
    words = ["pass", "place", "suspect", "accuse", "Ann", "Ben", "Cat", "Dan", "clue", "clues", "smiles",
             "compass", "Baker", "P2", "T3", "O4", "{", "}", "[", "]", ":", ",", "undo", "show", "solve",
             "moves", "help", "\x00", "é", "!!python/object", "&a", "*a", "9" * 50]
    lines = []
    for _ in range(40 * SCALE):
        lines.append(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 8))))
        if rng.random() < 0.3:
            lines.append(rng.choice(["pass: Ben", "suspect: Ann, clues: [Baker, P2, T3, O4], smiles: 1",
                                     "place: Ben, clue: compass", "undo"]))
    log = tmp_path / "game.yaml"
    _run(["play", str(log), "--rules", "lady-alice", "--players", "Ann", "Ben", "Cat", "Dan"], capsys,
         "\n".join(lines) + "\nquit\n", monkeypatch)
    parse_log(str(log))  # still a log the checker reads
