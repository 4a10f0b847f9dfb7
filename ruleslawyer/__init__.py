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
        from importlib import metadata

        try:
            found = metadata.version("ruleslawyer")  # one source of truth: pyproject.toml
        except metadata.PackageNotFoundError:  # a checkout that was never installed
            found = "0+unknown"
        globals()["__version__"] = found  # looked up once
        return found
    raise AttributeError(name)
