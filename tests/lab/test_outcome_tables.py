"""A move observing one count of one owner's cards valued from one joint table (solver/table.py)
gives the values the per-value knowledges give (``lab.advice.TABLES = False``, the reference of
the table), with fewer solver counts.

The positions: Perfect Alibi 5p (the question choices of advice_bench's ``alibi-5p`` case, every
answer and card shown), and 3p where the asker holds the Cook (a card drawn from the whole hand:
the table also says whether the cards named are all the hand can hold).  Both paths are checked
against the plain enumeration and the reference path in tests/lab/test_outcomes*.py.
"""

from __future__ import annotations

import random
from pathlib import Path
from unittest.mock import patch

import pytest

from ruleslawyer.lab import advice
from ruleslawyer.lab.advice import value_moves
from ruleslawyer.lab.bots import Turn
from ruleslawyer.solver.engines import initial

from .test_outcomes import _setting, same_as_reference

ROOT = Path(__file__).resolve().parents[2]


def _both(log: str, at: int):
    rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / "perfect-alibi" / log, at)
    out = []
    for tables in (True, False):
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, initial(rep.deal).with_facts(facts))
        with patch.object(advice, "TABLES", tables):
            out.append(value_moves(turn, max_choices=5000, budget=100000, kinds=["ask"]))
    return out


@pytest.mark.parametrize("log, at", [("clean-5p.yaml", 13), ("clean-3p.yaml", 16)], ids=["5p", "3p-cook"])
def test_the_table_values_every_question_as_the_knowledges_per_value(log, at):
    table, per_value = _both(log, at)
    assert table.choices == per_value.choices > 20 and not table.sampled
    assert all(m.counted_by == "marginal" for m in table.moves)
    assert all(m.solution_bits is not None for m in table.moves)
    same_as_reference(table, per_value)
    assert table.counts < per_value.counts
