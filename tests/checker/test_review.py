"""Adversarial review: logs the checker got wrong before."""

from __future__ import annotations

from ruleslawyer.checker.check import check_text


def codes(text: str) -> list[str]:
    return [d.code for d in check_text(text, "t.yaml").diagnostics]


LONE = """rules: lady-alice
players: [Ann, Ben, Cat]
moves:
  - {suspect: Ann, clues: [Tippu Tip, Waterloo Station, 5 p.m., O3], smiles: 2}
  - {place: Ben, clue: Tippu Tip, value: 2}
  - {accuse: Cat, clues: [Tippu Tip, 5 p.m., O3], smiles: 2}
  - {accuse: Ann, clues: [Tippu Tip, Waterloo, O3], smiles: 1}
end:
  winner: %s
"""


def test_the_last_player_left_wins_even_when_the_solution_is_unknown():
    # The winner does not depend on the scores: it is checked without them.
    assert "LA402" not in codes(LONE % "Ben")
    assert "LA402" in codes(LONE % "Ann")


def test_the_last_player_left_wins_even_when_counter_values_are_unknown():
    text = (LONE % "Cat").replace("value: 2}", "}").replace(
        "players: [Ann, Ben, Cat]\n",
        "players: [Ann, Ben, Cat]\nprivate:\n  evidence: {Ann: Tippu Tip, Ben: 5 p.m., Cat: compass}\n")
    assert "LA402" in codes(text)


STACKED = """rules: lady-alice
players: [Helen, Gordon, John, Audrey]
private:
  evidence: {Helen: Mary Kingsley, Gordon: Waterloo Station, John: "7:00", Audrey: compass}
moves:
  - {suspect: Helen, clues: [Speke, P2, T4, O5], smiles: 0}
  - {place: Gordon, clue: Kingsley}
  - {pass: John}
  - {pass: Audrey}
  - {pass: Helen}
  - {place: Gordon, clue: Kingsley}
  - {pass: John}
  - {pass: Audrey}
  - {pass: Helen}
  - {pass: Gordon}
  - {suspect: Gordon, clues: [Kingsley, Waterloo, "7:00", compass], smiles: 4}
end:
  counters:
    Mary Kingsley: {Gordon: [1, 2]}
  scores: {Helen: 0, Gordon: %d, John: 0, Audrey: 0}
  winner: Gordon
"""


def test_two_counters_of_one_player_on_one_clue_shown_at_the_end_are_scored():
    # Both values are recorded; which counter was which does not matter.
    assert codes(STACKED % 4) == []
    assert codes(STACKED % 6) == ["LA401"]


AFTER_END = """rules: lady-alice
players: [Helen, Gordon, John, Audrey]
private:
  evidence: {Helen: Mary Kingsley, Gordon: Waterloo Station, John: "7:00", Audrey: compass}
moves:
  - {suspect: Helen, clues: [Speke, P2, T4, O5], smiles: 0}
  - {place: Gordon, clue: Kingsley, value: 2}
  - {pass: John}
  - {pass: Audrey}
  - {pass: Helen}
  - {pass: Gordon}
  - {suspect: Gordon, clues: [Kingsley, Waterloo, "7:00", compass], smiles: 4}
  - {suspect: John, clues: [Kingsley, Waterloo, "7:00", compass], smiles: 4}
end:
  scores: {Helen: 0, Gordon: 3, John: 0, Audrey: 0}
  winner: Gordon
"""


def test_a_move_after_the_end_does_not_change_the_score():
    # Gordon's suspicion ended the game: John's, after it, is reported (LA301)
    # but earns nothing; the recorded result is the game's as it ended.
    assert codes(AFTER_END) == ["LA301"]
