"""The expression language of rule files: conditions, effects and constraints.

Its syntax is the expression subset of Python (comparisons, ``and``/``or``,
arithmetic, ``x if c else y``, list/set comprehensions, calls to a fixed set
of functions), parsed with :mod:`ast` and checked here against a whitelist —
nothing is ever passed to ``eval`` or ``exec``.  The checked tree becomes nested
closures (the reference semantics) and, from the same tree, a Python function
built as an :mod:`ast` tree by :mod:`spec.exprgen` (rule text only ever as
constants in it), which runs first; when it meets a case it leaves to the
closures it raises, and the closures run instead.  One compiled expression serves the
state machine (plain Python values: conditions become predicates) and the
solver: where an expression counts hidden cards in zones
(``count(hand(actor), move.asked)``, ``card in hand(p)``), comparisons build
facts of :mod:`spec.facts` instead of truth values, and ``and``, ``or``,
``not`` and ``x if c else y`` combine them.

One piece (over 800 lines): the whitelist, the checker of the tree and the
reference closures must agree node by node; kept side by side so that a new
node cannot be added to one and forgotten in another.

>>> e = compile_expr("count(hand(), move.cards) == move.n")
>>> env = {"move": Namespace(cards=["a", "b"], n=1), "hand": lambda: Zones({"hand:Ann"})}
>>> fact = e.run(env)
>>> fact.holds({"a": "hand:Ann", "b": "rest"}), fact.holds({"a": "rest", "b": "rest"})
(True, False)
>>> compile_expr("'a' in hand() or move.n > 3").run(env).holds({"a": "hand:Ann"})
True
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import operator
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is slower
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import facts
from .diagnostics import Diagnostic, DiagnosticError, Position
from .facts import Zones, all_of, any_of, if_then_else, is_formula, negate
from .source import DEFAULT_LIMITS, INT_BITS, env_limit

__all__ = ["Expr", "compile_expr", "Namespace", "Scope", "ExprError", "LimitError", "expr_error_of", "charge",
           "FUNCTIONS", "evaluations", "truth_of", "first_failing", "holding", "each", "program", "MAX_STEPS",
           "MAX_CALL_DEPTH", "MAX_STRING", "MAX_INT_BITS"]


class ExprError(Exception):
    """An expression failed while running (bad types, unknown name, ...).

    ``exprs`` lists the expressions that were running, innermost first (the
    rule's own expression last): it is filled in on the way out, so that a
    diagnostic can point at the rule file.
    """

    exprs: list["Expr"]


class LimitError(ExprError):
    """An expression went past a limit of the language: its work, the depth
    of its calls or the size of a value it builds (see :data:`MAX_STEPS`)."""


class Namespace(Mapping[str, Any]):
    """Read-only attribute bag used for ``params``, ``options``, ``move``...

    >>> Namespace(a=1).a
    1
    """

    def __init__(self, data: Mapping[str, Any] | None = None, **kw: Any):
        object.__setattr__(self, "_data", {**(data or {}), **kw})

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Namespace":
        """A read-only view of ``data`` that follows its changes (no copy)."""
        view = cls.__new__(cls)
        object.__setattr__(view, "_data", data)
        return view

    def __getattr__(self, name: str) -> Any:
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Namespace({self._data!r})"


class Scope(dict):
    """Names bound over an environment without copying it (a comprehension's
    variable, a rule function's arguments).  Reads fall through to the parent;
    its length is both together, as a copy's would be (the budget charges it).
    """

    __slots__ = ("parent",)

    def __init__(self, parent: Mapping[str, Any], items: Any = ()):
        super().__init__(items)
        self.parent = parent

    def __missing__(self, key: str) -> Any:
        return self.parent[key]

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.parent

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.parent)


def _count(items: Any, *cards: Any) -> Any:
    """``count(items)``: how many are true; ``count(zones, cards)``: how many of the
    cards lie in the zones (a count of hidden cards, see :mod:`spec.facts`)."""
    if isinstance(items, Zones):
        if len(cards) != 1:
            raise ExprError("count(zones, cards) takes the zones and a list of cards")
        if isinstance(cards[0], str):
            return facts.member(cards[0], items)
        return facts.count([str(c) for c in cards[0]], items)
    if cards:
        raise ExprError("count() of a list takes one argument; count(zones, cards) counts hidden cards")
    return sum(1 for x in items if x)


def _contains(item: Any, container: Any) -> Any:
    if isinstance(container, Zones):
        return facts.member(str(item), container) == 1
    return item in container


def _not_contains(item: Any, container: Any) -> Any:
    if isinstance(container, Zones):
        return facts.member(str(item), container) == 0
    return item not in container


# The limits of one evaluation.  A rule file is data, so a hostile one must
# not make the loader (which runs the file's checks) or the replay hang or
# exhaust memory: every step is charged against a budget (items iterated,
# built, compared or passed to a function; every call; the characters of a
# string and the words of a big number built), calls nest only so deep, and
# no value grows past a size.
MAX_STEPS = env_limit("max_steps", 1_000_000)
MAX_CALL_DEPTH = 50           # rule functions calling rule functions
MAX_STRING = env_limit("max_string", DEFAULT_LIMITS.max_string)  # characters of a string built
MAX_INT_BITS = INT_BITS       # about 1233 decimal digits, as in the files read
_BIG = 1 << 62                # numbers below this in size are never charged
# [steps left, calls nested] while an outermost Expr.run is in progress; one per thread or task.
_BUDGET: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("expr_budget", default=None)


def _charge(n: int) -> None:
    budget = _BUDGET.get()
    if budget:
        budget[0] -= n
        if budget[0] < 0:
            raise LimitError(f"the expression does too much work (more than {MAX_STEPS:,} steps)")


#: For a function the environment supplies: charge its own work to the running evaluation.
charge = _charge


_SIZED = frozenset({list, tuple, str, frozenset, set, dict, range})
_UNSIZED = frozenset({int, bool, type(None)})
_HASHED = frozenset({frozenset, set, dict})
_SHORT = 64  # comparing with a text written in the rule file this long or shorter is one step


def _size(value: Any) -> int:
    kind = type(value)
    if kind in _UNSIZED:
        return 0
    if kind in _SIZED:
        return len(value)
    return len(value) if isinstance(value, (list, tuple, str, frozenset, set, dict, range)) else 0


def _big(value: int) -> int:
    """A number too big to be free: charged by its words, refused past MAX_INT_BITS."""
    bits = value.bit_length()
    if bits > MAX_INT_BITS:
        raise LimitError(f"a number of more than {MAX_INT_BITS} bits")
    _charge(bits >> 6)
    return value


def _concat(a: Any, b: Any) -> Any:
    """``a + b`` for strings, lists and tuples: charged before it is built."""
    n = _size(a) + _size(b)
    if n > MAX_STRING and isinstance(a, str):
        raise LimitError(f"a string of more than {MAX_STRING:,} characters")
    _charge(n)  # concatenation copies
    return a + b


def expr_error_of(exc: BaseException | None) -> ExprError | None:
    """The :class:`ExprError` behind an exception (itself, its cause or context), if any."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, ExprError):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _range(*args: Any) -> range:
    r = range(*args)
    _charge(len(r))
    return r


def _sum(items: Iterable[Any], *start: Any) -> Any:
    if len(start) > 1 or (start and (isinstance(start[0], bool) or not isinstance(start[0], int))):
        raise ExprError("sum() adds numbers: sum(items) or sum(items, start number)")
    return sum(items, *start)


def _updated(mapping: Any, key: Any, value: Any) -> dict[Any, Any]:
    """A copy of a mapping with one key set: ``updated(vars.held, actor, 'tile-a')``."""
    if not isinstance(mapping, Mapping):
        raise ExprError("updated() takes a mapping, a key and a value")
    _charge(len(mapping))
    return {**mapping, key: value}


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "sum": _sum, "min": min, "max": max, "any": any, "all": all,
    "set": frozenset, "list": list, "sorted": sorted, "count": _count,
    "abs": abs, "range": _range, "updated": _updated,
}

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_SEQUENCES = (str, list, tuple)
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge,
           ast.In: _contains, ast.NotIn: _not_contains,
           ast.Is: operator.is_, ast.IsNot: operator.is_not}
