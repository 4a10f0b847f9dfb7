"""The table after every move (the report's steps) solves once per set of facts a seat sees,
and gives what the table after each move, solved on its own, gives."""

from __future__ import annotations

import pytest

from ruleslawyer.checker import table
from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver.queries import Viewpoint

from ..conftest import ROOT

LOGS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*/clean-3p.yaml"))


@pytest.mark.parametrize("path", LOGS)
def test_every_step_is_the_step_solved_on_its_own(path, monkeypatch):
    rep = replay(*parse_log(str(ROOT / path)))
    solves = []
    real = table.solve_view
    monkeypatch.setattr(table, "solve_view", lambda *a, **k: solves.append(1) or real(*a, **k))
    for viewpoint in (Viewpoint.spectator(), Viewpoint.of_player(rep.players[0])):
        solves.clear()
        steps = table.views(rep, viewpoint)
        seen = [len([f for f in rep.facts(at) if viewpoint.sees(f)]) for at in range(len(rep.steps) + 1)]
        assert len(solves) == len(set(seen)) < len(rep.steps) + 1  # some move shows this seat nothing
        reused = [at for at in range(1, len(seen)) if seen[at] == seen[at - 1]]
        for at in sorted({0, len(seen) - 1, *reused[:3], *reused[-3:]}):  # each solved on its own
            assert steps[at] == table.view(rep, at, viewpoint), at
