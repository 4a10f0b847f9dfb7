"""Can the solver answer for a rule set?  Checked when the rules are loaded.

A house overlay may make the hidden deal bigger than any exact engine
takes (half of a deck of thirty-two in the solution...).  Rather than failing
in the middle of a command, the rules are refused when loaded, with a
diagnostic that names the limit and points at the parameter that made the
deal too big.  The limits are the solver's (``RULESLAWYER_MAX_SETS``,
``RULESLAWYER_MAX_WORLDS``).
"""

from __future__ import annotations

from typing import Any

from ..solver.engines import initial
from ..solver.errors import SolverError
from ..spec.deal import build_deal
from ..spec.dealmodel import DealError
from ..spec.diagnostics import Diagnostic, DiagnosticError, Position, Related
from ..spec.loader import load_rules
from ..spec.expr import ExprError
from ..spec.model import Ruleset

__all__ = ["capacity_problems", "load_usable"]


def capacity_problems(rules: Ruleset) -> list[Diagnostic]:
    """A diagnostic when no engine can count the variant's deal (empty when one can)."""
    if rules.deal is None:
        return []
    n = rules.param("players") if "players" in rules.params else None
    if isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= 64:
        return []
    try:
        initial(build_deal(rules, tuple(f"player {i + 1}" for i in range(n))))
    except (DealError, ExprError):
        return []  # the loader says why the deal cannot be dealt
    except SolverError as exc:
        return [_diagnostic(rules, str(exc))]
    return []


def _diagnostic(rules: Ruleset, message: str) -> Diagnostic:
    """Point at the variant or overlay line that set a parameter the deal reads, else at the deal."""
    read = set()
    for deck in rules.deal.decks:  # type: ignore[union-attr]
        exprs = [z.size for z in deck.zones] + [e for c in deck.constraints for e in (c.pattern, c.shuffled)]
        read |= {a for e in exprs if e is not None for b, a, _c in e.attributes if b == "params"}
    changed = [s for s in rules.params.values() if s.name in read and s.set_by != "base" and s.position]
    deck_pos = next((d.position for d in rules.deal.decks if d.position), None)  # type: ignore[union-attr]
    where = changed[-1].position if changed else deck_pos or Position(rules.files[0])
    related = [Related(f"{s.name} = {s.value} set by {s.set_by}", s.position) for s in changed[:-1]]
    return Diagnostic("RL160", f"the hidden deal is too big for the solver: {message}", where, related=tuple(related),
                      hint="raise the limit with RULESLAWYER_MAX_SETS or RULESLAWYER_MAX_WORLDS if you have the "
                           "memory and the time")


def load_usable(name_or_path: str, variant: str | None = None, house: list[str] | tuple[str, ...] = (),
                policy: Any = None) -> Ruleset:
    """:func:`~ruleslawyer.spec.loader.load_rules`, refused when the solver cannot answer for the rules."""
    rules = load_rules(name_or_path, variant=variant, house=list(house), policy=policy)
    problems = capacity_problems(rules)
    if problems:
        raise DiagnosticError(problems)
    return rules
