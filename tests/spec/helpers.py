"""Small drivers for state-machine tests."""

from __future__ import annotations

from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine, Play, State

PLAYERS = {3: ["Ann", "Ben", "Cat"], 4: ["Helen", "Gordon", "John", "Audrey"],
           5: ["Ann", "Ben", "Cat", "Dan", "Eve"]}
SUSPICION = ["kingsley", "waterloo-station", "5pm", "compass"]


class Table:
    """Plays moves one after another and keeps the violations of each."""

    def __init__(self, variant: str = "4p", house=(), first: str | None = None, rules=None):
        self.rules = rules or load_rules("lady-alice", variant=variant, house=list(house))
        self.machine = Machine(self.rules)
        players = PLAYERS[self.rules.param("players")]
        self.state: State = self.machine.start(players, first)
        self.last: list = []

    def __call__(self, kind: str, actor: str, **args) -> list[str]:
        out = self.machine.play(self.state, Play(kind, actor, args))
        self.state = out.state
        self.last = out.violations
        return [v.code for v in out.violations]

    def deductions_all_pass(self) -> None:
        while self.state.phase != "suspicions" and not self.state.ended:
            assert self("pass", self.state.turn) == []
