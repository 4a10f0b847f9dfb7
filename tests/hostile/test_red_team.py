"""The red-team findings of issue 9 that do not depend on ``solve``, each
answered with a positioned diagnostic and exit status 2:

* 4: a rule function ``boom(n) = boom(n-1) + boom(n-1)`` called as
  ``boom(60)`` hung (calls with number arguments cost nothing);
* 5: a house requirement ``'%03000000000d' % 0 != ''`` built a 3 GB string;
* 7: exit 3 (RL900) without a position: a player name of 600,000 characters
  spent the work budget on ``actor == turn``; a function that recursed
  without end;
* 8: a log's ``rules:`` read any file and showed parts of it
  (``/etc/shadow``, ``/proc/self/status``).

Each also has an entry in the corpus (``corpus/*/``); the last test runs
every corpus entry through every command under ``ulimit -v 1048576``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ruleslawyer.checker.check import check_log, check_text
from ruleslawyer.spec.loader import validate_file

from ..conftest import cpu_time
from .hostile_helpers import CORPUS, ROOT, assert_usage_error, corpus_cases, rel, run_cli, run_cli_batch

ONE_GIB = 1024 * 1024 * 1024  # ulimit -v 1048576
CLEAN = (ROOT / "examples" / "lady-alice" / "clean-4p.yaml").read_text()
FAST = 10.0  # seconds of CPU, the bound for one run (tests/conftest.py: cpu_time)


def _log(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def _timed_cli(*args: str, **kw) -> tuple[str, float]:
    start = cpu_time()
    out = assert_usage_error(run_cli(*args, memory=ONE_GIB, **kw))
    return out, cpu_time() - start


# -- 4 and 7: functions that recurse ---------------------------------------------------

@pytest.mark.parametrize("name,where", [("recursive-function", "67:11"), ("endless-recursion", "67:11"),
                                        ("mutual-recursion", "67:11"), ("calls-multiply", "107:11")])
def test_rules_validate_refuses_recursion_and_multiplied_calls(name, where):
    case = CORPUS / "rules" / f"{name}.yaml"
    diags = validate_file(str(case))
    assert [(d.code, f"{d.position.line}:{d.position.column}") for d in diags] == [("RL132", where)]
    out, took = _timed_cli("rules", "validate", rel(case))
    assert f"{rel(case)}:{where}: error[RL132]" in out and ": ok" not in out
    assert took < FAST


def test_boom_named_by_a_log_is_refused_at_the_function():
    out, took = _timed_cli("check", rel(CORPUS / "logs" / "rules-recursive-function.yaml"))
    assert "error[LG115]" in out and "recursive-function.yaml:67:11: error[RL132]" in out
    assert took < FAST


@pytest.mark.parametrize("name", ["boom-through-values", "recursion-through-values"])
def test_recursion_no_load_time_check_sees_is_stopped_at_the_rule(name):
    # boom(n) handed itself as a value: the loader cannot see the recursion;
    # the replay stops it (work budget, or call depth) at the rule's expression.
    case = CORPUS / "replay" / f"{name}.yaml"
    start = cpu_time()
    report = check_log(str(case))
    assert cpu_time() - start < FAST
    assert report.status == 2 and not report.internal
    (d,) = report.diagnostics
    assert d.code == "RL132" and d.position.path.endswith(f"files/{name}.yaml") and d.position.line == 63
    assert d.related and d.related[0].position.line == 73  # the function where the limit was reached
    out, took = _timed_cli("check", rel(case))
    assert "error[RL132]" in out and "internal error" not in out and took < FAST


# -- 5: string formatting ------------------------------------------------------------------

def test_string_formatting_is_refused_before_anything_is_built():
    overlay = CORPUS / "house" / "string-format.yaml"
    for args in (("rules", "validate", rel(overlay)), ("rules", "show", "lady-alice", "--house", rel(overlay)),
                 ("check", rel(CORPUS / "logs" / "house-string-format.yaml"))):
        out, took = _timed_cli(*args)
        assert "string-format.yaml:9:15: error[RL120]" in out and "formatting" in out
        assert took < FAST


def test_string_formatting_of_a_value_is_refused_at_run_time(tmp_path):
    _log(tmp_path, "format.yaml", "ruleslawyer: 1\nextends: lady-alice\nname: format\nmoves:\n  pass:\n"
         "    requires:\n      - id: format\n        expr: \"len(actor % 0) > 0\"\n        code: LA290\n"
         "        message: \"formatted\"\n")
    log = _log(tmp_path, "game.yaml", CLEAN.replace("rules: lady-alice", "rules: lady-alice\nhouse: [format.yaml]"))
    report = check_log(str(log))
    assert report.status == 2
    d = report.diagnostics[-1]
    assert d.code == "RL132" and "formatting" in d.message and (d.position.line, d.position.column) == (8, 15)


# -- 7: a name of 600,000 characters -----------------------------------------------------

def _long_name_log(folder: Path, length: int) -> Path:
    # An anchor, so that the file stays small: every mention of Helen is the long name.
    text = CLEAN.replace("players: [Helen,", "players: [&h " + "H" * length + ",", 1)
    text = text.replace("Helen:", "*h :").replace("Helen", "*h")
    return _log(folder, "long.yaml", text)


@pytest.mark.parametrize("env,code", [
    ({}, "RL009"),                                            # longer than any value of any file
    ({"RULESLAWYER_MAX_STRING": "1000000"}, "LG117"),         # longer than a log's names
])
def test_a_name_of_600000_characters(tmp_path, env, code):
    log = _long_name_log(tmp_path, 600_000)
    out, took = _timed_cli("check", str(log), env=env)
    assert f"{log}:6:11: error[{code}]" in out and took < FAST
    assert "internal error" not in out and "RL900" not in out


def test_a_long_name_allowed_by_the_user_costs_the_rule_not_an_internal_error(tmp_path):
    # With both limits raised, the comparisons spend the work budget: the
    # rule's expression is named, with exit status 2 (no longer RL900, exit 3).
    log = _long_name_log(tmp_path, 600_000)
    out, took = _timed_cli("check", str(log), env={"RULESLAWYER_MAX_STRING": "1000000",
                                                   "RULESLAWYER_MAX_NAME": "1000000"})
    assert "rules/lady-alice.yaml:" in out and "error[RL132]" in out and "internal error" not in out
    assert took < FAST


def test_the_name_limit_is_documented_and_raised_by_a_variable():
    text = CLEAN.replace("Audrey", "A" * 201)
    diags = check_text(text, str(ROOT / "examples" / "x.yaml")).diagnostics
    assert {d.code for d in diags} == {"LG117"} and 1 < len(diags) <= 20  # every place, the first 20
    assert (diags[0].position.line, diags[0].position.column) == (6, 32)
    out = run_cli("explain", "LG117").stdout
    assert "RULESLAWYER_MAX_NAME" in out and "200" in out


# -- 8: files a log names ------------------------------------------------------------------

SECRETS = ("root:", "nologin", "VmPeak", "SECRET-LINE", "SECRET-KEY")


def _shows_nothing(out: str) -> None:
    for secret in SECRETS:
        assert secret not in out, f"'{secret}' shown:\n{out}"


REFS = ["/etc/shadow", "/etc/passwd", "/proc/self/status", "/dev/zero", "../outside.yaml", "sub/../../outside.yaml",
        "/nonexistent/x.yaml", "link-out.yaml", "link-proc.yaml"]


def test_a_log_names_only_files_of_its_own_tree(tmp_path):
    (tmp_path / "outside.yaml").write_text((ROOT / "rules" / "lady-alice.yaml").read_text())
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "link-out.yaml").symlink_to("/etc/passwd")
    (tree / "link-proc.yaml").symlink_to("/proc/self/status")
    runs, wanted = [], []
    for i, ref in enumerate(REFS):
        for where, text in (("rules", f"rules: {ref}\n"), ("house", f"rules: lady-alice\nhouse: [{ref}]\n")):
            log = _log(tree, f"{where}-{i}.yaml", text + "players: [Helen, Gordon, John, Audrey]\nmoves: []\n")
            runs.append(["check", str(log)])
            wanted.append(f"{log}:{'1:8' if where == 'rules' else '2:9'}: error[RL011]")
    for result, expected in zip(run_cli_batch(runs, memory=ONE_GIB), wanted):
        assert result["status"] == 2 and expected in result["output"], result
        assert result["seconds"] < FAST
        _shows_nothing(result["output"])


def test_allow_path_opens_a_folder_and_what_is_not_a_rule_file_is_not_shown(tmp_path):
    log = _log(tmp_path, "game.yaml", "rules: /etc/passwd\nplayers: [Helen, Gordon, John, Audrey]\n")
    out, _ = _timed_cli("check", str(log), "--allow-path", "/etc")
    assert "/etc/passwd:1:1: error[RL012]" in out and "error[RL011]" not in out
    _shows_nothing(out)
    log = _log(tmp_path, "proc.yaml", "rules: /proc/self/status\nplayers: [Helen, Gordon, John, Audrey]\n")
    out, _ = _timed_cli("check", str(log), "--allow-path", "/proc")
    assert "error[RL001]" in out and "file of the operating system" in out
    _shows_nothing(out)


def test_allow_path_lets_a_genuine_rule_file_through(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "mine.yaml").write_text("ruleslawyer: 1\nextends: lady-alice\nname: mine\noptions: {stack_own: false}\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    log = _log(logs, "game.yaml", CLEAN.replace("rules: lady-alice", "rules: lady-alice\nhouse: [../shared/mine.yaml]"))
    assert check_log(str(log)).diagnostics[-1].code == "RL011"
    report = check_log(str(log), allow=[str(shared)])
    assert report.status == 0 and report.rules_name == "lady-alice[players=4]+mine"
    result = run_cli("check", str(log), "--allow-path", str(shared), "--allow-path", "/nonexistent")
    assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("solve", str(log), "--allow-path", str(shared))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error[RL011]" in assert_usage_error(run_cli("solve", str(log)))


def test_a_fifo_in_the_tree_is_not_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    log = _log(tmp_path, "game.yaml", "rules: pipe.yaml\nplayers: [Helen, Gordon, John, Audrey]\n")
    out, took = _timed_cli("check", str(log))
    assert "error[RL001]" in out and took < FAST  # not a file: never opened (it would block)


# -- found on the way ---------------------------------------------------------------------

def test_a_valid_rule_file_without_counter_values_can_be_checked(tmp_path):
    (tmp_path / "tiny.yaml").write_text((CORPUS / "rules" / "ok-tiny.yaml").read_text())
    log = _log(tmp_path, "game.yaml", "rules: tiny.yaml\nplayers: [Ann, Bob, Cat]\nmoves:\n  - {pass: Ann}\n")
    assert check_log(str(log)).status in (0, 1, 2)


# -- everything in the corpus, every command, 1 GiB ------------------------------------------

def _corpus_runs() -> list[list[str]]:
    rules = [rel(p) for p in corpus_cases("rules")]
    house = [rel(p) for p in corpus_cases("house")]
    logs = [rel(p) for p in corpus_cases("logs") + corpus_cases("replay")]
    runs: list[list[str]] = [["rules", "validate", *rules], ["rules", "validate", "--format", "json", *rules],
                             ["rules", "validate", *house]]
    for name in ("show", "graph", "explain"):
        runs.extend(["rules", name, "lady-alice", "--house", h] for h in house)
        runs.extend(["rules", name, r] for r in rules)
    runs.extend(["explain", "RL130", "--rules", r] for r in rules)
    for extra in ((), ("--strict",), ("--format", "json"), ("--strict", "--format", "json")):
        runs.extend(["check", *extra, log] for log in logs)
    runs.extend(["solve", log] for log in logs)
    runs.extend(["fmt", "--check", log] for log in logs)          # reads only: the corpus stays as it is
    runs.extend(["suggest", "--budget", "50", log] for log in logs)
    return runs


def test_every_corpus_input_through_every_command_under_one_gib():
    # Not every command refuses every input (rules show uses the default
    # variant of a file whose other variant is bad): each either works or
    # says why with exit status 2, never a traceback, MemoryError or exit 3.
    # All the runs share one child process limited to 1 GiB: each alone fits too.
    results = run_cli_batch(_corpus_runs(), memory=ONE_GIB)
    for r in results:
        out = r["output"]
        assert r["status"] in (0, 1, 2), r
        assert "Traceback" not in out and "internal error" not in out and "MemoryError" not in out, r
        if r["status"] == 2:
            assert "error[" in out or "error:" in out or '"severity": "error"' in out, r
    assert [r["argv"] for r in results if r["seconds"] > FAST] == []
    assert len(results) > 300
