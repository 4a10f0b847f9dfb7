"""Deals, random games and engine comparisons for the solver tests.

The solver itself knows no game: Lady Alice's deals are built here (one
deck, a hand of one card per player as the solution, the rest in one zone,
the hands holding a pattern of cards per category).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, Callable

from hypothesis import strategies as st

from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.enumerate import FullKnowledge
from ruleslawyer.solver.errors import Inconsistent
from ruleslawyer.solver.z3engine import Z3Knowledge
from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import Fact, count, member

CATEGORIES = ("suspect", "place", "time", "object")

#: players → the per-category counts the evidence may be drawn with
BASE_PATTERNS = {3: (0, 1, 1, 1), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1)}
PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Eve")


def hands_deal(groups: tuple[tuple[str, ...], ...], players: int, base: tuple[int, ...],
               shuffled: bool = True, free: tuple[str, ...] = ()) -> Deal:
    """One deck: one card in each player's hand (the solution), the rest in
    ``rest``; the hands hold ``base[i]`` cards of group i (any distinct
    permutation of ``base`` when shuffled)."""
    names = PLAYERS[:players]
    hands = tuple(f"hand:{p}" for p in names)
    cards = tuple(c for g in groups for c in g) + free
    zones = (*(Zone(h, "hand", p, 1, "owner") for h, p in zip(hands, names)),
             Zone("rest", "rest", None, len(cards) - players))
    patterns = tuple(sorted(set(permutations(base)))) if shuffled else (tuple(base),)
    deck = Deck("cards", cards, zones, (GroupCount(hands, groups, patterns),))
    return Deal((deck,), solution=hands, players=names)


def lady_alice_deal(players: int) -> Deal:
    """4 categories of 8 clues; patterns are the distinct permutations of the base."""
    groups = tuple(tuple(f"{cat}{i}" for i in range(1, 9)) for cat in CATEGORIES)
    return hands_deal(groups, players, BASE_PATTERNS[players])


DEALS = {n: lady_alice_deal(n) for n in (3, 4, 5)}


def hand(player: str) -> str:
    return f"hand:{player}"


@st.composite
def true_worlds(draw, deal: Deal) -> dict[str, str]:
    """A deal of a :func:`hands_deal` deck fitting a pattern: card -> zone."""
    (deck,) = deal.decks
    (constraint,) = deck.constraints
    pattern = draw(st.sampled_from(constraint.patterns))
    chosen: list[str] = []
    for group, k in zip(constraint.groups, pattern):
        chosen += draw(st.permutations(group))[:k]
    grouped = {c for g in constraint.groups for c in g}
    free = [c for c in deck.cards if c not in grouped]
    chosen += draw(st.permutations(free))[:len(deal.solution) - len(chosen)]
    world = dict.fromkeys(deck.cards, "rest")
    world.update(zip(draw(st.permutations(chosen)), deal.solution))
    return world


@st.composite
def verdict_cards(draw, deal: Deal) -> list[str]:
    """One card from each group, or from all groups but one."""
    groups = deal.decks[0].constraints[0].groups
    picked = list(range(len(groups)))
    if len(picked) > 2 and draw(st.booleans()):
        picked = sorted(draw(st.permutations(picked))[1:])
    return [draw(st.sampled_from(groups[g])) for g in picked]


@st.composite
def games(draw, deal: Deal, max_facts: int = 12, corrupt: int = 10,
          off_frame: bool = False) -> tuple[dict[str, str], list[Fact]]:
    """A true deal and facts drawn from it.

    Public verdicts (how many of some cards are in the hands), a player's own
    card (a private pin), a card shown to everyone (a public pin), a player
    learning whether a card is in some hand; with ``off_frame``, a player
    knowing a card is not in their hand (a fact that does not project).
    With a chance of ``corrupt`` percent per fact, a verdict is off by one or
    a pin names a card of another hand (the log may then be inconsistent).
    """
    world = draw(true_worlds(deal))
    hands = deal.solution
    solution = {c for c, z in world.items() if z in hands}
    holder = {z: c for c, z in world.items() if z in hands}
    cards = deal.cards
    facts = []
    for step in range(draw(st.integers(0, max_facts))):
        kind = draw(st.integers(0, 9))
        player = draw(st.sampled_from(deal.players))
        source = f"step {step}"
        bad = draw(st.integers(0, 99)) < corrupt
        if kind <= 2:  # a pin: own card (private) or a card shown to all
            card = holder[hand(player)]
            if bad:
                card = draw(st.sampled_from(cards))
            viewers = frozenset({player}) if kind < 2 else None
            facts.append(Fact(member(card, {hand(player)}) == 1, viewers, source))
        elif kind == 3:
            card = draw(st.sampled_from(cards))
            facts.append(Fact(count([card], hands) == int(card in solution), frozenset({player}), source))
        elif kind == 4 and off_frame:
            card = draw(st.sampled_from([c for c in cards if world[c] != hand(player)]))
            facts.append(Fact(member(card, {hand(player)}) == 0, frozenset({player}), source))
        else:
            picked = draw(verdict_cards(deal))
            value = len(solution & set(picked)) + (draw(st.sampled_from((-1, 1))) if bad else 0)
            facts.append(Fact(count(picked, hands) == value, source=source))
    return world, facts


def viewpoint_filter(kind: str, player: str | None) -> Callable[[Fact], bool]:
    """The facts a viewpoint sees, as a plain predicate (independent of queries)."""
    if kind == "omniscient":
        return lambda f: True
    if kind == "spectator":
        return lambda f: f.viewers is None
    return lambda f: f.viewers is None or player in f.viewers


def close(x: Any, y: Any, tolerance: float = 1e-9) -> bool:
    return abs(float(x) - float(y)) < tolerance


def assert_close_maps(fast: dict, exact: dict, what: str) -> None:
    """Same keys, values within 1e-9 (nested one level for zone probabilities)."""
    assert fast.keys() == exact.keys(), what
    for key, value in exact.items():
        if isinstance(value, dict):
            assert_close_maps(fast[key], value, f"{what}[{key}]")
        else:
            assert close(fast[key], value), (what, key, fast[key], value)


def assert_matches_brute(fast, slow: BruteKnowledge) -> None:
    """A numpy knowledge (either mode) answers as brute force over full deals."""
    assert fast.consistent() == slow.consistent()
    assert fast.solution_count() == slow.solution_count()
    assert fast.count() == (slow.deal_count() if fast.worlds == "deals" else slow.solution_count())
    assert fast.determined() == slow.determined()
    mine, theirs = fast.solutions(40), slow.solutions(40)
    assert (mine is None) == (theirs is None) and set(mine or ()) == set(theirs or ())
    if not slow.consistent():
        for query in (fast.status, fast.probabilities, fast.pattern_probabilities,
                      fast.zone_probabilities):
            try:
                query()
            except Inconsistent:
                continue
            raise AssertionError(f"{query.__name__} answered without any world")
        return
    assert fast.status() == slow.status()
    assert_close_maps(fast.probabilities(), slow.probabilities(), "probabilities")
    assert_close_maps(fast.pattern_probabilities(), slow.pattern_probabilities(), "patterns")
    zones = fast.zone_probabilities()
    if zones is not None:
        assert_close_maps(zones, slow.zone_probabilities(), "zones")


def assert_z3_matches(z3k: Z3Knowledge, slow: BruteKnowledge) -> None:
    assert z3k.consistent() == slow.consistent()
    if slow.consistent():
        assert z3k.status() == slow.status()


def assert_engines_agree(deal: Deal, facts: list[Fact], brute: BruteKnowledge | None = None,
                         z3: bool = True) -> BruteKnowledge:
    """numpy (the engine :func:`initial` picks, and full mode), and Z3 (every
    encoding the deal allows) answer as brute force; returns brute's knowledge."""
    slow = (brute or BruteKnowledge.initial(deal)).with_facts(facts)
    assert_matches_brute(initial(deal).with_facts(facts), slow)
    assert_matches_brute(FullKnowledge.initial(deal).with_facts(facts), slow)
    if z3:
        for projected in (None, False):
            assert_z3_matches(Z3Knowledge.initial(deal, projected).with_facts(facts), slow)
    return slow

