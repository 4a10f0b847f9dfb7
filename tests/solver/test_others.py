"""What the others know (issue 23), against a plain enumeration of every world.

The position: the reduced Perfect Alibi of tests/spec/test_reduced_game.py
(8 alibi cards, 3 players, Rival tiles: 5,040 x 6 = 30,240 deals, every one
equally likely), cut after each of its moves.  The oracle below lists every
deal, keeps those fitting the facts a seat saw, and for each other player P
and each such deal asks the question directly: among all deals with P's own
zones (hand, tile) and the public card as in this one that fit the facts the
seat and P both saw, is there one solution?  It shares nothing with the
solver but the facts' own ``holds``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from ruleslawyer.solver import others
from ruleslawyer.solver.others import others_know
from ruleslawyer.solver.queries import Viewpoint

from ..spec.test_reduced_game import game


def _deals(deal):
    """Every deal: each deck's cards into its zones, zone sizes kept."""
    per_deck = []
    for deck in deal.decks:
        slots = [z.id for z in deck.zones for _ in range(z.size)]
        per_deck.append([dict(zip(deck.cards, p)) for p in set(itertools.permutations(slots))])
    for parts in itertools.product(*per_deck):
        world = {}
        for part in parts:
            world.update(part)
        yield world


def _plain(deal, facts, seat, players):
    """player -> (chance they know, first fact index they could have, first index they surely had)."""
    worlds = list(_deals(deal))
    holds = [[f.holds(w) for f in facts] for w in worlds]
    solution = [frozenset(c for c, z in w.items() if z in deal.solution) for w in worlds]
    mine = [i for i, f in enumerate(facts) if seat.sees(f)]
    possible = [n for n in range(len(worlds)) if all(holds[n][i] for i in mine)]
    out = {}
    for p in players:
        if seat.kind == "player" and p == seat.player:
            continue
        zones = deal.visible_zones(p)
        shared = [i for i in mine if facts[i].seen_by(p)]

        def hand(n):
            return tuple(sorted((c, z) for c, z in worlds[n].items() if z in zones))

        by_hand = {}
        for n, w in enumerate(worlds):
            by_hand.setdefault(hand(n), []).append(n)

        def first(n):  # the first prefix of the shared facts after which one solution is left
            for k in range(len(shared) + 1):
                sols = {solution[m] for m in by_hand[hand(n)] if all(holds[m][i] for i in shared[:k])}
                if len(sols) == 1:
                    return -1 if k == 0 else shared[k - 1]
            return None

        firsts = [first(n) for n in possible]
        knows = Fraction(sum(1 for x in firsts if x is not None), len(possible))
        known = [x for x in firsts if x is not None]
        out[p] = (knows, min(known) if known else None,
                  max(known) if len(known) == len(firsts) else None)
    return out


@pytest.mark.parametrize("cut", [7, 11])  # after move 9 Bob may know: 3/5 for a spectator, 1/2 for Ann
@pytest.mark.parametrize("seat", ["spectator", "Ann", "Bob", "Cat", "all"])
def test_each_players_knowledge_equals_a_plain_enumeration(seat, cut, monkeypatch):
    monkeypatch.setattr(others, "MAX_HANDS", 4096)  # a spectator's 28 x 8 x 3 hands of Ann's, all weighed
    rep = game()
    facts = rep.facts(cut)
    view = Viewpoint.spectator() if seat == "spectator" else Viewpoint.omniscient() if seat == "all" \
        else Viewpoint.of_player(seat)
    expected = _plain(rep.deal, facts, view, rep.players)
    found = {o.player: o for o in others_know(rep.deal, facts, view, rep.players)}
    assert set(found) == set(expected)
    for p, (chance, first, sure) in expected.items():
        o = found[p]
        assert o.method == "exact"
        assert o.chance == pytest.approx(float(chance), abs=1e-12), (p, o)
        assert (o.first_possible, o.first_certain) == (first, sure), (p, o)


def test_beyond_the_exact_limit_the_chance_is_sampled_with_an_interval(monkeypatch):
    rep = game()
    facts = rep.facts(9)
    view = Viewpoint.of_player("Ann")
    exact = {o.player: o.chance for o in others_know(rep.deal, facts, view, rep.players)}
    monkeypatch.setattr(others, "MAX_HANDS", 0)
    monkeypatch.setattr(others, "SAMPLES", 300)
    for o in others_know(rep.deal, facts, view, rep.players, seed=3):
        assert o.method == "sampled" and o.samples == 300
        lo, hi = o.interval
        assert lo <= o.chance <= hi
        assert lo - 0.05 <= exact[o.player] <= hi + 0.05  # a 95 % interval, with room for the odd miss


def test_a_three_card_deal_counted_by_hand():
    """Cards a, b, c: one missing, one in Ann's hand, one in Bob's; everyone hears "b is not
    missing".  The deals left are (missing, Ann, Bob) = (a, b, c), (a, c, b), (c, a, b), (c, b, a):
    Ann holding a or c knows (the other of a, c is missing), holding b she does not: 1/2, from
    that first fact on.  Then "b is in Bob's hand": only (a, c, b) and (c, a, b), and Ann knew in
    both since the first fact (index 0)."""
    from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
    from ruleslawyer.spec.facts import Fact, member

    deck = Deck("d", ("a", "b", "c"), (Zone("missing", "missing", None, 1, "nobody"),
                                       Zone("hand:Ann", "hand", "Ann", 1, "owner"),
                                       Zone("hand:Bob", "hand", "Bob", 1, "owner")))
    deal = Deal((deck,), solution=("missing",))
    facts = [Fact(member("b", {"missing"}) == 0), Fact(member("b", {"hand:Bob"}) == 1)]
    spectator = Viewpoint.spectator()
    for n, (chance, first, sure) in ((1, (0.5, 0, None)), (2, (1.0, 0, 0))):
        ann = next(o for o in others_know(deal, facts[:n], spectator, ["Ann", "Bob"]) if o.player == "Ann")
        assert (ann.chance, ann.first_possible, ann.first_certain) == (chance, first, sure)
        assert _plain(deal, facts[:n], spectator, ["Ann", "Bob"])["Ann"] == (Fraction(chance), first, sure)
