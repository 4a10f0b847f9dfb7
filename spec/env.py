"""The names of a rule set that do not depend on the game state.

Parameters, options, every component (the list of its item ids), every
attribute (a function from an item to the id of its value) and ``name``
(an item's printed name).  :mod:`spec.names` lists which names each kind of
expression may read; the state machine adds the state's own.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> rules = load_rules(str(sorted(rules_dir().glob("*.yaml"))[0]))
>>> comp = next(c for c in rules.components.values() if c.attributes)
>>> attr = next(iter(comp.attributes))
>>> env = static_env(rules)
>>> env[comp.id] == list(comp.items), env[attr](comp.items[0]) in env[comp.attributes[attr]]
(True, True)
"""

from __future__ import annotations

from typing import Any, Callable

from .expr import ExprError, Namespace
from .model import Ruleset

__all__ = ["static_env"]


def _attribute(rules: Ruleset, attr: str) -> Callable[[Any], str]:
    def value(item: Any) -> str:
        found = rules.items.get(item) if isinstance(item, str) else None
        if found is None or attr not in found.attrs:
            raise ExprError(f"{item!r} has no {attr}")
        return found.attrs[attr]
    return value


def static_env(rules: Ruleset) -> dict[str, Any]:
    """Names that do not depend on the game state."""
    env: dict[str, Any] = {
        "params": Namespace({k: s.value for k, s in rules.params.items()}),
        "options": Namespace({k: o.value for k, o in rules.options.items()}),
        "name": rules.name,
    }
    for cid, comp in rules.components.items():
        env[cid] = list(comp.items)
        for attr in comp.attributes:
            env[attr] = _attribute(rules, attr)
    return env
