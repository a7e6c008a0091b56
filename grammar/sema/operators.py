"""Operators: arithmetic, comparison, logical, unary, assignment, ++/-- and ?:.

C's conversions are made explicit: operands are promoted or brought to their usual
arithmetic type with implicit casts, a pointer plus an integer keeps the pointer's type
(its integer operand widened to `long`), a pointer difference is a `long`, and every
comparison is a `bool`.  A compound assignment `x op= y` records the type it computes
in (`Assign.compute_ty`); its result has the target's type.  Assignment targets must
be modifiable lvalues; pointer arithmetic needs a complete pointee type.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.sema.conversions import pointer_convertible
from minicuda.grammar.sema.declarations import BUILTIN_VARIABLES
from minicuda.grammar.sema.expressions import designated_function, operator_location
from minicuda.grammar.sema.scopes import Overloads


class Operators:
    """Needs from the analyser: `expr`, `value`, `condition`, `implicit`, `convert`,
    `is_null_constant` and `fail`."""

    def expr_Binary(self, e: A.Binary):
        op = e.op
        if op in ("&&", "||"):
            e.lhs, e.rhs = self.condition(e.lhs), self.condition(e.rhs)
            e.ty = T.BOOL
            return e
        lhs, rhs = self.value(e.lhs), self.value(e.rhs)
        lt, rt = T.unqual(lhs.ty), T.unqual(rhs.ty)
        if isinstance(lt, T.Struct) or isinstance(rt, T.Struct):
            call = self.overloaded_operator("operator" + op, [lhs, rhs], operator_location(e))
            if call is not None:
                return call
        bad = lambda: self.fail(f"invalid operands to binary expression ('{lhs.ty}' and '{rhs.ty}')", operator_location(e))
        if op in ("+", "-") and (isinstance(lt, T.Pointer) or isinstance(rt, T.Pointer)):
            return self.pointer_arith(e, lhs, rhs, bad)
        if op in ("<", ">", "<=", ">=", "==", "!=") and (isinstance(lt, T.Pointer) or isinstance(rt, T.Pointer)):
            return self.pointer_comparison(e, lhs, rhs)
        if not (T.is_arithmetic(lt) and T.is_arithmetic(rt)):
            bad()
        if op in ("%", "&", "|", "^", "<<", ">>") and not (T.is_integer(lt) and T.is_integer(rt)):
            bad()
        if op in ("<<", ">>"):
            e.lhs, e.rhs = self.implicit(lhs, T.promote(lt)), self.implicit(rhs, T.promote(rt))
            e.ty = T.promote(lt)
            return e
        common = T.usual_arithmetic(lt, rt)
        e.lhs, e.rhs = self.implicit(lhs, common), self.implicit(rhs, common)
        e.ty = T.BOOL if op in ("<", ">", "<=", ">=", "==", "!=") else common
        self.warn_division_by_zero(op, common, e.rhs, e)
        return e

    def warn_division_by_zero(self, op: str, ty: T.Type, divisor: A.Expr, e: A.Expr) -> None:
        """clang's -Wdivision-by-zero: an integer / or % whose divisor is the constant 0."""
        if op in ("/", "%") and T.is_integer(ty) and self.const_eval(divisor) == 0:
            what = "division" if op == "/" else "remainder"
            self.diags.warning(f"{what} by zero is undefined [-Wdivision-by-zero]", operator_location(e))

    def pointer_comparison(self, e: A.Binary, lhs, rhs):
        """Two pointers of compatible types, or a pointer and a null pointer constant."""
        lt, rt = T.unqual(lhs.ty), T.unqual(rhs.ty)
        if isinstance(lt, T.Pointer) and isinstance(rt, T.Pointer):
            if not (pointer_convertible(lt, rt) or pointer_convertible(rt, lt)):
                self.fail(f"comparison of distinct pointer types ('{lhs.ty}' and '{rhs.ty}')", e.loc)
        elif not (self.is_null_constant(lhs) or self.is_null_constant(rhs)):
            self.fail(f"comparison between pointer and integer ('{lhs.ty}' and '{rhs.ty}')", e.loc)
        else:
            ptr = lt if isinstance(lt, T.Pointer) else rt
            lhs, rhs = (lhs, self.implicit(rhs, ptr)) if isinstance(lt, T.Pointer) else (self.implicit(lhs, ptr), rhs)
        e.lhs, e.rhs, e.ty = lhs, rhs, T.BOOL
        return e

    def pointer_arith(self, e: A.Binary, lhs, rhs, bad):
        lt, rt = T.unqual(lhs.ty), T.unqual(rhs.ty)
        if isinstance(lt, T.Pointer) and isinstance(rt, T.Pointer):
            if e.op != "-" or T.unqual(lt.base) != T.unqual(rt.base):
                bad()
            e.lhs, e.rhs, e.ty = lhs, rhs, T.LONG
            return e
        if isinstance(rt, T.Pointer):
            if e.op == "-" or not T.is_integer(lt):
                bad()
            lhs, rhs, lt, rt = rhs, lhs, rt, lt
        if not T.is_integer(rt):
            bad()
        self.require_complete_pointee(lt, e.loc)
        e.lhs, e.rhs = lhs, self.implicit(rhs, T.LONG)
        e.ty = lt
        return e

    def require_complete_pointee(self, ptr: T.Pointer, loc) -> None:
        base = ptr.base
        if T.is_void(base):
            self.fail(f"arithmetic on a pointer to void", loc)
        if isinstance(base, T.Struct) and base.info.fields is None:
            self.fail(f"arithmetic on a pointer to an incomplete type '{base}'", loc)

    def expr_Unary(self, e: A.Unary):
        op = e.op
        if op in ("-", "+", "!", "~"):
            operand = self.value(e.operand)
            call = self.overloaded_operator("operator" + op, [operand], e.loc) \
                if isinstance(T.unqual(operand.ty), T.Struct) else None
            if call is not None:
                return call
            e.operand = operand
        if op == "&":
            inner = self.expr(e.operand)
            if isinstance(inner, A.Name) and isinstance(inner.decl, Overloads):
                if designated_function(inner.decl) is None:
                    self.fail("taking the address of an overloaded function or a function template is not "
                              "supported", e.loc)
                e.operand, e.ty = inner, T.Pointer(base=inner.ty)   # &f: a function pointer
                return e
            if not self.is_lvalue(inner):
                self.fail(f"cannot take the address of an rvalue of type '{inner.ty}'", e.loc)
            e.operand, e.ty = inner, T.Pointer(base=inner.ty)
            return e
        v = self.value(e.operand)
        t = T.unqual(v.ty)
        if op == "*":
            if not isinstance(t, T.Pointer):
                self.fail(f"indirection requires pointer operand ('{v.ty}' invalid)", e.loc)
            if T.is_void(t.base):
                self.fail(f"indirection not permitted on operand of type '{v.ty}'", e.loc)
            e.operand, e.ty = v, t.base
            return e
        if op == "!":
            e.operand, e.ty = self.condition(v), T.BOOL
            return e
        if op == "~" and not T.is_integer(t) or op in ("-", "+") and not T.is_arithmetic(t):
            self.fail(f"invalid argument type '{v.ty}' to unary expression", e.loc)
        e.ty = T.promote(t)
        e.operand = self.implicit(v, e.ty)
        return e

    def is_lvalue(self, e: A.Expr) -> bool:
        if isinstance(e, A.Name):
            return isinstance(e.decl, (A.VarDecl, A.ParamDecl))
        if isinstance(e, A.Index) or isinstance(e, A.StringLit):
            return True
        if isinstance(e, A.Unary):
            return e.op == "*"
        if isinstance(e, A.Member):
            return e.arrow or self.is_lvalue(e.base)
        return False

    def assignable(self, target: A.Expr, loc) -> A.Expr:
        t = self.expr(target)
        if not self.is_lvalue(t):
            self.fail("expression is not assignable", loc)
        if isinstance(t.ty, T.Array):
            self.fail(f"array type '{t.ty}' is not assignable", loc)
        if t.ty.const:
            if isinstance(t, A.Name):
                self.fail(f"cannot assign to variable '{t.name}' with const-qualified type '{t.ty}'", loc)
            self.fail("read-only variable is not assignable", loc)
        return t

    def expr_Assign(self, e: A.Assign):
        if isinstance(e.target, A.Member) and isinstance(e.target.base, A.Name) and e.target.base.name in BUILTIN_VARIABLES:
            base = self.expr(e.target.base)
            if isinstance(base.decl, A.VarDecl) and base.decl.space == "builtin":
                self.fail(f"cannot assign to variable '{base.name}' with const-qualified type '{base.ty}'", operator_location(e))
        target = self.assignable(e.target, operator_location(e))
        if isinstance(e.value, A.InitList) and e.op != "=":
            self.fail(f"initializer list cannot be used on the right hand side of operator '{e.op}'", e.value.loc)
        if isinstance(e.value, A.InitList):
            e.value = self.braced_assigned_value(e.value, target.ty)
        value = self.value(e.value)
        tt = T.unqual(target.ty)
        if isinstance(tt, T.Struct) and (e.op != "=" or self.find_methods(tt, "operator=")[0]):
            call = self.overloaded_operator("operator" + e.op, [target, value], operator_location(e))
            if call is not None:
                return call
        if e.op == "=":
            e.target, e.value, e.ty = target, self.convert(value, tt, "assigning", e.value.loc), tt
            return e
        op = e.op[:-1]
        vt = T.unqual(value.ty)
        if isinstance(tt, T.Pointer) and op in ("+", "-") and T.is_integer(vt):
            self.require_complete_pointee(tt, e.loc)
            e.target, e.value, e.ty = target, self.implicit(value, T.LONG), tt
            return e
        if not (T.is_arithmetic(tt) and T.is_arithmetic(vt)) or \
                (op in ("%", "&", "|", "^", "<<", ">>") and not (T.is_integer(tt) and T.is_integer(vt))):
            self.fail(f"invalid operands to binary expression ('{target.ty}' and '{value.ty}')", operator_location(e))
        common = T.promote(tt) if op in ("<<", ">>") else T.usual_arithmetic(tt, vt)
        e.target, e.value, e.ty = target, self.implicit(value, T.promote(vt) if op in ("<<", ">>") else common), tt
        e.compute_ty = common
        self.warn_division_by_zero(op, common, e.value, e)
        return e

    def braced_assigned_value(self, init: A.InitList, ty: T.Type) -> A.Expr:
        """`x = {a, b}` (C++11): a class or struct is assigned `T{a, b}` (its constructor,
        or aggregate initialisation), a scalar its one element (`{}`: zero)."""
        t = T.unqual(ty)
        if isinstance(t, T.Struct):
            c = A.Construct(None, init.items, braced=True, loc=init.loc)
            c.target_ty = t
            return c
        if len(init.items) > 1:
            self.fail("excess elements in scalar initializer", init.items[1].loc)
        if init.items and isinstance(init.items[0], A.InitList):
            self.fail("too many braces around scalar initializer", init.items[0].loc)
        if init.items:
            return init.items[0]
        zero = A.IntLit(0, "0", loc=init.loc)
        zero.ty = T.INT
        return zero

    def expr_InitList(self, e: A.InitList):
        """A braced list where no type is known to list-initialise (a kernel launch's
        argument, a placement): what minicuda does not support there."""
        self.fail("an initializer list is not supported here", e.loc)

    def expr_IncDec(self, e: A.IncDec):
        target = self.assignable(e.operand, operator_location(e))
        t = T.unqual(target.ty)
        if not T.is_scalar(t):
            self.fail(f"cannot {'increment' if e.op == '++' else 'decrement'} value of type '{target.ty}'", e.loc)
        if isinstance(t, T.Pointer):
            self.require_complete_pointee(t, e.loc)
        e.operand, e.ty = target, t
        return e

    def expr_Conditional(self, e: A.Conditional):
        e.cond = self.condition(e.cond)
        a, b = self.value(e.then), self.value(e.else_)
        at, bt = T.unqual(a.ty), T.unqual(b.ty)
        if T.is_arithmetic(at) and T.is_arithmetic(bt):
            ty = T.usual_arithmetic(at, bt)
        elif at == bt:
            ty = at
        elif isinstance(at, T.Pointer) and isinstance(bt, T.Pointer):
            if pointer_convertible(at, bt):
                ty = bt
            elif pointer_convertible(bt, at):
                ty = at
            else:
                self.fail(f"incompatible operand types ('{a.ty}' and '{b.ty}')", operator_location(e))
        elif isinstance(at, T.Pointer) and self.is_null_constant(b):
            ty = at
        elif isinstance(bt, T.Pointer) and self.is_null_constant(a):
            ty = bt
        else:
            self.fail(f"incompatible operand types ('{a.ty}' and '{b.ty}')", operator_location(e))
        e.then, e.else_, e.ty = self.implicit(a, ty), self.implicit(b, ty), ty
        return e
