"""The legal mover's choices listed by a staged search (``Lab.legal_choices``): each requirement of
the mover's choices alone checked as soon as every mover's parameter it reads has a value, so a
prefix that fails is never extended.

On the states of a random game of every rule file in ``rules/`` (each game, each house overlay on
its base), for every player and every kind open to them:

* the staged list equals the reference's (``staged=False``): every choice of
  ``Lab.mover_choices`` checked in turn by the mover's requirements, in the same order;
* and equals, as a set, the choices for which the state machine itself (``Machine.check`` of a
  completion) finds no violation of a rule that reads only the mover's choices: checked on the
  choices the reference drops and on those it keeps, a sample of each;
* the search tries far fewer choices than the plain list holds where a requirement reads an
  early parameter (Perfect Alibi's questions, Clue's suggestions), and a search past its
  ``limit`` answers None, as the reference does past its own.
"""

from __future__ import annotations

import random

import pytest

from ruleslawyer.lab.engine import Lab
from ruleslawyer.spec.expr import evaluations
from ruleslawyer.spec.loader import load_rules

from ..conftest import RULES
from .test_draw import game_states

FILES = sorted(p.stem for p in RULES.glob("*.yaml")) + sorted(f"house/{p.stem}" for p in (RULES / "house").glob("*.yaml"))
VARIANT = {"house/six-players": "6p"}
MOVES = 30  # moves of the random game whose states are looked at
EVERY = 4  # one state in this many


def _lab(name: str) -> Lab:
    path = str(RULES / f"{name}.yaml")
    return Lab(load_rules(path, variant=VARIANT.get(name)))


@pytest.mark.parametrize("name", FILES)
def test_the_staged_list_is_the_plain_check_of_every_choice(name):
    lab = _lab(name)
    states, _world = game_states(lab, MOVES)
    kinds_seen: set[str] = set()
    with evaluations():  # as a simulated game runs them: the generated checks serve
        for state in states[::EVERY]:
            for actor, open_ in lab.actors(state).items():
                for kind in open_:
                    staged = lab.legal_choices(state, actor, kind)
                    plain = lab.legal_choices(state, actor, kind, staged=False)
                    assert staged is not None and staged == plain, (name, state.played, actor, kind)
                    kinds_seen.add(kind)
    # outside evaluations() every check runs by the closures: the same list
    state = states[len(states) // 2]
    for actor, open_ in lab.actors(state).items():
        for kind in open_:
            assert lab.legal_choices(state, actor, kind) == lab.legal_choices(state, actor, kind, staged=False)
    assert kinds_seen


@pytest.mark.parametrize("name", FILES)
def test_the_count_of_choices_is_the_length_of_their_list(name):
    """``mover_choices`` decides its ``limit`` from a count kept per items parameter
    (``Lab._option_count``): at each state looked at, for every kind open to every player, with
    and without items left out, the count is the length of the plain list (every choice listed
    with no limit, once the count was kept too), and the limit gives the whole list at the count
    and nothing one below it."""
    lab = _lab(name)
    states, _world = game_states(lab, MOVES)
    counted = 0
    for state in states[::EVERY]:
        for actor, open_ in lab.actors(state).items():
            for kind in open_:
                info = lab.kinds[kind]
                some = lab.rules.components[next(iter(lab.rules.components))].items[:2]
                for exclude in (frozenset(), frozenset(some)):
                    for _twice in range(2):
                        plain = list(lab.mover_choices(state, actor, kind, limit=10 ** 9, exclude=exclude))
                        n = lab._choice_count(state, actor, info, exclude)
                        assert n == max(1, len(plain)), (name, state.played, actor, kind, exclude)
                        if plain:
                            assert list(lab.mover_choices(state, actor, kind, limit=n, exclude=exclude)) == plain
                            assert not list(lab.mover_choices(state, actor, kind, limit=n - 1, exclude=exclude))
                    counted += 1
    assert counted


def _mover_rule_broken(lab: Lab, state, actor: str, kind: str, args) -> bool:
    """Whether the state machine finds a rule broken that reads only the mover's choices, for a move
    with these choices, every optional outcome left out (the rules its violations name)."""
    from ruleslawyer.spec.machine import Play

    info = lab.kinds[kind]
    mover_rules = {where for _w, _e, where in info.mover_reqs}
    full = dict(args)
    for p in info.outcome:  # a required outcome given its first value (else the move is malformed, unchecked)
        if not p.optional and p.default is None:
            full[p.name] = lab.options(state, actor, p)[0]
    return any(v.rule in mover_rules for v in lab.machine.check(state, Play(kind, actor, full)))


@pytest.mark.parametrize("name", ["perfect-alibi", "clue"])
def test_the_staged_list_agrees_with_the_state_machine(name):
    """A choice the staged list drops breaks a rule of the mover's choices as the state machine
    checks it; one it keeps breaks none (a seeded sample of each, at several states)."""
    lab = _lab(name)
    states, _world = game_states(lab, MOVES)
    rng = random.Random(5)
    checked = [0, 0]
    for state in states[::EVERY]:
        for actor, open_ in lab.actors(state).items():
            for kind in open_:
                if not lab.kinds[kind].mover:
                    continue
                every = list(lab.mover_choices(state, actor, kind, limit=10 ** 6))
                legal = lab.legal_choices(state, actor, kind)
                keys = {repr(sorted(a.items())) for a in legal}
                dropped = [a for a in every if repr(sorted(a.items())) not in keys]
                for args in rng.sample(legal, min(3, len(legal))):
                    assert not _mover_rule_broken(lab, state, actor, kind, args), (kind, args)
                    checked[0] += 1
                for args in rng.sample(dropped, min(3, len(dropped))):
                    assert _mover_rule_broken(lab, state, actor, kind, args), (kind, args)
                    checked[1] += 1
    assert checked[0] > 5 and checked[1] > 5, checked


def test_the_search_prunes_and_stops_at_its_limit():
    """Perfect Alibi 4 players: a question's target, way, symbol and arrows are checked before its
    2 x 15 sets of times or locations; a tiny limit stops both ways (None)."""
    lab = _lab("perfect-alibi")
    states, _world = game_states(lab, MOVES)
    tried: list[int] = []
    original = lab._list_legal

    def counting(i, names, axes, full, stages, env, out, budget):
        original(i, names, axes, full, stages, env, out, budget)
        if i == 0:
            tried.append(budget[0])
    lab._list_legal = counting  # type: ignore[method-assign]
    state = next(s for s in states if "ask" in lab.open_kinds(s, s.turn))
    every = list(lab.mover_choices(state, state.turn, "ask", limit=10 ** 6))
    legal = lab.legal_choices(state, state.turn, "ask")
    assert legal and tried and tried[-1] < len(every) / 3, (tried, len(every), len(legal))
    del lab._list_legal
    assert lab.legal_choices(state, state.turn, "ask", limit=10) is None
    assert lab.legal_choices(state, state.turn, "ask", limit=10, staged=False) is None
