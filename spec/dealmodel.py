"""The hidden deal as plain data: decks of cards dealt into zones.

Everything hidden is a deal.  A :class:`Deck` holds cards; its
:class:`Zone` s (a player's hand, the solution, a public row, the undealt
rest; or one secret tile per player) each take a fixed number of them, so
every card lies in exactly one zone.  A deck may constrain its deal by the
cards' attributes (:class:`GroupCount`: "the hands together hold one card of
each category, the categories shuffled").  Decks are dealt independently.

The prior is the game's shuffle: for each deck, one pattern of each group
constraint is picked uniformly, then every deal fitting it is equally
likely.  The solution is the content of the zones in :attr:`Deal.solution`.

Built from a rule file's ``deal:`` section by :mod:`spec.deal`; read by every
solver engine.  Facts over it are :mod:`spec.facts`.

>>> deck = Deck("d", ("a", "b", "c"),
...             (Zone("hand:Ann", "hand", "Ann", 1, "owner"), Zone("rest", "rest", None, 2, "nobody")))
>>> deal = Deal((deck,), solution=("hand:Ann",))
>>> deal.zone("hand:Ann").owner, deal.deck_of("b").id, deal.solution_cards
('Ann', 'd', ('a', 'b', 'c'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb, factorial, prod
from typing import Iterable, Literal

__all__ = ["Zone", "GroupCount", "Deck", "Deal", "DealError", "multinomial"]

SeenBy = Literal["owner", "everyone", "nobody"]


class DealError(ValueError):
    """A deal that cannot be dealt (sizes that do not add up, a pattern too big...)."""


@dataclass(frozen=True)
class Zone:
    """A place cards are dealt to.

    ``family`` groups the zones declared together (every player's ``hand``);
    ``owner`` is the player a per-player zone belongs to (None for the
    table or nobody); ``seen_by`` says who sees its content.
    """

    id: str
    family: str
    owner: str | None
    size: int
    seen_by: SeenBy = "nobody"


@dataclass(frozen=True)
class GroupCount:
    """The zones ``zones`` together hold ``pattern[i]`` cards of ``groups[i]``.

    One of ``patterns`` is picked uniformly at random when the deck is dealt.
    """

    zones: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    patterns: tuple[tuple[int, ...], ...]
    group_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    """Cards dealt together into zones whose sizes add up to the deck."""

    id: str
    cards: tuple[str, ...]
    zones: tuple[Zone, ...]
    constraints: tuple[GroupCount, ...] = ()

    def zone_ids(self) -> tuple[str, ...]:
        return tuple(z.id for z in self.zones)

    def validate(self) -> None:
        """Raise :class:`DealError` unless the deck can be dealt."""
        if len(set(self.cards)) != len(self.cards):
            raise DealError(f"deck {self.id}: a card is listed twice")
        if len(set(self.zone_ids())) != len(self.zones):
            raise DealError(f"deck {self.id}: a zone is listed twice")
        if any(z.size < 0 for z in self.zones):
            raise DealError(f"deck {self.id}: a zone of negative size")
        total = sum(z.size for z in self.zones)
        if total != len(self.cards):
            raise DealError(f"deck {self.id}: the zones take {total} cards, the deck has {len(self.cards)}")
        ids = set(self.zone_ids())
        for g in self.constraints:
            if not set(g.zones) <= ids:
                raise DealError(f"deck {self.id}: a constraint names a zone of another deck")
            grouped = [c for grp in g.groups for c in grp]
            if len(set(grouped)) != len(grouped) or not set(grouped) <= set(self.cards):
                raise DealError(f"deck {self.id}: constraint groups must be distinct cards of the deck")
            if not g.patterns or len(set(g.patterns)) != len(g.patterns):
                raise DealError(f"deck {self.id}: a constraint needs distinct patterns")
            room = sum(z.size for z in self.zones if z.id in g.zones)
            for pattern in g.patterns:
                if len(pattern) != len(g.groups) or any(not 0 <= k <= len(grp) for k, grp in zip(pattern, g.groups)):
                    raise DealError(f"deck {self.id}: pattern {pattern} does not fit the groups")
                if sum(pattern) != room and len(grouped) == len(self.cards):
                    raise DealError(f"deck {self.id}: pattern {pattern} deals {sum(pattern)} cards "
                                    f"into zones of {room}")

    def deals(self) -> int:
        """How many deals the deck has (every pattern counted), without constraints' weights.

        >>> Deck("d", tuple("abcd"), (Zone("x", "x", None, 1), Zone("y", "y", None, 3))).deals()
        4
        """
        if not self.constraints:
            return multinomial(len(self.cards), [z.size for z in self.zones])
        if len(self.constraints) > 1:
            raise DealError("counting deals of a deck with several constraints is not supported")
        g = self.constraints[0]
        inside = [z.size for z in self.zones if z.id in g.zones]
        outside = [z.size for z in self.zones if z.id not in g.zones]
        free = [c for c in self.cards if not any(c in grp for grp in g.groups)]
        total = 0
        for pattern in g.patterns:
            picks = prod(comb(len(grp), k) for grp, k in zip(g.groups, pattern))
            # the pattern's cards plus some free cards fill the zones inside; the rest go outside
            need = sum(inside) - sum(pattern)
            if need < 0 or need > len(free):
                continue
            grouped_out = sum(len(grp) - k for grp, k in zip(g.groups, pattern))
            total += (picks * comb(len(free), need) * multinomial(sum(inside), inside)
                      * multinomial(grouped_out + len(free) - need, outside))
        return total


@dataclass(frozen=True)
class Deal:
    """Every deck of a game, dealt for one table of players."""

    decks: tuple[Deck, ...]
    solution: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    _zone_index: dict[str, Zone] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _card_deck: dict[str, Deck] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        for deck in self.decks:
            for z in deck.zones:
                if z.id in self._zone_index:
                    raise DealError(f"zone {z.id} is in two decks")
                self._zone_index[z.id] = z
            for c in deck.cards:
                if c in self._card_deck:
                    raise DealError(f"card {c} is in two decks")
                self._card_deck[c] = deck
        unknown = [z for z in self.solution if z not in self._zone_index]
        if unknown:
            raise DealError(f"the solution names unknown zones {unknown}")

    def validate(self) -> None:
        for deck in self.decks:
            deck.validate()

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for d in self.decks for c in d.cards)

    @property
    def zones(self) -> tuple[Zone, ...]:
        return tuple(z for d in self.decks for z in d.zones)

    def zone(self, zone_id: str) -> Zone:
        return self._zone_index[zone_id]

    def has_zone(self, zone_id: str) -> bool:
        return zone_id in self._zone_index

    def deck_of(self, card: str) -> Deck:
        return self._card_deck[card]

    def zones_of(self, family: str, owner: str | None = None) -> tuple[str, ...]:
        """Zone ids of a family (every player's, or one owner's)."""
        return tuple(z.id for z in self.zones if z.family == family and (owner is None or z.owner == owner))

    @property
    def solution_deck(self) -> Deck | None:
        """The deck whose zones hold the solution (None when the game declares none)."""
        return self.deck_of_zone(self.solution[0]) if self.solution else None

    def deck_of_zone(self, zone_id: str) -> Deck:
        for d in self.decks:
            if zone_id in d.zone_ids():
                return d
        raise KeyError(zone_id)

    @property
    def solution_cards(self) -> tuple[str, ...]:
        """The cards that may be part of the solution (those of its deck)."""
        deck = self.solution_deck
        return deck.cards if deck else ()

    def visible_zones(self, player: str | None) -> tuple[str, ...]:
        """Zones whose content a viewer sees at the deal: everyone's, and a player's own."""
        return tuple(z.id for z in self.zones
                     if z.seen_by == "everyone" or (player is not None and z.seen_by == "owner" and z.owner == player))

    def deals(self) -> int:
        """How many deals of every deck together (the size of the full space)."""
        return prod(d.deals() for d in self.decks)


def multinomial(n: int, parts: Iterable[int]) -> int:
    """Ways to split ``n`` labelled things into groups of these sizes.

    >>> multinomial(4, [1, 3]), multinomial(16, [1, 5, 5, 5])
    (4, 12108096)
    """
    parts = list(parts)
    if sum(parts) != n or any(p < 0 for p in parts):
        return 0
    return factorial(n) // prod(factorial(p) for p in parts)
