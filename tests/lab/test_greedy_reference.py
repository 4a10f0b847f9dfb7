"""The greedy bot as it plays (completions by the search that prunes; its claims, while other
moves are open and it claims only when certain, weighed only for whether they are certain)
against the reference (``Lab(reference=True)`` and ``GreedyBot(reference=True)``: every
combination of outcomes checked in turn, every claim valued in full by the advice): the very
same game, move for move, on every rule file in ``rules/`` and house rules, every log
checking clean.

One game per case (the game of index 0, played whole): each rule file at 3 players, and of
the house rules ``no-repeat`` (Lady Alice, 4 players), the one that takes moves away from a
bot (its ``allows``) and so changes which claims and questions greedy may make.  Lady Alice
at 5 players adds no rule of its own: its seats and outcomes are compared move by move in
test_completions_reference.py.  The certain-claim test plays one game of each game whose
claims close it early (Lady Alice and Perfect Alibi at 3 players): of the games seed 7
plays, a short one where certain claims are met (asserted)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab import advice
from ruleslawyer.lab.bots import SILENT_CHOICES, GreedyBot
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.loader import load_rules, rules_dir

GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))
CASES = [(g, "3p", []) for g in GAMES] + [("lady-alice", "4p", ["no-repeat"])]


class _Compared(GreedyBot):
    """Greedy that, at each decision where it weighs its claims the cheaper way, first works out
    the claim the reference would make: the advice's every choice valued in full (the same
    draws of choices: a copy of the decision's random state), its likeliest claim when its
    chance is 1; and the claim the cheaper way finds, from another copy; both kept."""

    pairs: list = []

    def choose(self, turn):  # type: ignore[no-untyped-def]
        lab = turn.lab
        claiming = [k for k in turn.kinds if lab.kinds[k].claims]
        others = [k for k in turn.kinds if not lab.kinds[k].claims]
        if turn.view is not None and turn.view.consistent() and claiming and others \
                and turn.kinds == others + claiming:
            state = turn.rng.getstate()
            copy = dataclasses.replace(turn, rng=random.Random(), cache={})
            copy.rng.setstate(state)
            moves = advice.value_moves(copy, max_choices=self.choices, silent_choices=SILENT_CHOICES).moves
            claims = [m for m in moves if m.right is not None and self.allows(turn, m.kind, m.args)]
            best = max(claims, key=lambda m: m.right or 0.0, default=None)
            expected = (best.kind, best.args) if best is not None and best.right >= 1 - 1e-9 else None
            copy = dataclasses.replace(turn, rng=random.Random(), cache={})
            copy.rng.setstate(state)
            advice.value_moves(copy, max_choices=self.choices, silent_choices=SILENT_CHOICES, kinds=others)
            type(self).pairs.append((expected, self._certain_claim(copy, claiming, advice.MAX_COUNTS)))
        return super().choose(turn)


@pytest.mark.parametrize("game,variant,house", CASES)
@pytest.mark.heavy
def test_greedy_plays_the_games_of_the_reference(game, variant, house, monkeypatch):
    """The same games when neither runs out of solver counts (the cheaper way spends none of
    the advice's budget on claims: where the reference's budget ran out, it values more of the
    other moves); the claim found at each decision the one the reference would make."""
    monkeypatch.setattr(advice, "MAX_COUNTS", 10 ** 9)
    rules = load_rules(game, variant=variant, house=house)
    seats = int(rules.param("players"))
    logs = {}
    for reference in (True, False):
        lab = Lab(rules, reference=reference)
        bot = GreedyBot(reference=reference)
        logs[reference] = [play_game(lab, [bot] * seats, 3, i, 400, keep_log=True, track=False).log
                           for i in range(1)]
    assert logs[False] == logs[True]
    for i, log in enumerate(logs[False]):
        report = check_text(log, f"<{game} {i}>")
        assert report.status == 0, log + report.format_text()


@pytest.mark.parametrize("game,index", [("lady-alice", 1), ("perfect-alibi", 2)])
@pytest.mark.heavy
def test_the_certain_claim_is_the_one_the_advice_ranks_first(game, index, monkeypatch):
    """At every decision of greedy games (the shortcut for a knowledge that pins the solution
    turned off, so that certain claims are met), the claim the cheaper way finds is the one
    the advice, valuing every choice, would make (or none, both)."""
    monkeypatch.setattr(advice, "MAX_COUNTS", 10 ** 9)
    rules = load_rules(game, variant="3p")
    lab = Lab(rules)
    _Compared.pairs = []
    bot = _Compared()
    monkeypatch.setattr(bot, "certain_claim", lambda turn: None)  # every claim through the advice
    play_game(lab, [bot] * 3, 7, index, 400, track=False)
    assert _Compared.pairs
    assert [e for e, _f in _Compared.pairs] == [f for _e, f in _Compared.pairs]
    assert any(e is not None for e, _f in _Compared.pairs)  # certain claims were met
