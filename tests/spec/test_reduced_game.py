"""Every kind of fact of a deduction game with hands, assistants and lies is
expressible in the rule language, and the engines agree on what it leaves.

``data/reduced-alibi.yaml`` declares a reduced Perfect Alibi (8 cards, 3
players, a Priest, a Cook and a Captain, Rival tiles as a second deck) in
the rule language only; the log below is played from a deal fixed by hand.
The oracle is the plain enumeration of every (deal, Rival tiles) world
(``solver.brute``); Z3, the numpy enumeration and the subset dynamic
program must agree with it for every viewpoint, and the true deal must
always be among the worlds left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver import dp
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import full_knowledge
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.facts import member

DATA = Path(__file__).parent / "data"

# The deal, by hand: the card under the board, the hands, the face-up card, the Rival tiles.
TRUE = {"spa-12": "missing", "bar-6": "hand:Ann", "cafe-12": "hand:Ann", "bar-12": "hand:Bob",
        "deck-6": "hand:Bob", "cafe-6": "hand:Cat", "spa-6": "hand:Cat", "deck-12": "public",
        "cook": "tile:Ann", "priest": "tile:Bob", "captain": "tile:Cat"}

HEAD = """rules: reduced-alibi.yaml
house: [reduced-alibi-rival.yaml]
players: [Ann, Bob, Cat]
private:
  hands: {Ann: [Bar 6, Restaurant 12], Bob: [Bar 12, Deck 6], Cat: [Restaurant 6, Solarium 6]}
  rival: {Ann: Cook, Bob: Priest, Cat: Captain}
moves:
  - {choose: Ann, assistant: Priest}
  - {choose: Bob, assistant: Cook}
  - {choose: Cat, assistant: Captain}
"""
# Each answer worked out from TRUE by hand (count of the target's cards matching):
MOVES = """\
  - {ask: Ann, target: Bob, asked: [Bar, Deck], answer: 1}              # true 2; Bob's tile is the Priest: a lie
  - {ask: Cat, target: Ann, asked: [Restaurant], answer: 1}             # true 1
  - {ask: Bob, target: Cat, asked: [Restaurant, Solarium], answer: 2, drawn: Restaurant 6}  # the Cook draws
  - {ask: Cat, target: Bob, asked: [Bar], answer: 1}                    # true 1
  - {ask: Ann, target: Cat, asked: [Bar], answer: 0}                    # the Priest's private answer, no card
  - {ask: Bob, target: Ann, asked: [Bar, Restaurant], answer: 3, drawn: Bar 6}  # true 2; Ann's tile is the Cook: a lie
  - {ask: Ann, target: Cat, asked: [Restaurant, Solarium], answer: 2, shown: Solarium 6}  # seen by Ann and the Captain
  - {guess: Cat, card: Bar 6}                                           # wrong
"""


def game():
    log, rules = parse_log_text(HEAD + MOVES, str(DATA / "game.yaml"))
    return replay(log, rules)


def test_the_log_is_clean_and_its_facts_hold_in_the_true_deal():
    rep = game()
    assert rep.reporter.diagnostics == []
    facts = rep.facts()
    assert all(f.holds(TRUE) for f in facts)
    kinds = {
        "private answer": any(f.viewers == {"Ann", "Bob"} for f in facts),
        "public bound from whether a card was shown": any(f.viewers is None and (f.text or "").startswith("whether")
                                                          for f in facts),
        "lie, conditioned on the target's Rival tile": any({"tile:Bob", "hand:Bob"} <= f.zones() for f in facts),
        "shown to the asker and the Captain": any(f.viewers == {"Ann", "Cat"} and "showed" in (f.text or "")
                                                  for f in facts),
        "the Cook's draw": any(f.viewers == {"Bob"} and "drew" in (f.text or "") for f in facts),
        "wrong guess": any(f.viewers == {"Cat"} and f.zones() == {"missing"} for f in facts),
    }
    assert all(kinds.values()), kinds


VIEWS = [Viewpoint.spectator(), Viewpoint.omniscient(), *(Viewpoint.of_player(p) for p in ("Ann", "Bob", "Cat"))]


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.name)
def test_z3_numpy_and_the_dynamic_program_agree_with_plain_enumeration(view):
    rep = game()
    facts = [f for f in rep.facts() if view.sees(f)]
    brute = BruteKnowledge.initial(rep.deal).with_facts(facts)
    assert brute.consistent()
    z3 = Z3Knowledge.initial(rep.deal).with_facts(facts)
    assert z3.consistent() and z3.status() == brute.status()
    zones = brute.zone_probabilities()
    for card, by_zone in zones.items():
        for zone, p in by_zone.items():
            assert z3.possible(member(card, {zone}) == 1) == (p > 0), (card, zone)
    for engine in (full_knowledge(rep.deal, facts), dp.DPKnowledge.initial(rep.deal).with_facts(facts)):
        assert engine.count() == brute.count()
        assert engine.status() == brute.status()
        assert engine.probabilities() == pytest.approx({c: float(p) for c, p in brute.probabilities().items()})
    # the true deal is among the worlds left
    assert all(f.holds(TRUE) for f in facts)
    assert brute.status()["spa-12"] in ("in", "open")
