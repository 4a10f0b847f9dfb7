"""lab.outcomes._from_table (an owner table summed by value in arrays) gives, number for number,
what value_counted gives from the same table read one slice per value and a dictionary per card
(its reference, ``_from_table`` switched off), on a small deal whose table weighs its deals
apart (a card seen, drawn at random among those the hand holds: each deal weighs 1/k) and on
the same deal unweighted; each question asked of Cat's hand, for every answer and card shown,
from a seat that sees the card and from one that does not."""

from __future__ import annotations

from types import SimpleNamespace
from unittest.mock import patch

import pytest

from ruleslawyer.lab import outcomes
from ruleslawyer.lab.outcomes import count_shape, value_counted
from ruleslawyer.solver.dp import DPKnowledge
from ruleslawyer.spec.facts import Fact, count, member

from ..solver.test_dp import hand, make_deal


def _paths(deal, asked: list[str], seer: bool):
    """A question of Cat's hand about ``asked``: per answer v, one path (v = 0) or one per card
    shown; the seat sees the answer, and the card only when ``seer``."""
    lin = count(asked, hand("Cat"))
    out = []
    for v in range(0, len(asked) + 1):
        said = Fact(lin == v)
        if v == 0:
            out.append(SimpleNamespace(facts=(said,), seen=(said,)))
            continue
        for c in asked:
            shown = Fact(member(c, hand("Cat")) == 1)
            out.append(SimpleNamespace(facts=(said, shown), seen=(said, shown) if seer else (said,)))
    return out


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("seer", [True, False], ids=["card-seen", "card-unseen"])
def test_sums_by_value_are_the_slices_number_for_number(weighted, seer):
    deal = make_deal(4, 2, (2, 2, 3))
    asked_before = [c for c in deal.cards if c.startswith(("L1", "L2"))]
    facts = [Fact(count(asked_before, hand("Bob")) >= 1)]
    if weighted:
        facts.append(Fact(member("L1-T1", hand("Bob")) == 1, frozenset({"Ann"}),
                          likelihood=count(asked_before, hand("Bob"))))
    base = DPKnowledge.initial(deal).with_facts(facts)
    table = base.owner_table(hand("Cat"))
    assert table is not None and (weighted == (table.weight != table.worlds).any())
    checked = 0
    for asked in ([c for c in deal.cards if c.startswith("L3")], [c for c in deal.cards if c.endswith("T2")]):
        paths = _paths(deal, asked, seer)
        shape = count_shape(paths)
        assert shape is not None
        keys = [repr([f.formula for f in p.seen]) for p in paths]
        whole = [p.seen == p.facts for p in paths]
        got = []
        for arrays in (True, False):
            with patch.object(outcomes, "_from_table", outcomes._from_table if arrays
                              else lambda *a, **k: outcomes._UNREAD):
                got.append(value_counted(shape, paths, keys, base, float(base.count()), None,
                                         lambda k, f: k.with_facts(f), table=table, whole=whole))
        arrays, slices = got
        assert arrays is not None and arrays == slices  # every field, every number equal
        assert arrays.solution_bits is not None
        checked += 1
    assert checked == 2
