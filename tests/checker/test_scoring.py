"""Steps I–IX evaluated from the rule file (spec/scoring.py), on hand-made endings."""

from __future__ import annotations

import pytest

from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine, Play
from ruleslawyer.spec.scoring import UnknownValues, score

FOUR = ["Helen", "Gordon", "John", "Audrey"]
SOLUTION4 = ["kingsley", "waterloo-station", "7-00", "compass"]


class Game:
    def __init__(self, variant: str, players: list[str]):
        self.machine = Machine(load_rules("lady-alice", variant=variant))
        self.state = self.machine.start(players)

    def __call__(self, kind: str, actor: str, **args) -> "Game":
        out = self.machine.play(self.state, Play(kind, actor, args))
        assert out.violations == [], out.violations
        self.state = out.state
        return self


def test_correct_accusation_wins_a_tie():
    g = Game("4p", FOUR)
    g("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    g("pass", "Gordon")("pass", "John")("pass", "Audrey")
    g("place", "Helen", clue="kingsley", value=2)
    g("pass", "Gordon")("pass", "John")("pass", "Audrey")
    g("place", "Helen", clue="waterloo-station", value=1)
    g("accuse", "Gordon", clues=SOLUTION4, smiles=4)
    table = score(g.machine, g.state, SOLUTION4)
    assert table.scores == {"Helen": 3, "Gordon": 3, "John": 0, "Audrey": 0}
    assert table.winners == ("Gordon",)


def test_tied_players_are_joint_winners():
    g = Game("4p", FOUR)
    g("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    g("place", "Gordon", clue="waterloo-station", value=2)
    g("place", "John", clue="compass", value=2)
    g("pass", "Audrey")("pass", "Helen")("pass", "Gordon")
    g("place", "John", clue="7-00", value=1)
    g("pass", "Audrey")("pass", "Helen")("pass", "Gordon")("pass", "John")
    g("suspect", "Gordon", clues=SOLUTION4, smiles=4)          # Gordon +1 (VIII)
    table = score(g.machine, g.state, SOLUTION4)
    assert table.scores == {"Helen": 0, "Gordon": 3, "John": 3, "Audrey": 0}
    assert table.winners == ("Gordon", "John")


def test_the_last_player_left_wins_whatever_the_scores():
    g = Game("4p", FOUR)
    g("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    g("place", "Gordon", clue="waterloo-station", value=2)
    g("place", "John", clue="kingsley", value=2)
    g("accuse", "Audrey", clues=["baker", "place-2", "time-3", "object-2"], smiles=0)
    g("accuse", "Helen", clues=["speke", "place-3", "time-4", "object-3"], smiles=0)
    g("accuse", "Gordon", clues=["tinne", "place-4", "time-5", "object-4"], smiles=0)
    assert g.state.ended
    table = score(g.machine, g.state, SOLUTION4)
    assert table.scores == {"Helen": 0, "Gordon": 0, "John": 2, "Audrey": 0}  # Gordon's 2 removed at III
    assert table.winners == ("John",)
    removed = {s.id: [(t.owner, t.space) for t in s.removed] for s in table.steps if s.kind == "remove"}
    assert removed["III"] == [("Gordon", "waterloo-station")]


def test_all_clues_bonus_counts_after_zeros_go():
    g = Game("4p", FOUR)
    g("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    for clue, value in (("kingsley", 1), ("waterloo-station", 1), ("7-00", 1), ("compass", 0)):
        g("place", "Gordon", clue=clue, value=value)("pass", "John")("pass", "Audrey")("pass", "Helen")
    g("pass", "Gordon")
    g("suspect", "Gordon", clues=["kingsley", "waterloo-station", "7-00", "object-3"], smiles=3)
    g("place", "John", clue="compass", value=2)
    for clue, value in (("kingsley", 2), ("waterloo-station", 2), ("7-00", 2)):
        g("place", "Audrey", clue=clue, value=value)("pass", "Helen")("pass", "Gordon")("pass", "John")
    g("place", "Audrey", clue="compass", value=1)
    g("accuse", "Helen", clues=SOLUTION4, smiles=4)
    table = score(g.machine, g.state, SOLUTION4)
    assert dict(table.breakdown("Gordon")) == {"VI": 3, "VII": 0, "VII-5p": 0, "VIII": 0, "IX": 0}  # his 0 went at V
    assert dict(table.breakdown("Audrey")) == {"VI": 7, "VII": 2, "VII-5p": 0, "VIII": 0, "IX": 0}
    assert table.scores["Helen"] == 3 and table.winners == ("Audrey",)


def test_five_players_doubled_category_bonus_needs_both_clues():
    five = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    solution = ["kingsley", "speke", "waterloo-station", "7-00", "compass"]
    g = Game("5p", five)
    g("suspect", "Ann", clues=["baker", "place-2", "time-3", "object-2"], smiles=0)
    g("place", "Ben", clue="kingsley", value=1)
    g("place", "Cat", clue="kingsley", value=1)
    g("pass", "Dan")("pass", "Eve")("pass", "Ann")
    g("place", "Ben", clue="speke", value=1)
    g("place", "Cat", clue="speke", value=0)          # removed at V: no bonus for Cat
    g("pass", "Dan")("pass", "Eve")("pass", "Ann")("pass", "Ben")("pass", "Cat")
    g("suspect", "Ben", clues=["kingsley", "waterloo-station", "7-00", "compass"], smiles=4)
    table = score(g.machine, g.state, solution)
    assert dict(table.breakdown("Ben")) == {"VI": 2, "VII": 0, "VII-5p": 2, "VIII": 1, "IX": 0}
    assert dict(table.breakdown("Cat")) == {"VI": 1, "VII": 0, "VII-5p": 0, "VIII": 0, "IX": 0}
    assert table.winners == ("Ben",)


def test_three_players_all_clues_bonus_is_three_clues():
    three = ["Ann", "Ben", "Cat"]
    solution = ["tippu-tip", "5pm", "compass"]
    g = Game("3p", three)
    g("suspect", "Ann", clues=["tippu-tip", "place-2", "5pm", "object-2"], smiles=2)
    for clue in solution:
        g("place", "Ben", clue=clue, value=1)("pass", "Cat")("pass", "Ann")
    g("pass", "Ben")
    g("suspect", "Ben", clues=["tippu-tip", "place-3", "5pm", "compass"], smiles=3)
    table = score(g.machine, g.state, solution)
    assert dict(table.breakdown("Ben")) == {"VI": 3, "VII": 2, "VII-5p": 0, "VIII": 1, "IX": 0}


def test_unknown_values_that_count_are_reported():
    g = Game("4p", FOUR)
    g("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    g("place", "Gordon", clue="waterloo-station")         # value never recorded
    g("place", "John", clue="baker")                      # not evidence: removed at II, value irrelevant
    g("accuse", "Audrey", clues=SOLUTION4, smiles=4)
    with pytest.raises(UnknownValues) as exc:
        score(g.machine, g.state, SOLUTION4)
    assert [(t.owner, t.space) for t in exc.value.tokens] == [("Gordon", "waterloo-station")]
