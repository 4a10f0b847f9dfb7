"""A private cache on disk of what building a rule set computes: one command reuses another's work.

Building a rule set parses its YAML and generates a Python function for each
rule expression (:mod:`spec.exprgen`); both depend on nothing but the files'
bytes, so a command that reads the same rule files again takes them from
here.  Where: ``$RULESLAWYER_CACHE`` (``off``: no cache), else
``$XDG_CACHE_HOME/ruleslawyer``, else ``~/.cache/ruleslawyer``.

**Trust.** An entry holds data and the code objects of generated functions,
written with :mod:`marshal`: loading one runs that code, as Python runs the
bytecode of its ``__pycache__`` folders.  The same trust model: the folder
must be the user's own (owned by them, mode 0700, not a link) and each entry
a regular file of theirs that nobody else may write, or the cache is not
used.  An entry's name is the SHA-256 of its key (the kind, the package's
version, the source of the ``spec`` modules that make it, Python's bytecode
magic number, and what the caller names: the files' bytes, the variant); the
key is stored in the entry too and compared whole.  An entry that cannot be
read, is truncated, is another version's or another key's, or does not have
the shape its kind expects, is ignored and written again.  Writes are atomic
(a temporary file in the folder, then a rename).  Nothing here ever raises:
without a cache a command does the work itself.

>>> import tempfile, os
>>> before = os.environ.get("RULESLAWYER_CACHE")
>>> os.environ["RULESLAWYER_CACHE"] = tempfile.mkdtemp()
>>> store("demo", ("a", 1), {"x": (1, 2)})
True
>>> load("demo", ("a", 1)), load("demo", ("a", 2))
({'x': (1, 2)}, None)
>>> os.environ["RULESLAWYER_CACHE"] = "off"
>>> load("demo", ("a", 1)) is None
True
>>> _ = os.environ.pop("RULESLAWYER_CACHE") if before is None else os.environ.update(RULESLAWYER_CACHE=before)
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import stat
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["folder", "load", "store"]

#: The layout of an entry; a new one makes every older entry foreign.
FORMAT = 1
_MAX_ENTRY = 64 * 1024 * 1024  # bytes: more is not one of ours


def folder() -> Path | None:
    """The cache folder (not created), or None when the cache is off."""
    env = os.environ.get("RULESLAWYER_CACHE", "")
    if env.strip().lower() in ("off", "0", "no", "false", "none"):
        return None
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "ruleslawyer"


def _private(path: Path, make: bool) -> bool:
    """Whether ``path`` is a folder of this user's that nobody else may enter (made when ``make``)."""
    try:
        if make:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            try:
                path.mkdir(mode=0o700)
            except FileExistsError:
                pass
        st = os.lstat(path)
    except (OSError, ValueError, RuntimeError):
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


@lru_cache(maxsize=1)
def _maker() -> str:
    """What makes an entry's content: the package's version, the ``spec`` modules' source, Python's magic."""
    from .. import __version__

    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0".encode())
    digest.update(importlib.util.MAGIC_NUMBER)
    for module in sorted(Path(__file__).parent.glob("*.py")):
        try:
            digest.update(module.name.encode() + b"\0" + module.read_bytes())
        except OSError:
            digest.update(module.name.encode() + b"\0?")
    return digest.hexdigest()


def _key_text(kind: str, key: Any) -> str | None:
    try:
        return f"{kind}\0{_maker()}\0{key!r}"
    except Exception:  # a key that cannot be written: no entry
        return None


def _entry(kind: str, key: Any, make: bool) -> tuple[Path, str] | None:
    where = folder()
    text = _key_text(kind, key)
    if where is None or text is None or not _private(where, make):
        return None
    name = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return where / f"{kind}-{name}.bin", text


def load(kind: str, key: Any) -> Any:
    """The value stored for ``(kind, key)``, or None (no cache, no entry, or one not to trust)."""
    found = _entry(kind, key, make=False)
    if found is None:
        return None
    path, text = found
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022 \
                or st.st_size > _MAX_ENTRY:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            data = handle.read(_MAX_ENTRY + 1)
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    try:
        stored = marshal.loads(data)
    except Exception:  # truncated or not marshal data: ValueError, EOFError, TypeError
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and stored[0] == text):
        return None  # another key's, another version's
    return stored[1]


def store(kind: str, key: Any, value: Any) -> bool:
    """Write ``value`` (marshal's types and code objects) for ``(kind, key)``; False when not written."""
    found = _entry(kind, key, make=True)
    if found is None:
        return False
    path, text = found
    try:
        data = marshal.dumps((text, value))
    except ValueError:  # a value marshal does not write
        return False
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False
    _prune(path.parent)
    return True


#: Entries kept (the most recently written): rule files edited again and again leave old ones.
MAX_ENTRIES = 256


def _prune(where: Path) -> None:
    """Remove the oldest of our entries past :data:`MAX_ENTRIES` (and no other file)."""
    try:
        entries = [(e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in os.scandir(where)
                   if e.name.endswith(".bin") and "-" in e.name and e.is_file(follow_symlinks=False)]
        for _when, old in sorted(entries)[:max(0, len(entries) - MAX_ENTRIES)]:
            os.unlink(old)
    except OSError:
        pass
