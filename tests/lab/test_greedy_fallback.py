"""Greedy's fallback to the informed bot's weighing (when none of the choices it drew is legal)
the cheaper way against the way first written (``InformedBot.reference_weighing``: every choice
enumerated completed from the deal, each outcome's facts read on their own by
``Lab.seen_facts``, every move's worlds counted anew): the very same game, move for move, and
every value the weighing gives the same.

Perfect Alibi at 3 and 4 players, where greedy falls back most (few of its questions are legal:
the tile taken decides the target and the kind; the fallbacks are counted, and asserted to
happen), and Lady Alice at 3 players (its own observations and candidates). Each log checks
clean."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab.bots import GreedyBot, InformedBot
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.loader import load_rules


@pytest.mark.parametrize("game,variant,seed", [("perfect-alibi", "3p", 1), ("perfect-alibi", "4p", 2),
                                               ("lady-alice", "3p", 1)])
@pytest.mark.heavy
def test_the_fallback_weighs_as_the_reference(game, variant, seed, monkeypatch):
    rules = load_rules(game, variant=variant)
    seats = int(rules.param("players"))
    lab = Lab(rules)
    weighed: dict[bool, list[float]] = {True: [], False: []}
    fallbacks = {True: 0, False: 0}
    original_choose, original_information = InformedBot.choose, InformedBot.information

    def choose(self, turn):
        if type(self) is GreedyBot:
            fallbacks[self.reference_weighing] += 1
        return original_choose(self, turn)

    def information(self, turn, play):
        got = original_information(self, turn, play)
        weighed[self.reference_weighing].append(got)
        return got
    monkeypatch.setattr(InformedBot, "choose", choose)
    monkeypatch.setattr(InformedBot, "information", information)
    logs = {}
    for reference in (True, False):
        bot = GreedyBot()
        bot.reference_weighing = reference
        logs[reference] = play_game(lab, [bot] * seats, seed, 0, 400, keep_log=True, track=False).log
    assert logs[False] == logs[True]
    assert weighed[False] == pytest.approx(weighed[True], abs=1e-9)
    assert fallbacks[False] == fallbacks[True]
    if game == "perfect-alibi":
        assert fallbacks[False] > 0 and any(v > 0 for v in weighed[False])
    report = check_text(logs[False], f"<{game}>")
    assert report.status == 0, logs[False] + report.format_text()
