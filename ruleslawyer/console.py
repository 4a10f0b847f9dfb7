"""The ``ruleslawyer`` console script: a Ctrl-C during the imports is an interrupt too.

The command line's own module takes a noticeable time to import (Z3, numpy);
an interrupt then would otherwise print Python's traceback.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the command line; 130 and one line when interrupted before it starts.

    ``ruleslawyer --version`` alone is answered before the command line is built (its
    parser holds every command's options, and the lab's, found through entry points)."""
    try:
        if sys.argv[1:] == ["--version"]:
            from . import __version__

            print(f"ruleslawyer {__version__}")
            return 0
        from .checker.cli import main as run
    except KeyboardInterrupt:
        try:
            print("ruleslawyer: interrupted", file=sys.stderr)
        except (OSError, ValueError):  # pragma: no cover - standard error closed
            pass
        return 130
    return run()
