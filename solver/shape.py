"""Checks and exact prior shared by every engine (no numpy, no Z3)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from .errors import InvalidShape
from .facts import DealShape


def validate(shape: DealShape) -> None:
    """Raise :class:`InvalidShape` unless every pattern can be drawn.

    >>> validate(DealShape(groups=(("a", "b"),), patterns=((3,),)))
    Traceback (most recent call last):
    ...
    ruleslawyer.solver.errors.InvalidShape: pattern (3,) draws 3 cards from group 0 of 2
    """
    cards = shape.cards
    if len(set(cards)) != len(cards):
        raise InvalidShape("a card appears twice in the groups")
    if not shape.patterns:
        raise InvalidShape("the shape has no pattern")
    if len(set(shape.patterns)) != len(shape.patterns):
        raise InvalidShape("the patterns are not distinct")
    for pattern in shape.patterns:
        if len(pattern) != len(shape.groups):
            raise InvalidShape(f"pattern {pattern} has {len(pattern)} counts for "
                               f"{len(shape.groups)} groups")
        for i, (k, group) in enumerate(zip(pattern, shape.groups)):
            if not 0 <= k <= len(group):
                raise InvalidShape(f"pattern {pattern} draws {k} cards from group {i} "
                                   f"of {len(group)}")


def set_weight(shape: DealShape, pattern: tuple[int, ...]) -> Fraction:
    """Prior probability of one particular solution drawn with ``pattern``.

    >>> set_weight(DealShape(groups=(("a", "b", "c"),), patterns=((1,), (2,))), (2,))
    Fraction(1, 6)
    """
    weight = Fraction(1, len(shape.patterns))
    for k, group in zip(pattern, shape.groups):
        weight /= comb(len(group), k)
    return weight
