"""A card drawn at random from a whole hand, valued from the marginal of one count (lab/outcomes.py).

Perfect Alibi's Cook: "When another player is about to show you a card
(because you asked them a question and their answer was at least 2), you
instead take a card at random from their hand, look at it, and then return
it."  The draw names any card of the hand, not only the counted ones.
Expectations come from a plain enumeration (tests/lab/test_outcomes.py's
``seat_worlds`` and ``plain_values``: every deal the seat cannot rule out,
each way the move may end tried in each, one of those possible uniformly)
and from lab.advice's reference path (``marginals=False``: one count per
outcome); a hand-made deal of six cards checks the same against itertools
and checks that a draw naming too few cards is refused.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from ruleslawyer.lab.advice import Path as Way
from ruleslawyer.lab.advice import _key, move_paths, value_moves
from ruleslawyer.lab.outcomes import count_shape, value_counted
from ruleslawyer.solver.engines import initial, rebuild
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import Fact, count, member

from .test_advice import _setting
from .test_outcomes import _deals, plain_values, same_as_plain, same_as_reference, seat_worlds

ROOT = Path(__file__).resolve().parents[2]
# Yellow has just swapped her assistant for the Cook (move 15) and asks Green next (move 16).
ALIBI = ROOT / "examples" / "perfect-alibi" / "clean-3p.yaml"
AT = 16
HAND = 5  # cards in each hand, 3 players ("clean-3p.yaml": 5 cards each)


def _turn(seat: str):
    """The position, ``seat``'s knowledge as the view."""
    rep, lab, turn, _facts = _setting(ALIBI, AT)
    facts = [f for f in rep.facts(AT) if f.viewers is None or seat in f.viewers]
    return rep, lab, replace(turn, view=initial(rep.deal).with_facts(facts)), facts


def _valued(seat: str, marginals: bool, only=None):
    """Every legal question from ``seat``'s knowledge (``only``: those questions alone listed)."""
    rep, lab, turn, facts = _turn(seat)
    if only is not None:  # the listing of the mover's choices cut to these (each valued alone)
        lab.mover_choices = lambda *_a, **_k: iter([dict(a) for a in only])
    adv = value_moves(turn, max_choices=5000, budget=10**6, kinds=["ask"], seat=seat, marginals=marginals)
    return rep, lab, turn, facts, adv


@pytest.fixture(scope="module")
def asker():
    return _valued("Yellow", True)


@pytest.fixture(scope="module")
def other():
    return _valued("Blue", True)


def test_the_position_has_the_cook_asking():
    _rep, lab, turn, _facts = _turn("Yellow")
    assert turn.actor == "Yellow" and "ask" in turn.kinds
    assert turn.state.vars["assistant"]["Yellow"] == "cook"


def test_every_question_valued_from_the_marginal(asker):
    rep, lab, turn, _facts, adv = asker
    assert adv.choices == len(adv.moves) == 30 and not adv.sampled
    assert all(m.counted_by == "marginal" for m in adv.moves)
    # a question may end with a card drawn, naming cards beyond the ones asked about (all of
    # them when every card is asked about: every time, or every location)
    shapes = [count_shape(move_paths(lab, turn.state, turn.actor, m.kind, m.args, turn.actor)) for m in adv.moves]
    assert all(s is not None and (s.drawn or len(s.cards) == len(rep.deal.decks[0].cards)) for s in shapes)
    assert sum(bool(s.drawn) for s in shapes) > 20
    drawn = [m for m in adv.moves if any(len(a.says) == 2 for a in m.answers)]  # the answer and the card
    assert len(drawn) > 20
    assert any("drew" in a.says[1] for m in drawn for a in m.answers if len(a.says) == 2)


def test_the_draw_is_one_card_of_the_whole_hand(asker):
    """The rule file's ways to end, read against the rulebook: in each deal where Green answers 2
    or more, the ways possible are one per card of Green's hand, whichever was asked about."""
    rep, lab, turn, facts, adv = asker
    worlds = seat_worlds(rep.deal, facts, "hand:Yellow")
    drew = kept = 0
    for m in adv.moves[::5]:
        paths = move_paths(lab, turn.state, turn.actor, m.kind, m.args, turn.actor)
        lin = paths[0].facts[0].formula.lin  # the count (the first way: the answer 0)
        for w in worlds:
            allowed = [p for p in paths if all(f.formula.holds(w) for f in p.facts)]
            if lin.value(w) >= 2:
                named = {f.formula.lin.terms[0][0] for p in allowed for f in p.facts[1:]}
                assert len(allowed) == HAND and named == {c for c, z in w.items() if z == "hand:Green"}
                drew += 1
            else:
                assert len(allowed) == 1 and len(allowed[0].facts) == 1
                kept += 1
    assert drew and kept


