"""The names a rule expression may read, by where it stands.

The state machine binds these names (:meth:`spec.machine.Machine.env`); the
loader refuses an expression that reads any other (RL121), so the contract
between a rule file and the engine is checked when the file is loaded.
Some names exist only when the rule file declares the part that gives them:
its components (each a list of item ids, each attribute a function), its
deal (each zone family a function returning zones), its tokens.

>>> sorted(TOKEN_NAMES)
['spaces', 'tokens', 'tokens_left', 'tokens_left_of']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .model import Ruleset

__all__ = ["STATIC_NAMES", "STATE_NAMES", "TABLE_NAMES", "SEAT_NAMES", "TOKEN_NAMES", "SCORING_NAMES", "static_names", "state_names",
           "reserved"]

#: Readable without a game in progress (checks of the rules, the deal's sizes).
STATIC_NAMES = frozenset({"params", "options", "name"})
#: Readable during a game (requirements, effects, observations, state).  ``setup``
#: holds the log's public set-up (``setup.<key>[player]``), ``move_number`` the
#: 1-based number of the move in the log, ``unknown`` the item a log records as ``?``.
STATE_NAMES = STATIC_NAMES | frozenset({
    "players", "n_players", "actor", "phase", "turn", "first", "out", "active", "ended", "vars", "move",
    "next_active", "everyone", "setup", "move_number", "unknown",
})
#: Readable by the size of a zone: the number of players at the table; a zone
#: of a ``per: player`` family also reads ``seat``, its owner's place in the
#: seating order (0 for the first player listed), so sizes may differ by seat.
TABLE_NAMES = frozenset({"n_players"})
SEAT_NAMES = TABLE_NAMES | frozenset({"seat"})
#: Given by a ``tokens:`` section.
TOKEN_NAMES = frozenset({"spaces", "tokens", "tokens_left", "tokens_left_of"})
#: Added while scoring.
SCORING_NAMES = frozenset({"solution", "player", "score", "t"})


def static_names(rules: "Ruleset") -> frozenset[str]:
    """Names of the rules themselves: parameters, options, components, attributes."""
    comps = frozenset(rules.components)
    attrs = frozenset(a for c in rules.components.values() for a in c.attributes)
    return STATIC_NAMES | comps | attrs


def state_names(rules: "Ruleset") -> frozenset[str]:
    """Names every requirement, effect and observation may read."""
    names = STATE_NAMES | static_names(rules) | frozenset(rules.functions)
    if rules.deal is not None:
        names |= frozenset(rules.deal.families())
    if rules.tokens is not None:
        names |= TOKEN_NAMES
    return names


def reserved() -> frozenset[str]:
    """Names a rule file may not give its own components, attributes, zones or functions."""
    return STATE_NAMES | SEAT_NAMES | TOKEN_NAMES | SCORING_NAMES
