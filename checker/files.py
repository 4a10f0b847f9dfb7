"""Writing a file so that a crash or Ctrl-C never leaves it half written, and
holding a file so that two sessions never edit it at once.

A save writes the new text to a temporary file in the target's folder (so
that the rename stays on one file system), flushes it to disk, then renames
it over the target: the file is at every moment either the old one or the
new one, whole.  A symbolic link is followed (the file it points to is
written, the link stays a link); the file's mode (and, when allowed, its
owner) is kept.  ``RULESLAWYER_SAVE_PAUSE`` (seconds) waits between the two
steps: a test's way to stop the program in the middle of a save.

Temporaries are named ``.NAME.PID-RANDOM.tmp``: unique per process, and a
leftover one is removed only when the process its name gives has ended
(names compared exactly, never as a pattern).  :class:`FileLock` is an
advisory lock (``flock``) on ``.NAME.lock`` beside the file, which says who
holds it.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import signal
import socket
import stat
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no advisory locks
    fcntl = None  # type: ignore[assignment]

__all__ = ["write_atomically", "stale_temporaries", "remove_stale_temporaries", "real_path",
           "signals_held", "FileLock", "Holder", "LockHeld"]


def real_path(path: str | os.PathLike[str]) -> Path:
    """The file a path names once symbolic links are followed (the file a save writes)."""
    return Path(os.path.realpath(path))


def _folder(target: Path) -> Path:
    return target.parent if str(target.parent) else Path(".")


def _temporary_pattern(target: Path) -> re.Pattern[str]:
    return re.compile(re.escape(f".{target.name}.") + r"([0-9]+)-[0-9a-f]{8}\.tmp")


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a process a name of ours gives: never ours to remove
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Temporary files that a save of ``path`` left behind (its process ended before the
    rename): named exactly as this module names them, and their process gone."""
    target = real_path(path)
    pattern = _temporary_pattern(target)
    found = []
    try:
        entries = list(os.scandir(_folder(target)))
    except OSError:
        return []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match and entry.is_file(follow_symlinks=False) and not _alive(int(match.group(1))):
            found.append(Path(entry.path))
    return sorted(found)


def remove_stale_temporaries(path: str | os.PathLike[str]) -> int:
    """Remove :func:`stale_temporaries` (the file itself is whole); how many were removed."""
    removed = 0
    for stale in stale_temporaries(path):
        try:
            stale.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def _new_temporary(folder: Path, name: str, mode: int) -> tuple[int, Path]:
    for _ in range(100):
        tmp = folder / f".{name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(folder))


def write_atomically(path: str | os.PathLike[str], text: str | bytes) -> None:
    """Write a file so that it is either the old one or the new one, whole: a temporary
    file in the same folder, flushed to disk, then renamed over the target (the file a
    symbolic link points to).  An ``OSError`` leaves the old file as it was."""
    target = real_path(path)
    folder = _folder(target)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    if old is not None:
        mode = stat.S_IMODE(old.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = _new_temporary(folder, target.name, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            os.fchmod(fd, mode)
            if old is not None and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.fchown(fd, old.st_uid, old.st_gid)
                except OSError:  # not ours to give away: the new file is the writer's
                    pass
        finally:
            os.close(fd)
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


# -- signals held off during a save -------------------------------------------------------

_ENDING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))


@contextmanager
def signals_held() -> Iterator[list[int]]:
    """Ctrl-C and the signals that end a process (TERM, HUP, QUIT) held off for the block,
    then delivered as they would have been.  A Python handler that only notes the signal
    is installed for the block rather than a signal mask: a mask blocks one thread, and
    the kernel gives a process's signal to any thread that does not block it."""
    pending: list[int] = []
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover - handlers are the main thread's
        yield pending
        return

    def note(signum: int, _frame: object) -> None:
        pending.append(signum)

    old = {}
    for signum in _ENDING:
        handler = signal.getsignal(signum)
        if handler is signal.SIG_IGN or handler is None:
            continue  # ignored before: stays ignored
        old[signum] = handler
        signal.signal(signum, note)
    try:
        yield pending
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(pending):
            if signum in old:
                signal.raise_signal(signum)


# -- an advisory lock ----------------------------------------------------------------------


@dataclass(frozen=True)
class Holder:
    """Who holds a lock, as its lock file says (each part None when unreadable)."""

    pid: int | None
    host: str | None
    since: str | None

    def describe(self) -> str:
        parts = [f"process {self.pid}" if self.pid else "a process",
                 f"on {self.host}" if self.host else "", f"since {self.since}" if self.since else ""]
        return " ".join(p for p in parts if p)


class LockHeld(Exception):
    """The lock is held by another process."""

    def __init__(self, path: Path, holder: Holder):
        super().__init__(f"{path} is held by {holder.describe()}")
        self.path = path
        self.holder = holder


_HOST = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")
_SINCE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} UTC")


def _holder(data: bytes) -> Holder:
    """What a lock file says, each part kept only when it has the shape this module writes
    (a lock file is anybody's to write: nothing else of it is ever shown)."""
    fields = dict(line.partition(" ")[::2] for line in data.decode("ascii", "replace").splitlines())
    pid = fields.get("pid", "")
    host = fields.get("host", "")
    since = fields.get("since", "")
    return Holder(int(pid) if pid.isdigit() and len(pid) < 10 else None,
                  host if _HOST.fullmatch(host) else None, since if _SINCE.fullmatch(since) else None)


class FileLock:
    """An exclusive advisory lock on ``.NAME.lock`` beside a file (the file a link points to),
    held until :meth:`release` or the process ends; the lock file says who holds it."""

    def __init__(self, path: str | os.PathLike[str]):
        target = real_path(path)
        self.path = _folder(target) / f".{target.name}.lock"
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`LockHeld` (or ``OSError``: the folder is missing,
        read-only...)."""
        if fcntl is None:  # pragma: no cover - no advisory locks on this system
            return
        for _ in range(20):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            try:
                mine = os.fstat(fd)
                if not stat.S_ISREG(mine.st_mode):
                    raise OSError(errno.EINVAL, "the lock file is not a regular file", str(self.path))
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise LockHeld(self.path, _holder(os.pread(fd, 512, 0))) from None
                try:  # its last holder may have removed it between our open and our lock
                    now = os.stat(self.path, follow_symlinks=False)
                except FileNotFoundError:
                    now = None
                if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                    self.fd, fd = fd, -1
                    self._write_holder()
                    return
            finally:
                if fd >= 0:
                    os.close(fd)
        raise LockHeld(self.path, Holder(None, None, None))  # pragma: no cover - a storm of sessions

    def _write_holder(self) -> None:
        assert self.fd is not None
        since = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        text = f"pid {os.getpid()}\nhost {socket.gethostname()}\nsince {since}\n"
        try:
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, text.encode("ascii", "replace"), 0)
        except OSError:  # a full disk: the lock holds all the same, it only says less
            pass

    def release(self) -> None:
        """Remove the lock file (still holding it, so that no one takes a file about to go) and let go."""
        if self.fd is None:
            return
        try:
            mine = os.fstat(self.fd)
            now = os.stat(self.path, follow_symlinks=False)
            if (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self) -> "FileLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
