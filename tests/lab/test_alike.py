"""Completions listed once per class of choices alike but for interchangeable items
(lab/alike.py), against Lab.completions itself on the legal choices of every kind open at
positions of every bundled rule file; and the groups against the rule files read by hand.

Where a kind has more than ``CHOICES`` legal choices (Lady Alice's 4,096 suspicions), the
choices compared are the first of each class (``class_key`` over the state's kept groups:
every class met) and a seeded sample, in their listed order: more than ``alike.FEW`` of them,
so that the classes are used, and many of each class renamed from its one listing (a state
that keeps no group, as Perfect Alibi's, where every choice is listed as is: the sample)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from ruleslawyer.checker.log import parse_log
from ruleslawyer.checker.replay import replay
from ruleslawyer.lab import alike
from ruleslawyer.lab.engine import MAX_ENUMERATE, Lab
from ruleslawyer.lab.suggest import position

ROOT = Path(__file__).resolve().parents[2]
#: (log, after move): the start, suspicions and counters placed (tokens on the spaces), late positions
POSITIONS = [
    ("lady-alice/clean-4p.yaml", 0),
    ("lady-alice/clean-4p.yaml", 5),
    ("lady-alice/clean-4p.yaml", 9),
    ("lady-alice/clean-4p.yaml", 22),
    ("lady-alice/clean-3p.yaml", 3),
    ("lady-alice/rulebook-deductions.yaml", None),
    ("clue/clean-3p.yaml", 3),
    ("clue/clean-3p.yaml", 40),
    ("clue/clean-6p.yaml", 10),
    ("perfect-alibi/clean-5p.yaml", 13),
    ("perfect-alibi/clean-4p.yaml", 6),
]


def _state_at(log: str, at: int | None):
    parsed, rules = parse_log(str(ROOT / "examples" / log))
    rep = replay(parsed, rules)
    lab = Lab(rules)
    n = len(rep.steps) if at is None else min(at, len(rep.steps))
    state, mover, kinds = position(rep, lab, n)
    return lab, state, mover, kinds


CHOICES = 400  # legal choices compared per kind, at most (beyond: every class's first and a sample)


def _compared(lab, state, mover, kind) -> list:
    listed = list(lab.mover_choices(state, mover, kind, limit=MAX_ENUMERATE))
    if len(listed) <= CHOICES:
        return listed
    classes = alike.kept_groups(lab, state, mover)  # none: each choice a class of its own, listed as is
    firsts: dict[str, int] = {}
    for i, choice in enumerate(listed if classes else ()):
        firsts.setdefault(alike.class_key(classes, kind, choice), i)
    rng = random.Random(f"{kind}:{len(listed)}")
    chosen = set(firsts.values()) | set(rng.sample(range(len(listed)), CHOICES - min(len(firsts), CHOICES)))
    assert len(chosen) > alike.FEW and (not classes or len(firsts) < len(chosen))  # a class met twice or more
    return [listed[i] for i in sorted(chosen)]


@pytest.mark.parametrize("log, at", POSITIONS)
def test_completions_equal_the_labs(log, at):
    lab, state, mover, kinds = _state_at(log, at)
    choices = 0
    for kind in kinds:
        for choice in _compared(lab, state, mover, kind):
            got = alike.completions(lab, state, mover, kind, choice)
            want = lab.completions(state, mover, kind, choice, None, random.Random(0))
            assert repr(got) == repr(want), (kind, choice)
            choices += 1
    assert choices > 0


def test_groups_read_from_the_rule_files():
    # Lady Alice: 8 clues in each of 4 categories, none named by a rule (the categories are
    # named by the clues' attributes: not alike)
    lab, *_ = _state_at("lady-alice/clean-4p.yaml", 0)
    groups = alike.interchangeable(lab)
    assert sorted(len(set(g)) for g in groups) == [8, 8, 8, 8]
    assert len({lab.rules.items[x].attrs["category"] for g in groups for x in g}) == 4
    # Clue: 6 suspects, 6 weapons, 9 rooms
    lab, *_ = _state_at("clue/clean-3p.yaml", 0)
    assert sorted(len(g) for g in alike.interchangeable(lab)) == [6, 6, 9]
    # Perfect Alibi: each alibi its own location and time; locations, times and colours are
    # named by the alibis' and players' attributes or the rule file: nothing is alike
    lab, *_ = _state_at("perfect-alibi/clean-5p.yaml", 0)
    assert [g for g in alike.interchangeable(lab) if set(g) & set(lab.rules.components["alibis"].items)] == []


def test_a_state_that_names_items_splits_their_group():
    # after Helen's first suspicion (move 1) the four clues suspected are covered: each
    # category's 8 clues split into the covered one and the 7 others
    lab, state, mover, _kinds = _state_at("lady-alice/clean-4p.yaml", 1)
    kept = alike.kept_groups(lab, state, mover)
    covered = set(state.vars["covered"])
    assert len(covered) == 4
    sevens = [g for g in kept if len(g) == 7]
    assert len(sevens) == 4 and not any(set(g) & covered for g in sevens)


def _turn(log: str, at: int):
    from ruleslawyer.lab.bots import Turn
    from ruleslawyer.solver.engines import initial

    parsed, rules = parse_log(str(ROOT / "examples" / log))
    rep = replay(parsed, rules)
    lab = Lab(rules)
    state, mover, kinds = position(rep, lab, at)
    facts = [f for f in rep.facts(at) if f.viewers is None or mover in f.viewers]
    view = initial(rep.deal).with_facts(facts)
    return Turn(lab, state, mover, kinds, {}, random.Random(0), rep.deal, view)


def _same(x, y, where):
    if isinstance(y, float):
        assert x is not None and abs(x - y) < 1e-9, (where, x, y)
    else:
        assert x == y, (where, x, y)


def _values(advice):
    return {repr((m.kind, sorted(m.args.items()))): m for m in advice.moves}


@pytest.mark.parametrize("log, at, kind", [
    ("lady-alice/clean-4p.yaml", 0, "suspect"),    # 4,096 choices, the seat's one clue named
    ("lady-alice/clean-4p.yaml", 4, "accuse"),     # after a suspicion: four clues covered
    ("lady-alice/clean-3p.yaml", 0, "suspect"),
    ("clue/clean-3p.yaml", 3, None),               # every kind open: questions and the accusation
    ("perfect-alibi/rulebook-cook.yaml", 1, None), # nothing alike: every choice listed and valued
])
def test_values_once_per_class_equal_every_choice_valued(log, at, kind):
    from ruleslawyer.lab.advice import value_moves

    turn = _turn(log, at)
    kinds = [kind] if kind else None
    shared = value_moves(turn, max_choices=MAX_ENUMERATE, kinds=kinds, budget=10 ** 7)
    turn = _turn(log, at)
    each = value_moves(turn, max_choices=MAX_ENUMERATE, kinds=kinds, budget=10 ** 7, alike=False)
    a, b = _values(shared), _values(each)
    assert a.keys() == b.keys() and len(a) > 0
    assert (shared.hopeless, shared.choices, shared.valued) == (each.hopeless, each.choices, each.valued)
    for k, m in a.items():  # every field of every value, the answers' words and completion read last
        n = b[k]
        for f in dataclasses.fields(n):
            if f.name not in ("answers", "play"):
                _same(getattr(m, f.name), getattr(n, f.name), (k, f.name))
        assert m.play == n.play, k
        assert [(s.says, s.worlds_left) for s in m.answers] == [(s.says, s.worlds_left) for s in n.answers], k
        assert all(abs(s.probability - t.probability) < 1e-9 for s, t in zip(m.answers, n.answers)), k
    if kind == "suspect" and at == 0:  # the classes: far fewer counts than choices valued
        assert shared.counts < each.counts / 10


def test_paths_listed_once_per_class_until_the_words_are_read(monkeypatch):
    # Lady Alice 4p, the start: 4,096 suspicions, one clue of each category; the seat's
    # facts name one clue (its own card), so each choice's class is told by whether it names
    # that clue: 2 classes, 2 choices' paths listed; the others' when their answers are read
    from ruleslawyer.lab import advice

    calls = []
    real = advice.move_paths

    def counted(*a, **k):
        calls.append(a[4])
        return real(*a, **k)
    monkeypatch.setattr(advice, "move_paths", counted)
    turn = _turn("lady-alice/clean-4p.yaml", 0)
    got = advice.value_moves(turn, max_choices=MAX_ENUMERATE, kinds=["suspect"], budget=10 ** 7)
    assert len(got.moves) == 4096 and len(calls) == 2
    assert got.moves[5].answers and len(calls) == 3
    assert got.moves[5].answers and len(calls) == 3  # worked out once
