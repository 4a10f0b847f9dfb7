"""What the others know, from a seat: each other player's chance of knowing the solution already.

Knowledge about knowledge.  The seat (a player, a spectator, or everything)
holds the facts it saw; the worlds it thinks possible are the deals fitting
them.  In one such world, another player P's viewpoint is:

* P's own zones and every zone everyone sees (``Deal.visible_zones``), as
  dealt in that world: P's hand, P's hidden tile;
* the facts the seat saw that P saw too (public ones, and private ones shared
  with P), in the order they came.

P *knows* in that world when that viewpoint leaves one solution.  The chance
that P knows is the prior mass of the seat's worlds where P knows; the move
at which P *first could have* known is the earliest, over those worlds, at
which P's viewpoint already left one solution (``first_possible``), and the
move after which P *surely* knew the latest (``first_certain``: None while
some world leaves P in doubt).  Since P's viewpoint depends on the world only
through P's zones, the worlds are grouped by those zones' contents (a *hand*).

What P saw that the seat did not (a card shown to P alone), beyond what P's
own zones tell, cannot be placed in another world: it is left out, and the
answer says how many such facts there were (``unseen``): the chance is then a
lower bound of P's, and the moves upper bounds.

Exact while P's candidate hands (the contents of P's zones that some world of
the seat's fits) are at most :data:`MAX_HANDS` and an exact engine counts
the seat's worlds; otherwise :data:`SAMPLES` worlds are drawn from the seat's
knowledge (:mod:`solver.sampled`), the chance is their share with a Wilson
interval, and the moves are those among the sampled worlds (labelled
``method: sampled``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Sequence

from ..spec.dealmodel import Deal
from ..spec.facts import Fact, member
from .engine import Knowledge
from .engines import initial, rebuild
from .enumerate import _limit
from .errors import NeedsCounting, SolverError
from .queries import Viewpoint
from .sampled import CONFIDENCE, sample, wilson
from .weights import pattern_sizes, prior_mass

__all__ = ["OtherKnows", "others_know", "MAX_HANDS", "SAMPLES"]

#: Candidate hands of one player weighed exactly at most (beyond: sampled worlds).
MAX_HANDS = _limit("OTHERS_HANDS", 256)
#: Worlds drawn from the seat's knowledge when the hands are too many to weigh.
SAMPLES = _limit("OTHERS_SAMPLES", 400)

Hand = tuple[tuple[str, tuple[str, ...]], ...]  # (zone, its cards sorted) for each zone P sees


@dataclass(frozen=True)
class OtherKnows:
    """One other player's knowledge, seen from the seat (fact indexes into the facts given:
    -1 is before any fact, from P's own zones alone)."""

    player: str
    chance: float
    method: str                               # "exact" or "sampled"
    first_possible: int | None                # fact index; None: in no world (sampled: none drawn)
    first_certain: int | None                 # None: some world leaves P in doubt now
    hands: int                                # distinct hands weighed
    unseen: int                               # facts P saw beyond the seat's and P's zones: a lower bound
    interval: tuple[float, float] | None = None
    samples: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "chance": self.chance, "method": self.method,
                               "hands": self.hands, "unseen_facts": self.unseen,
                               "lower_bound": self.unseen > 0}
        if self.interval is not None:
            out.update(interval=list(self.interval), confidence=CONFIDENCE, samples=self.samples)
        return out


def _pins(hand: Hand) -> list[Fact]:
    return [Fact(member(c, {z}) == 1) for z, cards in hand for c in cards]


def _first(deal: Deal, hand: Hand, seen: Sequence[tuple[int, Fact]]) -> int | None:
    """The first fact index after which P's viewpoint with ``hand`` leaves one solution (-1: the
    hand alone; None: not even after every fact).  Knowing only grows as facts come: a bisection."""
    pins = _pins(hand)

    def knows(n: int) -> bool:  # after the first n facts P saw
        return initial(deal).with_facts(pins + [f for _i, f in seen[:n]]).determined()

    if not knows(len(seen)):
        return None
    lo, hi = 0, len(seen)  # knows(hi) holds; find the least such n
    while lo < hi:
        mid = (lo + hi) // 2
        if knows(mid):
            hi = mid
        else:
            lo = mid + 1
    return -1 if lo == 0 else seen[lo - 1][0]


