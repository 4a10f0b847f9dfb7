"""Requirements checked as one generated function, the lab's one environment, and the
small fast paths of the state machine, each against a plain way of computing the same.

* ``first_failing``, ``truth_of`` and ``holding`` (spec/expr.py) against the requirements
  checked one at a time through the closures: the same answer, or the same error;
* ``each`` against the expression run once per item;
* ``Machine.renew`` against ``Machine.env``: every expression of the rule set gives the
  same value (or error) in both, at states of simulated games;
* ``State.copy``, ``facts.count``, ``State.placed`` and the effects the constants settle
  against what they replace.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.expr import (Expr, LimitError, Namespace, compile_expr, each, evaluations, first_failing,
                                   holding, truth_of)
from ruleslawyer.spec.facts import Lin, count, is_formula
from ruleslawyer.spec.loader import load_rules, rules_dir
from ruleslawyer.spec.machine import Machine, Play, RuleError, State
from ruleslawyer.spec.model import Effect

from .test_exprgen import ENV, _expressions, _exprs

#: Every bundled game: a new rule file in rules/ is tested by adding it.
GAMES = sorted(p.stem for p in rules_dir().glob("*.yaml"))


def _plain(e: Expr) -> Callable[[Any], Any]:
    """The closures alone, as an outermost run (a budget of its own)."""
    closures = dataclasses.replace(e, run_fn=e.exact, exact=None) if e.exact is not None else e
    return closures.run


def _truth(value: Any) -> bool:
    if is_formula(value):
        raise TypeError("a fact has no truth")
    return bool(value)


def _sequential(reqs: list[tuple[Expr | None, Expr]]) -> Callable[[Any], int]:
    """The plain way: each requirement in order, through the closures."""
    runs = [(None if w is None else _plain(w), _plain(e)) for w, e in reqs]

    def first(env: Any) -> int:
        for i, (when, check) in enumerate(runs):
            if when is not None and not _truth(when(env)):
                continue
            if not _truth(check(env)):
                return i
        return -1
    return first


def _outcome(fn: Callable[[Any], Any], env: Any) -> tuple[str, Any]:
    try:
        return "value", fn(env)
    except LimitError:
        return "error", LimitError
    except Exception as exc:  # noqa: BLE001 - any error is compared by kind
        return "error", type(exc).__name__


def _compiled(sources: list[str]) -> list[Expr] | None:
    try:
        return [compile_expr(s) for s in sources]
    except DiagnosticError:
        return None


@pytest.mark.heavy
# 750 lists of up to 4 requirements (was 1,500: round five of issue 25)
@settings(max_examples=750, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.none() | _expressions(), _expressions()), min_size=1, max_size=4))
def test_first_failing_agrees_with_the_requirements_one_at_a_time(pairs):
    exprs = _compiled([s for pair in pairs for s in pair if s is not None])
    if exprs is None:
        return
    it = iter(exprs)
    reqs = [(None if w is None else next(it), next(it)) for w, _e in pairs]
    plain = _sequential(reqs)
    fused = first_failing(reqs, plain)
    for env in (ENV, {**ENV, "x": 7}):
        with evaluations():
            assert _outcome(fused, env) == _outcome(plain, env)
        if len(reqs) == 1:
            one = truth_of(*reqs[0], lambda env: plain(env) < 0)
            with evaluations():
                expected = _outcome(plain, env)
                got = _outcome(one, env)
            assert got == (expected if expected[0] == "error" else ("value", expected[1] < 0))


# 300 lists of up to 3 groups (was 600: round five of issue 25)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.tuples(st.none() | _expressions(), _expressions()), max_size=3), min_size=1, max_size=3))
def test_holding_agrees_with_each_group_checked_in_turn(groups):
    """``holding`` (who may move: every kind's requirements) against each group checked one
    requirement at a time through the closures."""
    exprs = _compiled([s for group in groups for pair in group for s in pair if s is not None])
    if exprs is None:
        return
    it = iter(exprs)
    reqs = [[(None if w is None else next(it), next(it)) for w, _e in group] for group in groups]
    firsts = [_sequential(group) for group in reqs]

    def plain(env: Any) -> list[int]:
        return [i for i, first in enumerate(firsts) if first(env) < 0]
    fused = holding(reqs, plain)
    for env in (ENV, {**ENV, "x": 7}):
        with evaluations():
            assert _outcome(fused, env) == _outcome(plain, env)


@pytest.mark.parametrize("when,check,expected", [
    (None, "a > 1", -1), (None, "a > 5", 0), ("a > 5", "false", -1), ("a > 1", "b > 0", 0),
    ("t", "xs == [1, 2, 3]", -1), (None, "len([x for x in range(2000000)]) > 0", "error"),
])
def test_first_failing_known_answers(when, check, expected):
    reqs = [(None if when is None else compile_expr(when), compile_expr(check))]
    fused = first_failing(reqs, _sequential(reqs))
    with evaluations():
        got = _outcome(fused, ENV)
    assert got == (("error", LimitError) if expected == "error" else ("value", expected))


def test_a_value_that_is_not_true_or_false_is_left_to_the_exact_way():
    """``1`` is true for a requirement, but the generated function answers only True or False."""
    calls = []

    def exact(env: Any) -> int:
        calls.append(env)
        return 7
    fused = first_failing([(None, compile_expr("a"))], exact)
    with evaluations():
        assert fused(ENV) == 7
    assert len(calls) == 1


# -- the lab's one environment ------------------------------------------------------------------

def _values(env: dict[str, Any], exprs: list[Expr]) -> list[tuple[str, Any]]:
    out = []
    for e in exprs:
        kind, value = _outcome(_plain(e), env)
        out.append((kind, repr(value) if kind == "value" else value))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_renewed_environment_gives_what_a_new_one_gives(name, monkeypatch):
    """At states of simulated games, every expression of the rule set reads the same in the
    environment :meth:`Machine.renew` keeps as in one :meth:`Machine.env` builds."""
    rules = load_rules(name, variant="4p")
    lab = Lab(rules)
    machine = Machine(rules)
    exprs = [e for e in _exprs(rules) if "move" not in e.names]
    states: list[State] = []
    apply = Lab.apply
    after: list[tuple[list[Any], list[Any]]] = []

    def kept(self: Lab, state: State, play: Any) -> Any:
        out = apply(self, state, play)
        states.append(out[0].state)
        if len(states) % 3 == 0:  # the lab's own environment, renewed by the move (only what it changed)
            env = self.env(out[0].state)
            env["actor"], env["move"] = None, Namespace({})
            after.append((_values(env, exprs), _values(machine.env(out[0].state), exprs)))
        return out
    monkeypatch.setattr(Lab, "apply", kept)
    weights = ";".join(f"{k}=0.05" for k in ("accuse", "guess") if k in rules.moves)
    bots = parse_bots(f"random:{weights}", 4, list(rules.moves))
    for i in range(2):
        play_game(lab, bots, 5, i, 150, keep_log=False, track=False)
    assert len(states) > 40
    assert len(after) > 10 and all(mine == fresh for mine, fresh in after)
    live: dict[str, Any] = {}
    compared = 0
    for state in states[::3]:
        for actor in (None, state.players[1]):
            fresh = machine.env(state, actor)
            renewed = machine.renew(live, state, actor)
            assert renewed is live and renewed.keys() == fresh.keys()
            assert _values(renewed, exprs) == _values(fresh, exprs)
            compared += 1
    assert compared > 20


def test_renewing_for_another_table_rebinds_it():
    rules = load_rules("lady-alice", variant="4p")
    machine = Machine(rules)
    live: dict[str, Any] = {}
    four = machine.start(["A", "B", "C", "D"])
    other = machine.start(["W", "X", "Y", "Z"])
    machine.renew(live, four)
    assert machine.renew(live, other)["players"] == ["W", "X", "Y", "Z"]
    assert live.keys() == machine.env(other).keys()


# -- small fast paths -------------------------------------------------------------------------

def test_a_copied_state_equals_the_original_and_shares_no_container():
    machine = Machine(load_rules("lady-alice", variant="4p"))
    state = machine.start(["A", "B", "C", "D"])
    copy = state.copy()
    assert copy == state and type(copy) is State
    assert [f.name for f in dataclasses.fields(State)] == list(vars(copy))
    copy.vars["suspicions"] = ["changed"]
    copy.spaces[next(iter(copy.spaces))] = ("changed",)  # type: ignore[assignment]
    assert state.vars["suspicions"] != ["changed"] and "changed" not in next(iter(state.spaces.values()))


@given(st.lists(st.sampled_from("abcde"), max_size=6), st.sets(st.sampled_from(["z1", "z2", "z3"]), max_size=3),
       st.integers(-2, 2))
def test_count_gives_the_merged_terms(cards, zones, weight):
    """``count``'s shortcut against ``Lin.of``, which merges and sorts any terms."""
    zs = frozenset(zones)
    expected = Lin.of([(c, zs, weight) for c in cards])
    got = count(cards, zones, weight)
    assert got.terms == expected.terms and got.constant == expected.constant


@pytest.mark.parametrize("source,constant", [
    ("set()", (frozenset(),)), ("'solved'", ("solved",)), ("none", (None,)), ("params.players", (4,)),
    ("[1, 2]", None), ("vars.passed", None), ("actor", None), ("uncovered([])", None), ("1 // 0", None),
])
def test_effects_settle_only_values_that_cannot_change(source, constant):
    """An effect's value the rule set's constants settle is computed once (a list is not: it
    could be changed in place), nothing that reads the state, the move or a rule function."""
    machine = Machine(load_rules("lady-alice", variant="4p"))
    assert machine._constant(compile_expr(source)) == constant


ITEMS = [7, -1, "ab", [1, 2], None, True]


# 400 expressions, each run over 6 items twice (was 800: round five of issue 25)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def test_each_agrees_with_a_run_per_item(source):
    """``each`` (scoring's steps over tokens and players) against the expression run once per
    item through the closures: when it answers, every run gave what it keeps."""
    exprs = _compiled([source])
    if exprs is None:
        return
    plain = _plain(exprs[0])
    for answer in ("true", "int"):
        with evaluations():
            got = each(exprs[0], "x", answer)(ENV, ITEMS)
            runs = [_outcome(plain, {**ENV, "x": item}) for item in ITEMS]
        if got is None:
            continue
        assert all(kind == "value" for kind, _v in runs)
        values = [v for _k, v in runs]
        if answer == "true":
            assert all(v is True or v is False for v in values)
            assert got == [item for item, v in zip(ITEMS, values) if v is True]
        else:
            assert all(type(v) is int for v in values) and got == values


@pytest.mark.parametrize("source,answer,expected", [
    ("x == 7", "true", [7]), ("x is none or x == 'ab'", "true", ["ab", None]), ("a + 1", "int", [4] * 6),
    ("x", "true", None), ("x + 1", "int", None), ("len(x) > 1", "true", None),
])
def test_each_known_answers(source, answer, expected):
    """None: not every run gives True or False (an int), or one fails: the exact way decides."""
    with evaluations():
        assert each(compile_expr(source), "x", answer)(ENV, ITEMS) == expected


def test_placed_counts_follow_the_tokens(monkeypatch):
    """``State.placed`` (counts kept with the tokens, one more at each token placed) against a
    plain count of the tokens on the board, after every move of simulated games."""
    rules = load_rules("lady-alice", variant="4p")
    lab = Lab(rules)
    values = sorted(lab.machine.supply)
    apply = Lab.apply
    checked = []

    def counted(self: Lab, state: State, play: Any) -> Any:
        out = apply(self, state, play)
        new = out[0].state
        for p in new.players:
            new.placed(p)  # the counts made (or kept) before the next move adds to them
            plain = [t for t in new.tokens if t.owner == p]
            assert new.placed(p) == len(plain)
            assert [new.placed(p, v) for v in values] == [sum(t.value == v for t in plain) for v in values]
        checked.append(play.kind)
        return out
    monkeypatch.setattr(Lab, "apply", counted)
    bots = parse_bots("random:accuse=0.05", 4, list(rules.moves))
    for i in range(3):
        play_game(lab, bots, 9, i, 200, keep_log=False, track=False)
    assert checked.count("place") > 20


# -- a move's effects as one generated function ------------------------------------------------

def _applied(rules: Any, games: int, seed: int) -> list[tuple[State, Any]]:
    """(state, play) of every move of simulated games, as the lab applied them."""
    lab = Lab(rules)
    seen: list[tuple[State, Any]] = []
    apply = Lab.apply

    def kept(self: Lab, state: State, play: Any) -> Any:
        seen.append((state, play))
        return apply(self, state, play)
    weights = ";".join(f"{k}=0.05" for k in ("accuse", "guess") if k in rules.moves)
    bots = parse_bots(f"random:{weights}", 4, list(rules.moves))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Lab, "apply", kept)
        for i in range(games):
            play_game(lab, bots, seed, i, 150, keep_log=False, track=False)
    return seen


