"""Recognising a Ctrl-C that reached the program in disguise.

A Ctrl-C raises ``KeyboardInterrupt`` wherever Python code runs when it lands.
When that is inside ``ctypes`` converting the arguments of a foreign call
(Z3's bindings compute them in Python: ``ctx_ref()``, ``as_ast()``), ctypes
wraps it: ``ctypes.ArgumentError: argument 1: KeyboardInterrupt:``.  It is
still the user's Ctrl-C, and ends the command as one (exit 130, one line).

>>> import ctypes
>>> is_interrupt(KeyboardInterrupt()), is_interrupt(ctypes.ArgumentError("argument 1: KeyboardInterrupt: "))
(True, True)
>>> is_interrupt(ctypes.ArgumentError("argument 2: TypeError: wrong type")), is_interrupt(ValueError("x"))
(False, False)
"""

from __future__ import annotations

import re

__all__ = ["is_interrupt"]

_WRAPPED = re.compile(r"argument \d+: KeyboardInterrupt\b")


def is_interrupt(exc: BaseException) -> bool:
    """True for a ``KeyboardInterrupt``, bare or wrapped by ctypes (see the module's docstring)."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    import ctypes

    return isinstance(exc, ctypes.ArgumentError) and bool(_WRAPPED.match(str(exc)))
