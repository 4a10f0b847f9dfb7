"""Rule expressions as generated Python functions: the fast path of :mod:`spec.expr`.

From an expression's syntax tree, already validated by the closure compiler of
:mod:`spec.expr`, :func:`generate` builds an :class:`ast.Module` holding one
``def`` that evaluates the expression inline, compiles that tree (never source
text: every piece of rule text is an ``ast.Constant`` or a key read at run time)
and makes the function over a namespace of the helpers it needs, with no
built-ins.  Names are read from ``env`` by constant keys; a comprehension's
variable is a generated local (``_v0``).

The function assumes the common case.  Where the closures would do something
else (a hidden-card fact in ``and``/``or``/``if``, a name the environment lacks,
a value that is not a :class:`Namespace`), it raises, and :meth:`Expr.run`
runs the closures instead, which give the exact value or error.  It charges
the budget exactly where and as much as the closures do, with their helpers.

>>> from ruleslawyer.spec.expr import Namespace
>>> run = generate(ast.parse("move.n > 1 and actor == 'Ann'", mode="eval"))
>>> run({"move": Namespace(n=2), "actor": "Ann"})
True
"""

from __future__ import annotations

import ast
import operator
import types
import warnings
from typing import Any, Callable, Iterable, Iterator

from . import expr as x
from .facts import Lin, is_formula

__all__ = ["generate", "Bail"]


class Bail(Exception):
    """The generated code met a case only the closures handle exactly."""


class _Unsupported(Exception):
    """A tree this generator does not translate (the closures serve it)."""


_NOT_BUILT = ("true", "false", "none")
_CONSTANTS = {"true": True, "false": False, "none": None}
_CMP = {ast.Eq: ("_eq", ast.Eq), ast.NotEq: ("_ne", ast.NotEq), ast.Lt: ("_lt", ast.Lt), ast.LtE: ("_le", ast.LtE),
        ast.Gt: ("_gt", ast.Gt), ast.GtE: ("_ge", ast.GtE), ast.In: ("_contains", None),
        ast.NotIn: ("_not_contains", None), ast.Is: ("_is", ast.Is), ast.IsNot: ("_is_not", ast.IsNot)}


def _plain(value: Any) -> Any:
    """The value of an ``and``/``or``, unless it is a fact (the closures wrap or refuse it)."""
    if is_formula(value) or isinstance(value, Lin):
        raise Bail
    return value


def _spend(budget: list[int] | None, n: int) -> None:
    """``expr._charge`` with the budget in hand (None: the one of the running evaluation, if any)."""
    if budget is None:
        budget = x._BUDGET.get()
        if budget is None:
            return
    budget[0] -= n
    if budget[0] < 0:
        raise x.LimitError(f"the expression does too much work (more than {x.MAX_STEPS:,} steps)")


def _items(budget: list[int] | None, values: Any) -> Iterable[Any]:
    """A comprehension's items, charged as the closures charge them."""
    if type(values) in x._SIZED:
        _spend(budget, len(values))  # one step per item, before the loop
        return values
    return _each(budget, values)


def _each(budget: list[int] | None, values: Iterable[Any]) -> Iterator[Any]:
    for item in values:
        _spend(budget, 1)
        yield item


def _cmp(budget: list[int] | None, fn: Callable[[Any, Any], Any], hashed: bool, a: Any, b: Any) -> Any:
    """``expr._compared``: ``fn(a, b)`` charged for the items it may walk."""
    ta, tb = type(a), type(b)
    n = 0 if ta in x._UNSIZED else len(a) if ta in x._SIZED else x._size(a)
    if not (tb in x._UNSIZED or (hashed and tb in x._HASHED)):
        n += len(b) if tb in x._SIZED else x._size(b)
    if n:
        if budget is None:
            _spend(None, n)
        else:  # _spend inline: comparisons are the commonest charge
            budget[0] -= n
            if budget[0] < 0:
                _spend(budget, 0)
    return fn(a, b)


