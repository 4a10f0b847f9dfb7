"""The ``log_checks:`` section of a rule file: codes for whole-log checks.

The loader builds moves and their requirements; the checks of a whole log
(consistency, scoring) are declared in the rule file too, each naming one
generic check of this package (``check:``) and giving it the game's code,
rule statement and citation.  Read here from the rule file itself, with
positions, so the loader need not know about logs.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> checks = log_checks(load_rules(str(next(rules_dir().glob("*.yaml")))))
>>> sorted(checks)[:3], checks["scores"].code[-3:]
(['counter-record', 'counter-reveal', 'counter-supply'], '401')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..spec.diagnostics import DiagnosticError, Position
from ..spec.model import Cite, Ruleset
from ..spec.source import position_of, read_yaml

__all__ = ["LogCheck", "log_checks"]


@dataclass(frozen=True)
class LogCheck:
    """One declared whole-log check: which generic check, its code and rule."""

    id: str
    check: str
    code: str
    message: str
    cite: Cite | None
    position: Position | None


def log_checks(rules: Ruleset) -> dict[str, LogCheck]:
    """The declared checks of a rule set's base file, by generic check name."""
    base = Path(rules.files[0])
    try:
        stamp = base.stat().st_mtime_ns
    except OSError:
        return {}
    return dict(_read(str(base), stamp))


@lru_cache(maxsize=8)
def _read(path: str, _stamp: int) -> tuple[tuple[str, LogCheck], ...]:
    try:
        doc = read_yaml(path)
    except DiagnosticError:
        return ()
    out = []
    for node in doc.get("log_checks") or []:
        cite_node = node.get("cite") or {}
        cite = Cite(str(cite_node.get("src", "")), str(cite_node.get("quote", "")),
                    position_of(node, "cite")) if cite_node else None
        out.append((node["check"], LogCheck(node["id"], node["check"], node["code"], node["message"],
                                            cite, position_of(node))))
    return tuple(out)
