"""Status without counts (issue 22): when no counting engine takes a deal, consistency,
each card's status, determination, the zone status and the few solutions left come
from Z3 (checker.consistency.StatusKnowledge).  Tested against the plain enumeration
of every deal (solver.brute) on a reduced Clue deck, with the facts a game of Clue gives:
"cannot" (none of three named cards in a hand), a card shown (one of them, or which)."""

from __future__ import annotations

import random

import pytest

from ruleslawyer.checker.consistency import (CountingUnavailable, Observations, StatusKnowledge, knowledge_of,
                                             solve_view)
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.spec.dealmodel import Deal, Deck, GroupCount, Zone
from ruleslawyer.spec.facts import Fact, count, member

KINDS = (("s1", "s2", "s3"), ("w1", "w2"), ("r1", "r2", "r3"))  # 8 cards: suspects, weapons, rooms
CARDS = tuple(c for k in KINDS for c in k)
PLAYERS = ("Ann", "Ben", "Cat")
HANDS = tuple(f"hand:{p}" for p in PLAYERS)


def _deal() -> Deal:
    zones = (Zone("envelope", "envelope", None, 3, "nobody"),
             Zone("hand:Ann", "hand", "Ann", 2, "owner"), Zone("hand:Ben", "hand", "Ben", 2, "owner"),
             Zone("hand:Cat", "hand", "Cat", 1, "owner"))  # uneven hands: sizes by seat
    deck = Deck("cards", CARDS, zones, (GroupCount(("envelope",), KINDS, ((1, 1, 1),)),))
    return Deal((deck,), solution=("envelope",), players=PLAYERS)


def _game(rng: random.Random, moves: int) -> list[Fact]:
    """Facts of random suggestions answered against a random deal (all true of it)."""
    envelope = [rng.choice(k) for k in KINDS]
    rest = [c for c in CARDS if c not in envelope]
    rng.shuffle(rest)
    world = {c: "envelope" for c in envelope}
    world.update({c: z for c, z in zip(rest, ["hand:Ann"] * 2 + ["hand:Ben"] * 2 + ["hand:Cat"])})
    facts = [Fact(member(c, {"hand:Ann"}) == 1, frozenset({"Ann"}), ("hand", c)) for c in CARDS
             if world[c] == "hand:Ann"]
    for m in range(moves):
        by = rng.randrange(3)
        named = [rng.choice(k) for k in KINDS]
        for step in (1, 2):
            p = PLAYERS[(by + step) % 3]
            held = [c for c in named if world[c] == f"hand:{p}"]
            if not held:
                facts.append(Fact(count(named, {f"hand:{p}"}) == 0, None, ("cannot", m, p)))
                continue
            facts.append(Fact(count(named, {f"hand:{p}"}) >= 1, None, ("show", m, p)))
            facts.append(Fact(member(rng.choice(held), {f"hand:{p}"}) == 1, frozenset({PLAYERS[by]}), ("card", m)))
            break
    return facts


@pytest.mark.parametrize("seed", range(12))
def test_status_from_z3_is_the_enumeration_s_from_every_seat(seed):
    deal = _deal()
    facts = _game(random.Random(seed), 4)
    for view in (Viewpoint.spectator(), Viewpoint.of_player("Ann"), Viewpoint.omniscient()):
        seen = [f for f in facts if view.sees(f)]
        for upto in range(0, len(seen) + 1, 2):
            z, b = StatusKnowledge.initial(deal, "a test").with_facts(seen[:upto]), \
                BruteKnowledge.initial(deal).with_facts(seen[:upto])
            assert z.consistent() and b.consistent()
            assert z.status() == b.status()
            assert z.determined() == b.determined()
            sols = b.solutions(1000)
            assert sorted(map(sorted, z.solutions(1000))) == sorted(map(sorted, sols))
            assert z.solutions(len(sols) - 1) is None if len(sols) > 1 else True
            expected = {c: {zone: ("in" if q == 1 else "out" if q == 0 else "open") for zone, q in zs.items()}
                        for c, zs in b.zone_probabilities().items()}
            assert z.zone_status() == expected


def test_a_fact_no_deal_fits_is_refused_with_its_clash(monkeypatch):
    import ruleslawyer.checker.consistency as consistency
    from ruleslawyer.solver.errors import TooBig

    def too_big(deal, count=True):
        raise TooBig("no counting here")

    monkeypatch.setattr(consistency, "initial", too_big)  # as for a deal no counting engine takes
    deal = _deal()
    seen = Observations(deal)
    assert isinstance(seen.knowledge, StatusKnowledge)
    assert seen.add(Fact(member("s1", {"hand:Ann"}) == 1, frozenset({"Ann"}), "Ann holds s1")) is None
    clash = seen.add(Fact(count(["s1", "w1", "r1"], {"hand:Ann"}) == 0, None, "Ann cannot"))
    assert clash is not None and clash.sources == ("Ann holds s1",)
    assert BruteKnowledge.initial(deal).with_facts(seen.facts).consistent()


def test_counts_are_not_made_up():
    k = StatusKnowledge.initial(_deal(), "too many deals")
    for ask in (k.count, k.solution_count, k.probabilities, k.pattern_probabilities):
        with pytest.raises(CountingUnavailable, match="too many deals"):
            ask()
    assert k.zone_probabilities() is None


def test_the_bundled_clue_deal_is_answered_by_z3_with_no_chances(tmp_path):
    from ruleslawyer.spec.deal import build_deal
    from ruleslawyer.spec.loader import load_rules

    deal = build_deal(load_rules("clue", variant="6p"), [f"P{i}" for i in range(6)])
    k = knowledge_of(deal)
    result = solve_view(deal, [Fact(count(["scarlet", "rope", "hall"], {"hand:P1"}) == 0)], Viewpoint.spectator())
    if getattr(k, "counted", True):  # an exact engine counts the full deck (after the merge): it answers
        assert result.count > 0
        return
    assert result.to_json()["count"] is None and result.probabilities == {}
    assert set(result.status.values()) == {"open"} and not result.determined
    assert result.zone_status["scarlet"]["hand:P1"] == "out" and result.zone_status["scarlet"]["envelope"] == "open"