def _call1(budget: list[int] | None, fn: Callable[[Any], Any], value: Any) -> Any:
    """A built-in with one argument: a step, and one per item it may walk."""
    kind = type(value)
    _spend(budget, 1 + (0 if kind in x._UNSIZED else len(value) if kind in x._SIZED else x._size(value)))
    return fn(value)


def _calln(budget: list[int] | None, fn: Callable[..., Any], *values: Any) -> Any:
    _spend(budget, 1 + sum(map(x._size, values)))
    return fn(*values)


def _callenv(budget: list[int] | None, fn: Any, *values: Any) -> Any:
    """A function the environment supplies (the closures check it before the arguments)."""
    if not callable(fn):
        raise Bail
    n = 1 + sum(map(x._size, values))
    if budget is None:
        _spend(None, n)
    else:
        budget[0] -= n
        if budget[0] < 0:
            _spend(budget, 0)
    return fn(*values)


def _all(_: None, items: Iterable[Any]) -> bool:
    return all(items)


def _any(_: None, items: Iterable[Any]) -> bool:
    return any(items)


def _charged(budget: list[int] | None, seq: Any) -> Any:
    _spend(budget, x._size(seq))
    return seq


def _chain(budget: list[int] | None, left: Any, *rest: Any) -> bool:
    """A chained comparison ``left op1 b op2 c``: ``rest`` alternates an operator and a
    function giving its right side (read only when the comparison gets that far)."""
    for i in range(0, len(rest), 2):
        right = rest[i + 1]()
        _spend(budget, x._size(left) + x._size(right))
        result = rest[i](left, right)
        if is_formula(result):
            raise Bail
        if not result:
            return False
        left = right
    return True


def _add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        r = a + b
        return r if -x._BIG < r < x._BIG else x._big(r)
    if isinstance(a, x._SEQUENCES):
        return x._concat(a, b)
    r = a + b
    return r if type(r) is not int or -x._BIG < r < x._BIG else x._big(r)


def _mul(a: Any, b: Any) -> Any:
    if isinstance(a, x._SEQUENCES) or isinstance(b, x._SEQUENCES):
        raise x.LimitError("repetition of strings or lists is not allowed")
    r = a * b
    return r if type(r) is not int or -x._BIG < r < x._BIG else x._big(r)


def _mod(a: Any, b: Any) -> Any:
    if isinstance(a, str):
        raise x.LimitError("'%' formatting of strings is not allowed")
    return a % b


