"""The deal and the observations come from the rule file, and agree with the solver."""

from __future__ import annotations

import random
from math import comb, factorial

import pytest

from ruleslawyer.solver.engines import initial
from ruleslawyer.spec.deal import build_deal, pin, random_world
from ruleslawyer.spec.dealmodel import DealError
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine

from .helpers import PLAYERS


@pytest.mark.parametrize("variant,sets", [("3p", 2048), ("4p", 4096), ("5p", 57344)])
def test_evidence_sets_per_variant(variant, sets):
    rules = load_rules("lady-alice", variant=variant)
    assert initial(build_deal(rules, PLAYERS[rules.param("players")])).solution_count() == sets


@pytest.mark.parametrize("variant,deals", [
    # by hand: patterns x cards of each group x ways to hand the evidence to the players
    ("3p", 4 * 8 ** 3 * factorial(3)), ("4p", 8 ** 4 * factorial(4)), ("5p", 4 * comb(8, 2) * 8 ** 3 * factorial(5))])
def test_full_deals_per_variant(variant, deals):
    rules = load_rules("lady-alice", variant=variant)
    assert build_deal(rules, PLAYERS[rules.param("players")]).deals() == deals


def test_zones_follow_the_players_and_the_rest():
    rules = load_rules("lady-alice", variant="5p")
    deal = build_deal(rules, PLAYERS[5])
    assert [(z.id, z.size, z.seen_by) for z in deal.zones] == \
        [(f"hand:{p}", 1, "owner") for p in PLAYERS[5]] + [("desk", 27, "nobody")]
    assert deal.solution == tuple(f"hand:{p}" for p in PLAYERS[5])
    with pytest.raises(DealError):
        build_deal(rules, PLAYERS[5] * 7)  # 35 hands of one card for a deck of 32


@pytest.mark.parametrize("variant", ["3p", "4p", "5p"])
def test_observed_facts_hold_for_the_true_deal_and_narrow_the_space(variant):
    rules = load_rules("lady-alice", variant=variant)
    machine = Machine(rules)
    players = PLAYERS[rules.param("players")]
    deal = machine.deal(players)
    rng = random.Random(7)
    world = random_world(deal, rng)
    state = machine.start(players)
    knowledge = initial(deal)
    counts = [knowledge.count()]
    for _ in range(60):
        if state.ended:
            break
        play = machine.random_play(state, rng, world)
        for fact in machine.observations(state, play):
            assert fact.holds(world) and fact.viewers is None
            knowledge = knowledge.with_fact(fact)
            counts.append(knowledge.count())
        state = machine.play(state, play).state
    assert counts == sorted(counts, reverse=True) and counts[-1] >= 1
    owner = players[0]
    card = next(c for c, z in world.items() if z == f"hand:{owner}")
    mine = pin(card, f"hand:{owner}", frozenset({owner}))
    assert mine.viewers == {owner} and knowledge.with_fact(mine).count() <= knowledge.count()


def test_a_deal_that_cannot_be_dealt_is_refused_at_load_time(overlay):
    from ruleslawyer.spec.diagnostics import DiagnosticError

    path = overlay("parameters:\n  evidence_per_player: 9\n")
    with pytest.raises(DiagnosticError) as exc:
        load_rules(path)
    assert any(d.code == "RL131" for d in exc.value.diagnostics)
