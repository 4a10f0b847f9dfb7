"""Lady Alice deal shapes and random games for the solver tests.

The solver itself knows no game: the shapes are built here.
"""

from __future__ import annotations

from itertools import permutations

from hypothesis import strategies as st

from ruleslawyer.solver.facts import DealShape, Fact

CATEGORIES = ("suspect", "place", "time", "object")

#: players → the per-category counts the evidence may be drawn with
BASE_PATTERNS = {3: (0, 1, 1, 1), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1)}
PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Eve")


def lady_alice_shape(players: int) -> DealShape:
    """4 categories of 8 clues; patterns are the distinct permutations of the base."""
    groups = tuple(tuple(f"{cat}{i}" for i in range(1, 9)) for cat in CATEGORIES)
    patterns = tuple(sorted(set(permutations(BASE_PATTERNS[players]))))
    return DealShape(groups=groups, patterns=patterns, group_names=CATEGORIES)


SHAPES = {n: lady_alice_shape(n) for n in (3, 4, 5)}


@st.composite
def true_solutions(draw, shape: DealShape) -> frozenset[str]:
    """A solution the shape can draw."""
    pattern = draw(st.sampled_from(shape.patterns))
    cards: set[str] = set()
    for group, k in zip(shape.groups, pattern):
        cards |= set(draw(st.permutations(group))[:k])
    return frozenset(cards)


@st.composite
def verdict_cards(draw, shape: DealShape) -> list[str]:
    """One card from each group, or from three distinct groups."""
    groups = list(range(len(shape.groups)))
    if len(groups) > 3 and draw(st.booleans()):
        groups = sorted(draw(st.permutations(groups))[:3])
    return [draw(st.sampled_from(shape.groups[g])) for g in groups]


@st.composite
def games(draw, shape: DealShape, players: int, max_facts: int = 12,
          corrupt: int = 10) -> tuple[frozenset[str], list[Fact]]:
    """A true solution and facts drawn from it: public verdicts and private facts.

    Each verdict's count is off by one with a chance of ``corrupt`` percent
    (the log may then be inconsistent).
    """
    solution = draw(true_solutions(shape))
    n = draw(st.integers(0, max_facts))
    facts = []
    for step in range(n):
        if draw(st.integers(0, 3)) == 0:  # a player's private fact
            player = draw(st.sampled_from(PLAYERS[:players]))
            card = draw(st.sampled_from(shape.cards))
            facts.append(Fact.count({card}, "==", int(card in solution),
                                    source=f"step {step}", viewer=player))
            continue
        cards = draw(verdict_cards(shape))
        value = len(solution & set(cards))
        if draw(st.integers(0, 99)) < corrupt:
            value += draw(st.sampled_from((-1, 1)))
        facts.append(Fact.count(cards, "==", value, source=f"step {step}"))
    return solution, facts


def viewpoint_filter(kind: str, player: str | None):
    """The facts a viewpoint sees, as a plain predicate (independent of queries)."""
    if kind == "omniscient":
        return lambda f: True
    if kind == "spectator":
        return lambda f: f.viewer is None
    return lambda f: f.viewer in (None, player)
