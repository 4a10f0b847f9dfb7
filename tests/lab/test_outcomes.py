"""Outcomes from the solver's marginal of one count (solver/marginal.py, lab/outcomes.py).

Expectations come from a plain enumeration written here with itertools: every
deal of the cards the seat does not hold, kept when every fact it saw holds;
for a move, in each such deal the ways the move may end whose facts all hold
there, one of them uniformly (the model lab.advice states).  And from the
reference path of lab.advice (``marginals=False``: one count per outcome),
which must give the same values for every legal move.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from pathlib import Path

import pytest

from ruleslawyer.lab.advice import _key, move_paths, value_moves
from ruleslawyer.lab.bots import Turn
from ruleslawyer.lab.outcomes import count_shape
from ruleslawyer.solver.engines import initial, rebuild
from ruleslawyer.solver.marginal import by_value, card_shares, solution_shares
from ruleslawyer.spec.dealmodel import Deal, Deck, Zone
from ruleslawyer.spec.facts import Atom, Fact, count, member

from .test_advice import _setting as setting

ROOT = Path(__file__).resolve().parents[2]
ALIBI = ROOT / "examples" / "perfect-alibi" / "clean-3p.yaml"
LADY = ROOT / "examples" / "lady-alice" / "clean-4p.yaml"


# -- the marginal against itertools --------------------------------------------------------
def _deals(cards, zones):
    """Every way to put ``cards`` into ``zones`` ((id, size) pairs), as card -> zone."""
    def go(left, zs):
        if not zs:
            yield {}
            return
        zid, size = zs[0]
        for chosen in itertools.combinations(left, size):
            rest = [c for c in left if c not in chosen]
            for more in go(rest, zs[1:]):
                yield {**{c: zid for c in chosen}, **more}
    return list(go(list(cards), list(zones)))


def test_marginal_matches_itertools():
    sizes = [("x", 1), ("h", 2), ("g", 2), ("r", 2)]
    deck = Deck("d", tuple("abcdefg"), tuple(Zone(z, z, None, n) for z, n in sizes))
    deal = Deal((deck,), solution=("x",))
    facts = [Fact(count("ab", {"g"}) <= 1), Fact(member("c", {"r"}) == 0)]
    lin = count("abcd", {"h"})
    worlds = [w for w in _deals("abcdefg", sizes) if all(f.formula.holds(w) for f in facts)]
    k = rebuild(deal).with_facts(facts)
    slices = by_value(k, lin)
    by_n = defaultdict(list)
    for w in worlds:
        by_n[lin.value(w)].append(w)
    assert {s.value: s.count for s in slices} == {n: len(ws) for n, ws in by_n.items()}
    for s in slices:
        ws = by_n[s.value]
        shares = card_shares(s, frozenset("abcd"), frozenset({"h"}))
        for c in "abcd":
            assert shares[c] == pytest.approx(sum(w[c] == "h" for w in ws) / len(ws))
        sol = solution_shares(s)
        for c in "abcdefg":
            assert sol[c] == pytest.approx(sum(w[c] == "x" for w in ws) / len(ws))


# -- a Perfect Alibi position: every legal move ----------------------------------------------
def _setting(path: Path, at: int):
    rep, lab, turn, facts = setting(path, at)
    return rep, lab, turn.state, turn.actor, turn.kinds, facts


def seat_worlds(deal, facts, seat_zone):
    """Every deal fitting the seat's facts: the seat's own zone's cards (the facts pin them)
    fixed, the others dealt every way."""
    deck = deal.decks[0]
    own = {a.lin.terms[0][0] for f in facts for a in [f.formula]
           if isinstance(a, Atom) and a.op == "==" and a.value == 1 and len(a.lin.terms) == 1
           and a.lin.terms[0][1] == frozenset({seat_zone})}
    assert len(own) == next(z.size for z in deck.zones if z.id == seat_zone)
    rest = [c for c in deck.cards if c not in own]
    zones = [(z.id, z.size) for z in deck.zones if z.id != seat_zone]
    out = []
    for w in _deals(rest, zones):
        w.update({c: seat_zone for c in own})
        if all(f.formula.holds(w) for f in facts):
            out.append(w)
    return out


def _entropy(ps):
    return -sum(p * math.log2(p) for p in ps if p > 0)


def plain_values(worlds, paths, solution_zones):
    """Each seat observation's chance, I(world; obs), I(solution; obs) and the worlds left."""
    keys = [_key(p.seen) for p in paths]
    dist, left = defaultdict(float), defaultdict(int)
    by_sol = defaultdict(lambda: defaultdict(float))
    h_w, legal = 0.0, 0
    for w in worlds:
        allowed = [i for i, p in enumerate(paths) if all(f.formula.holds(w) for f in p.facts)]
        if not allowed:
            continue
        legal += 1
        share = defaultdict(float)
        for i in allowed:
            share[keys[i]] += 1 / len(allowed)
        h_w += _entropy(share.values())
        s = frozenset(c for c, z in w.items() if z in solution_zones)
        for k, q in share.items():
            dist[k] += q
            by_sol[s][k] += q
    seen_sets = {keys[i]: paths[i].seen for i in range(len(paths))}
    for k in dist:
        left[k] = sum(all(f.formula.holds(w) for f in seen_sets[k]) for w in worlds)
    dist = {k: q / legal for k, q in dist.items()}
    h = _entropy(dist.values())
    h_s = sum(sum(d.values()) / legal * _entropy(q / sum(d.values()) for q in d.values()) for d in by_sol.values())
    return dist, h - h_w / legal, h - h_s, left, legal / len(worlds)