_MAX_SOURCE = 4000

Env = Mapping[str, Any]
Run = Callable[[Env], Any]


def _truth(value: Any) -> bool:
    return bool(value)  # a fact about hidden cards refuses (see spec.facts)


def _unbound(name: str) -> Any:
    """A name the environment does not give: a built-in function, or an error."""
    if name in FUNCTIONS:
        return FUNCTIONS[name]
    raise ExprError(f"unknown name '{name}'")


def _attr(value: Any, name: str) -> Any:
    if type(value) is Namespace:  # the usual case: params., options., vars., move.
        try:
            return value._data[name]
        except KeyError:
            raise ExprError(f"no field '{name}'") from None
    if name.startswith("_"):
        raise ExprError(f"no attribute '{name}'")
    kind = type(value)
    found = _KINDS.get(kind)
    if found is None:  # what a type's values give: a mapping's keys, a dataclass's fields, or nothing
        found = _KINDS[kind] = (issubclass(kind, Mapping), getattr(kind, "__dataclass_fields__", None))
    if found[0]:
        try:
            return value[name]
        except KeyError:
            raise ExprError(f"no field '{name}'") from None
    if found[1] is not None and name in found[1]:
        return getattr(value, name)
    raise ExprError(f"no field '{name}' on {kind.__name__}")


_KINDS: dict[type, tuple[bool, Any]] = {}  # see _attr()


