"""The bundled overlays that change more than values: Lady Alice for six
players (a new variant) and for four with one category removed and another
doubled (a variant changed).  Each validates, simulated games on it check
clean, and its deal counts agree with a count by hand."""

from __future__ import annotations

import json
from itertools import permutations
from math import comb, factorial

import pytest

from ruleslawyer.checker.check import check_text
from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.solver.engines import initial
from ruleslawyer.spec.deal import build_deal
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.loader import load_rules, validate_file

from ..conftest import RULES, cli
from .helpers import PLAYERS

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
HOUSE = {"six-players": "6p", "swap-category": "4p"}


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_it_validates(name):
    assert validate_file(str(RULES / "house" / f"{name}.yaml")) == []
    done = cli("rules", "validate", str(RULES / "house" / f"{name}.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_six_players_is_a_new_variant_with_its_canonical_name():
    done = cli("rules", "show", "lady-alice", "--house", "six-players", "--variant", "6p")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("lady-alice[players=6]+six-players")
    shown = json.loads(cli("rules", "show", "lady-alice", "--house", "six-players", "--variant", "6p",
                           "--format", "json").stdout)
    assert shown["name"] == "lady-alice[players=6]+six-players" and shown["variant"] == "6p"
    players = shown["parameters"]["players"]
    assert players["value"] == 6 and players["set_by"] == "variant 6p" and "six-players.yaml:" in players["at"]
    # By the player count too; the base's variants stay as they were.
    assert load_rules("lady-alice", variant="6", house=["six-players"]).variant == "6p"
    assert load_rules("lady-alice", variant="5p", house=["six-players"]).param("players") == 5
    with pytest.raises(DiagnosticError):
        load_rules("lady-alice", variant="6p")


def test_six_players_numbers():
    rules = load_rules("lady-alice", variant="6p", house=["six-players"])
    assert {n: rules.param(n) for n in ("players", "evidence_per_category", "counters_per_space", "every_smile",
                                        "doubled_category_bonus")} == \
        {"players": 6, "evidence_per_category": [2, 2, 1, 1], "counters_per_space": 6, "every_smile": 4,
         "doubled_category_bonus": 2}
    # The bonus step is replaced where it stood: the order of the steps is the rulebook's.
    base = load_rules("lady-alice", variant="5p")
    assert [s.id for s in rules.scoring.steps] == [s.id for s in base.scoring.steps]
    assert "len([pair" in next(s for s in rules.scoring.steps if s.id == "VII-5p").expr.source


def test_swap_category_changes_the_4p_variant():
    rules = load_rules("lady-alice", house=["swap-category"])
    assert rules.canonical_name == "lady-alice[players=4]+swap-category"
    assert {n: rules.param(n) for n in ("players", "evidence_per_category", "every_smile", "accusation_size",
                                        "counters_per_space", "doubled_category_bonus")} == \
        {"players": 4, "evidence_per_category": [2, 1, 1, 0], "every_smile": 3, "accusation_size": 3,
         "counters_per_space": 4, "doubled_category_bonus": 2}
    assert rules.params["evidence_per_category"].set_by == "variant 4p"
    deal = build_deal(rules, PLAYERS[4])
    # Every category may be the doubled one and every other the removed one.
    assert set(deal.decks[0].constraints[0].patterns) == set(permutations((2, 1, 1, 0)))
    # Only the 4p variant is changed.
    assert load_rules("lady-alice", variant="5p", house=["swap-category"]).param("evidence_per_category") == \
        [2, 1, 1, 1]


@pytest.mark.parametrize("name,sets,deals", [
    # By hand.  Six players: which two categories give two (C(4,2) = 6), two clues of eight from each of
    # those, one from each other; the six pieces handed to six players.
    ("six-players", comb(4, 2) * comb(8, 2) ** 2 * 8 ** 2, comb(4, 2) * comb(8, 2) ** 2 * 8 ** 2 * factorial(6)),
    # Four players: which category gives two and which none (4 x 3 = 12), C(8,2) x 8 x 8; in 4! ways.
    ("swap-category", 4 * 3 * comb(8, 2) * 8 * 8, 4 * 3 * comb(8, 2) * 8 * 8 * factorial(4)),
])
def test_deal_counts_agree_with_a_count_by_hand(name, sets, deals):
    rules = load_rules("lady-alice", variant=HOUSE[name], house=[name])
    deal = build_deal(rules, SIX[:rules.param("players")])
    assert initial(deal).solution_count() == sets
    assert deal.deals() == deals
    assert [z.size for z in deal.zones] == [1] * rules.param("players") + [32 - rules.param("players")]


@pytest.mark.parametrize("name,bots", [("six-players", "random:accuse=0.05"), ("swap-category", "random:accuse=0.05"),
                                       ("swap-category", "informed:0.5,random")])
def test_simulated_games_check_clean(name, bots):
    rules = load_rules("lady-alice", variant=HOUSE[name], house=[name])
    lab = Lab(rules)
    seats = rules.param("players")
    for index in range(2 if "informed" in bots else 4):
        rec = play_game(lab, parse_bots(bots, seats, list(rules.moves)), 11, index, 150, keep_log=True,
                        track="informed" in bots)
        assert f"house: [{name}]" in rec.log
        report = check_text(rec.log, f"<game {index}>")
        assert report.status == 0, rec.log + report.format_text()
        assert rec.moves > 0


def test_simulate_command_on_six_players():
    done = cli("simulate", "lady-alice", "--variant", "6p", "--house", "six-players", "--games", "3", "--seed", "2",
               "--format", "json")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr


def test_six_players_pays_the_doubled_bonus_for_each_doubled_category_found():
    from ruleslawyer.spec.machine import Machine, Play
    from ruleslawyer.spec.scoring import score

    rules = load_rules("lady-alice", variant="6p", house=["six-players"])
    machine = Machine(rules)
    state = machine.start(SIX, "Ann")

    def play(kind: str, actor: str, **args) -> None:
        nonlocal state
        out = machine.play(state, Play(kind, actor, args))
        assert out.violations == [], (kind, actor, [v.message for v in out.violations])
        state = out.state

    # Two suspects and two places are evidence (the doubled categories), one time and one object.
    solution = ["kingsley", "baker", "waterloo-station", "place-2", "7-00", "compass"]
    play("suspect", "Ann", clues=["baker", "place-2", "time-3", "object-2"], smiles=2)
    for clue, value in (("kingsley", 1), ("baker", 1), ("waterloo-station", 2), ("place-2", 2)):
        play("place", "Ben", clue=clue, value=value)
        for p in SIX[2:] + SIX[:1]:
            play("pass", p)
    play("accuse", "Ben", clues=["kingsley", "waterloo-station", "7-00", "compass"], smiles=4)
    assert state.ended
    table = score(machine, state, solution)
    # By hand, Ben: counters 1 + 1 + 2 + 2 (VI), not on every correct clue (VII: 0), both clues of both
    # doubled categories (2 x 2), no correct suspicion (VIII: 0), the correct accusation (IX: 3).
    assert dict(table.breakdown("Ben")) == {"VI": 6, "VII": 0, "VII-5p": 4, "VIII": 0, "IX": 3}
    assert table.scores["Ben"] == 13 and table.winners == ("Ben",)
