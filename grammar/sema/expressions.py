"""Expressions: names, literals, member access, subscripts, sizeof and the comma.

`expr(e)` types `e` and returns the node to use in its place (a template value
parameter becomes its literal, `__func__` a string); `value(e)` is the same as an
rvalue, arrays and functions decayed to pointers; `condition(e)` is a scalar as
`bool`.  `expr` dispatches on the node's kind to `expr_<Kind>`: names, literals,
members, subscripts and sizeof here; operators in operators.py, casts and
construction in conversions.py, calls and launches in calls.py.  After a check every
expression has `ty`, every name its `decl`, and each implicit conversion is an
explicit `Cast(implicit=True)` node.  A name is checked against the execution space
of the function that uses it (a host function cannot read threadIdx; device code
cannot read a host variable unless it is a constant).
An error is reported at the operator of the expression where clang points it
(`operator_location`).
However deep an expression is, its check recurses at most `nesting.SPAN` operators
deep: the first check of an operator expression checks the operators SPAN, 2*SPAN,
... levels under it first, deepest first (`check_deep_operands`), and remembers what
each check put in the node's place (`early`).
"""
from __future__ import annotations

import math
import struct

from minicuda.diagnostics import SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.nesting import deep_first
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar.sema.scopes import ConstSym, Overloads, TypedefSym

MEMBER_SYMBOLS = ("FieldSym", "MethodSym", "CaptureSym")   # classes.py / lambdas.py: members seen inside a member function


# operator expressions: every operand is checked by expr, value or condition, in any context
OPERATORS = (A.Binary, A.Unary, A.Cast, A.Assign, A.Conditional, A.Comma, A.Index, A.Member, A.IncDec)


def operator_location(e: A.Node) -> SourceLocation:
    """The location of an expression's operator, where clang points its errors."""
    return getattr(e, "op_loc", None) or e.loc


