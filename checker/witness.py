"""One deal that fits every accepted fact: consistency shown without a solver.

A replay asks of each observation only "does some deal still fit?".  A
*witness* answers yes for every fact that holds in it: a deal (card -> zone)
that is a deal of the game (every card in one zone of its deck, every zone
holding its size, every group constraint of a deck met by one of its
patterns) and in which every accepted fact holds is proof that the facts fit.
A referee's log records every hidden card (each hand, the solution), so the
deal the recorded cards pin down is that witness, and every observation of a
clean game holds in it: the log is checked without counting a single deal
and without loading a solver.  A fact the witness does not fit goes to the
solver, as before (:mod:`checker.consistency`); a witness never says no.

>>> from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
>>> from ruleslawyer.spec.deal import pin
>>> from ruleslawyer.spec.facts import Fact, count
>>> hands = ("hand:Ann", "hand:Bob")
>>> deck = Deck("d", tuple("abcd"), (Zone("hand:Ann", "hand", "Ann", 1), Zone("hand:Bob", "hand", "Bob", 1),
...     Zone("rest", "rest", None, 2)), (GroupCount(hands, (("a", "b"), ("c", "d")), ((1, 1),)),))
>>> deal = Deal((deck,), solution=hands)
>>> world = pinned_world(deal, [pin("c", "hand:Ann", None)])
>>> world["c"], sorted(c for c, z in world.items() if z == "hand:Bob"), is_deal(deal, world)
('hand:Ann', ['a'], True)
>>> fits(Fact(count("ab", hands) == 1), world), fits(Fact(count("cd", hands) == 2), world)
(True, False)
>>> is_deal(deal, {**world, "b": "hand:Bob"})
False
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..spec.dealmodel import Deal, Deck
from ..spec.facts import Atom, Fact, FactError

__all__ = ["pinned_to", "pinned_world", "is_deal", "fits"]

World = Mapping[str, str]


def pinned_to(fact: Fact) -> tuple[str, str] | None:
    """(card, zone) when the fact says "this card lies in this zone", else None."""
    formula = fact.formula
    if isinstance(formula, Atom) and formula.op == "==" and formula.value == 1 and len(formula.lin.terms) == 1:
        card, zones, weight = formula.lin.terms[0]
        if weight == 1 and len(zones) == 1:
            return card, next(iter(zones))
    return None


def fits(fact: Fact, world: World) -> bool:
    """Whether the fact holds in the world (a weighted fact: with a choice among one or more there)."""
    try:
        return fact.holds(world) and fact.divisor(world) >= 1
    except FactError:
        return False


def is_deal(deal: Deal, world: World) -> bool:
    """Whether the world is one deal of every deck of the game."""
    if len(world) != len(deal.cards):
        return False
    for deck in deal.decks:
        held = dict.fromkeys(deck.zone_ids(), 0)
        for card in deck.cards:
            zone = world.get(card)
            if zone not in held:
                return False
            held[zone] += 1
        if any(held[z.id] != z.size for z in deck.zones):
            return False
        for g in deck.constraints:
            inside = set(g.zones)
            if tuple(sum(world[c] in inside for c in group) for group in g.groups) not in g.patterns:
                return False
    return True


def pinned_world(deal: Deal, facts: Iterable[Fact]) -> dict[str, str] | None:
    """A deal with every card the facts pin in its zone, the others filled in (None: none found).

    The unpinned cards go where room is left, the first pattern of a deck's group
    constraint that the pins allow guiding which group's cards go inside its zones.
    Only a candidate: :func:`is_deal` and :func:`fits` decide.
    """
    pins: dict[str, str] = {}
    for fact in facts:
        pinned = pinned_to(fact)
        if pinned is not None:
            card, zone = pinned
            if pins.setdefault(card, zone) != zone:
                return None
    world: dict[str, str] = {}
    for deck in deal.decks:
        filled = _fill(deck, {c: z for c, z in pins.items() if c in deck.cards})
        if filled is None:
            return None
        world.update(filled)
    return world if is_deal(deal, world) else None


def _fill(deck: Deck, pins: dict[str, str]) -> dict[str, str] | None:
    room = {z.id: z.size for z in deck.zones}
    for zone in pins.values():
        if zone not in room:
            return None
        room[zone] -= 1
    if any(n < 0 for n in room.values()):
        return None
    free = [c for c in deck.cards if c not in pins]
    if not deck.constraints:
        return _place(pins, free, [list(room)], room)
    g = deck.constraints[0]
    inside = [z for z in room if z in g.zones]
    outside = [z for z in room if z not in g.zones]
    ungrouped = [c for c in free if not any(c in group for group in g.groups)]
    for pattern in g.patterns:
        order_in: list[str] = []
        order_out: list[str] = []
        for group, want in zip(g.groups, pattern):
            have = sum(pins.get(c) in g.zones for c in group)
            left = [c for c in group if c not in pins]
            if have > want or want - have > len(left):
                break
            order_in += left[:want - have]
            order_out += left[want - have:]
        else:
            need = sum(room[z] for z in inside) - len(order_in)  # cards of no group that go inside
            if 0 <= need <= len(ungrouped):
                cards = order_in + ungrouped[:need] + order_out + ungrouped[need:]
                world = _place(pins, cards, [inside, outside], room)
                if world is not None:
                    return world
    return None


def _place(pins: dict[str, str], cards: list[str], tiers: list[list[str]],
           room: dict[str, int]) -> dict[str, str] | None:
    """The cards in order into the zones with room left, the first tier's zones first."""
    world = dict(pins)
    slots = [z for tier in tiers for z in tier for _ in range(room[z])]
    if len(slots) != len(cards):
        return None
    world.update(zip(cards, slots))
    return world
