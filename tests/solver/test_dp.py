"""The subset dynamic program (solver/dp.py) against a plain enumeration of every world.

Every expectation comes from elsewhere than the engine: the worlds of small
deals are listed with itertools and filtered with ``Fact.holds``; the real
sizes are multinomials worked by hand.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.solver import dp
from ruleslawyer.solver.dp import DPKnowledge, NotExact, applicable
from ruleslawyer.solver.errors import Inconsistent
from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import (OPS, Fact, all_of, any_of, count, if_then_else, implies, member,
                                    negate)

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
TILES = ("t1", "t2", "t3", "t4", "t5")


def make_deal(locations: int, times: int, hands: tuple[int, ...], public: int = 0,
              tiles: int = 0) -> Deal:
    """Cards ``L<i>-T<j>``; one hand per player, a missing card, maybe a public row and a second deck."""
    players = PLAYERS[:len(hands)]
    cards = tuple(f"L{i}-T{j}" for i in range(1, locations + 1) for j in range(1, times + 1))
    zones = [Zone(f"hand:{p}", "hand", p, h, "owner") for p, h in zip(players, hands)]
    zones.append(Zone("missing", "missing", None, 1))
    if public:
        zones.append(Zone("public", "public", None, public, "everyone"))
    decks = [Deck("cards", cards, tuple(zones))]
    if tiles:
        tile_zones = [Zone(f"tile:{p}", "tile", p, 1, "owner") for p in players]
        if tiles > len(players):
            tile_zones.append(Zone("box", "box", None, tiles - len(players)))
        decks.append(Deck("tiles", TILES[:tiles], tuple(tile_zones)))
    return Deal(tuple(decks), solution=("missing",), players=players)


def location(card: str) -> str:
    return card.split("-")[0]


def time(card: str) -> str:
    return card.split("-")[1]


# -- the plain enumeration -------------------------------------------------------------------


def deck_deals(deck: Deck):
    """Every deal of one deck: card -> zone."""
    def fill(cards: tuple[str, ...], zones: tuple[Zone, ...]):
        if not zones:
            yield {}
            return
        first, rest = zones[0], zones[1:]
        for chosen in itertools.combinations(cards, first.size):
            left = tuple(c for c in cards if c not in chosen)
            for tail in fill(left, rest):
                yield {**{c: first.id for c in chosen}, **tail}
    return list(fill(deck.cards, deck.zones))


@lru_cache(maxsize=None)
def all_worlds(deal: Deal) -> tuple[dict[str, str], ...]:
    per_deck = [deck_deals(d) for d in deal.decks]
    return tuple({k: v for part in combo for k, v in part.items()} for combo in itertools.product(*per_deck))


def surviving(deal: Deal, facts: list[Fact]) -> list[dict[str, str]]:
    worlds = list(all_worlds(deal))
    for fact in facts:
        worlds = [w for w in worlds if fact.holds(w)]
    return worlds


def surviving_each_prefix(deal: Deal, facts: list[Fact]) -> list[list[dict[str, str]]]:
    """``surviving(deal, facts[:i])`` for every i from 0 to len(facts): each the one before
    filtered by one more fact, as ``surviving`` filters."""
    out = [list(all_worlds(deal))]
    for fact in facts:
        out.append([w for w in out[-1] if fact.holds(w)])
    return out


def reference(deal: Deal, worlds: list[dict[str, str]]) -> dict:
    """Every answer, counted over the worlds left."""
    zones = Counter((c, z) for w in worlds for c, z in w.items())
    solutions = [frozenset(c for c, z in w.items() if z in deal.solution) for w in worlds]
    return {"count": len(worlds), "worlds": worlds, "solutions": set(solutions),
            "zones": {c: {z.id: zones[c, z.id] for z in deal.deck_of(c).zones} for c in deal.cards},
            "solution": {c: sum(c in s for s in solutions) for c in deal.solution_deck.cards}}


def agree(deal: Deal, knowledge: DPKnowledge, worlds: list[dict[str, str]], ref: dict | None = None) -> dict:
    """Every answer of the engine equals the enumeration's over ``worlds`` (probabilities exactly);
    ``ref``: ``reference(deal, worlds)`` when the caller has it already."""
    ref = reference(deal, worlds) if ref is None else ref
    n = ref["count"]
    assert knowledge.count() == n
    assert knowledge.consistent() == (n > 0)
    assert knowledge.solution_count() == len(ref["solutions"])
    if n == 0:
        for query in (knowledge.status, knowledge.probabilities, knowledge.zone_probabilities,
                      knowledge.pattern_probabilities):
            with pytest.raises(Inconsistent):
                query()
        assert knowledge.solutions(10) == []
        return ref
    assert knowledge.zone_counts() == ref["zones"]
    assert knowledge.solution_counts() == ref["solution"]
    assert knowledge.probabilities() == {c: float(Fraction(k, n)) for c, k in ref["solution"].items()}
    assert knowledge.zone_probabilities() == {
        c: {z: float(Fraction(k, n)) for z, k in per.items()} for c, per in ref["zones"].items()}
    assert knowledge.status() == {c: "in" if k == n else "out" if k == 0 else "open"
                                  for c, k in ref["solution"].items()}
    assert knowledge.determined() == (len(ref["solutions"]) == 1)
    assert set(knowledge.solutions(100)) == ref["solutions"]
    assert knowledge.pattern_probabilities() == {}
    return ref


# -- random games mixing every kind of fact ------------------------------------------------------


SMALL = {
    "8 cards, hands 2/2/3": make_deal(4, 2, (2, 2, 3)),
    "8 cards, hands 2/2/3, 3 tiles": make_deal(4, 2, (2, 2, 3), tiles=3),
    "8 cards, hands 2/2/1, public 2": make_deal(4, 2, (2, 2, 1), public=2),
    "6 cards, hands 2/1/1, public 1, 4 tiles": make_deal(3, 2, (2, 1, 1), public=1, tiles=4),
}


def hand(p: str) -> frozenset[str]:
    return frozenset({f"hand:{p}"})


def tile(p: str) -> frozenset[str]:
    return frozenset({f"tile:{p}"})


@st.composite
def local_formula(draw, deal: Deal, zones: list[str], depth: int = 2):
    """A random formula over these zones (one owner's, or the unowned ones)."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        terms = draw(st.lists(st.tuples(st.sampled_from(deal.cards),
                                        st.lists(st.sampled_from(zones), min_size=1, unique=True),
                                        st.sampled_from((-2, -1, 1, 2))), min_size=1, max_size=4))
        lin = sum((count([c], zs, w) for c, zs, w in terms), count([], []))
        op = draw(st.sampled_from(("==", "!=", "<=", ">=", "<", ">")))
        return OPS[op](lin, draw(st.integers(-2, 4)))
    parts = draw(st.lists(local_formula(deal, zones, depth - 1), min_size=1, max_size=3))
    how = draw(st.sampled_from(("all", "any", "not", "implies", "ite")))
    if how == "all":
        return all_of(parts)
    if how == "any":
        return any_of(parts)
    if how == "not":
        return negate(parts[0])
    if how == "implies":
        return implies(parts[0], parts[-1])
    return if_then_else(parts[0], parts[-1], parts[len(parts) // 2])


@st.composite
def game_fact(draw, deal: Deal, true: dict[str, str]) -> list[Fact]:
    """One event's facts, mostly true of ``true``, sometimes not."""
    players = deal.players
    tiles = deal.has_zone(f"tile:{players[0]}")
    main = deal.solution_deck.cards
    lie = draw(st.integers(0, 9)) == 0  # a false answer now and then: inconsistent logs
    asker, target = draw(st.permutations(players))[:2]
    kinds = ["question", "priest", "shown", "cook", "own hand", "wrong guess", "local", "table"]
    if deal.has_zone("public"):
        kinds.append("public")
    if tiles:
        kinds += ["rival", "rival", "own tile"]
    kind = draw(st.sampled_from(kinds))
    in_hand = sorted(c for c in main if true[c] == f"hand:{target}")
    if kind in ("question", "priest", "rival"):
        by = draw(st.sampled_from((location, time)))
        values = sorted({by(c) for c in main})
        asked = set(draw(st.lists(st.sampled_from(values), min_size=1, unique=True)))
        cards = [c for c in main if by(c) in asked]
        cnt = count(cards, hand(target))
        truth = sum(true[c] == f"hand:{target}" for c in cards)
        n = draw(st.integers(0, 4)) if lie else truth
        if kind == "question":
            return [Fact(cnt == n)]
        if kind == "priest":
            shown = cnt >= 2 if n >= 2 else cnt <= 1
            return [Fact(cnt == n, frozenset({asker, target})), Fact(shown)]
        assistant = draw(st.sampled_from(deal.deck_of(f"t1").cards))
        if true[assistant] == f"tile:{target}" and not lie:
            n = truth + draw(st.sampled_from((-1, 1))) if truth else 1
        return [Fact(if_then_else(member(assistant, tile(target)) == 1,
                                  any_of([cnt == n - 1, cnt == n + 1]), cnt == n))]
    if kind in ("shown", "cook"):
        card = draw(st.sampled_from(main if lie or not in_hand else in_hand))
        return [Fact(member(card, hand(target)) == 1, frozenset({asker}))]
    if kind == "own hand":
        mine = [c for c in main if true[c] == f"hand:{asker}"]
        if lie:
            mine = draw(st.lists(st.sampled_from(main), min_size=1, max_size=2, unique=True))
        return [Fact(member(c, hand(asker)) == 1, frozenset({asker})) for c in mine]
    if kind == "public":
        shown = [c for c in main if true[c] == "public"]
        if lie:
            shown = [draw(st.sampled_from(main))]
        return [Fact(member(c, {"public"}) == 1) for c in shown]
    if kind == "wrong guess":
        guess = draw(st.sampled_from(main if lie else [c for c in main if true[c] != "missing"]))
        return [Fact(member(guess, {"missing"}) == 0, frozenset({asker}))]
    if kind == "own tile":
        mine = next(t for t in deal.deck_of("t1").cards if true[t] == f"tile:{asker}") \
            if not lie else draw(st.sampled_from(deal.deck_of("t1").cards))
        return [Fact(member(mine, tile(asker)) == 1, frozenset({asker}))]
    if kind == "table":
        zones = [z.id for z in deal.solution_deck.zones if z.owner is None]
    else:
        zones = [f"hand:{target}"] + ([f"tile:{target}"] if tiles else [])
    return [Fact(draw(local_formula(deal, zones)))]


@st.composite
def games(draw):
    name = draw(st.sampled_from(sorted(SMALL)))
    deal = SMALL[name]
    true = draw(st.sampled_from(all_worlds(deal)))
    events = draw(st.lists(game_fact(deal, true), min_size=0, max_size=10))
    viewer = draw(st.sampled_from((None,) + deal.players))
    facts = [f for event in events for f in event if viewer is None or f.seen_by(viewer)]
    return deal, true, facts


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# 75 games of up to 10 events, each prefix counted (was 150: round five of issue 25)
@settings(max_examples=75, **SETTINGS)
@given(games())
def test_agrees_with_enumeration(game):
    deal, true, facts = game
    assert applicable(deal, facts)
    knowledge, worlds = DPKnowledge.initial(deal), list(all_worlds(deal))
    for fact in facts:
        knowledge = knowledge.with_fact(fact)
        worlds = [w for w in worlds if fact.holds(w)]
        assert knowledge.count() == len(worlds)
    ref = agree(deal, knowledge, worlds)
    if all(f.holds(true) for f in facts):  # a true log: the true deal is among the worlds left
        assert true in ref["worlds"]
        chances = knowledge.zone_probabilities()
        assert all(chances[c][z] > 0 for c, z in true.items())
        assert knowledge.status()[next(c for c, z in true.items() if z == "missing")] != "out"


@settings(max_examples=40, **SETTINGS)
@given(games(), st.data())
def test_every_prefix_and_the_parent_unchanged(game, data):
    """Knowledges share parts with their parents; asking a child leaves the parent's answers alone."""
    deal, _true, facts = game
    chain = [DPKnowledge.initial(deal)]
    for fact in facts:
        chain.append(chain[-1].with_fact(fact))
    order = data.draw(st.permutations(range(len(chain))))
    worlds = surviving_each_prefix(deal, facts)
    for i in order:
        agree(deal, chain[i], worlds[i])


@settings(max_examples=40, **SETTINGS)
@given(games())
def test_slices_of_subsets_change_nothing(game):
    """The products over parts run a slice of subsets at a time; tiny slices give the same answers."""
    deal, _true, facts = game
    with patch.object(dp, "_BLOCK", 4):
        agree(deal, DPKnowledge.initial(deal).with_facts(facts), surviving(deal, facts))


@settings(max_examples=40, **SETTINGS)
@given(games(), st.data())
def test_counts_first_answers_later_in_any_order(game, data):
    """The forward sweep of the last count is kept for the answers that follow it, and the big arrays
    of a finished sweep are reused: counting other knowledges in between, answering in any order, in
    slices of any size, changes no answer, and a knowledge answered before stays as it was."""
    deal, _true, facts = game
    chain = [DPKnowledge.initial(deal)]
    for fact in facts:
        chain.append(chain[-1].with_fact(fact))
    worlds = surviving_each_prefix(deal, facts)
    refs = [reference(deal, w) for w in worlds]  # each enumeration counted once for both rounds below
    with patch.object(dp, "_BLOCK", data.draw(st.sampled_from((2, 4, 16384)))):
        for i in data.draw(st.permutations(range(len(chain)))):
            assert chain[i].count() == len(worlds[i])
        answered = data.draw(st.permutations(range(len(chain))))
        for i in answered:
            agree(deal, chain[i], worlds[i], refs[i])
        for i in answered:  # answers cached before other sweeps reused the arrays: unchanged
            agree(deal, chain[i], worlds[i], refs[i])


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_card_and_tile_known(name):
    """The omniscient view: every part settled, one world, every chance 0 or 1."""
    deal = SMALL[name]
    for true in all_worlds(deal)[::97]:
        k = DPKnowledge.initial(deal).with_facts(Fact(member(c, {z}) == 1) for c, z in true.items()
                                                 if deal.zone(z).owner is not None or z in deal.solution)
        agree(deal, k, surviving(deal, [Fact(member(c, {z}) == 1) for c, z in true.items()
                                        if deal.zone(z).owner is not None or z in deal.solution]))


def odd_deal() -> Deal:
    """An owner with two zones of the main deck, two unowned zones, two second decks (one with a rest)."""
    cards = Deck("cards", ("a", "b", "c", "d", "e", "f"), (
        Zone("hand:Ann", "hand", "Ann", 2), Zone("front:Ann", "front", "Ann", 1), Zone("hand:Bob", "hand", "Bob", 1),
        Zone("missing", "missing", None, 1), Zone("public", "public", None, 1)))
    tiles = Deck("tiles", ("t1", "t2", "t3"), (Zone("tile:Ann", "tile", "Ann", 1), Zone("tile:Bob", "tile", "Bob", 1),
                                               Zone("box", "box", None, 1)))
    coins = Deck("coins", ("c1", "c2"), (Zone("coin:Ann", "coin", "Ann", 1), Zone("coin:Bob", "coin", "Bob", 1)))
    return Deal((cards, tiles, coins), solution=("missing", "public"), players=("Ann", "Bob"))


@st.composite
def odd_games(draw):
    deal = odd_deal()
    owners = [[z.id for z in deal.zones if z.owner == p] for p in deal.players]
    table = [z.id for z in deal.solution_deck.zones if z.owner is None]
    formulas = draw(st.lists(st.sampled_from(owners + [table]).flatmap(lambda zs: local_formula(deal, zs)),
                             max_size=6))
    return deal, [Fact(f) for f in formulas]


# 75 odd shapes of up to 6 facts (was 150: round five of issue 25)
@settings(max_examples=75, **SETTINGS)
@given(odd_games())
def test_odd_shapes_agree_with_enumeration(game):
    deal, facts = game
    assert applicable(deal, facts)
    agree(deal, DPKnowledge.initial(deal).with_facts(facts), surviving(deal, facts))


# -- the real sizes -------------------------------------------------------------------------------


def real_deal(players: int, rival: bool = False) -> Deal:
    hands = {3: (5, 5, 5), 4: (3, 3, 3, 3), 5: (3, 3, 3, 3, 3)}[players]
    return make_deal(4, 4, hands, public=3 if players == 4 else 0, tiles=5 if rival else 0)


F = factorial


@pytest.mark.parametrize("players, deals", [
    (3, F(16) // (F(1) * F(5) ** 3)),
    (4, F(16) // (F(1) * F(3) ** 4 * F(3))),
    (5, F(16) // (F(1) * F(3) ** 5)),
])
def test_real_sizes(players, deals):
    assert deals == {3: 12_108_096, 4: 2_690_688_000, 5: 2_690_688_000}[players]
    k = DPKnowledge.initial(real_deal(players))
    assert k.count() == deals
    assert k.solution_count() == 16
    assert set(k.probabilities().values()) == {1 / 16}
    hand_size = 15 // players if players != 4 else 3
    assert k.zone_probabilities()["L1-T1"][f"hand:{PLAYERS[0]}"] == hand_size / 16
    assignments = {3: 5 * 4 * 3, 4: 5 * 4 * 3 * 2, 5: 5 * 4 * 3 * 2 * 1}[players]
    assert assignments == {3: 60, 4: 120, 5: 120}[players]
    rival = DPKnowledge.initial(real_deal(players, rival=True))
    assert rival.count() == deals * assignments
    tiles = rival.zone_probabilities()["t1"]
    assert tiles["tile:Ann"] == 1 / 5
    if players < 5:
        assert tiles["box"] == (5 - players) / 5


def test_four_players_public_cards_seen():
    deal = real_deal(4)
    k = DPKnowledge.initial(deal).with_facts(
        Fact(member(c, {"public"}) == 1) for c in ("L1-T1", "L2-T2", "L3-T3"))
    assert k.count() == F(13) // (F(1) * F(3) ** 4) == 4_804_800
    assert k.probabilities()["L1-T1"] == 0.0
    assert k.probabilities()["L4-T4"] == 1 / 13
    assert k.zone_probabilities()["L1-T1"]["public"] == 1.0


def test_a_players_viewpoint_at_real_size():
    """Ann's own hand and a card shown to her: the other 10 cards are shared by hand count."""
    deal = real_deal(3, rival=True)
    mine = ["L1-T1", "L1-T2", "L1-T3", "L1-T4", "L2-T1"]
    k = DPKnowledge.initial(deal).with_facts(
        [Fact(member(c, hand("Ann")) == 1, frozenset({"Ann"})) for c in mine]
        + [Fact(member("t3", tile("Ann")) == 1, frozenset({"Ann"})),
           Fact(member("L2-T2", hand("Bob")) == 1, frozenset({"Ann"}))])
    # 10 cards left: 4 more to Bob, 5 to Cat, 1 missing; 4 tiles for Bob and Cat (box of 2)
    assert k.count() == F(10) // (F(4) * F(5) * F(1)) * 4 * 3
    assert k.probabilities()["L2-T3"] == 1 / 10
    assert k.zone_probabilities()["L2-T3"]["hand:Bob"] == 4 / 10
    assert k.zone_probabilities()["t3"]["tile:Ann"] == 1.0
    assert k.zone_probabilities()["t1"]["box"] == 2 / 4


def test_a_lie_at_real_size():
    """Bob answers about L1 to a player whose assistant is t2; Bob lies iff his tile is t2."""
    deal = real_deal(5, rival=True)
    cards = [c for c in deal.cards if location(c) == "L1"]
    cnt = count(cards, hand("Bob"))
    k = DPKnowledge.initial(deal).with_fact(
        Fact(if_then_else(member("t2", tile("Bob")) == 1, any_of([cnt == 0, cnt == 2]), cnt == 1)))
    # Bob's 3 cards among 16 with 4 of L1: truthful 1 (4 tiles for Bob) or lying 0/2 (tile t2)
    hands = {k_: F(4) // (F(k_) * F(4 - k_)) * F(12) // (F(3 - k_) * F(9 + k_)) for k_ in range(4)}
    rest = F(13) // (F(1) * F(3) ** 4)  # the other 13 cards: missing + 4 hands of 3
    assert k.count() == (hands[1] * 4 + (hands[0] + hands[2])) * rest * F(4)
    assert k.zone_probabilities()["t2"]["tile:Bob"] == (hands[0] + hands[2]) / (hands[1] * 4 + hands[0] + hands[2])


# -- what the engine refuses ---------------------------------------------------------------------


def test_not_applicable_to_a_fact_spanning_two_owners():
    deal = SMALL["8 cards, hands 2/2/3"]
    spanning = Fact(count(["L1-T1", "L2-T1"], {"hand:Ann", "hand:Bob"}) == 2)
    assert not applicable(deal, [spanning])
    two_facts_joined = Fact(any_of([member("L1-T1", hand("Ann")) == 1, member("L1-T1", hand("Bob")) == 1]))
    assert not applicable(deal, [two_facts_joined])
    with pytest.raises(NotExact):
        DPKnowledge.initial(deal).with_fact(spanning)
    table_and_hand = Fact(member("L1-T1", {"missing", "hand:Ann"}) == 1)
    assert not applicable(deal, [table_and_hand])


def test_applicable_to_one_owners_zones_of_both_decks():
    deal = SMALL["8 cards, hands 2/2/3, 3 tiles"]
    cnt = count(["L1-T1", "L1-T2"], hand("Bob"))
    lie = Fact(if_then_else(member("t1", tile("Bob")) == 1, any_of([cnt == 0, cnt == 2]), cnt == 1))
    assert applicable(deal, [lie, Fact(member("L1-T1", {"missing"}) == 0)])
    assert not applicable(deal, [Fact(member("t1", tile("Ann")) + member("L1-T1", hand("Bob")) >= 1)])


def test_not_applicable_to_the_rest_of_a_second_deck_or_groups():
    deal = SMALL["6 cards, hands 2/1/1, public 1, 4 tiles"]
    assert not applicable(deal, [Fact(member("t1", {"box"}) == 1)])
    grouped = Deck("cards", ("a", "b", "c"), (Zone("hand:Ann", "hand", "Ann", 2), Zone("missing", "missing", None, 1)),
                   (GroupCount(("missing",), (("a", "b"), ("c",)), ((1, 0), (0, 1))),))
    assert not applicable(Deal((grouped,), solution=("missing",), players=("Ann",)))
    with pytest.raises(NotExact):
        DPKnowledge.initial(Deal((grouped,), solution=("missing",), players=("Ann",)))
    two_decks = Deal(deal.decks, solution=("missing", "box"), players=deal.players)
    owned = Deal(deal.decks, solution=("hand:Ann",), players=deal.players)
    assert not applicable(two_decks) and not applicable(owned)


def test_a_card_counted_twice_through_zones_of_another_deck():
    """Both terms count card a in Ann's main zones (the tile zone cannot hold it): -4 [a] == -2 never holds."""
    deal = odd_deal()
    twice = count(["a"], {"front:Ann", "hand:Ann"}, -2) + count(["a"], {"front:Ann", "hand:Ann", "tile:Ann"}, -2)
    k = DPKnowledge.initial(deal)
    assert k.with_fact(Fact(twice == -2)).count() == 0
    assert k.with_fact(Fact(twice == -4)).count() == len(surviving(deal, [Fact(twice == -4)]))


def test_a_fact_no_zone_can_satisfy():
    deal = SMALL["8 cards, hands 2/2/3, 3 tiles"]
    k = DPKnowledge.initial(deal)
    assert k.with_fact(Fact(member("t1", hand("Ann")) == 1)).count() == 0
    assert k.with_fact(Fact(member("t1", hand("Ann")) == 0)).count() == k.count()
    assert k.with_fact(Fact(member("nowhere", hand("Ann")) == 0)).count() == k.count()


def test_doctests():
    assert doctest.testmod(dp).failed == 0
