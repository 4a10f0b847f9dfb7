"""The code of the fused checks kept on disk between commands (:mod:`spec.diskcache`, kind "fused").

A lab fuses the requirements it checks together into one generated function
each (:func:`spec.expr.first_failing` and its kin), as it first needs them: a
command pays for making them every time it starts.  Their code depends on
nothing but the requirements' texts (and the ``spec`` modules, which the cache's
key holds), so the code made by one command serves the next: read once per
process (one entry for every rule set, at most :data:`MAX_KEPT` functions, the
most recently made kept), written when the process ends if it made new ones.
The trust model is the disk cache's; a stored value that is not a function's
code of the expected shape is ignored and the function made again.

>>> import os, tempfile
>>> before = os.environ.get("RULESLAWYER_CACHE")
>>> os.environ["RULESLAWYER_CACHE"] = "off"
>>> stored(("index", ((None, "n > 1"),))) is NOT_STORED
True
>>> _ = os.environ.pop("RULESLAWYER_CACHE") if before is None else os.environ.update(RULESLAWYER_CACHE=before)
"""

from __future__ import annotations

import atexit
from typing import Any

from . import diskcache

__all__ = ["MAX_KEPT", "NOT_STORED", "stored", "made", "flush"]

#: Functions kept in the entry at most (the oldest made dropped first).
MAX_KEPT = 4096
#: :func:`stored`'s answer for a key the entry does not hold.
NOT_STORED = object()
_KEY = ("checks",)

_read: dict[Any, Any] | None = None  # the entry as read (None: not read yet)
_new: dict[Any, Any] = {}  # made in this process, not stored yet
_registered = False


def _entry() -> dict[Any, Any]:
    global _read
    if _read is None:
        found = diskcache.load("fused", _KEY)
        _read = found if isinstance(found, dict) else {}
    return _read


def stored(key: Any) -> Any:
    """The stored code of the fused checks of ``key`` (None: stored as not made, the
    requirements not translated), or :data:`NOT_STORED`.  Whether it is a function's code of
    the expected shape is the caller's to check (:func:`spec.exprgen.from_code`)."""
    if diskcache.folder() is None:
        return NOT_STORED
    return _entry().get(key, NOT_STORED)


def made(key: Any, code: types.CodeType | None) -> None:
    """Note the code of a function made in this process (None: not made), to be stored when
    the process ends."""
    global _registered
    if diskcache.folder() is None:
        return
    _new[key] = code
    if not _registered:
        _registered = True
        atexit.register(flush)


def flush() -> bool:
    """Write the entry with the functions made in this process (False: nothing written)."""
    if not _new:
        return False
    kept = {k: v for k, v in _entry().items() if k not in _new}
    kept.update(_new)
    while len(kept) > MAX_KEPT:
        del kept[next(iter(kept))]
    written = diskcache.store("fused", _KEY, kept)
    if written:
        _entry().clear()
        _entry().update(kept)
        _new.clear()
    return written
