"""ruleslawyer: rules-as-data verifier for hidden-information deduction games.

The code lives in layers, each its own folder: ``spec`` (the rule language
and state machine), ``solver`` (hidden deals as constraints), ``checker``
(game logs, diagnostics, command line) and ``lab`` (simulation and proof).
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # Lazy: importing the package runs nothing, so the console script's guard
    # against a Ctrl-C covers every import that takes time.
    if name == "__version__":
        found = _installed_version()
        if found is None:
            from importlib import metadata

            try:
                found = metadata.version("ruleslawyer")  # one source of truth: pyproject.toml
            except metadata.PackageNotFoundError:  # a checkout that was never installed
                found = "0+unknown"
        globals()["__version__"] = found  # looked up once
        return found
    raise AttributeError(name)


def _installed_version() -> str | None:
    """The ``Version:`` of the installed package's metadata, found as ``importlib.metadata``
    finds it (the first ``ruleslawyer-*.dist-info`` or ``.egg-info`` along ``sys.path``)
    without importing it: its import (email, zipfile, csv...) is a tenth of a ``check``.
    None when not found so (then ``importlib.metadata`` answers)."""
    import os
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (OSError, TypeError, ValueError):
            continue
        for name in sorted(names):
            stem, dot, kind = name.rpartition(".")
            if kind not in ("dist-info", "egg-info") or stem.split("-")[0].lower().replace("-", "_") != "ruleslawyer":
                continue
            meta = os.path.join(entry or ".", name, "METADATA" if kind == "dist-info" else "PKG-INFO")
            try:
                with open(meta, encoding="utf-8") as handle:
                    for line in handle:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip() or None
                        if not line.strip():
                            break
            except (OSError, UnicodeError):
                pass
            return None
    return None
