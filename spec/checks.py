"""The generic whole-log checks of the log checker, and their generic codes.

A rule file gives each check it uses the game's code, rule statement and
citation (``log_checks:``); a check the engine runs that the rule file does
not declare still reports, under the generic code here — never silently
nothing.  The loader validates ``check:`` names against this list.

>>> LOG_CHECKS["observations"].code
'LG310'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CheckKind", "LOG_CHECKS"]


@dataclass(frozen=True)
class CheckKind:
    name: str
    code: str       # the generic code, used when the rule file declares none
    stage: str      # consistency | scoring
    message: str    # the generic rule statement


LOG_CHECKS: dict[str, CheckKind] = {c.name: c for c in [
    CheckKind("game-ends", "LG301", "consistency", "the game ends with this move, but the log goes on"),
    CheckKind("end-not-reached", "LG302", "consistency",
              "the log records the end of the game, but the game has not ended"),
    CheckKind("omitted-group", "LG303", "consistency",
              "an observation that counts every card it names, on fewer groups than the deal has, "
              "says the groups left out hold none of the solution"),
    CheckKind("observations", "LG310", "consistency",
              "what a move lets the table observe must fit some deal of the hidden cards"),
    CheckKind("zone-shown", "LG311", "consistency",
              "the cards a player shows at the end must be the ones recorded for them"),
    CheckKind("zone-record", "LG312", "consistency",
              "the cards recorded in the players' zones must be a possible deal"),
    CheckKind("token-supply", "LG320", "consistency",
              "the hidden token values must fit each player's supply and every reveal"),
    CheckKind("token-record", "LG321", "consistency",
              "a token keeps its value: a record cannot contradict an earlier one"),
    CheckKind("token-reveal", "LG322", "consistency",
              "only tokens already on the space and face down are revealed"),
    CheckKind("scores", "LG401", "scoring", "the recorded score must be the one the scoring steps give"),
    CheckKind("winners", "LG402", "scoring", "the recorded winners must be the ones the rules give"),
]}
