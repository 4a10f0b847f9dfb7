"""An ``end:`` record of a zone nobody owns (Perfect Alibi's ``missing:``) is what the
table sees at the end of the game: it counts from the end on, never before (issue 22)."""

from __future__ import annotations

from pathlib import Path

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver import queries

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "examples" / "perfect-alibi" / "clean-4p.yaml"


def _replays(tmp_path):
    text = CLEAN.read_text()
    # The same game, its private record of the card under the board left out, the card shown at the end.
    public = "\n".join(line for line in text.splitlines() if not line.strip().startswith("missing:"))
    shown = public.replace("end:\n", "end:\n  missing: L4 6\n")
    assert shown != public
    out = []
    for name, body in (("public.yaml", public), ("shown.yaml", shown)):
        path = tmp_path / name
        path.write_text(body)
        log, rules = parse_log(str(path))
        out.append(replay(log, rules))
    return out


def test_the_card_shown_at_the_end_is_not_known_before_the_end(tmp_path):
    public, shown = _replays(tmp_path)
    moves = len(shown.steps)
    for at in (0, 9, moves - 1):
        for view in (queries.Viewpoint.spectator(), queries.Viewpoint.of_player("Yellow")):
            before = queries.solve(public.deal, public.facts(at), view)
            after = queries.solve(shown.deal, shown.facts(at), view)
            assert (after.count, after.determined) == (before.count, before.determined), (at, view)
    assert not queries.solve(shown.deal, shown.facts(9), queries.Viewpoint.spectator()).determined


def test_the_card_shown_at_the_end_counts_at_the_end(tmp_path):
    _public, shown = _replays(tmp_path)
    end = queries.solve(shown.deal, shown.facts(), queries.Viewpoint.spectator())
    assert end.determined and end.solutions == [["l4-6"]]
    # in hindsight, the spectator learns it at the end (the last fact), not before the first move
    facts = shown.facts()
    first = queries.first_determined(shown.deal, facts, [queries.Viewpoint.spectator()])["spectator"]
    assert first is not None and first >= 0
