"""The bundled rule sets (``*.yaml``), house overlays (``house/*.yaml``) and
quote index (``citations.json``), installed as package data of
``ruleslawyer.rules`` and read through ``importlib.resources``.

This file holds no code: it only makes the folder a package, so that an
installed copy finds its data wherever it is installed.  ``sources/`` (the
publishers' rulebooks) stays in the repository and is not installed.
"""