@dataclass
class Expr:
    """A compiled expression with the names it reads (for load-time checks)."""

    source: str
    run_fn: Run
    names: frozenset[str]
    attributes: tuple[tuple[str, str, int], ...]  # (base name, attribute, column)
    strings: tuple[tuple[str, int], ...] = field(default=())
    # (namespace, field, literal, column) for comparisons like options.repeat == 'never'
    literals: tuple[tuple[str, str, Any, int], ...] = field(default=())
    calls: tuple[str, ...] = field(default=())  # functions the environment supplies, once per call written
    position: Position | None = None  # where the expression stands in its file
    # The closures when run_fn is the generated function (see spec.exprgen): they run
    # whenever the generated code raises, and give the exact value or error.
    exact: Run | None = None
    # the generated function of the expression as a rule function's body, by its arguments' names
    _called: dict[tuple[str, ...], Callable[..., Any] | None] = field(default_factory=dict, init=False,
                                                                     repr=False, compare=False)

    def run(self, env: Env) -> Any:
        budget = _BUDGET.get()
        if budget is not None and budget[1] == 0 and self.exact is not None:
            # The usual case, an outermost run within evaluations() that goes well, in few
            # steps; anything else (an error, a case for the closures) starts over below.
            budget[0] = MAX_STEPS
            budget[1] = 1
            try:
                return self.run_fn(env, budget)  # type: ignore[call-arg]
            except Exception as exc:  # noqa: BLE001 - _recover gives the exact value or error
                return self._recover(exc, env, budget, MAX_STEPS, env)
            finally:
                budget[1] = 0
        return self._run(env)

    def _run(self, env: Env) -> Any:
        """:meth:`run` in full: the budget set up as the run's depth asks, a failing
        generated function followed by the closures, errors traced."""
        budget = _BUDGET.get()
        token = None
        if budget is None:  # the outermost run: a fresh budget
            budget = [MAX_STEPS, 1]
            token = _BUDGET.set(budget)
        elif budget[1] == 0:  # an outermost run within evaluations(): a fresh budget too
            budget[0] = MAX_STEPS
            budget[1] = 1
        else:  # a call of a function the rule file defines, with a copy of the environment
            self._nest(budget, len(env))
        try:
            return self._guarded(env, budget, self.run_fn, (), env)
        finally:
            if token is not None:
                _BUDGET.reset(token)
            else:
                budget[1] -= 1

    def prepare_call(self, names: tuple[str, ...]) -> None:
        """Make now the function :meth:`call` uses for ``names`` (while a rule set is built,
        so that it is kept in the disk cache with the others: :func:`generated_codes`)."""
        if self.exact is not None and names not in self._called:
            self._called[names] = _generated(self.source, names)

    def call(self, env: dict[str, Any], names: tuple[str, ...], args: tuple[Any, ...]) -> Any:
        """The expression as a rule function's body, run from within an evaluation: ``names``
        read as ``args``, every other name from ``env``, as :meth:`run` over a copy of
        ``env`` with ``names`` set would (the same value, error and charge), without the copy.

        >>> body = compile_expr("n + k")
        >>> with evaluations():
        ...     compile_expr("f(2)").run({"k": 1, "f": lambda n: body.call({"k": 1}, ("n",), (n,))})
        3
        """
        budget = _BUDGET.get()
        if self.exact is None:
            fast = None
        elif names in self._called:
            fast = self._called[names]
        else:  # made once (None too: one that cannot be made is not tried again)
            fast = self._called[names] = _generated(self.source, names)
        if fast is None or budget is None or budget[1] == 0:
            scope = dict(env)
            scope.update(zip(names, args))
            return self.run(scope)
        self._nest(budget, len(env) + sum(1 for n in names if n not in env))  # what the copy is charged
        try:
            return self._guarded(env, budget, fast, args, None, names)
        finally:
            budget[1] -= 1

    def _nest(self, budget: list[int], size: int) -> None:
        """One call deeper, the copy of its environment (``size`` names) charged."""
        if budget[1] >= MAX_CALL_DEPTH:
            raise _traced(LimitError(f"calls nested more than {MAX_CALL_DEPTH} deep (a function that "
                                     "calls itself?)"), self)
        _charge(size)
        budget[1] += 1

    def _guarded(self, env: Env, budget: list[int], fn: Callable[..., Any], args: tuple[Any, ...],
                 scope: Env | None, names: tuple[str, ...] = ()) -> Any:
        """``fn`` (the generated function, or the closures) with the budget in hand; when it
        fails, :meth:`_recover`."""
        steps = budget[0]
        try:
            return fn(env) if self.exact is None else fn(env, budget, *args)
        except Exception as exc:  # noqa: BLE001 - _recover gives the exact value or error
            return self._recover(exc, env, budget, steps, scope, names, args)

    def _recover(self, failure: Exception, env: Env, budget: list[int], steps: int, scope: Env | None,
                 names: tuple[str, ...] = (), args: tuple[Any, ...] = ()) -> Any:
        """After ``failure`` of the generated function: the closures over ``scope`` (None:
        ``env`` with ``names`` set to ``args``), the budget back at ``steps``; after a
        failure of the closures themselves, a LimitError or an error of a rule function run
        inside this expression (already exact), that error.  Errors traced to this expression."""
        try:
            if self.exact is None or isinstance(failure, LimitError) or hasattr(failure, "exprs"):
                raise failure  # charged as the closures charge: they would stop there too
            budget[0] = steps  # the closures start over with the same budget
            if scope is None:
                scope = dict(env)
                scope.update(zip(names, args))
            return self.exact(scope)
        except ExprError as exc:
            raise _traced(exc, self)
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError,
                OverflowError) as exc:  # facts.FactError is a TypeError
            raise _traced(ExprError(f"{type(exc).__name__}: {exc}"), self) from None
        except RecursionError:
            raise _traced(LimitError("the expression recurses too deeply"), self) from None

    def test(self, env: Env) -> bool:
        return bool(self.run(env))


@contextlib.contextmanager
def evaluations() -> Iterator[None]:
    """Many outermost evaluations in a row (a simulated game): each still gets a budget
    of its own, without setting one up each time.

    >>> with evaluations():
    ...     compile_expr("1 + 1").run({})
    2
    """
    token = _BUDGET.set([MAX_STEPS, 0])  # depth 0: no evaluation running
    try:
        yield
    finally:
        _BUDGET.reset(token)


def truth_of(when: Expr | None, expr: Expr, exact: Callable[[Env], bool]) -> Callable[[Env], bool]:
    """A requirement's truth (``when`` false, or ``expr`` true) as one function of the
    environment: within :func:`evaluations`, both expressions run as one generated function,
    each as an outermost run (a budget of its own), when they give ``True`` or ``False``;
    anything else (another value, an error, no evaluations()) is left to ``exact``, the
    truth as the caller defines it from :meth:`Expr.run`.

    >>> truth = truth_of(None, compile_expr("n > 1"), lambda env: False)
    >>> with evaluations():
    ...     truth({"n": 2}), truth({"n": "not a number"})
    (True, False)
    """
    return _fused([[(when, expr)]], "truth", exact)


def first_failing(requirements: Sequence[tuple[Expr | None, Expr]],
                  exact: Callable[[Env], int]) -> Callable[[Env], int]:
    """:func:`truth_of` of several requirements in order, as one function of the
    environment: the index of the first that does not hold, or -1 (``exact``: the same,
    from :meth:`Expr.run`, for every case the generated function leaves to it).

    >>> first = first_failing([(None, compile_expr("n > 1")), (None, compile_expr("n > 5"))], lambda env: -2)
    >>> with evaluations():
    ...     first({"n": 9}), first({"n": 3}), first({"n": "?"})
    (-1, 1, -2)
    """
    return _fused([requirements], "index", exact)


