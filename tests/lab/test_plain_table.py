"""Perfect Alibi 5p's questions valued against a plain enumeration of the 2,016,000 deals the seat cannot rule out.

The advice's numbers at 5 players were checked against the reference path (one solver count
per outcome) only: the tests' plain enumeration (``test_outcomes.py``, a dictionary per deal)
reaches a few thousand deals.  ``plain_table.py`` is the same enumeration and the same
definitions over a table of deals (one row each): first checked equal to the tests' own on
positions they reach (every legal move the seat observes), then used on Violet's seat after
move 13 of the 5-player example: a seeded sample of the legal questions, each one's answers'
chances, information about the deal and about the solution, deals left after each answer and
the share of deals that allow it, as the shipped advice gives them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ruleslawyer.lab.advice import _key, move_paths, value_moves
from ruleslawyer.lab.engine import MAX_ENUMERATE

from .plain_table import Deals, plain_values as table_values
from .test_advice import _setting as setting
from .test_outcomes import plain_values, seat_worlds

ROOT = Path(__file__).resolve().parents[2]


def _setting(log: str, at: int):
    rep, lab, turn, facts = setting(ROOT / "examples" / log, at)
    return rep, lab, turn.state, turn.actor, turn.kinds, facts


@pytest.mark.parametrize("log, at", [("perfect-alibi/clean-3p.yaml", 16), ("perfect-alibi/clean-3p.yaml", 6)])
def test_the_table_of_deals_is_the_tests_enumeration(log, at):
    rep, lab, state, mover, kinds, facts = _setting(log, at)
    worlds = seat_worlds(rep.deal, facts, f"hand:{mover}")
    deals = Deals(rep.deal, facts, f"hand:{mover}")
    assert len(deals) == len(worlds) > 50
    solution = deals.solution_ids(set(rep.deal.solution))
    compared = 0
    for kind in kinds:
        for choice in lab.legal_choices(state, mover, kind) or []:
            paths = move_paths(lab, state, mover, kind, choice, mover, deal=rep.deal)
            if not paths or not any(p.seen for p in paths):
                continue
            d1, b1, s1, l1, g1 = table_values(deals, paths, solution)
            d2, b2, s2, l2, g2 = plain_values(worlds, paths, set(rep.deal.solution))
            assert set(d1) == set(d2) and l1 == dict(l2), choice
            assert max([abs(b1 - b2), abs(s1 - s2), abs(g1 - g2)] + [abs(d1[k] - d2[k]) for k in d1]) < 1e-12
            compared += 1
    assert compared >= 10


#: questions of the 5p seat compared (a seeded sample of the 150 legal ones)
SAMPLE = 16


@pytest.mark.heavy  # the table of 4,804,800 deals and a question's columns: about 15 s of CPU
def test_five_player_questions_against_the_plain_enumeration():
    rep, lab, turn, facts = setting(ROOT / "examples" / "perfect-alibi/clean-5p.yaml", 13)
    state, mover = turn.state, turn.actor
    deals = Deals(rep.deal, facts, f"hand:{mover}")
    assert len(deals) == 2_016_000
    solution = deals.solution_ids(set(rep.deal.solution))
    advice = value_moves(turn, max_choices=MAX_ENUMERATE, kinds=["ask"], budget=10 ** 7)
    assert advice.choices == 150 and not advice.sampled
    for mv in random.Random(13).sample(advice.moves, SAMPLE):
        paths = move_paths(lab, state, mover, "ask", mv.args, mover, deal=rep.deal)
        dist, bits, sbits, left, legal = table_values(deals, paths, solution)
        words = {_key(p.seen): tuple(dict.fromkeys(f.text or repr(f.formula) for f in p.seen)) for p in paths}
        plain = {words[k]: (q, left[k]) for k, q in dist.items()}
        assert {a.says: (pytest.approx(a.probability, abs=1e-12), a.worlds_left) for a in mv.answers} == plain, mv.args
        assert mv.bits == pytest.approx(bits, abs=1e-9) and mv.solution_bits == pytest.approx(sbits, abs=1e-9)
        assert mv.legal == pytest.approx(legal, abs=1e-12)
