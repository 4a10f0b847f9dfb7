"""``--house FILE``, once per overlay, on every command (issue: ``--house X LOG`` took the log as
an overlay; simulate, compare and prove took it another way; ``--house X`` twice applied X twice)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from ruleslawyer.checker.cli import main
from ruleslawyer.checker.check import check_text

from ..conftest import ROOT

LOG = str(ROOT / "examples" / "lady-alice" / "clean-4p.yaml")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [
    ["check", "--house", "no-repeat", LOG],
    ["solve", "--house", "no-repeat", LOG],
    ["show", "--house", "no-repeat", LOG],
    ["rules", "show", "--house", "no-repeat", "lady-alice"],
    ["schema", "--house", "no-repeat", "lady-alice"],
])
def test_the_option_takes_one_overlay_and_leaves_the_log_to_the_command(argv):
    status, out, err = run(*argv)
    assert status == 0, err
    assert "required" not in err


@pytest.mark.parametrize("argv", [
    ["check", "--house", "no-repeat", "--house", "no-repeat", LOG],
    ["rules", "show", "lady-alice", "--house", "no-repeat", "--house", "no-repeat"],
    ["simulate", "lady-alice", "--games", "1", "--house", "two-counters", "--house", "two-counters"],
    ["compare", "lady-alice", "--games", "1", "--with", "two-counters", "--with", "two-counters"],
    ["prove", "lady-alice", "--property", "x.yaml", "--house", "no-repeat", "--house", "no-repeat"],
])
def test_the_same_overlay_twice_is_a_usage_error(argv):
    status, _out, err = run(*argv)
    assert status == 2
    assert "given twice" in err


def test_two_overlays_apply_in_order():
    status, out, _err = run("rules", "show", "lady-alice", "--house", "no-repeat", "--house", "two-counters")
    assert status == 0 and "+no-repeat+two-counters" in out


def test_an_overlay_the_log_names_already_applies_once():
    text = (ROOT / "examples" / "lady-alice" / "clean-4p.yaml").read_text().replace(
        "rules: lady-alice\n", "rules: lady-alice\nhouse: [no-repeat]\n")
    for extra in ("no-repeat", str(ROOT / "rules" / "house" / "no-repeat.yaml")):
        report = check_text(text, LOG, house=(extra,))
        assert report.rules_name == "lady-alice[players=4]+no-repeat", report.rules_name
        assert not report.errors, report.format_text()