@pytest.fixture(scope="module")
def alibi():
    rep, lab, state, mover, kinds, facts = _setting(ALIBI, 24)
    assert "ask" in kinds
    view = initial(rep.deal).with_facts(facts)
    turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)
    fast = value_moves(turn, max_choices=5000, budget=100000, kinds=["ask"])
    view = initial(rep.deal).with_facts(facts)
    turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)
    slow = value_moves(turn, max_choices=5000, budget=100000, kinds=["ask"], marginals=False)
    return rep, lab, state, mover, facts, fast, slow


@pytest.mark.heavy  # the module fixture alibi: about 11 s of CPU
def test_alibi_every_question_valued_from_the_marginal(alibi):
    _rep, _lab, _state, _mover, _facts, fast, slow = alibi
    assert fast.choices == slow.choices > 20 and not fast.sampled
    assert all(m.counted_by == "marginal" for m in fast.moves)
    assert fast.counts < slow.counts


def same_as_reference(fast, slow):
    """Every move of ``slow`` (the reference path) valued the same in ``fast``."""
    new = {(m.kind, repr(m.args)): m for m in fast.moves}
    assert len(new) == len(slow.moves)
    for m in slow.moves:
        n = new[(m.kind, repr(m.args))]
        assert n.bits == pytest.approx(m.bits, abs=1e-9)
        assert n.legal == pytest.approx(m.legal) and n.worlds_left == pytest.approx(m.worlds_left)
        assert sorted((a.says, a.worlds_left) for a in n.answers) == sorted((a.says, a.worlds_left) for a in m.answers)
        got = {a.says: a.probability for a in n.answers}
        for a in m.answers:
            assert got[a.says] == pytest.approx(a.probability)
        if m.solution_bits is not None:  # the reference path counts it within its budget only
            assert n.solution_bits == pytest.approx(m.solution_bits, abs=1e-9)


def same_as_plain(m, paths, worlds, solution_zones):
    """The value ``m`` of a move with these ``paths`` equal to :func:`plain_values` over ``worlds``."""
    dist, bits, solution_bits, left, legal = plain_values(worlds, paths, solution_zones)
    assert m.bits == pytest.approx(bits, abs=1e-9)
    assert m.solution_bits == pytest.approx(solution_bits, abs=1e-9)
    assert m.legal == pytest.approx(legal)
    says = {_key(p.seen): tuple(dict.fromkeys(f.text or repr(f.formula) for f in p.seen)) for p in paths}
    got = {a.says: (a.probability, a.worlds_left) for a in m.answers}
    assert len(got) == sum(q > 0 for q in dist.values())
    for k, q in dist.items():
        if q > 0:
            assert got[says[k]][0] == pytest.approx(q)
            assert got[says[k]][1] == left[k]
    assert m.worlds_left == pytest.approx(sum(q * left[k] for k, q in dist.items()))


def test_alibi_marginal_equals_the_reference_path(alibi):
    *_rest, fast, slow = alibi
    same_as_reference(fast, slow)


def test_alibi_marginal_equals_a_plain_enumeration(alibi):
    rep, lab, state, mover, facts, fast, _slow = alibi
    worlds = seat_worlds(rep.deal, facts, f"hand:{mover}")
    for m in fast.moves[::4]:  # every fourth question (each takes a pass over the worlds)
        paths = move_paths(lab, state, mover, m.kind, m.args, mover)
        assert count_shape(paths) is not None
        same_as_plain(m, paths, worlds, set(rep.deal.solution))


def test_lady_alice_marginal_equals_the_reference_path():
    rep, lab, state, mover, kinds, facts = _setting(LADY, 4)
    out = []
    for marginals in (True, False):
        view = initial(rep.deal).with_facts(facts)
        turn = Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)
        out.append(value_moves(turn, max_choices=5000, budget=100000, marginals=marginals))
    fast, slow = out
    assert sum(m.counted_by == "marginal" for m in fast.moves) > 100
    new = {(m.kind, repr(m.args)): m for m in fast.moves}
    for m in slow.moves:
        n = new[(m.kind, repr(m.args))]
        assert (n.bits, n.solution_bits, n.right) == pytest.approx((m.bits, m.solution_bits, m.right), abs=1e-9)
        assert [(a.says, a.worlds_left) for a in n.answers] == [(a.says, a.worlds_left) for a in m.answers]
        assert [a.probability for a in n.answers] == pytest.approx([a.probability for a in m.answers])
