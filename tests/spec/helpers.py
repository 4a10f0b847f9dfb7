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


#: The solution of :func:`scored_ending`.
ENDING_SOLUTION = ["kingsley", "waterloo-station", "7-00", "compass"]


def scored_ending() -> Table:
    """A game to score (4p): Gordon's counter on a red herring (scoring step II), John's on the
    solution but John out (step III), Audrey twice, Helen's correct accusation."""
    t = Table()
    t("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    assert t("place", "Gordon", clue="baker", value=2) == []
    assert t("place", "John", clue="waterloo-station", value=2) == []
    assert t("place", "Audrey", clue="waterloo-station", value=1) == []
    assert t("place", "Helen", clue="compass", value=1) == []
    assert t("accuse", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=0) == []
    assert t("accuse", "John", clues=["speke", "place-3", "time-4", "object-3"], smiles=0) == []
    assert t("place", "Audrey", clue="kingsley", value=2) == []
    assert t("accuse", "Helen", clues=ENDING_SOLUTION, smiles=4) == []
    return t
