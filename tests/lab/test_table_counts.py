"""The informed weighing reads the worlds left after a question's answer (and the card seen)
from one table of the target's cards and the solution (``bots.TABLE_COUNTS``,
:func:`lab.outcomes.worlds_from_table`): the same number as the knowledge with those facts
counted, for every outcome of every legal question from a Perfect Alibi seat (5 and 3 players),
and the table is read for nearly all of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.lab.outcomes import worlds_from_table
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.marginal import table_of

from .test_outcomes import _setting

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("log, at", [("clean-5p.yaml", 13), ("clean-3p.yaml", 16)])
def test_worlds_read_from_the_table_are_the_counts(log, at):
    rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / "perfect-alibi" / log, at)
    view = initial(rep.deal).with_facts(facts)
    tables: dict = {}

    def table(zones):
        if zones not in tables:
            tables[zones] = table_of(view, zones)
        return tables[zones]
    memo = lab.observation_memo(state, mover)
    read = counted = 0
    choices = lab.legal_choices(state, mover, "ask")
    for args in choices[::3]:  # every third legal question
        outcomes = lab.completions(state, mover, "ask", args, None, None)
        for facts_seen in lab.ending_observations(state, outcomes, ("test", 1), memo):
            seen = [f for f in facts_seen if f.viewers is None or mover in f.viewers]
            got = worlds_from_table(seen, table)
            counted += 1
            if got is not None:
                read += 1
                assert got == view.with_facts(seen).count(), seen
    assert counted and read >= 0.9 * counted
