"""A choice's endings worked out per outcome parameter, against each ending on its own.

* ``Lab.ending_observations``: the facts of every ending of one choice, each observation
  looked up by what it reads of the outcomes (its condition first), against the state
  machine's facts of each ending (``Machine.observations``: formula, viewers, source, text
  and likelihood) and ``Lab.observations`` per ending; and the endings of a choice are
  distinct plays (what ``lab.chain.shared_ways`` relies on to decide its limits before
  any fact is worked out).  Positions: a seeded sample of the states of a random game of
  each rule file in ``rules/`` and of the house rules that change what a question observes
  (a lie, a card shown or a lie drawn at random), the game test_draw.py plays; in each,
  every kind open to every player and a seeded sample of its choices.
* ``_maximal`` (the completions no other extends) against ``_maximal_reference`` (every
  subset of each completion's values tried) on seeded random sets of combinations with
  outcomes left out.
"""

from __future__ import annotations

import itertools
import random

import pytest

from ruleslawyer.lab.engine import Lab, _maximal, _maximal_reference
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules, rules_dir
from ruleslawyer.spec.machine import Play
from tests.lab.test_draw import game_states, sample_states

GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))
HOUSES = [("perfect-alibi", "3p", ["rival"]), ("perfect-alibi", "4p", ["lies-at-random"]),
          ("clue", "3p", ["shown-at-random"])]
SEED, INDEX, MOVES = 7, 0, 60
STATES = 16  # states of the random game compared (first and last among them)
CHOICES = 6  # mover's choices per kind and state, at most (beyond: a seeded sample)


def _fact(f):
    return (repr(f.formula), f.viewers, f.source, f.text, repr(f.likelihood))


@pytest.mark.parametrize("game,variant,house", [(g, None, []) for g in GAMES] + HOUSES)
def test_ending_observations_equal_each_endings_own(game, variant, house):
    rules = load_rules(game, variant=variant, house=house)
    lab = Lab(rules)
    states, _world = game_states(lab, MOVES, SEED, INDEX)
    rng = random.Random(f"{game}{house}")
    source = ("advice", 1)
    endings = several = 0
    for state in sample_states(states, rng, STATES):
        for actor, kinds in lab.actors(state).items():
            memo = lab.observation_memo(state, actor)
            for kind in kinds:
                choices = list(lab.mover_choices(state, actor, kind)) or [{}]
                if len(choices) > CHOICES:
                    choices = rng.sample(choices, CHOICES)
                for args in choices:
                    with evaluations():
                        plays = lab.completions(state, actor, kind, args, None, random.Random(0))
                        got = lab.ending_observations(state, plays, source, memo)
                    assert len({repr(p) for p in plays}) == len(plays), (kind, args)  # distinct endings
                    assert len(got) == len(plays)
                    for play, facts in zip(plays, got):
                        own = lab.machine.observations(state, play, source=source)
                        assert [_fact(f) for f in facts] == [_fact(f) for f in own], play
                        assert list(facts) == lab.observations(state, play, source, memo), play
                    endings += len(plays)
                    several += len(plays) > 1 and any(got)
    assert endings >= 20 and several > 0, (endings, several)


def _combos(rng: random.Random) -> list[tuple[tuple, Play]]:
    """A random set of combinations of 1 to 4 outcomes, each a few values or left out (None),
    values of several kinds (numbers, names, lists)."""
    width = rng.randint(1, 4)
    axes = [rng.sample([0, 1, 2, "a", "b", ["x"], ["x", "y"]], rng.randint(1, 3)) + [None] * rng.randint(0, 1)
            for _ in range(width)]
    every = list(itertools.product(*axes))
    picked = rng.sample(every, rng.randint(1, len(every)))
    return [(combo, Play("k", "p", {str(i): v for i, v in enumerate(combo) if v is not None}))
            for combo in picked]


def test_maximal_equals_the_reference():
    rng = random.Random(11)
    dropped = 0
    for _ in range(400):
        found = _combos(rng)
        new, ref = _maximal(found), _maximal_reference(found)
        assert [id(p) for p in new] == [id(p) for p in ref], [c for c, _p in found]
        dropped += len(found) - len(ref)
    assert dropped > 100  # many combinations with an outcome left out are extended by another
