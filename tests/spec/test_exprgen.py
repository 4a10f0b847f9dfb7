"""Generated expression functions (spec/exprgen.py) against their oracle, the closures of spec/expr.py.

Every comparison runs the generated function itself (no fallback) and the
closures on the same environment, each with a fresh budget: when the generated
function returns, the closures return an equal value of the same type and
spend the same budget; when it raises a LimitError, so do they.  Whatever it
raises, Expr.run gives what the closures alone give.
"""

from __future__ import annotations

import dataclasses
import re
import time
import types
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.lab.bots import parse_bots
from ruleslawyer.lab.engine import Lab
from ruleslawyer.lab.game import play_game
from ruleslawyer.lab.prove import load_properties, prove
from ruleslawyer.spec import expr as X
from ruleslawyer.spec.diagnostics import DiagnosticError
from ruleslawyer.spec.expr import Expr, ExprError, LimitError, Namespace, compile_expr
from ruleslawyer.spec.facts import Zones, count, member
from ruleslawyer.spec.loader import load_rules, rules_dir

from ..conftest import ROOT

STATS: Counter[str] = Counter()


def _closures(e: Expr) -> Expr:
    return dataclasses.replace(e, run_fn=e.exact, exact=None)


def _outcome(call: Any, steps: int = X.MAX_STEPS) -> tuple[str, Any, int]:
    """("value", value, steps left) or ("error", exception, steps left) of ``call(budget)``, under a fresh budget."""
    budget = [steps, 1]
    token = X._BUDGET.set(budget)
    try:
        return "value", call(budget), budget[0]
    except Exception as exc:  # noqa: BLE001 - any outcome is compared
        return "error", exc, budget[0]
    finally:
        X._BUDGET.reset(token)


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    try:
        eq = a == b
    except Exception:  # noqa: BLE001 - a count of cards compared with a list...
        eq = None
    if type(eq) is bool:
        return eq and repr(a) == repr(b) if isinstance(a, (list, tuple, dict)) else eq
    return repr(a) == repr(b)  # facts: == builds a fact


def _run_outcome(e: Expr, env: Any) -> tuple[str, Any]:
    try:
        return "value", e.run(env)
    except Exception as exc:  # noqa: BLE001
        return "error", type(exc)


def check(e: Expr, env: Any) -> None:
    """The generated function agrees with the closures on ``env`` (see the module's docstring)."""
    assert e.exact is not None, f"not generated: {e.source}"
    _outcome(lambda budget: e.exact(env))  # the lab's functions keep what they compute: both runs find it kept
    fast = _outcome(lambda budget: e.run_fn(env, budget))  # the generated function alone
    slow = _outcome(lambda budget: e.exact(env))
    STATS["checked"] += 1
    if fast[0] == "value":
        STATS["value"] += 1
        assert slow[0] == "value", (e.source, fast, slow)
        assert _same(fast[1], slow[1]), (e.source, fast[1], slow[1])
        assert fast[2] == slow[2], (e.source, "budget", fast[2], slow[2])
    else:
        STATS["raised " + type(fast[1]).__name__] += 1
        if isinstance(fast[1], LimitError):
            assert slow[0] == "error" and isinstance(slow[1], LimitError), (e.source, fast, slow)
    a, b = _run_outcome(e, env), _run_outcome(_closures(e), env)
    assert a[0] == b[0], (e.source, a, b)
    assert _same(a[1], b[1]) if a[0] == "value" else a[1] is b[1], (e.source, a, b)


# -- every expression of the bundled rule files, on real environments ---------------------------------

def _exprs(root: Any) -> list[Expr]:
    """Every Expr reachable from a rule set or property file."""
    found: dict[int, Expr] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None), types.FunctionType)):
            continue
        seen.add(id(obj))
        if isinstance(obj, Expr):
            found[id(obj)] = obj
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
    return list(found.values())


