"""Three engines agree on generated Perfect Alibi games, for every viewpoint.

Games come from ``tests/checker/alibi_games.py`` (written from the rulebook,
not from the rule file), with and without the Rival variant, with the
Priest, the Cook, the Captain, the Psychiatrist, swaps of assistants, wrong
guesses and Rival lies; the log records the whole deal, so the true deal is
known.  For each viewpoint:

* the subset dynamic program (``solver.dp``, chosen by ``solver.engines``
  for these spaces) and Z3 agree on consistency, on which cards can be the
  missing alibi, and on which card can be in which zone;
* the true deal fits every fact the viewpoint sees, and the dynamic program
  leaves it possible;
* where it fits (a player's viewpoint in 3 and 4 players), a plain
  enumeration written here — every deal that puts the cards the viewpoint
  pins where they are pinned, the others everywhere else — gives the same
  count and the same exact probabilities.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from fractions import Fraction
from math import factorial
from pathlib import Path

import pytest

from ruleslawyer.checker.log import parse_log_text
from ruleslawyer.checker.replay import replay
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.facts import Atom, member

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.checker.alibi_games import play  # noqa: E402

GAMES = [(seed, n, rival) for seed, n, rival in itertools.product(range(3), (3, 4, 5), (False, True))]


def replayed(seed: int, n: int, rival: bool, turns: int = 14):
    text = play(100 + seed, n, turns=turns, rival=rival)
    log, rules = parse_log_text(text, str(ROOT / "examples" / "perfect-alibi" / "generated.yaml"))
    rep = replay(log, rules)
    assert [d.code for d in rep.reporter.errors] == [], text
    truth = {}
    for fact in rep.records:  # the log is a referee's: it records where every card lies
        atom = fact.formula
        (card, zones, _w), = atom.lin.terms
        truth[card] = next(iter(zones))
    for deck in rep.deal.decks:  # the cards it does not name lie in the one zone with room left (a box)
        room = {z.id for z in deck.zones if sum(1 for c in deck.cards if truth.get(c) == z.id) < z.size}
        for card in deck.cards:
            if card not in truth and len(room) == 1:
                truth[card] = next(iter(room))
    return rep, truth


def views(rep):
    return [Viewpoint.spectator(), *(Viewpoint.of_player(p) for p in rep.players)]


@pytest.mark.parametrize("seed,n,rival", GAMES)
def test_the_dynamic_program_and_z3_agree_and_keep_the_true_deal(seed, n, rival):
    rep, truth = replayed(seed, n, rival)
    cards = rep.deal.cards
    assert set(truth) == set(cards), "the referee's log records every card"
    for view in views(rep):
        facts = [f for f in rep.facts() if view.sees(f)]
        assert all(f.holds(truth) for f in facts), view.name
        fast = initial(rep.deal).with_facts(facts)
        z3 = Z3Knowledge.initial(rep.deal).with_facts(facts)
        assert fast.consistent() and z3.consistent()
        assert fast.status() == z3.status(), view.name
        zones = fast.zone_probabilities()
        assert all(zones[c][truth[c]] > 0 for c in cards), view.name
        for card in cards[::3]:  # every third card, in every zone of its deck
            for zone, p in zones[card].items():
                assert z3.possible(member(card, {zone}) == 1) == (p > 0), (view.name, card, zone)


def _pins(facts) -> dict[str, str]:
    pins = {}
    for f in facts:
        a = f.formula
        if isinstance(a, Atom) and a.op == "==" and a.value == 1 and len(a.lin.terms) == 1:
            (card, zones, w), = a.lin.terms
            if w == 1 and len(zones) == 1:
                pins[card] = next(iter(zones))
    return pins


def _fill(cards: tuple[str, ...], room: list[tuple[str, int]]):
    """Every way to put ``cards`` into zones with this much room (in the order given)."""
    if not room:
        yield {}
        return
    (zone, k), rest = room[0], room[1:]
    for chosen in itertools.combinations(cards, k):
        left = tuple(c for c in cards if c not in chosen)
        for tail in _fill(left, rest):
            yield {**dict.fromkeys(chosen, zone), **tail}


def _size(deal, pins) -> int:
    """How many deals put the pinned cards where they are pinned (a multinomial per deck)."""
    total = 1
    for deck in deal.decks:
        room = Counter({z.id: z.size for z in deck.zones})
        room.subtract(pins[c] for c in deck.cards if c in pins)
        free = sum(1 for c in deck.cards if c not in pins)
        ways = factorial(free)
        for k in room.values():
            ways //= factorial(max(k, 0))
        total *= ways
    return total


def plain(deal, facts) -> tuple[int, dict[str, dict[str, Fraction]]]:
    """Every deal of every deck fitting the facts, the pinned cards placed first; exact."""
    pins = _pins(facts)
    per_deck = []
    for deck in deal.decks:
        room = Counter({z.id: z.size for z in deck.zones})
        room.subtract(pins[c] for c in deck.cards if c in pins)
        free = tuple(c for c in deck.cards if c not in pins)
        deals = list(_fill(free, [(z, k) for z, k in room.items() if k > 0]))
        per_deck.append(deals)
    count, seen = 0, Counter()
    for parts in itertools.product(*per_deck):
        world = {**pins}
        for part in parts:
            world.update(part)
        if all(f.holds(world) for f in facts):
            count += 1
            seen.update(world.items())
    probs = {c: {z.id: Fraction(seen[(c, z.id)], count) for z in deal.deck_of(c).zones} for c in deal.cards}
    return count, probs


@pytest.mark.parametrize("seed,n,rival", [(0, 3, False), (1, 3, False), (0, 4, False), (1, 4, False), (2, 3, True)])
def test_a_players_view_matches_plain_enumeration(seed, n, rival):
    rep, _truth = replayed(seed, n, rival=rival, turns=10)
    compared = 0
    for player in rep.players:
        view = Viewpoint.of_player(player)
        facts = [f for f in rep.facts() if view.sees(f)]
        if _size(rep.deal, _pins(facts)) > 100_000:
            continue  # the enumeration stays plain: a hundred thousand deals at most
        count, probs = plain(rep.deal, facts)
        fast = initial(rep.deal).with_facts(facts)
        assert fast.count() == count
        got = fast.zone_probabilities()
        for card, by_zone in probs.items():
            for zone, p in by_zone.items():
                assert got[card][zone] == pytest.approx(float(p), abs=1e-12), (player, card, zone)
        compared += 1
    assert compared > 0


def test_the_generated_games_hold_every_kind_of_fact():
    """What the agreement tests above go through: every assistant's power, swaps, wrong guesses, lies."""
    seen = Counter()
    for seed, n, rival in GAMES:
        rep, truth = replayed(seed, n, rival)
        for step in rep.steps:
            args = step.play.args
            seen[step.play.kind] += 1
            seen["drawn by the Cook"] += args.get("drawn") is not None
            seen["a wrong guess"] += step.play.kind == "guess" and args.get("correct") is False
            held = step.before.vars.get("assistant", {})
            if step.play.kind == "ask":
                seen[f"asked by the {held.get(step.play.actor)}"] += 1
                seen[f"asked of the {held.get(args['target'])}"] += 1
                target = f"hand:{args['target']}"
                asked = set(args["asked"])
                true = sum(1 for c, z in truth.items() if z == target and (
                    rep.rules.items[c].attrs.get("location") in asked or rep.rules.items[c].attrs.get("time") in asked))
                seen["a lie"] += args.get("answer") is not None and args["answer"] != true
    for kind in ("swap", "drawn by the Cook", "a wrong guess", "a lie", "asked by the priest", "asked by the captain",
                 "asked of the psychiatrist", "asked by the journalist"):
        assert seen[kind] > 0, (kind, seen)
