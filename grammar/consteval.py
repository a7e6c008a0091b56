"""Constant evaluation: the value of a C constant expression, computed as nvcc computes it.

Semantic analysis (array sizes, case labels, template arguments, null pointer
constants) and lowering (global initialisers, conversions of immediates) both ask
here, so the compiler has one answer.  `evaluate(e)` reads a checked AST: every
node has its type and every usual arithmetic conversion is an explicit `Cast`, so
each operator computes in its node's type.  A value of integer type is a Python
int inside the type's range (bool: 0 or 1, a pointer: its unsigned 64-bit
address); a float value is a Python float that float32 represents; a double, any
Python float.

The rules are the ones the program would meet at run time (minicuda.semantics):

- integer results wrap to the type's width and signedness, so INT_MIN / -1 is
  INT_MIN and INT_MIN % -1 is 0; / truncates toward zero and % takes the sign of
  the dividend; an integer division by zero has no value (not a constant);
- a shift count is read as unsigned 32-bit; a count of at least the width gives 0
  (a signed >> fills with the sign); signed >> is arithmetic;
- float arithmetic rounds every operation to float32, double arithmetic is IEEE
  double (x / 0.0 is an infinity or a NaN, as Annex F says);
- integer to float rounds to nearest even, once; float to integer truncates toward
  zero and saturates at the type's range, NaN giving 0 (cvt.rzi, the VM's F2I);
  anything to bool is `!= 0`;
- `&&`, `||` and `?:` evaluate only the operand that decides, as C++ constant
  evaluation does; a `const` integer variable with an initialiser is its value.
"""
from __future__ import annotations

import numpy as np

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.nesting import deep_first

Value = int | float


class NotConstant(Exception):
    """The expression has no compile-time value."""


def evaluate(e: A.Expr) -> Value:
    """The value of constant expression e, of e's type; NotConstant when it has none."""
    return _Evaluator().value(e)


def evaluate_or_none(e: A.Expr) -> Value | None:
    """The value of e, or None when e is not a constant expression."""
    try:
        return evaluate(e)
    except NotConstant:
        return None


def constant_variable(v) -> Value | None:
    """The value of a `const` integer variable initialised by a constant expression, else None."""
    try:
        return _Evaluator().variable(v)
    except NotConstant:
        return None


def wrap(value: int, ty: T.Type) -> int:
    """An integer reduced to integer type ty: two's complement at its width (bool: != 0)."""
    ty = T.unqual(ty)
    if ty == T.BOOL:
        return int(value != 0)
    bits = ty.size * 8
    value &= (1 << bits) - 1
    if ty.signed and value >> (bits - 1):
        value -= 1 << bits
    return value


def float32(x: float) -> float:
    """x rounded to the nearest float32 (overflowing to an infinity)."""
    with np.errstate(all="ignore"):
        return float(np.float32(x))


def convert(value: Value, src: T.Type, dst: T.Type) -> Value:
    """C's conversion of a value of type src to type dst (scalars; pointers as 64-bit addresses)."""
    src, dst = _scalar(src), _scalar(dst)
    if dst == T.BOOL:
        return int(value != 0)
    if T.is_integer(dst):
        return wrap(int(value), dst) if T.is_integer(src) else _float_to_int(value, dst)
    if T.is_integer(src):
        return float(value) if dst == T.DOUBLE else _int_to_float32(value)
    return float32(value) if dst == T.FLOAT else float(value)


def _scalar(ty: T.Type) -> T.Type:
    ty = T.unqual(ty)
    if isinstance(ty, T.Pointer):
        return T.ULONG
    if not T.is_arithmetic(ty):
        raise NotConstant()
    return ty


def _float_to_int(x: float, ty: T.Type) -> int:
    bits = ty.size * 8
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if ty.signed else (0, (1 << bits) - 1)
    if x != x:
        return 0
    if x in (float("inf"), float("-inf")):
        return hi if x > 0 else lo
    return min(max(int(x), lo), hi)


def _int_to_float32(n: int) -> float:
    """n rounded once to float32 (float(n) first would round twice)."""
    magnitude = abs(n)
    extra = magnitude.bit_length() - 24
    if extra <= 0:
        return float(n)
    kept, dropped = divmod(magnitude, 1 << extra)
    half = 1 << (extra - 1)
    if dropped > half or (dropped == half and kept & 1):
        kept += 1
    return float32(float(kept << extra) * (1 if n > 0 else -1))


def _truncating_divide(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _shift(op: str, a: int, count: int, ty: T.Type) -> int:
    bits, count = ty.size * 8, count & 0xFFFFFFFF
    if op == "<<":
        return wrap(a << count, ty) if count < bits else 0
    if count >= bits:
        return -1 if a < 0 else 0
    return a >> count


def _integer_op(op: str, a: int, b: int, ty: T.Type) -> int:
    if op in ("/", "%") and b == 0:
        raise NotConstant()
    if op in ("<<", ">>"):
        return _shift(op, a, b, ty)
    if op == "/":
        return wrap(_truncating_divide(a, b), ty)
    if op == "%":
        return wrap(a - _truncating_divide(a, b) * b, ty)
    result = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[op]
    return wrap(result, ty)


def _float_op(op: str, a: float, b: float, ty: T.Type) -> float:
    kind = np.float32 if ty == T.FLOAT else np.float64
    x, y = kind(a), kind(b)
    with np.errstate(all="ignore"):
        result = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op](x, y)
    return float(result)


CONSTEXPR_DEPTH = 512   # constexpr calls nested deeper than this are not evaluated (clang's limit)

