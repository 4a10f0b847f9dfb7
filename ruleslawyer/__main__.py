"""``python -m ruleslawyer`` runs the command line, as ``ruleslawyer`` does."""

import sys

from .console import main

sys.exit(main())
