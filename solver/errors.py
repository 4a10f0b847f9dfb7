"""Exceptions shared by the solver engines."""

from __future__ import annotations


class SolverError(Exception):
    """Base class of the solver's errors."""


class InvalidShape(SolverError, ValueError):
    """A :class:`~ruleslawyer.solver.facts.DealShape` that cannot be drawn."""


class Inconsistent(SolverError):
    """No solution fits the facts, so the query has no answer."""


class NotForced(SolverError):
    """An explanation was asked for a card whose status is still open."""
