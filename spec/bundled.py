"""The data installed with the package, found through ``importlib.resources``.

Rule files and overlays are package data of ``ruleslawyer.rules``, the JSON
Schemas of ``ruleslawyer.spec``, the example logs of ``ruleslawyer.examples``
(see ``[tool.setuptools.package-data]`` in pyproject.toml).  The same lookup
finds them in a checkout (editable install) and in an installed wheel, from
any working folder: nothing is read relative to the source tree.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["folder", "RULES", "SCHEMAS", "EXAMPLES"]

RULES = "ruleslawyer.rules"
SCHEMAS = "ruleslawyer.spec"
EXAMPLES = "ruleslawyer.examples"


def folder(package: str) -> Path:
    """The folder of a package's data, as a file-system path.

    Rule files are read, and named in diagnostics, as files: pip and pipx
    install wheels unpacked, so this holds for every ordinary install.
    """
    root = resources.files(package)
    if not isinstance(root, Path):
        raise RuntimeError(f"{package}: the bundled data are not files in a folder ({root}); "
                           "install ruleslawyer with pip or pipx")
    return root