def _result(machine: Machine, state: State, play: Any) -> tuple[Any, ...]:
    """What applying a move gives: the new state, its violations, the tokens it turned, the
    end it reached (or the error it raised)."""
    try:
        out = machine.play(state, play, legal=True)
    except RuleError as exc:
        return ("error", str(exc))
    return (out.state, [(v.code, v.message) for v in out.violations], out.revealed,
            None if out.ended_by is None else out.ended_by.position)


@pytest.mark.parametrize("name,games", [(g, {"perfect-alibi": 8}.get(g, 3)) for g in GAMES])
def test_the_generated_effects_give_what_the_closures_give(name, games):
    """Every move of simulated games applied by each kind's generated function (within
    evaluations()) and by the effects one at a time through the closures (outside): the same
    state and outcome; the generated function serves every move (the closures never run)."""
    rules = load_rules(name, variant="4p")
    seen = _applied(rules, games, 11)
    machine = Machine(rules)
    assert all(machine._program(kind)[0] is not None for kind in rules.moves)
    exact = [machine._program(kind)[1] for kind in rules.moves]
    plain = [_result(machine, state, play) for state, play in seen]
    ran: list[str] = []
    for kind in rules.moves:
        fast, closures = machine._programs[kind]
        machine._programs[kind] = (fast, lambda *a, _c=closures, _k=kind: (ran.append(_k), _c(*a)))
    with evaluations():
        fused = [_result(machine, state, play) for state, play in seen]
    assert len(seen) > 100 and len(exact) == len(rules.moves)
    assert fused == plain and not ran
    assert len({play.kind for _s, play in seen}) >= 4