class Expressions:
    """Needs from the analyser: `scope`, `fn`, `fail`, `undeclared`, `implicit`,
    `require_complete_pointee`, `type_of`, `const_eval_var`, and the dicts `early`
    and `walked`."""

    def expr(self, e: A.Expr) -> A.Expr:
        """Type `e` (no array decay); returns the node to use in its place."""
        if e.ty is not None and not isinstance(e, A.Name):
            early = self.early.get(id(e))
            return early[1] if early is not None and early[0] is e else e
        if isinstance(e, OPERATORS) and self.walked.get(id(e)) is not e:
            self.check_deep_operands(e)
        method = getattr(self, "expr_" + type(e).__name__)
        out = method(e)
        assert out.ty is not None, type(e).__name__
        return out

    def check_deep_operands(self, e: A.Expr) -> None:
        """Check the operator expressions SPAN, 2*SPAN, ... levels under e, deepest first."""
        early, reached = deep_first(e, self._unchecked_operands)
        self.walked.update((id(n), n) for n in reached)
        for node in early:
            out = self.expr(node)
            if out is not node:
                self.early[id(node)] = (node, out)

    def _unchecked_operands(self, e: A.Expr) -> list:
        return [c for c in e.children() if isinstance(c, OPERATORS) and c.ty is None and self.walked.get(id(c)) is not c]

    def value(self, e: A.Expr) -> A.Expr:
        """An rvalue: arrays and functions decay to pointers."""
        e = self.expr(e)
        if isinstance(e.ty, (T.Array, T.Function)):
            return self.implicit(e, T.decay(e.ty))
        return e

    def condition(self, e: A.Expr) -> A.Expr:
        v = self.value(e)
        if isinstance(T.unqual(v.ty), T.Struct):
            v = self.conversion_call(v, T.BOOL, e.loc, explicit=True)   # classes.py: operator bool()
        if not T.is_scalar(v.ty):
            self.fail(f"value of type '{v.ty}' is not contextually convertible to 'bool'", e.loc)
        return self.implicit(v, T.BOOL) if T.unqual(v.ty) != T.BOOL else v

    def expr_Name(self, e: A.Name):
        if e.scope_type is not None:
            self.scoped_template_name(e)   # Foo<int>::get (templates.py)
        sym = self.scope.lookup(e.name)
        if sym is None and "::" in e.name:
            sym = self.member_of_named_class(e)
        if sym is None:
            if e.name in ("__func__", "__PRETTY_FUNCTION__") and self.fn is not None:
                text = self.fn.name if e.name == "__func__" else pretty_function(self.fn)
                s = A.StringLit(text.encode(), loc=e.loc)
                s.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(text.encode()) + 1)
                return s
            self.undeclared(e.name, e.loc)
        if isinstance(sym, ConstSym):
            lit = A.IntLit(sym.value, str(sym.value), loc=e.loc)
            lit.ty = sym.ty
            return lit
        if isinstance(sym, TypedefSym):
            self.fail(f"unexpected type name '{e.name}': expected expression", e.loc)
        if type(sym).__name__ in MEMBER_SYMBOLS:
            return self.class_name_expr(sym, e)
        if isinstance(sym, Overloads):
            e.decl = sym
            only = designated_function(sym)   # its type, so that `f` decays to a function pointer
            e.ty = only.ty if only is not None else T.Function(ret=T.VOID)
            return e
        e.decl = sym
        e.ty = sym.ty
        self.check_variable_space(sym, e)
        if isinstance(sym.ty, T.Reference):
            return self.dereference(e, sym.ty.base)   # cxx.py
        return e

    def member_of_named_class(self, e: A.Name):
        """`P::num`: the member of the class a typedef, a template's type parameter or a
        member typedef (`To::period::num`) names; `e` is renamed to the member's own name."""
        scope, _, member = e.name.rpartition("::")
        owner = self.class_named(scope)
        if owner is None:
            return None
        e.name = f"{owner.name}::{member}"
        return self.scope.lookup(e.name)

    def class_named(self, name: str) -> T.Struct | None:
        sym = self.scope.lookup(name)
        if isinstance(sym, TypedefSym):
            t = T.unqual(sym.ty)
            return t if isinstance(t, T.Struct) else None
        outer, _, member = name.rpartition("::")
        owner = self.class_named(outer) if outer else None
        if owner is not None and member in owner.info.member_types:
            t = T.unqual(owner.info.member_types[member])
            return t if isinstance(t, T.Struct) else None
        return None

    def check_variable_space(self, sym, e: A.Name) -> None:
        if not isinstance(sym, A.VarDecl) or self.fn is None:
            return
        host_only = "device" not in self.fn.exec_space and "global" not in self.fn.exec_space
        device_only = "host" not in self.fn.exec_space
        if host_only and sym.space == "builtin":
            self.fail(f"'{sym.name}' is only available in device code (used in __host__ function '{self.fn.name}')", e.loc)
        if host_only and sym.space in ("global", "constant", "shared") and not is_system_location(sym.loc) \
                and not getattr(self, "naming_symbol", False):
            kind = {"global": "__device__", "constant": "__constant__", "shared": "__shared__"}[sym.space]
            self.diags.warning(f'a {kind} variable "{sym.name}" cannot be directly read in a host function', e.loc)
        if device_only and sym.space == "host" and not (sym.ty.const and self.const_eval_var(sym) is not None):
            self.fail(f'identifier "{sym.name}" is undefined in device code', e.loc)

    def expr_IntLit(self, e: A.IntLit):
        suffix = "".join(c for c in e.text.lower() if c in "ul") if e.text else ""
        unsigned, longs = "u" in suffix, suffix.count("l")
        decimal = not (e.text[:2].lower() in ("0x", "0b") or (len(e.text) > 1 and e.text[0] == "0"))
        cands = (["int", "long", "long long"] if decimal and not unsigned else
                 ["int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"])
        if unsigned:
            cands = ["unsigned int", "unsigned long", "unsigned long long"]
        if longs == 1:
            cands = [c for c in cands if "long" in c]
        elif longs == 2:
            cands = [c for c in cands if "long long" in c]
        for c in cands:
            t = T.Prim(name=c)
            if e.value < (1 << (t.size * 8 - (1 if t.signed else 0))):
                e.ty = t
                return e
        self.fail("integer literal is too large to be represented in any integer type", e.loc)

    def expr_FloatLit(self, e: A.FloatLit):
        e.ty = T.FLOAT if e.text[-1:] in ("f", "F") else T.DOUBLE
        e.value, problem = literal_in_range(e.value, e.text, e.ty == T.FLOAT)
        if problem:
            self.diags.warning(f"{problem} [-Wliteral-range]", e.loc)
        return e

    def expr_CharLit(self, e: A.CharLit):
        e.ty = T.CHAR
        return e

    def expr_StringLit(self, e: A.StringLit):
        e.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(e.value) + 1)
        return e

    def expr_BoolLit(self, e: A.BoolLit):
        e.ty = T.BOOL
        return e

    def expr_Comma(self, e: A.Comma):
        e.lhs, e.rhs = self.expr(e.lhs), self.value(e.rhs)
        e.ty = e.rhs.ty
        return e

    def expr_SizeofExpr(self, e: A.SizeofExpr):
        inner = self.expr(e.operand)
        e.operand = inner
        self.size_of(inner.ty, e.loc)
        e.ty = T.SIZE_T
        return e

    def expr_SizeofType(self, e: A.SizeofType):
        self.size_of(self.type_of(e.type_name), e.loc, "alignof" if e.align else "sizeof")
        e.ty = T.SIZE_T
        return e

    def size_of(self, ty: T.Type, loc, operator: str = "sizeof") -> int:
        if isinstance(ty, T.Reference):
            ty = ty.base
        if T.is_void(ty) or isinstance(ty, T.Function) or (isinstance(ty, T.Struct) and ty.info.fields is None) \
                or (isinstance(ty, T.Array) and ty.length is None):
            self.fail(f"invalid application of '{operator}' to an incomplete type '{ty}'", loc)
        return ty.size

    def expr_Index(self, e: A.Index):
        base, index = self.value(e.base), self.value(e.index)
        if isinstance(T.unqual(base.ty), T.Struct):
            call = self.overloaded_operator("operator[]", [base, index], operator_location(e))
            if call is not None:
                return call
        if isinstance(T.unqual(index.ty), T.Pointer) and T.is_integer(base.ty):
            base, index = index, base
        bt = T.unqual(base.ty)
        if not isinstance(bt, T.Pointer):
            self.fail("subscripted value is not an array, pointer, or vector", operator_location(e))
        if not T.is_integer(index.ty):
            self.fail("array subscript is not an integer", e.index.loc)
        self.require_complete_pointee(bt, e.loc)
        e.base, e.index, e.ty = base, self.implicit(index, T.LONG), bt.base
        return e

    def expr_Member(self, e: A.Member):
        base = self.expr(e.base)
        bt = T.unqual(base.ty)
        if e.arrow:
            if not isinstance(bt, T.Pointer):
                if isinstance(bt, T.Struct):
                    self.fail(f"member reference type '{base.ty}' is not a pointer; did you mean to use '.'?", operator_location(e))
                self.fail(f"member reference type '{base.ty}' is not a pointer", operator_location(e))
            base = self.value(base)
            st = T.unqual(bt.base)
            quals = bt.base
        else:
            if isinstance(bt, T.Pointer) and isinstance(T.unqual(bt.base), T.Struct):
                self.fail(f"member reference type '{base.ty}' is a pointer; did you mean to use '->'?", operator_location(e))
            st, quals = bt, base.ty
        if not isinstance(st, T.Struct):
            self.fail(f"member reference base type '{st}' is not a structure or union", operator_location(e))
        if st.info.fields is None:
            self.fail(f"member access into incomplete type '{st}'", e.loc)
        if e.name in st.info.statics:
            return self.expr(A.Name(st.info.statics[e.name].name, loc=e.loc))
        found = self.find_field(st, e.name, e.loc)
        if found is None:
            self.fail(f"no member named '{e.name}' in '{st}'", e.loc)
        fty, hops, owner = found
        e.name = e.name.rpartition("::")[2]   # `obj.Base::n`: Base's n, through its hops
        self.check_access(owner, e.name, e.loc)
        for hop in hops:   # a base class's member: through the `__base` fields
            base = A.Member(base, hop, e.arrow, loc=e.loc)
            base.ty = T.qualified(st.info.fields[hop][0], const=quals.const)
            if e.arrow:
                e.arrow = False
            st = T.unqual(base.ty)
        const = quals.const and (owner.name, e.name) not in self.mutable_members
        if const or quals.volatile:
            fty = T.qualified(fty, const=fty.const or const, volatile=fty.volatile or quals.volatile)
        e.base, e.ty = base, fty
        return e


