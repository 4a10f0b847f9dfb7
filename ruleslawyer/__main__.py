"""``python -m ruleslawyer`` runs the command line, as ``ruleslawyer`` does."""

import sys

from .checker.cli import main

sys.exit(main())