def _pass_with(effects: list[Effect]) -> tuple[Machine, State, Any]:
    """Lady Alice's pass with other effects, and a state in which it is played."""
    rules = load_rules("lady-alice", variant="4p")
    move = dataclasses.replace(rules.moves["pass"], effects=tuple(effects))
    machine = Machine(dataclasses.replace(rules, moves={**rules.moves, "pass": move}))
    state = machine.start(["A", "B", "C", "D"])
    state.phase = "deductions"
    return machine, state, Play("pass", "A")


def _effect(verb: str, arg: Any, then: tuple[Effect, ...] = (), otherwise: tuple[Effect, ...] = ()) -> Effect:
    if isinstance(arg, dict):
        arg = tuple((k, compile_expr(v)) for k, v in arg.items())
    elif verb not in ("phase", "end"):
        arg = compile_expr(arg)
    return Effect(verb, arg, None, then=then, otherwise=otherwise)


@pytest.mark.parametrize("effects,expected", [
    # a condition that is not True or False (a set): the closures take its truth, after the
    # generated function has added to the list once (the state it changed is not the one kept)
    ([_effect("add", {"suspicions": "actor"}), _effect("when", "vars.suspicions",
                                                       (_effect("set", {"business_cards": "1"}),),
                                                       (_effect("set", {"business_cards": "2"}),))],
     {"suspicions": ["A"], "business_cards": 1}),
    # an error after a change: the same error, nothing kept
    ([_effect("add", {"passed": "actor"}), _effect("set", {"business_cards": "1 // 0"})], "division or modulo by zero"),
    ([_effect("set", {"suspicions": "vars.suspicions + [actor]"}), _effect("add", {"business_cards": "actor"})],
     "add and remove need a set or list"),
    # a value the constants settle, and the move's own turn
    ([_effect("set", {"end_reason": "'done'", "suspector": "actor"}), _effect("turn", "next_active(actor)"),
      _effect("phase", "suspicions")], {"end_reason": "done", "suspector": "A"}),
])
def test_generated_effects_that_fail_are_run_again_by_the_closures(effects, expected):
    machine, state, play = _pass_with(effects)
    plain = _result(machine, state, play)
    with evaluations():
        fused = _result(machine, state, play)
    assert fused == plain
    if isinstance(expected, str):
        assert fused[0] == "error" and expected in fused[1]
    else:
        new = fused[0]
        assert {k: new.vars[k] for k in expected} == expected and new.moves == 1 and new.played == 1
        assert state.vars["passed"] == frozenset() and state.moves == 0  # the state it started from, unchanged
