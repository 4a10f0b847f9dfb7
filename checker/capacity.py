"""Which rule sets the commands take: every one whose hidden deal can be dealt.

Nothing is refused when the rules are loaded because counting would be
expensive.  Legality needs no solver; consistency and each card's status
come from Z3 whenever no exact counting engine takes the deal
(:func:`checker.consistency.knowledge_of`), and only the questions that need
a count (``solve``'s chances) say, positioned and coded (RL160), that
counting is not available for the deal.  A deal that cannot be dealt at all
(sizes that do not add up) is the loader's RL131.
"""

from __future__ import annotations

from typing import Any

from ..spec.loader import load_rules
from ..spec.model import Ruleset

__all__ = ["load_usable"]


def load_usable(name_or_path: str, variant: str | None = None, house: list[str] | tuple[str, ...] = (),
                policy: Any = None) -> Ruleset:
    """:func:`~ruleslawyer.spec.loader.load_rules`: every rule set that loads is usable."""
    return load_rules(name_or_path, variant=variant, house=list(house), policy=policy)
