"""What a command loads: only what it runs (issue 24, "answers at the speed of the table").

Counted in modules imported, never in seconds (benchmarks/startup_bench.py measures time).
"""

from __future__ import annotations

import json
import subprocess
import sys

from ..conftest import ROOT

HEAVY = ("numpy", "z3", "jsonschema", "yaml", "matplotlib", "rich", "dask",
         "ruleslawyer.spec.loader", "ruleslawyer.spec.machine", "ruleslawyer.lab.bots", "ruleslawyer.lab.engine")

_PROBE = """
import contextlib, io, json, sys
from ruleslawyer.checker.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    status = main(json.loads(sys.argv[1]))
print(json.dumps({"status": status, "output": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _loaded(*argv: str) -> dict:
    """Run one command line in a fresh interpreter: its status, output and the modules it loaded."""
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(list(argv))], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_version_and_help_load_no_rule_loader_solver_or_lab():
    for argv in (["--version"], ["--help"], ["simulate", "--help"]):
        run = _loaded(*argv)
        assert run["status"] == 0, run["output"]
        assert [m for m in HEAVY if m in run["modules"]] == [], argv
    assert _loaded("--version")["output"].startswith("ruleslawyer ")


def test_the_console_scripts_version_builds_no_command_line():
    probe = ("import json, sys; sys.argv = ['ruleslawyer', '--version']; from ruleslawyer.console import main; "
             "status = main(); print(json.dumps({'status': status, 'modules': sorted(sys.modules)}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=600)
    first, last = done.stdout.splitlines()[0], json.loads(done.stdout.splitlines()[-1])
    # the same words as the command line's own --version (argparse's: "%(prog)s VERSION")
    assert first == _loaded("--version")["output"].strip() and last["status"] == 0
    assert "ruleslawyer.checker.cli" not in last["modules"] and "argparse" not in last["modules"]


def test_a_referees_clean_check_loads_no_solver():
    # every hidden card is recorded (each hand, the solution): the deal they pin down fits every
    # observation (checker/witness.py), so no deal is counted and neither numpy nor Z3 is loaded
    for log in ("examples/lady-alice/clean-4p.yaml", "examples/perfect-alibi/clean-5p.yaml",
                "examples/clue/clean-4p.yaml"):
        run = _loaded("check", log)
        assert run["status"] == 0 and run["output"].rstrip().endswith("clean"), run["output"]
        assert [m for m in ("numpy", "z3", "ruleslawyer.solver.engines", "ruleslawyer.lab.bots")
                if m in run["modules"]] == [], log


def test_a_check_without_the_hidden_cards_asks_the_counting_engine_not_z3(tmp_path):
    # a spectator's log (the private records and the cards shown at the end left out): the observations fit many deals, and
    # Lady Alice and Perfect Alibi are counted exactly (numpy); Z3 is not needed to check them
    for log in ("examples/lady-alice/clean-4p.yaml", "examples/perfect-alibi/clean-5p.yaml"):
        text = (ROOT / log).read_text()
        head, private = text.split("private:\n", 1)
        spectator = tmp_path / "spectator.yaml"
        spectator.write_text(head + private[private.index("moves:"):].split("\nend:")[0] + "\n")
        run = _loaded("check", str(spectator))
        assert run["status"] == 0 and run["output"].rstrip().endswith("clean"), run["output"]
        assert "numpy" in run["modules"] and "z3" not in run["modules"], log


def test_a_clean_check_loads_no_jsonschema_and_a_bad_log_still_gets_its_diagnostics(tmp_path):
    # the quick schema check (spec/schemacheck.py) answers for a clean log and its rule files;
    # a log that breaks the schema is validated by jsonschema, whose errors are the diagnostics
    for log in ("examples/lady-alice/clean-4p.yaml", "examples/perfect-alibi/clean-5p.yaml"):
        run = _loaded("check", log)
        assert run["status"] == 0, run["output"]
        assert "jsonschema" not in run["modules"], log
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules: lady-alice\nplayers: [Ann, Ben, Cat]\nmovez: []\n")
    run = _loaded("check", str(bad))
    assert run["status"] == 2 and "error[LG101]: unknown key 'movez'" in run["output"], run["output"]
    assert "jsonschema" in run["modules"]


def test_a_check_reads_no_entry_points_and_the_version_is_the_installed_one():
    # the lab's commands are found through entry points (importlib.metadata, a tenth of a check):
    # a command of the checker's own does not look for them; the version is read from the
    # installed metadata without importlib.metadata, and is what importlib.metadata says
    from importlib import metadata

    import ruleslawyer

    run = _loaded("check", "examples/lady-alice/clean-4p.yaml")
    assert run["status"] == 0 and "importlib.metadata" not in run["modules"], run["output"]
    assert ruleslawyer._installed_version() == metadata.version("ruleslawyer")
    assert _loaded("--help")["output"].count("simulate") >= 1  # the lab's commands still listed
    assert _loaded("simulate", "--help")["status"] == 0
