"""How long a command takes from the shell: start-up, imports and all.

    .venv/bin/python benchmarks/startup_bench.py [--repeat 9] [--ruleslawyer PATH] [--no-compile] [--no-cache]

Each case runs the installed ``ruleslawyer`` command ``--repeat`` times as a
new process, as a user at the table would, and prints the median of its wall
time and of its CPU time (user + system, from ``getrusage`` of the finished
child), with the fastest and slowest wall time:

- ``--version``: the parser, nothing else (no rule file, no solver);
- ``check`` of a 60-move log (``examples/perfect-alibi/clean-5p.yaml``, a
  complete five-player game) and of a 26-move one
  (``examples/lady-alice/clean-4p.yaml``);
- ``solve`` of the same logs (every card's status and chance after the last
  move, from the spectator's seat).

The bytecode is compiled first (``python -m compileall``), as ``make test`` and
an installed wheel have it: where ``PYTHONDONTWRITEBYTECODE`` is set, every run
would otherwise compile the package again (``--no-compile`` to measure that).
The rule-set cache on disk (``spec/diskcache.py``) is warm after the first run of
each case, as at the table; ``--no-cache`` runs every case with
``RULESLAWYER_CACHE=off`` (every rule file parsed, every expression's function
generated, as before the cache).
Wall time depends on what else the machine runs (the load average is printed
before and after); CPU time much less so.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("ruleslawyer", "spec", "solver", "checker", "lab", "rules")
CASES = (
    ("--version", ["--version"]),
    ("check 60 moves (perfect-alibi 5p)", ["check", "examples/perfect-alibi/clean-5p.yaml"]),
    ("check 26 moves (lady-alice 4p)", ["check", "examples/lady-alice/clean-4p.yaml"]),
    ("solve 60 moves (perfect-alibi 5p)", ["solve", "examples/perfect-alibi/clean-5p.yaml"]),
    ("solve 26 moves (lady-alice 4p)", ["solve", "examples/lady-alice/clean-4p.yaml"]),
)


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit status {done.returncode}\n{done.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=9, help="runs of each case (default 9)")
    ap.add_argument("--ruleslawyer", default=str(Path(sys.executable).with_name("ruleslawyer")),
                    help="the command to time (default: the one beside this Python)")
    ap.add_argument("--no-compile", action="store_true", help="do not compile the bytecode first")
    ap.add_argument("--no-cache", action="store_true", help="RULESLAWYER_CACHE=off: no rule-set cache on disk")
    args = ap.parse_args()
    env = {**os.environ, "RULESLAWYER_CACHE": "off"} if args.no_cache else None
    if not args.no_compile:
        subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *FOLDERS], cwd=ROOT, check=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'case':<36} {'wall ms':>8} {'cpu ms':>7} {'min wall':>9} {'max wall':>9}")
    for label, argv in CASES:
        run([args.ruleslawyer, *argv], env)  # once first: the file system's cache (and the rule-set cache) warm
        times = [run([args.ruleslawyer, *argv], env) for _ in range(args.repeat)]
        walls = sorted(w for w, _c in times)
        print(f"{label:<36} {statistics.median(walls) * 1e3:8.0f} "
              f"{statistics.median(c for _w, c in times) * 1e3:7.0f} {walls[0] * 1e3:9.0f} {walls[-1] * 1e3:9.0f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
