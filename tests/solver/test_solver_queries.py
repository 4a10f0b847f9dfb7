"""The query facade: viewpoints, history, hindsight, first inconsistency, JSON."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .solver_helpers import PLAYERS, SHAPES, games, lady_alice_shape, viewpoint_filter

from ruleslawyer.solver import queries
from ruleslawyer.solver.brute import BruteKnowledge
from ruleslawyer.solver.enumerate import Knowledge
from ruleslawyer.solver.facts import Fact
from ruleslawyer.solver.queries import Viewpoint

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_viewpoints(players: int) -> list[Viewpoint]:
    return ([Viewpoint.spectator(), Viewpoint.omniscient()]
            + [Viewpoint.of_player(p) for p in PLAYERS[:players]])


def brute_counts(shape, facts, sees) -> list[int]:
    """Count after every prefix (0..len(facts)) for one viewpoint, by brute force."""
    k = BruteKnowledge.initial(shape)
    counts = [k.count()]
    for fact in facts:
        if sees(fact):
            k = k.with_fact(fact)
        counts.append(k.count())
    return counts


@st.composite
def small_games(draw, corrupt: int = 10):
    players = draw(st.sampled_from((3, 4)))
    _, facts = draw(games(SHAPES[players], players, max_facts=16, corrupt=corrupt))
    return players, facts


@settings(max_examples=40, **SETTINGS)
@given(small_games())
def test_history_matches_brute_force(game):
    players, facts = game
    shape = SHAPES[players]
    views = all_viewpoints(players)
    hist = queries.history(shape, facts, views)
    assert len(hist.steps) == len(facts) + 1
    first = hist.first_determined()
    for view in views:
        sees = viewpoint_filter(view.kind, view.player)
        expected = brute_counts(shape, facts, sees)
        assert [s[view.name].count for s in hist.steps] == expected
        assert [s[view.name].determined for s in hist.steps] == [c == 1 for c in expected]
        ones = [i for i, c in enumerate(expected) if c == 1]
        assert first[view.name] == (ones[0] - 1 if ones else None)
    assert queries.first_determined(shape, facts, views) == first


@settings(max_examples=40, **SETTINGS)
@given(small_games(corrupt=25))
def test_first_inconsistent_matches_brute_force(game):
    players, facts = game
    shape = SHAPES[players]
    counts = brute_counts(shape, facts, lambda f: True)
    found = queries.first_inconsistent(shape, facts)
    if counts[-1] > 0:
        assert found is None
        return
    index = counts.index(0) - 1
    assert found is not None and found.index == index
    assert found.core[-1] == index and list(found.core) == sorted(set(found.core))
    assert list(found.facts) == [facts[i] for i in found.core]
    core = list(found.facts)
    assert Knowledge.initial(shape).with_facts(core).count() == 0
    for i in range(len(core)):
        assert Knowledge.initial(shape).with_facts(core[:i] + core[i + 1:]).count() > 0


def random_game(players: int, moves: int, seed: int) -> tuple[frozenset[str], list[Fact]]:
    """A long consistent game: verdicts, and one private fact per player."""
    rng = random.Random(seed)
    shape = lady_alice_shape(players)
    pattern = rng.choice(shape.patterns)
    solution = frozenset(c for g, k in zip(shape.groups, pattern) for c in rng.sample(g, k))
    facts = []
    for player in PLAYERS[:players]:
        card = rng.choice(shape.cards)
        facts.append(Fact.count({card}, "==", int(card in solution), viewer=player))
    for move in range(moves):
        cards = [rng.choice(g) for g in shape.groups]
        facts.append(Fact.count(cards, "==", len(solution & set(cards)), source=move))
    return solution, facts


def test_history_of_a_long_five_player_game():
    shape = lady_alice_shape(5)
    solution, facts = random_game(5, 60, seed=7)
    views = all_viewpoints(5)
    hist = queries.history(shape, facts, views, with_status=True)
    assert queries.first_inconsistent(shape, facts) is None
    for step in (0, 1, 5, 20, 65):
        for view in views:
            alone = queries.solve(shape, facts[:step], view)
            state = hist.steps[step][view.name]
            assert (state.count, state.determined, state.status) == (
                alone.count, alone.determined, alone.status)
    final = hist.steps[-1]["omniscient"]
    assert final.count >= 1
    assert all((s == "in") == (c in solution) for c, s in final.status.items() if s != "open")


def test_first_inconsistent_respects_the_viewpoint():
    shape = lady_alice_shape(4)
    _, facts = random_game(4, 10, seed=3)
    verdict = facts[4]  # the first public verdict, after one private fact each
    lie = Fact(verdict.weights, "!=", verdict.value, source="lie", viewer="Bob")
    log = facts + [lie]
    found = queries.first_inconsistent(shape, log)
    assert found is not None and found.index == len(log) - 1
    assert found.core == (4, len(log) - 1)
    assert queries.first_inconsistent(shape, log, Viewpoint.spectator()) is None
    assert queries.first_inconsistent(shape, log, Viewpoint.of_player("Alice")) is None
    assert queries.first_inconsistent(shape, log, Viewpoint.of_player("Bob")) is not None


def test_results_are_json():
    shape = lady_alice_shape(3)
    solution, facts = random_game(3, 12, seed=11)
    card = sorted(solution)[0]
    verdict = facts[3]  # the first public verdict, after one private fact each
    log = facts + [Fact(verdict.weights, "!=", verdict.value, source=object(),
                        viewer="Alice")]
    results = [
        queries.solve(shape, log, Viewpoint.spectator(), max_solutions=5000).to_json(),
        queries.history(shape, log, all_viewpoints(3), with_status=True).to_json(),
        queries.first_inconsistent(shape, log).to_json(),
        queries.explain(shape, log[:-1], card, Viewpoint.omniscient()).to_json(),
        queries.solve(shape, log, Viewpoint.omniscient()).to_json(),
    ]
    for result in results:
        assert json.loads(json.dumps(result)) == result  # only JSON types inside
    spectator = results[0]
    assert spectator["pattern_probabilities"][0]["pattern"] in map(list, shape.patterns)
    assert len(spectator["solutions"]) == spectator["count"]
    assert results[2]["core"][-1]["index"] == len(log) - 1
    assert isinstance(results[2]["core"][-1]["source"], str)
    assert results[4]["consistent"] is False and results[4]["status"] == {}


def test_viewpoint_names_round_trip():
    for view in all_viewpoints(5):
        assert Viewpoint.parse(view.name) == view
