"""Shared fixtures: the repository root, small helpers to write rule files, and
the CPU clock the tests bound work with.

No test asserts a wall-clock time: a busy machine stretches wall time many
times over (the suite runs on every core, beside other work), while the CPU
time a call spends is the work it did.  A test that must show that a call is
bounded measures :func:`cpu_time` around it, with a generous margin; a child
process is bounded by ``RLIMIT_CPU`` (see ``tests/hostile/hostile_helpers.py``)
and its wall timeout only guards against a hang.  Hypothesis's own clocks are
off (below).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"

# Hypothesis times examples by the wall clock (a 200 ms deadline, and a health
# check that fails when drawing examples is slow): on a busy machine both fail
# tests that did nothing wrong.  Off for every test that does not set them.
# The rule-set cache on disk (spec/diskcache.py): one folder of the test run's own, never the
# user's ~/.cache (commands run as child processes inherit it).
if "RULESLAWYER_CACHE" not in os.environ:  # made by the first process (xdist's workers inherit it), removed by it
    os.environ["RULESLAWYER_CACHE"] = tempfile.mkdtemp(prefix="ruleslawyer-test-cache-")
    atexit.register(shutil.rmtree, os.environ["RULESLAWYER_CACHE"], ignore_errors=True)

settings.register_profile("ruleslawyer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ruleslawyer")


def cpu_time() -> float:
    """CPU seconds (user + system) spent so far by this process and by the
    children it has waited for: the difference around a call, in-process or
    through ``subprocess.run``, is the work that call did."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cli(*args: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``ruleslawyer ARGS`` run in this process (the command line's ``main(argv)``), given back as a
    finished process: ``returncode``, ``stdout``, ``stderr``.

    A child process costs about 0.4 s of CPU to start (Python, the imports) and proves nothing
    more where only the output and the exit status are checked; a test of the process itself (a
    signal, a resource limit, the console script, a terminal, start-up) keeps a child.  ``cwd``
    and ``env`` (variables set for the call, as ``COLUMNS``) are the child's would-be folder and
    additions to its environment; both are restored after."""
    from ruleslawyer.checker.cli import main

    argv = [os.fspath(a) for a in args]
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    saved = {k: os.environ.get(k) for k in env or {}}
    here = os.getcwd()
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(argv)
    finally:
        os.chdir(here)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        stdout.flush()
        stderr.flush()

    def text(data: io.BytesIO) -> str:  # as subprocess's text mode reads it (universal newlines)
        return io.TextIOWrapper(io.BytesIO(data.getvalue()), encoding="utf-8").read()

    return subprocess.CompletedProcess(["ruleslawyer", *argv], status, text(out), text(err))


def run_guarded(cmd: list[str], *, timeout: float, input: str | None = None,
                env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(cmd, capture_output=True, text=True)`` with a hang guard that says where
    the child was: past ``timeout`` seconds of wall time (a guard against a hang, never a measure)
    the child, a Python process started with ``PYTHONFAULTHANDLER`` set, gets SIGABRT and writes
    every thread's stack to its stderr; the test then fails with that stack and the machine's load.

    >>> run_guarded([sys.executable, "-c", "print(6 * 7)"], timeout=600).stdout
    '42\\n'
    """
    env = dict(os.environ if env is None else env, PYTHONFAULTHANDLER="1")
    stdin = kwargs.pop("stdin", subprocess.PIPE if input is not None else None)
    with subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, **kwargs) as proc:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
            pytest.fail(f"{cmd}: still running after {timeout} s of wall time (a hang guard), load "
                        f"{os.getloadavg()}; its stack (SIGABRT):\n{(err or '')[-8000:]}\n"
                        f"its output:\n{(out or '')[-2000:]}", pytrace=False)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def overlay(tmp_path: Path):
    """Write a house overlay extending lady-alice; returns its path."""
    counter = {"n": 0}

    def write(body: str, name: str | None = None) -> str:
        counter["n"] += 1
        label = name or f"test-{counter['n']}"
        path = tmp_path / f"{label}.yaml"
        path.write_text(f"ruleslawyer: 1\nextends: {RULES / 'lady-alice.yaml'}\nname: {label}\n{body}")
        return str(path)

    return write


@pytest.fixture(autouse=True)
def _ctrl_c_as_python_leaves_it():
    """Each test starts with Python's own Ctrl-C handler and SIGINT unblocked in this thread, and
    leaves them so: a child process inherits the mask, and a test worker (pytest-xdist) runs many
    tests in one process, so a test that blocks SIGINT must not make a later one's child deaf."""
    import signal

    handler = signal.getsignal(signal.SIGINT)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    yield
    signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask - {signal.SIGINT})


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "heavy: a test that spends many seconds of CPU on a quiet machine (about 8 or more): "
                   "run first, so that the workers of `make test` end together")


def pytest_collection_modifyitems(config, items):
    """The modules that hold a test marked heavy first, each whole and in its collected order
    (a module's fixtures are made once only while its tests run one after the other; every
    xdist worker collects and sorts alike).  ``make test`` runs on two workers that take the
    tests left from the end of each other's queue (``--dist worksteal``): a heavy test started
    last kept one worker busy while the other had nothing left to do; started first, the
    light ones fill in around it."""
    heavy = {item.path for item in items if item.get_closest_marker("heavy") is not None}
    items.sort(key=lambda item: item.path not in heavy)
