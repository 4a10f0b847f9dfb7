"""Estimates beyond exact reach (solver/sampled.py): exact status, chances inside their intervals."""

from __future__ import annotations

import pytest

from ruleslawyer.solver import engines, sampled, zones
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.errors import NeedsCounting
from ruleslawyer.solver.sampled import SampledKnowledge, wilson
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import Fact, count, member

from .clue_helpers import ENVELOPE, clue_deal, hand, suggestion_facts

DEAL = clue_deal((3, 3, 3), 3)
WORLD = {"s1": ENVELOPE, "w1": ENVELOPE, "r1": ENVELOPE, "s2": hand("Ann"), "w2": hand("Ann"),
         "r2": hand("Bob"), "s3": hand("Bob"), "w3": hand("Cat"), "r3": hand("Cat")}
FACTS = (suggestion_facts(DEAL, WORLD, "Ann", ["s3", "w1", "r1"])
         + suggestion_facts(DEAL, WORLD, "Bob", ["s1", "w3", "r2"]))
PUBLIC = [f for f in FACTS if f.viewers is None]


def test_wilson_against_a_table_value():
    # Wilson 95 % for 5 of 10: 0.2366 to 0.7634 (e.g. Newcombe 1998, method 3)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize("method, seeds", [("rejection", 120), ("chain", 30)])
def test_sampled_chances_fall_in_their_intervals_at_the_stated_rate(method, seeds):
    """Rejection's samples are independent; a chain's repeat one another: counted as independent,
    88 % of the chain's intervals held the exact chance (for 95 % stated), so each of its figures
    counts the samples it is worth (batch means)."""
    exact = BruteKnowledge.initial(DEAL).with_facts(PUBLIC).zone_probabilities()
    k = SampledKnowledge.initial(DEAL, reason="a test").with_facts(PUBLIC)
    inside = total = 0
    for seed in range(seeds):
        e = k.estimates(samples=150, seed=seed, force=method)
        assert e.method == method and e.n == 150
        for card, per in exact.items():
            for zone, p in per.items():
                if 0 < p < 1:
                    lo, hi = e.interval(card, zone)
                    inside += lo <= p <= hi
                    total += 1
                elif method == "rejection":  # certain figures are estimated exactly
                    assert e.chance(card, zone) == p
    rate = inside / total
    assert 0.92 <= rate <= 0.98, rate  # stated: 0.95


def test_the_chain_is_uniform_over_the_fitting_deals():
    facts = FACTS  # omniscient-ish: few deals left, rejection would keep few
    worlds = [w.zones for w in BruteKnowledge.initial(DEAL).with_facts(facts).remaining]
    assert 2 < len(worlds) < 400
    drawn, method, _rate = sampled.sample(DEAL, tuple(facts), 4000, seed=3, force="chain")
    assert method == "chain" and len(drawn) == 4000
    keys = [tuple(sorted(w.items())) for w in worlds]
    seen = {k: 0 for k in keys}
    for w in drawn:
        key = tuple(sorted(w.items()))
        assert key in seen  # every sample fits the facts
        seen[key] += 1
    expected = len(drawn) / len(keys)
    chi2 = sum((o - expected) ** 2 / expected for o in seen.values())
    df = len(keys) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5, (chi2, df)  # far beyond 99.9 % for these df


def test_no_exact_engine_gives_exact_status_and_estimated_chances():
    cards = tuple(f"c{i}" for i in range(40))
    zones_ = (Zone("under", "under", None, 2), *(Zone(hand(p), "hand", p, 19, "owner") for p in ("Ann", "Bob")))
    deal = Deal((Deck("homebrew", cards, zones_),), solution=("under",), players=("Ann", "Bob"))
    tie = Fact(count(cards[:10], {hand("Ann"), hand("Bob")}) == 10)   # ties two zones: not local
    k = engines.initial(deal).with_fact(tie).with_fact(Fact(member("c39", {"under"}) == 1))
    assert engines.exact_engine(deal, k.facts) is None
    assert k.estimate and k.consistent()
    assert k.status() == Z3Knowledge.initial(deal).with_facts(k.facts).status()
    assert k.status()["c0"] == "out" and k.status()["c39"] == "in"
    with pytest.raises(NeedsCounting, match="RULESLAWYER_MAX_WORLDS"):
        k.count()
    chances, intervals = k.probabilities(), k.intervals()
    assert chances["c39"] == 1.0 and chances["c0"] == 0.0
    lo, hi = intervals["c20"]
    assert lo <= 1 / 29 <= hi  # by symmetry: c39 and one of the 29 cards c10..c38


def test_a_zone_count_past_its_limit_is_an_estimate_naming_the_setting(monkeypatch):
    monkeypatch.setattr(zones, "MAX_TERMS", 8)
    k = zones.ZoneKnowledge.initial(DEAL).with_facts(PUBLIC)
    assert k.estimate and k.consistent()
    assert k.status() == BruteKnowledge.initial(DEAL).with_facts(PUBLIC).status()
    with pytest.raises(NeedsCounting, match="RULESLAWYER_MAX_TERMS=\\d+"):
        k.count()
    assert set(k.intervals()) == set(DEAL.solution_cards)


def test_solve_says_its_chances_are_estimates():
    from ruleslawyer.solver import queries

    cards = tuple(f"c{i}" for i in range(12))
    zones_ = (Zone("under", "under", None, 1), *(Zone(hand(p), "hand", p, 11 // 2 + (p == "Ann"), "owner")
                                                 for p in ("Ann", "Bob")))
    deal = Deal((Deck("homebrew", cards, zones_),), solution=("under",), players=("Ann", "Bob"))
    tie = Fact(count(cards[:4], {hand("Ann"), hand("Bob")}) == 4)
    exact = queries.solve(deal, [tie])
    assert not exact.estimate and exact.count is not None  # enumerated: 12 * C(11, 5) deals, exact
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(engines, "MAX_WORLDS", 10)
    try:
        est = queries.solve(deal, [tie])
    finally:
        monkeypatch.undo()
    assert est.estimate and est.count is None and est.solution_count is None
    assert est.status == exact.status and est.samples == sampled.SAMPLES
    out = est.to_json()["estimate"]
    for card, p in exact.probabilities.items():
        lo, hi = out["intervals"][card]
        assert lo - 0.03 <= p <= hi + 0.03  # 12 figures at 95 %, with a margin for the unlucky one
