"""CPU time per test: a pytest plugin, and a summary of what it recorded.

The suite's wall time means little on a shared machine; the CPU a test spends
(this process's, plus that of the child processes it waited for) is the work
it did.  Load the plugin and name a file to append one JSON line per test to:

    RL_CPU_LOG=cpu.jsonl PYTHONPATH=benchmarks .venv/bin/python -m pytest -p cpu_per_test -p no:xdist tests/lab
    .venv/bin/python benchmarks/cpu_per_test.py cpu.jsonl [--top 10]      # per folder, the most expensive tests

A line holds the test's id, its CPU seconds (setup, call and teardown: a
module or session fixture is paid by the first test that uses it) and its wall
seconds.  Run a folder at a time without xdist (``-p no:xdist``): a worker's
CPU is not this process's.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = os.environ.get("RL_CPU_LOG")
    cpu, wall = _cpu(), time.perf_counter()
    yield
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"id": item.nodeid, "cpu": round(_cpu() - cpu, 3),
                                  "wall": round(time.perf_counter() - wall, 3)}) + "\n")


def _folder(nodeid: str) -> str:
    parts = nodeid.split("::", 1)[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def summary(lines: list[dict], top: int) -> str:
    by_folder: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for line in lines:
        row = by_folder[_folder(line["id"])]
        row[0] += line["cpu"]
        row[1] += line["wall"]
        row[2] += 1
    out = [f"{'folder':<24} {'tests':>6} {'CPU s':>9} {'wall s':>9}"]
    for folder, (cpu, wall, n) in sorted(by_folder.items(), key=lambda kv: -kv[1][0]):
        out.append(f"{folder:<24} {n:>6} {cpu:>9.1f} {wall:>9.1f}")
    out.append(f"{'total':<24} {len(lines):>6} {sum(r[0] for r in by_folder.values()):>9.1f} "
               f"{sum(r[1] for r in by_folder.values()):>9.1f}")
    out.append("")
    out.append(f"the {top} most expensive tests (CPU s):")
    for line in sorted(lines, key=lambda line: -line["cpu"])[:top]:
        out.append(f"{line['cpu']:>7.1f}  {line['id']}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    top = 10
    if "--top" in argv:
        at = argv.index("--top")
        top = int(argv[at + 1])
        del argv[at:at + 2]
    lines: list[dict] = []
    for path in argv:
        with open(path, encoding="utf-8") as source:
            lines.extend(json.loads(text) for text in source if text.strip())
    print(summary(lines, top))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
