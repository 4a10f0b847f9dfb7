"""From a rule file's ``deal:`` section to the :class:`~spec.dealmodel.Deal` of one table.

Zones declared ``per: player`` become one zone per player, named
``family:player``; the others keep their family's name.  A size ``rest``
takes what the deck's other zones leave.  A constraint's ``pattern`` gives
one number per value of the attribute it counts by (in the order of that
attribute's component), and ``shuffled`` makes every distinct permutation
of it a pattern, each equally likely.

>>> from ruleslawyer.spec.loader import load_rules, rules_dir
>>> path = next(p for p in sorted(rules_dir().glob("*.yaml")) if load_rules(str(p)).tokens)  # the first with tokens
>>> deal = build_deal(load_rules(str(path), variant="3p"), ("Ann", "Bob", "Cat"))
>>> [z.id for z in deal.zones], deal.solution
(['hand:Ann', 'hand:Bob', 'hand:Cat', 'desk'], ('hand:Ann', 'hand:Bob', 'hand:Cat'))
>>> deal.decks[0].constraints[0].patterns
((0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0))
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, Callable, Mapping, Sequence

from .dealmodel import Deal, DealError, Deck, GroupCount, Zone
from .diagnostics import Position
from .env import static_env
from .expr import ExprError
from .facts import Fact, Zones, member
from .model import DealSpec, Ruleset

__all__ = ["build_deal", "deal_problem", "deal_patterns", "zone_id", "zone_functions", "pin", "random_world"]


def zone_id(family: str, owner: str | None = None) -> str:
    """``hand:Ann`` for a player's zone, the family's name otherwise."""
    return f"{family}:{owner}" if owner is not None else family


def deal_patterns(base: Sequence[int], shuffled: bool) -> tuple[tuple[int, ...], ...]:
    """The patterns that can be dealt, all equally likely.

    >>> deal_patterns([0, 1, 1, 1], True)
    ((0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0))
    """
    pattern = tuple(int(n) for n in base)
    if not shuffled:
        return (pattern,)
    return tuple(sorted(set(permutations(pattern))))


def _number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealError(f"{what} must be a whole number, not {value!r}")
    return value


def _size(z: Any, env: Mapping[str, Any], n_players: int, seat: int | None) -> int | None:
    """A zone's size (None: the rest of the deck); it may read ``n_players`` and, per player, ``seat``."""
    if z.size is None:
        return None
    names = {**env, "n_players": n_players} if seat is None else {**env, "n_players": n_players, "seat": seat}
    where = f"the size of zone {z.family}" + (f" (seat {seat})" if seat is not None else "")
    size = _number(z.size.run(names), where)
    if size < 0:
        raise DealError(f"{where} is {size}: a zone holds no fewer than 0 cards")
    return size


def build_deal(rules: Ruleset, players: Sequence[str], env: Mapping[str, Any] | None = None) -> Deal:
    """The deal of these players (raise :class:`DealError` if it cannot be dealt)."""
    spec = rules.deal
    if spec is None:
        return Deal(())
    env = dict(env) if env is not None else static_env(rules)
    players = tuple(players)
    decks = []
    for deck in spec.decks:
        if deck.when is not None and not deck.when.run(env):
            continue
        cards = rules.components[deck.cards].items
        zones: list[Zone] = []
        rest: list[int] = []
        for z in deck.zones:
            owners = players if z.per_player else (None,)
            for seat, owner in enumerate(owners):
                size = _size(z, env, len(players), seat if z.per_player else None)
                if size is None:
                    rest.append(len(zones))
                zones.append(Zone(zone_id(z.family, owner), z.family, owner, size or 0, z.seen_by))  # type: ignore[arg-type]
        if len(rest) > 1:
            raise DealError(f"deck {deck.id}: only one zone can take the rest")
        if rest:
            left = len(cards) - sum(z.size for z in zones)
            if left < 0:
                raise DealError(f"deck {deck.id}: the zones take {len(cards) - left} cards, the deck has {len(cards)}")
            i = rest[0]
            zones[i] = Zone(zones[i].id, zones[i].family, zones[i].owner, left, zones[i].seen_by)
        constraints = []
        for c in deck.constraints:
            values = rules.components[rules.components[deck.cards].attributes[c.count_by]].items
            groups = tuple(tuple(card for card in cards if rules.items[card].attrs.get(c.count_by) == v)
                           for v in values)
            base = c.pattern.run(env)
            if not isinstance(base, (list, tuple)) or len(base) != len(groups):
                raise DealError(f"the pattern must give one number per {c.count_by} ({len(groups)}), not {base!r}")
            pattern = [_number(n, "a pattern's count") for n in base]
            zone_ids = tuple(z.id for z in zones if z.family in c.zones)
            constraints.append(GroupCount(zone_ids, groups, deal_patterns(pattern, bool(c.shuffled.run(env))),
                                          tuple(values)))
        built = Deck(deck.id, cards, tuple(zones), tuple(constraints))
        built.validate()
        decks.append(built)
    present = {z.family for d in decks for z in d.zones}
    solution = tuple(z.id for d in decks for z in d.zones
                     if spec.solution is not None and z.family in spec.solution.zones and z.family in present)
    return Deal(tuple(decks), solution, players)


