"""Exceptions shared by the solver engines.

A deal that cannot be dealt raises :class:`~ruleslawyer.spec.dealmodel.DealError`
(from ``Deal.validate``), not one of these.
"""

from __future__ import annotations


class SolverError(Exception):
    """Base class of the solver's errors."""


class Inconsistent(SolverError):
    """No world fits the facts, so the query has no answer."""


class NotForced(SolverError):
    """An explanation was asked for something the facts do not force."""


class TooBig(SolverError):
    """The worlds an engine would have to enumerate exceed its limit."""


class NeedsCounting(SolverError):
    """A count (or an exact chance) was asked of a knowledge no exact engine counts.

    Its consistency and each card's status are still exact (Z3); chances
    are estimates (``knowledge.estimate`` is True).
    """
