"""The legal sample of the mover's choices (``Lab.legal_sample``, on the staged listing of
``Lab.legal_choices``), drawn by the advice when a kind has more choices than it values and
``advice.LEGAL_SAMPLE`` is on (off by default).

In states of a random Perfect Alibi game, at a kind with more choices than sampled:

* every choice drawn is legal: the reference lab (every combination of outcomes checked by the
  state machine) lists a completion of it, and names no excluded item;
* it draws as many as asked, or every legal one when there are fewer, none twice;
* drawn one at a time over many seeds, each legal choice comes about as often (a count against
  the plain list of legal choices: every choice whose completions are not empty), at the state
  with the fewest legal choices: each is drawn, and the counts' chi-square is within 6 standard
  deviations of its mean.
"""

from __future__ import annotations

import random
from collections import Counter

from ruleslawyer.lab.engine import Lab
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules

from .test_draw import game_states


def _key(args):
    return tuple(sorted((k, repr(v)) for k, v in args.items()))


def _cases(lab: Lab, states, want: int = 2):
    found = []
    for state in states:
        for actor, open_ in lab.actors(state).items():
            for kind in open_:
                if not lab.kinds[kind].mover:
                    continue
                every = list(lab.mover_choices(state, actor, kind, limit=10 ** 6))
                if len(every) <= 24:
                    continue
                found.append((state, actor, kind, every))
                if len(found) >= want:
                    return found
    return found


@evaluations()  # as value_moves runs it: the generated checks serve
def test_the_legal_sample_is_uniform_over_the_legal_choices():
    lab = Lab(load_rules("perfect-alibi", variant="4p"))
    ref = Lab(lab.rules, reference=True)
    states, _world = game_states(lab, 12)
    cases = _cases(lab, states)
    assert cases
    found = []
    for state, actor, kind, every in cases:
        legal = [a for a in every if ref.completions(state, actor, kind, a, None)]
        found.append((state, actor, kind, every, legal))
        assert 0 < len(legal) < len(every)  # the sample has illegal choices to leave out
        keys = {_key(a) for a in legal}
        drawn = lab.legal_sample(state, actor, kind, 24, random.Random(0))
        assert drawn is not None and len(drawn) == min(24, len(legal))
        assert len({_key(a) for a in drawn}) == len(drawn) and all(_key(a) in keys for a in drawn)
        assert lab.legal_sample(state, actor, kind, 24, random.Random(0)) == drawn  # seeded
    state, actor, kind, every, legal = min(found, key=lambda case: len(case[4]))
    keys = {_key(a) for a in legal}
    runs = 12 * len(legal)
    counts = Counter(_key(lab.legal_sample(state, actor, kind, 1, random.Random(s))[0]) for s in range(runs))
    assert set(counts) == keys
    df = len(legal) - 1
    chi2 = sum((n - 12) ** 2 / 12 for n in counts.values())
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)


@evaluations()
def test_where_most_choices_are_legal_the_draws_alone_give_the_sample():
    """Lady Alice 4 players, a suspicion (4,096 choices, every one legal by the rules alone): the
    sample is drawn by rejection, without the staged listing (counted), each choice legal for the
    reference lab; with no draw allowed (``tries=0``) the staged listing gives one as legal."""
    lab = Lab(load_rules("lady-alice", variant="4p"))
    ref = Lab(lab.rules, reference=True)
    states, _world = game_states(lab, 6)
    state = next(s for s in states if "suspect" in lab.open_kinds(s, s.turn))
    listed = [0]
    original = lab.legal_choices

    def counting(*args, **kwargs):
        listed[0] += 1
        return original(*args, **kwargs)
    lab.legal_choices = counting  # type: ignore[method-assign]
    drawn = lab.legal_sample(state, state.turn, "suspect", 24, random.Random(3))
    assert listed[0] == 0 and drawn is not None and len({_key(a) for a in drawn}) == len(drawn) == 24
    again = lab.legal_sample(state, state.turn, "suspect", 24, random.Random(3), tries=0)
    assert listed[0] == 1 and again is not None and len({_key(a) for a in again}) == 24
    for args in drawn + again:
        assert ref.completions(state, state.turn, "suspect", args, None), args
