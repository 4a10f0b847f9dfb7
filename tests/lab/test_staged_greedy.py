"""The greedy bot on the staged listing of the legal choices (``advice.LEGAL_SAMPLE``, off by
default: measured slower, see benchmarks/README.md), and its ``choices=N`` parameter.

* ``greedy:choices=N`` is read (and written back by ``spec()``); a bad N is refused with its column;
* the advice's sample of a kind with more choices than valued holds legal choices only (each has a
  completion listed by ``Lab.completions``, whose search is tested against the
  reference in test_completions_reference.py; the sample finds it by ``Lab.draw``), as many as asked or every legal one, flagged as sampled;
* in a Perfect Alibi game, greedy never falls back to the informed bot's way because every choice
  of its sample is illegal, either with its own fallback (``bots.FALLBACK_CHOICES`` legal choices
  valued when none of its sample was legal; off by default: weaker) or with the legal sample,
  where with neither it does (counted calls whose advice found no legal choice).
"""

from __future__ import annotations

import random

import pytest

from ruleslawyer.lab import advice, bots
from ruleslawyer.lab.bots import GREEDY_CHOICES, BotSpecError, GreedyBot, InformedBot, parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules

from .test_draw import game_states


def test_greedy_choices_parsed_and_refused():
    a, b, c = parse_bots("greedy:choices=8,greedy:risk=0.8;choices=4,greedy", 3)
    assert (a.choices, b.choices, c.choices) == (8, 4, GREEDY_CHOICES)
    assert (a.spec(), b.spec(), c.spec()) == ("greedy:choices=8", "greedy:risk=0.8;choices=4", "greedy")
    assert parse_bots(f"greedy:choices={GREEDY_CHOICES}", 1)[0].spec() == "greedy"
    for bad, column in (("greedy:choices=0", 0), ("random,greedy:choices=x", 7), ("greedy:choices=1.5", 0),
                        ("greedy:choice=3", 0), ("greedy:choices=5001", 0), ("greedy:choices=", 0)):
        with pytest.raises(BotSpecError) as err:
            parse_bots(bad, 3)
        assert err.value.column == column, bad


@evaluations()
def test_the_advice_samples_legal_choices_only(monkeypatch):
    lab = Lab(load_rules("perfect-alibi", variant="4p"))
    states, _world = game_states(lab, 12)
    state = next(s for s in states if "ask" in lab.open_kinds(s, s.turn))
    actor = state.turn
    every = list(lab.mover_choices(state, actor, "ask", limit=10 ** 6))
    legal = {repr(sorted(a.items())) for a in every if lab.completions(state, actor, "ask", a, None)}
    assert 0 < len(legal) < len(every) / 4
    monkeypatch.setattr(advice, "LEGAL_SAMPLE", True)
    for size in (4, 24, len(every) // 2):
        got, cut = advice._choices(lab, state, actor, "ask", size, random.Random(size))
        keys = [repr(sorted(a.items())) for a in got]
        assert len(set(keys)) == len(keys) == min(size, len(legal)) and set(keys) <= legal
        assert cut == (size <= len(legal))


def test_greedy_no_longer_falls_back_in_a_perfect_alibi_game(monkeypatch):
    lab = Lab(load_rules("perfect-alibi", variant="3p"))
    fallbacks = [0]
    original = InformedBot.choose

    def counting(self, turn):
        advice_made = turn.cache.get("advice")
        if type(self) is GreedyBot and advice_made is not None and advice_made.choices == 0:
            fallbacks[0] += 1  # none of the choices drawn was legal (not: the budget of counts spent)
        return original(self, turn)
    monkeypatch.setattr(InformedBot, "choose", counting)
    found = {}
    # (greedy's own fallback to a few legal choices, the legal sample and the staged listing)
    for name, fallback, flag in (("neither", 0, False), ("fallback", 2, False), ("legal sample", 0, True)):
        monkeypatch.setattr(bots, "FALLBACK_CHOICES", fallback)
        monkeypatch.setattr(advice, "LEGAL_SAMPLE", flag)
        monkeypatch.setattr(bots, "STAGED_FALLBACK", flag)
        fallbacks[0] = 0
        rec = play_game(lab, parse_bots("greedy:choices=4", 3), 1, 0, 300, track=False)
        assert rec.moves > 0
        found[name] = fallbacks[0]
    assert found["fallback"] == found["legal sample"] == 0 < found["neither"], found
