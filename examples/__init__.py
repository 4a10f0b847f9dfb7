"""Example game logs.  The minimal example of each code
(``<game>/violations/CODE.yaml``), which ``ruleslawyer explain CODE``
prints, is installed as package data of ``ruleslawyer.examples``.

This file holds no code: it only makes the folder a package, so that an
installed copy finds those logs through ``importlib.resources``.
"""
