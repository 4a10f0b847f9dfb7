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


#: A position of every rule file in rules/ (and of an overlay): the table's sums serve Perfect
#: Alibi's questions; Clue's suggestions and Lady Alice's verdicts take no table (no owner table
#: from their engines, or not one count), and are valued the same with the switch either way.
POSITIONS = [("clue/clean-3p.yaml", 4, 0, False), ("lady-alice/clean-4p.yaml", 4, 0, False),
             ("perfect-alibi/clean-4p.yaml", 10, 100, False), ("perfect-alibi/unforgiving-4p.yaml", 10, 100, False),
             ("perfect-alibi/clean-4p.yaml", 10, 100, True)]


@pytest.mark.parametrize("log, at, least, other", POSITIONS,
                         ids=[p[0].split("/")[0] + "-" + p[0].split("/")[1][:-5] + ("-other-seat" if p[3] else "")
                              for p in POSITIONS])
def test_every_rule_file_valued_as_without_the_table(log, at, least, other):
    """Every legal move of the position (every kind), valued with the table's sums by value
    (lab.outcomes._from_table) and with a knowledge per value (``TABLES = False``): the same.
    ``other``: from the seat of another player than the mover's, who sees the answer and not the
    card shown (the worlds left read from what that seat sees of each path)."""
    from ruleslawyer.lab import outcomes
    read = []
    real = outcomes._from_table

    def spy(*args, **kwargs):
        got = real(*args, **kwargs)
        read.append(got is not outcomes._UNREAD and got is not None)
        return got
    rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / log, at)
    seat = mover
    if other:
        seat = next(p for p in rep.deal.players if p != mover)
        facts = [f for f in rep.facts(at) if f.viewers is None or seat in f.viewers]
    out = []
    for tables in (True, False):
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, initial(rep.deal).with_facts(facts))
        with patch.object(advice, "TABLES", tables), patch.object(outcomes, "_from_table", spy):
            out.append(value_moves(turn, max_choices=5000, budget=100000, seat=seat))
    table, per_value = out
    assert not table.sampled and len(table.moves) == len(per_value.moves) > 20
    assert sum(read) >= least and (least or not read)
    def order(m):
        return m.kind, repr(m.args)
    for m, n in zip(sorted(table.moves, key=order), sorted(per_value.moves, key=order)):
        assert (m.kind, m.args, m.counted_by, m.right, m.exact) == (n.kind, n.args, n.counted_by, n.right, n.exact)
        assert (m.bits, m.solution_bits, m.legal, m.worlds_left) == \
            pytest.approx((n.bits, n.solution_bits, n.legal, n.worlds_left), abs=1e-9)
        # answers by their words (two may say the same words from a seat that sees less), then chance
        mine = sorted((a.says, a.worlds_left, a.probability) for a in m.answers)
        theirs = sorted((a.says, a.worlds_left, a.probability) for a in n.answers)
        assert [a[:2] for a in mine] == [a[:2] for a in theirs]
        assert [a[2] for a in mine] == pytest.approx([a[2] for a in theirs], abs=1e-9)


def test_paths_numbered_fall_in_the_classes_of_their_texts():
    """lab.advice._Numbered (a tuple of numbers per path's facts) parts every question's paths as
    _key (the facts' text) does: two paths share a number tuple exactly when they share a text."""
    from ruleslawyer.lab.advice import _key, _Numbered, move_paths
    for log, at in (("perfect-alibi/clean-5p.yaml", 13), ("perfect-alibi/clean-3p.yaml", 16)):
        rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / log, at)
        numbered = _Numbered()
        checked = 0
        for args in lab.legal_choices(state, mover, "ask")[::5]:
            paths = move_paths(lab, state, mover, "ask", args, mover)
            for part in ("facts", "seen"):
                texts = [_key(getattr(p, part)) for p in paths]
                numbers = [numbered(getattr(p, part)) for p in paths]
                assert len(set(zip(texts, numbers))) == len(set(texts)) == len(set(numbers))
                checked += len(paths)
        assert checked > 100


@pytest.mark.parametrize("log, at, other", [("clean-5p.yaml", 13, False), ("clean-3p.yaml", 16, False),
                                            ("clean-4p.yaml", 10, True)], ids=["5p", "3p-cook", "4p-other-seat"])
def test_the_sums_by_value_are_the_slices_of_the_table_to_the_last_bit(log, at, other):
    """lab.outcomes._from_table (the table summed by value, in arrays) against the table read one
    slice per value and a dictionary per card (value_counted's slices of the same table, as before
    _from_table): every field of every move's value equal, not only close (a move worth exactly 0
    stays 0: greedy's choices, which compare such numbers, are the same)."""
    from ruleslawyer.lab import outcomes
    rep, lab, state, mover, kinds, facts = _setting(ROOT / "examples" / "perfect-alibi" / log, at)
    seat = next(p for p in rep.deal.players if p != mover) if other else mover
    facts = [f for f in rep.facts(at) if f.viewers is None or seat in f.viewers]
    out = []
    for arrays in (True, False):
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, initial(rep.deal).with_facts(facts))
        with patch.object(outcomes, "_from_table", outcomes._from_table if arrays else lambda *a, **k: outcomes._UNREAD):
            out.append(value_moves(turn, max_choices=5000, budget=100000, kinds=["ask"], seat=seat))
    arrays, slices = out
    assert arrays.choices == slices.choices > 20 and all(m.counted_by == "marginal" for m in arrays.moves)
    assert [m.to_json() for m in arrays.moves] == [m.to_json() for m in slices.moves]