def _hand_of(world: dict[str, str], zones: Sequence[str]) -> Hand:
    return tuple((z, tuple(sorted(c for c, at in world.items() if at == z))) for z in zones)


def _candidates(deal: Deal, k: Knowledge, zones: Sequence[str]) -> list[Hand] | None:
    """Every hand P may hold in ``k``'s worlds (None: more than :data:`MAX_HANDS`): the zones
    filled one after the other, a partial hand kept while some world fits it."""
    found: list[Hand] = []

    def fill(j: int, hand: Hand, known: Knowledge) -> bool:
        if j == len(zones):
            found.append(hand)
            return len(found) <= MAX_HANDS
        z = zones[j]
        used = {c for _z, cards in hand for c in cards}
        possible = [c for c in deal.deck_of_zone(z).cards
                    if c not in used and known.with_fact(Fact(member(c, {z}) == 1)).consistent()]
        for cards in itertools.combinations(possible, deal.zone(z).size):
            more = known.with_facts(_pins(((z, cards),)))
            if more.consistent() and not fill(j + 1, hand + ((z, cards),), more):
                return False
        return True

    return found if fill(0, (), k) else None


def others_know(deal: Deal, facts: Sequence[Fact], seat: Viewpoint, players: Sequence[str],
                seed: int = 0) -> list[OtherKnows]:
    """For each player of ``players`` but the seat's own, what the seat can tell of whether that
    player knows the solution after ``facts`` (see the module's docstring)."""
    mine = [f for f in facts if seat.sees(f)]
    out = []
    for player in players:
        if seat.kind == "player" and player == seat.player:
            continue
        zones = deal.visible_zones(player)
        seen = [(i, f) for i, f in enumerate(facts) if seat.sees(f) and f.seen_by(player)]
        unseen = sum(1 for f in facts if f.seen_by(player) and not seat.sees(f) and not f.zones() <= set(zones))
        out.append(_one(deal, mine, zones, seen, player, unseen, seed))
    return out


def _one(deal: Deal, mine: list[Fact], zones: Sequence[str], seen: list[tuple[int, Fact]], player: str,
         unseen: int, seed: int) -> OtherKnows:
    hands, sizes = None, None
    try:
        k = rebuild(deal, tuple(mine))  # whole deals: a hand pins cards to one player's zone
        if not getattr(k, "estimate", False):
            sizes = pattern_sizes(deal)
            hands = _candidates(deal, k, zones)
    except NeedsCounting:
        hands = None
    if hands is not None:
        weighed: dict[Hand, float] = {}
        for h in hands:
            m = prior_mass(k.with_facts(_pins(h)), sizes)
            if m > 0:
                weighed[h] = m
        total = sum(weighed.values())
        if total == 0:
            raise SolverError("no deal fits the seat's facts")
        firsts = {h: _first(deal, h, seen) for h in weighed}
        knows = sum(m for h, m in weighed.items() if firsts[h] is not None) / total
        return _summary(player, knows, "exact", list(firsts.values()), len(weighed), unseen)
    worlds, _method, _rate = sample(deal, tuple(mine), SAMPLES, seed)
    memo: dict[Hand, int | None] = {}
    drawn = []
    for w in worlds:
        h = _hand_of(w, zones)
        if h not in memo:
            memo[h] = _first(deal, h, seen)
        drawn.append(memo[h])
    hits = sum(1 for x in drawn if x is not None)
    return _summary(player, hits / len(drawn), "sampled", list(memo.values()), len(memo), unseen,
                    wilson(hits, len(drawn)), len(drawn))


def _summary(player: str, chance: float, method: str, firsts: list[int | None], hands: int, unseen: int,
             interval: tuple[float, float] | None = None, samples: int | None = None) -> OtherKnows:
    known = [x for x in firsts if x is not None]
    return OtherKnows(player, chance, method, min(known) if known else None,
                      max(known) if len(known) == len(firsts) and known else None, hands, unseen, interval, samples)
