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