_COMPARE = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


class _Evaluator:
    """One evaluation; remembers the variables being evaluated, so `const int a = a;` ends.

    However deep the expression, the evaluation recurses at most `nesting.SPAN`
    operators deep: the operands SPAN, 2*SPAN, ... levels down that are always
    evaluated are evaluated first, deepest first, and their values kept."""

    def __init__(self, arguments: dict | None = None, depth: int = 0):
        self.visiting: set[int] = set()
        self.known: dict[int, tuple[A.Expr, Value]] = {}   # id -> (node, its value)
        self.walked: dict[int, A.Expr] = {}
        self.arguments = arguments or {}                    # id(ParamDecl) -> value, in a constexpr call
        self.depth = depth

    def value(self, e: A.Expr) -> Value:
        known = self.known.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        if self.walked.get(id(e)) is not e:
            self.evaluate_deep_operands(e)
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None or e.ty is None:
            raise NotConstant()
        return method(e)

    def evaluate_deep_operands(self, e: A.Expr) -> None:
        early, reached = deep_first(e, self._unwalked_operands)
        self.walked.update((id(n), n) for n in reached)
        for node in early:
            self.known[id(node)] = (node, self.value(node))

    def _unwalked_operands(self, e: A.Expr) -> list:
        return [c for c in _evaluated_operands(e) if self.walked.get(id(c)) is not c]

    def variable(self, v) -> Value:
        if not (isinstance(v, A.VarDecl) and v.ty is not None and v.ty.const and T.is_integer(v.ty)
                and v.init is not None and not isinstance(v.init, A.InitList)) or id(v) in self.visiting:
            raise NotConstant()
        self.visiting.add(id(v))
        try:
            return wrap(int(self.value(v.init)), v.ty)
        finally:
            self.visiting.discard(id(v))

    def e_IntLit(self, e: A.IntLit) -> int:
        return wrap(e.value, e.ty)

    e_CharLit = e_IntLit

    def e_BoolLit(self, e: A.BoolLit) -> int:
        return int(e.value)

    def e_FloatLit(self, e: A.FloatLit) -> float:
        return float32(e.value) if T.unqual(e.ty) == T.FLOAT else float(e.value)

    def e_Name(self, e: A.Name) -> Value:
        if id(e.decl) in self.arguments:
            return self.arguments[id(e.decl)]
        return self.variable(e.decl)

    def e_Call(self, e: A.Call) -> Value:
        """A constexpr function whose body is `return expr;`, with its arguments' values."""
        fn = e.decl
        body = getattr(fn, "body", None)
        if not (isinstance(fn, A.FunctionDef) and "constexpr" in fn.specs.storage and body is not None
                and len(body.items) == 1 and isinstance(body.items[0], A.Return) and body.items[0].value is not None
                and body.items[0].value.ty is not None) or self.depth >= CONSTEXPR_DEPTH:
            raise NotConstant()
        args = {id(p): self.value(a) for p, a in zip(fn.params, e.args)}
        return _Evaluator(args, self.depth + 1).value(body.items[0].value)

    def e_SizeofExpr(self, e: A.SizeofExpr) -> int:
        return e.operand.ty.size

    def e_SizeofType(self, e: A.SizeofType) -> int:
        t = T.unqual(e.type_name.ty)
        return (t.base if isinstance(t, T.Reference) else t).align if e.align else e.type_name.ty.size

    def e_Cast(self, e: A.Cast) -> Value:
        value = self.value(e.operand)   # an array's or a function's address is not a constant here
        return convert(value, e.operand.ty, e.ty)

    def e_Unary(self, e: A.Unary) -> Value:
        if e.op not in ("-", "+", "~", "!"):
            raise NotConstant()
        v, ty = self.value(e.operand), T.unqual(e.ty)
        if e.op == "!":
            return int(not v)
        if e.op == "+":
            return v
        if T.is_float(ty):
            return -v
        return wrap(-v if e.op == "-" else ~v, ty)

    def e_Binary(self, e: A.Binary) -> Value:
        if e.op in ("&&", "||"):
            decided = bool(self.value(e.lhs))
            if decided == (e.op == "||"):
                return int(decided)
            return int(bool(self.value(e.rhs)))
        if isinstance(T.unqual(e.lhs.ty), T.Pointer) or isinstance(T.unqual(e.rhs.ty), T.Pointer):
            raise NotConstant()
        a, b = self.value(e.lhs), self.value(e.rhs)
        if e.op in _COMPARE:
            return int(_COMPARE[e.op](a, b))
        ty = T.unqual(e.ty)
        return _float_op(e.op, a, b, ty) if T.is_float(ty) else _integer_op(e.op, a, b, ty)

    def e_Conditional(self, e: A.Conditional) -> Value:
        while True:   # c1 ? a : c2 ? b : ...: along the else arms in a loop
            if self.value(e.cond):
                return self.value(e.then)
            if not isinstance(e.else_, A.Conditional) or e.else_.ty != e.ty or e.else_.ty is None:
                return self.value(e.else_)
            e = e.else_


def _evaluated_operands(e: A.Expr) -> list:
    """The operands that evaluating e always evaluates."""
    if isinstance(e, A.Binary):
        return [e.lhs] if e.op in ("&&", "||") else [e.lhs, e.rhs]
    if isinstance(e, A.Cast) or (isinstance(e, A.Unary) and e.op in ("-", "+", "~", "!")):
        return [e.operand]
    if isinstance(e, A.Conditional):
        return [e.cond]
    return []
