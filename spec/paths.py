"""Which files an untrusted input may make ruleslawyer read.

A game log names its rules (``rules:``, ``house:``), and the overlays it
names name their bases (``extends:``).  A log comes from anyone, so those
names are read under a :class:`PathPolicy`: a name may be

* a bundled rule set or overlay by name (the file name without ``.yaml``), or
  any file of the bundled ``rules/`` folder;
* a file inside the log's own folder tree (``house/mine.yaml``), once
  symbolic links and ``..`` are resolved;
* a file inside a folder given on the command line with ``--allow-path DIR``.

Anything else (an absolute path elsewhere, ``..`` out of the tree, a link
pointing out of it) is refused before it is opened, with RL011, whether or
not it exists: the answer says nothing of the file.  Files of the operating
system (``/proc``, ``/sys``, ``/dev``) are never read at all
(:func:`~ruleslawyer.spec.source.read_yaml`), and a file that is not a rule
file is reported without showing what it holds (RL012).

Files named on the command line are the user's own choice: they may be
anywhere, but the same rules hold for what is read and what is shown
(:func:`read_named`): only regular files outside the system folders, and a
file that does not declare what it is (a property file its ``properties:``
line) is refused without showing anything of it (RL012).  A folder given
with ``--allow-path`` must be named: an empty name (which would mean the
working folder) is refused (:func:`allowed_folder`, RL011).
"""

from __future__ import annotations

import contextvars
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from .diagnostics import Diagnostic, DiagnosticError, Position

__all__ = ["PathPolicy", "bundled_dir", "bare_name", "is_file", "ALLOWED", "allowed_folder", "read_named"]

#: Folders the command line allows (``--allow-path``), for callers that do not pass them.
ALLOWED: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("allowed_paths", default=())


@lru_cache(maxsize=1)
def bundled_dir() -> Path:
    """The bundled rules/ folder (package data, wherever the package is installed)."""
    from . import bundled

    return bundled.folder(bundled.RULES)


def _real(path: Path) -> Path | None:
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):  # a NUL byte, a name too long...
        return None


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file, False for any name the system cannot look up."""
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, a loop of links, a NUL byte...
        return False


def bare_name(ref: str) -> bool:
    """A name, not a path: no folder and no .yaml ending."""
    return "/" not in ref and Path(ref).suffix not in (".yaml", ".yml")


def allowed_folder(value: str) -> str:
    """A folder given with ``--allow-path``, refused (RL011) when it names none: ``Path("")``
    is the working folder, which no one means by an empty argument."""
    if not isinstance(value, str) or not value.strip():
        raise DiagnosticError([Diagnostic(
            "RL011", "--allow-path needs a folder: an empty name would allow the working folder and all below it",
            Position("--allow-path"), hint="name the folder, e.g. --allow-path . for the working folder")])
    return value


def read_named(path: str, declared: str) -> Any:
    """A YAML file named on the command line, of the kind whose top-level key ``declared`` it must
    have on a line of its own (RL012 otherwise, nothing of it shown); system files, devices and
    folders are never read (RL001)."""
    from .source import read_yaml

    return read_yaml(path, declared=declared)


@dataclass(frozen=True)
class PathPolicy:
    """The folders an untrusted input may name files in (resolved), and the one
    its names are relative to."""

    roots: tuple[Path, ...]
    base: Path

    @classmethod
    def for_log(cls, log_path: str, allow: Iterable[str] | None = None) -> "PathPolicy":
        """The log's own folder, the bundled rules and ``allow`` (default: :data:`ALLOWED`)."""
        base = Path(log_path).parent
        extra = tuple(ALLOWED.get() if allow is None else allow)
        for folder in extra:
            allowed_folder(folder)
        folders = [base, bundled_dir(), *extra]
        return cls(tuple(dict.fromkeys(r for r in map(_real, folders) if r is not None)), base)

    def allows(self, path: Path) -> bool:
        real = _real(path)
        return real is not None and any(real == r or r in real.parents for r in self.roots)

    def find(self, ref: str, base: Path | None, position: Position | None) -> Path | None:
        """The file ``ref`` names, relative to ``base`` (default: the policy's), else a bundled
        rule set by that name.

        None when there is no such file where it may be; raises
        :class:`DiagnosticError` (RL011) when ``ref`` points outside the
        allowed folders, whether the file exists or not.
        """
        candidate = (self.base if base is None else base) / ref
        inside = self.allows(candidate)
        if inside and is_file(candidate):
            return candidate
        if bare_name(ref):
            for c in (bundled_dir() / f"{ref}.yaml", bundled_dir() / "house" / f"{ref}.yaml"):
                if is_file(c):
                    return c
        if not inside:
            raise DiagnosticError([Diagnostic(
                "RL011", f"'{ref}' is outside the folders a log may name files in", position,
                hint="a log may name a bundled rule set, or a file in its own folder or below; "
                     "to read another folder, add --allow-path DIR")])
        return None
