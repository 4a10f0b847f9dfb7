"""What solver/dp.py keeps between knowledges of one deal: a part's configuration indices per
frame and parts reduced per frame, within a budget of bytes; the answers are the plain
enumeration's either way (tests/solver/test_dp.py runs with them kept)."""

from __future__ import annotations

from unittest.mock import patch

from ruleslawyer.solver import dp
from ruleslawyer.solver.dp import DPKnowledge
from ruleslawyer.spec.facts import Fact, count, member

from .test_dp import hand, make_deal, surviving


def test_kept_within_its_budget_oldest_out_first():
    kept = dp._Kept(100)
    kept.put("a", 1, 60)
    kept.put("b", 2, 30)
    assert (kept.get("a"), kept.get("b"), kept.used) == (1, 2, 90)
    kept.put("c", 3, 50)  # "a" out: 30 + 50 within 100
    assert (kept.get("a"), kept.get("b"), kept.get("c"), kept.used) == (None, 2, 3, 80)
    kept.put("d", 4, 101)  # bigger than the budget: not kept
    assert kept.get("d") is None and kept.used == 80


def _answers(deal, facts):
    """Two one-fact extensions per card of the same knowledge, each pinning the card to Bob's hand
    (the frame shrinks the same way): the parts neither speaks of are reduced once per frame."""
    base = DPKnowledge.initial(deal).with_facts(facts)
    out = []
    for c in deal.cards:
        for fact in (Fact(member(c, hand("Bob")) == 1), Fact(count([c], hand("Bob")) >= 1)):
            k = base.with_fact(fact)
            out.append((k.count(), k.solution_counts() if k.count() else None))
    return out


def test_parts_reduced_once_per_frame_and_the_same_answers():
    deal = make_deal(4, 2, (2, 2, 3))
    facts = [Fact(count(deal.cards[:4], hand("Cat")) == 2)]
    calls = []
    real = dp._Reduced.of

    def counting(*args, **kw):
        calls.append(1)
        return real(*args, **kw)
    results = {}
    for budget in (0, dp._REDUCED_BYTES):
        dp._layout.cache_clear()
        calls.clear()
        with patch.object(dp, "_REDUCED_BYTES", budget), patch.object(dp._Reduced, "of", staticmethod(counting)):
            results[budget] = (_answers(deal, facts), len(calls))
    (kept_answers, kept_calls), (plain_answers, plain_calls) = results[dp._REDUCED_BYTES], results[0]
    assert kept_answers == plain_answers
    assert kept_calls < plain_calls
    worlds = surviving(deal, facts)
    for i, (n, _sol) in enumerate(kept_answers):
        assert n == sum(w[deal.cards[i // 2]] == "hand:Bob" for w in worlds)
