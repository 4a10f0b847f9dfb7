"""ruleslawyer: rules-as-data verifier for hidden-information deduction games.

The code lives in three layers, each its own folder: ``spec`` (the rule
language and state machine), ``solver`` (hidden deals as constraints) and
``checker`` (game logs, diagnostics, command line).
"""

__version__ = "0.1.0"
