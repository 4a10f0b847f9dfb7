"""Simulated games, written out as logs, for the checker's tests.

A game is dealt at random (as the rules' deal says, one evidence card per
player), then played by random legal moves from the state machine, weighted
so that games last (accusations are rare).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ruleslawyer.checker.writer import EndSection, format_log
from ruleslawyer.spec.deal import random_world
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine, Play, State
from ruleslawyer.spec.scoring import ScoreTable, score

PLAYERS = {3: ["Ann", "Ben", "Cat"], 4: ["Helen", "Gordon", "John", "Audrey"],
           5: ["Ann", "Ben", "Cat", "Dan", "Eve"]}
WEIGHTS = {"suspect": 1.0, "place": 1.2, "pass": 1.0, "accuse": 0.03}

_RULES: dict[str, object] = {}


def rules_for(variant: str):
    if variant not in _RULES:
        _RULES[variant] = load_rules("lady-alice", variant=variant)
    return _RULES[variant]


@dataclass
class Game:
    """A simulated game: its deal, the moves as played with what the table saw."""

    variant: str
    players: list[str]
    first: str
    evidence: dict[str, str]
    plays: list[Play] = field(default_factory=list)      # with covers, reveals and values
    state: State | None = None
    table: ScoreTable | None = None
    states: list[State] = field(default_factory=list)  # before the first move, then after each

    @property
    def rules(self):
        return rules_for(self.variant)

    def log(self, private: bool = True, end: bool = True, values: bool = True) -> str:
        """The game as a log: with or without private facts and the end section."""
        plays = self.plays if values else [
            Play(p.kind, p.actor, {k: v for k, v in p.args.items() if k != "value"}) for p in self.plays]
        return format_log(self.rules, self.players, plays, first=self.first, variant=self.variant,
                          private_zones={"hand": self.evidence} if private else None,
                          end=self.end_section() if end else None)

    def end_section(self) -> EndSection | None:
        if self.state is None or not self.state.ended:
            return None
        solution = set(self.evidence.values())
        counters: dict[str, dict[str, list[int]]] = {}
        for clue in sorted(solution):
            for t in self.state.spaces.get(clue, ()):
                if t.owner not in self.state.out:
                    counters.setdefault(clue, {}).setdefault(t.owner, []).append(t.value)
        table = self.table
        return EndSection({"hand": dict(self.evidence)}, counters, dict(table.scores) if table else {},
                          list(table.winners) if table else [])


def simulate(variant: str, seed: int, max_moves: int = 160, solve_rate: float = 0.01,
             weights: dict[str, float] | None = None, machine: Machine | None = None) -> Game:
    """Play one random game (at most ``max_moves`` moves).

    With probability ``solve_rate`` a turn names the solution: an accusation
    in the Deductions phase, a suspicion otherwise, so that games also end
    solved.  ``weights`` (move -> weight) and ``machine`` replace the defaults.
    """
    rules = rules_for(variant)
    machine = machine or Machine(rules)
    rng = random.Random(seed)
    players = PLAYERS[rules.param("players")]
    first = rng.choice(players)
    world = random_world(machine.deal(players), rng)
    evidence = {p: c for c, z in sorted(world.items()) for p in players if z == f"hand:{p}"}
    solution = frozenset(evidence.values())
    game = Game(variant, players, first, evidence)
    state = machine.start(players, first)
    states = [state]
    for _ in range(max_moves):
        if state.ended:
            break
        play = _insight(machine, state, rng, world, solution_rate=solve_rate)
        play = play or machine.random_play(state, rng, world, weights=weights or WEIGHTS)
        if play is None:
            break
        out = machine.play(state, play)
        assert out.violations == [], (play, out.violations)
        args = dict(play.args)
        covered = sorted(out.state.vars["covered"] - state.vars["covered"])
        if covered and "covers" in {p.name for p in rules.moves[play.kind].params}:
            args["covers"] = covered
        if out.revealed:
            args["reveals"] = [(t.owner, t.value) for t in out.revealed]
        game.plays.append(Play(play.kind, play.actor, args))
        state = out.state
        states.append(state)
    game.state = state
    game.states = states
    if state.ended:
        game.table = score(machine, state, solution)
    return game


def _insight(machine: Machine, state: State, rng: random.Random, world: dict[str, str],
             solution_rate: float) -> Play | None:
    """Sometimes the player to act names the solution (if that is legal)."""
    if state.ended or rng.random() >= solution_rate or state.turn in state.out:
        return None
    rules = machine.rules
    solution = {c for c, z in world.items() if z.startswith("hand:")}
    kind = "accuse" if state.phase == "deductions" else "suspect"
    size = rules.param("accusation_size" if kind == "accuse" else "suspicion_size")
    clues = []
    for cat in rules.components["categories"].items:
        members = [c for c in rules.components["clues"].items if rules.items[c].attrs["category"] == cat]
        mine = sorted(c for c in members if c in solution)
        if mine:
            clues.append(rng.choice(mine))
        elif kind == "suspect":
            clues.append(rng.choice(members))
    if len(clues) != size:
        return None
    play = machine.resolve(state, Play(kind, state.turn, {"clues": clues}), world)
    return None if machine.check(state, play) else play
