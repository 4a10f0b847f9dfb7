"""The query facade: viewpoints, history, hindsight, first inconsistency, JSON."""

from __future__ import annotations

import json
import random
from functools import lru_cache

from hypothesis import HealthCheck, given, settings

from ruleslawyer.solver import queries
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.engines import initial
from ruleslawyer.solver.queries import Viewpoint
from ruleslawyer.spec.dealmodel import Deal
from ruleslawyer.spec.facts import Fact, count, member, negate

from .solver_helpers import DEALS, PLAYERS, games, hand, hands_deal, lady_alice_deal, viewpoint_filter

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: a reduced deck: 3 groups of 3 cards, 3 hands of one card, patterns (0,1,2) shuffled
REDUCED = hands_deal(tuple(tuple(f"g{g}c{i}" for i in range(3)) for g in range(3)), 3, (0, 1, 2))


def all_viewpoints(deal: Deal) -> list[Viewpoint]:
    return ([Viewpoint.spectator(), Viewpoint.omniscient()]
            + [Viewpoint.of_player(p) for p in deal.players])


@lru_cache(maxsize=None)
def brute_initial(deal: Deal) -> BruteKnowledge:
    return BruteKnowledge.initial(deal)


def brute_counts(deal: Deal, facts: list[Fact], sees) -> list[tuple[int, int]]:
    """(deals, solutions) after every prefix (0..len(facts)) for one viewpoint, by brute force."""
    k = brute_initial(deal)
    counts = [(k.deal_count(), k.solution_count())]
    for fact in facts:
        if sees(fact):
            k = k.with_fact(fact)
        counts.append((k.deal_count(), k.solution_count()))
    return counts


@settings(max_examples=40, **SETTINGS)
@given(games(REDUCED, max_facts=14, corrupt=10, off_frame=True))
def test_history_matches_brute_force(game):
    _, facts = game
    views = all_viewpoints(REDUCED)
    hist = queries.history(REDUCED, facts, views)
    assert len(hist.steps) == len(facts) + 1
    first = hist.first_determined()
    for view in views:
        expected = brute_counts(REDUCED, facts, viewpoint_filter(view.kind, view.player))
        states = [s[view.name] for s in hist.steps]
        assert [s.solution_count for s in states] == [n for _, n in expected]
        assert [s.count for s in states] == [d if s.worlds == "deals" else n
                                            for s, (d, n) in zip(states, expected)]
        assert [s.determined for s in states] == [n == 1 for _, n in expected]
        ones = [i for i, (_, n) in enumerate(expected) if n == 1]
        assert first[view.name] == (ones[0] - 1 if ones else None)
    assert queries.first_determined(REDUCED, facts, views) == first


@settings(max_examples=40, **SETTINGS)
@given(games(REDUCED, max_facts=14, corrupt=25, off_frame=True))
def test_first_inconsistent_matches_brute_force(game):
    _, facts = game
    counts = brute_counts(REDUCED, facts, lambda f: True)
    found = queries.first_inconsistent(REDUCED, facts)
    if counts[-1][0] > 0:
        assert found is None
        return
    index = [d for d, _ in counts].index(0) - 1
    assert found is not None and found.index == index
    assert found.core[-1] == index and list(found.core) == sorted(set(found.core))
    assert list(found.facts) == [facts[i] for i in found.core]
    core = list(found.facts)
    assert brute_initial(REDUCED).with_facts(core).count() == 0
    for i in range(len(core)):
        assert brute_initial(REDUCED).with_facts(core[:i] + core[i + 1:]).count() > 0


def random_game(players: int, moves: int, seed: int) -> tuple[dict[str, str], list[Fact]]:
    """A long consistent Lady Alice game: each player's own card, then verdicts."""
    rng = random.Random(seed)
    deal = DEALS[players]
    (constraint,) = deal.decks[0].constraints
    pattern = rng.choice(constraint.patterns)
    solution = [c for g, k in zip(constraint.groups, pattern) for c in rng.sample(g, k)]
    rng.shuffle(solution)
    world = dict.fromkeys(deal.cards, "rest") | dict(zip(solution, deal.solution))
    facts = [Fact(member(card, {zone}) == 1, viewers=frozenset({p}))
             for card, zone, p in zip(solution, deal.solution, deal.players)]
    for move in range(moves):
        cards = [rng.choice(g) for g in constraint.groups]
        facts.append(Fact(count(cards, deal.solution) == len(set(solution) & set(cards)), source=move))
    return world, facts


def test_history_of_a_long_five_player_game():
    deal = DEALS[5]
    world, facts = random_game(5, 60, seed=7)
    views = all_viewpoints(deal)
    hist = queries.history(deal, facts, views, with_status=True)
    assert queries.first_inconsistent(deal, facts) is None
    for step in (0, 1, 5, 20, 65):
        for view in views:
            alone = queries.solve(deal, facts[:step], view)
            state = hist.steps[step][view.name]
            assert (state.count, state.determined, state.status, state.solution_count) == (
                alone.count, alone.determined, alone.status, alone.solution_count)
    final = hist.steps[-1]["omniscient"]
    assert final.count == 1  # every hand is pinned
    assert all((s == "in") == (world[c] != "rest") for c, s in final.status.items())


def test_first_inconsistent_respects_the_viewpoint():
    deal = DEALS[4]
    _, facts = random_game(4, 10, seed=3)
    verdict = facts[4]  # the first public verdict, after one private fact each
    lie = Fact(negate(verdict.formula), viewers=frozenset({"Bob"}), source="lie")
    log = facts + [lie]
    found = queries.first_inconsistent(deal, log)
    assert found is not None and found.index == len(log) - 1
    assert found.core == (4, len(log) - 1)
    assert queries.first_inconsistent(deal, log, Viewpoint.spectator()) is None
    assert queries.first_inconsistent(deal, log, Viewpoint.of_player("Alice")) is None
    assert queries.first_inconsistent(deal, log, Viewpoint.of_player("Bob")) is not None


