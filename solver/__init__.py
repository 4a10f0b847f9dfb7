"""Hidden deals as constraints.

* ``facts``: the plain data every engine reads (:class:`DealShape`, :class:`Fact`);
* ``enumerate``: the fast exact engine (numpy bit masks): counts, status, probabilities;
* ``brute``: the plain-Python reference with exact fractions;
* ``z3engine``: the Z3 encoding: consistency, forced cards, minimal explanations;
* ``queries``: the facade the command line calls (viewpoints, history, hindsight).

Nothing here does I/O or knows a game.
"""
