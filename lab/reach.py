"""Which endings of a rule set games can reach: a short bounded search for ``rules validate``.

A house rule can leave an ending of the game out of reach without breaking any
check of the rule file: a deal whose solution no claim of the moves can ever
name in full, a count the observations can never give.  Nothing in the rule
file says so; playing says so.  This search plays a few games through the
state machine (:func:`.game.play_game`, a deal drawn per game) with seekers:
at each turn a seeker tries every choice of the moves open to it whose effects
hold an ending not reached yet (outcomes completed from the game's deal, as
the lab does for every bot), and makes the first that reaches one; else it
plays as the random bot does, which puts players out and wears the game down
to its other endings.  An ending that no game reached within the bounds is
said, with its move and the rulebook sentence it cites: a warning, since a
bounded search proves nothing unreachable, but an ending that one move by a
player who knows the deal cannot reach is seldom reachable at all.

No game's words: the endings are the rule file's ``end`` effects
(:func:`.engine.declared_ends`), the moves its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec.machine import Play
from ..solver.engines import initial
from ..spec.diagnostics import Diagnostic, Position
from ..spec.facts import is_formula
from ..spec.model import Ruleset
from .bots import RandomBot, Turn
from .engine import Lab, declared_ends, solution_of
from .game import play_game

__all__ = ["unreached_ends", "ending_warnings", "Reach", "GAMES", "MAX_MOVES", "BUDGET", "CODE"]

#: Games played, at most (the search stops once every ending is reached).
GAMES = 12
#: Moves per game, at most.
MAX_MOVES = 200
#: Moves tried by the seekers in all (each choice of a move, completed and played).
BUDGET = 20_000
#: Choices of one move a seeker tries at one turn, at most (more: that move is not tried there).
CHOICES = 300  # 2,000 took 18 s of CPU to validate an overlay of 16 cards a category (a test)
#: Cards besides the solution's that a seeker's second pass may name.
SAMPLE = 6
#: Completions of one choice tried as a slip (outcomes the deal does not give).
SLIPS = 8
#: Slips checked against the deal (by the solver) in all, at most.
SLIP_CHECKS = 200


@dataclass
class Reach:
    """What the search found: every ending by its label, those reached, and the work done."""

    ends: dict[int, str]
    reached: set[int] = field(default_factory=set)
    games: int = 0
    tried: int = 0
    checked: int = 0   # slips checked by the solver
    made: set[str] = field(default_factory=set)   # the kinds of move open at some turn, or made
    where: dict[int, Any] = field(default_factory=dict)   # an ending's position in its rule file

    @property
    def unreached(self) -> list[str]:
        """The endings no game reached, of the moves some game could make (a move never open,
        such as one an option of the rule set leaves out, ends nothing)."""
        return [self.ends[eid] for eid in self.unreached_ids]

    @property
    def unreached_ids(self) -> list[int]:
        return [eid for eid, label in self.ends.items()
                if eid not in self.reached and label.split(":", 1)[0] in self.made]


@dataclass
class _Seeker(RandomBot):
    """A random bot that first makes a move reaching an ending not reached yet, when one of
    the moves open to it does."""

    reach: Reach = field(default_factory=lambda: Reach({}))
    kinds_of: dict[str, set[int]] = field(default_factory=dict)
    budget: int = BUDGET
    name = "seeker"

    def choose(self, turn: Turn) -> Play | None:
        found = self.seek(turn)
        return found if found is not None else super().choose(turn)

    def _weights_of(self, kinds: list[str], defaults: Any = None) -> list[float] | None:
        """Every kind alike, not the rule file's weights (``play: random:``): the search wears
        games down to their endings, it does not imitate how people play."""
        return super()._weights_of(kinds, {})

    def _values_for(self, turn: Turn, kind: str) -> dict[str, dict[Any, float]]:
        return {}

    def seek(self, turn: Turn) -> Play | None:
        lab, state, actor, reach = turn.lab, turn.state, turn.actor, self.reach
        solution = set(solution_of(turn.deal, turn.world)) if turn.deal is not None and turn.deal.solution else set()
        others = sorted(c for c in turn.world if c not in solution)
        # the choices that name only the solution's cards first (a claim that wins), then those
        # cards and a few others (a claim that must name more), then any (if not too many)
        passes = [frozenset(others), frozenset(others) - set(turn.rng.sample(others, min(SAMPLE, len(others)))),
                  frozenset()] if solution else [frozenset()]
        for kind in turn.kinds:
            wanted = self.kinds_of.get(kind, set()) - reach.reached
            if not wanted:
                continue
            reach.made.add(kind)
            for exclude in passes:
                for args in lab.mover_choices(state, actor, kind, limit=CHOICES, exclude=exclude):
                    if reach.tried >= self.budget:
                        return None
                    reach.tried += 1
                    found = self.ending(turn, kind, args, wanted)
                    if found is not None:
                        return found
        return None

    def ending(self, turn: Turn, kind: str, args: dict[str, Any], wanted: set[int]) -> Play | None:
        """The move with these choices, its outcomes given by the deal, when it reaches a wanted
        ending; else with outcomes a player's slip may give (an answer given wrongly, then
        charged), when one reaches it and what it shows fits some deal of the game."""
        lab, state, actor = turn.lab, turn.state, turn.actor
        play = lab.complete(state, actor, kind, args, turn.world, turn.rng)
        if play is not None and self.ends_in(lab, turn, play, wanted):
            return play
        for other in lab.completions(state, actor, kind, args, None)[:SLIPS]:
            if self.reach.checked < SLIP_CHECKS and self.ends_in(lab, turn, other, wanted):
                self.reach.checked += 1
                facts = lab.machine.observations(state, other, source=state.played)
                if initial(turn.deal, count=False).with_facts(facts).consistent():
                    return other
        return None

    @staticmethod
    def ends_in(lab: Lab, turn: Turn, play: Play, wanted: set[int]) -> bool:
        out = lab.machine.play(turn.state, play)
        return not out.violations and out.ended_by is not None and id(out.ended_by) in wanted


def unreached_ends(rules: Ruleset, games: int = GAMES, max_moves: int = MAX_MOVES, budget: int = BUDGET,
                   seed: int = 0) -> Reach:
    """Play up to ``games`` games with seekers at every seat (see the module's docstring);
    the endings reached and those not."""
    lab = Lab(rules)
    ends, where = _possible_ends(lab)
    reach = Reach(ends, where=where)
    kinds_of: dict[str, set[int]] = {}
    for eid, label in ends.items():
        kinds_of.setdefault(label.split(":", 1)[0], set()).add(eid)
    by_label: dict[str, set[int]] = {}
    for eid, label in ends.items():
        by_label.setdefault(label, set()).add(eid)
    seats = int(rules.param("players"))
    bots: list[Any] = [_Seeker(reach=reach, kinds_of=kinds_of, budget=budget) for _ in range(seats)]
    for index in range(games):
        if reach.reached >= set(ends) or reach.tried >= budget:
            break
        record = play_game(lab, bots, seed, index, max_moves, track=False)
        reach.games += 1
        reach.made |= set(record.kinds)
        reach.reached |= by_label.get(record.end, set())
    return reach


def _possible_ends(lab: Lab) -> tuple[dict[int, str], dict[int, Any]]:
    """:func:`declared_ends` but those under a condition the rule set's constants (its
    parameters and options) make false (an ending of a variant the rule set does not play);
    and each one's position."""
    labels = declared_ends(lab.rules)
    machine = lab.machine
    out: dict[int, str] = {}
    where: dict[int, Any] = {}

    def settled(expr: Any) -> bool | None:
        found = machine.evaluated(expr, machine.static)
        return None if found is None or is_formula(found[0]) else bool(found[0])

    def walk(effects: Any) -> None:
        for eff in effects:
            if eff.verb == "when":
                value = settled(eff.arg)
                if value is not False:
                    walk(eff.then)
                if value is not True:
                    walk(eff.otherwise)
            elif eff.verb == "end" and id(eff) in labels:
                out[id(eff)] = labels[id(eff)]
                where[id(eff)] = eff.position

    for move in lab.rules.moves.values():
        walk(move.effects)
    return out, where


#: The code of the warning ``rules validate`` gives for an ending no game reached.
CODE = "RL175"


def ending_warnings(rules: Ruleset) -> list[Diagnostic]:
    """A warning for each ending of ``rules`` that the search (:func:`unreached_ends`) did
    not reach: its move, the sentence it cites and the bounds searched."""
    reach = unreached_ends(rules)
    return [Diagnostic(CODE, f"{rules.canonical_name}: no game reached the ending '{reach.ends[eid]}' "
                             f"({reach.games} games of at most {MAX_MOVES} moves; each turn, every choice of "
                             f"the moves that end the game tried with the deal known)",
                       reach.where.get(eid) or Position(rules.files[-1]), severity="warning",
                       hint="a house rule may have put it out of reach: count what the moves can show against "
                            "what this ending needs (ruleslawyer simulate shows how games end)")
            for eid in reach.unreached_ids]