def holding(groups: Sequence[Sequence[tuple[Expr | None, Expr]]],
            exact: Callable[[Env], list[int]]) -> Callable[[Env], list[int]]:
    """The indices of the groups of requirements that all hold, as one function of the
    environment (as :func:`first_failing`, ``exact`` for every case the generated function
    leaves to it).

    >>> open_ = holding([[(None, compile_expr("n > 1"))], [(None, compile_expr("n > 5"))]], lambda env: [])
    >>> with evaluations():
    ...     open_({"n": 9}), open_({"n": 3})
    ([0, 1], [0])
    """
    return _fused(groups, "open", exact)


def each(expr: Expr, name: str, answer: str) -> Callable[[Env, Sequence[Any]], list[Any] | None]:
    """The expression run once per item, the item read as ``name``, as one function
    ``(env, items)``: with ``answer`` "true", the items for which it gives True; "int", the
    values, each an int.  Within :func:`evaluations`, one generated function runs them, each
    as an outermost run (a budget of its own); it answers None for any other case (another
    value, an error, no evaluations()), which the caller's exact way decides.

    >>> keep = each(compile_expr("t > n"), "t", "true")
    >>> with evaluations():
    ...     keep({"n": 1}, [3, 1, 2]), keep({"n": "?"}, [3])
    ([3, 2], None)
    """
    from .exprgen import generate_each  # it imports this module
    tree = _tree(expr.source) if expr.exact is not None else None
    fn = None if tree is None else generate_each(tree, name, answer)
    return (lambda env, items: None) if fn is None else _within(fn, None)


