"""Greedy's fallback to the informed bot's weighing (when none of the choices it drew is legal)
the cheaper way against the way first written (``InformedBot.reference_weighing``: every choice
enumerated completed from the deal as it is found, each outcome's facts read on their own by
``Lab.seen_facts``, every move's worlds counted anew).

At every decision where greedy falls back, both ways from the same random state: the same
candidates (kind and mover's choices, in the same order) and the same value for each (the
random state set alike before each value: a move of more than 64 outcomes values a sample of
them).  The cheaper way completes only the candidate it makes from the deal (so the game goes on
with other draws than the reference's would): the move made has the mover's choices of one of
the candidates.  Perfect Alibi at 3 and 4 players, where greedy falls back most (few
of its questions are legal: the tile taken decides the target and the kind; the fallbacks are
counted and asserted to happen, with questions worth something), and Lady Alice at 3 players.
Each game's log checks clean."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab import bots
from ruleslawyer.lab.bots import GreedyBot, InformedBot
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.loader import load_rules


def _mover(lab, play):
    return play.kind, {p.name: play.args[p.name] for p in lab.kinds[play.kind].mover if p.name in play.args}


def _weighed(bot, turn, state, reference):
    """The candidates of the informed weighing and their values, the one way or the other."""
    lab = turn.lab
    bot.reference_weighing = reference
    try:
        copy = dataclasses.replace(turn, rng=random.Random(), cache={})
        copy.rng.setstate(state)
        if bot.certain_claim(copy) is not None:  # as InformedBot.choose: a certain claim first
            return []
        found = []
        for kind in turn.kinds:
            if not lab.kinds[kind].claims:
                found.extend(bot._candidates(copy, kind, bots.SCORED_CANDIDATES if lab.kinds[kind].may_score
                                             and lab.scores else bots.CANDIDATES))
        out = []
        for play in found:
            copy.rng.setstate(state)
            out.append((_mover(lab, play), bot.value(copy, play)))
        return out
    finally:
        bot.reference_weighing = False


@pytest.mark.parametrize("game,variant,seed", [("perfect-alibi", "3p", 1), ("perfect-alibi", "4p", 2),
                                               ("lady-alice", "3p", 1)])
@pytest.mark.heavy
def test_the_fallback_weighs_as_the_reference(game, variant, seed, monkeypatch):
    rules = load_rules(game, variant=variant)
    lab = Lab(rules)
    decisions = []
    original = InformedBot.choose

    def choose(self, turn):
        if type(self) is not GreedyBot:
            return original(self, turn)
        state = turn.rng.getstate()
        reference, cheaper = _weighed(self, turn, state, True), _weighed(self, turn, state, False)
        assert [c for c, _v in cheaper] == [c for c, _v in reference]
        assert [v for _c, v in cheaper] == pytest.approx([v for _c, v in reference], abs=1e-9)
        made = original(self, turn)
        decisions.append((cheaper, made))
        return made
    monkeypatch.setattr(InformedBot, "choose", choose)
    log = play_game(lab, [GreedyBot()] * int(rules.param("players")), seed, 0, 400, keep_log=True, track=False).log
    for weighed, made in decisions:  # the move made: one of the candidates, completed from the deal
        if weighed and made is not None and not lab.kinds[made.kind].claims:
            assert _mover(lab, made) in [c for c, _v in weighed], repr((_mover(lab, made), [c for c, _v in weighed]))
    if game == "perfect-alibi":
        assert decisions and any(v > 0 for weighed, _m in decisions for _c, v in weighed)
    report = check_text(log, f"<{game}>")
    assert report.status == 0, log + report.format_text()
