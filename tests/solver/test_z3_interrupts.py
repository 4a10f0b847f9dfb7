"""A Ctrl-C while Z3 checks never hangs the process (solver/z3engine.py).

Z3 installs a Ctrl-C handler of its own for each check, and that handler takes
a mutex that the check's set-up and tear-down also take: a Ctrl-C landing in
that window left the process waiting for itself, at no CPU, for good (found by
the fuzzing of ``play``: a session interrupted while its move was checked).  A
child checks the same facts in a loop, counting each finished or interrupted
check on its standard output, while the test sends it Ctrl-Cs one after the
other (its Python handler raises nothing, so no Ctrl-C between checks can end
it: under load one did, with a raising handler); after each, the child must go
on checking.  With Z3's handler on, the child hung in each of three tries
(after 2 to 14 Ctrl-Cs).
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import os, signal
from tests.solver.clue_helpers import clue_deal, hand, suggestion_facts, ENVELOPE
from ruleslawyer.solver.z3engine import Z3Knowledge

deal = clue_deal((3, 3, 3), 3)
world = {"s1": ENVELOPE, "w1": ENVELOPE, "r1": ENVELOPE, "s2": hand("Ann"), "w2": hand("Ann"),
         "r2": hand("Bob"), "s3": hand("Bob"), "w3": hand("Cat"), "r3": hand("Cat")}
facts = [f for f in suggestion_facts(deal, world, "Ann", ["s3", "w1", "r1"]) if f.viewers is None]
knowledge = Z3Knowledge.initial(deal).with_facts(facts)
# A Python handler that raises nothing: a Ctrl-C landing between checks never ends the child
# (Python's C-level handler is what Z3's own stands in for during a check).
signal.signal(signal.SIGINT, lambda _signum, _frame: None)
os.write(1, b"ready\\n")
while True:
    try:
        knowledge.consistent()
    except BaseException:  # a check Z3 says it cancelled (its own handler on): go on
        pass
    os.write(1, b".")
"""

SIGNALS = 2000
#: Seconds without one more check after a Ctrl-C before the child counts as hung: a guard
#: against a hang only (a check takes about a millisecond).
HANG_GUARD = 60.0


def _more(out: int, timeout: float) -> bytes:
    ready, _, _ = select.select([out], [], [], timeout)
    return os.read(out, 65536) if ready else b""


def test_ctrl_c_during_z3_checks_never_hangs():
    child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    out = child.stdout.fileno()
    rng = random.Random(7)
    try:
        seen = b""
        while b"ready" not in seen or not seen.endswith(b"."):  # its loop under way
            chunk = _more(out, HANG_GUARD)
            assert chunk, f"the child did not start: exit {child.poll()}"
            seen += chunk
        for sent in range(SIGNALS):
            child.send_signal(signal.SIGINT)
            time.sleep(rng.uniform(0.0002, 0.002))  # it landed at a random point of a check
            while _more(out, 0):  # what was counted before, and just after, it landed
                pass
            dots, deadline = 0, time.monotonic() + HANG_GUARD
            while not dots and time.monotonic() < deadline:
                dots = _more(out, 0.5).count(b".")
            assert child.poll() is None, f"the child ended (exit {child.returncode}) after {sent + 1} Ctrl-Cs"
            assert dots, f"no check finished after Ctrl-C number {sent + 1}: the process hangs"
    finally:
        child.kill()
        child.wait()