def _arith(fn: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    r = fn(a, b)
    return r if type(r) is not int or -x._BIG < r < x._BIG else x._big(r)


_HELPERS: dict[str, Any] = {
    "type": type, "list": list, "int": int, "bool": bool, "Namespace": x.Namespace, "_BIG": x._BIG,
    "_plain": _plain, "_items": _items, "_call1": _call1, "_calln": _calln, "_callenv": _callenv,
    "_all": _all, "_any": _any, "_spend": _spend, "_charged": _charged, "_chain": _chain,
    "_cmp": _cmp, "_attr": x._attr, "_big": x._big, "_frozenset": frozenset,
    "_add": _add, "_mul": _mul, "_mod": _mod, "_arith": _arith, "_sub": operator.sub,
    "_floordiv": operator.floordiv, "_eq": operator.eq, "_ne": operator.ne, "_lt": operator.lt,
    "_le": operator.le, "_gt": operator.gt, "_ge": operator.ge, "_is": operator.is_,
    "_is_not": operator.is_not, "_contains": x._contains, "_not_contains": x._not_contains,
    **{"_fn_" + name: fn for name, fn in x.FUNCTIONS.items()},
}


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _budget() -> ast.Name:
    """The generated function's second argument: the budget of the running evaluation."""
    return _load("budget")


def _args(*names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def _const(value: Any) -> ast.Constant:
    return ast.Constant(value=value)


def _call(fn: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=_load(fn), args=list(args), keywords=[])


def _is_type(value: ast.expr, kind: str) -> ast.Compare:
    """``type(value) is kind``."""
    return ast.Compare(left=_call("type", value), ops=[ast.Is()], comparators=[_load(kind)])


class _Gen:
    """Translates one validated tree; ``bound`` maps a comprehension's variable to its local."""

    def __init__(self) -> None:
        self.temps = 0
        self.vars = 0

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def gen(self, node: ast.AST, bound: dict[str, str], flat: bool) -> ast.expr:
        """``flat``: inside a comprehension's iterable, where ``:=`` is not allowed."""
        method = getattr(self, "g_" + type(node).__name__, None)
        if method is None:
            raise _Unsupported(type(node).__name__)
        return method(node, bound, flat)

    def g_Constant(self, node: ast.Constant, bound: dict[str, str], flat: bool) -> ast.expr:
        return _const(node.value)

    def g_Name(self, node: ast.Name, bound: dict[str, str], flat: bool) -> ast.expr:
        if node.id in _CONSTANTS:
            return _const(_CONSTANTS[node.id])
        if node.id in bound:
            return _load(bound[node.id])
        return self.env(node.id)

    def env(self, name: str) -> ast.expr:
        """``env[name]``: a missing name raises KeyError, and the closures say why."""
        return ast.Subscript(value=_load("env"), slice=_const(name), ctx=ast.Load())

    def g_Attribute(self, node: ast.Attribute, bound: dict[str, str], flat: bool) -> ast.expr:
        base = self.gen(node.value, bound, flat)
        if flat:
            return _call("_attr", base, _const(node.attr))
        t = self.temp()
        walrus = ast.NamedExpr(target=_store(t), value=base)
        data = ast.Attribute(value=_load(t), attr="_data", ctx=ast.Load())
        # A Namespace's field read from its dict (a missing one raises KeyError: the closures say why).
        return ast.IfExp(test=_is_type(walrus, "Namespace"),
                         body=ast.Subscript(value=data, slice=_const(node.attr), ctx=ast.Load()),
                         orelse=_call("_attr", _load(t), _const(node.attr)))

    def g_Subscript(self, node: ast.Subscript, bound: dict[str, str], flat: bool) -> ast.expr:
        base = self.gen(node.value, bound, flat)
        if isinstance(node.slice, ast.Slice):
            if node.slice.step is not None:
                raise _Unsupported("step")
            lo = self.gen(node.slice.lower, bound, flat) if node.slice.lower else _const(None)
            hi = self.gen(node.slice.upper, bound, flat) if node.slice.upper else _const(None)
            copied = _call("list", _call("_charged", _budget(), base))
            return ast.Subscript(value=copied, slice=ast.Slice(lower=lo, upper=hi), ctx=ast.Load())
        return ast.Subscript(value=base, slice=self.gen(node.slice, bound, flat), ctx=ast.Load())

    def g_BoolOp(self, node: ast.BoolOp, bound: dict[str, str], flat: bool) -> ast.expr:
        # Python's and/or take the truth of every operand but the last: a fact refuses it.
        op = ast.BoolOp(op=node.op, values=[self.gen(v, bound, flat) for v in node.values])
        if flat:
            return _call("_plain", op)
        t = self.temp()
        return ast.IfExp(test=_is_type(ast.NamedExpr(target=_store(t), value=op), "bool"), body=_load(t),
                         orelse=_call("_plain", _load(t)))

    def g_UnaryOp(self, node: ast.UnaryOp, bound: dict[str, str], flat: bool) -> ast.expr:
        operand = self.gen(node.operand, bound, flat)
        if isinstance(node.op, ast.Not):
            return ast.UnaryOp(op=ast.Not(), operand=operand)  # a fact refuses ``not``
        if isinstance(node.op, ast.USub):
            return ast.UnaryOp(op=ast.USub(), operand=operand)
        if isinstance(node.op, ast.UAdd):
            return operand  # as the closures: the value itself
        raise _Unsupported("unary")

    def g_BinOp(self, node: ast.BinOp, bound: dict[str, str], flat: bool) -> ast.expr:
        left, right = self.gen(node.left, bound, flat), self.gen(node.right, bound, flat)
        helper = {ast.Add: "_add", ast.Mult: "_mul", ast.Mod: "_mod"}.get(type(node.op))
        if helper is not None:
            return _call(helper, left, right)
        fn = {ast.Sub: "_sub", ast.FloorDiv: "_floordiv"}.get(type(node.op))
        if fn is None:
            raise _Unsupported("binop")
        if flat:
            return _call("_arith", _load(fn), left, right)
        t = self.temp()
        walrus = ast.NamedExpr(target=_store(t), value=ast.BinOp(left=left, op=node.op, right=right))
        small = ast.Compare(left=ast.UnaryOp(op=ast.USub(), operand=_load("_BIG")), ops=[ast.Lt(), ast.Lt()],
                            comparators=[_load(t), _load("_BIG")])
        test = ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=_call("type", walrus), ops=[ast.IsNot()], comparators=[_load("int")]), small])
        return ast.IfExp(test=test, body=_load(t), orelse=_call("_big", _load(t)))

    def g_Compare(self, node: ast.Compare, bound: dict[str, str], flat: bool) -> ast.expr:
        ops = [_CMP.get(type(op)) for op in node.ops]
        if any(op is None for op in ops):
            raise _Unsupported("comparison")
        left = self.gen(node.left, bound, flat)
        rights = [self.gen(c, bound, flat) for c in node.comparators]
        if len(ops) > 1:
            rest: list[ast.expr] = []
            for (fn, _), b in zip(ops, rights):
                rest += [_load(fn), ast.Lambda(args=_args(), body=b)]
            return _call("_chain", _budget(), left, *rest)
        (fn, pyop), right, const = ops[0], rights[0], node.comparators[0]
        hashed = fn in ("_contains", "_not_contains")
        if fn in ("_is", "_is_not"):  # no charge, as the closures
            return ast.Compare(left=left, ops=[pyop()], comparators=[right])
        if isinstance(const, ast.Constant) and type(const.value) in (int, bool) and not hashed:
            # ``x < 3``: an int compared inline; anything else as the closures
            if flat:
                return _call("_cmp", _budget(), _load(fn), _const(False), left, right)
            t = self.temp()
            slow = _call("_cmp", _budget(), _load(fn), _const(False), _load(t), right)
            return ast.IfExp(test=_is_type(ast.NamedExpr(target=_store(t), value=left), "int"),
                             body=ast.Compare(left=_load(t), ops=[pyop()], comparators=[right]), orelse=slow)
        if isinstance(const, ast.Constant) and isinstance(const.value, str) and fn in ("_eq", "_ne") \
                and len(const.value) <= x._SHORT:
            return ast.Compare(left=left, ops=[pyop()], comparators=[right])  # not charged, as the closures
        return _call("_cmp", _budget(), _load(fn), _const(hashed), left, right)

    def g_IfExp(self, node: ast.IfExp, bound: dict[str, str], flat: bool) -> ast.expr:
        # ``if`` takes the truth of its condition: a fact refuses it.
        return ast.IfExp(test=self.gen(node.test, bound, flat), body=self.gen(node.body, bound, flat),
                         orelse=self.gen(node.orelse, bound, flat))

    def g_Call(self, node: ast.Call, bound: dict[str, str], flat: bool) -> ast.expr:
        if node.keywords or not isinstance(node.func, ast.Name):
            raise _Unsupported("call")
        fname = node.func.id
        builtin = fname in x.FUNCTIONS
        if fname in ("all", "any") and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            items = self.comprehension(node.args[0], bound, flat, lazy=True)
            return _call("_" + fname, _call("_spend", _budget(), _const(1)), items)
        args = [self.gen(a, bound, flat) for a in node.args]
        if builtin:
            fn = _load("_fn_" + fname)
            return _call("_call1" if len(args) == 1 else "_calln", _budget(), fn, *args)
        return _call("_callenv", _budget(), self.g_Name(node.func, bound, flat), *args)

    def elts(self, elts: list[ast.expr], bound: dict[str, str], flat: bool) -> list[ast.expr]:
        if any(isinstance(e, ast.Starred) for e in elts):
            raise _Unsupported("starred")
        return [self.gen(e, bound, flat) for e in elts]

    def g_List(self, node: ast.List, bound: dict[str, str], flat: bool) -> ast.expr:
        return ast.List(elts=self.elts(node.elts, bound, flat), ctx=ast.Load())

    def g_Tuple(self, node: ast.Tuple, bound: dict[str, str], flat: bool) -> ast.expr:
        return ast.Tuple(elts=self.elts(node.elts, bound, flat), ctx=ast.Load())

    def g_Set(self, node: ast.Set, bound: dict[str, str], flat: bool) -> ast.expr:
        return _call("_frozenset", ast.Tuple(elts=self.elts(node.elts, bound, flat), ctx=ast.Load()))

    def g_Dict(self, node: ast.Dict, bound: dict[str, str], flat: bool) -> ast.expr:
        if any(k is None for k in node.keys):
            raise _Unsupported("unpacking")
        keys = [self.gen(k, bound, flat) for k in node.keys]  # type: ignore[arg-type]
        return ast.Dict(keys=keys, values=[self.gen(v, bound, flat) for v in node.values])

    def comprehension(self, node: Any, bound: dict[str, str], flat: bool, lazy: bool = False) -> ast.expr:
        if len(node.generators) != 1:
            raise _Unsupported("generators")
        gen = node.generators[0]
        if not isinstance(gen.target, ast.Name) or gen.is_async:
            raise _Unsupported("target")
        values = _call("_items", _budget(), self.gen(gen.iter, bound, True))
        var = f"_v{self.vars}"
        self.vars += 1
        inner = {**bound, gen.target.id: var}
        ifs = [self.gen(c, inner, flat) for c in gen.ifs]
        loop = [ast.comprehension(target=_store(var), iter=values, ifs=ifs, is_async=0)]
        if isinstance(node, ast.DictComp):
            return ast.DictComp(key=self.gen(node.key, inner, flat), value=self.gen(node.value, inner, flat),
                                generators=loop)
        elt = self.gen(node.elt, inner, flat)
        if lazy:
            return ast.GeneratorExp(elt=elt, generators=loop)
        listed = ast.ListComp(elt=elt, generators=loop)
        return _call("_frozenset", listed) if isinstance(node, ast.SetComp) else listed

    def g_ListComp(self, node: ast.ListComp, bound: dict[str, str], flat: bool) -> ast.expr:
        return self.comprehension(node, bound, flat)

    g_GeneratorExp = g_SetComp = g_DictComp = g_ListComp


def generate(tree: ast.Expression, params: tuple[str, ...] = ()) -> Callable[..., Any] | None:
    """The function that evaluates a validated expression tree, or None when it is not translated.

    ``params``: names the expression reads as arguments, not from the environment (a rule
    function's body): the function then takes ``(env, budget, *values)``."""
    try:
        bound = {name: f"_a{i}" for i, name in enumerate(params)}
        body = _Gen().gen(tree.body, bound, False)
        fn = ast.FunctionDef(name="_rule", args=_args("env", "budget", *bound.values()), body=[ast.Return(value=body)],
                             decorator_list=[], returns=None, type_comment=None)
        module = ast.fix_missing_locations(ast.Module(body=[fn], type_ignores=[]))
        with warnings.catch_warnings():  # Python's hints ("is" with a literal...) are not for the rule file's reader
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(module, "<rule expression>", "exec")
    except (_Unsupported, RecursionError, SyntaxError, ValueError, MemoryError):
        return None
    func_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    used = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and n.id in _HELPERS}
    return types.FunctionType(func_code, {"__builtins__": {}, **{n: _HELPERS[n] for n in used}}, "_rule", None if params else (None,))
