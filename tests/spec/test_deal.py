"""The deal shape and observations come from the rule file, and agree with the solver."""

from __future__ import annotations

import random

import pytest

from ruleslawyer.solver.enumerate import Knowledge
from ruleslawyer.spec.deal import deal_shape, holds
from ruleslawyer.spec.loader import load_rules
from ruleslawyer.spec.machine import Machine

from .helpers import PLAYERS


@pytest.mark.parametrize("variant,sets", [("3p", 2048), ("4p", 4096), ("5p", 57344)])
def test_evidence_sets_per_variant(variant, sets):
    assert Knowledge.initial(deal_shape(load_rules("lady-alice", variant=variant))).count() == sets


@pytest.mark.parametrize("variant", ["3p", "4p", "5p"])
def test_observed_facts_hold_for_the_true_solution_and_narrow_the_space(variant):
    rules = load_rules("lady-alice", variant=variant)
    machine, shape = Machine(rules), deal_shape(rules)
    rng = random.Random(7)
    pattern = rng.choice(shape.patterns)
    solution = frozenset(c for g, n in zip(shape.groups, pattern) for c in rng.sample(g, n))
    state = machine.start(PLAYERS[rules.param("players")])
    knowledge = Knowledge.initial(shape)
    counts = [knowledge.count()]
    for _ in range(60):
        if state.ended:
            break
        play = machine.random_play(state, rng, solution)
        fact = machine.observation(state, play)
        if fact is not None:
            assert fact.holds(solution) and fact.viewer is None
            knowledge = knowledge.with_fact(fact)
            counts.append(knowledge.count())
        state = machine.play(state, play).state
    assert counts == sorted(counts, reverse=True) and counts[-1] >= 1
    owner = PLAYERS[rules.param("players")][0]
    mine = holds(sorted(solution)[0], owner)
    assert mine.viewer == owner and knowledge.with_fact(mine).count() <= knowledge.count()
