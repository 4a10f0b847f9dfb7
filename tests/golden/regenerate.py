"""Regenerate the golden reports of the example logs (``make golden``).

For every log of every game folder under ``examples/`` (the clean games,
the rulebook's examples and ``violations/CODE.yaml``), writes what
``ruleslawyer check`` says about it: the text report, then the exit status.
Lady Alice's reports (the first game) are ``tests/golden/<name>.txt``; every
other game's are in a folder of its own, ``tests/golden/<game>/<name>.txt``.
Paths are relative to the repository root, so the files do not depend on
where the repository lives.  ``tests/checker/test_golden.py`` diffs them;
after an intended change, run this and review ``git diff``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent
EXAMPLES = Path("examples")
#: The game whose golden reports lie directly in tests/golden/ (they were there first).
FIRST_GAME = "lady-alice"


def games() -> list[str]:
    """Every game folder of examples/."""
    return sorted(p.name for p in (ROOT / EXAMPLES).iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def example_logs(game: str | None = None) -> list[Path]:
    """Every example log (of one game, or of all), relative to the repository root (house overlays excluded)."""
    logs: list[Path] = []
    for name in [game] if game else games():
        folder = ROOT / EXAMPLES / name
        logs.extend(sorted(folder.glob("*.yaml")) + sorted((folder / "violations").glob("*.yaml")))
    return [p.relative_to(ROOT) for p in logs]


def game_of(log: Path) -> str:
    """The game folder a log belongs to."""
    return log.relative_to(EXAMPLES).parts[0]


def golden_path(log: Path) -> Path:
    """Where a log's golden report is kept."""
    game = game_of(log)
    return GOLDEN / f"{log.stem}.txt" if game == FIRST_GAME else GOLDEN / game / f"{log.stem}.txt"


def golden_name(log: Path) -> str:
    """The golden report's path relative to tests/golden/."""
    return str(golden_path(log).relative_to(GOLDEN))


def render(log: Path, report=None) -> str:
    """The report for one log, as the golden file holds it (run from the root); ``report``: the
    log's ``check_log`` report when the caller has it already."""
    from ruleslawyer.checker.check import check_log

    if report is None:
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
        target = golden_path(log)
        target.parent.mkdir(exist_ok=True)
        text = render(log)
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
            written += 1
            print(f"wrote {target.relative_to(ROOT)}")
    for stale in sorted(GOLDEN.glob("*.txt")) + sorted(GOLDEN.glob("*/*.txt")):
        if str(stale.relative_to(GOLDEN)) not in names:
            stale.unlink()
            print(f"removed {stale.relative_to(ROOT)}")
    print(f"{len(names)} golden reports, {written} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
