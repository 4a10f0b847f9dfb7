"""Every file ruleslawyer writes on request (``report -o``, ``--plots``, ``--logs``,
``--report``, the file of a path ``prove`` refutes) goes through here.

A file may be written where the name is new or names a regular file; a
symbolic link to a regular file is followed (its target is written).  A
device, a fifo, a socket, a folder where a file is wanted (or a file where
a folder is wanted), a link to nothing, a read-only file, a file of the
operating system (``/proc``, ``/sys``, ``/dev``) and an input of the same
command (the log being reported, say) are refused before anything is
written, with RL013.  A file is written to a temporary in its own folder,
flushed, then renamed over the target: a write error (a missing folder, a
read-only folder, a full disk) is RL013, exit status 2, and leaves the
target as it was (no empty or partial file).

A folder of outputs is created when missing (with its parents); when one of
its files cannot be written, the files this call created are removed again,
and the folder too when this call created it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from ..spec.diagnostics import Diagnostic, DiagnosticError, Position
from ..spec.source import system_file

__all__ = ["CODE", "check_file", "check_folder", "write_file", "write_folder", "made_folder", "log_ref"]

#: The code of every output that cannot be written.
CODE = "RL013"


def _fail(shown: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic(CODE, message, Position(shown), hint=hint)])


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _is_input(real: Path, inputs: Iterable[str | os.PathLike[str]]) -> str | None:
    """The input that is this very file (by device and inode), if any."""
    mine = _identity(real)
    if mine is None:
        return None
    return next((str(i) for i in inputs if i and _identity(i) == mine), None)


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_file(path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()) -> Path:
    """The file to write for ``path`` (a link's target), or :class:`DiagnosticError` (RL013)."""
    shown = str(path)
    if not shown:
        raise _fail(shown, "an empty name is no file to write")
    if shown.endswith(("/", os.sep)):
        raise _fail(shown, f"{shown} names a folder, not a file: not written", hint="name the file to write")
    try:
        link = os.lstat(path)
    except FileNotFoundError:
        link = None
    except (OSError, ValueError) as exc:
        raise _fail(shown, f"cannot write {shown}: {getattr(exc, 'strerror', None) or exc}") from None
    if link is not None and stat.S_ISLNK(link.st_mode):
        try:
            os.stat(path)
        except (OSError, ValueError):
            raise _fail(shown, f"{shown} is a link to nothing (or a loop of links): not written") from None
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError) as exc:
        raise _fail(shown, f"cannot write {shown}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        mode: int | None = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:
        raise _fail(shown, f"cannot write {shown}: {getattr(exc, 'strerror', None) or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise _fail(shown, f"{shown} is {_what(mode)}, not a file: not written",
                    hint="name a new file, or a regular file to replace")
    system = system_file(real)
    if system is not None:
        raise _fail(shown, f"{shown} is in a folder of the operating system ({system}): not written")
    if mode is None:
        parent = real.parent
        if not parent.exists():
            raise _fail(shown, f"cannot write {shown}: the folder {parent} does not exist")
        if not parent.is_dir():
            raise _fail(shown, f"cannot write {shown}: {parent} is not a folder")
        return real
    same = _is_input(real, inputs)
    if same is not None:
        raise _fail(shown, f"{shown} is the input {same} itself: not written over")
    if not mode & 0o222:
        raise _fail(shown, f"{shown} is read-only: not written over")
    return real


def check_folder(path: str | os.PathLike[str]) -> Path:
    """The folder of outputs ``path`` names (created later when missing), or RL013."""
    shown = str(path)
    if not shown:
        raise _fail(shown, "an empty name is no folder to write in")
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError) as exc:
        raise _fail(shown, f"cannot write in {shown}: {getattr(exc, 'strerror', None) or exc}") from None
    if system_file(real) is not None:
        raise _fail(shown, f"{shown} is a folder of the operating system: nothing written there")
    probe = real
    while True:
        try:
            mode = os.stat(probe).st_mode
        except FileNotFoundError:
            if probe.parent == probe:  # pragma: no cover - the root always exists
                break
            probe = probe.parent
            continue
        except (OSError, ValueError) as exc:
            raise _fail(shown, f"cannot write in {shown}: {getattr(exc, 'strerror', None) or exc}") from None
        if not stat.S_ISDIR(mode):
            what = "" if probe == real else f" ({probe})"
            raise _fail(shown, f"{shown}{what} is {_what(mode) if not stat.S_ISREG(mode) else 'a file'}, "
                               "not a folder: nothing written", hint="name a folder, new or existing")
        break
    return real


def _new_mode(target: Path) -> int:
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _message(shown: str, exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return f"cannot write {shown}: no space left on the device (nothing written)"
    return f"cannot write {shown}: {exc.strerror or exc} (nothing written)"


def write_file(path: str | os.PathLike[str], data: str | bytes,
               inputs: Iterable[str | os.PathLike[str]] = ()) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; the file written."""
    shown = str(path)
    target = check_file(path, inputs)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), _new_mode(target))
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise _fail(shown, _message(shown, exc)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return target


def write_folder(folder: str | os.PathLike[str], files: Sequence[tuple[str, str | bytes]],
                 inputs: Iterable[str | os.PathLike[str]] = ()) -> list[str]:
    """Write each ``(name, data)`` into ``folder`` (created when missing); the paths written.

    All or nothing for what this call creates: when a file cannot be written,
    the new files written before it are removed, and the folder when it was new.
    """
    shown = str(folder)
    real = check_folder(folder)
    inputs = list(inputs)
    made: list[Path] = []
    missing = []
    probe = real
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    written: list[str] = []
    new: list[Path] = []
    try:
        try:
            os.makedirs(real, exist_ok=True)
        except OSError as exc:
            raise _fail(shown, f"cannot make the folder {shown}: {exc.strerror or exc}") from None
        made = missing
        for name, data in files:
            path = os.path.join(str(folder), name)
            existed = os.path.lexists(path)
            write_file(path, data, inputs)
            if not existed:
                new.append(Path(path))
            written.append(path)
    except BaseException:
        for p in new:
            try:
                os.unlink(p)
            except OSError:
                pass
        for d in made:  # the deepest first
            try:
                os.rmdir(d)
            except OSError:
                break
        raise
    return written


@contextlib.contextmanager
def made_folder(path: str | os.PathLike[str] | None) -> Iterator[None]:
    """Make the folder of outputs ``path`` now (with its parents; nothing when None), before the
    work whose results go there; when the work fails, the folders made are removed again if
    they are still empty."""
    if path is None:
        yield
        return
    shown = str(path)
    real = check_folder(path)
    missing = []
    probe = real
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    try:
        os.makedirs(real, exist_ok=True)
    except OSError as exc:
        raise _fail(shown, f"cannot make the folder {shown}: {exc.strerror or exc}") from None
    try:
        yield
    except BaseException:
        for d in missing:  # the deepest first
            try:
                os.rmdir(d)
            except OSError:
                break
        raise


def log_ref(ref: str, folder: str | os.PathLike[str]) -> str:
    """How a log written in ``folder`` names the rule file or overlay ``ref``: a file by its path
    relative to that folder (``/``-separated), absolute when the two share no folder but the
    root; a bundled name as it is."""
    if not os.path.isfile(ref):
        return ref
    target, base = os.path.abspath(ref), os.path.abspath(folder)
    try:
        if os.path.commonpath([target, base]) == os.path.abspath(os.sep):
            return Path(target).as_posix()
        rel = os.path.relpath(target, base)
    except ValueError:  # pragma: no cover - another drive (Windows)
        return Path(target).as_posix()
    return Path(rel).as_posix()
