"""ruleslawyer: rules-as-data verifier for hidden-information deduction games.

The code lives in three layers, each its own folder: ``spec`` (the rule
language and state machine), ``solver`` (hidden deals as constraints) and
``checker`` (game logs, diagnostics, command line).
"""

from importlib import metadata

try:
    __version__ = metadata.version("ruleslawyer")  # one source of truth: pyproject.toml
except metadata.PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+unknown"