def test_explain_a_zone():
    deal = DEALS[3]
    world, facts = random_game(3, 0, seed=5)
    card = next(c for c, z in world.items() if z == hand("Bob"))
    bob = Viewpoint.of_player("Bob")
    why = queries.explain(deal, facts, card, bob, zone=hand("Bob"))
    assert (why.status, why.core, why.zone) == ("in", (1,), hand("Bob"))
    assert queries.explain(deal, facts, card, bob).status == "in"
    # Alice's card is out of Bob's hand, for Alice, because she holds it
    mine = next(c for c, z in world.items() if z == hand("Alice"))
    why = queries.explain(deal, facts, mine, Viewpoint.of_player("Alice"), zone=hand("Bob"))
    assert (why.status, why.core) == ("out", (0,))
    assert queries.explain(deal, facts, mine, Viewpoint.spectator(), zone=hand("Bob")).status == "open"


def test_results_are_json():
    deal = DEALS[3]
    world, facts = random_game(3, 12, seed=11)
    card = next(c for c, z in sorted(world.items()) if z not in ("rest", hand("Alice")))
    verdict = facts[3]  # the first public verdict, after one private fact each
    log = facts + [Fact(negate(verdict.formula), source=object(), viewers=frozenset({"Alice"}))]
    off_frame = facts + [Fact(member(card, {hand("Alice")}) == 0, viewers=frozenset({"Bob"}))]
    results = [
        queries.solve(deal, log, Viewpoint.spectator(), max_solutions=5000).to_json(),
        queries.history(deal, log, all_viewpoints(deal), with_status=True).to_json(),
        queries.first_inconsistent(deal, log).to_json(),
        queries.explain(deal, log[:-1], card, Viewpoint.omniscient()).to_json(),
        queries.solve(deal, log, Viewpoint.omniscient()).to_json(),
        queries.solve(deal, off_frame, Viewpoint.of_player("Bob")).to_json(),
        queries.explain(deal, off_frame, card, Viewpoint.omniscient(), zone=hand("Alice")).to_json(),
    ]
    for result in results:
        assert json.loads(json.dumps(result)) == result  # only JSON types inside
    spectator = results[0]
    assert spectator["pattern_probabilities"][0]["pattern"] in map(list, deal.decks[0].constraints[0].patterns)
    assert spectator["worlds"] == "solutions" and spectator["count"] == spectator["solution_count"]
    assert len(spectator["solutions"]) == spectator["count"]
    assert results[2]["core"][-1]["index"] == len(log) - 1
    assert isinstance(results[2]["core"][-1]["source"], str)
    assert results[2]["core"][-1]["viewers"] == ["Alice"]
    assert results[4]["consistent"] is False and results[4]["status"] == {}
    bob = results[5]
    assert bob["worlds"] == "deals" and bob["count"] >= bob["solution_count"]
    assert set(bob["zone_probabilities"][card]) == {*deal.solution, "rest"}
    assert results[6]["zone"] == hand("Alice") and results[6]["status"] == "out"


def test_fact_to_json_is_readable():
    fact = Fact(count(["a", "b"], {"hand:X", "hand:Y"}) - count(["c"], {"rest"}) >= 1,
                viewers=frozenset({"Y", "X"}), source="move 3", text="a verdict")
    assert queries.fact_to_json(fact) == {
        "formula": {"sum": [{"cards": ["a", "b"], "zones": ["hand:X", "hand:Y"], "weight": 1},
                            {"cards": ["c"], "zones": ["rest"], "weight": -1}],
                    "op": ">=", "value": 1},
        "viewers": ["X", "Y"], "source": "move 3", "text": "a verdict"}
    either = negate(member("a", {"x"}) == 1) | (member("b", {"x"}) == 1) & (member("c", {"y"}) != 0)
    assert queries.formula_to_json(either) == {"any": [
        {"sum": [{"cards": ["a"], "zones": ["x"], "weight": 1}], "op": "!=", "value": 1},
        {"all": [{"sum": [{"cards": ["b"], "zones": ["x"], "weight": 1}], "op": "==", "value": 1},
                 {"sum": [{"cards": ["c"], "zones": ["y"], "weight": 1}], "op": "!=", "value": 0}]}]}


def test_viewpoints():
    for view in all_viewpoints(DEALS[5]):
        assert Viewpoint.parse(view.name) == view
    shared = Fact(member("a", {"x"}) == 1, viewers=frozenset({"Alice", "Bob"}))
    assert Viewpoint.of_player("Bob").sees(shared) and not Viewpoint.spectator().sees(shared)
    assert not Viewpoint.of_player("Carol").sees(shared) and Viewpoint.omniscient().sees(shared)


def test_lady_alice_spaces_by_hand_count():
    # 3p: 4 patterns x 8^3 sets, each dealt to 3 hands in 3! ways; 4p: 8^4 x 4!;
    # 5p: 4 patterns x C(8,2) x 8^3, in 5! ways
    for players, sets, deals in ((3, 2048, 12_288), (4, 4096, 98_304), (5, 57_344, 6_881_280)):
        deal = lady_alice_deal(players)
        assert deal == DEALS[players] and deal.players == PLAYERS[:players]
        assert initial(deal).count() == sets and deal.deals() == deals
