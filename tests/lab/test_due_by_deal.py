"""A due move whose kind the hidden deal decides (issue 22): Clue's player asked about a
suggestion says "cannot" or shows a card, as their hand says, not the first due kind."""

from __future__ import annotations

import random

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import STUCK, _due, play_game, seat_names
from ruleslawyer.spec.machine import Play
from ruleslawyer.spec.loader import load_rules

HANDS = {"P1": ["scarlet", "rope", "kitchen", "study", "lounge", "hall"],
         "P2": ["mustard", "white", "dagger", "wrench", "ballroom", "library"],
         "P3": ["green", "peacock", "candlestick", "lead-pipe", "conservatory", "billiard-room"]}
ENVELOPE = ["plum", "revolver", "dining-room"]


def _after_suggestion(suspect: str, weapon: str, room: str):
    rules = load_rules("clue", variant="3p")
    lab = Lab(rules)
    players = seat_names(3)
    world = {c: f"hand:{p}" for p, cards in HANDS.items() for c in cards}
    world.update({c: "envelope" for c in ENVELOPE})
    state = lab.machine.start(players, "P1")
    out = lab.machine.play(state, Play("suggest", "P1", {"suspect": suspect, "weapon": weapon, "room": room}))
    assert not out.violations
    return lab, out.state, world


@pytest.mark.parametrize("cards,kind", [
    (("plum", "revolver", "dining-room"), "cannot"),    # P2 holds none of them
    (("white", "revolver", "dining-room"), "show"),     # P2 holds Mrs. White
])
def test_the_player_asked_answers_as_their_hand_says(cards, kind):
    lab, state, world = _after_suggestion(*cards)
    assert {k for _p, k in lab.due(state)} == {"cannot", "show"}   # both are due from P2
    bots = {p: b for p, b in zip(seat_names(3), parse_bots("random", 3, list(lab.rules.moves)))}
    play = _due(lab, state, bots, world, random.Random(0), lab.machine.deal(seat_names(3)), {})
    assert play is not False and play.actor == "P2" and play.kind == kind
    if kind == "show":
        assert play.args.get("card") == "white"   # the one named card P2 holds


def test_simulated_clue_games_are_never_stuck_and_check_clean():
    rules = load_rules("clue", variant="4p")
    lab = Lab(rules)
    bots = parse_bots("random:accuse=0.02", 4, list(rules.moves))
    for index in range(3):
        rec = play_game(lab, bots, 3, index, 200, keep_log=True, track=False)
        assert rec.end != STUCK, rec.log
        assert rec.kinds.get("suggest", 0) > 0 and rec.kinds.get("show", 0) > 0, rec.kinds
        report = check_text(rec.log, f"<clue {index}>")
        assert report.status == 0, rec.log + report.format_text()
