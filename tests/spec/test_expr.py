"""The expression language: one compiled expression, three backends, nothing executed."""

from __future__ import annotations

import doctest

import pytest

import ruleslawyer.spec.diagnostics
import ruleslawyer.spec.expr
import ruleslawyer.spec.loader
import ruleslawyer.spec.model
import ruleslawyer.spec.source
import ruleslawyer.spec.tally
from ruleslawyer.spec.diagnostics import DiagnosticError, Position
from ruleslawyer.spec.expr import Namespace, compile_expr
from ruleslawyer.spec.facts import Atom, Lin, Zones, count, if_then_else, member


@pytest.mark.parametrize("module", [ruleslawyer.spec.expr, ruleslawyer.spec.diagnostics, ruleslawyer.spec.source,
                                    ruleslawyer.spec.model, ruleslawyer.spec.loader, ruleslawyer.spec.tally])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_python_backend():
    env = {"move": Namespace(clues=["a", "b", "c"]), "covered": frozenset({"a", "b"})}
    assert compile_expr("not all(c in covered for c in move.clues)").run(env) is True
    assert compile_expr("[c for c in move.clues if c not in covered][:1]").run(env) == ["c"]
    assert compile_expr("2 if len(move.clues) == 3 else 0").run(env) == 2


def test_counts_of_hidden_cards_give_facts():
    hand = Zones({"hand:Ann"})
    env = {"clues": ["a", "b", "c"], "hand": lambda: hand, "k": 2}
    assert compile_expr("count(hand(), clues) >= k").run(env) == (count("abc", hand) >= 2)
    got = compile_expr("count(hand(), 'a') + 1 == count(hand(), ['b'])").run(env)
    assert got == Atom(Lin.of([("a", hand, 1), ("b", hand, -1)]), "==", -1)
    # and/or/not/if of facts are facts; "card in zones" is membership
    lie = compile_expr("(count(hand(), clues) == 1) if 'a' in hand() else not count(hand(), clues) == 1").run(env)
    assert lie == if_then_else(member("a", hand) == 1, count("abc", hand) == 1, count("abc", hand) != 1)
    world = {"a": "hand:Ann", "b": "rest", "c": "rest"}
    assert lie.holds(world) and not lie.holds({**world, "b": "hand:Ann"})
    with pytest.raises(Exception, match="no truth value"):
        compile_expr("1 if count(hand(), clues) == 1 and true else 0").run(env)


@pytest.mark.parametrize("source", [
    "__import__('os').system('true')", "().__class__", "lambda: 1", "x.__dict__", "[1] * 10**9",
    "'a' * 1000000000", "open('/etc/passwd')", "f(**k)", "(yield)", "1.5",
])
def test_dangerous_or_foreign_constructs_are_refused(source):
    try:
        expr = compile_expr(source, Position("r.yaml", 3, 9))
    except DiagnosticError as exc:
        assert exc.diagnostics[0].code == "RL120" and exc.diagnostics[0].position.line == 3
        return
    with pytest.raises(Exception) as info:
        expr.run({"x": object(), "f": print, "k": {}})
    assert type(info.value).__name__ == "ExprError"


def test_bad_syntax_points_at_the_column():
    with pytest.raises(DiagnosticError) as exc:
        compile_expr("a == == b", Position("r.yaml", 7, 11))
    d = exc.value.diagnostics[0]
    assert (d.code, d.position.line) == ("RL120", 7) and d.position.column > 11


def test_each_evaluation_in_a_row_has_a_budget_of_its_own():
    """Within ``evaluations()`` (a simulated game), an expression that does too much
    work is still stopped, and the work of the ones before it is not carried over."""
    from ruleslawyer.spec.expr import MAX_STEPS, ExprError, LimitError, evaluations

    most = compile_expr(f"len([x for x in range({MAX_STEPS // 5})])")  # about 3/5 of a budget
    too_much = compile_expr(f"len([x for x in range({MAX_STEPS + 10})])")
    nested = compile_expr("f(3)")
    with evaluations():
        assert most.run({}) == MAX_STEPS // 5
        assert most.run({}) == MAX_STEPS // 5  # 6/5 of one budget over two runs: fine
        with pytest.raises(LimitError):
            too_much.run({})
        assert most.run({}) == MAX_STEPS // 5  # a failed run leaves the next one whole
        body = compile_expr("g(n)")
        env = {"n": 1, "f": lambda n: body.run(env), "g": lambda n: n + 1}
        assert nested.run(env) == 2  # a call inside a run is a call, not a new run
    with pytest.raises(LimitError):
        too_much.run({})
    assert issubclass(LimitError, ExprError)


@pytest.mark.parametrize("source", ["x is 'b'", "x is not 1", "x is -1000", "x is y", "'b' is x"])
def test_is_compares_with_none_true_or_false_only(source):
    """Whether two equal texts or numbers are one object is Python's business (it keeps some
    written in code as one, and makes others anew): a rule cannot depend on it."""
    with pytest.raises(DiagnosticError) as exc:
        compile_expr(source, Position("r.yaml", 2, 5))
    d = exc.value.diagnostics[0]
    assert d.code == "RL120" and "none, true or false" in d.message and d.position.line == 2


@pytest.mark.parametrize("source,expected", [("x is none", False), ("x is not none", True), ("none is x", False),
                                             ("t is true", True), ("t is not false", True)])
def test_is_with_none_true_or_false(source, expected):
    assert compile_expr(source).run({"x": "b", "t": True}) is expected
