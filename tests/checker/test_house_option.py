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


HOUSE = ROOT / "rules" / "house"


@pytest.mark.parametrize("argv", [
    ["check", "--house", "no-repeat", "--house", str(HOUSE / "no-repeat.yaml"), LOG],
    ["solve", "--house", str(HOUSE / "no-repeat.yaml"), "--house", "no-repeat", LOG],
    ["rules", "show", "lady-alice", "--house", "no-repeat", "--house", str(HOUSE / "no-repeat.yaml")],
    ["simulate", "lady-alice", "--games", "1", "--house", "two-counters", "--house", str(HOUSE / "two-counters.yaml")],
    ["compare", "lady-alice", "--games", "1", "--house", "two-counters", "--with", "two-counters"],
    ["prove", "lady-alice", "--property", str(ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"),
     "--house", "no-repeat", "--house", str(HOUSE / "no-repeat.yaml")],
])
def test_the_same_overlay_by_its_name_and_by_its_file_is_an_error_not_applied_twice(argv):
    """Before: 'lady-alice[players=4]+no-repeat+no-repeat', the overlay applied twice, silently."""
    status, out, err = run(*argv)
    assert status == 2, out + err
    assert "error[RL144]" in out + err and "given twice" in out + err, out + err
    assert "+no-repeat+no-repeat" not in out and "+two-counters+two-counters" not in out


def test_a_log_naming_an_overlay_twice_gets_one_positioned_error():
    text = (ROOT / "examples" / "lady-alice" / "clean-4p.yaml").read_text().replace(
        "rules: lady-alice\n", "rules: lady-alice\nhouse: [no-repeat, two-counters, no-repeat]\n")
    report = check_text(text, LOG)
    assert report.unusable and [(d.code, d.position.line, d.position.column) for d in report.diagnostics] == \
        [("RL144", 6, 34)], report.format_text()


def test_an_overlay_another_one_extends_applies_once(tmp_path):
    """B extends A: --house A --house B applies A once (B's chain names it again)."""
    (tmp_path / "a.yaml").write_text("ruleslawyer: 1\nextends: lady-alice\nname: a\noptions:\n  repeat: never\n")
    (tmp_path / "b.yaml").write_text("ruleslawyer: 1\nextends: a.yaml\nname: b\n")
    status, out, err = run("rules", "show", "lady-alice", "--house", str(tmp_path / "a.yaml"),
                           "--house", str(tmp_path / "b.yaml"))
    assert status == 0, out + err
    assert "lady-alice[players=4]+a+b" in out and "+a+a" not in out, out


@pytest.mark.parametrize("argv", [
    ["report", "--house", "no-repeat", LOG, "-o", "{tmp}/game.html"],
    ["suggest", "--house", "no-repeat", LOG, "--at", "3"],
    ["simulate", "--house", "no-repeat", "lady-alice", "--games", "1", "--no-determination"],
    ["compare", "--with", "no-repeat", "lady-alice", "--games", "1", "--no-determination"],
    ["prove", "--house", "no-repeat", "lady-alice", "--property",
     str(ROOT / "examples" / "lady-alice" / "lab" / "properties.yaml"), "--depth", "1"],
])
def test_every_other_command_takes_one_overlay_per_option_too(argv, tmp_path):
    status, out, err = run(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert status in (0, 4), out + err          # prove: 4 when its budget stops it
    assert "required" not in err
