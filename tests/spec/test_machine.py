"""The compiled state machine follows the rulebook's own examples."""

from __future__ import annotations

import random

from ruleslawyer.spec.deal import random_world
from ruleslawyer.spec.facts import Fact, count

from .helpers import SUSPICION, Table


def test_first_deductions_example_of_the_rulebook():
    # "Helen starts the Deductions phase and decides to pass. Gordon places a counter on
    # Waterloo Station. John places a counter on Mary Kingsley. Audrey passes. Helen places a
    # counter on Mary Kingsley, revealing John's: a Zero! Gordon places a counter on 7:00, and
    # then all the players say "pass" one after another. The Deductions phase ends."
    t = Table(first="Audrey")
    assert t("suspect", "Audrey", clues=SUSPICION, smiles=2) == []
    assert (t.state.phase, t.state.turn) == ("deductions", "Helen")
    assert t("pass", "Helen") == []
    assert t("place", "Gordon", clue="waterloo-station") == []
    assert t("place", "John", clue="kingsley") == []
    assert t("pass", "Audrey") == []
    out = t.machine.play(t.state, __import__("ruleslawyer.spec.machine", fromlist=["Play"]).Play(
        "place", "Helen", {"clue": "kingsley", "reveals": [0]}))
    assert [(tok.owner, tok.value) for tok in out.revealed] == [("John", 0)]
    t.state = out.state
    assert t("place", "Gordon", clue="7-00") == []
    for p in ["John", "Audrey", "Helen"]:
        assert t("pass", p) == []
        assert t.state.phase == "deductions"
    assert t("pass", "Gordon") == []
    assert (t.state.phase, t.state.turn) == ("suspicions", "Helen")


def test_second_example_failed_accusation_keeps_the_pass_sequence():
    # "Helen starts the Deductions phase and chooses to pass. Gordon places a counter on
    # Waterloo Station. John passes. Audrey accuses, but her accusation is wrong. Helen passes,
    # Gordon passes. The Deductions phase ends."
    t = Table(first="Audrey")
    t("suspect", "Audrey", clues=SUSPICION, smiles=1)
    assert t("pass", "Helen") == [] and t("place", "Gordon", clue="waterloo-station") == []
    assert t("pass", "John") == []
    assert t("accuse", "Audrey", clues=SUSPICION, smiles=2) == []
    assert t.state.out == ("Audrey",)
    assert t("pass", "Helen") == []
    assert t.state.phase == "deductions"
    assert t("pass", "Gordon") == []
    assert (t.state.phase, t.state.turn) == ("suspicions", "Helen")
    # Audrey is out: she is skipped when the notebook goes round, and may not place.
    assert t("place", "Audrey", clue="compass") == ["LA202", "LA203", "LA205"]


def test_wrong_player_wrong_phase_and_after_the_end():
    t = Table()
    assert t("suspect", "Gordon", clues=SUSPICION, smiles=1) == ["LA204"]
    t = Table()
    assert t("pass", "Helen") == ["LA203"]
    t("suspect", "Helen", clues=SUSPICION, smiles=4)
    assert t.state.ended and t.state.vars["correct_suspector"] == "Helen"
    assert t("suspect", "Gordon", clues=SUSPICION, smiles=1)[0] == "LA201"


def test_suspicion_shape_and_repeat():
    t = Table()
    assert t("suspect", "Helen", clues=["kingsley", "baker", "5pm", "compass"], smiles=0) == ["LA210"]
    t = Table()
    assert t("suspect", "Helen", clues=SUSPICION[:3], smiles=0) == ["LA210"]
    t = Table()
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    t.deductions_all_pass()
    assert t("suspect", "Gordon", clues=list(reversed(SUSPICION)), smiles=1) == ["LA212"]


def test_all_red_herrings_are_covered_and_cannot_be_suspected_again():
    t = Table()
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert t.state.vars["covered"] == frozenset(SUSPICION) and t.state.vars["business_cards"] == 24
    t.deductions_all_pass()
    assert t("place", "Helen", clue="compass") == ["LA203", "LA205", "LA225"]
    t2 = Table()
    t2("suspect", "Helen", clues=SUSPICION, smiles=0)
    assert t2("place", "Gordon", clue="compass") == ["LA225"]
    t2.deductions_all_pass()
    t2("suspect", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=1)
    t2.deductions_all_pass()
    assert t2("suspect", "John", clues=SUSPICION, smiles=0) == ["LA213"]


