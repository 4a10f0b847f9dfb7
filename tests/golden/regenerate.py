"""Regenerate the golden reports of the example logs (``make golden``).

For every log under ``examples/lady-alice/`` (the clean games, the
rulebook's examples and ``violations/CODE.yaml``), writes what ``ruleslawyer
check`` says about it to ``tests/golden/<name>.txt``: the text report, then
the exit status.  Paths are relative to the repository root, so the files
do not depend on where the repository lives.  ``tests/checker/test_golden.py``
diffs them; after an intended change, run this and review ``git diff``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent
EXAMPLES = Path("examples") / "lady-alice"


def example_logs() -> list[Path]:
    """Every example log, relative to the repository root (house overlays excluded)."""
    logs = sorted((ROOT / EXAMPLES).glob("*.yaml")) + sorted((ROOT / EXAMPLES / "violations").glob("*.yaml"))
    return [p.relative_to(ROOT) for p in logs]


def golden_name(log: Path) -> str:
    return f"{log.stem}.txt"


def render(log: Path) -> str:
    """The report for one log, as the golden file holds it (run from the root)."""
    from ruleslawyer.checker.check import check_log

    report = check_log(str(log))
    return f"{report.format_text()}\nexit status {report.status}\n"


def main() -> int:
    os.chdir(ROOT)
    written = 0
    names = set()
    for log in example_logs():
        name = golden_name(log)
        if name in names:
            print(f"two example logs share the name {name}", file=sys.stderr)
            return 1
        names.add(name)
        target = GOLDEN / name
        text = render(log)
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
            written += 1
            print(f"wrote {target.relative_to(ROOT)}")
    for stale in sorted(GOLDEN.glob("*.txt")):
        if stale.name not in names:
            stale.unlink()
            print(f"removed {stale.relative_to(ROOT)}")
    print(f"{len(names)} golden reports, {written} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
