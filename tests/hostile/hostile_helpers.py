"""Shared by the hostile-input tests: the corpus, running the CLI, checking diagnostics."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ruleslawyer.spec.diagnostics import Diagnostic

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
ROOT = HERE.parents[1]

# Every run of the command line gets this much CPU time and address space: a
# hostile file must be refused quickly and cheaply, never after a long grind.
# The work is bounded by the CPU limit (the child is killed past it), which a
# busy machine does not stretch; the wall timeout only catches a hang (a run
# that waits on something) and is many times a quiet run's (about 1 s), so
# that a loaded machine (load 10 on 2 cores) never trips it.
CLI_CPU = 30
CLI_TIMEOUT = 600
CLI_MEMORY = 768 * 1024 * 1024


def cli_command() -> list[str]:
    script = Path(sys.executable).parent / "ruleslawyer"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ruleslawyer.checker"]


def _limit_memory(limit: int, cpu: int = CLI_CPU) -> Callable[[], None]:
    def limit_it() -> None:  # runs in the child, before exec: as ``ulimit -v`` and ``ulimit -t``
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    return limit_it


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
            timeout: float = CLI_TIMEOUT, memory: int = CLI_MEMORY) -> subprocess.CompletedProcess:
    """Run ``ruleslawyer ARGS`` bounded in CPU time and memory (bytes of address space);
    never raises on a non-zero exit (past the CPU limit the child dies of SIGXCPU)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
    full_env.update(env or {})
    return subprocess.run([*cli_command(), *args], cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limit_memory(memory) if os.name == "posix" else None)


_BATCH = """
import contextlib, io, json, sys, time
from ruleslawyer.checker.cli import main
out = []
for argv in json.load(sys.stdin):
    text = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        status = main(argv)
    out.append({"argv": argv, "status": status, "output": text.getvalue(), "seconds": time.process_time() - start})
json.dump(out, sys.stdout)
"""


def run_cli_batch(argvs: list[list[str]], memory: int = CLI_MEMORY, timeout: float | None = None,
                  env: dict[str, str] | None = None) -> list[dict]:
    """Run many command lines in one child process bounded in memory (all of
    them together, so each alone fits too); for each: argv, status, output, and
    seconds: the CPU time the run spent (never wall time: see tests/conftest.py).
    ``timeout`` is wall time against a hang only (default: 20 s a run, at least
    600 s: a run takes well under 1 s on a quiet machine); the child's CPU limit
    is ``CLI_CPU`` for each run of the batch."""
    import json

    if timeout is None:
        timeout = max(600.0, 20.0 * len(argvs))

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("RULESLAWYER_")}
    full_env.update(env or {})
    result = subprocess.run([sys.executable, "-c", _BATCH], input=json.dumps(argvs), cwd=ROOT, env=full_env,
                            capture_output=True, text=True, timeout=timeout,
                            preexec_fn=_limit_memory(memory, CLI_CPU * max(1, len(argvs))) if os.name == "posix" else None)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_usage_error(result: subprocess.CompletedProcess) -> str:
    """Exit status 2, something said, and no traceback; returns stdout + stderr."""
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out
    assert "internal error" not in out, out
    assert result.returncode == 2, f"exit {result.returncode}:\n{out}"
    assert out.strip(), "exit 2 without a word"
    return out


def assert_well_formed(diagnostics: Iterable[Diagnostic]) -> None:
    """Every diagnostic has a code and says which file it is about."""
    for d in diagnostics:
        assert re.fullmatch(r"[A-Z]{2,4}[0-9]{3}", d.code), d
        assert d.message, d
        assert d.position is not None and d.position.path, d
        assert d.position.line >= 0 and d.position.column >= 0, d


@dataclass(frozen=True)
class Expect:
    """One line of a ``.expect`` file (see corpus/README.md)."""

    code: str
    file: str | None   # None: the case file itself; else the name of another file
    line: int | None   # None: any line (only with another file)
    column: int | None
    note: bool = False  # a related note must mention this place of the case file

    @classmethod
    def parse(cls, text: str) -> "Expect":
        words = text.split()
        if words[0] == "note":
            line, column = words[1].split(":")
            return cls("", None, int(line), int(column), note=True)
        code, where = words
        if where.endswith(":*"):
            return cls(code, where[:-2], None, None)
        line, column = where.split(":")
        return cls(code, None, int(line), int(column))

    def matches(self, d: Diagnostic, case: Path) -> bool:
        if self.note or d.code != self.code or d.position is None:
            return False
        if self.file is None:
            return (Path(d.position.path).resolve() == case.resolve()
                    and (d.position.line, d.position.column) == (self.line, self.column))
        return Path(d.position.path).name == self.file and d.position.line > 0

    def found_in(self, output: str, shown: str) -> bool:
        """Is this expectation met by the command line's text output?"""
        if self.note:
            return f"{shown}:{self.line}:{self.column}" in output
        if self.file is None:
            return f"{shown}:{self.line}:{self.column}: error[{self.code}]" in output
        return re.search(rf"\S*{re.escape(self.file)}:\d+:\d+: error\[{self.code}\]", output) is not None

    def __str__(self) -> str:
        if self.note:
            return f"note {self.line}:{self.column}"
        return f"{self.code} {self.file + ':*' if self.file else f'{self.line}:{self.column}'}"


def expectations(case: Path) -> list[Expect]:
    lines = case.with_suffix(".expect").read_text().splitlines()
    return [Expect.parse(x) for x in lines if x.strip() and not x.startswith("#")]


def corpus_cases(folder: str) -> list[Path]:
    """The bad files of one corpus folder (``ok-*`` files are valid on purpose)."""
    return sorted(p for p in (CORPUS / folder).glob("*.yaml") if not p.name.startswith("ok-"))


def rel(path: Path) -> str:
    """A path as the CLI shows it when run from the repository root."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