def program(steps: Sequence[tuple[Any, ...]], arity: int) -> Callable[..., bool | None] | None:
    """Steps that act on values of expressions, as one function ``(env, *context)``:
    ``("do", fn, values)`` takes each value (an :class:`Expr`, or ``(constant,)``) then calls
    ``fn(*context, env, *values)``; ``("if", expr, then, otherwise)`` runs the steps ``then``
    when the expression gives True, ``otherwise`` when False.  Within :func:`evaluations`,
    one generated function runs them (each expression an outermost run) and answers True.
    It answers False when it fails along the way (another value for an ``if``, an error,
    an error of a ``fn`` too): what the steps did until then is the caller's to undo, before
    it runs them its exact way.  None: not tried (no evaluations()), nothing done.  The
    function itself is None when an expression is not translated.

    >>> seen = []
    >>> run = program([("if", compile_expr("n > 1"), [("do", lambda env, v: seen.append(v), [compile_expr("n")])],
    ...                 [])], 0)
    >>> with evaluations():
    ...     run({"n": 2}), run({"n": "?"}), seen
    (True, False, [2])
    """
    from .exprgen import generate_program  # it imports this module
    made: dict[int, ast.Expression | None] = {}

    def trees(block: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for step in block:
            exprs = step[2] if step[0] == "do" else [step[1]]
            for e in exprs:
                if isinstance(e, Expr) and id(e) not in made:
                    made[id(e)] = _tree(e.source) if e.exact is not None else None
            if step[0] == "do":
                out.append(("do", step[1], [e if isinstance(e, tuple) else made[id(e)] for e in exprs]))
            else:
                out.append(("if", made[id(step[1])], trees(step[2]), trees(step[3])))
        return out
    translated = trees(steps)
    fn = None if None in made.values() else generate_program(translated, arity)
    return None if fn is None else _within(fn, False)


def _within(fn: Callable[..., Any], failed: Any) -> Callable[..., Any]:
    """A generated function ``(env, budget, *args)`` as ``(env, *args)``, run within the
    budget's protocol: its value; ``failed`` when it raises (the caller's exact way gives the
    value or error); None outside :func:`evaluations` or within another evaluation (not tried)."""
    get = _BUDGET.get

    def run(env, *args):  # type: ignore[no-untyped-def]
        budget = get()
        if budget is None or budget[1]:
            return None
        budget[1] = 1
        try:
            return fn(env, budget, *args)
        except Exception:  # noqa: BLE001 - see above
            return failed
        finally:
            budget[1] = 0
    return run


def _fused(groups: Sequence[Sequence[tuple[Expr | None, Expr]]], answer: str,
           exact: Callable[[Env], Any]) -> Callable[[Env], Any]:
    """The function :func:`exprgen.generate_checks` makes (``answer``), run within the
    budget's protocol, with ``exact`` for anything it leaves."""
    if any(e is not None and e.exact is None for group in groups for pair in group for e in pair):
        return exact  # the closures alone serve one of them
    # the function depends on the texts alone: made once per process (a lab per command, per
    # test, per benchmark run would each make it again)
    key = (answer, tuple(tuple(tuple(None if e is None else e.source for e in pair) for pair in group)
                         for group in groups))
    if key in _FUSED:
        fn = _FUSED[key]
    else:
        fn = _fused_made(groups, answer, key)
        _remember(_FUSED, key, fn)
    if fn is None:
        return exact
    get = _BUDGET.get

    def run(env):  # type: ignore[no-untyped-def]  # the lab's hottest function: nothing around it
        budget = get()
        if budget is None or budget[1]:
            return exact(env)
        budget[1] = 1
        try:
            return fn(env, budget)
        except Exception:  # noqa: BLE001 - exact gives the value or error
            pass
        finally:
            budget[1] = 0
        return exact(env)
    return run


def _traced(exc: ExprError, expr: Expr) -> ExprError:
    if not hasattr(exc, "exprs"):
        exc.exprs = []
    exc.exprs.append(expr)
    return exc


class _Compiler:
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.attributes: list[tuple[str, str, int]] = []
        self.strings: list[tuple[str, int]] = []
        self.literals: list[tuple[str, str, Any, int]] = []
        self.calls: list[str] = []

    def fail(self, node: ast.AST, message: str) -> ExprError:
        err = ExprError(message)
        err.column = getattr(node, "col_offset", 0)  # type: ignore[attr-defined]
        return err

    def compile(self, node: ast.AST, bound: frozenset[str]) -> Run:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node, f"'{type(node).__name__}' is not allowed in a rule expression")
        return method(node, bound)

    def c_Expression(self, node: ast.Expression, bound: frozenset[str]) -> Run:
        return self.compile(node.body, bound)

    def c_Constant(self, node: ast.Constant, bound: frozenset[str]) -> Run:
        value = node.value
        if not isinstance(value, (int, str, bool, type(None))) or isinstance(value, float):
            raise self.fail(node, f"constant {value!r} is not allowed")
        if isinstance(value, str):
            self.strings.append((value, node.col_offset))
        return lambda env: value

    def c_Name(self, node: ast.Name, bound: frozenset[str]) -> Run:
        name = node.id
        if name in ("true", "false", "none"):
            const = {"true": True, "false": False, "none": None}[name]
            return lambda env: const
        if name not in bound:
            self.names.add(name)

        def run(env: Env) -> Any:
            try:
                return env[name]
            except KeyError:
                return _unbound(name)
        return run

    def c_Attribute(self, node: ast.Attribute, bound: frozenset[str]) -> Run:
        base = self.compile(node.value, bound)
        attr = node.attr
        if attr.startswith("_"):
            raise self.fail(node, f"attribute '{attr}' is not allowed (names starting with '_' are private)")
        if isinstance(node.value, ast.Name) and node.value.id not in bound:
            self.attributes.append((node.value.id, attr, node.col_offset))
        if isinstance(node.value, ast.Name) and node.value.id not in ("true", "false", "none"):
            name = node.value.id

            def run_field(env: Env) -> Any:  # ``name.attr`` in one step (the usual case)
                try:
                    value = env[name]
                except KeyError:
                    value = _unbound(name)
                if type(value) is Namespace:
                    try:
                        return value._data[attr]
                    except KeyError:
                        raise ExprError(f"no field '{attr}'") from None
                return _attr(value, attr)
            return run_field
        return lambda env: _attr(base(env), attr)

    def c_Subscript(self, node: ast.Subscript, bound: frozenset[str]) -> Run:
        base = self.compile(node.value, bound)
        if isinstance(node.slice, ast.Slice):
            lo = self.compile(node.slice.lower, bound) if node.slice.lower else (lambda env: None)
            hi = self.compile(node.slice.upper, bound) if node.slice.upper else (lambda env: None)
            if node.slice.step:
                raise self.fail(node, "slices with a step are not allowed")

            def run_slice(env: Env) -> Any:
                seq = base(env)
                _charge(_size(seq))
                return list(seq)[lo(env):hi(env)]
            return run_slice
        index = self.compile(node.slice, bound)
        return lambda env: base(env)[index(env)]

    def c_BoolOp(self, node: ast.BoolOp, bound: frozenset[str]) -> Run:
        parts = [self.compile(v, bound) for v in node.values]
        if len(parts) == 2:
            first, second = parts
            if isinstance(node.op, ast.And):
                def run_and2(env: Env) -> Any:
                    result = first(env)
                    if is_formula(result):
                        return all_of([result, second(env)])
                    if not _truth(result):
                        return result
                    result = second(env)
                    return all_of([result]) if is_formula(result) else result
                return run_and2

            def run_or2(env: Env) -> Any:
                result = first(env)
                if is_formula(result):
                    return any_of([result, second(env)])
                if _truth(result):
                    return result
                result = second(env)
                return any_of([result]) if is_formula(result) else result
            return run_or2
        if isinstance(node.op, ast.And):
            def run_and(env: Env) -> Any:
                result: Any = True
                for i, p in enumerate(parts):
                    result = p(env)
                    if is_formula(result):  # a fact: the rest joins it
                        return all_of([result, *(q(env) for q in parts[i + 1:])])
                    if not _truth(result):
                        return result
                return result
            return run_and

        def run_or(env: Env) -> Any:
            result: Any = False
            for i, p in enumerate(parts):
                result = p(env)
                if is_formula(result):
                    return any_of([result, *(q(env) for q in parts[i + 1:])])
                if _truth(result):
                    return result
            return result
        return run_or

    def c_UnaryOp(self, node: ast.UnaryOp, bound: frozenset[str]) -> Run:
        operand = self.compile(node.operand, bound)
        name = _plain_name(node.operand)
        if isinstance(node.op, ast.Not) and name is not None:
            def run_not_name(env: Env) -> Any:  # ``not ended``: as below, the name read in the same step
                try:
                    value = env[name]
                except KeyError:
                    value = _unbound(name)
                if type(value) is bool:
                    return not value
                return negate(value) if is_formula(value) else not _truth(value)
            return run_not_name
        if isinstance(node.op, ast.Not):
            def run_not(env: Env) -> Any:
                value = operand(env)
                return negate(value) if is_formula(value) else not _truth(value)
            return run_not
        if isinstance(node.op, ast.USub):
            return lambda env: -operand(env)
        if isinstance(node.op, ast.UAdd):
            return operand
        raise self.fail(node, "this operator is not allowed")

    def c_BinOp(self, node: ast.BinOp, bound: frozenset[str]) -> Run:
        fn = _BINOPS.get(type(node.op))
        if fn is None:
            raise self.fail(node, "this operator is not allowed")
        literal = (ast.List, ast.Tuple, ast.ListComp, ast.JoinedStr)
        sides = [node.left, node.right]
        if isinstance(node.op, ast.Mult) and any(isinstance(n, literal) or _string(n) for n in sides):
            raise self.fail(node, "repetition of strings or lists is not allowed")
        if isinstance(node.op, ast.Mod) and _string(node.left):
            raise self.fail(node, "'%' formatting of strings is not allowed")
        left, right = self.compile(node.left, bound), self.compile(node.right, bound)
        if isinstance(node.op, ast.Add):
            def run_add(env: Env) -> Any:
                a, b = left(env), right(env)
                if isinstance(a, _SEQUENCES):
                    return _concat(a, b)
                r = a + b
                return r if type(r) is not int or -_BIG < r < _BIG else _big(r)
            return run_add
        if isinstance(node.op, ast.Mult):
            def run_mul(env: Env) -> Any:
                a, b = left(env), right(env)
                if isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES):
                    raise LimitError("repetition of strings or lists is not allowed")
                r = a * b
                return r if type(r) is not int or -_BIG < r < _BIG else _big(r)
            return run_mul
        if isinstance(node.op, ast.Mod):
            def run_mod(env: Env) -> Any:
                a, b = left(env), right(env)
                if isinstance(a, str):
                    raise LimitError("'%' formatting of strings is not allowed")
                return a % b
            return run_mod

        def run(env: Env) -> Any:
            r = fn(left(env), right(env))
            return r if type(r) is not int or -_BIG < r < _BIG else _big(r)
        return run

    def c_Compare(self, node: ast.Compare, bound: frozenset[str]) -> Run:
        sides = [node.left, *node.comparators]
        singletons = ("none", "true", "false")
        for op, a, b in zip(node.ops, sides, sides[1:]):
            # ``is`` asks whether two values are one object: only none, true and false are one
            # object whatever made them (a text or number may be two equal objects, or one).
            if isinstance(op, (ast.Is, ast.IsNot)) and not any(
                    isinstance(x, ast.Name) and x.id in singletons and x.id not in bound for x in (a, b)):
                raise self.fail(node, "'is' compares with none, true or false: use == or != to compare values")
        for a, b in zip(sides, sides[1:]):
            for attr, const in ((a, b), (b, a)):
                if not isinstance(const, ast.Constant):
                    continue
                if (isinstance(attr, ast.Attribute) and isinstance(attr.value, ast.Name)
                        and attr.value.id not in bound):
                    self.literals.append((attr.value.id, attr.attr, const.value, const.col_offset))
                elif isinstance(attr, ast.Name) and attr.id not in bound:
                    self.literals.append(("", attr.id, const.value, const.col_offset))
        first = self.compile(node.left, bound)
        rest = []
        for op, comp in zip(node.ops, node.comparators):
            fn = _CMPOPS.get(type(op))
            if fn is None:
                raise self.fail(node, "this comparison is not allowed")
            rest.append((fn, self.compile(comp, bound)))
        if len(rest) == 1:
            fn0, right0 = rest[0]
            hashed = fn0 is _contains or fn0 is _not_contains
            if fn0 is operator.is_ or fn0 is operator.is_not:
                right = node.comparators[0]
                if isinstance(right, ast.Name) and right.id == "none":  # ``x is none``: no walking, no call
                    if fn0 is operator.is_:
                        return lambda env: first(env) is None
                    return lambda env: first(env) is not None
                return lambda env: fn0(first(env), right0(env))
            const = node.comparators[0]
            if isinstance(const, ast.Constant) and type(const.value) in (int, bool) and not hashed:
                number = const.value
                return lambda env: _compared(fn0, False, first(env), number)  # ``x < 3``: the number not called
            if isinstance(const, ast.Constant) and isinstance(const.value, str) and fn0 in (operator.eq, operator.ne) \
                    and len(const.value) <= _SHORT:
                text = const.value

                def run_text(env: Env) -> Any:  # ``phase == 'play'``: at most as much work as the short text
                    return fn0(first(env), text)
                return run_text

            left_name, right_name = _plain_name(node.left), _plain_name(node.comparators[0])
            if left_name is not None and right_name is not None:
                def run_names(env: Env) -> Any:  # ``actor == turn``: the names read in the same step
                    try:
                        a = env[left_name]
                    except KeyError:
                        a = _unbound(left_name)
                    try:
                        b = env[right_name]
                    except KeyError:
                        b = _unbound(right_name)
                    return _compared(fn0, hashed, a, b)
                return run_names

            return lambda env: _compared(fn0, hashed, first(env), right0(env))

        def run(env: Env) -> Any:
            left = first(env)
            found: list[Any] = []
            for fn, comp in rest:
                right = comp(env)
                _charge(_size(left) + _size(right))
                result = fn(left, right)
                if is_formula(result):
                    found.append(result)
                elif not result:
                    return False
                left = right
            return all_of(found) if found else True
        return run

    def c_IfExp(self, node: ast.IfExp, bound: frozenset[str]) -> Run:
        test, body, other = (self.compile(n, bound) for n in (node.test, node.body, node.orelse))

        def run(env: Env) -> Any:
            cond = test(env)
            if is_formula(cond):
                a, b = body(env), other(env)
                if not all(is_formula(x) or isinstance(x, bool) for x in (a, b)):
                    _truth(cond)  # refuses: a value cannot depend on a hidden fact
                return if_then_else(cond, a, b)
            return body(env) if _truth(cond) else other(env)
        return run

    def c_Call(self, node: ast.Call, bound: frozenset[str]) -> Run:
        if node.keywords:
            raise self.fail(node, "keyword arguments are not allowed")
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only named functions may be called")
        fname = node.func.id
        if fname not in FUNCTIONS:
            self.names.add(fname)  # a function the environment must supply
            self.calls.append(fname)
        builtin = FUNCTIONS.get(fname)
        if fname in ("all", "any") and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            return self._all_any(fname == "all", node.args[0], bound)
        args = [self.compile(a, bound) for a in node.args]
        if builtin is not None and len(args) == 1:
            only = args[0]

            def run_builtin1(env: Env) -> Any:  # ``len(x)``, ``set(x)``...: as below, with one argument
                value = only(env)
                kind = type(value)
                _charge(1 + (0 if kind in _UNSIZED else len(value) if kind in _SIZED else _size(value)))
                return builtin(value)
            return run_builtin1

        def run(env: Env) -> Any:
            if builtin is None:
                try:
                    fn = env[fname]
                except KeyError:
                    fn = None
            else:
                fn = builtin
            if fn is None or not callable(fn):
                raise ExprError(f"unknown function '{fname}'")
            values = [a(env) for a in args]
            # Every call costs a step; sorted(), set(), sum()... walk their arguments.
            _charge(1 + sum(map(_size, values)))
            return fn(*values)
        return run

    def _all_any(self, every: bool, gen: ast.GeneratorExp, bound: frozenset[str]) -> Run:
        """``all(x for ...)`` / ``any(x for ...)`` that stop at the first item that decides
        (as Python's do); a fact among the items refuses, as ``bool`` of it does."""
        items = self._comprehension(gen, bound)

        def run(env: Env) -> Any:
            _charge(1)
            for value in items(env):
                if _truth(value) is not every:
                    return not every
            return every
        return run

    def _elts(self, elts: list[ast.expr], bound: frozenset[str]) -> list[Run]:
        for e in elts:
            if isinstance(e, ast.Starred):
                raise self.fail(e, "unpacking is not allowed")
        return [self.compile(e, bound) for e in elts]

    def c_List(self, node: ast.List, bound: frozenset[str]) -> Run:
        elts = self._elts(node.elts, bound)
        return lambda env: [e(env) for e in elts]

    def c_Tuple(self, node: ast.Tuple, bound: frozenset[str]) -> Run:
        elts = self._elts(node.elts, bound)
        return lambda env: tuple(e(env) for e in elts)

    def c_Set(self, node: ast.Set, bound: frozenset[str]) -> Run:
        elts = self._elts(node.elts, bound)
        return lambda env: frozenset(e(env) for e in elts)

    def c_Dict(self, node: ast.Dict, bound: frozenset[str]) -> Run:
        if any(k is None for k in node.keys):
            raise self.fail(node, "unpacking is not allowed")
        keys = [self.compile(k, bound) for k in node.keys]  # type: ignore[arg-type]
        values = [self.compile(v, bound) for v in node.values]
        return lambda env: {k(env): v(env) for k, v in zip(keys, values)}

    def _comprehension(self, node: Any, bound: frozenset[str]) -> Callable[[Env], Iterable[Any]]:
        if isinstance(node, ast.DictComp):  # a pair (key, value) per item
            node = ast.ListComp(elt=ast.Tuple(elts=[node.key, node.value], ctx=ast.Load()),
                                generators=node.generators)
        if len(node.generators) != 1:
            raise self.fail(node, "only one 'for' per comprehension is allowed")
        gen = node.generators[0]
        if not isinstance(gen.target, ast.Name) or gen.is_async:
            raise self.fail(node, "a comprehension must bind one plain name")
        var = gen.target.id
        iterable = self.compile(gen.iter, bound)
        inner = bound | {var}
        conds = [self.compile(c, inner) for c in gen.ifs]
        elt = self.compile(node.elt, inner)

        def items(env: Env) -> Iterable[Any]:
            # A flat copy of the environment reads faster than a chain of scopes
            # (it costs what a call's copy of the environment is charged).
            scope = dict(env) if type(env) is dict else Scope(env)
            values = iterable(env)
            sized = type(values) in _SIZED
            if sized:
                _charge(len(values))  # one step per item, charged before the loop
            for item in values:
                if not sized:
                    _charge(1)
                scope[var] = item
                for c in conds:
                    if not _truth(c(scope)):
                        break
                else:
                    yield elt(scope)
        return items

    def c_ListComp(self, node: ast.ListComp, bound: frozenset[str]) -> Run:
        items = self._comprehension(node, bound)
        return lambda env: list(items(env))

    def c_GeneratorExp(self, node: ast.GeneratorExp, bound: frozenset[str]) -> Run:
        items = self._comprehension(node, bound)
        return lambda env: list(items(env))

    def c_DictComp(self, node: ast.DictComp, bound: frozenset[str]) -> Run:
        items = self._comprehension(node, bound)
        return lambda env: dict(items(env))

    def c_SetComp(self, node: ast.SetComp, bound: frozenset[str]) -> Run:
        items = self._comprehension(node, bound)
        return lambda env: frozenset(items(env))


