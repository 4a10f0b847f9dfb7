"""Clue-shaped deals and random games for the solver tests, built from spec.dealmodel directly.

One deck of cards in categories; an envelope with one card of each
category (a group constraint on one zone), hands per player (sizes as even
as possible, the extra cards to the first seats) and optionally leftover
cards face up.  The facts are those of a suggestion game, each about one
zone: a player cannot answer (holds none of the three), a player shows a
card (the table learns "at least one of the three", the suggester which
card), a player's own hand, a wrong accusation ("the envelope is not these
three").
"""

from __future__ import annotations

from typing import Sequence

from hypothesis import strategies as st

from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import Fact, count, member

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
ENVELOPE = "envelope"
PUBLIC = "public"


def categories(sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(f"{'swrxyz'[k]}{i}" for i in range(1, n + 1)) for k, n in enumerate(sizes))


def hand(player: str) -> str:
    return f"hand:{player}"


def clue_deal(sizes: Sequence[int], players: int, public: int = 0,
              hand_sizes: Sequence[int] | None = None) -> Deal:
    """Categories of these sizes, the envelope holding one of each, ``players`` hands."""
    groups = categories(sizes)
    cards = tuple(c for g in groups for c in g)
    left = len(cards) - len(groups) - public
    names = PLAYERS[:players]
    if hand_sizes is None:
        hand_sizes = [left // players + (1 if i < left % players else 0) for i in range(players)]
    zones = [Zone(ENVELOPE, ENVELOPE, None, len(groups))]
    zones += [Zone(hand(p), "hand", p, s, "owner") for p, s in zip(names, hand_sizes)]
    if public:
        zones.append(Zone(PUBLIC, PUBLIC, None, public, "everyone"))
    constraint = GroupCount((ENVELOPE,), groups, ((1,) * len(groups),))
    return Deal((Deck("cards", cards, tuple(zones), (constraint,)),), solution=(ENVELOPE,), players=names)


@st.composite
def clue_worlds(draw, deal: Deal) -> dict[str, str]:
    (deck,) = deal.decks
    groups = deck.constraints[0].groups
    world = {draw(st.sampled_from(g)): ENVELOPE for g in groups}
    rest = draw(st.permutations([c for c in deck.cards if c not in world]))
    at = 0
    for z in deck.zones[1:]:
        world.update(dict.fromkeys(rest[at:at + z.size], z.id))
        at += z.size
    return world


def suggestion_facts(deal: Deal, world: dict[str, str], suggester: str, triple: Sequence[str],
                     ) -> list[Fact]:
    """The facts of one suggestion, answered clockwise from the suggester."""
    players = deal.players
    start = players.index(suggester)
    facts = []
    for step in range(1, len(players)):
        p = players[(start + step) % len(players)]
        held = [c for c in triple if world[c] == hand(p)]
        if not held:
            facts.append(Fact(count(triple, {hand(p)}) == 0, text=f"{p} cannot"))
            continue
        facts.append(Fact(count(triple, {hand(p)}) >= 1, text=f"{p} shows a card"))
        facts.append(Fact(member(held[0], {hand(p)}) == 1, frozenset({suggester, p}),
                          text=f"{p} shows {held[0]} to {suggester}"))
        break
    return facts


@st.composite
def clue_games(draw, deal: Deal, max_moves: int = 8, corrupt: int = 0) -> tuple[dict[str, str], list[Fact]]:
    """A true deal and the facts of a random game from it: private hands, suggestions, accusations.

    With ``corrupt`` percent per move, a fact is drawn at random (the facts may then fit no deal).
    """
    world = draw(clue_worlds(deal))
    (deck,) = deal.decks
    groups = deck.constraints[0].groups
    facts = [Fact(count([c for c, z in world.items() if z == hand(p)], {hand(p)}) == deal.zone(hand(p)).size,
                  frozenset({p}), text=f"{p}'s hand") for p in deal.players]
    if deal.has_zone(PUBLIC):
        facts.append(Fact(count([c for c, z in world.items() if z == PUBLIC], {PUBLIC}) == deal.zone(PUBLIC).size,
                          text="face up"))
    for _ in range(draw(st.integers(0, max_moves))):
        p = draw(st.sampled_from(deal.players))
        triple = [draw(st.sampled_from(g)) for g in groups]
        if draw(st.integers(0, 99)) < corrupt:
            q = draw(st.sampled_from(deal.players))
            facts.append(Fact(count(triple, {hand(q)}) >= 1))
            continue
        if draw(st.integers(0, 9)) == 0:  # an accusation
            right = all(world[c] == ENVELOPE for c in triple)
            if not right:
                facts.append(Fact(count(triple, {ENVELOPE}) != len(triple), text=f"{p} accuses wrongly"))
            continue
        if draw(st.integers(0, 9)) == 0:  # a player looks at one card of the envelope (a house rule)
            card = draw(st.sampled_from(deck.cards))
            facts.append(Fact(member(card, {ENVELOPE}) == int(world[card] == ENVELOPE), frozenset({p})))
            continue
        facts += suggestion_facts(deal, world, p, triple)
    return world, facts


def seen_by(facts: Sequence[Fact], seat: str | None) -> list[Fact]:
    """The facts a seat sees: "spectator", "omniscient" or a player."""
    if seat == "omniscient":
        return list(facts)
    if seat == "spectator":
        return [f for f in facts if f.viewers is None]
    return [f for f in facts if f.viewers is None or seat in f.viewers]