def test_recorded_covers_are_checked():
    t = Table()
    assert t("suspect", "Helen", clues=SUSPICION, smiles=1, covers=["compass"]) == ["LA214"]
    t = Table()
    assert t("suspect", "Helen", clues=SUSPICION, smiles=0, covers=["compass"]) == ["LA216"]
    t = Table()
    assert t("suspect", "Helen", clues=SUSPICION, smiles=0, covers=list(SUSPICION)) == []


def test_counter_supply_space_and_three_player_accusation():
    t = Table(variant="3p")
    t("suspect", "Ann", clues=SUSPICION, smiles=1)
    for p in ["Ben", "Cat", "Ann"]:
        assert t("place", p, clue="compass") == []
    assert t("place", "Ben", clue="compass") == ["LA224"]
    assert t("accuse", "Cat", clues=SUSPICION, smiles=1) == ["LA230"]
    t = Table(variant="3p")
    t("suspect", "Ann", clues=SUSPICION, smiles=1)
    assert t("accuse", "Ben", clues=SUSPICION[1:], smiles=3) == []
    assert t.state.ended and t.state.vars["correct_accuser"] == "Ben"


def test_value_supply():
    t = Table()
    t("suspect", "Helen", clues=SUSPICION, smiles=1)
    clues = ["baker", "place-2", "time-3", "object-2", "place-3", "time-4", "object-3", "place-4", "time-5", "object-4"]
    placed = 0
    for clue in clues:
        for p in ["Gordon", "John", "Audrey", "Helen"]:
            codes = t("place", p, clue=clue, value=2 if p == "Gordon" else None)
            if p == "Gordon":
                placed += 1
                if placed <= 3:
                    assert codes == []
                elif placed <= 9:
                    assert codes == ["LA223"]
                else:
                    assert codes == ["LA222", "LA223"]


def test_lone_player_left_wins_at_once():
    t = Table(variant="3p")
    t("suspect", "Ann", clues=SUSPICION, smiles=1)
    assert t("accuse", "Ben", clues=SUSPICION[:3], smiles=0) == []
    assert not t.state.ended
    assert t("accuse", "Cat", clues=SUSPICION[1:], smiles=1) == []
    assert t.state.ended and t.state.vars["end_reason"] == "only one player left"


def test_observation_compiles_to_a_fact_over_the_hands():
    t = Table()
    from ruleslawyer.spec.machine import Play
    (fact,) = t.machine.observations(t.state, Play("suspect", "Helen", {"clues": SUSPICION, "smiles": 2}))
    hands = {f"hand:{p}" for p in t.state.players}
    assert fact == Fact(count(SUSPICION, hands) == 2) and fact.viewers is None


def test_random_legal_games_stay_legal_and_end():
    for variant, seed in (("3p", 1), ("4p", 2), ("5p", 3)):
        t = Table(variant=variant)
        rng = random.Random(seed)
        world = random_world(t.machine.deal(t.state.players), rng)
        for _ in range(400):
            if t.state.ended:
                break
            play = t.machine.random_play(t.state, rng, world)
            assert play is not None
            out = t.machine.play(t.state, play)
            assert out.violations == []
            t.state = out.state


def test_legal_moves_lists_what_check_accepts():
    t = Table()
    first = list(t.machine.legal_moves(t.state))
    assert len(first) == 8 ** 4 and {p.kind for p in first} == {"suspect"}
    t("suspect", "Helen", clues=SUSPICION, smiles=0)
    moves = list(t.machine.legal_moves(t.state))
    kinds = {p.kind for p in moves}
    assert kinds == {"place", "pass", "accuse"} and {p.actor for p in moves} == {"Gordon"}
    places = [p for p in moves if p.kind == "place"]
    assert len(places) == (32 - 4) * 3  # covered clues excluded, three values each


def test_a_move_the_machine_cannot_read_is_not_applied():
    t = Table()
    before = t.state
    assert t("suspect", "Watson", clues=SUSPICION, smiles=1) == ["RL150"]
    assert t("suspect", "Helen", clues=SUSPICION, smiles=1, colour="red") == ["RL150"]
    assert t.state.moves == before.moves == 0 and t.state.phase == "suspicions"
