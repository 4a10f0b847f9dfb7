"""Steps II and III of the rulebook's scoring, worked by hand."""

from __future__ import annotations

from ruleslawyer.spec.scoring import score

from .helpers import ENDING_SOLUTION, scored_ending

SOLUTION = ENDING_SOLUTION


def test_red_herring_counters_and_an_eliminated_players_counters_are_removed():
    t = scored_ending()  # Gordon on a red herring (step II), John on the solution but out (step III)
    table = score(t.machine, t.state, SOLUTION)
    removed = {s.id: sorted((tok.owner, tok.space) for tok in s.removed) for s in table.steps if s.kind == "remove"}
    assert removed["II"] == [("Gordon", "baker")]
    assert removed["III"] == [("John", "waterloo-station")]
    assert removed["V"] == []
    # Audrey 1 + 2; Helen 1 + 3 for the correct accusation; Gordon and John are out.
    assert table.scores == {"Helen": 4, "Gordon": 0, "John": 0, "Audrey": 3}
    assert table.winners == ("Helen",)
