"""A witness deal answers "does some deal still fit?" without a solver (checker/witness.py).

Every answer is compared with the plain enumeration of every deal (solver.brute) on
small decks, and a whole check of every example log (clean and with violations) must
give the same report as the solver alone gives (the witness turned off).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ruleslawyer.checker import consistency
from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.consistency import Observations
from ruleslawyer.checker.witness import fits, is_deal, pinned_to, pinned_world
from ruleslawyer.solver.brute import BruteKnowledge, all_worlds
from ruleslawyer.spec.deal import pin
from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import Fact, count, member

from ..conftest import ROOT

PLAYERS = ("Ann", "Ben", "Cat")
HANDS = tuple(f"hand:{p}" for p in PLAYERS)


def _hidden_one_each() -> Deal:
    """Each hand holds one card and together one card of each group (a hand's card is the solution)."""
    groups = (("a1", "a2", "a3"), ("b1", "b2"), ("c1", "c2", "c3"))
    zones = (*(Zone(h, "hand", p, 1, "owner") for h, p in zip(HANDS, PLAYERS)), Zone("rest", "rest", None, 5))
    return Deal((Deck("d", tuple(c for g in groups for c in g), zones, (GroupCount(HANDS, groups, ((1, 1, 1),)),)),),
                solution=HANDS, players=PLAYERS)


def _missing_card() -> Deal:
    """Two cards in each hand, one missing card, a second deck of one tile per player."""
    cards = ("p1", "p2", "p3", "q1", "q2", "q3", "r1")
    zones = (Zone("missing", "missing", None, 1), *(Zone(h, "hand", p, 2, "owner") for h, p in zip(HANDS, PLAYERS)))
    tiles = Deck("t", ("t1", "t2", "t3"), tuple(Zone(f"tile:{p}", "tile", p, 1, "owner") for p in PLAYERS))
    return Deal((Deck("d", cards, zones), tiles), solution=("missing",), players=PLAYERS)


def _random_fact(deal: Deal, rng: random.Random, world: dict[str, str]) -> Fact:
    """A pin, a count over one zone or over several, or an either-or: true of ``world`` or not."""
    cards = list(deal.cards)
    zones = [z.id for z in deal.zones if z.size]
    kind = rng.randrange(4)
    if kind == 0:
        card = rng.choice(cards)
        return pin(card, world[card] if rng.random() < 0.7 else rng.choice(zones), None, ("pin", card))
    named = rng.sample(cards, rng.randint(1, 3))
    where = set(rng.sample(zones, rng.randint(1, 2)))
    lin = count(named, where)
    truth = lin.value(world)
    value = truth if rng.random() < 0.7 else rng.randint(0, len(named))
    if kind == 1:
        return Fact(lin == value, None, ("count", tuple(named)))
    if kind == 2:
        return Fact(lin >= max(value, 1), None, ("at least", tuple(named)), likelihood=count(named, where))
    other = rng.choice(cards)
    return Fact((lin == value) | (member(other, {rng.choice(zones)}) == 1), None, ("either", tuple(named)))


@pytest.mark.parametrize("seed", range(40))
def test_each_fact_is_accepted_exactly_when_some_deal_fits(seed):
    rng = random.Random(seed)
    deal = (_hidden_one_each, _missing_card)[seed % 2]()
    world = dict(rng.choice(all_worlds(deal)).zones)
    seen = Observations(deal)
    if seed % 4 < 2:  # a referee's log: every card recorded first
        for card in rng.sample(list(deal.cards), len(deal.cards)):
            assert seen.add(pin(card, world[card], None, ("record", card))) is None
    for _ in range(14):
        fact = _random_fact(deal, rng, world)
        fitting = BruteKnowledge.initial(deal).with_facts([*seen.facts, fact]).consistent()
        assert seen.fits(fact) == fitting
        assert seen.fits_all([fact, fact]) == fitting
        clash = seen.add(fact)
        assert (clash is None) == fitting, fact
    # what the solver's knowledge says, once asked, is that of every fact accepted
    expected = BruteKnowledge.initial(deal).with_facts(seen.facts)
    assert seen.knowledge.status() == expected.status()


def test_a_fully_recorded_deal_is_its_own_witness_and_a_broken_one_none():
    deal = _missing_card()
    for w in all_worlds(deal)[:50]:
        pins = [pin(c, z, None) for c, z in w.zones.items()]
        assert pinned_world(deal, pins) == w.zones and is_deal(deal, w.zones)
    some = dict(all_worlds(deal)[0].zones)
    assert pinned_world(deal, [pin("p1", "missing", None), pin("p2", "missing", None)]) is None  # room for one
    assert pinned_world(deal, [pin("p1", "missing", None), pin("p1", "hand:Ann", None)]) is None
    assert not is_deal(deal, {**some, "t1": "missing"}) and not is_deal(deal, {k: some[k] for k in list(some)[1:]})
    assert pinned_to(Fact(count(["p1"], {"missing"}) == 1)) == ("p1", "missing")
    assert pinned_to(Fact(count(["p1"], {"missing", "hand:Ann"}) == 1)) is None
    assert pinned_to(Fact(count(["p1", "p2"], {"missing"}) == 1)) is None
    # a weighted fact holds only where the choice it was made among has a possibility
    empty = {**some}
    chosen = Fact(count(["p1"], {"hand:Ann"}) <= 1, likelihood=count(["p1"], {"hand:Ann"}))
    assert fits(chosen, {**empty, "p1": "hand:Ann"}) and not fits(chosen, {**empty, "p1": "missing"})


def test_the_pins_honour_the_group_constraint_of_the_hands():
    deal = _hidden_one_each()
    for card in deal.cards:
        world = pinned_world(deal, [pin(card, "hand:Ben", None)])
        assert world is not None and world[card] == "hand:Ben" and is_deal(deal, world)
    # two cards of one group in the hands: no deal has them
    assert pinned_world(deal, [pin("a1", "hand:Ann", None), pin("a2", "hand:Ben", None)]) is None


LOGS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*/*.yaml")) + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*/violations/*.yaml"))


def test_every_example_log_gets_the_report_the_solver_alone_gives(monkeypatch):
    assert len(LOGS) > 50
    witnessed = {}
    for log in LOGS:
        report = check_text((ROOT / log).read_text(), log)
        witnessed[log] = (report.format_text(), json.dumps(report.to_json(), sort_keys=True, default=str))
    monkeypatch.setattr(consistency.Observations, "_witnessed", lambda self, facts: False)
    for log in LOGS:
        report = check_text((ROOT / log).read_text(), log)
        assert witnessed[log] == (report.format_text(), json.dumps(report.to_json(), sort_keys=True, default=str)), log


def test_the_witness_spares_the_solver_on_a_referees_log(monkeypatch):
    calls = []
    real = consistency.initial
    monkeypatch.setattr(consistency, "initial", lambda deal, count=True: calls.append(deal) or real(deal, count))
    for log in ("examples/lady-alice/clean-4p.yaml", "examples/perfect-alibi/clean-5p.yaml"):
        assert check_text((ROOT / log).read_text(), log).status == 0
    assert calls == []
    text = Path(ROOT / "examples/perfect-alibi/clean-5p.yaml").read_text()
    head, private = text.split("private:\n", 1)
    assert check_text(head + private[private.index("moves:"):], "spectator.yaml").status == 0
    assert calls  # no recorded hands: the observations go to the solver


def test_a_spectators_check_looks_for_a_witness_twice_at_most(monkeypatch):
    # once for the first fact, once when a fact does not fit it; then the solver answers every
    # fact (the witness retired): never a search per fact
    from ruleslawyer.checker import witness

    calls = []
    real = witness.pinned_world
    monkeypatch.setattr(witness, "pinned_world", lambda deal, facts: calls.append(1) or real(deal, facts))
    for log in ("examples/lady-alice/clean-4p.yaml", "examples/perfect-alibi/clean-5p.yaml",
                "examples/clue/clean-4p.yaml"):
        text = (ROOT / log).read_text()
        head, private = text.split("private:\n", 1)
        calls.clear()
        spectator = head + private[private.index("moves:"):].split("\nend:")[0] + "\n"
        assert check_text(spectator, "spectator.yaml").status == 0
        assert 1 <= len(calls) <= 2, (log, len(calls))