def _same_as_plain(adv, rep, lab, turn, facts, seat):
    worlds = seat_worlds(rep.deal, facts, f"hand:{seat}")
    assert len(worlds) == adv.worlds
    for m in adv.moves:
        same_as_plain(m, move_paths(lab, turn.state, turn.actor, m.kind, m.args, seat), worlds,
                      set(rep.deal.solution))


def test_the_askers_values_equal_a_plain_enumeration(asker):
    rep, lab, turn, facts, adv = asker
    _same_as_plain(adv, rep, lab, turn, facts, "Yellow")


def test_another_seats_values_equal_a_plain_enumeration(other):
    """Blue, neither asking nor asked, hears the answer and not the card drawn."""
    rep, lab, turn, facts, adv = other
    assert adv.choices == len(adv.moves) == 30
    assert all(m.counted_by == "marginal" for m in adv.moves)
    assert all(len(a.says) == 1 for m in adv.moves for a in m.answers)
    _same_as_plain(adv, rep, lab, turn, facts, "Blue")


@pytest.mark.parametrize("part", range(2))
def test_the_askers_values_equal_the_reference_path(asker, part):
    """A fifth of the questions each, two fifths in all (the reference path takes about 0.3 s
    of CPU per question; the plain enumeration above checks every question)."""
    *_rest, fast = asker
    only = [m.args for m in fast.moves][part::5]
    *_rest, slow = _valued("Yellow", False, only)
    same_as_reference(_valued("Yellow", True, only)[-1], slow)


def test_another_seats_values_equal_the_reference_path(other):
    """Every eighth question (the plain enumeration above checks every one)."""
    *_rest, fast = other
    only = [m.args for m in fast.moves][::8]
    *_rest, slow = _valued("Blue", False, only)
    same_as_reference(_valued("Blue", True, only)[-1], slow)


# -- a hand-made deal: a card drawn from a hand of two -------------------------------------
SIZES = [("x", 1), ("h", 2), ("r", 3)]
CARDS = "abcdef"


def _drawing(named: str):
    """A count of a and b in h, then, when it is 1 or more, one card of ``named`` drawn from h (seen
    by the seat with the count)."""
    lin = count("ab", {"h"})
    paths = [Way((), (Fact(lin == 0),), (Fact(lin == 0),))]
    for v in (1, 2):
        for c in named:
            facts = (Fact(lin == v), Fact(member(c, {"h"}) == 1))
            paths.append(Way((), facts, facts))
    return paths


def _marginal(paths, facts):
    k = rebuild(Deal((Deck("d", tuple(CARDS), tuple(Zone(z, z, None, n) for z, n in SIZES)),),
                     solution=("x",))).with_facts(facts)
    shape = count_shape(paths)
    assert shape is not None and shape.drawn == {1, 2}
    return value_counted(shape, paths, [_key(p.seen) for p in paths], k, k.count(), None,
                         lambda b, more: b.with_facts(more))


@pytest.mark.parametrize("facts", [[], [Fact(member("c", {"r"}) == 0)]])
def test_a_draw_naming_every_card_equals_itertools(facts):
    paths = _drawing(CARDS)
    worlds = [w for w in _deals(CARDS, SIZES) if all(f.formula.holds(w) for f in facts)]
    dist, bits, solution_bits, left, legal = plain_values(worlds, paths, {"x"})
    got = _marginal(paths, facts)
    assert got is not None
    assert {k: q for k, q in got.dist.items() if q > 0} == pytest.approx({k: q for k, q in dist.items() if q > 0})
    assert got.left == {k: left[k] for k in got.left}
    assert got.legal == pytest.approx(legal)
    h = -sum(q * math.log2(q) for q in got.dist.values() if q > 0)
    assert h - got.h_given_world == pytest.approx(bits, abs=1e-12)
    assert got.solution_bits == pytest.approx(solution_bits, abs=1e-12)


def test_a_draw_naming_too_few_cards_is_refused():
    # e and f may lie in h: the worlds where one does have fewer ways to end than h holds
    assert _marginal(_drawing("abcd"), []) is None
    # unless the seat knows neither lies there: then every card h may hold is named
    facts = [Fact(member("e", {"h"}) == 0), Fact(member("f", {"h"}) == 0)]
    paths = _drawing("abcd")
    worlds = [w for w in _deals(CARDS, SIZES) if all(f.formula.holds(w) for f in facts)]
    dist, *_rest = plain_values(worlds, paths, {"x"})
    got = _marginal(paths, facts)
    assert got is not None
    assert {k: q for k, q in got.dist.items() if q > 0} == pytest.approx({k: q for k, q in dist.items() if q > 0})