def _plain_name(node: ast.AST) -> str | None:
    """The name a node reads when it is a bare name (not a constant's), else None."""
    if isinstance(node, ast.Name) and node.id not in ("true", "false", "none"):
        return node.id
    return None


def _compared(fn: Callable[[Any, Any], Any], hashed: bool, a: Any, b: Any) -> Any:
    """``fn(a, b)``, charged for the items it may walk (:func:`_comparing`)."""
    n = _comparing(hashed, a, b)
    if n:
        _charge(n)
    return fn(a, b)


def _comparing(hashed: bool, a: Any, b: Any) -> int:
    """The steps of comparing ``a`` with ``b``: the items it may walk (a lookup in a set or
    mapping, ``hashed``, walks none of the container's)."""
    ta, tb = type(a), type(b)
    n = 0 if ta in _UNSIZED else len(a) if ta in _SIZED else _size(a)
    if not (tb in _UNSIZED or (hashed and tb in _HASHED)):
        n += len(b) if tb in _SIZED else _size(b)
    return n


def _string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def compile_expr(source: Any, position: Position | None = None) -> Expr:
    """Compile an expression; raise :class:`DiagnosticError` (RL120) if it is bad.

    Booleans and numbers written directly in YAML are constant expressions.
    """
    if isinstance(source, bool) or isinstance(source, int) or source is None:
        const = source
        return Expr(repr(source), lambda env: const, frozenset(), (), position=position)
    if not isinstance(source, str):
        raise DiagnosticError([Diagnostic("RL120", "an expression must be a string", position)])
    text = source.strip()
    if len(text) > _MAX_SOURCE:
        raise DiagnosticError([Diagnostic("RL120", f"expression longer than {_MAX_SOURCE} characters", position)])
    hit = _COMPILED.get(text)
    if hit is None:
        try:
            tree = ast.parse(text.replace("\n", " "), mode="eval")
        except SyntaxError as exc:
            pos = _shift(position, (exc.offset or 1) - 1)
            raise DiagnosticError([Diagnostic("RL120", f"bad expression: {exc.msg}", pos)]) from None
        except (RecursionError, MemoryError, ValueError):
            raise DiagnosticError([Diagnostic("RL120", "expression too deeply nested", position)]) from None
        comp = _Compiler()
        try:
            run = comp.compile(tree, frozenset())
        except ExprError as exc:
            pos = _shift(position, getattr(exc, "column", 0))
            raise DiagnosticError([Diagnostic("RL120", f"bad expression: {exc}", pos)]) from None
        except RecursionError:
            raise DiagnosticError([Diagnostic("RL120", "expression too deeply nested", position)]) from None
        hit = (run, _generate(text, (), tree), frozenset(comp.names), tuple(comp.attributes), tuple(comp.strings),
               tuple(comp.literals), tuple(comp.calls))
        _remember(_COMPILED, text, hit)
    run, fast, names, attributes, strings, literals, calls = hit
    if _CODES:
        _CODES[-1][1][(text, ())] = None if fast is None else fast.__code__
    return Expr(text, run if fast is None else fast, names, attributes, strings, literals, calls, position,
                None if fast is None else run)


