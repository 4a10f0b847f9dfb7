"""Writing a file so that a crash or Ctrl-C never leaves it half written.

The new text goes to a temporary file in the same folder (so that the
rename stays on one file system), is flushed to disk, then renamed over the
target: the file is at every moment either the old one or the new one,
whole.  ``RULESLAWYER_SAVE_PAUSE`` (seconds) waits between the two steps: a
test's way to kill the program in the middle of a save.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

__all__ = ["write_atomically", "stale_temporaries"]


def _prefix(target: Path) -> str:
    return f".{target.name}."


def stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Temporary files a save of ``path`` left behind (a save killed before its rename)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    return sorted(p for p in folder.glob(f"{_prefix(target)}*.tmp") if p.is_file())


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write a file so that it is either the old one or the new one, whole: a temporary
    file in the same folder, flushed to disk, then renamed over the target."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=_prefix(target), suffix=".tmp", dir=folder)
    try:
        try:
            mode = target.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        pause = os.environ.get("RULESLAWYER_SAVE_PAUSE", "")
        if pause.replace(".", "", 1).isdigit():
            time.sleep(min(float(pause), 60.0))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:  # pragma: no cover - a file system without directory fsync
        pass


