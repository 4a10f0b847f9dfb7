"""The ``log_checks:`` of a rule set: codes for whole-log checks.

The rule file declares the checks of a whole log (consistency, scoring),
each naming one generic check of this package (``check:``) and giving it the
game's code, rule statement and citation; the loader reads them into
:attr:`Ruleset.log_checks`.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> checks = log_checks(load_rules(str(next(rules_dir().glob("*.yaml")))))
>>> sorted(checks)[:3], checks["scores"].code[-3:]
(['end-not-reached', 'game-ends', 'observations'], '401')
"""

from __future__ import annotations

from ..spec.model import LogCheck, Ruleset

__all__ = ["LogCheck", "log_checks"]


def log_checks(rules: Ruleset) -> dict[str, LogCheck]:
    """The declared checks of a rule set, by generic check name (the first one
    declared of each kind; an observation may name another by id)."""
    out: dict[str, LogCheck] = {}
    for c in rules.log_checks:
        out.setdefault(c.check, c)
    return out
