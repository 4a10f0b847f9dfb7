"""CPU time per test: a pytest plugin, and a summary of what it recorded.

The suite's wall time means little on a shared machine; the CPU a test spends
(this process's, plus that of the child processes it waited for) is the work
it did.  Load the plugin and name a file to append one JSON line per test to:

    RL_CPU_LOG=cpu.jsonl PYTHONPATH=benchmarks .venv/bin/python -m pytest -p cpu_per_test -p no:xdist tests/lab
    .venv/bin/python benchmarks/cpu_per_test.py cpu.jsonl [--top 10]      # per folder, the most expensive tests

and, to see how ``make test`` would share that work between its two workers,
the order the tests are collected in (``heavy`` modules first, tests/conftest.py):

    .venv/bin/python -m pytest -o addopts= -p no:xdist --collect-only -q | grep :: > order.txt
    .venv/bin/python benchmarks/cpu_per_test.py cpu.jsonl --schedule order.txt [--workers 2]

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


def schedule(lines: list[dict], order: list[str], workers: int = 2, min_pending: int = 2) -> str:
    """pytest-xdist's ``--dist worksteal`` replayed on the CPU recorded (a quiet machine: a test's
    wall time is its CPU): the collected tests split in even runs of the order, each worker taking
    the first of its own; one with fewer than ``min_pending`` left takes half of the longest queue's
    tail.  What each worker ends with, and how long the first to finish waits for the last."""
    cpu = {line["id"]: line["cpu"] for line in lines}
    pending = list(range(len(order)))
    queues: list[list[int]] = []
    for i in range(workers):
        n = len(pending) // (workers - i)
        queues.append(pending[:n])
        del pending[:n]
    busy = [0.0] * workers
    ended = [False] * workers
    last: list[tuple[float, int, str]] = []
    while not all(ended):
        k = min((i for i in range(workers) if not ended[i]), key=lambda i: busy[i])
        if len(queues[k]) < min_pending:
            src = max(range(workers), key=lambda i: len(queues[i]))
            n = min(len(queues[src]) // 2, max(0, len(queues[src]) - min_pending))
            if src != k and n > 0:
                queues[k] += queues[src][-n:]
                del queues[src][-n:]
        if not queues[k]:
            ended[k] = True
            continue
        item = order[queues[k].pop(0)]
        busy[k] += cpu.get(item, 0.0)
        last.append((busy[k], k, item))
    unknown = sum(1 for item in order if item not in cpu)
    out = [f"{workers} workers, test CPU each: " + ", ".join(f"{b:.1f} s" for b in busy)
           + f"; the first done waits {max(busy) - min(busy):.1f} s for the last"
           + (f" ({unknown} tests not in the log: counted 0)" if unknown else ""),
           "the last tests to end:"]
    out += [f"{at:>9.1f}  worker {k}  {item}" for at, k, item in sorted(last)[-3:]]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    top, order, workers = 10, None, 2
    for flag in ("--top", "--schedule", "--workers"):
        if flag in argv:
            at = argv.index(flag)
            value = argv[at + 1]
            del argv[at:at + 2]
            if flag == "--top":
                top = int(value)
            elif flag == "--workers":
                workers = int(value)
            else:
                with open(value, encoding="utf-8") as source:
                    order = [text.strip() for text in source if "::" in text]
    lines: list[dict] = []
    for path in argv:
        with open(path, encoding="utf-8") as source:
            lines.extend(json.loads(text) for text in source if text.strip())
    print(summary(lines, top))
    if order is not None:
        print()
        print(schedule(lines, order, workers))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