#: Expressions compiled in this process, by their text: the closures and the generated
#: function of an expression depend on its text alone (its position is the Expr's), and
#: run nothing but what the environment they are given holds.  Rule sets written one from
#: another (a variant, an overlay, a file edited) share most of their expressions.
_COMPILED: dict[Any, Any] = {}
_GENERATED: dict[Any, Any] = {}
_MAX_REMEMBERED = 8192


def _fused_made(groups: Sequence[Sequence[tuple[Expr | None, Expr]]],
                answer: str, key: Any) -> Callable[[Any, list[Any]], Any] | None:
    """:func:`exprgen.generate_checks`' function of the groups' texts (None: not translated),
    its code from the disk cache when an earlier command made it (:mod:`spec.fusedcache`)."""
    from . import fusedcache
    from .exprgen import from_code, generate_checks  # it imports this module
    code = fusedcache.stored(key)
    if code is None:
        return None
    if code is not fusedcache.NOT_STORED:
        fn = from_code(code, checks=True)
        if fn is not None:
            return fn
    trees = [[tuple(None if e is None else _tree(e.source) for e in pair) for pair in group] for group in groups]
    given = [(e, t) for group, made in zip(groups, trees) for pair, got in zip(group, made) for e, t in zip(pair, got)]
    if any(e is not None and t is None for e, t in given):  # Python cannot parse one again: the exact way
        fn = None
    else:
        fn = generate_checks(trees, answer)  # type: ignore[arg-type]
    fusedcache.made(key, None if fn is None else fn.__code__)
    return fn


