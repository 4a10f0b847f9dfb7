"""The engines agree on random games.

* (a) reduced Lady-Alice-like decks (3 groups of 3-4 cards, 2-3 hands of
  one card, shuffled or not, a group removed or doubled): numpy projected
  (with its switch to full mode), numpy full, brute force over full deals
  and both Z3 encodings;
* (b) Lady Alice itself, 3 players (12,288 full deals), for a few games;
* (c) a reduced Perfect-Alibi-like deal (two decks: cards by location and
  time into a missing zone and hands; tiles into per-player zones) in full
  mode, with answers, bounds, shown cards, draws and lies;
* any deal and any formula on tiny decks;
* Lady Alice 3-5 players: Z3 vs numpy; Z3's explanations checked with
  numpy: sufficient (the core alone forces the same answer) and minimal
  (dropping any one fact of the core loses it).

Every expectation comes from another engine than the one under test.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.enumerate import FullKnowledge
from ruleslawyer.solver.errors import NotForced
from ruleslawyer.solver.frame import frame_of
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.dealmodel import Deal, DealError, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import (OPS, Fact, Formula, all_of, any_of, count, if_then_else, member,
                                    negate)

from .solver_helpers import (DEALS, assert_engines_agree, assert_matches_brute,
                             assert_z3_matches, games, hands_deal, viewpoint_filter)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=None)
def brute_initial(deal: Deal) -> BruteKnowledge:
    return BruteKnowledge.initial(deal)


def viewed(draw, deal: Deal, facts: list[Fact]) -> list[Fact]:
    kind = draw(st.sampled_from(("spectator", "player", "omniscient")))
    sees = viewpoint_filter(kind, draw(st.sampled_from(deal.players)))
    return [f for f in facts if sees(f)]


# -- (a) reduced Lady-Alice-like decks ------------------------------------------------


@st.composite
def reduced_deals(draw) -> Deal:
    sizes = draw(st.lists(st.integers(3, 4), min_size=3, max_size=3))
    groups = tuple(tuple(f"g{g}c{i}" for i in range(n)) for g, n in enumerate(sizes))
    players = draw(st.sampled_from((2, 3)))
    base = draw(st.sampled_from({2: [(0, 1, 1), (0, 0, 2)], 3: [(1, 1, 1), (0, 1, 2)]}[players]))
    return hands_deal(groups, players, base, shuffled=draw(st.booleans()))


@settings(max_examples=60, **SETTINGS)
@given(st.data())
def test_reduced_decks_all_engines_agree(data):
    deal = data.draw(reduced_deals(), label="deal")
    corrupt = data.draw(st.sampled_from((0, 10, 30)), label="corrupt")
    world, facts = data.draw(games(deal, max_facts=10, corrupt=corrupt, off_frame=True), label="game")
    facts = viewed(data.draw, deal, facts)
    slow = assert_engines_agree(deal, facts, brute_initial(deal))
    fast = initial(deal).with_facts(facts)
    event(f"worlds: {fast.worlds}; consistent: {slow.consistent()}")
    if corrupt == 0:
        assert world in [w.zones for w in slow.remaining]


# -- (b) Lady Alice, 3 players, full deals ----------------------------------------------


@settings(max_examples=6, **SETTINGS)
@given(st.data())
def test_lady_alice_3_players_against_full_deals(data):
    deal = DEALS[3]
    world, facts = data.draw(games(deal, max_facts=8, corrupt=10), label="game")
    facts = viewed(data.draw, deal, facts)
    slow = brute_initial(deal).with_facts(facts)
    assert_matches_brute(initial(deal).with_facts(facts), slow)
    assert_matches_brute(FullKnowledge.initial(deal).with_facts(facts), slow)
    assert_z3_matches(Z3Knowledge.initial(deal).with_facts(facts), slow)


# -- (c) a reduced Perfect-Alibi-like deal, full mode -----------------------------------

LOCATIONS = ("L1", "L2", "L3", "L4")
TIMES = ("T1", "T2")
ALIBIS = tuple(f"{loc}-{t}" for loc in LOCATIONS for t in TIMES)
TILES = ("tile1", "tile2", "tile3")
TABLE = ("A", "B", "C")


def alibi_deal(hand_sizes: tuple[int, int, int]) -> Deal:
    cards = Deck("alibis", ALIBIS, (Zone("missing", "missing", None, 1, "nobody"),
                                    *(Zone(f"hand:{p}", "hand", p, n, "owner")
                                      for p, n in zip(TABLE, hand_sizes))))
    tiles = Deck("tiles", TILES, (*(Zone(f"tile:{p}", "tile", p, 1, "owner") for p in TABLE),
                                  Zone("box", "box", None, len(TILES) - len(TABLE), "nobody")))
    return Deal((cards, tiles), solution=("missing",), players=TABLE)


ALIBI_DEALS = {sizes: alibi_deal(sizes) for sizes in ((2, 2, 3), (3, 1, 3))}


@st.composite
def alibi_games(draw, deal: Deal, corrupt: int) -> tuple[dict[str, str], list[Fact], bool]:
    """A true deal and facts from it; True when some fact was corrupted."""
    cards, tiles = deal.decks
    world = {}
    for deck in (cards, tiles):
        order = draw(st.permutations(deck.cards))
        places = [z.id for z in deck.zones for _ in range(z.size)]
        world.update(zip(order, places))
    facts, corrupted = [], False
    for step in range(draw(st.integers(1, 7))):
        asker, target = draw(st.permutations(TABLE))[:2]
        where = f"hand:{target}"
        if draw(st.booleans()):
            asked = draw(st.lists(st.sampled_from(LOCATIONS), min_size=1, max_size=2, unique=True))
            matching = [c for c in ALIBIS if c.split("-")[0] in asked]
        else:
            time = draw(st.sampled_from(TIMES))
            matching = [c for c in ALIBIS if c.endswith(time)]
        cnt = count(matching, {where})
        n = sum(1 for c in matching if world[c] == where)
        if draw(st.integers(0, 99)) < corrupt:
            n, corrupted = n + 1, True
        kind = draw(st.integers(0, 4))
        source = f"step {step}"
        if kind == 0:  # a public answer
            facts.append(Fact(cnt == n, source=source))
        elif kind == 1:  # a private answer: everyone learns a bound, the asker the number
            if n >= 2:
                facts.append(Fact(cnt >= 2, source=source))
            facts.append(Fact(cnt == n, frozenset({asker}), source))
        elif kind == 2:  # a card shown to the asker
            shown = [c for c in matching if world[c] == where]
            if shown:
                facts.append(Fact(member(draw(st.sampled_from(shown)), {where}) == 1, frozenset({asker}), source))
        elif kind == 3:  # a card drawn at random from a hand, seen by one player
            held = [c for c in ALIBIS if world[c] == f"hand:{TABLE[2]}"]
            facts.append(Fact(member(draw(st.sampled_from(held)), {f"hand:{TABLE[2]}"}) == 1,
                              frozenset({draw(st.sampled_from(TABLE))}), source))
        else:  # an answer that lies by one when the target holds the asker's tile
            tile = draw(st.sampled_from(TILES))
            liar = member(tile, {f"tile:{target}"}) == 1
            true_n = sum(1 for c in matching if world[c] == where)
            said = n if world[tile] != f"tile:{target}" else true_n + draw(st.sampled_from((-1, 1)))
            facts.append(Fact(if_then_else(liar, any_of([cnt == said - 1, cnt == said + 1]), cnt == said),
                              source=source))
    return world, facts, corrupted


def the_deal(world: dict[str, str]) -> Formula:
    return all_of(member(c, {z}) == 1 for c, z in world.items())


@settings(max_examples=15, **SETTINGS)
@given(st.data())
def test_alibi_like_full_mode(data):
    deal = ALIBI_DEALS[data.draw(st.sampled_from(sorted(ALIBI_DEALS)), label="hands")]
    world, facts, corrupted = data.draw(alibi_games(deal, corrupt=15), label="game")
    facts = viewed(data.draw, deal, facts)
    assert frame_of(deal) is None
    slow = brute_initial(deal).with_facts(facts)
    fast = initial(deal).with_facts(facts)
    assert fast.worlds == "deals"
    assert_matches_brute(fast, slow)
    z3k = Z3Knowledge.initial(deal).with_facts(facts)
    assert_z3_matches(z3k, slow)
    event(f"consistent: {slow.consistent()}")
    if slow.consistent():
        zones = slow.zone_probabilities()
        card = data.draw(st.sampled_from(deal.cards), label="card")
        for zone, p in zones[card].items():
            assert z3k.possible(member(card, {zone}) == 1) == (p > 0)
    if not corrupted:
        truth = Fact(the_deal(world))
        assert world in [w.zones for w in slow.remaining]
        assert fast.with_fact(truth).count() == 1
        assert z3k.possible(truth.formula)


# -- any deal, any formula, on tiny decks -------------------------------------------------


@st.composite
def tiny_deals(draw) -> Deal:
    """1-3 groups of 0-3 cards and 0-2 free cards; 1-2 solution zones; the rest
    in one zone (the deal projects) or two (it does not)."""
    sizes = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    groups = tuple(tuple(f"g{g}c{i}" for i in range(n)) for g, n in enumerate(sizes))
    free = tuple(f"f{i}" for i in range(draw(st.integers(0, 2))))
    cards = tuple(c for g in groups for c in g) + free
    assume(cards)
    solution = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2))
    assume(sum(solution) <= len(cards))
    left = len(cards) - sum(solution)
    rests = [left] if draw(st.booleans()) or left == 0 else [left - left // 2, left // 2]
    zones = (*(Zone(f"s{i}", "s", f"P{i}", n, "owner") for i, n in enumerate(solution)),
             *(Zone(f"r{i}", "r", None, n) for i, n in enumerate(rests)))
    hands = tuple(z.id for z in zones[:len(solution)])
    pattern = st.tuples(*(st.integers(0, n) for n in sizes))
    patterns = draw(st.lists(pattern, min_size=1, max_size=3, unique=True))
    constraint = () if draw(st.integers(0, 4)) == 0 else (GroupCount(hands, groups, tuple(patterns)),)
    deal = Deal((Deck("d", cards, zones, constraint),), solution=hands,
                players=tuple(f"P{i}" for i in range(len(solution))))
    try:
        BruteKnowledge.initial(deal)
    except DealError:
        assume(False)
    return deal


@st.composite
def tiny_formulas(draw, deal: Deal, depth: int = 1) -> Formula:
    """Any linear atom over any zones (a stranger card and zone too), any
    operator; pins; and / or / not of them."""
    zone_ids = [z.id for z in deal.zones] + ["nowhere"]
    if depth and draw(st.integers(0, 3)) == 0:
        parts = draw(st.lists(tiny_formulas(deal, depth - 1), min_size=1, max_size=2))
        return draw(st.sampled_from((all_of, any_of)))(parts) if len(parts) > 1 or draw(
            st.booleans()) else negate(parts[0])
    names = list(deal.cards) + ["stranger"]
    if draw(st.integers(0, 3)) == 0:  # a pin
        return member(draw(st.sampled_from(names)), {draw(st.sampled_from(deal.solution))}) == 1
    zones = frozenset(draw(st.lists(st.sampled_from(zone_ids), min_size=1, max_size=3)))
    cards = draw(st.lists(st.sampled_from(names), max_size=4, unique=True))
    lin = sum((count([c], zones, draw(st.integers(-2, 3))) for c in cards), count([], zones))
    return OPS[draw(st.sampled_from(sorted(OPS)))](lin, draw(st.integers(-2, 4)))


def status_of(deal: Deal, facts: list[Fact], card: str) -> str:
    return brute_initial(deal).with_facts(facts).status()[card]


@pytest.mark.heavy
@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_engines_agree_on_tiny_deals(data):
    deal = data.draw(tiny_deals(), label="deal")
    formulas = data.draw(st.lists(tiny_formulas(deal), max_size=4), label="facts")
    facts = [Fact(f, source=i) for i, f in enumerate(formulas)]
    slow = assert_engines_agree(deal, facts, brute_initial(deal))
    z3k = Z3Knowledge.initial(deal).with_facts(facts)
    event(f"projects: {frame_of(deal) is not None}; consistent: {slow.consistent()}")
    if not slow.consistent():
        core = z3k.explain_inconsistency()
        assert brute_initial(deal).with_facts(core).count() == 0
        for i in range(len(core)):
            assert brute_initial(deal).with_facts(core[:i] + core[i + 1:]).count() > 0
        return
    status = slow.status()
    for card in (c for c, s in status.items() if s != "open"):
        core = z3k.explain_status(card)
        assert status_of(deal, core, card) == status[card]
        for i in range(len(core)):
            assert status_of(deal, core[:i] + core[i + 1:], card) == "open"
    zones = slow.zone_probabilities()
    card = data.draw(st.sampled_from(deal.cards), label="card")
    for zone, p in zones[card].items():
        there = member(card, {zone}) == 1
        assert z3k.possible(there) == (p > 0)
        try:
            core = [facts[i] for i in z3k.forced_core(there)]
        except NotForced:
            assert p < 1
            continue
        assert p == 1
        assert brute_initial(deal).with_facts(core).zone_probabilities()[card][zone] == 1


# -- Lady Alice 3-5 players: Z3 against numpy ---------------------------------------------


@st.composite
def viewed_games(draw, players: tuple[int, ...], max_facts: int = 12, corrupt: int = 10):
    """(deal, the facts one random viewpoint sees)."""
    deal = DEALS[draw(st.sampled_from(players))]
    _, facts = draw(games(deal, max_facts=max_facts, corrupt=corrupt))
    return deal, viewed(draw, deal, facts)


@settings(max_examples=60, **SETTINGS)
@given(viewed_games((3, 4, 5)))
def test_z3_matches_numpy(game):
    deal, facts = game
    fast = initial(deal).with_facts(facts)
    z3k = Z3Knowledge.initial(deal).with_facts(facts)
    assert z3k.consistent() == fast.consistent()
    if fast.consistent():
        assert z3k.status() == fast.status()


def numpy_status(deal: Deal, facts: list[Fact], card: str) -> str:
    return initial(deal).with_facts(facts).status()[card]


@settings(max_examples=60, **SETTINGS)
@given(viewed_games((3, 4, 5), max_facts=14, corrupt=0), st.data())
def test_status_explanations_are_sufficient_and_minimal(game, data):
    deal, facts = game
    status = initial(deal).with_facts(facts).status()
    forced = sorted(c for c, s in status.items() if s != "open")
    event(f"forced cards: {'none' if not forced else 'some'}")
    if not forced:
        return
    card = data.draw(st.sampled_from(forced), label="card")
    core = Z3Knowledge.initial(deal).with_facts(facts).explain_status(card)
    assert all(any(f is g for g in facts) for f in core)
    assert numpy_status(deal, core, card) == status[card]
    for i in range(len(core)):
        assert numpy_status(deal, core[:i] + core[i + 1:], card) == "open"


@settings(max_examples=60, **SETTINGS)
@given(viewed_games((3, 4, 5), max_facts=14, corrupt=25))
def test_inconsistency_explanations_are_sufficient_and_minimal(game):
    deal, facts = game
    core = Z3Knowledge.initial(deal).with_facts(facts).explain_inconsistency()
    consistent = initial(deal).with_facts(facts).consistent()
    event(f"consistent: {consistent}")
    if consistent:
        assert core is None
        return
    assert core is not None
    assert initial(deal).with_facts(core).count() == 0
    for i in range(len(core)):
        assert initial(deal).with_facts(core[:i] + core[i + 1:]).count() > 0

