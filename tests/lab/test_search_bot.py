"""Issue 23: the search bot (determinised deals, greedy playouts, a budget in playouts)."""

from __future__ import annotations

import pytest

from ruleslawyer.checker.cli import main
from ruleslawyer.lab.bots import BotSpecError, parse_bots
from ruleslawyer.lab.search import SearchBot
from ruleslawyer.spec.loader import load_rules


def test_its_parameters_read_back_and_bad_ones_are_usage_errors(capsys):
    rules = load_rules("perfect-alibi")
    [bot] = parse_bots("search:iterations=6;floor=0.3;width=2;choices=6;forbid=move.via == 'final'", 1, rules=rules)
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.floor, bot.width, bot.choices) == (6, 0.3, 2, 6)
    [again] = parse_bots(bot.spec(), 1, rules=rules)
    assert again.spec() == bot.spec()
    for spec, words in [("search:iterations=0", "from 1"), ("search:iterations=2.5", "whole number"),
                        ("search:floor=2", "at most 1"), ("search:depth=3", "iterations=N"),
                        ("search:iterations=x", "a number"), ("search:race=x", "a number"),
                        ("search:moves=0", "from 1"), ("search:race=11", "from 0 to 10"),
                        ("search:choices=0", "from 1"), ("search:choices=5001", "to 5,000")]:
        with pytest.raises(BotSpecError, match=words):
            parse_bots(spec, 1, rules=rules)
        status = main(["simulate", "perfect-alibi", "--games", "1", "--bots", spec])
        text = capsys.readouterr()
        assert status == 2 and "error[RL170]" in text.out + text.err


@pytest.mark.heavy
def test_the_budget_is_counted_in_playouts():
    """One decision weighed with iterations=2 and two candidates (the greedy move, the claim) plays
    1 deal x 2 candidates; with floor=0.3 a decision is weighed when a claim has a chance of 0.3 or
    more (greedy, which values every question, seldom leaves a claim at even chances or better)."""
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game

    rules = load_rules("perfect-alibi", variant="3p")
    lab = Lab(rules)
    bots = parse_bots("search:iterations=2;floor=0.3;choices=4,greedy", 3, rules=rules)
    bot, choose = bots[0], bots[0].choose

    class Weighed(Exception):
        """The first decision weighed: the rest of its game counts nothing more."""

    def stop_once_weighed(turn):
        play = choose(turn)
        if bot.searched:
            raise Weighed
        return play

    bot.choose = stop_once_weighed  # type: ignore[method-assign]
    # Games of seed 11 until one decision is weighed (at most six: one in three or so weighs one),
    # stopped right after it: the count is per decision weighed, and one is enough to tell 2
    # playouts from any other number; the same budget is counted again over every bundled game
    # in test_every_game.py.  (choices=4: four questions valued a decision, a cheaper game.)
    for index in range(6):
        try:
            play_game(lab, bots, 11, index, 200, track=False)
        except Weighed:
            break
    assert bot.searched == 1 and bot.playouts == 2 * bot.searched


def test_race_and_moves_read_back():
    rules = load_rules("lady-alice")
    [bot] = parse_bots("search:moves=3;race=0.5", 1, rules=rules)
    assert (bot.moves, bot.race) == (3, 0.5)
    assert parse_bots(bot.spec(), 1, rules=rules)[0].spec() == bot.spec()
    for spec, words in [("search:race=-1", "from 0 to 10"), ("search:moves=0", "from 1"),
                        ("search:race=nan", "from 0 to 10")]:
        with pytest.raises(BotSpecError, match=words):
            parse_bots(spec, 1, rules=rules)


def test_without_the_race_and_risky_claims_it_plays_greedy_games():
    """race=0 and floor=1 switch every search off: the same games as greedy's, move for move
    (greedy at the search bot's seat drawing its sample among the legal choices, as the search
    bot does)."""
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game

    rules = load_rules("lady-alice", variant="3p")
    lab = Lab(rules)
    for index in range(2):
        a = play_game(lab, parse_bots("search:race=0;floor=1,greedy", 3, rules=rules), 5, index, 300,
                      keep_log=True, track=False)
        greedy = parse_bots("greedy", 3, rules=rules)
        greedy[0] = parse_bots("greedy", 1, rules=rules)[0]  # a seat of its own
        greedy[0].legal_sample = True
        b = play_game(lab, greedy, 5, index, 300, keep_log=True, track=False)
        assert a.log == b.log


def test_the_same_decision_for_two_true_deals_the_bot_cannot_tell_apart():
    """The bot at P1 of a Lady Alice 3p game: at each of its turns, the true deal with P2's and P3's
    evidence swapped fits every fact P1 saw (the verdicts count the union of the hands); the bot,
    given the same stream, makes the same move in both, although the game's record of facts (each
    player's own evidence, seen by that player) differs."""
    import random

    from ruleslawyer.lab.bots import Turn
    from ruleslawyer.lab.engine import Lab, start_facts
    from ruleslawyer.lab.game import play_game

    rules = load_rules("lady-alice", variant="3p")
    lab = Lab(rules)
    turns = []

    class Recording(SearchBot):
        def choose(self, turn):
            turns.append((turn.state, list(turn.kinds), tuple(turn.history), turn.rng.getstate(),
                          dict(turn.world), turn.view, turn.deal))
            return SearchBot.choose(self, turn)

    greedy = parse_bots("greedy", 1, rules=rules)[0]
    for index in range(2):
        play_game(lab, [Recording(), greedy, greedy], 3, index, 300, track=False)
    assert turns
    checked = weighed = 0
    for state, kinds, history, rng_state, world, view, deal in turns[::2]:
        if state.turn != "P1" or view is None:
            continue
        a_cards = {c: z for c, z in world.items() if z.endswith(":P2") or z.endswith(":P3")}
        other = dict(world)
        for c, z in a_cards.items():
            other[c] = z[:-2] + ("P3" if z.endswith("P2") else "P2")
        start = len(start_facts(deal, world))
        mine = [f for f in history if f.seen_by("P1")]
        assert all(f.holds(other) for f in mine)  # P1 cannot tell the two deals apart
        other_history = tuple(start_facts(deal, other)) + history[start:]
        assert other_history != history
        plays = []
        for w, h in ((world, history), (other, other_history)):
            bot = SearchBot()
            rng = random.Random()
            rng.setstate(rng_state)
            plays.append(bot.choose(Turn(lab, state, "P1", kinds, w, rng, deal, view, history=h)))
            weighed += bot.raced + bot.searched
        a, b = plays
        assert (a.kind, {k: v for k, v in a.args.items() if k != "smiles"}) == \
            (b.kind, {k: v for k, v in b.args.items() if k != "smiles"})
        checked += 1
    assert checked and weighed


def test_the_race_budget_is_counted_in_solver_counts():
    """moves=2, iterations=2 on Lady Alice 3p (no one out: greedy claims only when sure): each question
    weighed costs 2 deals x 2 candidates x 3 counts (the bot's own, and each opponent's)."""
    from ruleslawyer.lab.engine import Lab
    from ruleslawyer.lab.game import play_game

    rules = load_rules("lady-alice", variant="3p")
    lab = Lab(rules)
    bots = parse_bots("search:iterations=2;moves=2;floor=1,greedy", 3, rules=rules)
    play_game(lab, bots, 4, 0, 300, track=False)
    assert bots[0].raced > 0 and bots[0].race_counts == 12 * bots[0].raced and bots[0].playouts == 0
