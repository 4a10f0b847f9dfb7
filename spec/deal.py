"""The hidden deal of a rule set, and a player's private knowledge of it.

What a move lets the table observe is :meth:`Machine.observation`.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> shape = deal_shape(load_rules(str(next(rules_dir().glob("*.yaml")))))
>>> len(shape.groups), sorted(set(len(g) for g in shape.groups))
(4, [8])
"""

from __future__ import annotations

from ..solver.facts import DealShape, Fact
from .loader import deal_patterns
from .model import Ruleset


def deal_shape(rules: Ruleset) -> DealShape:
    """Groups are the categories; patterns come from the evidence parameters."""
    patterns = deal_patterns(rules.param("evidence_per_category"), bool(rules.param("categories_shuffled")))
    return DealShape(groups=tuple(c.clues for c in rules.categories), patterns=patterns,
                     group_names=tuple(c.id for c in rules.categories))


def holds(card: str, player: str, source: object = None) -> Fact:
    """A player's private knowledge that ``card`` is part of the solution."""
    return Fact.count([card], "==", 1, source, viewer=player)
