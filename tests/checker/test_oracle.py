"""Property tests whose oracle is not the machine under test.

* Consistency: random games with some verdicts changed are checked; which
  verdicts no deal fits is decided by a plain enumeration of the deal
  (``tests/checker/plain.py``), from facts the test writes itself from the
  log's suspicions and accusations.
* Turn order: a player who is out never has the turn while the game goes
  on.  A mutation of the machine's turn order that stops skipping players
  who are out makes this property fail (shown by the last test).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.checker.check import check_text
from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.spec.deal import build_deal, pin
from ruleslawyer.spec.facts import Fact, count
from ruleslawyer.spec.machine import Machine, Play

from . import plain
from .games import rules_for, simulate

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONSISTENCY = {"LA310", "LA303"}


@FAST
@given(st.sampled_from(["3p", "4p", "5p"]), st.integers(0, 10_000), st.data())
def test_which_verdicts_no_deal_fits_is_what_plain_enumeration_says(variant, seed, data):
    game = simulate(variant, seed, max_moves=40, solve_rate=0.0)
    verdicts = [i for i, p in enumerate(game.plays) if "smiles" in p.args and 0 < p.args["smiles"]]
    assume(verdicts)
    plays = list(game.plays)
    every = rules_for(variant).param("every_smile")
    for i in data.draw(st.lists(st.sampled_from(verdicts), min_size=1, max_size=3, unique=True)):
        p = plays[i]
        wrong = [n for n in range(1, min(len(p.args["clues"]), every)) if n != p.args["smiles"]]
        if wrong:
            plays[i] = replace(p, args={**p.args, "smiles": data.draw(st.sampled_from(wrong))})
    text = replace(game, plays=plays).log(end=False)
    log, rules = parse_log_text(text, "game.yaml")
    # The oracle: facts written here from the log, accepted in order when some deal fits them.
    deal = build_deal(rules, log.header.players)
    accepted = [pin(card, f"hand:{p}", None) for p, card in game.evidence.items()]
    hands = [f"hand:{p}" for p in log.header.players]
    expected = set()
    for i, logged in enumerate(log.moves):
        if "smiles" not in logged.play.args:
            continue
        fact = Fact(count(logged.play.args["clues"], hands) == logged.play.args["smiles"])
        if plain.solutions(deal, [*accepted, fact]):
            accepted.append(fact)
        else:
            expected.add(logged.position.line)
    report = check_text(text, "game.yaml")
    got = {d.position.line for d in report.diagnostics if d.code in CONSISTENCY}
    assert got == expected, report.format_text()


def out_has_the_turn(states) -> list[int]:
    """Indexes of the states (game still on, someone still in) where a player who is out has the turn."""
    return [i for i, s in enumerate(states) if not s.ended and s.active and s.turn in s.out]


ACCUSING = {"suspect": 1.0, "place": 1.0, "pass": 1.0, "accuse": 0.4}


@FAST
@given(st.sampled_from(["3p", "4p", "5p"]), st.integers(0, 10_000))
def test_a_player_who_is_out_never_has_the_turn(variant, seed):
    game = simulate(variant, seed, max_moves=80, solve_rate=0.0, weights=ACCUSING)
    assert out_has_the_turn(game.states) == []


class NoSkipping(Machine):
    """A mutant: the next player clockwise, whether out or not."""

    def env(self, state, actor=None, move=None):
        env = super().env(state, actor, move)
        players = state.players
        env["next_active"] = lambda p, step=1: players[(players.index(p) + step) % len(players)]
        return env


def test_the_turn_property_catches_a_turn_order_that_does_not_skip_players_who_are_out():
    caught = 0
    for seed in range(40):
        mutant = NoSkipping(rules_for("4p"))
        game = simulate("4p", seed, max_moves=80, solve_rate=0.0, weights=ACCUSING, machine=mutant)
        caught += bool(out_has_the_turn(game.states))
    assert caught > 0
