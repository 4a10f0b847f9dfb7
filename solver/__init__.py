"""Hidden deals as constraints.

* ``engine``: the :class:`Knowledge` protocol every counting engine answers;
* ``frame``: when counting solutions instead of deals is exact (projection, pins);
* ``enumerate``: the fast exact engine (numpy), projected or full mode;
* ``engines``: which engine answers for a deal (``initial``);
* ``brute``: the plain-Python reference over every full deal, exact fractions;
* ``z3engine``: the Z3 encodings: consistency, forced cards, minimal explanations;
* ``queries``: the facade the command line calls (viewpoints, history, hindsight).

Facts and deals are :mod:`spec.facts` and :mod:`spec.dealmodel`.  Nothing
here does I/O or knows a game.
"""