FLOAT_RANGE = {True: ("float", "3.40282347E+38", "1.40129846E-45"),
               False: ("double", "1.7976931348623157E+308", "4.9406564584124654E-324")}


def literal_in_range(value: float, text: str, single: bool) -> tuple[float, str | None]:
    """A floating literal's value in its type (inf when it overflows, 0 when it underflows)
    and clang's -Wliteral-range message when it does not fit."""
    stored = value
    if single and not math.isinf(value):
        try:
            stored = struct.unpack("<f", struct.pack("<f", value))[0]
        except OverflowError:
            stored = math.copysign(math.inf, value)
    name, largest, smallest = FLOAT_RANGE[single]
    if math.isinf(stored):
        return stored, f"magnitude of floating-point constant too large for type '{name}'; maximum is {largest}"
    digits = text.lower().rstrip("fl")
    hexadecimal = digits.startswith("0x")
    mantissa = (digits[2:] if hexadecimal else digits).split("p" if hexadecimal else "e")[0]
    if stored == 0 and mantissa.strip("0.") != "":
        return stored, f"magnitude of floating-point constant too small for type '{name}'; minimum is {smallest}"
    return value, None


def pretty_function(fn: A.FunctionDef) -> str:
    """__PRETTY_FUNCTION__ as the compiler of the function's side spells it: cicc's for
    device code ("void k(int *)", in CUDA's assert messages), gcc's for host code
    ("int main(int, char**)", in glibc's)."""
    params = ", ".join(p.spelled() for p in fn.ty.params)
    text = f"{fn.ty.ret.spelled()} {fn.name}({params})"
    return text if "host" not in fn.exec_space and fn.exec_space else text.replace(" *", "*")


def designated_function(sym: Overloads) -> A.FunctionDef | None:
    """The one function (not a template) a name of functions designates, as `f` or `&f`
    does where a function pointer is made; None when there are several or none."""
    found = {id(f.ty): f for f in sym.functions if not f.is_template and f.ty is not None}
    types = {f.ty for f in found.values()}
    return next(iter(found.values())) if len(types) == 1 else None
