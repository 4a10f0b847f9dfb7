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
the budget as much as the closures do, and stops with a LimitError where they
would (in a loop over an unsized iterable, at the latest within that item): the
common charges inline, into a local (see :class:`_Gen`), the others with helpers.

>>> from ruleslawyer.spec.expr import Namespace
>>> run = generate(ast.parse("move.n > 1 and actor == 'Ann'", mode="eval"))
>>> run({"move": Namespace(n=2), "actor": "Ann"})
True
"""

from __future__ import annotations

import ast
import math
import operator
import types
import warnings
from typing import Any, Callable, Iterable, Iterator, NoReturn, Sequence

from . import expr as x
from .facts import Lin, is_formula

__all__ = ["generate", "generate_checks", "generate_each", "generate_program", "Bail"]


class Bail(Exception):
    """The generated code met a case only the closures handle exactly."""


class _Unsupported(Exception):
    """A tree this generator does not translate (the closures serve it)."""


# What leaves a tree untranslated (the closures serve it): a form the generator does not know,
# or a tree Python's compiler refuses or cannot take (too deep, too big).
_UNTRANSLATED = (_Unsupported, RecursionError, SyntaxError, ValueError, MemoryError)


_CONSTANTS = {"true": True, "false": False, "none": None}
_CMP = {ast.Eq: ("_eq", ast.Eq), ast.NotEq: ("_ne", ast.NotEq), ast.Lt: ("_lt", ast.Lt), ast.LtE: ("_le", ast.LtE),
        ast.Gt: ("_gt", ast.Gt), ast.GtE: ("_ge", ast.GtE), ast.In: ("_contains", None),
        ast.NotIn: ("_not_contains", None), ast.Is: ("_is", ast.Is), ast.IsNot: ("_is_not", ast.IsNot)}


def _plain(value: Any) -> Any:
    """The value of an ``and``/``or``, unless it is a fact (the closures wrap or refuse it)."""
    if is_formula(value) or isinstance(value, Lin):
        raise Bail
    return value


def _limit() -> NoReturn:
    raise x.LimitError(f"the expression does too much work (more than {x.MAX_STEPS:,} steps)")


# The budget of a generated function called without one: nothing it charges counts.
_UNBUDGETED: list[Any] = [math.inf, 0]


def _spend(budget: list[int], n: int) -> None:
    budget[0] -= n
    if budget[0] < 0:
        _limit()


# The helpers below that charge take ``pending``, the steps the generated code has charged
# inline and not yet taken from ``budget[0]`` (see ``_Gen.pending``), and take them first:
# a helper's own check, and anything it calls, then sees the budget exactly as the closures do.

def _each(budget: list[int], values: Iterable[Any], pending: int) -> Iterator[Any]:
    """The items of a comprehension over an unsized iterable: one step each."""
    _spend(budget, pending)
    return _per_item(budget, values)


def _per_item(budget: list[int], values: Iterable[Any]) -> Iterator[Any]:
    for item in values:
        _spend(budget, 1)
        yield item


def _cmp(budget: list[int], fn: Callable[[Any, Any], Any], hashed: bool, a: Any, b: Any, pending: int) -> Any:
    """``expr._compared``: ``fn(a, b)`` charged for the items it may walk, with the steps
    charged inline before it."""
    n = pending + x._comparing(hashed, a, b)
    if n:
        _spend(budget, n)
    return fn(a, b)


def _link(budget: list[int], fn: Callable[[Any, Any], Any], a: Any, b: Any, pending: int) -> bool:
    """One comparison of a chain ``a op1 b op2 c`` (the generated code joins them with ``and``)."""
    _spend(budget, pending + x._size(a) + x._size(b))
    result = fn(a, b)
    if is_formula(result):
        raise Bail
    return bool(result)


def _call1(budget: list[int], fn: Callable[[Any], Any], value: Any, pending: int) -> Any:
    """A built-in with one argument: a step, and one per item it may walk."""
    kind = type(value)
    _spend(budget, pending + 1 + (0 if kind in x._UNSIZED else len(value) if kind in x._SIZED else x._size(value)))
    return fn(value)


def _calln(budget: list[int], fn: Callable[..., Any], values: tuple[Any, ...], pending: int) -> Any:
    _spend(budget, pending + 1 + _sizes(values))
    return fn(*values)


def _sizes(values: tuple[Any, ...]) -> int:
    """``sum(map(expr._size, values))``, the usual kinds without a call each."""
    n = 0
    for value in values:
        kind = type(value)
        if kind not in x._UNSIZED:
            n += len(value) if kind in x._SIZED else x._size(value)
    return n


def _callenv(budget: list[int], fn: Any, values: tuple[Any, ...], pending: int) -> Any:
    """A function the environment supplies (the closures check it before the arguments)."""
    if not callable(fn):
        raise Bail
    budget[0] -= pending + 1 + _sizes(values)
    if budget[0] < 0:
        _limit()
    return fn(*values)


def _charged(budget: list[int], seq: Any, pending: int) -> Any:
    _spend(budget, pending + x._size(seq))
    return seq


def _big(value: int, budget: list[int], pending: int) -> int:
    if pending:
        _spend(budget, pending)
    return x._big(value)


def _add(a: Any, b: Any, budget: list[int], pending: int) -> Any:
    """``a + b`` but of two ints (the generated code adds those)."""
    if pending:
        _spend(budget, pending)
    if isinstance(a, x._SEQUENCES):
        return x._concat(a, b)
    r = a + b
    return r if type(r) is not int or -x._BIG < r < x._BIG else x._big(r)


def _mul(a: Any, b: Any, budget: list[int], pending: int) -> Any:
    if pending:
        _spend(budget, pending)
    if isinstance(a, x._SEQUENCES) or isinstance(b, x._SEQUENCES):
        raise x.LimitError("repetition of strings or lists is not allowed")
    r = a * b
    return r if type(r) is not int or -x._BIG < r < x._BIG else x._big(r)


def _mod(a: Any, b: Any) -> Any:
    if isinstance(a, str):
        raise x.LimitError("'%' formatting of strings is not allowed")
    return a % b


_HELPERS: dict[str, Any] = {
    "type": type, "list": list, "int": int, "bool": bool, "Namespace": x.Namespace, "_huge": x._BIG,
    "_len": len, "_sized": x._SIZED, "_unsized": x._UNSIZED, "_hashed": x._HASHED,
    "_plain": _plain, "_limit": _limit, "_each": _each, "_cmp": _cmp, "_link": _link,
    "_call1": _call1, "_calln": _calln, "_callenv": _callenv, "_charged": _charged, "_big": _big,
    "_attr": x._attr, "_frozenset": frozenset, "_add": _add, "_mul": _mul, "_mod": _mod,
    "_eq": operator.eq, "_ne": operator.ne, "_lt": operator.lt, "_le": operator.le, "_gt": operator.gt,
    "_ge": operator.ge, "_is": operator.is_, "_is_not": operator.is_not, "_contains": x._contains,
    "_not_contains": x._not_contains, "_Bail": Bail, "_max": x.MAX_STEPS, "_once": (None,),
    **{"_fn_" + name: fn for name, fn in x.FUNCTIONS.items()},
}

# Built-ins that neither read nor charge the budget: with one sized argument, charged inline.
_PURE1 = frozenset({"len", "sum", "min", "max", "any", "all", "set", "list", "sorted", "count", "abs"})


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _walrus(name: str, value: ast.expr) -> ast.NamedExpr:
    return ast.NamedExpr(target=_store(name), value=value)


def _args(*names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def _const(value: Any) -> ast.Constant:
    return ast.Constant(value=value)


def _call(fn: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=_load(fn), args=list(args), keywords=[])


def _compare(left: ast.expr, *rest: tuple[ast.cmpop, ast.expr]) -> ast.Compare:
    return ast.Compare(left=left, ops=[op for op, _ in rest], comparators=[c for _, c in rest])


def _type(value: ast.expr) -> ast.Call:
    return _call("type", value)


def _and(*values: ast.expr) -> ast.BoolOp:
    return ast.BoolOp(op=ast.And(), values=list(values))


def _or(*values: ast.expr) -> ast.BoolOp:
    return ast.BoolOp(op=ast.Or(), values=list(values))


def _if(test: ast.expr, body: ast.expr, orelse: ast.expr) -> ast.IfExp:
    return ast.IfExp(test=test, body=body, orelse=orelse)


class _Gen:
    """Translates one validated tree; ``bound`` maps a comprehension's variable to its local.

    The generated code charges the common cases inline, into the local ``_n``, checked
    against ``budget[0]`` at each charge; every helper that charges or calls out first takes
    ``_n`` from the budget (:meth:`pending`), and the function takes what is left before
    it returns.  A comprehension's iterable is read before the loop, into a local, so that
    no code with ``:=`` stands in it (Python refuses that)."""

    def __init__(self) -> None:
        self.temps = 0
        self.vars = 0
        # Whether some inline charge has been generated: trees are generated in the order
        # they run (what runs before a node is generated before it), so until then no ``_n``.
        self.charges = False

    def charge(self, steps: ast.expr) -> ast.expr:
        """``(_n := _n + steps) > budget[0] and _limit()``: False, or a LimitError as soon as the
        steps charged inline (``_n``, not yet taken from the budget) exceed the steps left."""
        self.charges = True
        added = _walrus("_n", ast.BinOp(left=_load("_n"), op=ast.Add(), right=steps))
        left = ast.Subscript(value=_load("budget"), slice=_const(0), ctx=ast.Load())
        return _and(_compare(added, (ast.Gt(), left)), _call("_limit"))

    def charged(self, steps: ast.expr, value: ast.expr) -> ast.expr:
        """``value``, ``steps`` charged before it."""
        return _or(self.charge(steps), value)

    def pending(self) -> ast.expr:
        """``_n - (_n := 0)``: the steps charged inline so far, handed to a helper that takes
        them from the budget before it charges or calls anything (its last argument: read after
        the others, which may charge)."""
        if not self.charges:
            return _const(0)
        return ast.BinOp(left=_load("_n"), op=ast.Sub(), right=_walrus("_n", _const(0)))

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def gen(self, node: ast.AST, bound: dict[str, str]) -> ast.expr:
        method = getattr(self, "g_" + type(node).__name__, None)
        if method is None:
            raise _Unsupported(type(node).__name__)
        return method(node, bound)

    def g_Constant(self, node: ast.Constant, bound: dict[str, str]) -> ast.expr:
        return _const(node.value)

    def g_Name(self, node: ast.Name, bound: dict[str, str]) -> ast.expr:
        if node.id in _CONSTANTS:
            return _const(_CONSTANTS[node.id])
        if node.id in bound:
            return _load(bound[node.id])
        return self.env(node.id)

    def env(self, name: str) -> ast.expr:
        """``env[name]``: a missing name raises KeyError, and the closures say why."""
        return ast.Subscript(value=_load("env"), slice=_const(name), ctx=ast.Load())

    def g_Attribute(self, node: ast.Attribute, bound: dict[str, str]) -> ast.expr:
        base = self.gen(node.value, bound)
        t = self.temp()
        data = ast.Attribute(value=_load(t), attr="_data", ctx=ast.Load())
        # A Namespace's field read from its dict (a missing one raises KeyError: the closures say why).
        return _if(_compare(_type(_walrus(t, base)), (ast.Is(), _load("Namespace"))),
                   ast.Subscript(value=data, slice=_const(node.attr), ctx=ast.Load()),
                   _call("_attr", _load(t), _const(node.attr)))

    def g_Subscript(self, node: ast.Subscript, bound: dict[str, str]) -> ast.expr:
        base = self.gen(node.value, bound)
        if isinstance(node.slice, ast.Slice):
            if node.slice.step is not None:
                raise _Unsupported("step")
            copied = _call("list", _call("_charged", _load("budget"), base, self.pending()))
            lo = self.gen(node.slice.lower, bound) if node.slice.lower else _const(None)
            hi = self.gen(node.slice.upper, bound) if node.slice.upper else _const(None)
            return ast.Subscript(value=copied, slice=ast.Slice(lower=lo, upper=hi), ctx=ast.Load())
        return ast.Subscript(value=base, slice=self.gen(node.slice, bound), ctx=ast.Load())

    def g_BoolOp(self, node: ast.BoolOp, bound: dict[str, str]) -> ast.expr:
        # Python's and/or take the truth of every operand but the last: a fact refuses it.
        op = ast.BoolOp(op=node.op, values=[self.gen(v, bound) for v in node.values])
        t = self.temp()
        return _if(_compare(_type(_walrus(t, op)), (ast.Is(), _load("bool"))), _load(t), _call("_plain", _load(t)))

    def g_UnaryOp(self, node: ast.UnaryOp, bound: dict[str, str]) -> ast.expr:
        operand = self.gen(node.operand, bound)
        if isinstance(node.op, ast.Not):
            return ast.UnaryOp(op=ast.Not(), operand=operand)  # a fact refuses ``not``
        if isinstance(node.op, ast.USub):
            return ast.UnaryOp(op=ast.USub(), operand=operand)
        if isinstance(node.op, ast.UAdd):
            return operand  # as the closures: the value itself
        raise _Unsupported("unary")

    def g_BinOp(self, node: ast.BinOp, bound: dict[str, str]) -> ast.expr:
        left, right = self.gen(node.left, bound), self.gen(node.right, bound)
        if isinstance(node.op, ast.Add):  # two ints added inline (both read first: see g_Compare)
            a, b, t = self.temp(), self.temp(), self.temp()
            test = _compare(_type(_walrus(a, left)), (ast.Is(), _type(_walrus(b, right))), (ast.Is(), _load("int")))
            return _if(test, self.small(t, ast.BinOp(left=_load(a), op=ast.Add(), right=_load(b))),
                       _call("_add", _load(a), _load(b), _load("budget"), self.pending()))
        if isinstance(node.op, ast.Mult):
            return _call("_mul", left, right, _load("budget"), self.pending())
        if isinstance(node.op, ast.Mod):
            return _call("_mod", left, right)
        if not isinstance(node.op, (ast.Sub, ast.FloorDiv)):
            raise _Unsupported("binop")
        t = self.temp()
        walrus = _walrus(t, ast.BinOp(left=left, op=node.op, right=right))
        return _if(_compare(_type(walrus), (ast.IsNot(), _load("int"))), _load(t), self.small(t))

    def small(self, t: str, number: ast.expr | None = None) -> ast.expr:
        """The int ``number`` (None: already in ``t``) into ``t``, charged by its words when too big to be free."""
        value = _load(t) if number is None else _walrus(t, number)
        small = _compare(ast.UnaryOp(op=ast.USub(), operand=_load("_huge")), (ast.Lt(), value),
                         (ast.Lt(), _load("_huge")))
        return _if(small, _load(t), _call("_big", _load(t), _load("budget"), self.pending()))

    def g_Compare(self, node: ast.Compare, bound: dict[str, str]) -> ast.expr:
        ops = [_CMP.get(type(op)) for op in node.ops]
        if any(op is None for op in ops):
            raise _Unsupported("comparison")
        left = self.gen(node.left, bound)
        rights = [self.gen(c, bound) for c in node.comparators]
        if len(ops) > 1:
            return self.chain([fn for fn, _ in ops], [left, *rights])
        (fn, pyop), right, const = ops[0], rights[0], node.comparators[0]
        hashed = fn in ("_contains", "_not_contains")
        if fn in ("_is", "_is_not"):  # no charge, as the closures
            return _compare(left, (pyop(), right))
        if isinstance(const, ast.Constant) and isinstance(const.value, str) and fn in ("_eq", "_ne") \
                and len(const.value) <= x._SHORT:
            return _compare(left, (pyop(), right))  # not charged, as the closures
        a, b = self.temp(), self.temp()

        def slow(b_value: ast.expr) -> ast.expr:
            return _call("_cmp", _load("budget"), _load(fn), _const(hashed), _load(a), b_value, self.pending())
        if isinstance(const, ast.Constant) and type(const.value) in (int, bool) and not hashed:
            # ``x < 3``: an int compared inline; anything else as the closures
            return _if(_compare(_type(_walrus(a, left)), (ast.Is(), _load("int"))),
                       _compare(_load(a), (pyop(), right)), slow(_const(const.value)))
        kind = self.temp()
        read = _walrus(kind, _type(_walrus(a, left)))  # the left side read first, then the right
        if hashed:
            # ``item in container`` with a set or mapping: only the item is charged (a text, a tuple: its length).
            # Both sides are read whatever the types (a chain compares its first two unconditionally).
            test = _compare(read, (ast.IsNot(), _type(_walrus(b, right))), (ast.In(), _load("_hashed")))
            steps: ast.expr = _call("_len", _load(a))
        else:
            test = _compare(read, (ast.Is(), _type(_walrus(b, right))))  # the same type: both sized, or both not
            steps = ast.BinOp(left=_call("_len", _load(a)), op=ast.Add(), right=_call("_len", _load(b)))

        def value() -> ast.expr:
            pyin = (ast.In() if fn == "_contains" else ast.NotIn()) if hashed else pyop()  # type: ignore[misc]
            return _compare(_load(a), (pyin, _load(b)))
        free = _if(_compare(_load(kind), (ast.In(), _load("_unsized"))), value(), slow(_load(b)))
        return _if(test, _if(_compare(_load(kind), (ast.In(), _load("_sized"))), self.charged(steps, value()), free),
                   slow(_load(b)))

    def chain(self, fns: list[str], operands: list[ast.expr]) -> ast.expr:
        """``a op1 b op2 c``: ``_link(a, b) and _link(b, c)``, each operand read once, when reached."""
        names = [self.temp() for _ in operands]
        links: list[ast.expr] = []
        for i, fn in enumerate(fns):
            a = _walrus(names[i], operands[i]) if i == 0 else _load(names[i])
            links.append(_call("_link", _load("budget"), _load(fn), a, _walrus(names[i + 1], operands[i + 1]),
                               self.pending()))
        return _and(*links)

    def g_IfExp(self, node: ast.IfExp, bound: dict[str, str]) -> ast.expr:
        # ``if`` takes the truth of its condition: a fact refuses it.
        return _if(self.gen(node.test, bound), self.gen(node.body, bound), self.gen(node.orelse, bound))

    def g_Call(self, node: ast.Call, bound: dict[str, str]) -> ast.expr:
        if node.keywords or not isinstance(node.func, ast.Name):
            raise _Unsupported("call")
        fname = node.func.id
        if fname in ("all", "any") and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            # a step, then the items (Python's all/any stop at the first that decides, as the closures)
            return _call("_fn_" + fname, _or(self.charge(_const(1)), self.comprehension(node.args[0], bound, lazy=True)))
        args = [self.gen(a, bound) for a in node.args]
        if fname not in x.FUNCTIONS:
            values = ast.Tuple(elts=args, ctx=ast.Load())
            return _call("_callenv", _load("budget"), self.g_Name(node.func, bound), values, self.pending())
        fn = _load("_fn_" + fname)
        if not args and fname in _PURE1:  # ``set()``: a step
            return self.charged(_const(1), _call("_fn_" + fname))
        if len(args) != 1:
            return _call("_calln", _load("budget"), fn, ast.Tuple(elts=args, ctx=ast.Load()), self.pending())
        t = self.temp()
        slow = _call("_call1", _load("budget"), fn, _load(t), self.pending())
        if fname not in _PURE1:
            return _call("_call1", _load("budget"), fn, args[0], self.pending())
        steps = ast.BinOp(left=_const(1), op=ast.Add(), right=_call("_len", _load(t)))
        return _if(_compare(_type(_walrus(t, args[0])), (ast.In(), _load("_sized"))),
                   self.charged(steps, _call("_fn_" + fname, _load(t))), slow)

    def elts(self, elts: list[ast.expr], bound: dict[str, str]) -> list[ast.expr]:
        if any(isinstance(e, ast.Starred) for e in elts):
            raise _Unsupported("starred")
        return [self.gen(e, bound) for e in elts]

    def g_List(self, node: ast.List, bound: dict[str, str]) -> ast.expr:
        return ast.List(elts=self.elts(node.elts, bound), ctx=ast.Load())

    def g_Tuple(self, node: ast.Tuple, bound: dict[str, str]) -> ast.expr:
        return ast.Tuple(elts=self.elts(node.elts, bound), ctx=ast.Load())

    def g_Set(self, node: ast.Set, bound: dict[str, str]) -> ast.expr:
        return _call("_frozenset", ast.Tuple(elts=self.elts(node.elts, bound), ctx=ast.Load()))

    def g_Dict(self, node: ast.Dict, bound: dict[str, str]) -> ast.expr:
        if any(k is None for k in node.keys):
            raise _Unsupported("unpacking")
        keys = [self.gen(k, bound) for k in node.keys]  # type: ignore[arg-type]
        return ast.Dict(keys=keys, values=[self.gen(v, bound) for v in node.values])

    def comprehension(self, node: Any, bound: dict[str, str], lazy: bool = False) -> ast.expr:
        """``setup or [... for _v in _t]``, ``setup`` reading the iterable into ``_t`` and charging
        it as the closures do: a sized one, a step per item up front (inline); any other, a step
        per item as it comes (``_t`` then the helper's iterator).  ``setup`` is False or raises."""
        if len(node.generators) != 1:
            raise _Unsupported("generators")
        gen = node.generators[0]
        if not isinstance(gen.target, ast.Name) or gen.is_async:
            raise _Unsupported("target")
        items = self.temp()
        read = _walrus(items, self.gen(gen.iter, bound))
        each = _walrus(items, _call("_each", _load("budget"), _load(items), self.pending()))
        setup = _if(_compare(_type(read), (ast.In(), _load("_sized"))),
                    self.charge(_call("_len", _load(items))), _compare(each, (ast.Is(), _const(None))))
        var = f"_v{self.vars}"
        self.vars += 1
        inner = {**bound, gen.target.id: var}
        ifs = [self.gen(c, inner) for c in gen.ifs]
        loop = [ast.comprehension(target=_store(var), iter=_load(items), ifs=ifs, is_async=0)]
        made: ast.expr
        if isinstance(node, ast.DictComp):
            made = ast.DictComp(key=self.gen(node.key, inner), value=self.gen(node.value, inner), generators=loop)
        elif lazy:
            made = ast.GeneratorExp(elt=self.gen(node.elt, inner), generators=loop)
        else:
            made = ast.ListComp(elt=self.gen(node.elt, inner), generators=loop)
        made = _or(setup, made)
        return _call("_frozenset", made) if isinstance(node, ast.SetComp) else made

    def g_ListComp(self, node: ast.ListComp, bound: dict[str, str]) -> ast.expr:
        return self.comprehension(node, bound)

    g_GeneratorExp = g_SetComp = g_DictComp = g_ListComp


def generate(tree: ast.Expression, params: tuple[str, ...] = ()) -> Callable[..., Any] | None:
    """The function that evaluates a validated expression tree, or None when it is not translated.

    ``params``: names the expression reads as arguments, not from the environment (a rule
    function's body): the function then takes ``(env, budget, *values)``."""
    try:
        bound = {name: f"_a{i}" for i, name in enumerate(params)}
        gen = _Gen()
        value = gen.gen(tree.body, bound)
        body: list[ast.stmt] = [ast.Return(value=value)]
        if gen.charges:  # _n = 0; _r = value; budget[0] -= _n; if budget[0] < 0: _limit(); return _r
            body = [*_charged_run(value, "_r"), ast.Return(value=_load("_r"))]
        return _function(body, bound.values(), None if params else (_UNBUDGETED,))
    except _UNTRANSLATED:
        return None


def from_code(code: Any, params: tuple[str, ...] = (), checks: bool = False) -> Callable[..., Any] | None:
    """The function :func:`generate` made (``checks``: :func:`generate_checks`), from its code
    object (read back from the disk cache, :mod:`spec.diskcache`, :mod:`spec.fusedcache`); None
    when ``code`` is not one (then the caller generates it again)."""
    if not (isinstance(code, types.CodeType) and code.co_name == "_rule" and code.co_argcount == 2 + len(params)
            and code.co_varnames[:2] == ("env", "budget")):
        return None
    used = _globals_read(code) & _HELPERS.keys()
    return types.FunctionType(code, {"__builtins__": {}, **{n: _HELPERS[n] for n in used}}, "_rule",
                              None if params or checks else (_UNBUDGETED,))


def generate_checks(groups: Sequence[Sequence[tuple[ast.Expression | None, ast.Expression]]],
                    answer: str) -> Callable[[Any, list[Any]], Any] | None:
    """One function ``(env, budget)`` that checks groups of requirements (a condition or None,
    an expression), each in order, each of the two an outermost run (a budget of its own).
    A requirement holds when its condition is False or its expression True; a value other
    than True or False raises :class:`Bail` (the caller's exact way says what it means).
    ``answer`` (one group): "index", the index of the first that does not hold, or -1;
    "truth", whether all hold; or (any groups) "open", the indices of the groups whose
    requirements all hold.  None when a tree is not translated.

    >>> first = generate_checks([[(None, ast.parse("n > 1", mode="eval")),
    ...                           (ast.parse("n > 2", mode="eval"), ast.parse("n > 5", mode="eval"))]], "index")
    >>> first({"n": 2}, [0, 1]), first({"n": 3}, [0, 1]), first({"n": 0}, [0, 1])
    (-1, 1, 0)
    >>> generate_checks([[(None, ast.parse("n > 1", mode="eval"))], []], "open")({"n": 0}, [0, 1])
    [1]
    """
    try:
        gen = _Gen()
        body: list[ast.stmt] = []
        if answer == "open":
            body.append(ast.Assign(targets=[_store("_o")], value=ast.List(elts=[], ctx=ast.Load())))
        for k, group in enumerate(groups):
            block: list[ast.stmt] = []
            for i, (when, tree) in enumerate(group):
                fails = ast.Break() if answer == "open" else ast.Return(value=_const(i if answer == "index" else False))
                block.extend(_requirement(gen, when, tree, fails))
            if answer != "open":
                body.extend(block)
                continue
            add = ast.Call(func=ast.Attribute(value=_load("_o"), attr="append", ctx=ast.Load()), args=[_const(k)],
                           keywords=[])
            # a loop run once, so that a requirement that fails can leave the group (``break``)
            body.append(ast.For(target=_store("_g"), iter=_load("_once"), body=[*block, ast.Expr(value=add)],
                                orelse=[], type_comment=None))
        body.append(ast.Return(value=_load("_o") if answer == "open" else _const(-1 if answer == "index" else True)))
        return _function(body, (), None)
    except _UNTRANSLATED:
        return None


def generate_each(tree: ast.Expression, name: str,
                  answer: str) -> Callable[[Any, list[Any], Any], list[Any]] | None:
    """One function ``(env, budget, items)`` that evaluates the expression once per item (read
    as ``name``), each an outermost run (a budget of its own).  ``answer`` "true": the items
    for which it is True; "int": the values, each an int.  Any other value raises
    :class:`Bail` (the caller's exact way says what it means).  None when not translated.

    >>> keep = generate_each(ast.parse("t > 1", mode="eval"), "t", "true")
    >>> twice = generate_each(ast.parse("t * k", mode="eval"), "t", "int")
    >>> keep({}, [0, 1], [3, 1, 2]), twice({"k": 2}, [0, 1], [1, 2])
    ([3, 2], [2, 4])
    """
    try:
        gen = _Gen()
        bound = {name: "_a0"}
        if answer == "true":  # the item kept when the value is True, the next one when False
            stmts = [*_checked(gen, tree, "_r", [ast.Continue()], bound), ast.Expr(value=_call("_keep", _load("_a0")))]
        else:
            test = _compare(_type(_load("_r")), (ast.IsNot(), _load("int")))
            stmts = [*_checked_value(gen, tree, "_r", bound), ast.If(test=test, body=[_raise_bail()], orelse=[]),
                     ast.Expr(value=_call("_keep", _load("_r")))]
        body = [ast.Assign(targets=[_store("_o")], value=ast.List(elts=[], ctx=ast.Load())),
                ast.Assign(targets=[_store("_keep")], value=ast.Attribute(value=_load("_o"), attr="append",
                                                                           ctx=ast.Load())),
                ast.For(target=_store("_a0"), iter=_load("items"), body=stmts, orelse=[], type_comment=None),
                ast.Return(value=_load("_o"))]
        return _function(body, ("items",), None)
    except _UNTRANSLATED:
        return None


def generate_program(steps: Sequence[tuple[Any, ...]], arity: int) -> Callable[..., bool] | None:
    """One function ``(env, budget, *context)`` (``arity`` arguments of context) that runs
    steps in order: ``("do", fn, values)`` takes each value (an expression tree, an outermost
    run with a budget of its own, or ``(constant,)``), then calls ``fn(*context, env,
    *values)``; ``("if", tree, then, otherwise)`` runs the steps ``then`` when the tree gives
    True, ``otherwise`` when False, and raises :class:`Bail` on any other value; it returns
    True at the end.  None when a tree is not translated.

    >>> seen = []
    >>> run = generate_program([("do", lambda who, env, v: seen.append((who, v)), [ast.parse("n + 1", mode="eval")]),
    ...                         ("if", ast.parse("n > 1", mode="eval"), [("do", lambda who, env: seen.append(who), [])],
    ...                          [("do", lambda who, env, v: seen.append(v), [(None,)])])], 1)
    >>> run({"n": 2}, [0, 1], "Ann"), run({"n": 0}, [0, 1], "Bob"), seen
    (True, True, [('Ann', 3), 'Ann', ('Bob', 1), None])
    """
    try:
        gen = _Gen()
        defaults: list[Any] = []  # the functions and constants, read as arguments' defaults (locals)
        context = [_load(f"_x{i}") for i in range(arity)]

        def given(value: Any) -> ast.expr:
            defaults.append(value)
            return _load(f"_d{len(defaults) - 1}")

        def block(program: Sequence[tuple[Any, ...]]) -> list[ast.stmt]:
            out: list[ast.stmt] = []
            for step in program:
                if step[0] == "do":
                    values: list[ast.expr] = []
                    for value in step[2]:
                        if isinstance(value, tuple):
                            values.append(given(value[0]))
                            continue
                        target = gen.temp()
                        out.extend(_checked_value(gen, value, target))
                        values.append(_load(target))
                    out.append(ast.Expr(value=ast.Call(func=given(step[1]), args=[*context, _load("env"), *values],
                                                       keywords=[])))
                    continue
                _if_, tree, then, otherwise = step
                other = [ast.If(test=_compare(_load("_w"), (ast.IsNot(), _const(False))), body=[_raise_bail()],
                                orelse=[]), *block(otherwise)]
                out.extend(_checked_value(gen, tree, "_w"))
                out.append(ast.If(test=_compare(_load("_w"), (ast.Is(), _const(True))),
                                  body=block(then) or [ast.Pass()], orelse=other))
            return out
        body = [*block(steps), ast.Return(value=_const(True))]
        return _function(body, (*(f"_x{i}" for i in range(arity)), *(f"_d{i}" for i in range(len(defaults)))),
                         tuple(defaults))
    except _UNTRANSLATED:
        return None


def _located(root: ast.AST) -> None:
    """Every node of a generated tree given a location (line 1; the trees are made without
    one): ``ast.fix_missing_locations`` in a tight loop (a generated tree has thousands of
    nodes, a rule set hundreds of trees, and a simulation makes its functions as it goes)."""
    stack = [root]
    pop, push, extend, node_type = stack.pop, stack.append, stack.extend, ast.AST
    while stack:
        node = pop()
        if node is None:  # a list of nodes may hold None (a dictionary's ``**`` keys)
            continue
        d = node.__dict__
        if "lineno" not in d and node._attributes:
            d["lineno"] = d["end_lineno"] = 1
            d["col_offset"] = d["end_col_offset"] = 0
        for value in d.values():
            if type(value) is list:
                if value and type(value[0]) is not str:  # nodes (and None), not names (``global``)
                    extend(value)
            elif isinstance(value, node_type):
                push(value)


def _globals_read(code: types.CodeType) -> set[str]:
    """The global names a compiled function (and the comprehensions in it) may read: its
    ``co_names`` (attribute names among them: a superset, which costs nothing)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _globals_read(const)
    return names


def _requirement(gen: _Gen, when: ast.Expression | None, tree: ast.Expression, fails: ast.stmt) -> list[ast.stmt]:
    """Statements that go on when a requirement holds, run ``fails`` when it does not, and
    raise Bail on a value that is not True or False."""
    test = _checked(gen, tree, "_r", [fails])
    if when is None:
        return test
    go = [ast.If(test=_compare(_load("_w"), (ast.IsNot(), _const(True))), body=[_raise_bail()], orelse=[]), *test]
    return [*_checked_value(gen, when, "_w"),
            ast.If(test=_compare(_load("_w"), (ast.IsNot(), _const(False))), body=go, orelse=[])]


def _checked_value(gen: _Gen, tree: ast.Expression, target: str,
                   bound: dict[str, str] | None = None) -> list[ast.stmt]:
    """``target = value`` of an outermost run: a fresh budget, the steps charged inline taken."""
    gen.charges = False
    value = gen.gen(tree.body, bound or {})
    fresh = ast.Assign(targets=[ast.Subscript(value=_load("budget"), slice=_const(0), ctx=ast.Store())],
                       value=_load("_max"))
    if not gen.charges:
        return [fresh, ast.Assign(targets=[_store(target)], value=value)]
    return [fresh, *_charged_run(value, target)]


def _checked(gen: _Gen, tree: ast.Expression, target: str, fails: list[ast.stmt],
             bound: dict[str, str] | None = None) -> list[ast.stmt]:
    """The value into ``target``, then ``fails`` when it is False (not True nor False: Bail)."""
    other = ast.If(test=_compare(_load(target), (ast.Is(), _const(False))), body=fails, orelse=[_raise_bail()])
    return [*_checked_value(gen, tree, target, bound),
            ast.If(test=_compare(_load(target), (ast.IsNot(), _const(True))), body=[other], orelse=[])]


def _raise_bail() -> ast.stmt:
    return ast.Raise(exc=_load("_Bail"), cause=None)


def _charged_run(value: ast.expr, target: str) -> list[ast.stmt]:
    """``_n = 0; target = value; budget[0] -= _n; if budget[0] < 0: _limit()``."""
    left = ast.Subscript(value=_load("budget"), slice=_const(0), ctx=ast.Load())
    return [ast.Assign(targets=[_store("_n")], value=_const(0)),
            ast.Assign(targets=[_store(target)], value=value),
            ast.AugAssign(target=ast.Subscript(value=_load("budget"), slice=_const(0), ctx=ast.Store()),
                          op=ast.Sub(), value=_load("_n")),
            ast.If(test=_compare(left, (ast.Lt(), _const(0))), body=[ast.Expr(value=_call("_limit"))], orelse=[])]


def _function(body: list[ast.stmt], params: Iterable[str], defaults: tuple[Any, ...] | None) -> Callable[..., Any]:
    """``def _rule(env, budget, *params): body`` compiled from its tree, over the helpers it uses."""
    fn = ast.FunctionDef(name="_rule", args=_args("env", "budget", *params), body=body,
                         decorator_list=[], returns=None, type_comment=None)
    module = ast.Module(body=[fn], type_ignores=[])
    _located(module)
    with warnings.catch_warnings():  # Python's hints ("is" with a literal...) are not for the rule file's reader
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(module, "<rule expression>", "exec")
    func_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    used = _globals_read(func_code) & _HELPERS.keys()
    return types.FunctionType(func_code, {"__builtins__": {}, **{n: _HELPERS[n] for n in used}}, "_rule", defaults)
