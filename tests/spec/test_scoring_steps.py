"""Steps II and III of the rulebook's scoring, worked by hand."""

from __future__ import annotations

from ruleslawyer.spec.scoring import score

from .helpers import Table

SOLUTION = ["kingsley", "waterloo-station", "7-00", "compass"]


def test_red_herring_counters_and_an_eliminated_players_counters_are_removed():
    t = Table()
    t("suspect", "Helen", clues=["baker", "waterloo-station", "time-3", "object-2"], smiles=1)
    assert t("place", "Gordon", clue="baker", value=2) == []            # a red herring: step II
    assert t("place", "John", clue="waterloo-station", value=2) == []   # John will be out: step III
    assert t("place", "Audrey", clue="waterloo-station", value=1) == []
    assert t("place", "Helen", clue="compass", value=1) == []
    assert t("accuse", "Gordon", clues=["baker", "place-2", "time-3", "object-2"], smiles=0) == []
    assert t("accuse", "John", clues=["speke", "place-3", "time-4", "object-3"], smiles=0) == []
    assert t("place", "Audrey", clue="kingsley", value=2) == []
    assert t("accuse", "Helen", clues=SOLUTION, smiles=4) == []
    table = score(t.machine, t.state, SOLUTION)
    removed = {s.id: sorted((tok.owner, tok.space) for tok in s.removed) for s in table.steps if s.kind == "remove"}
    assert removed["II"] == [("Gordon", "baker")]
    assert removed["III"] == [("John", "waterloo-station")]
    assert removed["V"] == []
    # Audrey 1 + 2; Helen 1 + 3 for the correct accusation; Gordon and John are out.
    assert table.scores == {"Helen": 4, "Gordon": 0, "John": 0, "Audrey": 3}
    assert table.winners == ("Helen",)