#: The fused checks' generated functions by (answer, the groups' texts), made once per process.
_FUSED: dict[Any, Any] = {}


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memo) >= _MAX_REMEMBERED:  # the oldest first (a dict keeps its order)
        del memo[next(iter(memo))]
    memo[key] = value


def _generated(source: str, params: tuple[str, ...]) -> Callable[..., Any] | None:
    """The generated function of an expression already compiled, ``params`` read as arguments."""
    key = (source, params)
    if key in _GENERATED:
        fast = _GENERATED[key]
    else:
        fast = _generate(source, params, None)
        _remember(_GENERATED, key, fast)
    if _CODES:
        _CODES[-1][1][key] = None if fast is None else fast.__code__
    return fast


#: While a rule set is built (:func:`generated_codes`): the code of the generated functions
#: read from the disk cache, by (text, params), and the code of those the build used.
_CODES: list[tuple[dict[Any, Any], dict[Any, Any]]] = []
_NOT_STORED = object()


@contextlib.contextmanager
def generated_codes(stored: dict[Any, Any] | None) -> Iterator[dict[Any, Any]]:
    """Within: an expression's generated function is made from ``stored`` code when it holds its
    text (:mod:`spec.diskcache`); yields the code of every generated function used, by (text,
    params): what the cache is to hold for this rule set."""
    used: dict[Any, Any] = {}
    _CODES.append((stored or {}, used))
    try:
        yield used
    finally:
        _CODES.pop()


def _generate(source: str, params: tuple[str, ...], tree: ast.Expression | None) -> Callable[..., Any] | None:
    """The generated function of an expression (``tree``: its tree when parsed already)."""
    from .exprgen import from_code, generate  # it imports this module

    if _CODES:
        code = _CODES[-1][0].get((source, params), _NOT_STORED)
        if code is None:  # not translated, as generate found before
            return None
        if code is not _NOT_STORED:
            fast = from_code(code, params)
            if fast is not None:
                return fast
    if tree is None:
        tree = _tree(source)
    return None if tree is None else generate(tree, params)


def _tree(source: str) -> ast.Expression | None:
    """The syntax tree of an expression already compiled (None when Python cannot give it again)."""
    try:
        return ast.parse(source.replace("\n", " "), mode="eval")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def _shift(position: Position | None, columns: int) -> Position | None:
    if position is None:
        return None
    return Position(position.path, position.line, position.column + max(0, columns))