def deal_problem(rules: Ruleset) -> tuple[str, Position | None] | None:
    """Why the variant's deal cannot be dealt (for the loader), or None."""
    if rules.deal is None:
        return None
    n = rules.param("players")
    if isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= 64:
        return None  # the players parameter has its own checks
    try:
        build_deal(rules, tuple(f"player {i + 1}" for i in range(n)))
    except (DealError, ExprError) as exc:
        return str(exc), _position(rules.deal)
    return None


def _position(spec: DealSpec) -> Position | None:
    for deck in spec.decks:
        if deck.position is not None:
            return deck.position
    return spec.cite.position if spec.cite else None


def zone_functions(rules: Ruleset, players: Sequence[str]) -> dict[str, Callable[..., Zones]]:
    """One function per zone family: ``hand(p)`` (one player's), ``hand()`` (every player's)."""
    out: dict[str, Callable[..., Zones]] = {}
    if rules.deal is None:
        return out
    players = tuple(players)
    for family, z in rules.deal.families().items():
        if z.per_player:
            out[family] = _per_player(family, players)
        else:
            out[family] = _single(family)
    return out


def _per_player(family: str, players: tuple[str, ...]) -> Callable[..., Zones]:
    every = Zones(zone_id(family, p) for p in players)

    def zones(*owners: Any) -> Zones:
        if not owners:
            return every
        chosen: list[str] = []
        for o in owners:
            for p in (o if isinstance(o, (list, tuple, set, frozenset)) else [o]):
                if p not in players:
                    raise ExprError(f"{family}({p!r}): not a player")
                chosen.append(zone_id(family, p))
        return Zones(chosen)
    return zones


def _single(family: str) -> Callable[..., Zones]:
    zone = Zones({family})

    def zones(*args: Any) -> Zones:
        if args:
            raise ExprError(f"{family}() takes no argument: it is one zone")
        return zone
    return zones


def pin(card: str, zone: str, viewers: frozenset[str] | None, source: Any = None, text: str | None = None) -> Fact:
    """The fact "``card`` lies in ``zone``", known to ``viewers`` (None: everyone)."""
    return Fact(member(card, {zone}) == 1, viewers, source, text)


def random_world(deal: Deal, rng: Any) -> dict[str, str]:
    """A deal drawn as the game's shuffle draws it: card -> zone id.

    ``rng`` is a :class:`random.Random`.  Per deck: a pattern of its
    constraint uniformly, the cards of each group uniformly, then the cards
    shuffled into the zones.
    """
    world: dict[str, str] = {}
    for deck in deal.decks:
        cards = list(deck.cards)
        inside_ids: tuple[str, ...] = ()
        chosen: list[str] = []
        if deck.constraints:
            g = deck.constraints[0]
            inside_ids = g.zones
            pattern = rng.choice(g.patterns)
            for group, k in zip(g.groups, pattern):
                chosen.extend(rng.sample(list(group), k))
            grouped = {c for grp in g.groups for c in grp}
            free = [c for c in cards if c not in grouped]
            room = sum(z.size for z in deck.zones if z.id in inside_ids)
            chosen.extend(rng.sample(free, room - len(chosen)))
        rest = [c for c in cards if c not in set(chosen)]
        rng.shuffle(chosen)
        rng.shuffle(rest)
        for zones, pool in (([z for z in deck.zones if z.id in inside_ids], chosen),
                            ([z for z in deck.zones if z.id not in inside_ids], rest)):
            i = 0
            for z in zones:
                for card in pool[i:i + z.size]:
                    world[card] = z.id
                i += z.size
    return world
