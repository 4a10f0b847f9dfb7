"""Issue 23: the search bot (determinised deals, greedy playouts, a budget in playouts)."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.cli import main
from ruleslawyer.lab.bots import BotSpecError, parse_bots
from ruleslawyer.lab.search import SearchBot
from ruleslawyer.spec.loader import load_rules


def test_its_parameters_read_back_and_bad_ones_are_usage_errors(capsys):
    rules = load_rules("perfect-alibi")
    [bot] = parse_bots("search:iterations=6;floor=0.3;width=2;forbid=move.via == 'final'", 1, rules=rules)
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.floor, bot.width) == (6, 0.3, 2)
    [again] = parse_bots(bot.spec(), 1, rules=rules)
    assert again.spec() == bot.spec()
    for spec, words in [("search:iterations=0", "from 1"), ("search:iterations=2.5", "whole number"),
                        ("search:floor=2", "at most 1"), ("search:depth=3", "iterations=N"),
                        ("search:iterations=x", "a number")]:
        with pytest.raises(BotSpecError, match=words):
            parse_bots(spec, 1, rules=rules)
        status = main(["simulate", "perfect-alibi", "--games", "1", "--bots", spec])
        text = capsys.readouterr()
        assert status == 2 and "error[RL170]" in text.out + text.err


@pytest.mark.heavy
def test_the_budget_is_counted_in_playouts():
    """One decision weighed with iterations=2 and two candidates (the greedy move, the claim) plays
    1 deal x 2 candidates; with floor=0.5 a decision is weighed only when a claim is at least even."""
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game

    rules = load_rules("perfect-alibi", variant="3p")
    lab = Lab(rules)
    bots = parse_bots("search:iterations=2;floor=0.5,greedy", 3, rules=rules)
    for index in range(3):
        play_game(lab, bots, 11, index, 200, track=False)
    assert bots[0].searched > 0 and bots[0].playouts == 2 * bots[0].searched