class _Oracle:
    """While installed, every Expr.run first checks the generated function against the closures,
    and every ``every``-th environment also checks all of ``extra``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, extra: list[Expr], every: int = 25):
        self.extra, self.every, self.envs, self.checking = extra, every, 0, False
        run = Expr.run

        def checked(e: Expr, env: Any) -> Any:
            if not self.checking and e.exact is not None:
                self.checking = True
                try:
                    check(e, env)
                    self.envs += 1
                    if self.envs % self.every == 0:
                        for other in self.extra:
                            if other.exact is not None:
                                check(other, env)
                finally:
                    self.checking = False
            return run(e, env)
        monkeypatch.setattr(Expr, "run", checked)


#: Every bundled game, in 4 and 3 players.
RULE_FILES = [(p.stem, v, ()) for p in sorted(rules_dir().glob("*.yaml")) for v in ("4p", "3p")]
HOUSE = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rules" / "house").glob("*.yaml"))


def _games(name: str, variant: str | None, house: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(name, variant=variant, house=list(house))
    exprs = _exprs(rules)
    assert exprs
    assert all(e.exact is not None for e in exprs if e.source not in ("True", "False", "None")
               and not re.fullmatch(r"-?\d+", e.source)), [e.source for e in exprs if e.exact is None]
    lab = Lab(rules)
    weights = ";".join(f"{k}=0.05" for k in ("accuse", "guess") if k in rules.moves)
    bots = parse_bots(f"random:{weights}", rules.param("players"), list(rules.moves))
    plain = [play_game(lab, bots, 3, i, 120, keep_log=False, track=False).moves for i in range(3)]
    _Oracle(monkeypatch, exprs)
    checked = [play_game(lab, bots, 3, i, 120, keep_log=False, track=False).moves for i in range(3)]
    assert checked == plain  # evaluating both ways changes nothing
    assert STATS["checked"] > 100


@pytest.mark.parametrize("name,variant,house", RULE_FILES)
def test_bundled_rules_agree_in_simulated_games(name, variant, house, monkeypatch):
    _games(name, variant, house, monkeypatch)


@pytest.mark.parametrize("overlay", HOUSE)
def test_house_overlays_agree_in_simulated_games(overlay, monkeypatch):
    _games(str(ROOT / overlay), None, (), monkeypatch)


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*/lab/*.yaml")), ids=lambda p: p.name)
def test_property_files_agree_on_explored_states(path: Path, monkeypatch):
    if re.search(r"(?m)^ruleslawyer:", path.read_text()):  # a house overlay kept with the properties (short-of-cards)
        _games(str(path), None, (), monkeypatch)
        return
    rules = load_rules(path.parent.parent.name)
    spec = load_properties(str(path), rules)
    _Oracle(monkeypatch, _exprs(spec), every=5)
    prove(rules, spec, depth=1)
    assert STATS["checked"] > 50


# -- generated expressions over a small environment -------------------------------------------------------

HZ = Zones({"hand:Ann"})
ENV = {"a": 3, "b": -2, "s": "ab", "t": True, "z": None, "xs": [1, 2, 3], "ys": ["a", "b"], "e": [],
       "d": {"a": 1, "b": 2}, "ns": Namespace(n=2, s="b", xs=[0, 5], inner=Namespace(k=1)),
       "f": lambda v: v + 1, "g": lambda *vs: len(vs), "hz": HZ, "hand": lambda: HZ,
       "lin": count(["a", "b"], HZ), "fact": member("a", HZ) == 1, "big": 1 << 61}
ATOMS = ["a", "b", "s", "t", "z", "xs", "ys", "e", "d", "ns", "ns.n", "ns.s", "ns.xs", "ns.inner.k", "ns.nope",
         "none", "true", "false", "0", "1", "2", "-1", "'a'", "''", "[]", "[1, 2]", "f(a)", "g()", "g(a, s)",
         "x", "unknown", "hz", "hand()", "lin", "fact", "big", "d['a']", "s.upper", "f", "a.n"]
BINARY = ["({} + {})", "({} - {})", "({} * {})", "({} // {})", "({} % {})", "({} == {})", "({} != {})",
          "({} < {})", "({} >= {})", "({} in {})", "({} not in {})", "({} is {})", "({} is not none)",
          "({} and {})", "({} or {})", "{}[{}]", "{}[{}:]", "[{}, {}]", "({}, {})", "{{{}: {}}}",
          "[x for x in {} if {}]", "{{x: {} for x in xs}}{}", "count({}, {})", "g({}, {})", "updated({}, 'k', {})",
          "({} == 1 > {})", "({} <= 2 <= {})", "sum({}, {})", "min({}, {})"]
UNARY = ["(not {})", "(-{})", "(+{})", "len({})", "sum({})", "max({})", "sorted({})", "set({})", "list({})",
         "any(x for x in {})", "all(x > 0 for x in {})", "{}[:1]", "{}[-1]", "count({})", "abs({})",
         "f({})", "[x + 1 for x in {}]", "{{x for x in {}}}", "[[y for y in x] for x in {}]", "range({})",
         "{{{}}}", "({} if t else z)", "(a if {} else b)", "sorted([x for x in {}])[1:2]"]


COMPARE = ["<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not"]
CONSTANTS = ["0", "1", "2", "3", "-1", "true", "none", "'a'", "'ab'", "'b'", "[1, 2, 3]"]


def _expressions() -> st.SearchStrategy[str]:
    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(st.sampled_from(BINARY), children, children).map(lambda t: t[0].format(t[1], t[2]))
        ternary = st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})")
        chain = st.tuples(children, children, children).map(lambda t: f"({t[0]} and {t[1]} or {t[2]})")
        unary = st.tuples(st.sampled_from(UNARY), children).map(lambda t: t[0].format(t[1]))
        compared = st.tuples(children, st.sampled_from(COMPARE), children | st.sampled_from(CONSTANTS)).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})")
        return binary | ternary | chain | unary | compared
    return st.recursive(st.sampled_from(ATOMS), extend, max_leaves=8)


@pytest.mark.heavy
# 2,000 expressions (was 4,000: round five of issue 25), each compiled and run twice
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions())
def test_random_expressions_agree(source):
    try:
        e = compile_expr(source)
    except DiagnosticError:
        return
    check(e, ENV)
    check(e, {**ENV, "x": 7})


@pytest.mark.parametrize("source,expected", [
    ("move.covers is not none and move.smiles > 0", True), ("actor == turn", False),
    ("[c for c in move.cards if c != 'b']", ["a"]), ("sum(x for x in xs if x > k)", 5),
    ("xs[1:] + [k]", [2, 3, 1]), ("0 < k <= 1", True), ("(0 and k) or 'x'", "x"),
    ("move.cards and k", 1), ("{c: k for c in move.cards}", {"a": 1, "b": 1}),
    ("all(x > 0 for x in xs) and not any(x > 5 for x in xs)", True), ("set(xs) <= {1, 2, 3}", True),
    ("[x for x in xs][-1] - 1", 2), ("none if false else true", True), ("move.n", None),
])
def test_known_values(source, expected):
    env = {"move": Namespace(covers=[], smiles=1, cards=["a", "b"], n=None), "actor": "Ann", "turn": "Bob",
           "xs": [1, 2, 3], "k": 1}
    e = compile_expr(source)
    assert e.exact is not None and e.run(env) == expected
    check(e, env)


def test_facts_take_the_exact_path():
    """A fact in and/or/not/if, ``in`` a Zones, a count: the values the closures build."""
    env = {**ENV, "k": 1}
    for source in ["fact and a", "a and fact", "fact or a", "z or fact", "not fact", "fact if a else fact",
                   "'a' in hz", "'a' not in hand()", "count(hand(), ys) == k", "a and count(hand(), ys)",
                   "1 if fact else 0", "[x for x in ys if x in hz]", "all(x in hz for x in ys)", "lin > 0 and t"]:
        check(compile_expr(source), env)


# -- charges made inline (texts, numbers, sets and mappings, comprehensions, built-ins) -----------------

INNER = compile_expr("len(v) + 1")
INLINE_ENV: dict[str, Any] = {
    "s": "ab", "t": "ab", "u": "", "long": "x" * 100, "n": 3, "m": 4, "b": True, "z": None,
    "fs": frozenset({"ab", 3, None}), "st": {"x" * 100}, "d": {"ab": 1, 3: 2}, "xs": ["ab", "x" * 100, 3, None],
    "big": 1 << 61, "tp": ("ab", 3), "nested": [["a", "bb"], ["ccc"], []], "rg": range(5), "ns": Namespace(xs=["a", "b"], n=2),
    "keys": lambda: {"ab": 1, "c": 2}.keys(), "f": lambda v: v,
    "peek": lambda *v: X._BUDGET.get()[0],  # the steps left, as the callee sees them
    "g": lambda v: INNER.run({"v": v}),  # a rule function: a run inside the run
}
INLINE_CASES = [
    "s == t", "s != long", "long == long", "u == s", "n == m", "n != z", "z == z", "b == n", "s == n", "long != z",
    "n < m", "s <= long", "s in fs", "long not in fs", "n in fs", "z in d", "long in st", "s not in d", "tp in fs",
    "s in xs", "long in tp", "s in long", "b in fs", "[x for x in xs if x == s]", "[x for x in xs if x in fs]",
    "[[y for y in x if y != s] for x in nested]", "{x: len(x) for x in ns.xs}", "{x for x in long}", "[x for x in rg]",
    "all(x in fs for x in xs)", "any(x == long for x in xs)", "all(x != s for x in long)", "len(long)",
    "len(xs) + len(d)", "len(ns.xs) == 2", "sum([len(x) for x in nested])", "max(tp[:1])", "sorted(ns.xs)",
    "set(long)", "[x for x in keys()]", "[x == long for x in keys()]", "[len(x) for x in keys() if x in d]",
    "peek(long == long)", "[peek(x) for x in xs if x != long]", "[peek(len(x)) for x in nested]",
    "[g(x) for x in nested if len(x) > 0]", "g(long) + len(long)", "[x for x in nested if g(x) > len(x)]",
    "0 < n <= m < 5", "s < t < long", "s < long <= long", "n - len(long)", "long[1:3] == long[:2]",
    "[peek() for x in keys() if x in fs]", "[[peek(y) for y in x] for x in nested]",
    "[x for x in range(len(long))]", "count([x in fs for x in xs])", "abs(n - len(long))",
    "xs == xs", "fs <= fs", "d != d", "tp < tp", "set() == fs", "list()", "n + m", "n + len(long)", "big + big",
    "[big + x for x in rg]", "s + long", "[x + s for x in ns.xs]", "b + n", "[peek(n + x) for x in rg]",
]


@pytest.mark.parametrize("source", INLINE_CASES)
def test_inline_charges_are_exact(source):
    """The generated function (no fallback) spends what the closures spend, and stops exactly
    where they stop: with the steps they need, the same value and none left; one fewer, a LimitError."""
    e = compile_expr(source)
    check(e, INLINE_ENV)
    fast = _outcome(lambda budget: e.run_fn(INLINE_ENV, budget))
    slow = _outcome(lambda budget: e.exact(INLINE_ENV))
    assert fast[0] == slow[0] == "value", (fast, slow)
    spent = X.MAX_STEPS - slow[2]
    for steps in (spent, spent - 1) if spent else (0,):  # a run never starts with fewer than none left
        fast = _outcome(lambda budget: e.run_fn(INLINE_ENV, budget), steps)
        slow = _outcome(lambda budget: e.exact(INLINE_ENV), steps)
        if slow[0] == "value":
            assert fast[0] == "value" and _same(fast[1], slow[1]) and fast[2] == slow[2] == 0, (steps, fast, slow)
        else:
            assert isinstance(slow[1], LimitError) and isinstance(fast[1], LimitError), (steps, fast, slow)


# -- the budget -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "[[y for y in range(1000)] for x in range(1000)]", "len([x for x in range(1000000)])",
    "sum([len(range(100000)) for x in range(100)])", "all(x >= 0 for x in range(10000000))",
    "[s + s for x in range(100000)]", "len(sorted(list(range(400000))) + list(range(400000)))",
    "[xs[1:] for x in range(100000)]", "[x == xs for x in range(100000)]",
])
def test_hostile_expressions_stop_quickly(source):
    env = {"s": "a" * 50, "xs": list(range(100))}
    e = compile_expr(source)
    assert e.exact is not None
    start = time.process_time()
    fast = _outcome(lambda budget: e.run_fn(env, budget))  # the generated function alone
    assert fast[0] == "error" and isinstance(fast[1], LimitError), fast
    with pytest.raises(LimitError):
        e.run(env)
    assert time.process_time() - start < 10


def test_a_rule_function_that_recurses_stops():
    body = compile_expr("f(n + 1)")
    env: dict[str, Any] = {"n": 0}
    env["f"] = lambda n: body.run({**env, "n": n})
    start = time.process_time()
    with pytest.raises(LimitError):
        compile_expr("f(0)").run(env)
    assert time.process_time() - start < 5


def test_budget_spent_within_a_run_is_kept():
    """Work charged inside a call (a rule function's run) counts against the caller's budget."""
    inner = compile_expr("len([x for x in range(n)])")
    env: dict[str, Any] = {}
    env["f"] = lambda n: inner.run({"n": n})
    e = compile_expr("[f(100000) for x in range(4)]")
    with pytest.raises(LimitError):
        e.run(env)
    assert compile_expr("[f(100000) for x in range(3)]").run(env) == [100000] * 3


# -- what the generated code is made of ----------------------------------------------------------------

def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes(c)


def test_generated_functions_hold_no_rule_identifiers_and_no_builtins():
    e = compile_expr("[secret for secret in ns.xs if secret > a and open(secret)] + ['__import__']")
    fn = e.run_fn
    assert fn.__globals__["__builtins__"] == {}
    assert set(fn.__globals__) - {"__builtins__"} <= set(X_HELPERS())
    for code in _codes(fn.__code__):
        for name in (*code.co_varnames, *code.co_cellvars, *code.co_freevars, *code.co_names):
            assert re.fullmatch(r"env|budget|_t\d+|_v\d+|\.\d+|_[a-z_0-9]+|type|list|int|bool|Namespace", name), name
        assert "secret" not in code.co_names and "open" not in code.co_names


def X_HELPERS() -> dict[str, Any]:
    from ruleslawyer.spec.exprgen import _HELPERS
    return _HELPERS


def test_expression_module_never_evaluates_text():
    for module in ("expr.py", "exprgen.py"):
        text = (ROOT / "spec" / module).read_text()
        assert not re.search(r"(?<![\w.])(eval|exec)\(", text), module


def test_a_name_the_environment_lacks_falls_back_to_the_exact_error():
    for source in ["unknown + 1", "len(len)", "ns.nope", "f(1, 2)", "true()", "d['zz']", "s.upper"]:
        e = compile_expr(source)
        with pytest.raises(ExprError) as fast:
            e.run(ENV)
        with pytest.raises(ExprError) as slow:
            _closures(e).run(ENV)
        assert str(fast.value) == str(slow.value) and type(fast.value) is type(slow.value)
    assert compile_expr("len").run({}) is len and compile_expr("sorted").run({}) is sorted


# -- a rule function's body run with its arguments, without a copy of the environment --------

FUNCTION_CASES = [
    ("n + k", ("n",), (2,)),
    ("[c for c in xs if c not in ys]", ("xs",), (["a", "b", "c"],)),
    ("len(xs) if k > 0 else min(len(xs), k)", ("xs",), (["a"],)),
    ("[c for c in recorded if c in xs][:k] if recorded is not none else xs", ("recorded", "xs"), (None, ["a", "b"])),
    ("k + n", ("k", "n"), (10, 1)),  # an argument named as an environment name: the argument is read
    ("missing + n", ("n",), (1,)),  # an unknown name: the same error
    ("xs[5]", ("xs",), (["a"],)),  # an index out of range: the same error
    ("[x for x in range(n)]", ("n",), (10**7,)),  # too much work: the same LimitError
]


@pytest.mark.parametrize("source,names,args", FUNCTION_CASES)
def test_a_rule_function_called_gives_what_a_run_over_a_copy_gives(source, names, args):
    """``Expr.call`` (arguments set without copying the environment) against ``Expr.run`` over a
    copy of the environment with the arguments set (what a call did before): the same value or
    error, and the same budget spent, from within an evaluation (a call from a rule expression)."""
    body = compile_expr(source)
    env = {"k": 3, "ys": frozenset({"b"}), "xs": ["z"]}
    results = []
    for how in ("call", "copy"):
        def outer(budget: list[int], how: str = how) -> Any:
            budget[1] = 1  # within an evaluation: the function is called from a rule expression
            if how == "call":
                return body.call(env, names, args)
            return body.run({**env, **dict(zip(names, args))})
        kind, value, left = _outcome(outer)
        results.append((kind, value if kind == "value" else (type(value), str(value)), left))
    assert results[0] == results[1], results


def test_a_rule_function_calling_itself_stops_when_called_without_a_copy():
    body = compile_expr("f(n)")
    env: dict[str, Any] = {}
    env["f"] = lambda n: body.call(env, ("n",), (n,))
    with pytest.raises(ExprError, match="nested more than"):
        with X.evaluations():
            compile_expr("f(1)").run(env)


def test_compiling_gives_no_python_warning():
    """Python's compiler hints at literals ("is" with a literal...): a rule file's reader must not
    see them (the rule language's checks speak for it)."""
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for source in ("x is 1", "x is not 'a'", "none[0]", "(1)[0]"):
            try:
                compile_expr(source)
            except DiagnosticError:
                pass
    assert not [w for w in seen if issubclass(w.category, SyntaxWarning)], [str(w.message) for w in seen]


@pytest.mark.parametrize("outermost", [True, False])
def test_a_failing_generated_function_runs_once_then_the_closures(outermost):
    """When the generated code meets a case it leaves to the closures (here a hidden-card fact
    in ``and``), Expr.run runs the closures: the generated function is not run a second time."""
    e = compile_expr("fact and t")
    calls = {"generated": 0, "closures": 0}
    generated, closures = e.run_fn, e.exact

    def counted(name, fn):
        def run(*a):
            calls[name] += 1
            return fn(*a)
        return run
    e = dataclasses.replace(e, run_fn=counted("generated", generated), exact=counted("closures", closures))
    if outermost:
        with X.evaluations():
            value = e.run(ENV)
    else:
        value = e.run(ENV)
    assert value == _closures(compile_expr("fact and t")).run(ENV)
    assert calls == {"generated": 1, "closures": 1}, calls
