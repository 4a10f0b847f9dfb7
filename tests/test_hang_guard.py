"""The tests' hang guard (``conftest.run_guarded``): a child still running past its guard is
stopped, and the failure shows where it was, so that a hang seen once under load can be read.

The child below waits on a pipe nobody writes: a hang by construction (the 2 s guard is the
time we wait for it, not a measure of anything)."""

from __future__ import annotations

import sys

import pytest

from .conftest import run_guarded

HANG = """
import os
def waits_on_a_pipe_nobody_writes():
    r, w = os.pipe()
    os.read(r, 1)
print("started", flush=True)
waits_on_a_pipe_nobody_writes()
"""


def test_a_hang_fails_with_the_childs_stack():
    with pytest.raises(pytest.fail.Exception) as failed:
        run_guarded([sys.executable, "-c", HANG], timeout=2)
    said = str(failed.value)
    assert "still running after 2 s" in said and "hang guard" in said
    assert "waits_on_a_pipe_nobody_writes" in said      # the stack, from the child's faulthandler
    assert "started" in said                            # and what it printed before


def test_an_ending_child_is_given_back_as_subprocess_run_would():
    out = run_guarded([sys.executable, "-c", "import sys; print(sys.stdin.read().upper()); sys.exit(3)"],
                      timeout=600, input="table\n")
    assert (out.returncode, out.stdout, out.stderr) == (3, "TABLE\n\n", "")
